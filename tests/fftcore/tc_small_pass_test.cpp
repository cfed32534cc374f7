// SPDX-License-Identifier: MIT
// CPU tests of the short pass (fftcore/src/tc/small_pass_layout.hpp, kernels/small_pass_kernel.cu):
// which passes of real plans it takes, that its threads cover every tile's sequences once, and -
// running the planner's passes on the CPU in double with the kernel's maps (thread -> sequence,
// 32-bit in-tile offsets, twiddles as W^tw(t0) step^j powers) - that they give the DFT.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/real_layout.hpp"
#include "../../fftcore/src/tc/small_pass_layout.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace small = fftcore::detail::tc::small;
using fftcore::detail::tc::Buffer;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using fftcore::detail::tc::PlanOptions;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::layout_of;
using tcfft::testing::plans::split;

TEST(TcSmallPass, TakesTheShortFp16PassesOfPlans) {
  // 1-D n = 2 .. 16: the one pass, contiguous sequences, any batch.
  for (int k = 1; k <= 4; ++k) {
    for (std::int64_t batch : {1, 3, 5, 4096}) {
      PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, batch));
      ASSERT_EQ(l.passes.size(), 1u);
      EXPECT_TRUE(small::eligible(l.passes[0])) << k << " " << batch;
      EXPECT_TRUE(small::contiguous(l.passes[0])) << k << " " << batch;
    }
  }
  EXPECT_FALSE(small::eligible(layout_of(desc(1, 32, 3)).passes[0]));
  // The strided first pass of 2^13 as 2 x 4096, 2^14 as 4 x 4096 and 2^15 as 8 x 4096 (the
  // planner's split for 2^15 with FP32 ends; plain 2^15 is one long pass): adjacent columns,
  // twiddled; the 4096-point pass is not the short kernel's.
  for (auto const& [k, parts] : std::vector<std::pair<int, std::vector<int>>>{
           {13, {1, 12}}, {14, {2, 12}}, {15, {3, 12}}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    PassLayout const l = layout_of(desc(1, std::int64_t{1} << k, 3), split(parts));
    ASSERT_EQ(l.passes.size(), 2u);
    EXPECT_EQ(l.passes[0].log_length, k - 12);
    EXPECT_TRUE(small::eligible(l.passes[0]));
    EXPECT_FALSE(small::contiguous(l.passes[0]));
    EXPECT_EQ(l.passes[0].in_stride[0], 1);
    EXPECT_GT(l.passes[0].log_twiddle_n, 0);
    EXPECT_FALSE(small::eligible(l.passes[1]));
  }
  // With FP32 between the passes the short first pass is the general kernel's again.
  PlanOptions fp32 = split({2, 12});
  fp32.fp32_intermediate = true;
  EXPECT_FALSE(small::eligible(layout_of(desc(1, 1 << 14, 1), fp32).passes[0]));
  // Small 2-D transforms keep their row results in FP32: no pass is the short kernel's.
  for (auto [r, c] :
       std::vector<std::pair<int, int>>{{8, 4}, {4, 8}, {2, 2}, {2, 1024}, {8, 512}}) {
    for (PassParams const& p : layout_of(desc(r, c, 5)).passes) {
      EXPECT_FALSE(small::eligible(p)) << r << " x " << c;
    }
  }
  // Larger 2-D: the 2..8-point axis (columns of stride cols, or contiguous rows).
  for (auto [r, c] :
       std::vector<std::pair<int, int>>{{8, 2048}, {2, 1 << 14}, {1 << 14, 2}, {1024, 8}}) {
    int short_passes = 0;
    for (PassParams const& p : layout_of(desc(r, c, 3)).passes) {
      EXPECT_EQ(small::eligible(p), p.log_length <= 3) << r << " x " << c;
      short_passes += small::eligible(p) ? 1 : 0;
    }
    // 2 x 16384: the 16384-point rows are one register-chained pass.
    EXPECT_EQ(short_passes, 1) << r << " x " << c;
  }
}

