// SPDX-License-Identifier: MIT
// Behaviour of the Tensor Core backend: scaling without overflow at every size, exact answers
// (impulses, tones, DC), round trips, linearity, in-place, two streams on one plan, and
// execution inside CUDA graph capture.
#include "tc_test_support.hpp"

#include "common/gpu_test.hpp"
#include "common/reference_dft.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

using tcfft::testing::cd;
using fftcore::Direction;
constexpr double kTwoPi = 6.283185307179586476925286766559;

class TcBehaviour : public tcfft::testing::GpuTest {};

fftcore::PlanDesc desc_1d(std::int64_t n, std::int64_t batch,
                          fftcore::Scaling scaling = fftcore::Scaling::kNone) {
  fftcore::PlanDesc d;
  d.dims[0] = n;
  d.batch = batch;
  d.scaling = scaling;
  return d;
}

bool all_finite(std::vector<cd> const& y) {
  for (cd const& v : y) {
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) return false;
  }
  return true;
}

TEST_F(TcBehaviour, ScaledTransformsNeverOverflow) {
  for (int k = 1; k <= 27; ++k) {
    std::int64_t const n = std::int64_t{1} << k;
    for (auto scaling : {fftcore::Scaling::kByN, fftcore::Scaling::kBySqrtN}) {
      bool const by_n = scaling == fftcore::Scaling::kByN;
      SCOPED_TRACE("n = 2^" + std::to_string(k) + (by_n ? " 1/N" : " 1/sqrt(N)"));
      std::vector<cd> dc(static_cast<std::size_t>(n), cd(1, 0)), tone(dc.size()), y;
      std::int64_t const f = n / 4 + 1;
      for (std::int64_t j = 0; j < n; ++j) {
        tone[static_cast<std::size_t>(j)] =
            std::polar(1.0, kTwoPi * static_cast<double>((j * f) % n) / static_cast<double>(n));
      }
      unsigned seed = 0;
      auto rnd = tcfft::testing::random_complex(dc.size(), seed);
      for (auto& v : rnd) v *= 0.70710678;  // |x| <= 1
      double const peak = by_n ? 1.0 : std::sqrt(static_cast<double>(n));
      ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(desc_1d(n, 1, scaling), dc,
                                                     Direction::kForward, false, y));
      ASSERT_TRUE(all_finite(y)) << "DC";
      EXPECT_NEAR(y[0].real(), peak, 2e-3 * peak) << "DC bin";
      double off = 0;
      for (std::size_t i = 1; i < y.size(); ++i) off = std::max(off, std::abs(y[i]));
      EXPECT_LT(off, 2e-3 * peak) << "DC leaks into other bins";
      ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(desc_1d(n, 1, scaling),
                                                     tcfft::testing::round_to_half(tone),
                                                     Direction::kForward, false, y));
      ASSERT_TRUE(all_finite(y)) << "tone";
      EXPECT_NEAR(std::abs(y[static_cast<std::size_t>(f % n)]), peak, 1e-2 * peak) << "tone";
      ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(desc_1d(n, 1, scaling),
                                                     tcfft::testing::round_to_half(rnd),
                                                     Direction::kInverse, false, y));
      ASSERT_TRUE(all_finite(y)) << "random, seed " << seed;
    }
  }
}

TEST_F(TcBehaviour, ImpulsesAndTonesGiveExactAnswers) {
  for (int k : {1, 5, 13, 14, 15, 18, 25}) {
    std::int64_t const n = std::int64_t{1} << k;
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    std::int64_t const p = n / 3 + 1 < n ? n / 3 + 1 : 0;
    std::vector<cd> x(static_cast<std::size_t>(n)), y;
    x[static_cast<std::size_t>(p)] = 1;
    ASSERT_NO_FATAL_FAILURE(
        tcfft::testing::run_tc(desc_1d(n, 1), x, Direction::kForward, false, y));
    double err = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      cd const want = std::polar(1.0, -kTwoPi * static_cast<double>((p * j) % n) / n);
      err = std::max(err, std::abs(y[static_cast<std::size_t>(j)] - want));
    }
    EXPECT_LT(err, 2e-3) << "impulse at " << p;
  }
}

