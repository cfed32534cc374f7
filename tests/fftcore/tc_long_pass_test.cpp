// SPDX-License-Identifier: MIT
// CPU tests of the long pass (fftcore/src/tc/long_pass_layout.hpp,
// kernels/long_pass_kernel.cu): which passes it takes, that each stage runs in place over a
// permutation of the sequence, that its shared-memory accesses meet 32 distinct banks per warp,
// and - running its three stages in double with the kernel's maps, butterfly deal, twiddle
// exponents and FP16 words between the stages - that they give the DFT.
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/long_pass_layout.hpp"
#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/real_layout.hpp"
#include "../../fftcore/src/tc/real_split.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace lp = fftcore::detail::tc::long_pass;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::layout_of;

constexpr int kL = 1 << lp::kLogLength;
constexpr int kButterflies = 1 << lp::kLogButterflies;

TEST(TcLongPass, TakesThe32768PointTransformsOfLargeBatchesAsOnePass) {
  for (std::int64_t batch : {64, 65, 4099, 8192}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    PassLayout const l = layout_of(desc(1, kL, batch));
    ASSERT_EQ(l.passes.size(), 1u);
    PassParams const& p = l.passes[0];
    EXPECT_EQ(p.log_length, lp::kLogLength);
    EXPECT_EQ(p.log_tile, 0);
    EXPECT_EQ(p.blocks, batch);
    EXPECT_TRUE(lp::eligible(p));
    EXPECT_EQ(l.workspace_bytes, 0u);
  }
  // Below 64 sequences (2^21 elements) two passes, whose smaller blocks spread over more SMs
  // (the long pass runs one sequence per SM at a time); and no other length.
  for (std::int64_t batch : {1, 3, 32, 63}) {
    PassLayout const l = layout_of(desc(1, kL, batch));
    EXPECT_EQ(l.passes.size(), 2u) << "batch " << batch;
  }
  for (int k : {14, 15, 16, 17, 20}) {
    for (PassParams const& p : layout_of(desc(1, std::int64_t{1} << k, 3)).passes) {
      EXPECT_FALSE(lp::eligible(p)) << "n = 2^" << k;
    }
  }
  // FFTCORE_TC_SPLIT=15 asks for it at any batch.
  PassLayout const forced = layout_of(desc(1, kL, 1), tcfft::testing::plans::split({15}));
  ASSERT_EQ(forced.passes.size(), 1u);
  EXPECT_TRUE(lp::eligible(forced.passes[0]));
  PassParams const p = layout_of(desc(1, kL, 64)).passes[0];
  for (auto change : {+[](PassParams& q) { q.in_fp32 = 1; }, +[](PassParams& q) { q.out_fp32 = 1; },
                      +[](PassParams& q) { q.log_twiddle_n = 20; },
                      +[](PassParams& q) { q.real_out = 1; }, +[](PassParams& q) { q.real_in = 1; },
                      +[](PassParams& q) { q.in_elem_stride = 2; },
                      +[](PassParams& q) { q.log_tile = 1; },
                      +[](PassParams& q) { q.out_stride[0] = 2 * kL; }}) {
    PassParams q = p;
    change(q);
    EXPECT_FALSE(lp::eligible(q));
  }
  // The hooks it applies itself (the planner leaves it no other kernel).
  PassParams hooked = p;
  float2 const factor{1.f, 0.f};
  hooked.load_factors = &factor;
  hooked.store_factors = &factor;
  hooked.conjugate_store = 1;
  EXPECT_TRUE(lp::eligible(hooked));
  // Out of place with other strides: it reads all of a sequence before writing any.
  PassParams moved = p;
  moved.out_stride[0] = 2 * kL;
  moved.scatter = 1;
  EXPECT_TRUE(lp::eligible(moved));
}

