// SPDX-License-Identifier: MIT
// CPU tests of the warp pass (fftcore/src/tc/warp_pass_layout.hpp, kernels/warp_pass_kernel.cu):
// which passes of real plans it takes, that a block's rounds, groups and slots take every tile
// sequence once, that the warp's shared-memory exchange is free of bank conflicts, and -
// running the planner's passes on the CPU in double with the kernel's data flow (step 1's
// R1-point DFTs and scale W_L^(p k1) factors, the exchange slots, step 2's P-point DFTs, 32-bit
// in-tile offsets) - that they give the DFT.
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
#include "../../fftcore/src/tc/warp_pass_layout.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace wp = fftcore::detail::tc::warp_pass;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using fftcore::detail::tc::PlanOptions;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::expect_emulated_rows_give_the_dft;
using tcfft::testing::plans::float2_wavefronts;
using tcfft::testing::plans::layout_of;
using tcfft::testing::plans::log2_of;
using tcfft::testing::plans::small_dft;
using tcfft::testing::plans::split;

/// The 1-D batches and the 2-D shapes (rows of 32..256 points) of these tests.
constexpr std::int64_t kBatches[] = {1, 3, 5, 4099, 65536};
std::vector<std::pair<std::int64_t, std::int64_t>> const kShapes2d = {
    {512, 64}, {2048, 128}, {1024, 32}, {256, 256}, {512, 256}};

bool is_row_pass(PassParams const& p, std::int64_t cols) {
  return p.in_elem_stride == 1 && p.log_length == log2_of(cols);
}

TEST(TcWarpPass, TakesTheUntwiddledContiguousPassesOf32To256Points) {
  // 1-D n = 32 .. 256: the one pass, contiguous sequences, any batch.
  for (int k = wp::kMinLogLength; k <= wp::kMaxLogLength; ++k) {
    for (std::int64_t batch : kBatches) {
      SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
      PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, batch));
      ASSERT_EQ(l.passes.size(), 1u);
      EXPECT_EQ(l.passes[0].log_length, k);
      EXPECT_TRUE(wp::eligible(l.passes[0]));
      EXPECT_TRUE(wp::aligned_outputs(l.passes[0]));
    }
  }
  // 16 and 512 points: outside 32..256.
  for (int k : {4, 9}) {
    for (std::int64_t batch : {1, 5, 4099}) {
      PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, batch));
      ASSERT_EQ(l.passes.size(), 1u) << k << " " << batch;
      EXPECT_FALSE(wp::eligible(l.passes[0])) << "n = 2^" << k << " batch " << batch;
    }
  }
  // 2-D with rows of 32..256 points: the row pass, not the column pass (256 x 256: strided
  // and untwiddled, so not the 256-point row pass's kernel).
  for (auto [r, c] : kShapes2d) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    PassLayout const l = layout_of(desc(r, c, 3));
    ASSERT_GE(l.passes.size(), 2u);
    int rows = 0, taken = 0;
    for (PassParams const& p : l.passes) {
      bool const row = is_row_pass(p, c);
      rows += row ? 1 : 0;
      taken += wp::eligible(p) ? 1 : 0;
      EXPECT_EQ(wp::eligible(p), row)
          << "log_length " << p.log_length << " in_elem_stride " << p.in_elem_stride;
    }
    EXPECT_EQ(rows, 1);
    EXPECT_EQ(taken, 1);
  }
  // A 32..128-point first pass of a longer 1-D transform: strided and twiddled.
  for (auto const& parts : std::vector<std::vector<int>>{{5, 12}, {7, 10}}) {
    SCOPED_TRACE("n = 2^17 as " + std::to_string(parts[0]) + " + " + std::to_string(parts[1]));
    PassLayout const l = layout_of(desc(1, 1 << 17, 3), split(parts));
    ASSERT_EQ(l.passes.size(), 2u);
    EXPECT_EQ(l.passes[0].log_length, parts[0]);
    EXPECT_GT(l.passes[0].log_twiddle_n, 0);
    EXPECT_FALSE(wp::eligible(l.passes[0]));
    EXPECT_FALSE(wp::eligible(l.passes[1]));
  }
  // A 32..128-point last pass: untwiddled, contiguous in, but writing its outputs transposed.
  for (auto const& parts : std::vector<std::vector<int>>{{12, 5}, {10, 7}}) {
    SCOPED_TRACE("n = 2^17 as " + std::to_string(parts[0]) + " + " + std::to_string(parts[1]));
    PassLayout const l = layout_of(desc(1, 1 << 17, 3), split(parts));
    ASSERT_EQ(l.passes.size(), 2u);
    PassParams const& last = l.passes[1];
    EXPECT_EQ(last.log_length, parts[1]);
    EXPECT_EQ(last.log_twiddle_n, 0);
    EXPECT_EQ(last.in_elem_stride, 1);
    EXPECT_NE(last.out_elem_stride, 1);
    EXPECT_FALSE(wp::eligible(last));
  }
}