TEST_F(TcBehaviour, ForwardThenInverseReturnsTheInput) {
  for (int k : {4, 10, 14, 15, 20, 23}) {
    for (auto [fwd, inv] : {std::pair{fftcore::Scaling::kNone, fftcore::Scaling::kByN},
                            std::pair{fftcore::Scaling::kBySqrtN, fftcore::Scaling::kBySqrtN}}) {
      std::int64_t const n = std::int64_t{1} << k;
      std::int64_t const batch = k < 12 ? 3 : 1;
      unsigned seed = 0;
      auto const x = tcfft::testing::round_to_half(
          tcfft::testing::random_complex(static_cast<std::size_t>(n * batch), seed));
      std::vector<cd> y, z;
      ASSERT_NO_FATAL_FAILURE(
          tcfft::testing::run_tc(desc_1d(n, batch, fwd), x, Direction::kForward, false, y));
      ASSERT_NO_FATAL_FAILURE(
          tcfft::testing::run_tc(desc_1d(n, batch, inv), y, Direction::kInverse, true, z));
      EXPECT_LT(tcfft::testing::relative_l2_error(z, x), 3e-3) << "n 2^" << k << " seed " << seed;
    }
  }
}

TEST_F(TcBehaviour, IsLinear) {
  std::int64_t const n = std::int64_t{1} << 16;
  unsigned s1 = 0, s2 = 0;
  auto const a = tcfft::testing::round_to_half(tcfft::testing::random_complex(n, s1));
  auto const b = tcfft::testing::round_to_half(tcfft::testing::random_complex(n, s2));
  std::vector<cd> sum(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) sum[i] = 0.5 * a[i] + 0.25 * b[i];
  std::vector<cd> ya, yb, ys;
  ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(desc_1d(n, 1), a, Direction::kForward, false, ya));
  ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(desc_1d(n, 1), b, Direction::kForward, false, yb));
  ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(desc_1d(n, 1), tcfft::testing::round_to_half(sum),
                                                 Direction::kForward, false, ys));
  std::vector<cd> combo(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) combo[i] = 0.5 * ya[i] + 0.25 * yb[i];
  EXPECT_LT(tcfft::testing::relative_l2_error(ys, combo), 2e-3) << s1 << " " << s2;
}

TEST_F(TcBehaviour, InPlaceEqualsOutOfPlace) {
  std::vector<fftcore::PlanDesc> descs = {desc_1d(1 << 10, 5), desc_1d(1 << 16, 3),
                                          desc_1d(1 << 24, 1)};
  fftcore::PlanDesc d2;
  d2.rank = 2;
  d2.dims[0] = 4096;
  d2.dims[1] = 4096;
  descs.push_back(d2);
  for (auto const& d : descs) {
    unsigned seed = 0;
    auto const x = tcfft::testing::round_to_half(
        tcfft::testing::random_complex(static_cast<std::size_t>(d.elements() * d.batch), seed));
    std::vector<cd> y1, y2;
    ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(d, x, Direction::kForward, false, y1));
    ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(d, x, Direction::kForward, true, y2));
    EXPECT_TRUE(y1 == y2) << "elements " << d.elements();
  }
}

