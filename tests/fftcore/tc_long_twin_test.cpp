// SPDX-License-Identifier: MIT
// CPU tests of the twin R2C on the long pass (PassParams::real_twin; the maps in
// fftcore/src/tc/long_pass_layout.hpp, the kernel in kernels/long_pass_kernel.cu): which real
// plans take it, that stage 1 takes every butterfly from the thread's own loads on 32 banks,
// that stage 3's two rounds cover every butterfly and pair every output with the value at
// N - k, and - with the kernel's deal of outputs and its split formula in double - that two
// real rows' half spectra come out.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/long_pass_layout.hpp"
#include "../../fftcore/src/tc/real_layout.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace lp = fftcore::detail::tc::long_pass;
namespace tc = fftcore::detail::tc;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;

constexpr int kL = 1 << lp::kLogLength;
constexpr int kHalf = kL / 2;

tc::RealLayout r2c_layout(std::int64_t n, std::int64_t batch, bool twin = true,
                          fftcore::Transform kind = fftcore::Transform::kR2C) {
  fftcore::PlanDesc d = desc(1, n, batch);
  d.kind = kind;
  tc::RealLayout l;
  EXPECT_EQ(tc::build_real_layout(d, l, true, twin), fftcore::Status::kSuccess);
  return l;
}

TEST(TcLongTwin, TakesTheR2cOf2Pow15RealsInLargeBatches) {
  std::int64_t const min_rows = std::int64_t{1} << tc::kLogMinTwinRows;
  for (std::int64_t rows : {min_rows, min_rows + 1, std::int64_t{8192 + 1}}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    tc::RealLayout const l = r2c_layout(kL, rows);
    ASSERT_TRUE(l.twin);
    ASSERT_EQ(l.row.passes.size(), 1u);
    EXPECT_TRUE(l.column.passes.empty());
    EXPECT_EQ(l.workspace_bytes, 0u);
    tc::PassParams const& p = l.row.passes[0];
    EXPECT_TRUE(lp::eligible(p));
    EXPECT_EQ(p.real_twin, 1);
    EXPECT_EQ(p.twin_odd, static_cast<int>(rows & 1));
    EXPECT_EQ(p.blocks, (rows + 1) / 2);
    EXPECT_EQ(p.src, tc::Buffer::kIn);
    EXPECT_EQ(p.dst, tc::Buffer::kOut);
    EXPECT_FLOAT_EQ(p.scale, 1.0f);  // kNone; the split's 1/2 is the kernel's
    // Item d1's origin: rows 2 d1 (words of two reals) and its half spectrum.
    for (std::int64_t item : {std::int64_t{0}, std::int64_t{1}, p.blocks - 1}) {
      tc::BlockOrigin const o = tc::block_origin(p, item);
      EXPECT_EQ(o.in_base, item * 2 * (kL / 2));
      EXPECT_EQ(o.out_base, item * 2 * (kHalf + 1));
    }
  }
  // Scaled: the pass carries the whole R2C's 1/N.
  fftcore::PlanDesc d = desc(1, kL, 300);
  d.kind = fftcore::Transform::kR2C;
  d.scaling = fftcore::Scaling::kByN;
  tc::RealLayout l;
  ASSERT_EQ(tc::build_real_layout(d, l), fftcore::Status::kSuccess);
  ASSERT_TRUE(l.twin);
  EXPECT_FLOAT_EQ(l.row.passes[0].scale, 1.0f / kL);
  // Not: small batches, other sizes, the C2R, or switched off.
  EXPECT_FALSE(r2c_layout(kL, min_rows - 1).twin);
  EXPECT_FALSE(r2c_layout(2 * kL, 4096).twin);
  EXPECT_FALSE(r2c_layout(kL / 2, 4096).twin);
  EXPECT_FALSE(r2c_layout(kL, 4096, false).twin);
  EXPECT_FALSE(r2c_layout(kL, 4096, true, fftcore::Transform::kC2R).twin);
}

TEST(TcLongTwin, RefusesPassesItCannotRun) {
  tc::PassParams p = r2c_layout(kL, 300).row.passes[0];
  ASSERT_TRUE(lp::eligible(p));
  tc::PassParams q = p;
  q.scatter = 0;  // in place: the rows' words would be overwritten by the spectra
  EXPECT_FALSE(lp::eligible(q));
  q = p;
  q.out_stride[1] = 2 * kHalf;  // not cuFFT's M + 1 rows
  EXPECT_FALSE(lp::eligible(q));
  q = p;
  q.in_stride[1] = kL;
  q.in_stride[1] += 2;
  EXPECT_FALSE(lp::eligible(q));
}