TEST(TcWarpPass, HooksAndUnsafeLayoutsStayOnTheGeneralKernel) {
  PassParams const base = layout_of(desc(1, 64, 5)).passes[0];
  ASSERT_TRUE(wp::eligible(base));
  float2 const factor{1.f, 0.f};
  PassParams p = base;
  p.load_factors = &factor;
  EXPECT_FALSE(wp::eligible(p)) << "load hook";
  p = base;
  p.store_factors = &factor;
  EXPECT_FALSE(wp::eligible(p)) << "store hook";
  p = base;
  p.conjugate_store = 1;
  EXPECT_FALSE(wp::eligible(p)) << "conjugated store";
  p = base;
  p.out_fp32 = 1;
  EXPECT_FALSE(wp::eligible(p)) << "FP32 out";
  p = base;
  p.in_fp32 = 1;
  EXPECT_FALSE(wp::eligible(p)) << "FP32 in";
  p = base;
  p.real_in = 1;
  EXPECT_FALSE(wp::eligible(p)) << "C2R split in the load";
  p = base;
  p.real_out = 1;
  EXPECT_FALSE(wp::eligible(p)) << "R2C split in the store";
  p = base;
  p.log_twiddle_n = 12;
  EXPECT_FALSE(wp::eligible(p)) << "pass twiddle";
  p = base;
  p.in_elem_stride = 2;
  p.scatter = 1;
  EXPECT_FALSE(wp::eligible(p)) << "strided sequences";
  // Tiles below one warp's 32 x 16 values would leave groups short of their P lanes.
  p = base;
  p.log_tile = 9 - p.log_length;
  EXPECT_TRUE(wp::eligible(p)) << "one-warp tile";
  p.log_tile -= 1;
  EXPECT_FALSE(wp::eligible(p)) << "tile of half a warp";
  p = base;
  p.out_elem_stride = 2;
  EXPECT_FALSE(wp::eligible(p)) << "strided outputs, in place";
  p.scatter = 1;
  EXPECT_FALSE(wp::eligible(p)) << "strided outputs, scattering";
  // In place with different places (not a planner layout) would let a group overwrite another
  // group's unread input; scattering passes never run in place.
  p = base;
  p.out_stride[0] = 2 * base.out_stride[0];
  EXPECT_FALSE(wp::eligible(p)) << "in place, different places";
  p.scatter = 1;
  EXPECT_TRUE(wp::eligible(p)) << "scattering pass (src != dst)";
}

/// The eligible passes of the plans of TakesTheUntwiddledContiguousPassesOf32To256Points.
std::vector<PassParams> planned_warp_passes() {
  std::vector<PassParams> passes;
  auto take = [&passes](PassLayout const& l) {
    for (PassParams const& p : l.passes) {
      if (wp::eligible(p)) passes.push_back(p);
    }
  };
  for (int k = wp::kMinLogLength; k <= wp::kMaxLogLength; ++k) {
    for (std::int64_t batch : kBatches) take(layout_of(desc(1, std::int64_t{1} << k, batch)));
  }
  for (auto [r, c] : kShapes2d) take(layout_of(desc(r, c, 3)));
  return passes;
}

