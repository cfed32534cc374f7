// SPDX-License-Identifier: MIT
// CPU tests of the group pass (fftcore/src/tc/group_pass_layout.hpp,
// kernels/group_pass_kernel.cu): which passes of plans it takes, that a block's rounds and groups
// take every tile sequence once, that its exchange slots are distinct and each step's accesses
// free of bank conflicts, and - running the planner's passes on the CPU in double with the
// kernel's data flow (step 1's 16-point DFTs and scale W_L^(m k1) factors, step 2's in-place
// 16-point DFTs and W_M^(m3 k2) factors, step 3's R3-point DFTs and C-word output runs, the
// exchange slots, 32-bit in-tile offsets) - that they give the DFT.
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

#include "../../fftcore/src/tc/group_pass_layout.hpp"
#include "../../fftcore/src/tc/plan_logic.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace gp = fftcore::detail::tc::group_pass;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::expect_emulated_rows_give_the_dft;
using tcfft::testing::plans::float2_wavefronts;
using tcfft::testing::plans::layout_of;
using tcfft::testing::plans::log2_of;
using tcfft::testing::plans::small_dft;

constexpr std::int64_t kBatches[] = {1, 3, 5, 1027, 4099};
std::vector<std::pair<std::int64_t, std::int64_t>> const kShapes2d = {
    {512, 512}, {256, 1024}, {64, 2048}, {32, 4096}};

bool is_row_pass(PassParams const& p, std::int64_t cols) {
  return p.in_elem_stride == 1 && p.log_length == log2_of(cols);
}

TEST(TcGroupPass, TakesTheUntwiddledContiguousPassesOf512To4096Points) {
  for (int k = gp::kMinLogLength; k <= gp::kMaxLogLength; ++k) {
    for (std::int64_t batch : kBatches) {
      SCOPED_TRACE("n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
      PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, batch));
      ASSERT_EQ(l.passes.size(), 1u);
      EXPECT_TRUE(gp::eligible(l.passes[0]));
      EXPECT_TRUE(gp::aligned_outputs(l.passes[0]));
    }
  }
  for (int k : {8, 13}) {  // outside 512..4096
    PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, 5));
    for (PassParams const& p : l.passes) EXPECT_FALSE(gp::eligible(p)) << "n = 2^" << k;
  }
  for (auto [r, c] : kShapes2d) {  // the row pass only
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    PassLayout const l = layout_of(desc(r, c, 3));
    int taken = 0;
    for (PassParams const& p : l.passes) {
      taken += gp::eligible(p) ? 1 : 0;
      EXPECT_EQ(gp::eligible(p), is_row_pass(p, c)) << "log_length " << p.log_length;
    }
    EXPECT_EQ(taken, 1);
  }
}

TEST(TcGroupPass, HooksTwiddlesAndUnsafeLayoutsStayElsewhere) {
  PassParams const base = layout_of(desc(1, 1024, 5)).passes[0];
  ASSERT_TRUE(gp::eligible(base));
  float2 const factor{1.f, 0.f};
  PassParams p = base;
  p.load_factors = &factor;
  EXPECT_FALSE(gp::eligible(p)) << "load hook";
  p = base;
  p.store_factors = &factor;
  EXPECT_FALSE(gp::eligible(p)) << "store hook";
  p = base;
  p.conjugate_store = 1;
  EXPECT_FALSE(gp::eligible(p)) << "conjugated store";
  p = base;
  p.in_fp32 = 1;
  EXPECT_FALSE(gp::eligible(p)) << "FP32 in";
  p = base;
  p.out_fp32 = 1;
  EXPECT_FALSE(gp::eligible(p)) << "FP32 out";
  p = base;
  p.real_out = 1;
  EXPECT_FALSE(gp::eligible(p)) << "R2C split";
  p = base;
  p.real_row_pairs = 1;
  EXPECT_FALSE(gp::eligible(p)) << "row pairs";
  p = base;
  p.log_twiddle_n = 14;
  EXPECT_FALSE(gp::eligible(p)) << "pass twiddle";
  p = base;
  p.in_elem_stride = 2;
  p.scatter = 1;
  EXPECT_FALSE(gp::eligible(p)) << "strided sequences";
  p = base;
  p.out_stride[0] = 2 * base.out_stride[0];
  EXPECT_FALSE(gp::eligible(p)) << "in place, different places";
  p.scatter = 1;
  EXPECT_TRUE(gp::eligible(p)) << "scattering pass (src != dst)";
  p = base;
  p.out_stride[0] = base.out_stride[0] + 1;
  p.scatter = 1;
  EXPECT_FALSE(gp::aligned_outputs(p)) << "odd output stride: word stores";
}