TEST(TcLongPass, TakesThe65536PointTransformsOfLargeBatchesAsOneSplitPass) {
  for (std::int64_t batch : {64, 65, 4096}) {
    SCOPED_TRACE("batch " + std::to_string(batch));
    PassLayout const l = layout_of(desc(1, 2 * kL, batch));
    ASSERT_EQ(l.passes.size(), 1u);
    PassParams const& p = l.passes[0];
    EXPECT_EQ(p.log_length, lp::kLogSplitLength);
    EXPECT_EQ(p.log_tile, 0);
    EXPECT_EQ(p.blocks, batch);  // sequences; each takes a cluster of kSplitBlocks blocks
    EXPECT_TRUE(lp::eligible(p));
    EXPECT_TRUE(lp::split(p));
    EXPECT_EQ(l.workspace_bytes, 0u);
  }
  // Below 64 sequences (2^22 elements) two passes; FFTCORE_TC_SPLIT=16 asks for it at any batch.
  for (std::int64_t batch : {1, 3, 63}) {
    EXPECT_EQ(layout_of(desc(1, 2 * kL, batch)).passes.size(), 2u) << "batch " << batch;
  }
  PassLayout const forced = layout_of(desc(1, 2 * kL, 1), tcfft::testing::plans::split({16}));
  ASSERT_EQ(forced.passes.size(), 1u);
  EXPECT_TRUE(lp::split(forced.passes[0]));
  // Not the twin R2C's kind of pass, and no other length but 2^15 and 2^16.
  PassParams twin = layout_of(desc(1, 2 * kL, 64)).passes[0];
  twin.real_twin = 1;
  EXPECT_FALSE(lp::eligible(twin));
  PassParams longer = layout_of(desc(1, 2 * kL, 64)).passes[0];
  longer.log_length = lp::kLogSplitLength + 1;
  EXPECT_FALSE(lp::eligible(longer));
  // The sum's factor: 1/2 where the pass scales down (1/N, 1/sqrt(N)), else 1.
  for (auto scaling :
       {fftcore::Scaling::kNone, fftcore::Scaling::kByN, fftcore::Scaling::kBySqrtN}) {
    fftcore::PlanDesc d = desc(1, 2 * kL, 64);
    d.scaling = scaling;
    EXPECT_EQ(lp::split_factor(layout_of(d).passes[0]),
              scaling == fftcore::Scaling::kNone ? 1.0f : 0.5f);
  }
}

TEST(TcLongPass, TakesTheRowFftOf2Pow16Reals) {
  // The split in the pass: the C2R's in its load (PassParams::real_in: rows of M + 1
  // half-spectrum words in, M out), the R2C's in its stage 3 (real_out: M in, M + 1 out); no
  // split kernel, no Z.
  for (auto kind : {fftcore::Transform::kR2C, fftcore::Transform::kC2R}) {
    for (std::int64_t batch : {64, 100}) {
      SCOPED_TRACE(std::string(kind == fftcore::Transform::kR2C ? "R2C" : "C2R") + " batch " +
                   std::to_string(batch));
      fftcore::PlanDesc d = desc(1, 2 * kL, batch);
      d.kind = kind;
      fftcore::detail::tc::RealLayout l;
      ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, l), fftcore::Status::kSuccess);
      ASSERT_EQ(l.row.passes.size(), 1u);
      PassParams const& p = l.row.passes[0];
      EXPECT_TRUE(lp::eligible(p));
      bool const c2r = kind == fftcore::Transform::kC2R;
      EXPECT_FALSE(l.z_fp16);
      EXPECT_TRUE(l.fused);
      EXPECT_EQ(p.real_in, c2r ? 1 : 0);
      EXPECT_EQ(p.real_out, c2r ? 0 : 1);
      EXPECT_EQ(p.in_stride[0], c2r ? kL + 1 : kL);
      EXPECT_EQ(p.out_stride[0], c2r ? kL : kL + 1);
      EXPECT_EQ(l.row.workspace_bytes, 0u);
      // Not with hooks, and not both splits at once.
      PassParams hooked = p;
      float2 const factor{1.f, 0.f};
      hooked.store_factors = &factor;
      EXPECT_FALSE(lp::eligible(hooked));
      PassParams both = p;
      both.real_in = both.real_out = 1;
      EXPECT_FALSE(lp::eligible(both));
    }
  }
  // Below 64 rows the row FFT takes two passes, and the C2R's split another kernel.
  fftcore::PlanDesc d = desc(1, 2 * kL, 63);
  d.kind = fftcore::Transform::kC2R;
  fftcore::detail::tc::RealLayout l;
  ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, l), fftcore::Status::kSuccess);
  for (PassParams const& p : l.row.passes) EXPECT_FALSE(lp::eligible(p));
}

