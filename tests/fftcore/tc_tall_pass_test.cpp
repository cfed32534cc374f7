// SPDX-License-Identifier: MIT
// CPU tests of the tall pass (fftcore/src/tc/tall_pass_layout.hpp,
// kernels/tall_pass_kernel.cu): which passes it takes (the 4096-point column passes of 2-D
// plans), that each stage runs in place over a permutation of every column, that its
// shared-memory accesses meet 32 distinct banks per warp and its global ones whole 32-byte
// sectors, and - running its three stages in double with the kernel's maps, butterfly deal,
// twiddle exponents and FP16 words between the stages - that they give the DFT of each column.
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/tall_pass_layout.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace tp = fftcore::detail::tc::tall_pass;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::layout_of;

constexpr int kL = 1 << tp::kLogLength;
constexpr int kC = tp::kColumns;
constexpr int kButterflies = 1 << tp::kLogButterflies;
constexpr int kColumnButterflies = 1 << tp::kLogColumnButterflies;

TEST(TcTallPass, TakesTheColumnPassOf2dShapesWith4096Rows) {
  for (std::int64_t cols : {8, 16, 256, 4096}) {
    for (std::int64_t batch : {1, 3}) {
      SCOPED_TRACE("4096 x " + std::to_string(cols) + " batch " + std::to_string(batch));
      PassLayout const l = layout_of(desc(kL, cols, batch));
      ASSERT_EQ(l.passes.size(), 2u);
      EXPECT_FALSE(tp::eligible(l.passes[0]));  // the rows
      PassParams const& p = l.passes[1];
      EXPECT_EQ(p.log_length, tp::kLogLength);
      EXPECT_EQ(p.in_elem_stride, cols);
      EXPECT_TRUE(tp::eligible(p));
    }
  }
  // Fewer than 8 columns: not whole items (the register-chained pass keeps them).
  for (std::int64_t cols : {2, 4}) {
    EXPECT_FALSE(tp::eligible(layout_of(desc(kL, cols, 3)).passes.back())) << cols;
  }
  // No other length, and not the 1-D 4096-point passes (contiguous, or twiddled).
  for (auto const& d : {desc(2048, 2048, 2), desc(8192, 64, 1), desc(1, kL, 64),
                        desc(1, std::int64_t{1} << 24, 1), desc(1, std::int64_t{1} << 20, 2)}) {
    for (PassParams const& p : layout_of(d).passes) {
      EXPECT_FALSE(tp::eligible(p)) << "L = 2^" << p.log_length;
    }
  }
  PassParams const p = layout_of(desc(kL, 4096, 1)).passes[1];
  for (auto change :
       {+[](PassParams& q) { q.in_fp32 = 1; }, +[](PassParams& q) { q.out_fp32 = 1; },
        +[](PassParams& q) { q.log_twiddle_n = 24; }, +[](PassParams& q) { q.real_in_columns = 1; },
        +[](PassParams& q) { q.real_row_pairs = 1; }, +[](PassParams& q) { q.in_stride[0] = 2; },
        +[](PassParams& q) { q.extent[0] = 12; }, +[](PassParams& q) { q.in_elem_stride = 4; },
        +[](PassParams& q) { q.out_elem_stride = 2 * q.in_elem_stride; }}) {
    PassParams q = p;
    change(q);
    EXPECT_FALSE(tp::eligible(q));
  }
  // The hooks it applies itself; out of place with other strides (it reads all of an item
  // before writing any of it).
  PassParams hooked = p;
  float2 const factor{1.f, 0.f};
  hooked.load_factors = &factor;
  hooked.store_factors = &factor;
  hooked.conjugate_store = 1;
  EXPECT_TRUE(tp::eligible(hooked));
  PassParams moved = p;
  moved.out_elem_stride = 2 * p.in_elem_stride;
  moved.scatter = 1;
  EXPECT_TRUE(tp::eligible(moved));
}

TEST(TcTallPass, StagesRunInPlaceOverPermutations) {
  for (int s = 0; s < tp::kStages; ++s) {
    std::vector<int> seen(kL, 0);
    for (int w = 0; w < kColumnButterflies; ++w) {
      for (int m = 0; m < tp::kRadix; ++m)
        ++seen.at(static_cast<std::size_t>(tp::position(s, w, m)));
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), kL) << "stage " << s;
  }
  std::vector<int> out(kL, 0);
  for (int w = 0; w < kColumnButterflies; ++w) {
    for (int k = 0; k < tp::kRadix; ++k) ++out.at(static_cast<std::size_t>(tp::output_index(w, k)));
  }
  EXPECT_EQ(std::count(out.begin(), out.end(), 1), kL);
  // slot() is one-to-one into the kSlots words.
  std::set<int> slots;
  for (int c = 0; c < kC; ++c) {
    for (int a = 0; a < kL; ++a) slots.insert(tp::slot(c, a));
  }
  EXPECT_EQ(static_cast<int>(slots.size()), kC * kL);
  EXPECT_GE(*slots.begin(), 0);
  EXPECT_LT(*slots.rbegin(), tp::kSlots);
  // Threads and rounds deal every butterfly of every column once, a thread keeping its column
  // and taking w = j / 8 + kRoundStep u.
  std::vector<int> dealt(kButterflies, 0);
  for (int j = 0; j < tp::kThreads; ++j) {
    for (int u = 0; u < tp::kRounds; ++u) {
      int const q = tp::butterfly(j, u);
      ++dealt.at(static_cast<std::size_t>(q));
      ASSERT_EQ(tp::column_of(q), tp::column_of(j));
      ASSERT_EQ(tp::column_butterfly(q), tp::column_butterfly(j) + tp::kRoundStep * u);
    }
  }
  EXPECT_EQ(std::count(dealt.begin(), dealt.end(), 1), kButterflies);
}