char const* form_name(gp::Form form) {
  return form == gp::Form::kWide ? " wide form" : form == gp::Form::kDoubled ? " doubled form" : "";
}

/// Rounds x groups of a block take each of the tile's T sequences once, a group one a round.
void check_rounds(int log_tile, int log_l, gp::Form form) {
  SCOPED_TRACE("L = 2^" + std::to_string(log_l) + " T = 2^" + std::to_string(log_tile) +
               form_name(form));
  int const log_threads = gp::log_threads(log_tile, log_l, form);
  ASSERT_GE(log_threads, gp::log_group_lanes(log_l, form));
  ASSERT_LE(log_threads, gp::kLogMaxThreads);
  int const groups = 1 << (log_threads - gp::log_group_lanes(log_l, form));
  int const rounds = 1 << gp::log_rounds(log_tile, log_l, form);
  ASSERT_EQ(std::int64_t{groups} * rounds, std::int64_t{1} << log_tile);
  std::vector<int> seen(std::size_t{1} << log_tile, 0);
  for (int r = 0; r < rounds; ++r) {
    for (int g = 0; g < groups; ++g) {
      int const t = gp::tile_sequence(r, g, log_threads, log_l, form);
      ASSERT_GE(t, r * groups);  // later rounds, later sequences: the kernel's early exit
      ASSERT_LT(t, (r + 1) * groups);
      ++seen[static_cast<std::size_t>(t)];
    }
  }
  for (int s : seen) ASSERT_EQ(s, 1);
}

TEST(TcGroupPass, RoundsCoverEveryTileSequenceOnce) {
  for (int log_l = gp::kMinLogLength; log_l <= gp::kMaxLogLength; ++log_l) {
    for (gp::Form form : {gp::Form::kSixteen, gp::Form::kDoubled}) {
      if (form == gp::Form::kDoubled && log_l < gp::kMinDoubledLogLength) continue;
      for (std::int64_t batch : kBatches) {
        check_rounds(layout_of(desc(1, std::int64_t{1} << log_l, batch)).passes[0].log_tile, log_l,
                     form);
      }
      for (int log_tile = 0; log_tile + log_l <= 12 + gp::kMaxLogTileFactor; ++log_tile)
        check_rounds(log_tile, log_l, form);
    }
  }
}