TEST(TcSmallPass, HooksAndUnsafeLayoutsStayOnTheGeneralKernel) {
  PassParams const base = layout_of(desc(1, 8, 5)).passes[0];
  ASSERT_TRUE(small::eligible(base));
  float2 const factor{1.f, 0.f};
  PassParams p = base;
  p.load_factors = &factor;
  EXPECT_FALSE(small::eligible(p)) << "load hook";
  p = base;
  p.store_factors = &factor;
  EXPECT_FALSE(small::eligible(p)) << "store hook";
  p = base;
  p.out_fp32 = 1;
  EXPECT_FALSE(small::eligible(p)) << "FP32 out";
  p = base;
  p.in_fp32 = 1;
  EXPECT_FALSE(small::eligible(p)) << "FP32 in";
  // A pass that reads and writes one buffer in different places (not a planner layout) would
  // let a thread overwrite another's unread input; scattering passes never run in place.
  p = base;
  p.out_elem_stride = 2;
  EXPECT_FALSE(small::eligible(p)) << "in place, different places";
  p.scatter = 1;
  EXPECT_TRUE(small::eligible(p)) << "scattering pass (src != dst)";
}

TEST(TcSmallPass, RealTransformsUseItForTheirFp16Passes) {
  // R2C of 2^14 points unfused: an 8192-point complex row FFT, 2 x 4096 (FP16 from the input
  // to the row workspace, the short kernel's); its last pass writes FP32 Z. (Fused, the default,
  // it is one register-chained pass with the split in its store.)
  fftcore::PlanDesc d = desc(1, 1 << 14, 3);
  d.kind = fftcore::Transform::kR2C;
  fftcore::detail::tc::RealLayout real;
  ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, real), fftcore::Status::kSuccess);
  ASSERT_EQ(real.row.passes.size(), 1u);
  EXPECT_TRUE(real.fused);
  EXPECT_EQ(real.row.passes[0].real_out, 1);
  ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, real, /*fuse=*/false),
            fftcore::Status::kSuccess);
  EXPECT_FALSE(real.fused);
  ASSERT_EQ(real.row.passes.size(), 2u);
  EXPECT_TRUE(small::eligible(real.row.passes[0]));
  EXPECT_FALSE(small::eligible(real.row.passes[1]));
  // R2C 8 x 1024: the 8-point column pass is FP16 with the row pairs (from the input into Y, the
  // short kernel's), and reads the FP32 half spectrum Y without fusion.
  d = desc(8, 1024, 3);
  d.kind = fftcore::Transform::kR2C;
  ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, real), fftcore::Status::kSuccess);
  ASSERT_EQ(real.column.passes.size(), 1u);
  EXPECT_TRUE(small::eligible(real.column.passes[0]));
  ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, real, /*fuse=*/false),
            fftcore::Status::kSuccess);
  ASSERT_EQ(real.column.passes.size(), 1u);
  EXPECT_FALSE(small::eligible(real.column.passes[0]));
}

TEST(TcSmallPass, ThreadsTakeEveryTileSequenceOnce) {
  for (int log_l = small::kMinLogLength; log_l <= small::kMaxLogLength; ++log_l) {
    int const round = 1 << small::log_round_sequences(log_l);
    for (int log_t = 0; log_l + log_t <= fftcore::detail::tc::kLogMaxBlockElements; ++log_t) {
      int const t_count = 1 << log_t;
      int const log_threads = small::log_threads(log_t);
      int const threads = 1 << log_threads;
      ASSERT_LE(threads, 256);
      ASSERT_LE(threads, t_count);
      int const per_thread = t_count / threads;
      std::vector<int> seen(static_cast<std::size_t>(t_count), 0);
      for (int tid = 0; tid < threads; ++tid) {
        for (int j0 = 0; j0 < per_thread; j0 += round) {  // the kernel's rounds
          bool const whole = (j0 + round) << log_threads <= t_count;
          for (int j = 0; j < round; ++j) {
            int const t = small::tile_sequence(tid, j0 + j, log_threads);
            ASSERT_GE(t, 0);
            if (t < t_count) {
              ++seen[static_cast<std::size_t>(t)];
            } else {
              ASSERT_FALSE(whole) << "a whole round has no padding";
            }
          }
        }
      }
      for (int t = 0; t < t_count; ++t) {
        ASSERT_EQ(seen[static_cast<std::size_t>(t)], 1)
            << "L = 2^" << log_l << " T = 2^" << log_t << " t = " << t;
      }
    }
  }
}

