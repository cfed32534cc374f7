// SPDX-License-Identifier: MIT
// fftcore with Backend::kCufft, FP16 and FP32, against a long double DFT: sizes, batches,
// rank 2, every scaling policy, both directions, in place and out of place; FP16 overflow
// safety of the scaling policy; one plan on two streams at once. Links fftcore only.
//
// The reference transforms the input as the GPU saw it (after rounding to FP16/FP32), so the
// errors measure the transform alone. Tolerances: FP32 1e-6 (cuFFT FP32 is ~1e-7); FP16
// 1e-3 * (1 + log2(n) / 8) (one FP16 rounding is 2^-11 ~ 4.9e-4 relative; a few accumulate
// over the passes). Measured values are printed; on an H200 (CUDA 13.0) they were FP16 2e-4
// (n = 2) to 1.5e-3 (n = 4096), the same for every scaling policy, and FP32 4e-8 to 1.9e-7.
#include <fftcore/fftcore.hpp>

#include "common/gpu_test.hpp"
#include "common/reference_dft.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace {

using fftcore::Direction;
using fftcore::Precision;
using fftcore::Scaling;
using fftcore::Status;
using tcfft::testing::cld;
using cd = std::complex<double>;

struct CudaFree {
  void operator()(void* p) const noexcept { (void)cudaFree(p); }
};
using DeviceMemory = std::unique_ptr<void, CudaFree>;

DeviceMemory device_alloc(std::size_t bytes) {
  void* p = nullptr;
  if (bytes == 0 || cudaMalloc(&p, bytes) != cudaSuccess) return DeviceMemory{};
  return DeviceMemory(p);
}

class TestStream {
 public:
  TestStream() { (void)cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); }
  ~TestStream() {
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }
  TestStream(TestStream const&) = delete;
  TestStream& operator=(TestStream const&) = delete;
  [[nodiscard]] cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Host images of device arrays: interleaved __half2 or float2.
std::vector<unsigned char> encode(std::vector<cd> const& x, Precision precision) {
  std::vector<unsigned char> bytes(x.size() * fftcore::element_bytes(precision));
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (precision == Precision::kHalf) {
      __half2 const h = __floats2half2_rn(static_cast<float>(x[i].real()),
                                          static_cast<float>(x[i].imag()));
      std::memcpy(bytes.data() + 4 * i, &h, 4);
    } else {
      float const f[2] = {static_cast<float>(x[i].real()), static_cast<float>(x[i].imag())};
      std::memcpy(bytes.data() + 8 * i, f, 8);
    }
  }
  return bytes;
}

std::vector<cd> decode(std::vector<unsigned char> const& bytes, Precision precision) {
  std::size_t const n = bytes.size() / fftcore::element_bytes(precision);
  std::vector<cd> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (precision == Precision::kHalf) {
      __half2_raw raw;
      std::memcpy(&raw, bytes.data() + 4 * i, 4);
      float2 const f = __half22float2(__half2(raw));
      x[i] = {f.x, f.y};
    } else {
      float f[2];
      std::memcpy(f, bytes.data() + 8 * i, 8);
      x[i] = {f[0], f[1]};
    }
  }
  return x;
}