/// The launch's tile factor: the form's default where the batch is large (2^28 elements, the
/// benchmark's), lowered for small batches to the largest factor that keeps kMinRoundBlocks
/// blocks (or none), by retiled's block count.
TEST(TcGroupPass, TilesGrowOnlyWhereTheBatchKeepsItsBlocks) {
  for (gp::Form form : {gp::Form::kSixteen, gp::Form::kWide, gp::Form::kDoubled}) {
    int const wanted = gp::default_log_tile_factor(form);
    for (int log_l = gp::kMinLogLength; log_l <= gp::kMaxLogLength; ++log_l) {
      for (std::int64_t rows : {std::int64_t{1}, std::int64_t{1} << log_l}) {
        for (std::int64_t batch : {std::int64_t{1}, std::int64_t{4}, std::int64_t{1027},
                                   (std::int64_t{1} << 28) / (rows << log_l)}) {
          SCOPED_TRACE(std::to_string(rows) + " x 2^" + std::to_string(log_l) + " batch " +
                       std::to_string(batch) + form_name(form));
          PassParams p{};
          bool found = false;
          for (PassParams const& q :
               layout_of(desc(rows, std::int64_t{1} << log_l, batch)).passes) {
            if (is_row_pass(q, std::int64_t{1} << log_l)) p = q, found = true;
          }
          ASSERT_TRUE(found);
          int const f = gp::fitted_tile_factor(p, wanted);
          ASSERT_GE(f, 0);
          ASSERT_LE(f, wanted);
          for (int g = 0; g <= wanted; ++g) {
            std::int64_t const blocks = fftcore::detail::tc::retiled(p, p.log_tile + g).blocks;
            if (g <= f) {
              EXPECT_TRUE(g == 0 || blocks >= gp::kMinRoundBlocks) << "factor " << g;
            } else {
              EXPECT_LT(blocks, gp::kMinRoundBlocks) << "factor " << g << " was left out";
            }
          }
          if (rows * batch << log_l == std::int64_t{1} << 28) {
            EXPECT_EQ(f, wanted);
          }
        }
      }
    }
  }
  // One 1024 x 1024 image: 1024 rows of 1024 in planner tiles of 4, 256 blocks; no larger tile.
  PassParams const* row = nullptr;
  PassLayout const one = layout_of(desc(1024, 1024, 1));
  for (PassParams const& q : one.passes) {
    if (is_row_pass(q, 1024)) row = &q;
  }
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(gp::fitted_tile_factor(*row, 3), 0);
}

