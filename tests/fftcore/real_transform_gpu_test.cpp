// SPDX-License-Identifier: MIT
// Real-input transforms (R2C / C2R) on the GPU, both backends: accuracy against a double
// reference side by side with cuFFT FP16 on the same FP16 input (ours <= 1.10x cuFFT's
// relative L2 error, and an absolute sanity bound), round trips, scaling, FP32 cuFFT at
// non-power-of-two sizes, and the refusals (direction, in place, workspace, sizes).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/gpu_test.hpp"
#include "common/reference_dft.hpp"
#include "tc_test_support.hpp"

namespace {

using fftcore::Backend;
using fftcore::Direction;
using fftcore::Precision;
using fftcore::Scaling;
using fftcore::Status;
using fftcore::Transform;
using tcfft::testing::cd;
using tcfft::testing::DeviceBuffer;
constexpr double kMaxRatio = 1.10;
constexpr double kSanityL2 = 3e-3;

class RealTransform : public tcfft::testing::GpuTest {};

/// rows = 0: 1-D of `cols` points.
fftcore::PlanDesc real_desc(std::int64_t rows, std::int64_t cols, std::int64_t batch,
                            Transform kind, Backend backend, Scaling scaling = Scaling::kNone,
                            Precision precision = Precision::kHalf) {
  fftcore::PlanDesc d;
  d.rank = rows > 0 ? 2 : 1;
  d.dims[0] = rows > 0 ? rows : cols;
  d.dims[1] = rows > 0 ? cols : 0;
  d.batch = batch;
  d.kind = kind;
  d.backend = backend;
  d.scaling = scaling;
  d.precision = precision;
  return d;
}

std::string shape_name(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  return (rows > 0 ? std::to_string(rows) + " x " : std::string()) + std::to_string(cols) +
         " batch " + std::to_string(batch);
}

/// Random reals in [-1, 1], rounded to FP16 (the values every transform sees).
std::vector<double> random_real_half(std::size_t n, unsigned& seed) {
  seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& v : x) v = static_cast<double>(__half2float(__double2half(u(rng))));
  return x;
}

/// Half spectrum (unscaled, sign -1) of real x [batch][rows][cols], in double.
std::vector<cd> reference_r2c(std::vector<double> const& x, std::int64_t rows, std::int64_t cols,
                              std::int64_t batch) {
  std::int64_t const r = std::max<std::int64_t>(rows, 1);
  auto const full =
      tcfft::testing::reference_fft(std::vector<cd>(x.begin(), x.end()), r, cols, batch, -1);
  std::vector<cd> half;
  half.reserve(static_cast<std::size_t>(batch * r * (cols / 2 + 1)));
  for (std::int64_t line = 0; line < batch * r; ++line) {
    for (std::int64_t k = 0; k <= cols / 2; ++k) {
      half.push_back(full[static_cast<std::size_t>(line * cols + k)]);
    }
  }
  return half;
}

/// C2R in double (unscaled, sign +1) of a half spectrum: the full Hermitian spectrum rebuilt
/// row by row (2-D: the missing columns are conj(X[-r mod rows][cols - c])), then the inverse.
std::vector<double> reference_c2r(std::vector<cd> const& half, std::int64_t rows, std::int64_t cols,
                                  std::int64_t batch) {
  std::int64_t const r = std::max<std::int64_t>(rows, 1), h = cols / 2 + 1;
  std::vector<cd> full(static_cast<std::size_t>(batch * r * cols));
  for (std::int64_t b = 0; b < batch; ++b) {
    for (std::int64_t i = 0; i < r; ++i) {
      for (std::int64_t c = 0; c < cols; ++c) {
        cd v;
        if (c < h) {
          v = half[static_cast<std::size_t>((b * r + i) * h + c)];
        } else {
          std::int64_t const mi = (r - i) % r, mc = cols - c;
          v = std::conj(half[static_cast<std::size_t>((b * r + mi) * h + mc)]);
        }
        full[static_cast<std::size_t>((b * r + i) * cols + c)] = v;
      }
    }
  }
  auto const y = tcfft::testing::reference_fft(std::move(full), r, cols, batch, +1);
  std::vector<double> out(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) out[i] = y[i].real();
  return out;
}

std::vector<__half> to_half_real(std::vector<double> const& x) {
  std::vector<__half> h(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) h[i] = __double2half(x[i]);
  return h;
}

