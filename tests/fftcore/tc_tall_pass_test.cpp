// SPDX-License-Identifier: MIT
// CPU tests of the tall pass (fftcore/src/tc/tall_pass_layout.hpp,
// kernels/tall_pass_kernel.cu) at every length it takes (512..4096 rows): which passes it takes
// (the column passes of 2-D plans), that each stage runs in place over a permutation of every
// column, that its shared-memory accesses meet 32 distinct banks per warp and its global ones
// whole runs of the item's columns, and - running its three stages in double with the kernel's
// maps, butterfly deal, twiddle exponents and FP16 words between the stages - that they give
// the DFT of each column.
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

/// The item's geometry at 2^log_l rows.
struct Geometry {
  int log_l;
  int l() const { return 1 << log_l; }
  int columns() const { return 1 << tp::log_columns(log_l); }
  int r3() const { return 1 << tp::log_last_radix(log_l); }
  int column_butterflies(int s) const {
    return s < 2 ? 1 << tp::log_column_butterflies(log_l) : 1 << tp::kLogLastButterflies;
  }
  int radix(int s) const { return s < 2 ? tp::kRadix : r3(); }
  /// Rounds (stage 3: rounds times groups) of a thread in stage s.
  int rounds(int s) const { return s < 2 ? tp::kRounds : tp::kRounds << tp::log_last_group(log_l); }
};

constexpr int kLengths[] = {9, 10, 11, 12};

TEST(TcTallPass, TakesTheColumnPassOf2dShapesWith512To4096Rows) {
  for (int log_l : kLengths) {
    Geometry const g{log_l};
    for (std::int64_t cols :
         {std::int64_t{g.columns()}, std::int64_t{4} * g.columns(), std::int64_t{4096}}) {
      for (std::int64_t batch : {1, 3}) {
        SCOPED_TRACE(std::to_string(g.l()) + " x " + std::to_string(cols) + " batch " +
                     std::to_string(batch));
        PassLayout const l = layout_of(desc(g.l(), cols, batch));
        ASSERT_EQ(l.passes.size(), 2u);
        EXPECT_FALSE(tp::eligible(l.passes[0]));  // the rows
        PassParams const& p = l.passes[1];
        EXPECT_EQ(p.log_length, log_l);
        EXPECT_EQ(p.in_elem_stride, cols);
        EXPECT_TRUE(tp::eligible(p));
      }
    }
    // Fewer columns than an item: not whole items (the other kernels keep them).
    EXPECT_FALSE(tp::eligible(layout_of(desc(g.l(), g.columns() / 2, 3)).passes.back())) << log_l;
  }
  // No other length, and not the contiguous 1-D passes.
  for (auto const& d : {desc(256, 256, 2), desc(8192, 64, 1), desc(1, 4096, 64), desc(1, 1024, 64),
                        desc(1, std::int64_t{1} << 24, 1), desc(1, std::int64_t{1} << 18, 2)}) {
    for (PassParams const& p : layout_of(d).passes) {
      EXPECT_FALSE(tp::eligible(p)) << "L = 2^" << p.log_length;
    }
  }
  PassParams const p = layout_of(desc(4096, 4096, 1)).passes[1];
  for (auto change :
       {+[](PassParams& q) { q.in_fp32 = 1; }, +[](PassParams& q) { q.out_fp32 = 1; },
        +[](PassParams& q) {
          static float2 const one{1.f, 0.f};
          q.log_twiddle_n = 24;  // pass twiddles, but not with hooks
          q.store_factors = &one;
        },
        +[](PassParams& q) { q.real_in_columns = 1; }, +[](PassParams& q) { q.real_row_pairs = 1; },
        +[](PassParams& q) { q.in_stride[0] = 2; }, +[](PassParams& q) { q.extent[0] = 12; },
        +[](PassParams& q) { q.in_elem_stride = 4; }, +[](PassParams& q) { q.log_length = 13; },
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
  for (int log_l : kLengths) {
    Geometry const g{log_l};
    for (int s = 0; s < tp::kStages; ++s) {
      std::vector<int> seen(static_cast<std::size_t>(g.l()), 0);
      for (int w = 0; w < g.column_butterflies(s); ++w) {
        for (int m = 0; m < g.radix(s); ++m)
          ++seen.at(static_cast<std::size_t>(tp::position(s, w, m, log_l)));
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), g.l()) << "L " << g.l() << " stage " << s;
    }
    std::vector<int> out(static_cast<std::size_t>(g.l()), 0);
    for (int w = 0; w < g.column_butterflies(2); ++w) {
      for (int k = 0; k < g.r3(); ++k) ++out.at(static_cast<std::size_t>(tp::output_index(w, k)));
    }
    EXPECT_EQ(std::count(out.begin(), out.end(), 1), g.l());
    // slot() is one-to-one into the slots() words.
    std::set<int> slots;
    for (int c = 0; c < g.columns(); ++c) {
      for (int a = 0; a < g.l(); ++a) slots.insert(tp::slot(c, a, log_l));
    }
    EXPECT_EQ(static_cast<int>(slots.size()), g.columns() * g.l());
    EXPECT_GE(*slots.begin(), 0);
    EXPECT_LT(*slots.rbegin(), tp::slots(log_l));
    // Threads and rounds deal every butterfly of every column once, a thread keeping its
    // column and taking w = j / C + round_step v.
    for (int s = 0; s < tp::kStages; ++s) {
      std::vector<int> dealt(static_cast<std::size_t>(g.columns() * g.column_butterflies(s)), 0);
      for (int j = 0; j < tp::threads(log_l); ++j) {
        for (int v = 0; v < g.rounds(s); ++v) {
          int const q = tp::butterfly(j, v, log_l);
          ++dealt.at(static_cast<std::size_t>(q));
          ASSERT_EQ(tp::column_of(q, log_l), tp::column_of(j, log_l));
          ASSERT_EQ(tp::column_butterfly(q, log_l),
                    tp::column_butterfly(j, log_l) + (v << tp::log_round_step(log_l)));
        }
      }
      EXPECT_EQ(std::count(dealt.begin(), dealt.end(), 1), static_cast<long>(dealt.size()))
          << "L " << g.l() << " stage " << s;
    }
  }
}

/// Every warp access of stages first..3 under the column form's deal (input or output m of the
/// lanes' butterflies) touches 32 distinct 4-byte banks, the words laid out by `slot_of`.
void expect_column_deal_banks(int log_l, int first, int (*slot_of)(int, int, int)) {
  Geometry const g{log_l};
  for (int s = first; s < tp::kStages; ++s) {
    for (int v = 0; v < g.rounds(s); ++v) {
      for (int warp = 0; warp < tp::threads(log_l) / 32; ++warp) {
        for (int m = 0; m < g.radix(s); ++m) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            int const q = tp::butterfly(32 * warp + lane, v, log_l);
            int const a = tp::position(s, tp::column_butterfly(q, log_l), m, log_l);
            banks.insert(slot_of(tp::column_of(q, log_l), a, log_l) & 31);
          }
          ASSERT_EQ(banks.size(), 32u)
              << "L " << g.l() << " stage " << s << " warp " << warp << " m " << m;
        }
      }
    }
  }
}

