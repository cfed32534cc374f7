// SPDX-License-Identifier: MIT
// CPU tests of the Stockham pass (fftcore/src/tc/stockham_pass_layout.hpp,
// kernels/stockham_pass_kernel.cu): which passes of real plans it takes, that its stages'
// index maps are permutations, that its shared-memory accesses are free of bank conflicts, and
// - running the planner's passes on the CPU in double with the kernel's data flow (blocks,
// rounds, 32-bit in-tile offsets, the three stages' registers, twiddles and exchange slots) -
// that they give the DFT.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/real_layout.hpp"
#include "../../fftcore/src/tc/stockham_pass_layout.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace sp = fftcore::detail::tc::stockham;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::expect_emulated_rows_give_the_dft;
using tcfft::testing::plans::float2_wavefronts;
using tcfft::testing::plans::layout_of;
using tcfft::testing::plans::log2_of;
using tcfft::testing::plans::small_dft;
using tcfft::testing::plans::split;

constexpr std::int64_t kBatches[] = {1, 3, 5, 4099, 65536};
std::vector<std::pair<std::int64_t, std::int64_t>> const kShapes2d = {
    {512, 512}, {256, 1024}, {1024, 2048}, {64, 4096}, {4096, 4096}, {16, 8192}, {4, 16384}};

bool is_row_pass(PassParams const& p, std::int64_t cols) {
  return p.in_elem_stride == 1 && p.log_length == log2_of(cols);
}

TEST(TcStockhamPass, TakesTheUntwiddledContiguousPassesOf512To16384Points) {
  for (int k = sp::kMinLogLength; k <= sp::kMaxLogLength; ++k) {
    for (std::int64_t batch : kBatches) {
      SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
      PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, batch));
      ASSERT_EQ(l.passes.size(), 1u);
      EXPECT_TRUE(sp::eligible(l.passes[0]));
    }
  }
  for (int k : {8, 15}) {
    for (std::int64_t batch : {1, 5, 4099}) {
      PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, batch));
      for (PassParams const& p : l.passes) {
        EXPECT_FALSE(sp::eligible(p)) << "n = 2^" << k << " batch " << batch;
      }
    }
  }
  // 2-D: the row pass, never a column pass.
  for (auto [r, c] : kShapes2d) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    PassLayout const l = layout_of(desc(r, c, 3));
    int taken = 0;
    for (PassParams const& p : l.passes) {
      taken += sp::eligible(p) ? 1 : 0;
      EXPECT_EQ(sp::eligible(p), is_row_pass(p, c)) << "log_length " << p.log_length;
    }
    EXPECT_EQ(taken, 1);
  }
  // A 512..4096-point first pass of a longer 1-D transform is strided and twiddled.
  for (auto const& parts : std::vector<std::vector<int>>{{9, 8}, {12, 5}}) {
    PassLayout const l = layout_of(desc(1, 1 << 17, 3), split(parts));
    ASSERT_EQ(l.passes.size(), 2u);
    EXPECT_FALSE(sp::eligible(l.passes[0]));
  }
}

TEST(TcStockhamPass, TakesTheFusedRowPassesOfRealTransforms) {
  // R2C / C2R of n = 1024 .. 32768 (1-D) and 2-D rows of those: the row FFT of M = n / 2 =
  // 512 .. 16384 points is one pass with the split fused (real_layout.cpp), which it takes
  // (the R2C at M = 512, 8192 and 16384 only); the 2-D R2C and C2R from 512 columns take the row
  // pairs instead, also a Stockham pass.
  for (auto kind : {fftcore::Transform::kR2C, fftcore::Transform::kC2R}) {
    for (int k = sp::kMinLogLength + 1; k <= sp::kMaxLogLength + 1; ++k) {
      for (std::int64_t rows : {std::int64_t{1}, std::int64_t{64}}) {
        if (rows > 1 && k > 14) continue;  // 2-D dimensions stop at 2^14
        fftcore::PlanDesc d = desc(rows, std::int64_t{1} << k, 3);
        d.kind = kind;
        SCOPED_TRACE(std::to_string(rows) + " x 2^" + std::to_string(k));
        fftcore::detail::tc::RealLayout layout;
        ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, layout), fftcore::Status::kSuccess);
        if (rows > 1 && k >= fftcore::detail::tc::kLogMinRowPairsColumns) {
          // From 512 columns the 2-D R2C and C2R take the row pairs (RowPairs* below), here too.
          ASSERT_TRUE(layout.row_pairs);
          EXPECT_TRUE(sp::eligible(layout.row.passes.at(0)));
          continue;
        }
        ASSERT_TRUE(layout.fused);
        ASSERT_EQ(layout.row.passes.size(), 1u);
        PassParams const& row = layout.row.passes.front();
        EXPECT_EQ(row.real_out != 0, kind == fftcore::Transform::kR2C);
        EXPECT_EQ(row.real_in != 0, kind == fftcore::Transform::kC2R);
        // The R2C split only at M = 512 (stockham_pass_layout.hpp says why).
        bool const taken = k - 1 <= sp::kMaxLogLengthReal &&
                           (kind == fftcore::Transform::kC2R || sp::r2c_length(k - 1));
        EXPECT_EQ(sp::eligible(row), taken);
      }
    }
  }
}

TEST(TcStockhamPass, HooksAndUnsafeLayoutsStayOnTheOtherKernels) {
  PassParams const base = layout_of(desc(1, 1024, 5)).passes[0];
  ASSERT_TRUE(sp::eligible(base));
  float2 const factor{1.f, 0.f};
  PassParams p = base;
  p.load_factors = &factor;
  EXPECT_FALSE(sp::eligible(p)) << "load hook";
  p = base;
  p.store_factors = &factor;
  EXPECT_TRUE(sp::eligible(p)) << "store hook (the kernel applies it)";
  p.conjugate_store = 1;
  EXPECT_TRUE(sp::eligible(p)) << "conjugated store hook";
  p = base;
  p.conjugate_store = 1;
  EXPECT_FALSE(sp::eligible(p)) << "conjugated store without factors";
  p = base;
  p.in_fp32 = 1;
  EXPECT_FALSE(sp::eligible(p)) << "FP32 in";
  p = base;
  p.out_fp32 = 1;
  EXPECT_FALSE(sp::eligible(p)) << "FP32 out";
  // The fused real splits it takes (out of place), not with a hook, not both at once.
  p = base;
  p.real_out = 1;
  EXPECT_TRUE(sp::eligible(p)) << "R2C split at L = 1024 (paired)";
  p = layout_of(desc(1, 4096, 5)).passes[0];
  p.real_out = 1;
  EXPECT_TRUE(sp::eligible(p)) << "R2C split at L = 4096 (paired)";
  p = layout_of(desc(1, 512, 5)).passes[0];
  p.real_out = 1;
  EXPECT_TRUE(sp::eligible(p)) << "R2C split at L = 512";
  p.store_factors = &factor;
  EXPECT_FALSE(sp::eligible(p)) << "R2C split with a store hook";
  p = base;
  p.real_in = 1;
  EXPECT_TRUE(sp::eligible(p)) << "C2R split";
  p.real_out = 1;
  EXPECT_FALSE(sp::eligible(p)) << "both splits";
  p = base;
  p.log_twiddle_n = 20;
  EXPECT_FALSE(sp::eligible(p)) << "pass twiddle";
  p = base;
  p.out_elem_stride = 2;
  p.scatter = 1;
  EXPECT_FALSE(sp::eligible(p)) << "strided outputs";
  p = base;
  p.out_stride[0] = 2 * base.out_stride[0];
  EXPECT_FALSE(sp::eligible(p)) << "in place, different places";
  p.scatter = 1;
  EXPECT_TRUE(sp::eligible(p)) << "scattering pass (src != dst)";
}

