// SPDX-License-Identifier: MIT
// Accuracy of the Tensor Core backend against a double-precision reference, side by side with
// cuFFT FP16 on the same FP16 input: every 1-D size 2..2^27 and a set of 2-D shapes. Passes
// when our relative L2 error is at most 1.10x cuFFT's (and below an absolute sanity bound).
#include "tc_test_support.hpp"

#include "common/gpu_test.hpp"
#include "common/reference_dft.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <vector>

namespace {

using tcfft::testing::cd;
constexpr double kMaxRatio = 1.10;
constexpr double kSanityL2 = 3e-3;

double g_worst_ratio = 0;

class TcAccuracy : public tcfft::testing::GpuTest {};

void compare(std::int64_t rows, std::int64_t cols, std::int64_t batch, int sign) {
  fftcore::PlanDesc desc;
  desc.rank = rows > 1 ? 2 : 1;
  desc.dims[0] = rows > 1 ? rows : cols;
  desc.dims[1] = rows > 1 ? cols : 0;
  desc.batch = batch;
  unsigned seed = 0;
  auto const x = tcfft::testing::round_to_half(tcfft::testing::random_complex(
      static_cast<std::size_t>(rows * cols * batch), seed));
  auto const ref = tcfft::testing::reference_fft(x, rows, cols, batch, sign);
  std::vector<cd> ours, theirs;
  auto const dir = sign < 0 ? fftcore::Direction::kForward : fftcore::Direction::kInverse;
  ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_tc(desc, x, dir, false, ours));
  ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_cufft_half(rows, cols, batch, x, sign, theirs));
  double const l2 = tcfft::testing::relative_l2_error(ours, ref);
  double const l2_cufft = tcfft::testing::relative_l2_error(theirs, ref);
  double const mx = tcfft::testing::relative_max_error(ours, ref);
  double const mx_cufft = tcfft::testing::relative_max_error(theirs, ref);
  double const ratio = l2_cufft > 0 ? l2 / l2_cufft : (l2 > 0 ? 99.0 : 0.0);
  g_worst_ratio = std::max(g_worst_ratio, ratio);
  std::printf("[tc-accuracy] %6lld x %-9lld batch %-5lld %s  L2 %.3e (cuFFT %.3e, ratio %.3f)"
              "  max %.3e (cuFFT %.3e)  seed %u\n",
              static_cast<long long>(rows), static_cast<long long>(cols),
              static_cast<long long>(batch), sign < 0 ? "fwd" : "inv", l2, l2_cufft, ratio, mx,
              mx_cufft, seed);
  EXPECT_LE(l2, kMaxRatio * l2_cufft + 1e-7) << "seed " << seed;
  EXPECT_LT(l2, kSanityL2) << "seed " << seed;
  EXPECT_LT(mx, 10 * kSanityL2) << "seed " << seed;
}

TEST_F(TcAccuracy, EverySize1dAgainstCufftHalf) {
  for (int k = 1; k <= 27; ++k) {
    std::int64_t const batch = k <= 16 ? (((std::int64_t{1} << 17) >> k) | 1) : 1;
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    compare(1, std::int64_t{1} << k, batch, -1);
  }
  std::printf("[tc-accuracy] worst L2 ratio vs cuFFT FP16 so far: %.3f\n", g_worst_ratio);
}

/// 1-D sizes in batches of 2^24 elements and more, where the planner's split depends on the
/// batch and, on fast-DRAM devices, on the device (PlanOptions::fast_dram: 2^19 as 128 + 4096
/// points, 2^20 as 4096 + 256, 2^22 as 2048 + 2048, 2^25..2^27 other three-pass splits; 2^26
/// and 2^27 in batches of one are EverySize1dAgainstCufftHalf's).
/// The ctest entries TcAccuracy.LargeBatchesAsSlowDramDevice / AsFastDramDevice run it as either
/// device.
TEST_F(TcAccuracy, LargeBatches1dAgainstCufftHalf) {
  for (auto [k, batch, sign] : std::vector<std::tuple<int, std::int64_t, int>>{
           {19, 32, -1}, {20, 16, +1}, {22, 4, -1}, {25, 1, +1}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    compare(1, std::int64_t{1} << k, batch, sign);
  }
  std::printf("[tc-accuracy] worst L2 ratio vs cuFFT FP16 so far: %.3f\n", g_worst_ratio);
}

TEST_F(TcAccuracy, InverseAgainstCufftHalf) {
  for (int k : {3, 4, 7, 12, 14, 15, 19, 22, 23, 26}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    compare(1, std::int64_t{1} << k, k < 12 ? 5 : 1, +1);
  }
}

TEST_F(TcAccuracy, Shapes2dAgainstCufftHalf) {
  std::vector<std::pair<std::int64_t, std::int64_t>> const shapes = {
      {2, 2},       {16, 16},     {256, 256},     {512, 512},         {1 << 14, 2},
      {2, 1 << 14}, {64, 8},      {8, 2048},      {4096, 4096},       {1 << 14, 1 << 13},
      {1024, 32},   {2048, 1024}};
  for (auto [r, c] : shapes) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    std::int64_t const batch = r * c <= (1 << 16) ? 3 : 1;
    compare(r, c, batch, -1);
  }
  std::printf("[tc-accuracy] worst L2 ratio vs cuFFT FP16 so far: %.3f\n", g_worst_ratio);
}

}  // namespace