TEST(TcTallPass, SharedAccessesMeet32BanksAndGlobalOnesWholeRuns) {
  for (int log_l : kLengths) {
    Geometry const g{log_l};
    int const per_row = std::min(32, g.columns());  // lanes on one row
    // Every warp access of every stage (input or output m of the lanes' butterflies; stages 1
    // and 2 write where stages 2 and 3 read) touches 32 distinct 4-byte banks.
    ASSERT_NO_FATAL_FAILURE(expect_column_deal_banks(log_l, 0, tp::slot));
    // Stage 1's loads and stage 3's stores: lane i of a warp on column c0 + i mod C of row
    // first + i / C (whole runs of C adjacent FP16 words, or 32 of them where C >= 32).
    for (int s : {0, 2}) {
      for (int v = 0; v < g.rounds(s); ++v) {
        for (int warp = 0; warp < tp::threads(log_l) / 32; ++warp) {
          for (int m = 0; m < g.radix(s); ++m) {
            int const q0 = tp::butterfly(32 * warp, v, log_l);
            auto const row = [&](int q) {
              int const w = tp::column_butterfly(q, log_l);
              return s == 0 ? tp::position(0, w, m, log_l) : tp::output_index(w, m);
            };
            for (int lane = 0; lane < 32; ++lane) {
              int const q = tp::butterfly(32 * warp + lane, v, log_l);
              ASSERT_EQ(tp::column_of(q, log_l), (tp::column_of(q0, log_l) + lane) % g.columns());
              ASSERT_EQ(row(q), row(q0) + lane / per_row) << "L " << g.l() << " stage " << s;
            }
          }
        }
      }
    }
  }
}