/// The slots of (k1, m2, m3) are distinct and inside the group's area; step 1's writes (k1 and
/// the lane's column q fixed, lane l on column m = (16 / R1) l + q = m3 + R3 m2; two columns a
/// lane in the doubled form), step 2's reads and writes (m2 fixed, lane = m3 + R3 k1; the
/// doubled form's lanes l and l + G) and step 3's reads (i and m3 fixed, b = C step3_order(l) +
/// i: k1 = b mod R1, m2 = b / R1; the doubled form's shares as in step 2) take two wavefronts
/// per warp, one per half-warp (float2 accesses). The wide form's step 3 at 1024 points takes
/// four (no stride setting makes all three steps conflict-free there), and its step3_order
/// permutes each warp's lanes, so the warp's stores cover its runs. A changed stride or lane
/// order fails here.
void check_exchange(int log_l, gp::Form form) {
  SCOPED_TRACE("L = 2^" + std::to_string(log_l) + form_name(form));
  int const lr1 = gp::log_first_radix(form);
  int const r1 = 1 << lr1;
  int const columns = 1 << gp::log_step1_columns(form);
  int const shares = 1 << gp::log_shares(form);
  int const lr = gp::log_last_radix(log_l, form);
  int const r3 = 1 << lr;
  int const c = 16 / r3;
  int const lanes = 1 << gp::log_group_lanes(log_l, form);
  int const area = gp::group_slots(log_l, form);
  std::vector<int> owner(static_cast<std::size_t>(area), 0);
  for (int k1 = 0; k1 < r1; ++k1) {
    for (int m2 = 0; m2 < 16; ++m2) {
      for (int m3 = 0; m3 < r3; ++m3) {
        int const s = gp::slot(k1, m2, m3, log_l, form);
        ASSERT_GE(s, 0);
        ASSERT_LT(s, area);
        ASSERT_EQ(++owner[static_cast<std::size_t>(s)], 1) << k1 << " " << m2 << " " << m3;
      }
    }
  }
  if (form == gp::Form::kSixteen) {
    EXPECT_LT(area, 16 * (16 << lr) * 3 / 2 + 16) << "about 1.07-1.51 L";
  } else {
    EXPECT_LE(area, gp::group_slots(log_l)) << "no larger than the 16-point form's";
  }
  if (form == gp::Form::kDoubled && log_l == 10) {
    // Three blocks of 256 threads (eight groups) and their 1 KiB reserve fit an SM's 228 KiB.
    EXPECT_LE(3 * (8 * area * 8 + 1024), 228 * 1024) << area << " slots";
  }
  int const step3_fronts = form == gp::Form::kWide && log_l == 10 ? 4 : 2;
  std::vector<int> slots(32);
  std::vector<int> orders;
  for (int w = 0; w < lanes / 32; ++w) {
    for (int q = 0; q < columns; ++q) {
      for (int k1 = 0; k1 < r1; ++k1) {
        for (int i = 0; i < 32; ++i) {
          int const col = columns * (32 * w + i) + q;
          slots[static_cast<std::size_t>(i)] = gp::slot(k1, col >> lr, col & (r3 - 1), log_l, form);
        }
        EXPECT_EQ(float2_wavefronts(slots), 2)
            << "step 1, warp " << w << " q " << q << " k1 " << k1;
      }
    }
    for (int j = 0; j < shares; ++j) {
      for (int m2 = 0; m2 < 16; ++m2) {
        for (int i = 0; i < 32; ++i) {
          int const lane = 32 * w + i + j * lanes;
          slots[static_cast<std::size_t>(i)] = gp::slot(
              gp::step2_k1(lane, log_l, form), m2, gp::step2_m3(lane, log_l, form), log_l, form);
        }
        EXPECT_EQ(float2_wavefronts(slots), 2)
            << "step 2, warp " << w << " share " << j << " m2 " << m2;
      }
      for (int i3 = 0; i3 < c; ++i3) {
        for (int m3 = 0; m3 < r3; ++m3) {
          for (int i = 0; i < 32; ++i) {
            int const b = gp::step3_butterfly(32 * w + i + j * lanes, i3, log_l, form);
            slots[static_cast<std::size_t>(i)] = gp::slot(b & (r1 - 1), b >> lr1, m3, log_l, form);
          }
          EXPECT_EQ(float2_wavefronts(slots), step3_fronts)
              << "step 3, warp " << w << " share " << j << " i " << i3;
        }
      }
    }
    if (form == gp::Form::kWide) {
      orders.clear();
      for (int i = 0; i < 32; ++i) orders.push_back(gp::step3_order(32 * w + i, log_l, form));
      std::sort(orders.begin(), orders.end());
      for (int i = 0; i < 32; ++i) EXPECT_EQ(orders[static_cast<std::size_t>(i)], 32 * w + i);
    }
  }
}

TEST(TcGroupPass, ExchangeSlotsAreDistinctAndBankConflictFree) {
  for (int log_l = gp::kMinLogLength; log_l <= gp::kMaxLogLength; ++log_l) {
    check_exchange(log_l, gp::Form::kSixteen);
  }
}