/// Checks that the prefetch ranges of a contiguous pass's items (stockham::sequences_input, a
/// round's sequences as the kernel asks for them) hold every row its item loads (L words; the
/// C2R's L + 1) and tile the input words [0, blocks x block_in_step) without gaps or overlaps;
/// returns the ranges counted.
std::int64_t check_prefetch_ranges(PassParams const& p) {
  EXPECT_TRUE(sp::prefetch_contiguous(p));
  int const log_l = p.log_length;
  int const log_round_sequences =
      sp::log_threads(p.log_tile, log_l) - sp::log_sequence_threads(log_l);
  int const rounds = 1 << sp::log_rounds(p.log_tile, log_l);
  std::int64_t const row = (std::int64_t{1} << log_l) + (p.real_in != 0 ? 1 : 0);
  std::int64_t next = 0;  // where the next range must begin
  std::int64_t ranges = 0;
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    std::int64_t const in_base = fftcore::detail::tc::block_origin(p, b).in_base;
    for (int round = 0; round < rounds; ++round) {
      auto const sequences = static_cast<std::uint32_t>(1 << log_round_sequences);
      sp::WordRange const r =
          sp::sequences_input(p, b, static_cast<std::uint32_t>(round) * sequences, sequences);
      if (r.first != next || r.count == 0) {
        ADD_FAILURE() << "tile " << b << " round " << round << ": [" << r.first << ", +" << r.count
                      << ") after " << next;
        return ranges;
      }
      next = r.first + r.count;
      ++ranges;
      for (int s = 0; s < (1 << log_round_sequences); ++s) {
        std::int64_t const start = in_base + ((round << log_round_sequences) + s) * p.in_stride[0];
        if (start < r.first || start + row > next) {
          ADD_FAILURE() << "tile " << b << " round " << round << " sequence " << s << " at "
                        << start << " outside [" << r.first << ", " << next << ")";
          return ranges;
        }
      }
    }
  }
  EXPECT_EQ(next, p.blocks * p.block_in_step);
  return ranges;
}

TEST(TcStockhamPass, PrefetchRangesCoverEachItemsRowsAndTileTheInput) {
  // Complex 1-D plans and 2-D row passes, then the fused R2C and C2R rows (M + 1 words a C2R
  // row).
  // (Partial last tiles, as 4099 sequences of 512..2048 points give, are not linear_blocks:
  // no prefetch there.)
  for (int k = sp::kMinLogLength; k <= sp::kMaxLogLength; ++k) {
    for (std::int64_t batch : {1, 3, 5, 64, 4099}) {
      SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
      PassParams const p = layout_of(desc(1, std::int64_t{1} << k, batch)).passes.at(0);
      ASSERT_TRUE(sp::eligible(p));
      EXPECT_EQ(sp::prefetch_contiguous(p), p.linear_blocks != 0);
      if (batch != 4099) {
        EXPECT_TRUE(sp::prefetch_contiguous(p));
      }
      if (sp::prefetch_contiguous(p)) {
        EXPECT_GT(check_prefetch_ranges(p), 0);
      }
    }
  }
  for (auto [r, c] : kShapes2d) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    for (PassParams const& p : layout_of(desc(r, c, 3)).passes) {
      if (sp::eligible(p) && sp::prefetch_contiguous(p)) {
        EXPECT_GT(check_prefetch_ranges(p), 0);
      }
    }
  }
  for (auto kind : {fftcore::Transform::kR2C, fftcore::Transform::kC2R}) {
    for (int k = sp::kMinLogLength + 1; k <= sp::kMaxLogLength + 1; ++k) {
      fftcore::PlanDesc d = desc(1, std::int64_t{1} << k, 5);
      d.kind = kind;
      SCOPED_TRACE((kind == fftcore::Transform::kR2C ? "R2C 2^" : "C2R 2^") + std::to_string(k));
      fftcore::detail::tc::RealLayout layout;
      ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, layout), fftcore::Status::kSuccess);
      PassParams const& p = layout.row.passes.front();
      if (!sp::eligible(p)) continue;
      EXPECT_TRUE(sp::prefetch_contiguous(p)) << "in_stride[0] " << p.in_stride[0];
      EXPECT_GT(check_prefetch_ranges(p), 0);
    }
  }
  // Not contiguous: points apart, FP32 in, a row stride past the row, tiles not at one step.
  PassParams const base = layout_of(desc(1, 1024, 5)).passes[0];
  PassParams p = base;
  p.in_elem_stride = 2;
  EXPECT_FALSE(sp::prefetch_contiguous(p));
  p = base;
  p.in_fp32 = 1;
  EXPECT_FALSE(sp::prefetch_contiguous(p));
  p = base;
  p.in_stride[0] = 1025;
  EXPECT_FALSE(sp::prefetch_contiguous(p)) << "L + 1 only for the C2R's rows";
  p = base;
  p.linear_blocks = 0;
  EXPECT_FALSE(sp::prefetch_contiguous(p));
  // One item ahead at 16384 points (items of 64 KiB), none below (slower there, NOTES.md
  // session 29); on fast-DRAM devices one at 2048..8192 and none at 16384 (the H200, session 39).
  for (int log_l = 9; log_l <= 14; ++log_l) {
    SCOPED_TRACE(log_l);
    EXPECT_EQ(sp::default_prefetch_items(log_l, false), log_l == 14 ? 1 : 0);
    EXPECT_EQ(sp::default_prefetch_items(log_l, true), log_l >= 11 && log_l <= 13 ? 1 : 0);
    // The C2R split: as the complex pass, and one ahead at L = 16384 on fast-DRAM devices too.
    EXPECT_EQ(sp::default_prefetch_items(log_l, false, true), log_l == 14 ? 1 : 0);
    EXPECT_EQ(sp::default_prefetch_items(log_l, true, true), log_l >= 11 && log_l <= 14 ? 1 : 0);
  }
}