/// The kernel's data flow in double on one column: stage s reads its butterflies' inputs from
/// the words, takes the DFT, multiplies output k by W_L^e (twiddle_exponent) and writes it back
/// to the position it read (rounded to FP16 when `fp16`, as the kernel's words are); stage 3
/// writes X[output_index]. Column c's words are slot(c, a), the others' untouched.
std::vector<cd> emulate(std::vector<cd> const& x, int c, int log_l, bool fp16, bool rows = false) {
  Geometry const g{log_l};
  auto const slot = [rows, log_l](int col, int a) {
    return rows ? tp::rows_slot(col, a, log_l) : tp::slot(col, a, log_l);
  };
  std::vector<cd> words(static_cast<std::size_t>(tp::slots(log_l)),
                        cd(1e9, 1e9));  // a wrong slot would show
  for (int a = 0; a < g.l(); ++a) {
    words[static_cast<std::size_t>(slot(c, a))] = x[static_cast<std::size_t>(a)];
  }
  auto const round = [fp16](cd v) {
    if (!fp16) return v;
    return cd(__half2float(__float2half_rn(static_cast<float>(v.real()))),
              __half2float(__float2half_rn(static_cast<float>(v.imag()))));
  };
  std::vector<cd> out(static_cast<std::size_t>(g.l()));
  for (int s = 0; s < tp::kStages; ++s) {
    int const r = g.radix(s);
    for (int w = 0; w < g.column_butterflies(s); ++w) {
      std::vector<cd> in(static_cast<std::size_t>(r)), y(static_cast<std::size_t>(r));
      for (int m = 0; m < r; ++m) {
        in[static_cast<std::size_t>(m)] =
            words[static_cast<std::size_t>(slot(c, tp::position(s, w, m, log_l)))];
      }
      for (int k = 0; k < r; ++k) {
        cd sum = 0;
        for (int m = 0; m < r; ++m) {
          sum += in[static_cast<std::size_t>(m)] * tcfft::testing::root_of_unity(m * k, r, false);
        }
        y[static_cast<std::size_t>(k)] =
            sum * tcfft::testing::root_of_unity(tp::twiddle_exponent(s, w, k, log_l), g.l(), false);
      }
      for (int k = 0; k < r; ++k) {
        if (s + 1 < tp::kStages) {
          words[static_cast<std::size_t>(slot(c, tp::position(s, w, k, log_l)))] =
              round(y[static_cast<std::size_t>(k)]);
        } else {
          out[static_cast<std::size_t>(tp::output_index(w, k))] = y[static_cast<std::size_t>(k)];
        }
      }
    }
  }
  return out;
}

// The kernels address a butterfly's inputs (and in-place outputs) as input 0's word plus m
// input_step(s), in the rows form's swizzle after a constant XOR per input (rows_input_xor): at
// every stage. A map change that breaks the constant step fails here.
TEST(TcTallPass, ButterflyInputsAreAConstantStepApart) {
  for (int log_l : kLengths) {
    int const l = 1 << log_l;
    int const columns = 1 << tp::log_columns(log_l);
    int const r3 = 1 << tp::log_last_radix(log_l);
    for (int s = 0; s < 3; ++s) {
      int const butterflies = s < 2 ? l / tp::kRadix : 1 << tp::kLogLastButterflies;
      int const radix = s < 2 ? tp::kRadix : r3;
      for (int c = 0; c < columns; ++c) {
        for (int w = 0; w < butterflies; ++w) {
          int const first = tp::slot(c, tp::position(s, w, 0, log_l), log_l);
          int const first_rows = tp::rows_slot(c, tp::position(s, w, 0, log_l), log_l);
          for (int m = 1; m < radix; ++m) {
            int const a = tp::position(s, w, m, log_l);
            ASSERT_EQ(tp::slot(c, a, log_l), first + m * tp::input_step(s, log_l))
                << "L " << l << " stage " << s + 1 << " column " << c << " butterfly " << w
                << " input " << m;
            ASSERT_EQ(tp::rows_slot(c, a, log_l),
                      (first_rows ^ tp::rows_input_xor(s, m, log_l)) + m * tp::input_step(s, log_l))
                << "rows form, L " << l << " stage " << s + 1 << " column " << c << " butterfly "
                << w << " input " << m;
          }
        }
      }
    }
  }
}