/// One pass as the group-pass kernel runs it, forward, group by group: step 1 (loads of x[m +
/// M n1] at 32-bit in-tile offsets, the R1-point DFT over n1 of each of the lane's 16 / R1
/// columns m, scale W_L^(m k1), slots), step 2 (the 16-point DFT over m2 of slots (k1, m2, m3),
/// W_M^(m3 k2), back into the slots it read), step 3 (butterflies b = C step3_order(l) + i, the
/// R3-point DFTs, stores of X[b + 16 R1 k3]); R1 = 16, or 8 in the wide form; in the doubled
/// form each lane takes lanes l and l + G of steps 2 and 3 at the kernel's offsets from its
/// first. `writes` counts the stores to each element of dst. src may be dst: a group reads its
/// sequence before it writes.
void run_group(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst,
               std::vector<int>& writes, gp::Form form) {
  int const log_l = p.log_length;
  int const l = 1 << log_l;
  int const lr1 = gp::log_first_radix(form);
  int const r1 = 1 << lr1;
  int const lr = gp::log_last_radix(log_l, form);
  int const r3 = 1 << lr;
  int const c = 16 / r3;
  int const lanes = 1 << gp::log_group_lanes(log_l, form);
  int const m = l / r1;                                  // M = L / R1 columns
  int const columns = 1 << gp::log_step1_columns(form);  // a lane's step-1 columns
  int const shares = 1 << gp::log_shares(form);          // a lane's step-2 and -3 lanes
  int const log_threads = gp::log_threads(p.log_tile, log_l, form);
  int const groups = 1 << (log_threads - gp::log_group_lanes(log_l, form));
  int const rounds = 1 << gp::log_rounds(p.log_tile, log_l, form);
  int const s1 = gp::k1_stride(log_l, form), s2 = gp::m2_stride(log_l, form);
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  double const scale = static_cast<double>(p.scale);
  cd const nan(std::numeric_limits<double>::quiet_NaN(), 0);
  auto const slot = [&](int k1, int m2, int m3) {
    return static_cast<std::size_t>(gp::slot(k1, m2, m3, log_l, form));
  };
  std::vector<cd> xs;
  for (std::int64_t blk = 0; blk < p.blocks; ++blk) {
    auto const o = fftcore::detail::tc::block_origin(p, blk);
    auto const valid_t =
        static_cast<int>(std::min<std::int64_t>(p.extent[0] - o.d0, std::int64_t{1} << p.log_tile));
    for (int g = 0; g < groups; ++g) {
      for (int r = 0; r < rounds; ++r) {
        int const t = gp::tile_sequence(r, g, log_threads, log_l, form);
        if (t >= valid_t) break;
        xs.assign(static_cast<std::size_t>(gp::group_slots(log_l, form)), nan);
        for (int lane = 0; lane < lanes; ++lane) {  // step 1
          int const first = columns * lane;
          for (int q = 0; q < columns; ++q) {
            int const col = first + q;
            std::uint32_t const at =
                static_cast<std::uint32_t>(t) * in_s0 + static_cast<std::uint32_t>(col);
            std::array<cd, 16> a{};
            for (int n1 = 0; n1 < r1; ++n1) {
              a[static_cast<std::size_t>(n1)] = src.at(
                  static_cast<std::size_t>(o.in_base + (at + static_cast<std::uint32_t>(n1 * m))));
            }
            std::array<cd, 16> const y = small_dft(a, r1);
            for (int k1 = 0; k1 < r1; ++k1) {
              std::size_t const s = slot(k1, col >> lr, col & (r3 - 1));
              // The kernel's second column: its first's slot plus S3 (no carry into m2).
              ASSERT_EQ(s, slot(k1, first >> lr, first & (r3 - 1)) +
                               static_cast<std::size_t>(q * gp::m3_stride(log_l, form)));
              xs.at(s) = y[static_cast<std::size_t>(k1)] * scale *
                         tcfft::testing::root_of_unity(col * k1, l, false);
            }
          }
        }
        for (int v = 0; v < shares * lanes; ++v) {  // step 2, in place
          int const k1 = gp::step2_k1(v, log_l, form), m3 = gp::step2_m3(v, log_l, form);
          // The kernel's second share: its lane's first plus (G / R3) S1.
          int const lane = v % lanes, j = v / lanes;
          ASSERT_EQ(slot(k1, 0, m3),
                    slot(gp::step2_k1(lane, log_l, form), 0, gp::step2_m3(lane, log_l, form)) +
                        static_cast<std::size_t>(j * (lanes / r3) * s1));
          std::array<cd, 16> a{};
          for (int m2 = 0; m2 < 16; ++m2) a[static_cast<std::size_t>(m2)] = xs.at(slot(k1, m2, m3));
          std::array<cd, 16> const y = small_dft(a, 16);
          for (int k2 = 0; k2 < 16; ++k2) {
            xs.at(slot(k1, k2, m3)) =
                y[static_cast<std::size_t>(k2)] * tcfft::testing::root_of_unity(m3 * k2, m, false);
          }
        }
        for (int v = 0; v < shares * lanes; ++v) {  // step 3
          // The kernel's butterflies of share j: its lane's first b0 plus j C G, at slots (C G /
          // R1) S2 past them, stores C G words past them.
          int const lane = v % lanes, j = v / lanes;
          int const first = gp::step3_butterfly(lane, 0, log_l, form);
          int const b0 = first + j * c * lanes;
          ASSERT_EQ(gp::step3_butterfly(v, 0, log_l, form), b0);
          std::uint32_t const at =
              static_cast<std::uint32_t>(t) * out_s0 + static_cast<std::uint32_t>(b0);
          for (int i = 0; i < c; ++i) {
            int const b = gp::step3_butterfly(v, i, log_l, form);
            ASSERT_EQ(b, b0 + i);
            ASSERT_EQ(slot(b & (r1 - 1), b >> lr1, 0),
                      slot(first & (r1 - 1), first >> lr1, 0) +
                          static_cast<std::size_t>(j * (c * lanes / r1) * s2 + i * s1));
            std::array<cd, 16> a{};
            for (int m3 = 0; m3 < r3; ++m3) {
              a[static_cast<std::size_t>(m3)] = xs.at(slot(b & (r1 - 1), b >> lr1, m3));
            }
            std::array<cd, 16> const y = small_dft(a, r3);
            for (int k3 = 0; k3 < r3; ++k3) {
              auto const k = static_cast<std::size_t>(
                  o.out_base + (at + static_cast<std::uint32_t>(i + 16 * r1 * k3)));
              dst.at(k) = y[static_cast<std::size_t>(k3)];
              ++writes.at(k);
            }
          }
        }
      }
    }
  }
}