/// The column variant (stockham::columns_eligible): the column passes of 2-D shapes with 512 ..
/// 2048 rows (any number of columns), nothing else of those plans, no 1-D
/// pass, and not with a hook, a split, a pass twiddle or FP32 sides.
TEST(TcStockhamPass, ColumnVariantTakesTheColumnPassesOf512To2048Rows) {
  std::vector<std::pair<std::int64_t, std::int64_t>> const shapes = {
      {512, 512},   {512, 256}, {1024, 1024}, {1024, 64}, {2048, 2048}, {2048, 128},
      {4096, 4096}, {256, 256}, {8192, 512},  {512, 16},  {2048, 8}};
  for (auto [r, c] : shapes) {
    for (std::int64_t batch : {1, 3}) {
      SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c) + " batch " +
                   std::to_string(batch));
      PassLayout const l = layout_of(desc(r, c, batch));
      int taken = 0;
      for (PassParams const& p : l.passes) {
        bool const column_pass = p.in_elem_stride == c && p.log_length == log2_of(r);
        bool const expected = column_pass && r >= 512 && r <= 2048;
        EXPECT_EQ(sp::columns_eligible(p), expected) << "log_length " << p.log_length;
        EXPECT_FALSE(sp::columns_eligible(p) && sp::eligible(p)) << "one variant per pass";
        taken += sp::columns_eligible(p) ? 1 : 0;
      }
      EXPECT_EQ(taken, r >= 512 && r <= 2048 ? 1 : 0);
    }
  }
  for (int k = 9; k <= 22; ++k) {  // 1-D: contiguous or twiddled, never the column variant
    for (PassParams const& p : layout_of(desc(1, std::int64_t{1} << k, 3)).passes) {
      EXPECT_FALSE(sp::columns_eligible(p)) << "n = 2^" << k;
    }
  }
  PassParams base;
  for (PassParams const& p : layout_of(desc(1024, 1024, 2)).passes) {
    if (sp::columns_eligible(p)) base = p;
  }
  ASSERT_TRUE(sp::columns_eligible(base));
  float2 const factor{1.f, 0.f};
  PassParams p = base;
  p.store_factors = &factor;
  EXPECT_FALSE(sp::columns_eligible(p)) << "store hook";
  p = base;
  p.load_factors = &factor;
  EXPECT_FALSE(sp::columns_eligible(p)) << "load hook";
  p = base;
  p.log_twiddle_n = 20;
  EXPECT_FALSE(sp::columns_eligible(p)) << "pass twiddle";
  p = base;
  p.out_fp32 = 1;
  EXPECT_FALSE(sp::columns_eligible(p)) << "FP32 out";
  p = base;
  p.real_in = 1;
  EXPECT_FALSE(sp::columns_eligible(p)) << "C2R split";
  p = base;
  p.log_tile = sp::log_columns(base.log_length) - 2;
  EXPECT_TRUE(sp::columns_eligible(p)) << "tiles narrower than C (an item takes several)";
  p = base;
  p.in_stride[0] = 2;
  EXPECT_FALSE(sp::columns_eligible(p)) << "columns not adjacent";
  p = base;
  p.out_elem_stride = 1;
  p.scatter = 1;
  EXPECT_FALSE(sp::columns_eligible(p)) << "outputs of a tile overlapping";
  p = base;
  p.out_stride[1] = 2 * base.out_stride[1];
  p.scatter = 0;
  EXPECT_FALSE(sp::columns_eligible(p)) << "in place, different places";
}

/// The column variant's exchange: slot s of column c at s C + c, thread (j, c) with c = tid mod
/// C; every stage write and read of a warp takes the two wavefronts of 32 float2 accesses.
TEST(TcStockhamPass, ColumnExchangeIsBankConflictFree) {
  std::vector<int> slots(32);
  for (int log_l = sp::kMinLogLengthColumns; log_l <= sp::kMaxLogLengthColumns; ++log_l) {
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    int const log_c = sp::log_columns(log_l);
    int const threads = 1 << sp::log_sequence_threads(log_l);
    int const values = 1 << sp::log_values(log_l);
    int const log_block = sp::kLogColumnThreads;
    EXPECT_EQ(threads << log_c, 1 << log_block);
    EXPECT_GE(log_c, 3) << "runs of 32 bytes at least";
    for (int warp = 0; warp < (1 << log_block) / 32; ++warp) {
      auto const lane_slot = [&](int lane, int s) {
        int const c = (32 * warp + lane) & ((1 << log_c) - 1);
        return (s << log_c) + c;
      };
      auto const lane_j = [&](int lane) { return (32 * warp + lane) >> log_c; };
      for (int s = 0; s + 1 < sp::stages(log_l); ++s) {
        int const log_r = sp::stage_log_radix(s, log_l);
        for (int u = 0; u < (values >> log_r); ++u) {
          for (int k = 0; k < (1 << log_r); ++k) {
            for (int lane = 0; lane < 32; ++lane) {
              int const v = lane_j(lane) + u * threads;
              int const a =
                  fftcore::detail::tc::merge_write_index(v, k, log_r, sp::stage_log_ns(s, log_l));
              slots[static_cast<std::size_t>(lane)] = lane_slot(lane, sp::slot(a, log_l));
            }
            EXPECT_EQ(float2_wavefronts(slots), 2)
                << "stage " << s << " writes, u = " << u << ", k = " << k;
          }
        }
      }
      for (int i = 0; i < values; ++i) {
        for (int lane = 0; lane < 32; ++lane) {
          slots[static_cast<std::size_t>(lane)] =
              lane_slot(lane, sp::read_slot(lane_j(lane), i, log_l));
        }
        EXPECT_EQ(float2_wavefronts(slots), 2) << "reads, i = " << i;
      }
    }
  }
}