/// The warp staging of packed passes (L = 8, 16): which passes take it, that the slots are a
/// permutation of the warp's buffer, and that both access patterns (lane c: part c mod (L/4)
/// of sequence c / (L/4); lane s: part p of sequence s) hit eight distinct 16-byte bank groups
/// in every quarter warp (128-bit shared accesses run in four phases of eight lanes).
TEST(TcSmallPass, PackedStagingIsAPermutationWithoutBankConflicts) {
  for (int k = 1; k <= 4; ++k) {
    for (std::int64_t batch : {5, 4096}) {
      PassParams const p = layout_of(desc(1, std::int64_t{1} << k, batch)).passes[0];
      EXPECT_EQ(small::packed(p), k >= 3) << k << " " << batch;
    }
  }
  int packed_rows = 0;  // 1024 x 8: the 8-point rows
  for (PassParams const& p : layout_of(desc(1024, 8, 3)).passes) {
    packed_rows += small::packed(p) ? 1 : 0;
    EXPECT_EQ(small::packed(p), p.log_length == 3 && p.in_elem_stride == 1) << p.log_length;
  }
  EXPECT_EQ(packed_rows, 1);
  for (PassParams const& p : layout_of(desc(1, 1 << 14, 3), split({2, 12})).passes) {
    EXPECT_FALSE(small::packed(p)) << "strided first pass";
  }
  for (int log_l = 3; log_l <= 4; ++log_l) {
    int const parts = 1 << (log_l - 2);
    std::vector<int> seen(static_cast<std::size_t>(32 * parts), 0);
    for (int s = 0; s < 32; ++s) {
      for (int part = 0; part < parts; ++part) {
        int const slot = small::packed_slot(s, part, log_l);
        ASSERT_GE(slot, 0);
        ASSERT_LT(slot, 32 * parts);
        ++seen[static_cast<std::size_t>(slot)];
      }
    }
    for (int v : seen) ASSERT_EQ(v, 1) << "L = 2^" << log_l;
    for (int step = 0; step < parts; ++step) {  // linear: step q, or own sequence: part q
      for (int phase = 0; phase < 4; ++phase) {
        std::vector<int> linear_groups, own_groups;
        for (int lane = 8 * phase; lane < 8 * phase + 8; ++lane) {
          int const c = 32 * step + lane;
          linear_groups.push_back(small::packed_slot(c / parts, c % parts, log_l) % 8);
          own_groups.push_back(small::packed_slot(lane, step, log_l) % 8);
        }
        std::sort(linear_groups.begin(), linear_groups.end());
        std::sort(own_groups.begin(), own_groups.end());
        for (int g = 0; g < 8; ++g) {
          EXPECT_EQ(linear_groups[static_cast<std::size_t>(g)], g)
              << "linear, L = 2^" << log_l << " step " << step << " phase " << phase;
          EXPECT_EQ(own_groups[static_cast<std::size_t>(g)], g)
              << "own, L = 2^" << log_l << " part " << step << " phase " << phase;
        }
      }
    }
  }
}

/// The kernel's twiddles: W^(tw k) as (W^tw)^k, and W^tw(t) for the t of one thread as
/// W^tw(t0) times powers of W^(stride0 threads): both rest on the exponent being linear mod
/// 2^28 in k and in tw.
TEST(TcSmallPass, TwiddleExponentsAreLinear) {
  using fftcore::detail::tc::pass_twiddle_exponent32;
  constexpr std::uint32_t kMask = (1u << fftcore::detail::tc::kLogTwiddleBase) - 1u;
  std::uint64_t state = 0x243f6a8885a308d3ull;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 32);
  };
  for (int log_n = 0; log_n <= fftcore::detail::tc::kLogTwiddleBase; ++log_n) {
    for (int i = 0; i < 2000; ++i) {
      std::uint32_t const tw = next(), s = next() >> (i % 32);
      std::uint32_t const e1 = pass_twiddle_exponent32(tw, 1u, log_n);
      for (std::uint32_t k = 0; k < 8; ++k) {
        ASSERT_EQ(pass_twiddle_exponent32(tw, k, log_n), (k * e1) & kMask) << tw << " " << k;
      }
      for (std::uint32_t j = 0; j < 32; ++j) {
        ASSERT_EQ(pass_twiddle_exponent32(tw + j * s, 1u, log_n),
                  (e1 + j * pass_twiddle_exponent32(s, 1u, log_n)) & kMask)
            << tw << " " << s << " " << j;
      }
    }
  }
  EXPECT_EQ(pass_twiddle_exponent32(12345u, 1u, 0), 0u) << "untwiddled passes look up W^0 = 1";
}