/// Runs the group pass of `d` (the one pass of a 1-D plan, the row pass of a 2-D plan) on random
/// data, forward or inverse (conj(forward(conj x)), the kernel's), in or out of place, and
/// checks every row against a direct long-double DFT scaled by the pass's scale. log_tile >= 0
/// (1-D only) retiles the pass to 2^log_tile sequences per block.
void check(fftcore::PlanDesc const& d, bool inverse, bool in_place, int log_tile = -1,
           gp::Form form = gp::Form::kSixteen) {
  std::int64_t const cols = d.rank == 2 ? d.dims[1] : d.dims[0];
  SCOPED_TRACE((d.rank == 2 ? std::to_string(d.dims[0]) + " x " : std::string()) +
               std::to_string(cols) + " batch " + std::to_string(d.batch) +
               (inverse ? " inverse" : " forward") + (in_place ? " in place" : " out of place") +
               (log_tile >= 0 ? " T = 2^" + std::to_string(log_tile) : std::string()) +
               form_name(form));
  PassLayout const layout = layout_of(d);
  PassParams const* pass = nullptr;
  for (PassParams const& p : layout.passes) {
    if (is_row_pass(p, cols)) pass = &p;
  }
  ASSERT_NE(pass, nullptr);
  PassParams p = *pass;
  ASSERT_TRUE(gp::eligible(p));
  ASSERT_TRUE(form != gp::Form::kWide || gp::wide_eligible(p));
  ASSERT_TRUE(form != gp::Form::kDoubled || gp::doubled_eligible(p));
  ASSERT_TRUE(fftcore::detail::tc::same_places(p));
  if (log_tile >= 0) {
    ASSERT_EQ(d.rank, 1);
    p.log_tile = log_tile;
    p.tiles0 = p.blocks = (d.batch + (std::int64_t{1} << log_tile) - 1) >> log_tile;
    fftcore::detail::tc::set_origin_shortcuts(p);
  }
  expect_emulated_rows_give_the_dft(
      static_cast<std::size_t>(d.batch * d.elements()), cols, inverse, in_place,
      static_cast<double>(p.scale),
      [&p, form](std::vector<cd> const& src, std::vector<cd>& dst, std::vector<int>& writes) {
        run_group(p, src, dst, writes, form);
      });
}