TEST(TcLongPass, LeavesTheRowFftOf2Pow17RealsToTwoPassesThatTakeTheSplit) {
  // The real plans keep 2^16 complex points in two passes, one of which takes the R2C / C2R
  // split (PlanOptions::long_split), rather than the split pass and the split kernel.
  for (auto kind : {fftcore::Transform::kR2C, fftcore::Transform::kC2R}) {
    fftcore::PlanDesc d = desc(1, 4 * kL, 64);
    d.kind = kind;
    fftcore::detail::tc::RealLayout l;
    ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, l), fftcore::Status::kSuccess);
    ASSERT_EQ(l.row.passes.size(), 2u);
    EXPECT_FALSE(l.z_fp16) << "the split runs in a pass, not in the split kernel";
    for (PassParams const& p : l.row.passes) EXPECT_FALSE(lp::eligible(p));
  }
}

TEST(TcLongPass, StagesRunInPlaceOverPermutations) {
  for (int s = 0; s < lp::kStages; ++s) {
    std::vector<int> seen(kL, 0);
    for (int q = 0; q < kButterflies; ++q) {
      for (int m = 0; m < lp::kRadix; ++m) ++seen.at(static_cast<std::size_t>(lp::position(s, q, m)));
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), kL) << "stage " << s;
  }
  std::vector<int> out(kL, 0);
  for (int q = 0; q < kButterflies; ++q) {
    for (int k = 0; k < lp::kRadix; ++k) ++out.at(static_cast<std::size_t>(lp::output_index(q, k)));
  }
  EXPECT_EQ(std::count(out.begin(), out.end(), 1), kL);
  // slot() is one-to-one into the kSlots words, and the kernel's base + offset form is slot().
  std::set<int> slots;
  for (int a = 0; a < kL; ++a) slots.insert(lp::slot(a));
  EXPECT_EQ(static_cast<int>(slots.size()), kL);
  EXPECT_GE(*slots.begin(), 0);
  EXPECT_LT(*slots.rbegin(), lp::kSlots);
  for (int s = 0; s < lp::kStages; ++s) {
    for (int q = 0; q < kButterflies; ++q) {
      for (int m = 0; m < lp::kRadix; ++m) {
        ASSERT_EQ(lp::slot_base(s, q) + lp::slot_offset(s, m), lp::slot(lp::position(s, q, m)))
            << "stage " << s << " q " << q << " m " << m;
      }
    }
  }
  // Threads and rounds deal every butterfly once.
  std::vector<int> dealt(kButterflies, 0);
  for (int j = 0; j < lp::kThreads; ++j) {
    for (int u = 0; u < lp::kRounds; ++u) ++dealt.at(static_cast<std::size_t>(lp::butterfly(j, u)));
  }
  EXPECT_EQ(std::count(dealt.begin(), dealt.end(), 1), kButterflies);
}

TEST(TcLongPass, SharedAccessesMeet32BanksAndGlobalOnesAreCoalesced) {
  // Every warp access of every stage (input or output m of the lanes' butterflies; the
  // stages write where they read) touches 32 distinct 4-byte banks.
  for (int s = 0; s < lp::kStages; ++s) {
    for (int u = 0; u < lp::kRounds; ++u) {
      for (int w = 0; w < lp::kThreads / 32; ++w) {
        for (int m = 0; m < lp::kRadix; ++m) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            int const q = lp::butterfly(32 * w + lane, u);
            banks.insert(lp::slot(lp::position(s, q, m)) & 31);
          }
          ASSERT_EQ(banks.size(), 32u) << "stage " << s << " warp " << w << " m " << m;
        }
      }
    }
  }
  // Stage 1's loads and stage 3's stores: a warp's lanes take 32 adjacent words.
  for (int u = 0; u < lp::kRounds; ++u) {
    for (int w = 0; w < lp::kThreads / 32; ++w) {
      for (int m = 0; m < lp::kRadix; ++m) {
        int const first_in = lp::position(0, lp::butterfly(32 * w, u), m);
        int const first_out = lp::output_index(lp::butterfly(32 * w, u), m);
        EXPECT_EQ(first_in % 32, 0);
        EXPECT_EQ(first_out % 32, 0);
        for (int lane = 0; lane < 32; ++lane) {
          int const q = lp::butterfly(32 * w + lane, u);
          ASSERT_EQ(lp::position(0, q, m), first_in + lane);
          ASSERT_EQ(lp::output_index(q, m), first_out + lane);
        }
      }
    }
  }
}