/// Rounds x groups x group slots of a block take each of the tile's T sequences once, round r
/// exactly the sequences [r R, (r + 1) R) (R = groups S: the kernel's whole-round test), with
/// 16 values per thread and 1..8 whole warps of groups of P lanes.
void check_rounds(int log_tile, int log_l) {
  SCOPED_TRACE("L = 2^" + std::to_string(log_l) + " T = 2^" + std::to_string(log_tile));
  int const t_count = 1 << log_tile;
  int const log_threads = wp::log_threads(log_tile, log_l);
  ASSERT_GE(log_threads, 5);
  ASSERT_LE(log_threads, 8);
  int const threads = 1 << log_threads;
  int const rounds = 1 << wp::log_rounds(log_tile, log_l);
  int const groups = threads >> wp::log_lanes(log_l);
  int const s_count = 1 << wp::log_group_sequences(log_l);
  ASSERT_EQ(s_count << log_l, 16 << wp::log_lanes(log_l)) << "S L = P x 16 values";
  ASSERT_GE(threads, 32);
  ASSERT_LE(threads, 256);
  ASSERT_EQ(threads % 32, 0);
  ASSERT_EQ(static_cast<std::int64_t>(threads) * 16 * rounds, static_cast<std::int64_t>(t_count)
                                                                  << log_l);
  int const round_sequences = groups * s_count;
  std::vector<int> seen(static_cast<std::size_t>(t_count), 0);
  for (int r = 0; r < rounds; ++r) {
    for (int group = 0; group < groups; ++group) {
      for (int s = 0; s < s_count; ++s) {
        int const t = wp::tile_sequence(r, group, s, log_threads, log_l);
        ASSERT_GE(t, r * round_sequences) << r << " " << group << " " << s;
        ASSERT_LT(t, (r + 1) * round_sequences) << r << " " << group << " " << s;
        ASSERT_LT(t, t_count);
        ++seen[static_cast<std::size_t>(t)];
      }
    }
  }
  for (int t = 0; t < t_count; ++t) ASSERT_EQ(seen[static_cast<std::size_t>(t)], 1) << "t = " << t;
}

TEST(TcWarpPass, RoundsCoverEveryTileSequenceOnce) {
  std::vector<PassParams> const planned = planned_warp_passes();
  ASSERT_FALSE(planned.empty());
  for (PassParams const& p : planned) check_rounds(p.log_tile, p.log_length);
  for (int log_l = wp::kMinLogLength; log_l <= wp::kMaxLogLength; ++log_l) {
    for (int log_tile = fftcore::detail::tc::kLogMinBlockElements - log_l;
         log_tile + log_l <= fftcore::detail::tc::kLogMaxBlockElements; ++log_tile) {
      check_rounds(log_tile, log_l);
    }
  }
}

void check_exchange(int log_l) {
  SCOPED_TRACE("L = 2^" + std::to_string(log_l));
  int const log_p = wp::log_lanes(log_l);
  int const lanes = 1 << log_p;
  int const columns = 1 << wp::log_columns(log_l);
  ASSERT_EQ(lanes * columns, 16);
  std::vector<int> owner(static_cast<std::size_t>(wp::kWarpSlots), -1);
  for (int g = 0; g < 32 / lanes; ++g) {
    for (int d = 0; d < 16; ++d) {
      for (int p = 0; p < lanes; ++p) {
        int const slot = wp::exchange_slot(g, d, p, log_l);
        ASSERT_GE(slot, 0);
        ASSERT_LT(slot, wp::kWarpSlots) << g << " " << d << " " << p;
        int const id = (g * 16 + d) * lanes + p;
        ASSERT_EQ(owner[static_cast<std::size_t>(slot)], -1)
            << "slot " << slot << " of " << id << " and " << owner[static_cast<std::size_t>(slot)];
        owner[static_cast<std::size_t>(slot)] = id;
      }
    }
  }
  std::vector<int> slots(32);
  // Step 1: column d fixed per instruction, lane p of group g writes (g, d, p).
  for (int d = 0; d < 16; ++d) {
    for (int lane = 0; lane < 32; ++lane) {
      slots[static_cast<std::size_t>(lane)] =
          wp::exchange_slot(lane >> log_p, d, lane & (lanes - 1), log_l);
    }
    EXPECT_EQ(float2_wavefronts(slots), 2) << "step 1 writes, d = " << d;
  }
  // Step 2: row q fixed per instruction, lane p of group g reads column C p + e.
  for (int e = 0; e < columns; ++e) {
    for (int q = 0; q < lanes; ++q) {
      for (int lane = 0; lane < 32; ++lane) {
        slots[static_cast<std::size_t>(lane)] =
            wp::exchange_slot(lane >> log_p, columns * (lane & (lanes - 1)) + e, q, log_l);
      }
      EXPECT_EQ(float2_wavefronts(slots), 2) << "step 2 reads, e = " << e << " q = " << q;
    }
  }
}

TEST(TcWarpPass, ExchangeIsBankConflictFree) {
  for (int log_l = wp::kMinLogLength; log_l <= wp::kMaxLogLength; ++log_l) {
    check_exchange(log_l);
  }
}