/// The emulations' double reference (tests/common/reference_dft.hpp).
void fft(std::vector<cd>& a) { tcfft::testing::fft_radix2(a); }

cd w28(std::uint32_t e) { return tcfft::testing::root_of_unity(e, 268435456.0, false); }

/// One pass as the short kernel runs it: blocks, threads, rounds, sequences t of
/// tile_sequence, 32-bit unsigned offsets, twiddles W^tw(t0) step^j raised to k.
void run_small(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst) {
  using fftcore::detail::tc::pass_twiddle_exponent32;
  int const l = 1 << p.log_length;
  int const log_threads = small::log_threads(p.log_tile);
  int const round = 1 << small::log_round_sequences(p.log_length);
  int const per_thread = 1 << (p.log_tile - log_threads);
  auto const s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const se = static_cast<std::uint32_t>(p.in_elem_stride);
  auto const o0 = static_cast<std::uint32_t>(p.out_stride[0]);
  auto const oe = static_cast<std::uint32_t>(p.out_elem_stride);
  auto const ts0 = static_cast<std::uint32_t>(p.twiddle_stride[0]);
  cd const step = w28(pass_twiddle_exponent32(ts0 << log_threads, 1u, p.log_twiddle_n));
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    auto const o = fftcore::detail::tc::block_origin(p, b);
    auto const valid_t =
        static_cast<int>(std::min<std::int64_t>(p.extent[0] - o.d0, std::int64_t{1} << p.log_tile));
    for (int tid = 0; tid < (1 << log_threads); ++tid) {
      for (int j0 = 0; j0 < per_thread; j0 += round) {
        auto const t0 = static_cast<std::uint32_t>(small::tile_sequence(tid, j0, log_threads));
        cd w1 = w28(pass_twiddle_exponent32(static_cast<std::uint32_t>(o.twiddle_base) + t0 * ts0,
                                            1u, p.log_twiddle_n));
        for (int j = 0; j < round; ++j) {
          int const t = small::tile_sequence(tid, j0 + j, log_threads);
          if (j > 0) w1 *= step;
          if (t >= valid_t) continue;
          std::vector<cd> seq(static_cast<std::size_t>(l));
          for (int n = 0; n < l; ++n) {
            std::uint32_t const at =
                static_cast<std::uint32_t>(t) * s0 + static_cast<std::uint32_t>(n) * se;
            seq[static_cast<std::size_t>(n)] = src.at(static_cast<std::size_t>(o.in_base + at));
          }
          fft(seq);
          cd f = static_cast<double>(p.scale);  // scale w1^k
          for (int k = 0; k < l; ++k, f *= w1) {
            std::uint32_t const at =
                static_cast<std::uint32_t>(t) * o0 + static_cast<std::uint32_t>(k) * oe;
            dst.at(static_cast<std::size_t>(o.out_base + at)) =
                seq[static_cast<std::size_t>(k)] * f;
          }
        }
      }
    }
  }
}

/// Any other pass, straight from the PassParams definition.
void run_plain(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst) {
  int const l = 1 << p.log_length;
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    auto const o = fftcore::detail::tc::block_origin(p, b);
    for (std::int64_t t = 0; t < (std::int64_t{1} << p.log_tile) && o.d0 + t < p.extent[0]; ++t) {
      std::vector<cd> seq(static_cast<std::size_t>(l));
      for (int n = 0; n < l; ++n) {
        seq[static_cast<std::size_t>(n)] =
            src.at(static_cast<std::size_t>(o.in_base + t * p.in_stride[0] + n * p.in_elem_stride));
      }
      fft(seq);
      for (int k = 0; k < l; ++k) {
        cd v = seq[static_cast<std::size_t>(k)] * static_cast<double>(p.scale);
        if (p.log_twiddle_n > 0) {
          v *= w28(fftcore::detail::tc::pass_twiddle_exponent(
              o.twiddle_base + t * p.twiddle_stride[0], k, p.log_twiddle_n));
        }
        dst.at(static_cast<std::size_t>(o.out_base + t * p.out_stride[0] + k * p.out_elem_stride)) =
            v;
      }
    }
  }
}