/// The kernel's data flow in double: stage s reads its butterflies' inputs from the words,
/// takes the 32-point DFT, multiplies output k by W_N^e (twiddle_exponent) and writes it back
/// to the position it read (rounded to FP16 when `fp16`, as the kernel's words are); stage 3
/// writes X[output_index].
std::vector<cd> emulate(std::vector<cd> const& x, bool fp16) {
  std::vector<cd> words(lp::kSlots);
  for (int a = 0; a < kL; ++a) words[static_cast<std::size_t>(lp::slot(a))] = x[static_cast<std::size_t>(a)];
  auto const round = [fp16](cd v) {
    if (!fp16) return v;
    return cd(__half2float(__float2half_rn(static_cast<float>(v.real()))),
              __half2float(__float2half_rn(static_cast<float>(v.imag()))));
  };
  std::vector<cd> out(kL);
  for (int s = 0; s < lp::kStages; ++s) {
    for (int q = 0; q < kButterflies; ++q) {
      std::vector<cd> in(lp::kRadix), y(lp::kRadix);
      for (int m = 0; m < lp::kRadix; ++m) {
        in[static_cast<std::size_t>(m)] = words[static_cast<std::size_t>(lp::slot(lp::position(s, q, m)))];
      }
      for (int k = 0; k < lp::kRadix; ++k) {
        cd sum = 0;
        for (int m = 0; m < lp::kRadix; ++m) {
          sum += in[static_cast<std::size_t>(m)] * tcfft::testing::root_of_unity(m * k, lp::kRadix, false);
        }
        y[static_cast<std::size_t>(k)] = sum * tcfft::testing::root_of_unity(lp::twiddle_exponent(s, q, k), kL, false);
      }
      for (int k = 0; k < lp::kRadix; ++k) {
        if (s + 1 < lp::kStages) {
          words[static_cast<std::size_t>(lp::slot(lp::position(s, q, k)))] = round(y[static_cast<std::size_t>(k)]);
        } else {
          out[static_cast<std::size_t>(lp::output_index(q, k))] = y[static_cast<std::size_t>(k)];
        }
      }
    }
  }
  return out;
}

TEST(TcLongPass, EmulatedStagesGiveTheDft) {
  unsigned seed = 0;
  std::vector<cd> const x = tcfft::testing::random_complex(kL, seed);
  std::vector<cd> ref = x;
  tcfft::testing::fft_radix2(ref);
  double const exact = tcfft::testing::relative_l2_error(emulate(x, false), ref);
  EXPECT_LT(exact, 1e-12) << "seed " << seed;
  // With the FP16 words between the stages: two roundings of unit relative size 2^-11 / sqrt(12)
  // each (~1.4e-4 rms per component), so ~2e-4 relative L2; the bound leaves room, and a wrong
  // map would give an error of order one.
  double const rounded = tcfft::testing::relative_l2_error(emulate(x, true), ref);
  EXPECT_GT(rounded, 1e-5) << "seed " << seed;
  EXPECT_LT(rounded, 4e-4) << "seed " << seed;
}

TEST(TcLongPass, EmulatedSplitGivesTheDft) {
  // The split pass in double: half r of the 2N-point input, y_r[n] = f (x[n] + (-1)^r
  // x[n + N]) W_2N^(r n) with W_2N^n for n = b + 1024 m taken as the kernel takes it (W_2N^b
  // times W_64^m), through the emulated long pass, lands at X[2 k + r].
  constexpr int kN2 = 2 * kL;
  unsigned seed = 0;
  std::vector<cd> const x = tcfft::testing::random_complex(kN2, seed);
  std::vector<cd> ref = x;
  tcfft::testing::fft_radix2(ref);
  PassParams p;
  p.log_length = lp::kLogSplitLength;
  p.scale = 1.0f / kN2;
  double const f = lp::split_factor(p);
  ASSERT_EQ(f, 0.5);
  std::vector<cd> out(kN2);
  for (int r = 0; r < lp::kSplitBlocks; ++r) {
    std::vector<cd> y(kL);
    for (int n = 0; n < kL; ++n) {
      int const b = n % (1 << lp::kLogButterflies), m = n >> lp::kLogButterflies;
      cd const lo = x[static_cast<std::size_t>(n)];
      cd const hi = x[static_cast<std::size_t>(n + lp::kSplitHalf)];
      cd v = f * (r == 0 ? lo + hi : lo - hi);
      if (r != 0) {
        v *= tcfft::testing::root_of_unity(b, kN2, false) *
             tcfft::testing::root_of_unity(m, 2 * lp::kRadix, false);
      }
      y[static_cast<std::size_t>(n)] = v;
    }
    std::vector<cd> const half = emulate(y, false);
    for (int k = 0; k < kL; ++k) {
      out[static_cast<std::size_t>(2 * k + r)] = half[static_cast<std::size_t>(k)] / f;
    }
  }
  double const err = tcfft::testing::relative_l2_error(out, ref);
  EXPECT_LT(err, 1e-12) << "seed " << seed;
}