/// Runs a real plan on the host data `in` (FP16 reals for R2C, FP16 complex for C2R) and
/// returns the output as doubles (complex spectrum for R2C, reals as cd(x, 0) for C2R).
void run_real(fftcore::PlanDesc const& desc, std::vector<double> const& real_in,
              std::vector<cd> const& complex_in, std::vector<cd>& y) {
  fftcore::Plan plan;
  TC_STATUS_OK(fftcore::make_plan(desc, plan));
  bool const r2c = desc.kind == Transform::kR2C;
  std::size_t const in_bytes = fftcore::buffer_bytes(desc, true);
  std::size_t const out_bytes = fftcore::buffer_bytes(desc, false);
  DeviceBuffer in(in_bytes), out(out_bytes), ws(plan.workspace_bytes());
  ASSERT_NE(in.get(), nullptr);
  ASSERT_NE(out.get(), nullptr);
  if (r2c) {
    auto const h = to_half_real(real_in);
    ASSERT_EQ(h.size() * sizeof(__half), in_bytes);
    TC_CUDA_OK(cudaMemcpy(in.get(), h.data(), in_bytes, cudaMemcpyHostToDevice));
  } else {
    auto const h = tcfft::testing::to_half(complex_in);
    ASSERT_EQ(h.size() * sizeof(__half2), in_bytes);
    TC_CUDA_OK(cudaMemcpy(in.get(), h.data(), in_bytes, cudaMemcpyHostToDevice));
  }
  TC_CUDA_OK(cudaMemset(out.get(), 0xFF, out_bytes));  // NaN: unwritten outputs show
  Direction const dir = r2c ? Direction::kForward : Direction::kInverse;
  TC_STATUS_OK(fftcore::execute(plan, in.get(), out.get(), dir, ws.get(), ws.bytes(), nullptr));
  TC_CUDA_OK(cudaDeviceSynchronize());
  if (r2c) {
    std::vector<__half2> r(out_bytes / sizeof(__half2));
    TC_CUDA_OK(cudaMemcpy(r.data(), out.get(), out_bytes, cudaMemcpyDeviceToHost));
    y = tcfft::testing::to_double(r);
  } else {
    std::vector<__half> r(out_bytes / sizeof(__half));
    TC_CUDA_OK(cudaMemcpy(r.data(), out.get(), out_bytes, cudaMemcpyDeviceToHost));
    y.resize(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) y[i] = {__half2float(r[i]), 0.0};
  }
}