/// Stage 1's rounds take every butterfly once, each from the thread's own 4-byte loads
/// (x[2 j + 1024 m], x[2 j + 1 + 1024 m]), and each store of a round meets 32 distinct banks.
TEST(TcLongTwin, StageOneTakesEveryButterflyFromItsLoadsOn32Banks) {
  std::vector<int> seen(1 << lp::kLogButterflies, 0);
  for (int u = 0; u < lp::kRounds; ++u) {
    for (int warp = 0; warp < lp::kThreads / 32; ++warp) {
      for (int k1 = 0; k1 < lp::kRadix; ++k1) {
        std::set<int> banks;
        for (int lane = 0; lane < 32; ++lane) {
          int const j = 32 * warp + lane;
          int const b = lp::twin_butterfly(j, u);
          if (k1 == 0) {
            ASSERT_GE(b, 0);
            ASSERT_LT(b, 1 << lp::kLogButterflies);
            ++seen[static_cast<std::size_t>(b)];
            EXPECT_EQ(b >> 1, j);  // position b + 1024 m is in word j + 512 m of each row
          }
          banks.insert(lp::slot(lp::position(0, b, k1)) % 32);
        }
        EXPECT_EQ(banks.size(), 32u) << "round " << u << " warp " << warp << " k1 " << k1;
      }
    }
  }
  for (int b = 0; b < (1 << lp::kLogButterflies); ++b) {
    ASSERT_EQ(seen[static_cast<std::size_t>(b)], 1) << "butterfly " << b;
  }
}

/// The butterfly of thread j in round r of stage 3.
int stage3_butterfly(int j, int round) { return round == 0 ? j : lp::twin_partner(j); }

/// Stage 3's rounds take every butterfly once; each output the kernel writes (k3 < 16 of both
/// rounds, and k = N / 2 on thread 0) is paired with the output at N - k, and together they
/// write k = 0 .. N / 2 once each.
TEST(TcLongTwin, RoundsCoverEveryButterflyAndPairEachOutputWithItsMirror) {
  std::vector<int> butterflies(1 << lp::kLogButterflies, 0);
  std::vector<int> written(kHalf + 1, 0);
  for (int j = 0; j < lp::kThreads; ++j) {
    for (int round = 0; round < 2; ++round) {
      int const q = stage3_butterfly(j, round);
      ++butterflies[static_cast<std::size_t>(q)];
      for (int k3 = 0; k3 < lp::kRadix / 2 + (j == 0 && round == 0 ? 1 : 0); ++k3) {
        int const k = lp::output_index(q, k3);
        ASSERT_LE(k, kHalf) << "thread " << j << " round " << round << " k3 " << k3;
        ++written[static_cast<std::size_t>(k)];
        lp::TwinSource const s = lp::twin_mirror_source(j, round, k3);
        int const mirror = lp::output_index(stage3_butterfly(j, s.round), s.k3);
        EXPECT_EQ(mirror, (kL - k) % kL) << "thread " << j << " round " << round << " k3 " << k3;
      }
    }
  }
  for (int q = 0; q < (1 << lp::kLogButterflies); ++q) {
    ASSERT_EQ(butterflies[static_cast<std::size_t>(q)], 1) << "butterfly " << q;
  }
  for (int k = 0; k <= kHalf; ++k) ASSERT_EQ(written[static_cast<std::size_t>(k)], 1) << "k " << k;
}

struct Pair {
  double x, y;
};

/// Two random real rows through the kernel's deal and split (lp::twin_split) on the exact DFT of
/// x_a + i x_b give both rows' half spectra.
TEST(TcLongTwin, SplitOfTheDealtOutputsGivesBothHalfSpectra) {
  unsigned seed = 0;
  std::vector<cd> const noise = tcfft::testing::random_complex(kL, seed);
  std::vector<cd> xa(kL), xb(kL), z(kL);
  for (int n = 0; n < kL; ++n) {
    xa[static_cast<std::size_t>(n)] = noise[static_cast<std::size_t>(n)].real();
    xb[static_cast<std::size_t>(n)] = noise[static_cast<std::size_t>(n)].imag();
    z[static_cast<std::size_t>(n)] = noise[static_cast<std::size_t>(n)];
  }
  tcfft::testing::fft_radix2(xa);
  tcfft::testing::fft_radix2(xb);
  tcfft::testing::fft_radix2(z);
  std::vector<cd> got_a(kHalf + 1), got_b(kHalf + 1), want_a(kHalf + 1), want_b(kHalf + 1);
  for (int k = 0; k <= kHalf; ++k) {
    want_a[static_cast<std::size_t>(k)] = xa[static_cast<std::size_t>(k)];
    want_b[static_cast<std::size_t>(k)] = xb[static_cast<std::size_t>(k)];
  }
  auto const value = [&](int q, int k3) {
    cd const v = 0.5 * z[static_cast<std::size_t>(lp::output_index(q, k3))];  // the kernel's s3 / 2
    return Pair{v.real(), v.imag()};
  };
  for (int j = 0; j < lp::kThreads; ++j) {
    for (int round = 0; round < 2; ++round) {
      int const q = stage3_butterfly(j, round);
      for (int k3 = 0; k3 < lp::kRadix / 2 + (j == 0 && round == 0 ? 1 : 0); ++k3) {
        lp::TwinSource const s = lp::twin_mirror_source(j, round, k3);
        Pair a{}, b{};
        lp::twin_split(value(q, k3), value(stage3_butterfly(j, s.round), s.k3), a, b);
        auto const k = static_cast<std::size_t>(lp::output_index(q, k3));
        got_a[k] = {a.x, a.y};
        got_b[k] = {b.x, b.y};
      }
    }
  }
  EXPECT_LT(tcfft::testing::relative_l2_error(got_a, want_a), 1e-12) << "seed " << seed;
  EXPECT_LT(tcfft::testing::relative_l2_error(got_b, want_b), 1e-12) << "seed " << seed;
  EXPECT_GT(std::abs(got_b[1]), 0.0);
}

}  // namespace