TEST(TcLongPass, MirrorPairsOfStage3GiveTheR2cOf2Pow16Reals) {
  // The R2C of 2^16 reals (kernels/long_pass_kernel.cu, r2c_stage3): thread j's stage-3
  // butterflies j and twin_partner(j) put, for their outputs k3 < 16 (and thread 0's k = M / 2),
  // X[k] and X[M - k] from Z[k] and the Z[M - k] twin_mirror_source names, with
  // W^k = W^q W_64^k3 (split_twiddle, the kernel's W^q); on the exact Z = DFT_M(z) of
  // z[n] = x[2 n] + i x[2 n + 1] that is the half spectrum, every k = 0 .. M written.
  using fftcore::detail::tc::split_forward_pair;
  using fftcore::detail::tc::split_twiddle;
  unsigned seed = 0;
  std::vector<cd> const z0 = tcfft::testing::random_complex(kL, seed);
  std::vector<cd> x(2 * kL), z = z0;
  for (int n = 0; n < kL; ++n) {
    x[static_cast<std::size_t>(2 * n)] = z0[static_cast<std::size_t>(n)].real();
    x[static_cast<std::size_t>(2 * n + 1)] = z0[static_cast<std::size_t>(n)].imag();
  }
  tcfft::testing::fft_radix2(x);
  tcfft::testing::fft_radix2(z);
  auto const butterfly = [](int j, int round) { return round == 0 ? j : lp::twin_partner(j); };
  auto const f2 = [](cd v) {
    return float2{static_cast<float>(v.real()), static_cast<float>(v.imag())};
  };
  std::vector<cd> got(kL + 1);
  std::vector<int> written(kL + 1, 0);
  for (int j = 0; j < lp::kThreads; ++j) {
    for (int round = 0; round < 2; ++round) {
      int const q = butterfly(j, round);
      float2 const wq = split_twiddle(static_cast<std::uint32_t>(q), lp::kLogLength);
      for (int k3 = 0; k3 < lp::kRadix / 2 + (j == 0 && round == 0 ? 1 : 0); ++k3) {
        lp::TwinSource const s = lp::twin_mirror_source(j, round, k3);
        int const k = lp::output_index(q, k3);
        int const mirror = lp::output_index(butterfly(j, s.round), s.k3);
        cd const twist = tcfft::testing::root_of_unity(k3, 2 * lp::kRadix, false);
        float2 const w{static_cast<float>(wq.x * twist.real() - wq.y * twist.imag()),
                       static_cast<float>(wq.x * twist.imag() + wq.y * twist.real())};
        float2 xk{}, xm{};
        split_forward_pair(f2(z[static_cast<std::size_t>(k)]),
                           f2(z[static_cast<std::size_t>(mirror)]), w, 1.0f, xk, xm);
        got[static_cast<std::size_t>(k)] = {xk.x, xk.y};
        got[static_cast<std::size_t>(kL - k)] = {xm.x, xm.y};
        ++written[static_cast<std::size_t>(k)];
        if (kL - k != k) ++written[static_cast<std::size_t>(kL - k)];
      }
    }
  }
  for (int k = 0; k <= kL; ++k) ASSERT_EQ(written[static_cast<std::size_t>(k)], 1) << "k " << k;
  std::vector<cd> const want(x.begin(), x.begin() + kL + 1);
  // FP32 arithmetic on values of size ~sqrt(M): ~1e-7 relative; a wrong pair gives order one.
  EXPECT_LT(tcfft::testing::relative_l2_error(got, want), 2e-6) << "seed " << seed;
  EXPECT_GT(std::abs(got[1]), 0.0);
}

}  // namespace