/// The stage maps: thread j's registers read x[j + T i] (a permutation of the sequence over
/// j, i), and each stage's writes y[(v - v mod Ns) R + v mod Ns + k Ns] over butterflies v and
/// outputs k are a permutation too; the padded slots stay inside sequence_slots, and the
/// kernel's base-plus-step form of the exchange writes gives the same slots.
TEST(TcStockhamPass, StageMapsArePermutations) {
  for (int log_l = sp::kMinLogLength; log_l <= sp::kMaxLogLength; ++log_l) {
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    int const l = 1 << log_l;
    int const values = log_l >= sp::kLogMinLengthWide ? 32 : 16;
    ASSERT_EQ(values, 1 << sp::log_values(log_l));
    int const threads = l / values;
    ASSERT_EQ(threads, 1 << sp::log_sequence_threads(log_l));
    ASSERT_EQ(sp::stage_log_radix(0, log_l), sp::log_values(log_l));
    std::vector<int> seen(static_cast<std::size_t>(l), 0);
    for (int j = 0; j < threads; ++j) {
      for (int i = 0; i < values; ++i) {
        ++seen.at(static_cast<std::size_t>(sp::read_index(j, i, log_l)));
        ASSERT_EQ(sp::read_slot(j, i, log_l), sp::slot(sp::read_index(j, i, log_l), log_l))
            << j << " " << i;
      }
    }
    for (int n = 0; n < l; ++n) ASSERT_EQ(seen[static_cast<std::size_t>(n)], 1) << "read " << n;
    int log_total = 0;
    for (int s = 0; s < sp::stages(log_l); ++s) {
      int const log_r = sp::stage_log_radix(s, log_l);
      ASSERT_GE(log_r, 1);
      ASSERT_LE(log_r, sp::log_values(log_l));
      ASSERT_EQ(sp::stage_log_ns(s, log_l), log_total);
      log_total += log_r;
      std::fill(seen.begin(), seen.end(), 0);
      for (int v = 0; v < (l >> log_r); ++v) {
        for (int k = 0; k < (1 << log_r); ++k) {
          int const a =
              fftcore::detail::tc::merge_write_index(v, k, log_r, sp::stage_log_ns(s, log_l));
          ++seen.at(static_cast<std::size_t>(a));
          ASSERT_LT(sp::slot(a, log_l), sp::sequence_slots(log_l));
          if (s + 1 < sp::stages(log_l)) {  // the kernel's form of the exchange writes
            ASSERT_EQ(sp::write_slot_base(v, s, log_l) + k * sp::write_slot_step(s, log_l),
                      sp::slot(a, log_l))
                << "stage " << s << " v " << v << " k " << k;
            if (s == 1) {  // butterfly u of thread j (v = j + u T): j's base plus u steps
              int const t = 1 << sp::log_sequence_threads(log_l);
              ASSERT_EQ(sp::write_slot_base(v, s, log_l),
                        sp::write_slot_base(v % t, s, log_l) +
                            (v / t) * (sp::write_slot_base(t, s, log_l) -
                                       sp::write_slot_base(0, s, log_l)))
                  << "v " << v;
            }
          }
        }
      }
      for (int n = 0; n < l; ++n) ASSERT_EQ(seen[static_cast<std::size_t>(n)], 1) << "stage " << s;
    }
    EXPECT_EQ(log_total, log_l);
  }
}

TEST(TcStockhamPass, ExchangeIsBankConflictFree) {
  std::vector<int> slots(32);
  for (int log_l = sp::kMinLogLength; log_l <= sp::kMaxLogLength; ++log_l) {
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    int const threads = 1 << sp::log_sequence_threads(log_l);
    int const values = 1 << sp::log_values(log_l);
    for (int warp = 0; warp < threads / 32; ++warp) {
      // The writes of stages 1 and 2 (stage 3 writes global), each butterfly u of the thread.
      for (int s = 0; s + 1 < sp::stages(log_l); ++s) {
        int const log_r = sp::stage_log_radix(s, log_l);
        for (int u = 0; u < (values >> log_r); ++u) {
          for (int k = 0; k < (1 << log_r); ++k) {
            for (int lane = 0; lane < 32; ++lane) {
              int const v = 32 * warp + lane + u * threads;
              slots[static_cast<std::size_t>(lane)] = sp::slot(
                  fftcore::detail::tc::merge_write_index(v, k, log_r, sp::stage_log_ns(s, log_l)),
                  log_l);
            }
            EXPECT_EQ(float2_wavefronts(slots), 2)
                << "stage " << s << " writes, u = " << u << ", k = " << k;
          }
        }
      }
      for (int i = 0; i < values; ++i) {  // the reads of stages 2 and 3
        for (int lane = 0; lane < 32; ++lane) {
          slots[static_cast<std::size_t>(lane)] =
              sp::slot(sp::read_index(32 * warp + lane, i, log_l), log_l);
        }
        EXPECT_EQ(float2_wavefronts(slots), 2) << "reads, i = " << i;
      }
    }
  }
}

/// The paired R2C deal (stockham::paired_butterfly): where it runs, that the butterflies of the
/// last stage are dealt once each, that a thread's first half are the butterflies it reads from
/// its usual registers' slots, that each thread's outputs n = v + k Ns are closed under
/// n -> M - n (the split's pairs lie in one thread), and the mirrored reads' wavefronts.
TEST(TcStockhamPass, PairedR2cDealKeepsEachSplitPairInOneThread) {
  std::vector<int> slots(32);
  for (int log_l = sp::kMinLogLength; log_l <= sp::kMaxLogLength; ++log_l) {
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    EXPECT_EQ(sp::r2c_paired(log_l), log_l != 14);
    EXPECT_EQ(sp::r2c_warp_paired(log_l), log_l == 14);
    EXPECT_TRUE(sp::r2c_length(log_l));
    if (!sp::r2c_paired(log_l)) continue;
    int const l = 1 << log_l;
    int const threads = 1 << sp::log_sequence_threads(log_l);
    int const log_r3 = sp::stage_log_radix(2, log_l);
    int const log_ns = sp::stage_log_ns(2, log_l);
    int const units = 1 << (sp::log_values(log_l) - log_r3);
    ASSERT_GE(units, 2);
    std::vector<int> dealt(static_cast<std::size_t>(l >> log_r3), 0);
    for (int j = 0; j < threads; ++j) {
      std::vector<int> mine;
      for (int u = 0; u < units; ++u) {
        int const v = sp::paired_butterfly(j, u, log_l);
        ASSERT_GE(v, 0);
        ++dealt.at(static_cast<std::size_t>(v));
        for (int k = 0; k < (1 << log_r3); ++k) {
          mine.push_back(v + (k << log_ns));
          if (u < units / 2) {
            ASSERT_EQ(sp::read_slot(j, sp::input_register(u, k, log_r3, log_l), log_l),
                      sp::slot(v + (k << log_ns), log_l))
                << "j " << j << " u " << u << " m " << k;
          }
        }
      }
      std::sort(mine.begin(), mine.end());
      for (int n : mine) {
        ASSERT_TRUE(std::binary_search(mine.begin(), mine.end(), (l - n) & (l - 1)))
            << "thread " << j << " holds Z[" << n << "] but not its partner";
      }
    }
    for (int v : dealt) ASSERT_EQ(v, 1);
    // The mirrored butterflies' reads: lanes take descending adjacent points, so that each
    // half-warp's run of 16 crosses one pad (slot(16 q) and slot(16 q - 15) share a bank): two
    // wavefronts per half-warp where the usual reads take one. No deal of the residues avoids
    // it with this pad: a run aligned to 16 has a mirror that is not.
    for (int warp = 0; warp < threads / 32; ++warp) {
      for (int u = units / 2; u < units; ++u) {
        for (int m = 0; m < (1 << log_r3); ++m) {
          for (int lane = 0; lane < 32; ++lane) {
            slots[static_cast<std::size_t>(lane)] =
                sp::slot(sp::paired_butterfly(32 * warp + lane, u, log_l) + (m << log_ns), log_l);
          }
          EXPECT_LE(float2_wavefronts(slots), 4) << "warp " << warp << " u " << u << " m " << m;
        }
      }
    }
  }
}