// Runs `plan` once on `stream` and returns the decoded output (`in_place`: in == out).
std::vector<cd> run(fftcore::Plan const& plan, std::vector<unsigned char> const& input,
                    bool in_place, Direction direction, cudaStream_t stream = nullptr) {
  std::size_t const bytes = input.size();
  auto in = device_alloc(bytes);
  auto out = in_place ? DeviceMemory{} : device_alloc(bytes);
  auto workspace = device_alloc(plan.workspace_bytes());
  void* out_ptr = in_place ? in.get() : out.get();
  EXPECT_NE(in.get(), nullptr);
  EXPECT_NE(out_ptr, nullptr);
  EXPECT_EQ(cudaMemcpy(in.get(), input.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(fftcore::execute(plan, in.get(), out_ptr, direction, workspace.get(),
                             plan.workspace_bytes(), stream),
            Status::kSuccess);
  std::vector<unsigned char> result(bytes);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(result.data(), out_ptr, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  return decode(result, plan.desc().precision);
}

double scale_of(Scaling scaling, std::int64_t n) {
  if (scaling == Scaling::kByN) return 1.0 / static_cast<double>(n);
  if (scaling == Scaling::kBySqrtN) return 1.0 / std::sqrt(static_cast<double>(n));
  return 1.0;
}

// Long double reference of one item: 1-D, or rank 2 row-major [d0][d1] (rows, then columns).
std::vector<cld> reference(std::vector<cld> x, int rank, std::int64_t d0, std::int64_t d1,
                           int sign) {
  if (rank == 1) return tcfft::testing::reference_dft(x, sign);
  for (std::int64_t r = 0; r < d0; ++r) {
    std::vector<cld> row(x.begin() + r * d1, x.begin() + (r + 1) * d1);
    row = tcfft::testing::reference_dft(row, sign);
    std::copy(row.begin(), row.end(), x.begin() + r * d1);
  }
  for (std::int64_t c = 0; c < d1; ++c) {
    std::vector<cld> col(static_cast<std::size_t>(d0));
    for (std::int64_t r = 0; r < d0; ++r) col[static_cast<std::size_t>(r)] = x[r * d1 + c];
    col = tcfft::testing::reference_dft(col, sign);
    for (std::int64_t r = 0; r < d0; ++r) x[r * d1 + c] = col[static_cast<std::size_t>(r)];
  }
  return x;
}

struct Case {
  Precision precision;
  int rank;
  std::int64_t d0, d1;
  std::int64_t batch;
  Scaling scaling;
  bool in_place;
  Direction direction;
};

std::string case_name(::testing::TestParamInfo<Case> const& info) {
  Case const& c = info.param;
  std::string name = c.precision == Precision::kHalf ? "fp16_" : "fp32_";
  name += std::to_string(c.d0);
  if (c.rank == 2) {
    name += 'x';
    name += std::to_string(c.d1);
  }
  name += "_b";
  name += std::to_string(c.batch);
  name += c.scaling == Scaling::kNone ? "_none" : c.scaling == Scaling::kByN ? "_byn" : "_bysqrtn";
  name += c.in_place ? "_inplace" : "_outofplace";
  name += c.direction == Direction::kForward ? "_fwd" : "_inv";
  name += '_';
  name += std::to_string(info.index);
  return name;
}

// Readable parameters in test listings (ctest shows GetParam() otherwise as raw bytes).
void PrintTo(Case const& c, std::ostream* os) {
  auto const name = case_name(::testing::TestParamInfo<Case>(c, 0));
  *os << name.substr(0, name.rfind('_'));  // without the instance index
}

class CufftBackend : public tcfft::testing::GpuTestWithParam<Case> {};

TEST_P(CufftBackend, MatchesLongDoubleReference) {
  Case const c = GetParam();
  fftcore::PlanDesc desc;
  desc.rank = c.rank;
  desc.dims[0] = c.d0;
  desc.dims[1] = c.rank == 2 ? c.d1 : 0;
  desc.batch = c.batch;
  desc.precision = c.precision;
  desc.scaling = c.scaling;
  desc.backend = fftcore::Backend::kCufft;
  fftcore::Plan plan;
  ASSERT_EQ(fftcore::make_plan(desc, plan), Status::kSuccess);
  EXPECT_EQ(plan.backend(), fftcore::Backend::kCufft);

  std::int64_t const n = desc.elements();
  unsigned seed = 0;
  auto const x = tcfft::testing::random_complex(static_cast<std::size_t>(n * c.batch), seed);
  SCOPED_TRACE("seed = " + std::to_string(seed));
  auto const input = encode(x, c.precision);
  auto const seen = decode(input, c.precision);  // the input as rounded for the GPU
  auto const y = run(plan, input, c.in_place, c.direction);

  int const sign = c.direction == Direction::kForward ? -1 : +1;
  long double const scale = scale_of(c.scaling, n);
  std::vector<cld> ref;
  for (std::int64_t b = 0; b < c.batch; ++b) {
    std::vector<cld> item(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      auto const& v = seen[static_cast<std::size_t>(b * n + i)];
      item[static_cast<std::size_t>(i)] = cld(v.real(), v.imag());
    }
    for (auto const& v : reference(item, c.rank, c.d0, c.d1, sign)) ref.push_back(v * scale);
  }
  double const err = tcfft::testing::relative_l2_error(y, ref);
  double const max_err = tcfft::testing::relative_max_error(y, ref);
  double const tol = c.precision == Precision::kHalf
                         ? 1e-3 * (1.0 + std::log2(static_cast<double>(n)) / 8.0)
                         : 1e-6;
  std::cout << "[ measured ] rel L2 " << err << ", rel max " << max_err << " (tol " << tol
            << ")\n";
  for (auto const& v : y) ASSERT_TRUE(std::isfinite(v.real()) && std::isfinite(v.imag()));
  EXPECT_LT(err, tol);
}

std::vector<Case> cases() {
  std::vector<Case> all;
  auto const fwd = Direction::kForward;
  auto const inv = Direction::kInverse;
  for (Scaling s : {Scaling::kNone, Scaling::kByN, Scaling::kBySqrtN}) {
    for (std::int64_t n : {2, 16, 256, 4096}) {
      all.push_back({Precision::kHalf, 1, n, 0, 3, s, false, fwd});
    }
    for (std::int64_t n : {3, 7, 100, 1000, 4096}) {
      all.push_back({Precision::kSingle, 1, n, 0, 2, s, false, fwd});
    }
  }
  all.push_back({Precision::kHalf, 1, 1024, 0, 1, Scaling::kByN, true, inv});
  all.push_back({Precision::kHalf, 1, 1, 0, 4, Scaling::kByN, false, fwd});
  all.push_back({Precision::kSingle, 1, 1000, 0, 1, Scaling::kBySqrtN, true, inv});
  all.push_back({Precision::kHalf, 2, 16, 32, 2, Scaling::kByN, false, fwd});
  all.push_back({Precision::kHalf, 2, 8, 8, 3, Scaling::kBySqrtN, true, inv});
  all.push_back({Precision::kSingle, 2, 6, 10, 3, Scaling::kNone, false, inv});
  all.push_back({Precision::kSingle, 2, 32, 16, 1, Scaling::kByN, true, fwd});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Sizes, CufftBackend, ::testing::ValuesIn(cases()), case_name);

class CufftBackendGpu : public tcfft::testing::GpuTest {};

fftcore::PlanDesc desc_1d(std::int64_t n, Precision precision, Scaling scaling,
                          std::int64_t batch = 1) {
  fftcore::PlanDesc desc;
  desc.dims[0] = n;
  desc.batch = batch;
  desc.precision = precision;
  desc.scaling = scaling;
  desc.backend = fftcore::Backend::kCufft;
  return desc;
}

// A unit DC input of length 2^20 sums to 2^20 > 65504 unscaled; kByN and kBySqrtN must not
// overflow on the way (the backend pre-scales by a power of two before cuFFT runs).
TEST_F(CufftBackendGpu, Fp16DcInputOfLength2To20DoesNotOverflow) {
  constexpr std::int64_t kN = std::int64_t{1} << 20;
  std::vector<cd> const x(kN, cd(1.0, 0.0));
  auto const input = encode(x, Precision::kHalf);
  for (Scaling s : {Scaling::kByN, Scaling::kBySqrtN}) {
    fftcore::Plan plan;
    ASSERT_EQ(fftcore::make_plan(desc_1d(kN, Precision::kHalf, s), plan), Status::kSuccess);
    auto const y = run(plan, input, false, Direction::kForward);
    double const expected = s == Scaling::kByN ? 1.0 : 1024.0;
    EXPECT_NEAR(y[0].real(), expected, expected * 1e-3) << "scaling " << static_cast<int>(s);
    double off_peak = 0;
    for (std::size_t k = 0; k < y.size(); ++k) {
      ASSERT_TRUE(std::isfinite(y[k].real()) && std::isfinite(y[k].imag())) << "bin " << k;
      if (k > 0) off_peak = std::max(off_peak, std::abs(y[k]));
    }
    EXPECT_LT(off_peak, expected * 1e-3);
  }
}

TEST_F(CufftBackendGpu, OutOfPlaceLeavesTheInputUntouched) {
  for (auto precision : {Precision::kHalf, Precision::kSingle}) {
    fftcore::Plan plan;
    ASSERT_EQ(fftcore::make_plan(desc_1d(1024, precision, Scaling::kByN, 2), plan),
              Status::kSuccess);
    unsigned seed = 0;
    auto const input = encode(tcfft::testing::random_complex(2048, seed), precision);
    auto in = device_alloc(input.size());
    auto out = device_alloc(input.size());
    auto workspace = device_alloc(plan.workspace_bytes());
    ASSERT_EQ(cudaMemcpy(in.get(), input.data(), input.size(), cudaMemcpyHostToDevice),
              cudaSuccess);
    ASSERT_EQ(fftcore::execute(plan, in.get(), out.get(), Direction::kForward, workspace.get(),
                               plan.workspace_bytes(), nullptr),
              Status::kSuccess);
    std::vector<unsigned char> after(input.size());
    ASSERT_EQ(cudaMemcpy(after.data(), in.get(), after.size(), cudaMemcpyDeviceToHost),
              cudaSuccess);
    EXPECT_EQ(after, input);
  }
}

TEST_F(CufftBackendGpu, ArgumentChecks) {
  fftcore::Plan plan;
  ASSERT_EQ(fftcore::make_plan(desc_1d(4096, Precision::kSingle, Scaling::kNone, 64), plan),
            Status::kSuccess);
  auto data = device_alloc(4096 * 64 * 8 + 16);
  auto* base = static_cast<unsigned char*>(data.get());
  EXPECT_EQ(fftcore::execute(plan, base + 4, base + 4, Direction::kForward, nullptr, 0, nullptr),
            Status::kMisaligned);
  if (plan.workspace_bytes() > 0) {
    auto workspace = device_alloc(plan.workspace_bytes());
    EXPECT_EQ(fftcore::execute(plan, base, base, Direction::kForward, workspace.get(),
                               plan.workspace_bytes() - 1, nullptr),
              Status::kWorkspaceTooSmall);
  }
  EXPECT_EQ(fftcore::execute(plan, nullptr, base, Direction::kForward, nullptr, 0, nullptr),
            Status::kInvalidArgument);
}

// The same plan enqueued alternately on two streams with separate buffers and workspaces
// gives each stream the single-stream answer (the handle's stream/work area are guarded).
TEST_F(CufftBackendGpu, OnePlanOnTwoStreams) {
  constexpr std::int64_t kN = 4096, kBatch = 16;
  fftcore::Plan plan;
  ASSERT_EQ(fftcore::make_plan(desc_1d(kN, Precision::kSingle, Scaling::kByN, kBatch), plan),
            Status::kSuccess);
  unsigned seed = 0;
  auto const input = encode(tcfft::testing::random_complex(kN * kBatch, seed), Precision::kSingle);
  auto const expected = run(plan, input, false, Direction::kForward);
  TestStream streams[2];
  DeviceMemory in[2], out[2], work[2];
  for (int s = 0; s < 2; ++s) {
    in[s] = device_alloc(input.size());
    out[s] = device_alloc(input.size());
    work[s] = device_alloc(plan.workspace_bytes());
    ASSERT_EQ(cudaMemcpy(in[s].get(), input.data(), input.size(), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  for (int round = 0; round < 20; ++round) {
    for (int s = 0; s < 2; ++s) {
      ASSERT_EQ(fftcore::execute(plan, in[s].get(), out[s].get(), Direction::kForward,
                                 work[s].get(), plan.workspace_bytes(), streams[s].get()),
                Status::kSuccess);
    }
  }
  for (int s = 0; s < 2; ++s) {
    ASSERT_EQ(cudaStreamSynchronize(streams[s].get()), cudaSuccess);
    std::vector<unsigned char> result(input.size());
    ASSERT_EQ(cudaMemcpy(result.data(), out[s].get(), result.size(), cudaMemcpyDeviceToHost),
              cudaSuccess);
    EXPECT_EQ(decode(result, Precision::kSingle), expected) << "stream " << s;
  }
}

}  // namespace