/// cuFFT FP16 R2C called directly (cufftXtMakePlanMany CUDA_R_16F -> CUDA_C_16F), unscaled.
void run_cufft_r2c_half(std::int64_t rows, std::int64_t cols, std::int64_t batch,
                        std::vector<double> const& x, std::vector<cd>& y) {
  cufftHandle handle = 0;
  ASSERT_EQ(cufftCreate(&handle), CUFFT_SUCCESS);
  long long dims[2] = {rows, cols};
  int const rank = rows > 0 ? 2 : 1;
  auto const h = to_half_real(x);
  std::int64_t const r = std::max<std::int64_t>(rows, 1);
  std::size_t const out_count = static_cast<std::size_t>(batch * r * (cols / 2 + 1));
  DeviceBuffer in(h.size() * sizeof(__half)), out(out_count * sizeof(__half2));
  std::size_t ws = 0;
  cufftResult res =
      cufftXtMakePlanMany(handle, rank, rank == 2 ? dims : dims + 1, nullptr, 1, 0, CUDA_R_16F,
                          nullptr, 1, 0, CUDA_C_16F, batch, &ws, CUDA_C_16F);
  if (res == CUFFT_SUCCESS) {
    EXPECT_EQ(cudaMemcpy(in.get(), h.data(), in.bytes(), cudaMemcpyHostToDevice), cudaSuccess);
    res = cufftXtExec(handle, in.get(), out.get(), CUFFT_FORWARD);
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  (void)cufftDestroy(handle);
  ASSERT_EQ(res, CUFFT_SUCCESS) << "cuFFT FP16 R2C";
  std::vector<__half2> o(out_count);
  TC_CUDA_OK(cudaMemcpy(o.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost));
  y = tcfft::testing::to_double(o);
}

double max_abs(std::vector<cd> const& y) {
  double m = 0;
  for (cd const& v : y) m = std::max(m, std::abs(v));
  return m;
}

/// Our result, cuFFT's and the reference: prints both errors, checks the accuracy rule.
void expect_accuracy(char const* what, std::string const& shape, std::vector<cd> const& ours,
                     std::vector<cd> const& cufft, std::vector<cd> const& ref, unsigned seed) {
  ASSERT_EQ(ours.size(), ref.size());
  ASSERT_EQ(cufft.size(), ref.size());
  double const l2 = tcfft::testing::relative_l2_error(ours, ref);
  double const l2_cufft = tcfft::testing::relative_l2_error(cufft, ref);
  double const mx = tcfft::testing::relative_max_error(ours, ref);
  double const ratio = l2_cufft > 0 ? l2 / l2_cufft : (l2 > 0 ? 99.0 : 0.0);
  std::printf("[real-accuracy] %s %-26s L2 %.3e (cuFFT %.3e, ratio %.3f)  max %.3e  seed %u\n",
              what, shape.c_str(), l2, l2_cufft, ratio, mx, seed);
  EXPECT_GT(max_abs(ours), 0.0) << "all-zero output";
  EXPECT_LE(l2, kMaxRatio * l2_cufft + 1e-7) << what << " " << shape << " seed " << seed;
  EXPECT_LT(l2, kSanityL2) << what << " " << shape << " seed " << seed;
  EXPECT_LT(mx, 10 * kSanityL2) << what << " " << shape << " seed " << seed;
  EXPECT_LT(l2_cufft, kSanityL2) << "cuFFT itself, " << shape;
}

/// R2C, Tensor Core vs cuFFT FP16 (direct) vs the double reference, unscaled.
void compare_r2c(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  std::int64_t const r = std::max<std::int64_t>(rows, 1);
  unsigned seed = 0;
  auto const x = random_real_half(static_cast<std::size_t>(batch * r * cols), seed);
  auto const ref = reference_r2c(x, rows, cols, batch);
  std::vector<cd> ours, theirs, wrapped;
  ASSERT_NO_FATAL_FAILURE(
      run_real(real_desc(rows, cols, batch, Transform::kR2C, Backend::kTensorCore), x, {}, ours));
  ASSERT_NO_FATAL_FAILURE(run_cufft_r2c_half(rows, cols, batch, x, theirs));
  expect_accuracy("R2C tc   ", shape_name(rows, cols, batch), ours, theirs, ref, seed);
  // fftcore's cuFFT backend without scaling is cuFFT itself.
  ASSERT_NO_FATAL_FAILURE(
      run_real(real_desc(rows, cols, batch, Transform::kR2C, Backend::kCufft), x, {}, wrapped));
  EXPECT_LT(tcfft::testing::relative_l2_error(wrapped, theirs), 1e-12) << "cuFFT backend";
}

/// C2R with 1/N of the FP16-rounded spectrum of a random real: Tensor Core vs fftcore's cuFFT
/// backend (cuFFT FP16 C2R with the power-of-two pre-scale, since unscaled it overflows).
void compare_c2r(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  std::int64_t const r = std::max<std::int64_t>(rows, 1);
  unsigned seed = 0;
  auto const x = random_real_half(static_cast<std::size_t>(batch * r * cols), seed);
  auto const spectrum = tcfft::testing::round_to_half(reference_r2c(x, rows, cols, batch));
  auto const back = reference_c2r(spectrum, rows, cols, batch);
  std::vector<cd> ref(back.size());
  double const n = static_cast<double>(r * cols);
  for (std::size_t i = 0; i < back.size(); ++i) ref[i] = {back[i] / n, 0.0};
  std::vector<cd> ours, theirs;
  ASSERT_NO_FATAL_FAILURE(
      run_real(real_desc(rows, cols, batch, Transform::kC2R, Backend::kTensorCore, Scaling::kByN),
               {}, spectrum, ours));
  ASSERT_NO_FATAL_FAILURE(
      run_real(real_desc(rows, cols, batch, Transform::kC2R, Backend::kCufft, Scaling::kByN), {},
               spectrum, theirs));
  expect_accuracy("C2R tc   ", shape_name(rows, cols, batch), ours, theirs, ref, seed);
}

std::int64_t batch_for(std::int64_t elements) {
  return elements <= (1 << 16) ? ((std::int64_t{1} << 17) / elements) | 1 : 1;
}

TEST_F(RealTransform, R2cEverySize1d) {
  for (int k = 1; k <= 20; ++k) {
    std::int64_t const n = std::int64_t{1} << k;
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    compare_r2c(0, n, batch_for(n));
  }
  SCOPED_TRACE("three passes");
  compare_r2c(0, std::int64_t{1} << 24, 1);
}

/// The sizes whose R2C runs the fused split (one register-chained pass, M = 512 .. 16384; M = 256
/// too with FFTCORE_TC_SMALL_512=0, the ctest entry RealTransform.FusedWithoutSmall512, else the
/// medium real kernel's) with odd batches: partial tiles, and a small set for compute-sanitizer.
TEST_F(RealTransform, R2cFusedSizesOddBatches) {
  for (int k = 9; k <= 15; ++k) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    compare_r2c(0, std::int64_t{1} << k, 3);
  }
}