/// The 2-D R2C's row pairs (PassParams::real_row_pairs): the last stage's store rule in the
/// kernel's form (per output k of butterfly v) agrees with the rule by output index n, and
/// writes every value of row q (n <= M) and of row R - q once, or of row q alone once where the
/// row is its own mirror; each lane's loads are the words c = n / 2 of its values n = j + T i.
TEST(TcStockhamPass, RowPairsWriteBothRowsOfTheHalfSpectrumOnce) {
  for (int log_l = sp::kMinLogLengthRowPairs; log_l <= sp::kMaxLogLengthRowPairs; ++log_l) {
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    int const l = 1 << log_l, m = l / 2;
    int const log_t = sp::log_sequence_threads(log_l);
    int const log_r3 = sp::stage_log_radix(2, log_l);
    int const log_ns = sp::stage_log_ns(2, log_l);
    int const units = 1 << (sp::log_values(log_l) - log_r3);
    ASSERT_GE(log_r3, 1) << "the rule needs R3 >= 2";
    for (bool self : {false, true}) {
      std::vector<int> own(static_cast<std::size_t>(m + 1), 0), mirror(own);
      for (int j = 0; j < (1 << log_t); ++j) {
        for (int u = 0; u < units; ++u) {
          int const v = j + (u << log_t);
          ASSERT_LT(v, 1 << log_ns);
          for (int k = 0; k < (1 << log_r3); ++k) {
            int const n = v + (k << log_ns);
            auto const a = sp::row_pairs_stage_targets(k, v == 0, log_l, self);
            auto const b = sp::row_pairs_targets(n, log_l, self);
            ASSERT_EQ(a.own, b.own) << "n " << n;
            ASSERT_EQ(a.mirror, b.mirror) << "n " << n;
            if (a.own) ++own.at(static_cast<std::size_t>(n));
            if (a.mirror) ++mirror.at(static_cast<std::size_t>((l - n) & (l - 1)));
          }
        }
        for (int i = 0; i < (1 << sp::log_values(log_l)); ++i) {
          int const n = j + (i << log_t);
          ASSERT_EQ((j >> 1) + (i << (log_t - 1)), n / 2) << "lane " << j << " register " << i;
          ASSERT_EQ(n & 1, j & 1);
        }
      }
      for (int c = 0; c <= m; ++c) {
        ASSERT_EQ(own[static_cast<std::size_t>(c)], 1) << "row q, output " << c;
        ASSERT_EQ(mirror[static_cast<std::size_t>(c)], self ? 0 : 1) << "row R - q, output " << c;
      }
    }
  }
  // The C2R's stores: lane j writes word (v + k Ns) / 2 of its row (q even, R - q odd), every
  // word of both rows once; its loads: registers i >= E / 2 (values n >= M) from the mirror.
  for (int log_l = sp::kMinLogLengthRowPairs; log_l <= sp::kMaxLogLengthRowPairs; ++log_l) {
    SCOPED_TRACE("C2R, L = 2^" + std::to_string(log_l));
    int const l = 1 << log_l;
    int const log_t = sp::log_sequence_threads(log_l);
    int const log_e = sp::log_values(log_l);
    int const log_r3 = sp::stage_log_radix(2, log_l);
    int const log_ns = sp::stage_log_ns(2, log_l);
    std::vector<int> words(static_cast<std::size_t>(l), 0);  // [parity][word]
    for (int j = 0; j < (1 << log_t); ++j) {
      for (int u = 0; u < (1 << (log_e - log_r3)); ++u) {
        for (int k = 0; k < (1 << log_r3); ++k) {
          int const off = (u << log_t) + (k << log_ns);
          ASSERT_EQ(off & 1, 0);
          int const word = (j >> 1) + (off >> 1);
          ASSERT_LT(word, l / 2);
          ++words.at(static_cast<std::size_t>((j & 1) * (l / 2) + word));
        }
      }
      for (int i = 0; i < (1 << log_e); ++i) {
        EXPECT_EQ(sp::row_pairs_reads_mirror(j + (i << log_t), log_l), i >= (1 << log_e) / 2);
      }
    }
    for (int w : words) ASSERT_EQ(w, 1);
  }
  // Rows 0 and R / 2 are their own mirrors.
  EXPECT_EQ(sp::row_pairs_mirror(0, 11), 0u);
  EXPECT_EQ(sp::row_pairs_mirror(1024, 11), 1024u);
  EXPECT_EQ(sp::row_pairs_mirror(1, 11), 2047u);
  EXPECT_EQ(sp::row_pairs_mirror(1, 1), 1u);
}

/// The warp-paired R2C deal (stockham::warp_paired_butterfly, one butterfly per thread): every
/// butterfly of the last stage dealt once, lane l + 16 holding the mirror of lane l's, so that
/// output k of one pairs with output R3 - 1 - k of the other (warp 0's lanes 0 and 16 with
/// their own), and the reads' wavefronts.
TEST(TcStockhamPass, WarpPairedR2cDealKeepsEachSplitPairInTwoLanes) {
  std::vector<int> slots(32);
  for (int log_l = sp::kMinLogLength; log_l <= sp::kMaxLogLength; ++log_l) {
    if (!sp::r2c_warp_paired(log_l)) continue;
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    int const l = 1 << log_l;
    int const threads = 1 << sp::log_sequence_threads(log_l);
    int const log_r3 = sp::stage_log_radix(2, log_l);
    int const r3 = 1 << log_r3;
    int const log_ns = sp::stage_log_ns(2, log_l);
    int const ns = 1 << log_ns;
    ASSERT_EQ(ns, threads);
    std::vector<int> dealt(static_cast<std::size_t>(ns), 0);
    for (int j = 0; j < threads; ++j) {
      int const v = sp::warp_paired_butterfly(j, log_l);
      int const partner = sp::warp_paired_butterfly(j ^ 16, log_l);
      ++dealt.at(static_cast<std::size_t>(v));
      bool const own = v == 0 || v == ns / 2;
      EXPECT_EQ(own, j == 0 || j == 16) << j;
      for (int k = 0; k < r3; ++k) {
        int const n = v + (k << log_ns);
        int const mirror = (l - n) & (l - 1);
        int const expect = own ? (v == 0 ? ((r3 - k) % r3) << log_ns : v + ((r3 - 1 - k) << log_ns))
                               : partner + ((r3 - 1 - k) << log_ns);
        ASSERT_EQ(mirror, expect) << "thread " << j << " output " << k;
      }
    }
    for (int c : dealt) ASSERT_EQ(c, 1);
    for (int warp = 0; warp < threads / 32; ++warp) {
      for (int m = 0; m < r3; ++m) {
        for (int lane = 0; lane < 32; ++lane) {
          slots[static_cast<std::size_t>(lane)] =
              sp::slot(sp::warp_paired_butterfly(32 * warp + lane, log_l) + (m << log_ns), log_l);
        }
        // Lanes 0..15 read an aligned run, 16..31 its mirror (two wavefronts, as the paired
        // deal's mirrored reads).
        EXPECT_LE(float2_wavefronts(slots), 3) << "warp " << warp << " m " << m;
      }
    }
  }
}