/// Runs the plan on two streams at once and inside a captured graph; all must equal a plain run.
TEST_F(TcBehaviour, TwoStreamsAndGraphCaptureMatchAPlainRun) {
  auto d = desc_1d(1 << 20, 2);
  d.backend = fftcore::Backend::kTensorCore;
  fftcore::Plan plan;
  TC_STATUS_OK(fftcore::make_plan(d, plan));
  std::size_t const count = static_cast<std::size_t>(d.elements() * d.batch);
  std::size_t const bytes = count * sizeof(__half2);
  unsigned seed = 0;
  auto const hx = tcfft::testing::to_half(tcfft::testing::random_complex(count, seed));
  tcfft::testing::DeviceBuffer in(bytes), out_a(bytes), out_b(bytes), out_g(bytes),
      ws_a(plan.workspace_bytes()), ws_b(plan.workspace_bytes());
  TC_CUDA_OK(cudaMemcpy(in.get(), hx.data(), bytes, cudaMemcpyHostToDevice));
  cudaStream_t sa = nullptr, sb = nullptr;
  TC_CUDA_OK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking));
  TC_CUDA_OK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
  for (int i = 0; i < 20; ++i) {
    TC_STATUS_OK(fftcore::execute(plan, in.get(), out_a.get(), Direction::kForward, ws_a.get(),
                                  ws_a.bytes(), sa));
    TC_STATUS_OK(fftcore::execute(plan, in.get(), out_b.get(), Direction::kForward, ws_b.get(),
                                  ws_b.bytes(), sb));
  }
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  TC_CUDA_OK(cudaStreamBeginCapture(sa, cudaStreamCaptureModeGlobal));
  fftcore::Status const captured = fftcore::execute(plan, in.get(), out_g.get(),
                                                    Direction::kForward, ws_a.get(),
                                                    ws_a.bytes(), sa);
  TC_CUDA_OK(cudaStreamEndCapture(sa, &graph));
  ASSERT_EQ(captured, fftcore::Status::kSuccess);
  TC_CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  TC_CUDA_OK(cudaGraphLaunch(exec, sa));
  TC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<__half2> a(count), b(count), g(count);
  TC_CUDA_OK(cudaMemcpy(a.data(), out_a.get(), bytes, cudaMemcpyDeviceToHost));
  TC_CUDA_OK(cudaMemcpy(b.data(), out_b.get(), bytes, cudaMemcpyDeviceToHost));
  TC_CUDA_OK(cudaMemcpy(g.data(), out_g.get(), bytes, cudaMemcpyDeviceToHost));
  EXPECT_EQ(std::memcmp(a.data(), b.data(), bytes), 0) << "two streams differ";
  EXPECT_EQ(std::memcmp(a.data(), g.data(), bytes), 0) << "graph differs";
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  (void)cudaStreamDestroy(sa);
  (void)cudaStreamDestroy(sb);
}

/// A small, representative set (every kernel shape: radix 2/4/8/16, one to three passes, 2-D
/// tiles narrower than a segment, both instantiations) that compute-sanitizer runs quickly.
TEST_F(TcBehaviour, SmallSetAgainstReference) {
  struct Shape {
    std::int64_t rows, cols, batch;
  };
  for (Shape s : {Shape{1, 2, 3}, Shape{1, 8, 1}, Shape{1, 16, 5}, Shape{1, 512, 3},
                  Shape{1, 1 << 13, 1}, Shape{1, 1 << 14, 2}, Shape{1, 1 << 15, 1},
                  Shape{16, 16, 3}, Shape{4096, 2, 1}, Shape{64, 2048, 1},
                  Shape{1, 1 << 22, 1}}) {  // 2^22: staged 2048-point pass, blocks > grid
    fftcore::PlanDesc d;
    d.rank = s.rows > 1 ? 2 : 1;
    d.dims[0] = s.rows > 1 ? s.rows : s.cols;
    d.dims[1] = s.rows > 1 ? s.cols : 0;
    d.batch = s.batch;
    unsigned seed = 0;
    auto const x = tcfft::testing::round_to_half(tcfft::testing::random_complex(
        static_cast<std::size_t>(s.rows * s.cols * s.batch), seed));
    for (int sign : {-1, 1}) {
      std::vector<cd> y;
      ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(
          d, x, sign < 0 ? Direction::kForward : Direction::kInverse, sign > 0, y));
      auto const ref = tcfft::testing::reference_fft(x, s.rows, s.cols, s.batch, sign);
      EXPECT_LT(tcfft::testing::relative_l2_error(y, ref), 2e-3)
          << s.rows << " x " << s.cols << " batch " << s.batch << " sign " << sign;
    }
  }
}

TEST_F(TcBehaviour, RefusesWhatItCannotDo) {
  auto d = desc_1d(1 << 10, 1);
  d.backend = fftcore::Backend::kTensorCore;
  d.precision = fftcore::Precision::kSingle;
  fftcore::Plan plan;
  EXPECT_EQ(fftcore::make_plan(d, plan), fftcore::Status::kUnsupportedSize);
  d.precision = fftcore::Precision::kHalf;
  d.dims[0] = 1000;
  EXPECT_EQ(fftcore::make_plan(d, plan), fftcore::Status::kUnsupportedSize);
  EXPECT_FALSE(plan.valid());
}

}  // namespace