/// The R2C sizes whose split rides in the last row pass, over sequence pairs
/// (PassParams::real_pairs: 2^17 and 2^18 reals, 128 + 512 and 128 + 1024 points, in batches of
/// 2^20 complex points and more but too small for the mirror pass: 2^17 x 33 takes that), with
/// odd batches; beside them the sizes around that keep the split kernel (two and three passes);
/// a small set for compute-sanitizer.
TEST_F(RealTransform, R2cPairedSizesOddBatches) {
  for (auto [k, batch] : std::vector<std::pair<int, std::int64_t>>{
           {17, 17}, {18, 9}, {17, 33}, {16, 33}, {19, 5}, {20, 3}, {22, 1}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare_r2c(0, std::int64_t{1} << k, batch);
  }
}

/// The R2C of `rows` rows of n reals at 1/N and 1/sqrt(N) against the double reference.
void check_scaled_r2c(std::int64_t n, std::int64_t rows) {
  for (Scaling scaling : {Scaling::kByN, Scaling::kBySqrtN}) {
    SCOPED_TRACE(scaling == Scaling::kByN ? "1/N" : "1/sqrt(N)");
    unsigned seed = 0;
    auto const x = random_real_half(static_cast<std::size_t>(rows * n), seed);
    auto ref = reference_r2c(x, 0, n, rows);
    double const s = scaling == Scaling::kByN ? 1.0 / static_cast<double>(n)
                                              : 1.0 / std::sqrt(static_cast<double>(n));
    for (auto& v : ref) v *= s;
    std::vector<cd> y;
    ASSERT_NO_FATAL_FAILURE(
        run_real(real_desc(0, n, rows, Transform::kR2C, Backend::kTensorCore, scaling), x, {}, y));
    double const l2 = tcfft::testing::relative_l2_error(y, ref);
    std::printf("[real-accuracy] R2C tc scaled %-9s %lld batch %lld  L2 %.3e  seed %u\n",
                scaling == Scaling::kByN ? "1/N" : "1/sqrt(N)", static_cast<long long>(n),
                static_cast<long long>(rows), l2, seed);
    EXPECT_GT(max_abs(y), 0.0) << "all-zero output";
    EXPECT_LT(l2, kSanityL2) << "seed " << seed;
  }
}

/// The R2C of 2^15 reals in batches of 2^8 rows and more: two rows at a time on the long pass
/// (PassParams::real_twin): whole items (256 rows), an odd batch (the last item has one row),
/// more items than resident blocks (grid-stride, the next item's words prefetched), and
/// scaled; a small set for compute-sanitizer.
TEST_F(RealTransform, R2cTwinOddBatches) {
  std::int64_t const n = std::int64_t{1} << 15;
  for (std::int64_t batch : {256, 257, 1001}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    compare_r2c(0, n, batch);
  }
  check_scaled_r2c(n, 257);
}

/// The R2C of 2^16 reals in batches of 64 rows and more: the long pass takes the split in its
/// stage 3 (PassParams::real_out, the twin R2C's mirror pairs; rows of M + 1 out): whole
/// batches, odd ones, more rows than resident blocks, and scaled.
TEST_F(RealTransform, R2cLongPassOddBatches) {
  std::int64_t const n = std::int64_t{1} << 16;
  for (std::int64_t batch : {64, 65, 301}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    compare_r2c(0, n, batch);
  }
  check_scaled_r2c(n, 65);
}

/// The C2R of 2^16 reals in batches of 64 rows and more: the long pass takes the split in its
/// load (PassParams::real_in; rows of M + 1 half-spectrum words): whole batches, odd ones, more
/// rows than resident blocks (grid-stride, the next row's words prefetched), and 1/sqrt(N)
/// scaling beside compare_c2r's 1/N (unscaled, 2^16 times the input overflows FP16).
TEST_F(RealTransform, C2rLongPassOddBatches) {
  std::int64_t const n = std::int64_t{1} << 16;
  for (std::int64_t batch : {64, 65, 301}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    compare_c2r(0, n, batch);
  }
  unsigned seed = 0;
  auto const x = random_real_half(static_cast<std::size_t>(65 * n), seed);
  auto const spectrum = tcfft::testing::round_to_half(reference_r2c(x, 0, n, 65));
  auto const back = reference_c2r(spectrum, 0, n, 65);
  double const s = 1.0 / std::sqrt(static_cast<double>(n));
  std::vector<cd> ref(back.size());
  for (std::size_t i = 0; i < back.size(); ++i) ref[i] = {back[i] * s, 0.0};
  std::vector<cd> y;
  ASSERT_NO_FATAL_FAILURE(
      run_real(real_desc(0, n, 65, Transform::kC2R, Backend::kTensorCore, Scaling::kBySqrtN), {},
               spectrum, y));
  double const l2 = tcfft::testing::relative_l2_error(y, ref);
  std::printf("[real-accuracy] C2R tc scaled 1/sqrt(N) 65536 batch 65  L2 %.3e  seed %u\n", l2,
              seed);
  EXPECT_GT(max_abs(y), 0.0) << "all-zero output";
  EXPECT_LT(l2, kSanityL2) << "seed " << seed;
}

/// The C2R sizes with the split fused into the load, odd batches (as R2cFusedSizesOddBatches).
TEST_F(RealTransform, C2rFusedSizesOddBatches) {
  for (int k = 9; k <= 15; ++k) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    compare_c2r(0, std::int64_t{1} << k, 3);
  }
}