/// The emulated passes of `form` at 2^first..2^last points: forward out of place, inverse
/// scaled by 1/N in place, blocks of several rounds with a partial last tile (11 sequences in
/// tiles of 16384 / L: one block's groups), blocks of a single group; then the row passes of the
/// 2-D shapes rows x 2^first (forward, out of place) and 64 x 2048 (inverse, in place).
void check_every_length(gp::Form form, int first, int last, std::int64_t rows) {
  for (int k = first; k <= last; ++k) {
    std::int64_t const n = std::int64_t{1} << k;
    check(desc(1, n, 3), false, false, -1, form);
    fftcore::PlanDesc by_n = desc(1, n, 5);
    by_n.scaling = fftcore::Scaling::kByN;
    check(by_n, true, true, -1, form);
    check(desc(1, n, 11), false, true, 14 - k, form);
    check(desc(1, n, 3), true, false, 0, form);
  }
  check(desc(rows, std::int64_t{1} << first, 1), false, false, -1, form);
  check(desc(64, 2048, 1), true, true, -1, form);
}

TEST(TcGroupPass, EmulatedPassesGiveTheDft) {
  check_every_length(gp::Form::kSixteen, gp::kMinLogLength, gp::kMaxLogLength, 512);
}

TEST(TcGroupPass, EmulatedWidePassesGiveTheDft) {
  check_every_length(gp::Form::kWide, gp::kMinLogLength, gp::kMaxWideLogLength, 512);
}

TEST(TcGroupPass, WideExchangeSlotsAreDistinctWithTheirWavefronts) {
  for (int log_l = gp::kMinLogLength; log_l <= gp::kMaxWideLogLength; ++log_l) {
    check_exchange(log_l, gp::Form::kWide);
  }
}

TEST(TcGroupPass, WideFormTakesPassesWithEvenInputStrides) {
  for (int k = gp::kMinLogLength; k <= gp::kMaxLogLength; ++k) {
    PassParams const base = layout_of(desc(1, std::int64_t{1} << k, 5)).passes[0];
    EXPECT_EQ(gp::wide_eligible(base), k <= gp::kMaxWideLogLength) << "n = 2^" << k;
  }
  PassParams p = layout_of(desc(1, 1024, 5)).passes[0];
  p.in_stride[0] = 1025;
  p.scatter = 1;
  EXPECT_FALSE(gp::wide_eligible(p)) << "odd input stride: 8-byte loads misaligned";
}

TEST(TcGroupPass, EmulatedDoubledPassesGiveTheDft) {
  check_every_length(gp::Form::kDoubled, gp::kMinDoubledLogLength, gp::kMaxLogLength, 256);
}

TEST(TcGroupPass, DoubledExchangeSlotsAreDistinctAndBankConflictFree) {
  for (int log_l = gp::kMinDoubledLogLength; log_l <= gp::kMaxLogLength; ++log_l) {
    check_exchange(log_l, gp::Form::kDoubled);
  }
}

TEST(TcGroupPass, DoubledFormTakesPassesOf1024To4096WithEvenInputStrides) {
  for (int k = gp::kMinLogLength; k <= gp::kMaxLogLength; ++k) {
    PassParams const base = layout_of(desc(1, std::int64_t{1} << k, 5)).passes[0];
    EXPECT_EQ(gp::doubled_eligible(base), k >= gp::kMinDoubledLogLength) << "n = 2^" << k;
  }
  PassParams p = layout_of(desc(1, 2048, 5)).passes[0];
  p.in_stride[0] = 2049;
  p.scatter = 1;
  EXPECT_FALSE(gp::doubled_eligible(p)) << "odd input stride: 8-byte loads misaligned";
}

}  // namespace