/// One pass as the warp-pass kernel runs it, forward: blocks, rounds (whole ones without the
/// bounds test, as the kernel takes them), warps of 32 / P groups of P lanes; step 1 (loads of
/// x[P n1 + p] at 32-bit in-tile offsets, the R1-point DFT, scale W_L^(p k1), the exchange
/// slots), then step 2 (columns C q + e, e < C, the P-point DFTs, stores of
/// X[k1 + e + R1 k2]). `writes` counts the stores to each element of dst. src may be dst (in
/// place): a warp's groups read their sequences in step 1 before they write them in step 2.
void run_warp(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst,
              std::vector<int>& writes) {
  int const log_l = p.log_length;
  int const l = 1 << log_l;
  int const log_r1 = wp::log_r1(log_l);
  int const r1 = 1 << log_r1;
  int const s_count = 1 << wp::log_group_sequences(log_l);
  int const log_threads = wp::log_threads(p.log_tile, log_l);
  int const warps = (1 << log_threads) / 32;
  int const rounds = 1 << wp::log_rounds(p.log_tile, log_l);
  int const log_p = wp::log_lanes(log_l);
  int const lanes = 1 << log_p;
  int const log_c = wp::log_columns(log_l);
  int const columns = 1 << log_c;
  int const round_sequences = 1 << (log_threads - log_p + wp::log_group_sequences(log_l));
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  double const scale = static_cast<double>(p.scale);
  cd const nan(std::numeric_limits<double>::quiet_NaN(), 0);
  std::vector<cd> xs;
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    auto const o = fftcore::detail::tc::block_origin(p, b);
    auto const valid_t =
        static_cast<int>(std::min<std::int64_t>(p.extent[0] - o.d0, std::int64_t{1} << p.log_tile));
    for (int r = 0; r < rounds; ++r) {
      bool const whole = (r + 1) * round_sequences <= valid_t;
      for (int w = 0; w < warps; ++w) {
        xs.assign(static_cast<std::size_t>(wp::kWarpSlots), nan);  // stale slots would show
        for (int lane = 0; lane < 32; ++lane) {                    // step 1
          int const tid = 32 * w + lane;
          int const group = tid >> log_p, g = group & (32 / lanes - 1), pl = tid & (lanes - 1);
          for (int s = 0; s < s_count; ++s) {
            int const t = wp::tile_sequence(r, group, s, log_threads, log_l);
            bool const ok = whole || t < valid_t;
            std::uint32_t const at =
                static_cast<std::uint32_t>(t) * in_s0 + static_cast<std::uint32_t>(pl);
            std::array<cd, 16> a{};
            for (int n1 = 0; ok && n1 < r1; ++n1) {
              a[static_cast<std::size_t>(n1)] =
                  src.at(static_cast<std::size_t>(o.in_base + (at + (n1 << log_p))));
            }
            std::array<cd, 16> const y = small_dft(a, r1);
            for (int k1 = 0; k1 < r1; ++k1) {
              xs.at(static_cast<std::size_t>(wp::exchange_slot(g, s * r1 + k1, pl, log_l))) =
                  y[static_cast<std::size_t>(k1)] * scale *
                  tcfft::testing::root_of_unity(pl * k1, l, false);
            }
          }
        }
        for (int lane = 0; lane < 32; ++lane) {  // step 2
          int const tid = 32 * w + lane;
          int const group = tid >> log_p, g = group & (32 / lanes - 1), q = tid & (lanes - 1);
          int const s2 = (q << log_c) >> log_r1;
          int const k1 = (q << log_c) & (r1 - 1);
          std::array<cd, 16> x[4];
          for (int e = 0; e < columns; ++e) {
            std::array<cd, 16> c{};
            for (int pp = 0; pp < lanes; ++pp) {
              c[static_cast<std::size_t>(pp)] = xs.at(
                  static_cast<std::size_t>(wp::exchange_slot(g, (q << log_c) + e, pp, log_l)));
            }
            x[e] = small_dft(c, lanes);
          }
          int const t = wp::tile_sequence(r, group, s2, log_threads, log_l);
          if (!whole && t >= valid_t) continue;
          std::uint32_t const at =
              static_cast<std::uint32_t>(t) * out_s0 + static_cast<std::uint32_t>(k1);
          for (int k2 = 0; k2 < lanes; ++k2) {
            for (int e = 0; e < columns; ++e) {
              auto const k = static_cast<std::size_t>(
                  o.out_base + (at + static_cast<std::uint32_t>(k2 << log_r1) + e));
              dst.at(k) = x[e][static_cast<std::size_t>(k2)];
              ++writes.at(k);
            }
          }
        }
      }
    }
  }
}