/// The C2R sizes whose split rides in the first row pass's load (PassParams::real_in_columns),
/// with odd batches: the column pass (a 128-point first pass: 2^16..2^19 reals in batches of
/// 2^20 complex points and more, three passes from 2^22) and the register-chained pass (256,
/// 512, 1024 points on tiles of T L = 2^11, 2^12, 2^13: 2^17 batch 1, 2^18 batch 3, 2^20
/// batch 5, 2^21); beside them 2^16 in a batch of 17 (an 8-point first pass), which keeps the
/// split kernel; a small set for compute-sanitizer.
TEST_F(RealTransform, C2rColumnSplitSizesOddBatches) {
  for (auto [k, batch] : std::vector<std::pair<int, std::int64_t>>{{16, 33},
                                                                   {17, 17},
                                                                   {19, 5},
                                                                   {23, 1},
                                                                   {17, 1},
                                                                   {18, 3},
                                                                   {20, 5},
                                                                   {21, 1},
                                                                   {21, 3},
                                                                   {16, 17}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare_c2r(0, std::int64_t{1} << k, batch);
  }
}

/// The C2R of 2^25 reals: the staged split kernel into FP16 Z, then the complex plan's two row
/// passes (kLogMinC2rSplitKernelM; the ctest entry RealTransform.C2rSplitKernelOff runs it on
/// the column split, RealTransform.C2rSplitKernelFrom2Pow16 the column-split sizes above on the
/// split kernel).
TEST_F(RealTransform, C2rSplitKernel1d) {
  SCOPED_TRACE("n = 2^25");
  compare_c2r(0, std::int64_t{1} << 25, 1);
}

/// The small real kernels' sizes (n = 2 .. 64: 32 rows or more per warp; 128, 256, 512: 8, 4
/// and 2) with batches that end inside a warp's rows, and a few whole blocks; a small set for
/// compute-sanitizer.
TEST_F(RealTransform, SmallSizesOddBatches) {
  for (int k = 1; k <= 9; ++k) {
    for (std::int64_t batch : {1, 31, 33, 8 * 32 * 3 + 17}) {
      SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
      compare_r2c(0, std::int64_t{1} << k, batch);
      compare_c2r(0, std::int64_t{1} << k, batch);
    }
  }
}

TEST_F(RealTransform, C2rEverySize1d) {
  for (int k = 1; k <= 20; ++k) {
    std::int64_t const n = std::int64_t{1} << k;
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    compare_c2r(0, n, batch_for(n));
  }
  SCOPED_TRACE("three passes");
  compare_c2r(0, std::int64_t{1} << 24, 1);
}

TEST_F(RealTransform, R2cTwoPassRowFfts1d) {
  // R2C row FFTs of M = 2^22 (batch 4) and 2^24 complex points in the complex plans' two passes
  // (FFTCORE_TC_REAL_TWO_PASS, on by default): a 4096-point column pass, the tall pass's rows
  // form, then the split kernel.
  // On fast-DRAM devices 2^23 x 4 and 2^26 take fast_dram_split's splits (ctest runs this as
  // either device kind too: RealTransform.TwoPassRowFftsAs...DramDevice); 2^27 left out for the
  // reference's time.
  for (auto const& [k, batch] : {std::pair<int, std::int64_t>{23, 4}, {25, 1}, {26, 1}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare_r2c(0, std::int64_t{1} << k, batch);
  }
}

/// The sizes of the mirror pass (RealLayout::mirror: 2^17..2^20 reals where the D0-point pass
/// has 128 items; the ctest entry RealTransform.WithoutMirror runs them on the layouts before
/// it): every D0 (512..4096), odd batches (whole group pairs, the lone self-mirrored sequences
/// 0 and D0 / 2 in each transform); a set for compute-sanitizer. R2C, then C2R.
std::vector<std::pair<int, std::int64_t>> const kMirrorSizes = {
    {17, 33}, {18, 33}, {19, 17}, {20, 9}};
TEST_F(RealTransform, R2cMirrorSizesOddBatches) {
  for (auto const& [k, batch] : kMirrorSizes) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare_r2c(0, std::int64_t{1} << k, batch);
  }
}
TEST_F(RealTransform, C2rMirrorSizesOddBatches) {
  for (auto const& [k, batch] : kMirrorSizes) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare_c2r(0, std::int64_t{1} << k, batch);
  }
}