/// The paired and warp-paired R2C stages as the kernel runs them, in double: stage 3's inputs
/// are the Ns-point DFTs x2[v + m Ns] of the decimated z[R3 t + m] (what stages 1 and 2 leave in
/// the buffer, checked by EmulatedPassesGiveTheDft); each thread takes its butterflies v and
/// mirrors v' (warp-paired: lane j ^ 16's butterfly) with
/// the kernel's twiddles (W_L^v = W_L^j W_E^u; W_R3 conj(W_L^v); W_2R3 for thread 0's Ns / 2),
/// pairs output k of v with R3 - 1 - k of v' (thread 0's own pairs as the kernel takes them),
/// applies real_split.hpp's split with W_2M^n = W_2M^j W_2E^(u + k E / R3) and stores X[n] and
/// X[M - n] at the kernel's offsets. Every X[0..M] written once and equal to the real DFT of
/// the 2M reals.
/// The paired C2R split (c2r_paired_source, L = 512 .. 16384): every stage-1 input conj Z[n] of
/// every lane comes from exactly one lane's pair (X[n'], X[M - n']) - its Z[n'] or Z[M - n'] - or
/// lane 0's middle, and equals the split of real_split.hpp computed in double from random X.
TEST(TcStockhamPass, PairedC2rSourcesGiveEachInputOnce) {
  EXPECT_FALSE(sp::c2r_paired(sp::kMaxLogLengthReal + 1));
  for (int log_l = 9; log_l <= sp::kMaxLogLengthReal; ++log_l) {
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    ASSERT_TRUE(sp::c2r_paired(log_l));
    int const m = 1 << log_l;
    int const t = 1 << sp::log_sequence_threads(log_l);
    int const e = 1 << sp::log_values(log_l);
    unsigned seed = 0;
    std::vector<cd> const x = tcfft::testing::random_complex(static_cast<std::size_t>(m + 1), seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    cd const i(0, 1);
    // Z[k] = (X[k] + conj X[M - k]) + i W_2M^-k (X[k] - conj X[M - k]), k < M (imaginary parts of
    // X[0] and X[M] ignored): the C2R's pre-step, the reference.
    auto const xa = [&](int k) {
      cd v = x[static_cast<std::size_t>(k)];
      return k == 0 || k == m ? cd(v.real(), 0) : v;
    };
    auto const z = [&](int k) {
      cd const a = xa(k), b = std::conj(xa(m - k));
      return (a + b) + i * tcfft::testing::root_of_unity(k, 2 * m, true) * (a - b);
    };
    // What lane `lane` computes from its pair p: Z[n] and Z[M - n] from one (s, d), as the kernel.
    auto const pair_values = [&](int lane, int p, cd& own, cd& mirror) {
      int const n = lane + t * p;
      cd const a = xa(n), b = std::conj(xa(m - n));
      cd const s = a + b, q = std::conj(tcfft::testing::root_of_unity(n, 2 * m, false)) * (a - b);
      own = s + i * q;
      mirror = std::conj(s - i * q);
    };
    std::vector<int> uses(static_cast<std::size_t>(t * e), 0);
    double worst = 0;
    for (int j = 0; j < t; ++j) {
      for (int k = 0; k < e; ++k) {
        sp::PairedSource const src = sp::c2r_paired_source(j, k, log_l);
        ASSERT_GE(src.lane, 0);
        ASSERT_LT(src.lane, t);
        ASSERT_LT(src.pair, e / 2);
        cd value;
        if (src.middle) {
          ASSERT_EQ(j, 0);
          value = 2.0 * std::conj(xa(m / 2));  // real_split.hpp's split_inverse_middle
        } else {
          cd own, mirror;
          pair_values(src.lane, src.pair, own, mirror);
          value = src.mirror ? mirror : own;
          ++uses.at(static_cast<std::size_t>(src.lane * e + src.pair * 2 + (src.mirror ? 1 : 0)));
          if (src.mirror) {
            EXPECT_NE(src.lane * e + src.pair * 2, 0) << "lane 0's pair 0 has no mirror (Z[M])";
          }
        }
        worst = std::max(worst, std::abs(value - z(j + t * k)) / std::abs(z(j + t * k)));
      }
    }
    EXPECT_LT(worst, 1e-12) << "a stage-1 input is not Z[j + T k]";
    // Each lane's E / 2 pairs give E values, each used once; lane 0's pair 0 gives one (Z[0]).
    for (int lane = 0; lane < t; ++lane) {
      for (int slot = 0; slot < e; ++slot) {
        int const expected = lane == 0 && slot == 1 ? 0 : 1;
        EXPECT_EQ(uses[static_cast<std::size_t>(lane * e + slot)], expected)
            << "lane " << lane << " pair " << slot / 2 << (slot % 2 != 0 ? " mirror" : " own");
      }
    }
  }
}

TEST(TcStockhamPass, EmulatedPairedR2cGivesTheRealDft) {
  namespace tc = fftcore::detail::tc;
  for (int log_l : {9, 10, 11, 12, 13, 14}) {
    SCOPED_TRACE("M = 2^" + std::to_string(log_l));
    int const l = 1 << log_l;
    int const log_t = sp::log_sequence_threads(log_l);
    int const threads = 1 << log_t;
    int const log_e = sp::log_values(log_l);
    int const log_r3 = sp::stage_log_radix(2, log_l);
    int const r3 = 1 << log_r3;
    int const log_ns = sp::stage_log_ns(2, log_l);
    int const ns = 1 << log_ns;
    int const units = 1 << (log_e - log_r3);
    unsigned seed = 0;
    std::vector<cd> const z = tcfft::testing::random_complex(static_cast<std::size_t>(l), seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::vector<cd> x2(static_cast<std::size_t>(l));
    for (int m = 0; m < r3; ++m) {
      std::vector<cd> d(static_cast<std::size_t>(ns));
      for (int t = 0; t < ns; ++t)
        d[static_cast<std::size_t>(t)] = z[static_cast<std::size_t>(r3 * t + m)];
      tcfft::testing::fft_radix2(d);
      for (int v = 0; v < ns; ++v)
        x2[static_cast<std::size_t>(v + m * ns)] = d[static_cast<std::size_t>(v)];
    }
    auto const w = [](int num, int den) { return tcfft::testing::root_of_unity(num, den, false); };
    // real_split.hpp's pair (X[n], X[M - n]) from Z[n], Z[M - n] and W_2M^n, in double.
    auto const split = [](cd a, cd b, cd wn, cd& xn, cd& xm) {
      cd const e = (a + std::conj(b)) / 2.0, d = (a - std::conj(b)) / 2.0;
      cd const i(0, 1);
      xn = e - i * wn * d;
      xm = std::conj(e + i * wn * d);
    };
    std::vector<cd> out(static_cast<std::size_t>(l + 1), cd(std::nan(""), 0));
    std::vector<int> writes(static_cast<std::size_t>(l + 1), 0);
    auto const store = [&](int at, cd value) {
      out.at(static_cast<std::size_t>(at)) = value;
      ++writes.at(static_cast<std::size_t>(at));
    };
    for (int j = 0; sp::r2c_warp_paired(log_l) && j < threads; ++j) {
      // The warp-paired stage: butterfly v from the table's W_L^v, outputs R3 / 2.. of lane
      // j ^ 16 (the mirror) swapped in; X[n], X[M - n] for the lane's own k < R3 / 2.
      int const v = sp::warp_paired_butterfly(j, log_l);
      int const vm = sp::warp_paired_butterfly(j ^ 16, log_l);
      auto const butterfly = [&](int at) {
        std::array<cd, 32> y{};
        for (int m = 0; m < r3; ++m) {
          y[static_cast<std::size_t>(m)] = x2[static_cast<std::size_t>(at + m * ns)] * w(at * m, l);
        }
        return small_dft(y, r3);
      };
      std::array<cd, 32> const b = butterfly(v), o = butterfly(vm);
      auto const zb = [&](int k) { return b[static_cast<std::size_t>(k)]; };
      cd const wv = w(v, 2 * l);
      cd xn, xm;
      if (v == 0) {
        store(0, cd(zb(0).real() + zb(0).imag(), 0));
        store(l, cd(zb(0).real() - zb(0).imag(), 0));
        store((r3 / 2) * ns, std::conj(zb(r3 / 2)));
        for (int k = 1; k < r3 / 2; ++k) {
          split(zb(k), zb(r3 - k), w(k, 2 * r3), xn, xm);
          store(k * ns, xn);
          store((r3 - k) * ns, xm);
        }
        continue;
      }
      for (int k = 0; k < r3 / 2; ++k) {
        cd const partner = v == ns / 2 ? zb(r3 - 1 - k) : o[static_cast<std::size_t>(r3 - 1 - k)];
        split(zb(k), partner, wv * w(k, 2 * r3), xn, xm);
        store(v + k * ns, xn);
        store(l - v - k * ns, xm);
      }
    }
    for (int j = 0; sp::r2c_paired(log_l) && j < threads; ++j) {
      for (int u = 0; u < units / 2; ++u) {
        int const v = sp::paired_butterfly(j, u, log_l);
        int const vm = sp::paired_butterfly(j, u + units / 2, log_l);
        bool const own = j == 0 && u == 0;
        cd const t = w(j, l) * w(u, 1 << log_e);
        cd const tm = own ? w(1, 2 * r3) : w(1, r3) * std::conj(t);
        std::array<cd, 32> b{}, c{};
        for (int m = 0; m < r3; ++m) {
          b[static_cast<std::size_t>(m)] =
              x2[static_cast<std::size_t>(v + m * ns)] * std::pow(t, m);
          c[static_cast<std::size_t>(m)] =
              x2[static_cast<std::size_t>(vm + m * ns)] * std::pow(tm, m);
        }
        b = small_dft(b, r3);  // b[k] = Z[v + k Ns]
        c = small_dft(c, r3);
        auto const zb = [&](int k) { return b[static_cast<std::size_t>(k)]; };
        auto const zc = [&](int k) { return c[static_cast<std::size_t>(k)]; };
        cd xn, xm;
        if (own) {
          store(0, cd(zb(0).real() + zb(0).imag(), 0));
          store(l, cd(zb(0).real() - zb(0).imag(), 0));
          store((r3 / 2) * ns, std::conj(zb(r3 / 2)));
          for (int k = 1; k < r3 / 2; ++k) {
            split(zb(k), zb(r3 - k), w(k * units, 2 << log_e), xn, xm);
            store(k * ns, xn);
            store((r3 - k) * ns, xm);
          }
          for (int k = 0; k < r3 / 2; ++k) {
            split(zc(k), zc(r3 - 1 - k), w(units / 2 + k * units, 2 << log_e), xn, xm);
            store(ns / 2 + k * ns, xn);
            store(ns / 2 + (r3 - 1 - k) * ns, xm);
          }
          continue;
        }
        for (int k = 0; k < r3; ++k) {
          int const i = u + k * units;
          split(zb(k), zc(r3 - 1 - k), w(j, 2 * l) * w(i, 2 << log_e), xn, xm);
          store(j + (i << log_t), xn);      // seq[i T]
          store(l - j - (i << log_t), xm);  // mirror[-(i T)], mirror = seq + M - 2 j
        }
      }
    }
    for (int n = 0; n <= l; ++n)
      ASSERT_EQ(writes[static_cast<std::size_t>(n)], 1) << "X[" << n << "]";
    // The reference: the 2M reals z[t] = x[2t] + i x[2t + 1] by a complex FFT of 2M points.
    std::vector<cd> reals(static_cast<std::size_t>(2 * l));
    for (int t = 0; t < l; ++t) {
      reals[static_cast<std::size_t>(2 * t)] = z[static_cast<std::size_t>(t)].real();
      reals[static_cast<std::size_t>(2 * t + 1)] = z[static_cast<std::size_t>(t)].imag();
    }
    tcfft::testing::fft_radix2(reals);
    double err = 0, mag = 0;
    for (int n = 0; n <= l; ++n) {
      err = std::max(
          err, std::abs(out[static_cast<std::size_t>(n)] - reals[static_cast<std::size_t>(n)]));
      mag = std::max(mag, std::abs(reals[static_cast<std::size_t>(n)]));
    }
    EXPECT_GT(mag, 1.0);
    EXPECT_LT(err, 1e-9 * mag);
  }
}

/// One pass as the Stockham kernel runs it, forward: blocks, rounds of 2^log_threads / T
/// sequences, thread j of a sequence loading x[j + T i] at 32-bit in-tile offsets, the three
/// stages (butterflies v = j + u T, inputs a[u + m E / R], twiddles W_{Ns R}^((v mod Ns) m) and
/// the scale in stage 2) through NaN-filled exchange buffers at the padded slots, stage 3's
/// stores of X[v + 256 k]. `writes` counts the stores to each element of dst.
void run_stockham(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst,
                  std::vector<int>& writes, bool inverse) {
  int const log_l = p.log_length;
  int const log_t = sp::log_sequence_threads(log_l);
  int const threads_per_seq = 1 << log_t;
  int const values = 1 << sp::log_values(log_l);
  int const log_threads = sp::log_threads(p.log_tile, log_l);
  int const round_sequences = 1 << (log_threads - log_t);
  int const rounds = 1 << sp::log_rounds(p.log_tile, log_l);
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  cd const nan(std::numeric_limits<double>::quiet_NaN(), 0);
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    auto const o = fftcore::detail::tc::block_origin(p, b);
    auto const valid_t =
        static_cast<int>(std::min<std::int64_t>(p.extent[0] - o.d0, std::int64_t{1} << p.log_tile));
    for (int r = 0; r < rounds; ++r) {
      for (int slot_seq = 0; slot_seq < round_sequences; ++slot_seq) {
        int const t = r * round_sequences + slot_seq;
        bool const ok = t < valid_t;
        // Registers of every thread of the sequence.
        std::vector<std::vector<cd>> a(static_cast<std::size_t>(threads_per_seq),
                                       std::vector<cd>(static_cast<std::size_t>(values), cd(0, 0)));
        for (int j = 0; j < threads_per_seq; ++j) {
          for (int i = 0; ok && i < values; ++i) {
            std::uint32_t const at = static_cast<std::uint32_t>(t) * in_s0 +
                                     static_cast<std::uint32_t>(sp::read_index(j, i, log_l));
            a[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] =
                src.at(static_cast<std::size_t>(o.in_base + at));
          }
        }
        for (int s = 0; s < sp::stages(log_l); ++s) {
          int const log_r = sp::stage_log_radix(s, log_l);
          int const radix = 1 << log_r;
          int const log_ns = sp::stage_log_ns(s, log_l);
          std::vector<cd> buffer(static_cast<std::size_t>(sp::sequence_slots(log_l)), nan);
          for (int j = 0; j < threads_per_seq; ++j) {
            for (int u = 0; u < (values >> log_r); ++u) {
              int const v = j + u * threads_per_seq;
              int const kv = v & ((1 << log_ns) - 1);
              std::array<cd, 32> in{};
              for (int m = 0; m < radix; ++m) {
                cd const w = tcfft::testing::root_of_unity(kv * m, radix << log_ns, false);
                in[static_cast<std::size_t>(m)] =
                    a[static_cast<std::size_t>(j)]
                     [static_cast<std::size_t>(sp::input_register(u, m, log_r, log_l))] *
                    w * (s == 1 ? static_cast<double>(p.scale) : 1.0);
              }
              std::array<cd, 32> const y = small_dft(in, radix);
              for (int k = 0; k < radix; ++k) {
                int const idx = fftcore::detail::tc::merge_write_index(v, k, log_r, log_ns);
                if (s + 1 < sp::stages(log_l)) {
                  buffer.at(static_cast<std::size_t>(sp::slot(idx, log_l))) =
                      y[static_cast<std::size_t>(k)];
                } else if (ok) {
                  ASSERT_EQ(idx, v + (k << log_ns));
                  std::uint32_t const at =
                      static_cast<std::uint32_t>(t) * out_s0 + static_cast<std::uint32_t>(idx);
                  auto const e = static_cast<std::size_t>(o.out_base + at);
                  cd h(1, 0);
                  if (p.store_factors != nullptr) {  // host factors in this test
                    float2 const f = static_cast<float2 const*>(
                        p.store_factors)[(static_cast<std::uint32_t>(o.out_base) + at) &
                                         p.factor_mask];
                    // The kernel's output is conj(forward(conj x)) for the inverse: the factor
                    // is conjugated once more there (the check conjugates the result back).
                    bool const flip = (p.conjugate_store != 0) != inverse;
                    h = cd(f.x, flip ? -f.y : f.y);
                  }
                  dst.at(e) = y[static_cast<std::size_t>(k)] * h;
                  ++writes.at(e);
                }
              }
            }
          }
          if (s + 1 < sp::stages(log_l)) {
            for (int j = 0; j < threads_per_seq; ++j) {
              for (int i = 0; i < values; ++i) {
                a[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] =
                    buffer.at(static_cast<std::size_t>(sp::read_slot(j, i, log_l)));
              }
            }
          }
        }
      }
    }
  }
}

/// Runs the Stockham pass of `d` (the one pass of a 1-D plan, the row pass of a 2-D plan) on
/// random data, forward or inverse (conj(forward(conj x)), the kernel's), in or out of place,
/// against a direct long-double DFT of every row, scaled by the pass's scale.
/// With `hooked`, the pass carries a store hook of random factors (conjugated for the inverse)
/// and the reference is multiplied by them.
void check(fftcore::PlanDesc const& d, bool inverse, bool in_place, bool hooked = false) {
  std::int64_t const cols = d.rank == 2 ? d.dims[1] : d.dims[0];
  SCOPED_TRACE((d.rank == 2 ? std::to_string(d.dims[0]) + " x " : std::string()) +
               std::to_string(cols) + " batch " + std::to_string(d.batch) +
               (inverse ? " inverse" : " forward") + (in_place ? " in place" : " out of place") +
               (d.scaling == fftcore::Scaling::kByN ? " 1/N" : ""));
  PassLayout const layout = layout_of(d);
  PassParams const* pass = nullptr;
  for (PassParams const& p : layout.passes) {
    if (is_row_pass(p, cols)) pass = &p;
  }
  ASSERT_NE(pass, nullptr);
  PassParams p = *pass;
  std::vector<float2> factors;
  if (hooked) {
    unsigned fseed = 0;
    for (cd const& v :
         tcfft::testing::random_complex(static_cast<std::size_t>(d.elements()), fseed)) {
      factors.push_back(float2{static_cast<float>(v.real()), static_cast<float>(v.imag())});
    }
    p.store_factors = factors.data();
    p.factor_mask = static_cast<std::uint32_t>(d.elements() - 1);
    p.conjugate_store = inverse ? 1 : 0;
  }
  ASSERT_TRUE(sp::eligible(p));
  ASSERT_TRUE(fftcore::detail::tc::same_places(p));
  // With the hook, output i times its factor (conjugated for the inverse, as the hook asks).
  expect_emulated_rows_give_the_dft(
      static_cast<std::size_t>(d.batch * d.elements()), cols, inverse, in_place,
      static_cast<double>(p.scale),
      [&](std::vector<cd> const& src, std::vector<cd>& dst, std::vector<int>& writes) {
        run_stockham(p, src, dst, writes, inverse);
      },
      [&](std::size_t i) {
        if (!hooked) return cd(1, 0);
        float2 const f = factors[i & p.factor_mask];
        return cd(f.x, inverse ? -f.y : f.y);
      });
}

TEST(TcStockhamPass, EmulatedPassesGiveTheDft) {
  for (int k = sp::kMinLogLength; k <= sp::kMaxLogLength; ++k) {
    std::int64_t const n = std::int64_t{1} << k;
    check(desc(1, n, 3), false, false);
    if (k >=
        13) {  // 32 values per thread, one sequence per tile (the direct DFT is O(n^2): few rows)
      check(desc(1, n, 2), true, true);
      check(desc(1, n, 1), false, true, true);
      continue;
    }
    check(desc(1, n, 37), true, true);  // several rounds per block, a partial last tile
    fftcore::PlanDesc by_n = desc(1, n, 5);
    by_n.scaling = fftcore::Scaling::kByN;
    check(by_n, false, true);
  }
  check(desc(1, 2048, 5), false, false, true);  // store hooks, conjugated for the inverse
  check(desc(1, 512, 9), true, true, true);
  check(desc(16, 512, 2), false, false);
  check(desc(4, 4096, 1), true, true);
}

}  // namespace