/// Runs the warp pass of `d` (the one pass of a 1-D plan, the row pass of a 2-D plan) on random
/// data, forward or inverse (conj(forward(conj x)), the kernel's), in or out of place, and
/// checks every row of L points against a direct long-double DFT, scaled by the pass's scale.
/// log_tile > 0 (1-D only) retiles the planner's pass to 2^log_tile sequences per block, for
/// blocks of several rounds without 2^21-element inputs.
void check(fftcore::PlanDesc const& d, bool inverse, bool in_place, int log_tile = 0) {
  std::int64_t const cols = d.rank == 2 ? d.dims[1] : d.dims[0];
  SCOPED_TRACE((d.rank == 2 ? std::to_string(d.dims[0]) + " x " : std::string()) +
               std::to_string(cols) + " batch " + std::to_string(d.batch) +
               (inverse ? " inverse" : " forward") + (in_place ? " in place" : " out of place") +
               (d.scaling == fftcore::Scaling::kByN ? " 1/N" : "") +
               (log_tile > 0 ? " T = 2^" + std::to_string(log_tile) : std::string()));
  PassLayout const layout = layout_of(d);
  PassParams const* pass = nullptr;
  for (PassParams const& p : layout.passes) {
    if (is_row_pass(p, cols)) pass = &p;
  }
  ASSERT_NE(pass, nullptr);
  PassParams p = *pass;
  ASSERT_TRUE(wp::eligible(p));
  // The row pass keeps each row in its place, so the check below reads the rows off dst.
  ASSERT_TRUE(fftcore::detail::tc::same_places(p));
  ASSERT_EQ(p.in_stride[0], cols);
  if (d.rank == 1) {
    double const expect =
        d.scaling == fftcore::Scaling::kByN ? 1.0 / static_cast<double>(cols) : 1.0;
    ASSERT_EQ(static_cast<double>(p.scale), expect);
  }
  if (log_tile > 0) {
    ASSERT_EQ(d.rank, 1);
    ASSERT_EQ(p.extent[0], d.batch);
    ASSERT_EQ(p.blocks, p.tiles0);
    p.log_tile = log_tile;
    p.tiles0 = p.blocks = (d.batch + (std::int64_t{1} << log_tile) - 1) >> log_tile;
    fftcore::detail::tc::set_origin_shortcuts(p);
  }
  expect_emulated_rows_give_the_dft(
      static_cast<std::size_t>(d.batch * d.elements()), cols, inverse, in_place,
      static_cast<double>(p.scale),
      [&p](std::vector<cd> const& src, std::vector<cd>& dst, std::vector<int>& writes) {
        run_warp(p, src, dst, writes);
      });
}

TEST(TcWarpPass, EmulatedPassesGiveTheDft) {
  fftcore::PlanDesc by_n;
  for (int k = wp::kMinLogLength; k <= wp::kMaxLogLength; ++k) {
    std::int64_t const n = std::int64_t{1} << k;
    check(desc(1, n, 3), false, false);     // one partial tile
    check(desc(1, n, 4099), false, false);  // whole tiles, then a partial one
    by_n = desc(1, n, 4099);
    by_n.scaling = fftcore::Scaling::kByN;
    check(by_n, false, true);
    check(desc(1, n, 5), true, false);
    // Blocks of 2 and 4 rounds (the planner's tiles for 2^21 elements and more): whole rounds,
    // then in the last tile (1027 = 4 x 256 + 3 sequences for L = 32, 2 rounds) a partial
    // round and empty ones.
    by_n.batch = 1027;
    check(desc(1, n, 1027), false, false, 13 - k);
    check(by_n, true, true, 14 - k);
  }
  // The planner's own two-round blocks (256 threads, T = 256), and 256-point tiles.
  check(desc(1, 32, 65536), false, true);
  check(desc(1, 256, 4096), true, false);
  by_n = desc(1, 128, 3);
  by_n.scaling = fftcore::Scaling::kByN;
  check(by_n, true, true);
  // The row pass of a 2-D transform (small 2-D transforms keep their rows in FP32).
  check(desc(512, 32, 2), false, false);
  check(desc(512, 64, 1), true, true);
  check(desc(128, 128, 3), false, true);
  check(desc(256, 256, 1), true, true);
}

}  // namespace