/// The R2C sizes of two tall passes over half the data (RealLayout::halves: 2^19..2^22 reals
/// where each pass has 128 items; FFTCORE_TC_REAL_HALVES, on by default; ctest runs it with the
/// mirror pass off, which takes 2^19 and 2^20 before them): every pair of lengths (pass 1:
/// 1024..4096; pass 2: 512, 1024), odd batches; a set for compute-sanitizer.
TEST_F(RealTransform, R2cHalvesOddBatches) {
  for (auto const& [k, batch] :
       std::vector<std::pair<int, std::int64_t>>{{19, 17}, {20, 9}, {21, 5}, {22, 3}, {20, 65}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare_r2c(0, std::int64_t{1} << k, batch);
  }
}

/// The C2R sizes of two tall passes over half the data (RealLayout::halves backwards: pass A on
/// the column form over the half spectrum's columns, pass B on the rows form over Y's row
/// pairs; 2^20..2^24 reals where each pass has 128 items): every pair of lengths (pass A:
/// 1024..4096; pass B: 1024..4096), odd batches; a set for compute-sanitizer.
TEST_F(RealTransform, C2rHalvesOddBatches) {
  for (auto const& [k, batch] : std::vector<std::pair<int, std::int64_t>>{
           {20, 9}, {21, 5}, {22, 3}, {23, 1}, {24, 1}, {20, 65}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare_c2r(0, std::int64_t{1} << k, batch);
  }
}

std::vector<std::pair<std::int64_t, std::int64_t>> const kShapes2d = {
    {2, 2},     {4, 8},       {16, 16},     {64, 8},      {8, 2048},   {1024, 32},
    {256, 256}, {2, 1 << 14}, {1 << 14, 2}, {2048, 1024}, {4096, 4096}};

TEST_F(RealTransform, R2cShapes2d) {
  for (auto [r, c] : kShapes2d) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    compare_r2c(r, c, r * c <= (1 << 16) ? 3 : 1);
  }
}

TEST_F(RealTransform, C2rShapes2d) {
  for (auto [r, c] : kShapes2d) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    compare_c2r(r, c, r * c <= (1 << 16) ? 3 : 1);
  }
}

/// 2-D shapes around and above the FP16 half spectrum's threshold (rows * cols > 4096; cols >=
/// 512: the row pairs, FP16 Y between them and the column passes; cols 128 and 256: the medium
/// real kernel into and from FP16 Y; 8 x 512: 4096 elements, FP32 Y), odd batches; a small set
/// for compute-sanitizer.
TEST_F(RealTransform, Fused2dShapesOddBatches) {
  for (auto [r, c] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {8, 512}, {16, 512}, {64, 1024}, {4, 16384}, {32, 4096}, {32, 256}, {64, 128}, {16, 256}}) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    compare_r2c(r, c, 3);
    compare_c2r(r, c, 3);
  }
}

/// The 2-D R2C and C2R shapes of 512 columns and more: the column FFT and the row pairs q,
/// R - q on the Stockham pass (PassParams::real_row_pairs; R2C column FFT first, C2R row pairs
/// first): two rows (rows 0 and 1 each their own mirror), partial tiles of pairs (R / 2 + 1 per
/// image), 512 .. 16384 columns, odd batches, one- and two-pass column FFTs (4096 rows), and
/// both scalings; against the double reference and cuFFT FP16. A small set for
/// compute-sanitizer.
TEST_F(RealTransform, RowPairs2dShapesOddBatches) {
  for (auto [r, c, batch] : std::vector<std::array<std::int64_t, 3>>{{2, 4096, 3},
                                                                     {4, 4096, 3},
                                                                     {16, 2048, 5},
                                                                     {2, 1 << 14, 3},
                                                                     {8, 1 << 14, 1},
                                                                     {64, 2048, 3},
                                                                     {32, 1024, 3},
                                                                     {16, 512, 3},
                                                                     {256, 8192, 1},
                                                                     {4096, 2048, 1}}) {
    SCOPED_TRACE(shape_name(r, c, batch));
    compare_r2c(r, c, batch);
    compare_c2r(r, c, batch);
  }
  for (Scaling scaling : {Scaling::kByN, Scaling::kBySqrtN}) {
    SCOPED_TRACE(scaling == Scaling::kByN ? "1/N" : "1/sqrt(N)");
    std::int64_t const r = 32, c = 4096, batch = 3;
    unsigned seed = 0;
    auto const x = random_real_half(static_cast<std::size_t>(batch * r * c), seed);
    auto ref = reference_r2c(x, r, c, batch);
    double const n = static_cast<double>(r * c);
    double const s = scaling == Scaling::kByN ? 1.0 / n : 1.0 / std::sqrt(n);
    for (auto& v : ref) v *= s;
    std::vector<cd> y;
    ASSERT_NO_FATAL_FAILURE(
        run_real(real_desc(r, c, batch, Transform::kR2C, Backend::kTensorCore, scaling), x, {}, y));
    double const l2 = tcfft::testing::relative_l2_error(y, ref);
    std::printf("[real-accuracy] R2C tc scaled %-18s L2 %.3e  seed %u\n",
                scaling == Scaling::kByN ? "32 x 4096, 1/N" : "32 x 4096, 1/sqrt(N)", l2, seed);
    EXPECT_GT(max_abs(y), 0.0) << "all-zero output";
    EXPECT_LT(l2, kSanityL2) << "seed " << seed;
  }
}