TEST(TcTallPass, SharedAccessesMeet32BanksAndGlobalOnesWholeSectors) {
  // Every warp access of every stage (input or output m of the lanes' butterflies; stages 1
  // and 2 write where stage 2 and 3 read) touches 32 distinct 4-byte banks.
  for (int s = 0; s < tp::kStages; ++s) {
    for (int u = 0; u < tp::kRounds; ++u) {
      for (int warp = 0; warp < tp::kThreads / 32; ++warp) {
        for (int m = 0; m < tp::kRadix; ++m) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            int const q = tp::butterfly(32 * warp + lane, u);
            banks.insert(tp::slot(tp::column_of(q), tp::position(s, tp::column_butterfly(q), m)) &
                         31);
          }
          ASSERT_EQ(banks.size(), 32u) << "stage " << s << " warp " << warp << " m " << m;
        }
      }
    }
  }
  // Stage 1's loads and stage 3's stores: a warp's lanes take all 8 columns of 4 adjacent rows,
  // lane c + 8 i on column c of row first + i (4 whole 32-byte runs of FP16 words).
  for (int u = 0; u < tp::kRounds; ++u) {
    for (int warp = 0; warp < tp::kThreads / 32; ++warp) {
      for (int m = 0; m < tp::kRadix; ++m) {
        int const q0 = tp::butterfly(32 * warp, u);
        int const first_in = tp::position(0, tp::column_butterfly(q0), m);
        int const first_out = tp::output_index(tp::column_butterfly(q0), m);
        EXPECT_EQ(first_in % 4, 0);
        EXPECT_EQ(first_out % 4, 0);
        for (int lane = 0; lane < 32; ++lane) {
          int const q = tp::butterfly(32 * warp + lane, u);
          ASSERT_EQ(tp::column_of(q), lane % kC);
          ASSERT_EQ(tp::position(0, tp::column_butterfly(q), m), first_in + lane / kC);
          ASSERT_EQ(tp::output_index(tp::column_butterfly(q), m), first_out + lane / kC);
        }
      }
    }
  }
}

/// The kernel's data flow in double on one column: stage s reads its butterflies' inputs from
/// the words, takes the 16-point DFT, multiplies output k by W_4096^e (twiddle_exponent) and
/// writes it back to the position it read (rounded to FP16 when `fp16`, as the kernel's words
/// are); stage 3 writes X[output_index]. Column c's words are slot(c, a), the others' untouched.
std::vector<cd> emulate(std::vector<cd> const& x, int c, bool fp16) {
  std::vector<cd> words(tp::kSlots, cd(1e9, 1e9));  // a wrong slot would show
  for (int a = 0; a < kL; ++a)
    words[static_cast<std::size_t>(tp::slot(c, a))] = x[static_cast<std::size_t>(a)];
  auto const round = [fp16](cd v) {
    if (!fp16) return v;
    return cd(__half2float(__float2half_rn(static_cast<float>(v.real()))),
              __half2float(__float2half_rn(static_cast<float>(v.imag()))));
  };
  std::vector<cd> out(kL);
  for (int s = 0; s < tp::kStages; ++s) {
    for (int w = 0; w < kColumnButterflies; ++w) {
      std::vector<cd> in(tp::kRadix), y(tp::kRadix);
      for (int m = 0; m < tp::kRadix; ++m) {
        in[static_cast<std::size_t>(m)] =
            words[static_cast<std::size_t>(tp::slot(c, tp::position(s, w, m)))];
      }
      for (int k = 0; k < tp::kRadix; ++k) {
        cd sum = 0;
        for (int m = 0; m < tp::kRadix; ++m) {
          sum += in[static_cast<std::size_t>(m)] *
                 tcfft::testing::root_of_unity(m * k, tp::kRadix, false);
        }
        y[static_cast<std::size_t>(k)] =
            sum * tcfft::testing::root_of_unity(tp::twiddle_exponent(s, w, k), kL, false);
      }
      for (int k = 0; k < tp::kRadix; ++k) {
        if (s + 1 < tp::kStages) {
          words[static_cast<std::size_t>(tp::slot(c, tp::position(s, w, k)))] =
              round(y[static_cast<std::size_t>(k)]);
        } else {
          out[static_cast<std::size_t>(tp::output_index(w, k))] = y[static_cast<std::size_t>(k)];
        }
      }
    }
  }
  return out;
}

TEST(TcTallPass, EmulatedStagesGiveTheDft) {
  for (int c : {0, 5, kC - 1}) {
    unsigned seed = 0;
    std::vector<cd> const x = tcfft::testing::random_complex(kL, seed);
    std::vector<cd> ref = x;
    tcfft::testing::fft_radix2(ref);
    double const exact = tcfft::testing::relative_l2_error(emulate(x, c, false), ref);
    EXPECT_LT(exact, 1e-12) << "column " << c << " seed " << seed;
    // With the FP16 words between the stages: two roundings of unit relative size
    // 2^-11 / sqrt(12) each (~1.4e-4 rms per component), so ~2e-4 relative L2; the bound leaves
    // room, and a wrong map would give an error of order one.
    double const rounded = tcfft::testing::relative_l2_error(emulate(x, c, true), ref);
    EXPECT_GT(rounded, 1e-5) << "column " << c << " seed " << seed;
    EXPECT_LT(rounded, 4e-4) << "column " << c << " seed " << seed;
  }
}

}  // namespace