TEST(TcTallPass, EmulatedStagesGiveTheDft) {
  for (int log_l : kLengths) {
    Geometry const g{log_l};
    for (int c : {0, 5, g.columns() - 1}) {
      unsigned seed = 0;
      std::vector<cd> const x =
          tcfft::testing::random_complex(static_cast<std::size_t>(g.l()), seed);
      std::vector<cd> ref = x;
      tcfft::testing::fft_radix2(ref);
      double const exact = tcfft::testing::relative_l2_error(emulate(x, c, log_l, false), ref);
      EXPECT_LT(exact, 1e-12) << "L " << g.l() << " column " << c << " seed " << seed;
      // With the FP16 words between the stages: two roundings of unit relative size
      // 2^-11 / sqrt(12) each (~1.4e-4 rms per component), so ~2e-4 relative L2; the bound
      // leaves room, and a wrong map would give an error of order one.
      double const rounded = tcfft::testing::relative_l2_error(emulate(x, c, log_l, true), ref);
      EXPECT_GT(rounded, 1e-5) << "L " << g.l() << " column " << c << " seed " << seed;
      EXPECT_LT(rounded, 4e-4) << "L " << g.l() << " column " << c << " seed " << seed;
      // The rows form's layout (other slots, the same stages).
      double const rows = tcfft::testing::relative_l2_error(emulate(x, c, log_l, true, true), ref);
      EXPECT_GT(rows, 1e-5) << "L " << g.l() << " column " << c << " seed " << seed;
      EXPECT_LT(rows, 4e-4) << "L " << g.l() << " column " << c << " seed " << seed;
    }
  }
}

TEST(TcTallPass, TakesTheTwiddledColumnPassesOf1dPlans) {
  // The first pass of 2^19 and 2^20 (512 and 1024 points over 1024 columns, twiddles of
  // W_N^(q n)), the middle pass of 2^25..2^27, and 4096-point first passes of forced splits.
  for (int k : {19, 20, 25, 26, 27}) {
    PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, 1));
    ASSERT_GE(l.passes.size(), 2u);
    PassParams const& p = l.passes[l.passes.size() - 2];
    EXPECT_NE(p.log_twiddle_n, 0) << "n = 2^" << k;
    EXPECT_EQ(p.twiddle_stride[0], 1) << "n = 2^" << k;
    EXPECT_TRUE(tp::eligible(p)) << "n = 2^" << k;
    EXPECT_FALSE(tp::eligible(l.passes.back())) << "n = 2^" << k;  // contiguous, transposed out
  }
  // PlanOptions::tall_two_pass (the complex plans' default): 2^21..2^23 in two passes from
  // 2^24 elements in all, a twiddled 4096-point column pass first; three passes below.
  fftcore::detail::tc::PlanOptions two;
  two.tall_two_pass = true;
  for (int k : {21, 22, 23}) {
    PassLayout const l =
        layout_of(desc(1, std::int64_t{1} << k, std::int64_t{1} << (24 - k + 4)), two);
    ASSERT_EQ(l.passes.size(), 2u) << "n = 2^" << k;
    EXPECT_EQ(l.passes[0].log_length, 12);
    EXPECT_TRUE(tp::eligible(l.passes[0])) << "n = 2^" << k;
    EXPECT_EQ(layout_of(desc(1, std::int64_t{1} << k, 1), two).passes.size(), 3u) << "n = 2^" << k;
    EXPECT_EQ(layout_of(desc(1, std::int64_t{1} << k, 64)).passes.size(), 3u) << "n = 2^" << k;
  }
  for (int k : {21, 22, 24}) {
    PassLayout const l =
        layout_of(desc(1, std::int64_t{1} << k, 1), tcfft::testing::plans::split({12, k - 12}));
    ASSERT_EQ(l.passes.size(), 2u);
    EXPECT_EQ(l.passes[0].log_length, 12);
    EXPECT_EQ(l.passes[0].log_twiddle_n, k);
    EXPECT_TRUE(tp::eligible(l.passes[0])) << "n = 2^" << k;
  }
}