/// R2C (unscaled) then C2R with 1/N returns the input, on both backends.
TEST_F(RealTransform, RoundTripReturnsTheInput) {
  std::vector<std::pair<std::int64_t, std::int64_t>> const shapes = {
      {0, 2}, {0, 64}, {0, 1 << 14}, {0, 1 << 17}, {0, 1 << 22}, {8, 8}, {512, 256}};
  for (Backend backend : {Backend::kTensorCore, Backend::kCufft}) {
    for (auto [r, c] : shapes) {
      std::int64_t const items = std::max<std::int64_t>(r, 1) * c;
      std::int64_t const batch = items <= 4096 ? 5 : 1;
      SCOPED_TRACE(shape_name(r, c, batch) + " " + fftcore::to_string(backend));
      unsigned seed = 0;
      auto const x = random_real_half(static_cast<std::size_t>(batch * items), seed);
      std::vector<cd> spectrum, back;
      ASSERT_NO_FATAL_FAILURE(
          run_real(real_desc(r, c, batch, Transform::kR2C, backend), x, {}, spectrum));
      ASSERT_NO_FATAL_FAILURE(run_real(
          real_desc(r, c, batch, Transform::kC2R, backend, Scaling::kByN), {}, spectrum, back));
      std::vector<cd> expect(x.begin(), x.end());
      double const err = tcfft::testing::relative_l2_error(back, expect);
      std::printf("[real-roundtrip] %-11s %-24s L2 %.3e  seed %u\n", fftcore::to_string(backend),
                  shape_name(r, c, batch).c_str(), err, seed);
      EXPECT_GT(max_abs(back), 0.0) << "all-zero output";
      // Bounds from the H200 measurement of these shapes: Tensor Core <= 6.2e-4, cuFFT FP16
      // (two transforms of its own error, up to 2.3e-3 each at these sizes) <= 3.0e-3 at 2^22.
      double const bound = backend == Backend::kTensorCore ? 1.5e-3 : 5e-3;
      EXPECT_LT(err, bound) << "seed " << seed;
    }
  }
}

/// 1/sqrt(N) on R2C is the reference divided by sqrt(N), on both backends.
TEST_F(RealTransform, SqrtNScaling) {
  for (Backend backend : {Backend::kTensorCore, Backend::kCufft}) {
    for (auto [r, c] :
         std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 8}, {0, 1 << 16}, {32, 64}}) {
      SCOPED_TRACE(shape_name(r, c, 2) + " " + fftcore::to_string(backend));
      unsigned seed = 0;
      std::int64_t const items = std::max<std::int64_t>(r, 1) * c;
      auto const x = random_real_half(static_cast<std::size_t>(2 * items), seed);
      auto ref = reference_r2c(x, r, c, 2);
      for (auto& v : ref) v /= std::sqrt(static_cast<double>(items));
      std::vector<cd> y;
      ASSERT_NO_FATAL_FAILURE(
          run_real(real_desc(r, c, 2, Transform::kR2C, backend, Scaling::kBySqrtN), x, {}, y));
      EXPECT_LT(tcfft::testing::relative_l2_error(y, ref), kSanityL2) << "seed " << seed;
    }
  }
}