/// Runs the layout (buffers as the plan assigns them) and checks it against a double DFT.
void check(fftcore::PlanDesc const& d, PlanOptions const& options, bool in_place) {
  PassLayout const layout = layout_of(d, options);
  int short_passes = 0;
  unsigned seed = 0;
  auto const x =
      tcfft::testing::random_complex(static_cast<std::size_t>(d.batch * d.elements()), seed);
  std::vector<cd> in = x, out(x.size(), cd(std::nan(""), 0)), ws(x.size(), cd(std::nan(""), 0));
  for (PassParams const& p : layout.passes) {
    std::vector<cd>& src = p.src == Buffer::kIn    ? (in_place ? out : in)
                           : p.src == Buffer::kOut ? out
                                                   : ws;
    std::vector<cd>& dst = p.dst == Buffer::kWorkspace ? ws : out;
    if (in_place && p.src == Buffer::kIn) out = in;
    if (small::eligible(p)) {
      ++short_passes;
      // In place the kernel reads each sequence before writing it; emulate that literally.
      if (&src == &dst) {
        run_small(p, dst, dst);
      } else {
        run_small(p, src, dst);
      }
    } else {
      std::vector<cd> const copy = src;  // the general kernels read a tile before writing it
      run_plain(p, copy, dst);
    }
  }
  EXPECT_GE(short_passes, 1);
  // Reference: rows, then columns for 2-D.
  std::int64_t const rows = d.rank == 2 ? d.dims[0] : 1, cols = d.rank == 2 ? d.dims[1] : d.dims[0];
  std::vector<cd> ref = x;
  for (std::int64_t r = 0; r < d.batch * rows; ++r) {
    std::vector<cd> row(ref.begin() + r * cols, ref.begin() + (r + 1) * cols);
    fft(row);
    std::copy(row.begin(), row.end(), ref.begin() + r * cols);
  }
  for (std::int64_t b = 0; rows > 1 && b < d.batch; ++b) {
    for (std::int64_t c = 0; c < cols; ++c) {
      std::vector<cd> col(static_cast<std::size_t>(rows));
      for (std::int64_t r = 0; r < rows; ++r) col[r] = ref[(b * rows + r) * cols + c];
      fft(col);
      for (std::int64_t r = 0; r < rows; ++r) ref[(b * rows + r) * cols + c] = col[r];
    }
  }
  EXPECT_LT(tcfft::testing::relative_l2_error(out, ref), 1e-12) << "seed " << seed;
}

TEST(TcSmallPass, EmulatedShortPassesGiveTheDft) {
  for (bool in_place : {false, true}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    for (int k = 1; k <= 4; ++k) check(desc(1, std::int64_t{1} << k, 5), {}, in_place);  // T > 5
    check(desc(1, 16, 1027), {}, in_place);                  // 16 points: a partial last tile
    check(desc(1, 1 << 16, 2), split({4, 12}), in_place);    // a strided 16-point first pass
    check(desc(16, 512, 3), {}, in_place);                   // 16-point column pass
    check(desc(1, 8, 4099), {}, in_place);  // a partial last tile after full ones
    check(desc(1, 1 << 13, 3), split({1, 12}), in_place);
    check(desc(1, 1 << 14, 32), split({2, 12}), in_place);  // T = 512: 2 of a round of 8
    check(desc(1, 1 << 11, 3), split({3, 8}), in_place);    // T = 64: 1 of a round of 4
    check(desc(8, 2048, 1), {}, in_place);
    check(desc(1024, 8, 3), {}, in_place);
    check(desc(2, 1 << 12, 3), {}, in_place);
  }
}

/// Small batches shrink the tiles towards one sequence per thread (256 blocks at least); the
/// planner's full tiles of 2^13 elements take one whole round per thread (no padding, several
/// twiddle steps), which needs 2^21 elements. Out of place only (a few seconds unoptimised).
TEST(TcSmallPass, EmulatedWholeRoundsGiveTheDft) {
  EXPECT_EQ(layout_of(desc(1, 1 << 13, 256), split({1, 12})).passes[0].log_tile, 12);
  EXPECT_EQ(layout_of(desc(1, 1 << 15, 64), split({3, 12})).passes[0].log_tile, 10);
  EXPECT_EQ(layout_of(desc(1, 1 << 14, 32), split({2, 12})).passes[0].log_tile, 9);
  check(desc(1, 1 << 13, 256), split({1, 12}), false);  // T = 4096: 16 sequences per thread
  check(desc(1, 1 << 15, 64), split({3, 12}), false);  // T = 1024: 4 sequences per thread
}

}  // namespace