TEST(TcTallPass, RowsFormDealsStageOneByRowsAndMeets32Banks) {
  for (int log_l : kLengths) {
    Geometry const g{log_l};
    int const b_count = g.column_butterflies(0);
    // rows_slot is one-to-one onto the padded layout's words.
    std::set<int> padded, rows;
    for (int c = 0; c < g.columns(); ++c) {
      for (int a = 0; a < g.l(); ++a) {
        padded.insert(tp::slot(c, a, log_l));
        rows.insert(tp::rows_slot(c, a, log_l));
      }
    }
    EXPECT_EQ(rows, padded) << "L " << g.l();
    // Stage 1: every (column, butterfly) once; a warp's lanes on 32 adjacent butterflies of
    // one column, so each load (point b + (L / 16) m) reads 128 adjacent bytes of a row, and
    // each store (position b + (L / 16) k) meets 32 banks.
    std::vector<int> dealt(static_cast<std::size_t>(g.columns() * b_count), 0);
    for (int j = 0; j < tp::threads(log_l); ++j) {
      for (int u = 0; u < tp::kRounds; ++u) {
        int const c = tp::rows_column(j, u, log_l), b = tp::rows_butterfly(j, log_l);
        ASSERT_LT(c, g.columns());
        ++dealt.at(static_cast<std::size_t>(c * b_count + b));
      }
    }
    EXPECT_EQ(std::count(dealt.begin(), dealt.end(), 1), static_cast<long>(dealt.size()))
        << "L " << g.l();
    for (int warp = 0; warp < tp::threads(log_l) / 32; ++warp) {
      for (int u = 0; u < tp::kRounds; ++u) {
        int const c0 = tp::rows_column(32 * warp, u, log_l);
        int const b0 = tp::rows_butterfly(32 * warp, log_l);
        for (int k = 0; k < tp::kRadix; ++k) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            int const j = 32 * warp + lane;
            ASSERT_EQ(tp::rows_column(j, u, log_l), c0);
            ASSERT_EQ(tp::rows_butterfly(j, log_l), b0 + lane);
            banks.insert(tp::rows_slot(c0, tp::position(0, b0 + lane, k, log_l), log_l) & 31);
          }
          ASSERT_EQ(banks.size(), 32u) << "L " << g.l() << " warp " << warp << " k " << k;
        }
      }
    }
    // Stages 2 and 3 (the column form's deal) in the rows form's words: 32 banks each access.
    ASSERT_NO_FATAL_FAILURE(expect_column_deal_banks(log_l, 1, tp::rows_slot));
  }
}

TEST(TcTallPass, RowsFormTakesTheLastPassesOfTwoPass1dPlans) {
  fftcore::detail::tc::PlanOptions two;
  two.tall_two_pass = true;
  two.tall_rows = true;
  // 2^21..2^24 in two passes from 2^24 elements, a 4096-point column pass first, the last pass
  // (rows in, transposed out) on the rows form; 2^24 keeps three passes without tall_rows.
  for (int k : {21, 22, 23, 24}) {
    std::int64_t const batch = std::int64_t{1} << std::max(0, 24 - k);
    PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, batch), two);
    ASSERT_EQ(l.passes.size(), 2u) << "n = 2^" << k;
    EXPECT_TRUE(tp::eligible(l.passes[0])) << "n = 2^" << k;
    EXPECT_FALSE(tp::rows_eligible(l.passes[0])) << "n = 2^" << k;
    PassParams const& last = l.passes[1];
    EXPECT_EQ(last.log_length, k - 12);
    EXPECT_TRUE(tp::rows_eligible(last)) << "n = 2^" << k;
    EXPECT_FALSE(tp::eligible(last)) << "n = 2^" << k;
    // A store hook the rows form applies (the fused chain's last pass), a load hook not.
    PassParams hooked = last;
    hooked.store_factors = &hooked;
    EXPECT_TRUE(tp::rows_eligible(hooked)) << "n = 2^" << k;
    hooked.load_factors = &hooked;
    EXPECT_FALSE(tp::rows_eligible(hooked)) << "n = 2^" << k;
  }
  fftcore::detail::tc::PlanOptions no_rows = two;
  no_rows.tall_rows = false;
  EXPECT_EQ(layout_of(desc(1, std::int64_t{1} << 24, 1), no_rows).passes.size(), 3u);
  EXPECT_EQ(layout_of(desc(1, std::int64_t{1} << 25, 1), two).passes.size(), 3u);
  // Not the row passes of 2-D shapes (rows out) nor their column passes.
  for (PassParams const& p : layout_of(desc(4096, 4096, 1)).passes) {
    EXPECT_FALSE(tp::rows_eligible(p));
  }
}

}  // namespace