/// The cuFFT backend in FP32 takes any size (odd ones too), as the complex path does.
TEST_F(RealTransform, CufftFp32AnySize) {
  for (auto [r, c] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {0, 1000}, {0, 4093}, {0, 2}, {30, 50}, {7, 9}}) {
    SCOPED_TRACE(shape_name(r, c, 3));
    std::int64_t const rr = std::max<std::int64_t>(r, 1);
    unsigned seed = 0;
    auto const x = random_real_half(static_cast<std::size_t>(3 * rr * c), seed);
    // The reference of an odd or non-power-of-two size: the direct DFT, item by item.
    std::vector<cd> ref;
    for (std::int64_t b = 0; b < 3; ++b) {
      std::vector<tcfft::testing::cld> item;
      for (std::int64_t i = 0; i < rr * c; ++i) {
        item.emplace_back(static_cast<long double>(x[static_cast<std::size_t>(b * rr * c + i)]));
      }
      // Rows first, then columns, with the direct DFT.
      std::vector<tcfft::testing::cld> rows_done(item.size());
      for (std::int64_t i = 0; i < rr; ++i) {
        std::vector<tcfft::testing::cld> line(item.begin() + i * c, item.begin() + (i + 1) * c);
        auto const t = tcfft::testing::reference_dft(line, -1);
        std::copy(t.begin(), t.end(), rows_done.begin() + i * c);
      }
      for (std::int64_t j = 0; j < c && rr > 1; ++j) {
        std::vector<tcfft::testing::cld> col(static_cast<std::size_t>(rr));
        for (std::int64_t i = 0; i < rr; ++i) col[i] = rows_done[i * c + j];
        auto const t = tcfft::testing::reference_dft(col, -1);
        for (std::int64_t i = 0; i < rr; ++i) rows_done[i * c + j] = t[i];
      }
      for (std::int64_t i = 0; i < rr; ++i) {
        for (std::int64_t k = 0; k <= c / 2; ++k) {
          auto const v = rows_done[static_cast<std::size_t>(i * c + k)];
          ref.emplace_back(static_cast<double>(v.real()), static_cast<double>(v.imag()));
        }
      }
    }
    auto const desc =
        real_desc(r, c, 3, Transform::kR2C, Backend::kCufft, Scaling::kNone, Precision::kSingle);
    fftcore::Plan plan;
    TC_STATUS_OK(fftcore::make_plan(desc, plan));
    std::vector<float> xf(x.begin(), x.end());
    DeviceBuffer in(fftcore::buffer_bytes(desc, true)), out(fftcore::buffer_bytes(desc, false)),
        ws(plan.workspace_bytes());
    TC_CUDA_OK(cudaMemcpy(in.get(), xf.data(), in.bytes(), cudaMemcpyHostToDevice));
    TC_STATUS_OK(fftcore::execute(plan, in.get(), out.get(), Direction::kForward, ws.get(),
                                  ws.bytes(), nullptr));
    std::vector<float2> y(out.bytes() / sizeof(float2));
    TC_CUDA_OK(cudaMemcpy(y.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost));
    std::vector<cd> yd(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) yd[i] = {y[i].x, y[i].y};
    ASSERT_EQ(yd.size(), ref.size());
    EXPECT_LT(tcfft::testing::relative_l2_error(yd, ref), 1e-5) << "seed " << seed;
  }
}

TEST_F(RealTransform, RefusesWrongDirectionInPlaceAndSmallWorkspace) {
  for (Backend backend : {Backend::kTensorCore, Backend::kCufft}) {
    SCOPED_TRACE(fftcore::to_string(backend));
    for (Transform kind : {Transform::kR2C, Transform::kC2R}) {
      auto const desc = real_desc(0, 1 << 16, 2, kind, backend, Scaling::kByN);
      fftcore::Plan plan;
      TC_STATUS_OK(fftcore::make_plan(desc, plan));
      EXPECT_EQ(plan.backend(), backend);
      DeviceBuffer in(fftcore::buffer_bytes(desc, true)), out(fftcore::buffer_bytes(desc, false)),
          ws(plan.workspace_bytes());
      Direction const right = kind == Transform::kR2C ? Direction::kForward : Direction::kInverse;
      Direction const wrong = kind == Transform::kR2C ? Direction::kInverse : Direction::kForward;
      EXPECT_EQ(fftcore::execute(plan, in.get(), out.get(), wrong, ws.get(), ws.bytes(), nullptr),
                Status::kWrongDirection);
      EXPECT_EQ(fftcore::execute(plan, in.get(), in.get(), right, ws.get(), ws.bytes(), nullptr),
                Status::kInvalidArgument);
      if (plan.workspace_bytes() > 0) {
        EXPECT_EQ(
            fftcore::execute(plan, in.get(), out.get(), right, ws.get(), ws.bytes() - 1, nullptr),
            Status::kWorkspaceTooSmall);
      }
      EXPECT_EQ(fftcore::execute(plan, in.get(), out.get(), right, ws.get(), ws.bytes(), nullptr),
                Status::kSuccess);
      TC_CUDA_OK(cudaDeviceSynchronize());
    }
    fftcore::Plan plan;
    EXPECT_EQ(fftcore::make_plan(real_desc(16, 1, 1, Transform::kR2C, backend), plan),
              Status::kUnsupportedSize);
    EXPECT_EQ(fftcore::make_plan(real_desc(0, 96, 1, Transform::kR2C, backend), plan),
              Status::kUnsupportedSize);  // FP16: powers of two only
  }
  fftcore::Plan plan;
  TC_STATUS_OK(fftcore::make_plan(real_desc(0, 1024, 1, Transform::kR2C, Backend::kAuto), plan));
  EXPECT_EQ(plan.backend(), Backend::kTensorCore);
}

}  // namespace
