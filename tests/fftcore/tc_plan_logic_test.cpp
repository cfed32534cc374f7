// SPDX-License-Identifier: MIT
// CPU tests of the Tensor Core backend's planning: what it accepts, how transforms are split into
// passes and buffers, and - by running the passes' index maps on the CPU in double precision -
// that the layout computes the DFT in natural order for 1-D and 2-D, batched, in and out of
// place. The in-block Stockham merges and the MMA fragment bookkeeping are emulated too.
#include <fftcore/fftcore.hpp>

#include "../../fftcore/src/tc/fast_pass_layout.hpp"
#include "../../fftcore/src/tc/long_pass_layout.hpp"
#include "../../fftcore/src/tc/plan_logic.hpp"
#include "common/reference_dft.hpp"

#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <set>
#include <vector>

namespace {

using fftcore::detail::tc::Buffer;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using cd = std::complex<double>;

fftcore::PlanDesc desc_1d(std::int64_t n, std::int64_t batch) {
  fftcore::PlanDesc d;
  d.rank = 1;
  d.dims[0] = n;
  d.batch = batch;
  return d;
}

fftcore::PlanDesc desc_2d(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  fftcore::PlanDesc d;
  d.rank = 2;
  d.dims[0] = rows;
  d.dims[1] = cols;
  d.batch = batch;
  return d;
}

/// The emulations' double reference (tests/common/reference_dft.hpp).
void fft_double(std::vector<cd>& a) { tcfft::testing::fft_radix2(a); }

/// The kernel's in-tile offset: 32-bit int arithmetic (the tests below check it cannot overflow).
std::int64_t in_tile_offset(std::int64_t t, std::int64_t n, std::int64_t stride0,
                            std::int64_t elem_stride) {
  return static_cast<int>(t) * static_cast<int>(stride0) +
         static_cast<int>(n) * static_cast<int>(elem_stride);
}

/// Runs the layout's passes on the CPU with the same index maps as the kernel.
void emulate(PassLayout const& layout, std::vector<cd> const& in, std::vector<cd>& out) {
  std::vector<cd> ws(in.size(), cd(std::nan(""), 0));
  std::vector<cd> src_copy;
  for (PassParams const& p : layout.passes) {
    std::vector<cd> const& src = p.src == Buffer::kIn ? in : p.src == Buffer::kOut ? out : ws;
    std::vector<cd>& dst = p.dst == Buffer::kWorkspace ? ws : out;
    if (&src == &dst) {
      ASSERT_FALSE(p.scatter) << "a scattering pass must not run in place";
    }
    src_copy = src;  // blocks read everything before they write (per block in the kernel)
    std::int64_t const l = std::int64_t{1} << p.log_length;
    std::int64_t const t_count = std::int64_t{1} << p.log_tile;
    for (std::int64_t b = 0; b < p.blocks; ++b) {
      auto const o = fftcore::detail::tc::block_origin(p, b);
      for (std::int64_t t = 0; t < t_count && o.d0 + t < p.extent[0]; ++t) {
        std::vector<cd> seq(static_cast<std::size_t>(l));
        for (std::int64_t n = 0; n < l; ++n) {
          seq[static_cast<std::size_t>(n)] =
              src_copy.at(static_cast<std::size_t>(o.in_base + in_tile_offset(t, n, p.in_stride[0],
                                                                              p.in_elem_stride)));
        }
        fft_double(seq);
        for (std::int64_t k = 0; k < l; ++k) {
          cd v = seq[static_cast<std::size_t>(k)] * static_cast<double>(p.scale);
          if (p.log_twiddle_n > 0) {
            // the kernel's 32-bit form (operands mod 2^32)
            auto const e = fftcore::detail::tc::pass_twiddle_exponent32(
                static_cast<std::uint32_t>(o.twiddle_base) +
                    static_cast<std::uint32_t>(t) * static_cast<std::uint32_t>(p.twiddle_stride[0]),
                static_cast<std::uint32_t>(k), p.log_twiddle_n);
            v *= tcfft::testing::root_of_unity(static_cast<double>(e), std::ldexp(1.0, 28), false);
          }
          dst.at(static_cast<std::size_t>(
              o.out_base + in_tile_offset(t, k, p.out_stride[0], p.out_elem_stride))) = v;
        }
      }
    }
  }
}

/// Reference: batched 1-D or 2-D DFT via the double FFT.
std::vector<cd> reference(fftcore::PlanDesc const& d, std::vector<cd> x) {
  std::int64_t const rows = d.rank == 2 ? d.dims[0] : 1;
  std::int64_t const cols = d.rank == 2 ? d.dims[1] : d.dims[0];
  for (std::int64_t b = 0; b < d.batch * rows; ++b) {
    std::vector<cd> row(x.begin() + b * cols, x.begin() + (b + 1) * cols);
    fft_double(row);
    std::copy(row.begin(), row.end(), x.begin() + b * cols);
  }
  if (rows > 1) {
    for (std::int64_t b = 0; b < d.batch; ++b) {
      for (std::int64_t c = 0; c < cols; ++c) {
        std::vector<cd> col(static_cast<std::size_t>(rows));
        for (std::int64_t r = 0; r < rows; ++r) col[r] = x[(b * rows + r) * cols + c];
        fft_double(col);
        for (std::int64_t r = 0; r < rows; ++r) x[(b * rows + r) * cols + c] = col[r];
      }
    }
  }
  return x;
}

void check_emulated(fftcore::PlanDesc const& d, bool in_place,
                    fftcore::detail::tc::PlanOptions const& options = {}) {
  PassLayout layout;
  ASSERT_EQ(fftcore::detail::tc::build_layout(d, options, layout), fftcore::Status::kSuccess);
  unsigned seed = 0;
  auto x = tcfft::testing::random_complex(static_cast<std::size_t>(d.batch * d.elements()), seed);
  std::vector<cd> out(x.size(), cd(std::nan(""), 0));
  if (in_place) {
    out = x;
    emulate(layout, out, out);
  } else {
    emulate(layout, x, out);
  }
  double const err = tcfft::testing::relative_l2_error(out, reference(d, x));
  EXPECT_LT(err, 1e-12) << "seed " << seed << " passes " << layout.passes.size();
}

TEST(TcPlanLogic, AcceptsWhatTheIssueAsksFor) {
  using fftcore::Status;
  using fftcore::detail::tc::check_descriptor;
  for (int k = 1; k <= 27; ++k) {
    EXPECT_EQ(check_descriptor(desc_1d(std::int64_t{1} << k, 1)), Status::kSuccess) << k;
  }
  EXPECT_EQ(check_descriptor(desc_1d(1, 1)), Status::kUnsupportedSize);
  EXPECT_EQ(check_descriptor(desc_1d(std::int64_t{1} << 28, 1)), Status::kUnsupportedSize);
  EXPECT_EQ(check_descriptor(desc_1d(96, 1)), Status::kUnsupportedSize);
  auto single = desc_1d(1024, 1);
  single.precision = fftcore::Precision::kSingle;
  EXPECT_EQ(check_descriptor(single), Status::kUnsupportedSize);
  EXPECT_EQ(check_descriptor(desc_2d(2, 1 << 14, 3)), Status::kSuccess);
  EXPECT_EQ(check_descriptor(desc_2d(1 << 14, 1 << 13, 1)), Status::kSuccess);
  EXPECT_EQ(check_descriptor(desc_2d(1 << 14, 1 << 14, 1)), Status::kUnsupportedSize);
  EXPECT_EQ(check_descriptor(desc_2d(1 << 15, 2, 1)), Status::kUnsupportedSize);
  EXPECT_EQ(check_descriptor(desc_2d(1, 16, 1)), Status::kUnsupportedSize);
}

TEST(TcPlanLogic, PassesFactoriseEverySize) {
  for (int k = 1; k <= 27; ++k) {
    for (std::int64_t batch : {1, 3}) {
      PassLayout layout;
      ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(std::int64_t{1} << k, batch), {},
                                                  layout),
                fftcore::Status::kSuccess);
      int log_total = 0;
      for (auto const& p : layout.passes) {
        int log_stages = 0;
        for (int s = 0; s < p.stage_count; ++s) log_stages += p.log_radix[s];
        EXPECT_EQ(log_stages, p.log_length);
        log_total += p.log_length;
        if (p.log_length >= fftcore::detail::tc::long_pass::kLogLength) {
          // 2^15 (and 2^16, large batches only) as one pass on the long pass, one sequence per
          // tile (its own block shape).
          EXPECT_EQ(k, p.log_length);
          EXPECT_EQ(p.log_tile, 0);
          EXPECT_TRUE(fftcore::detail::tc::long_pass::eligible(p));
          continue;
        }
        EXPECT_LE(p.log_length + p.log_tile, 14);
        EXPECT_GE(p.threads, 32);
        EXPECT_LE(p.threads, 1024);
        EXPECT_EQ(p.threads * 16, 1 << (p.log_length + p.log_tile));
        if (p.stage_count > 1) {
          EXPECT_EQ(p.log_radix[0], 4);
        }
      }
      EXPECT_EQ(log_total, k);
      // One pass up to 2^14 (the register-chained pass up to 16384 points), two up to 2^22,
      // then three; 2^21 and 2^22 take three (a 128-point column pass first) where the batch
      // fills its tiles, >= 2^20 elements (faster: plan_logic.cpp, split_length).
      bool const column_first = k >= 21 && (std::int64_t{1} << k) * batch >= (1 << 20);
      EXPECT_LE(layout.passes.size(), k <= 14 ? 1u : k <= 22 && !column_first ? 2u : 3u) << k;
      EXPECT_EQ(layout.passes.front().src, Buffer::kIn);
      EXPECT_EQ(layout.passes.back().dst, Buffer::kOut);
      std::size_t const ws = layout.passes.size() > 1 ? 4u * (std::size_t{1} << k) * batch : 0u;
      EXPECT_EQ(layout.workspace_bytes, ws) << k;
    }
  }
}

TEST(TcPlanLogic, StridedPassesReadWholeSegments) {
  PassLayout layout;
  ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(1 << 27, 1), {}, layout),
            fftcore::Status::kSuccess);
  for (auto const& p : layout.passes) {
    bool const contiguous_in = p.in_elem_stride == 1 || p.in_stride[0] == 1;
    bool const contiguous_out = p.out_elem_stride == 1 || p.out_stride[0] == 1;
    EXPECT_TRUE(contiguous_in && contiguous_out);
    if (p.in_elem_stride != 1 || p.out_elem_stride != 1) {
      EXPECT_GE(p.log_tile, 3);
    }
  }
}

TEST(TcPlanLogic, EmulatedPassesGiveTheDft1d) {
  for (int k : {1, 2, 3, 4, 5, 8, 11, 14, 15, 16, 18}) {
    for (std::int64_t batch : {1, 3}) {
      SCOPED_TRACE("n = 2^" + std::to_string(k) + ", batch " + std::to_string(batch));
      check_emulated(desc_1d(std::int64_t{1} << k, batch), false);
      check_emulated(desc_1d(std::int64_t{1} << k, batch), true);
    }
  }
}

TEST(TcPlanLogic, EmulatedPassesGiveTheDftThreePasses) {
  // 2^23 is the smallest three-pass size; emulate it once (a few seconds).
  check_emulated(desc_1d(std::int64_t{1} << 23, 1), true);
}

/// Fast-DRAM devices' splits (PlanOptions::fast_dram, the H200): 1-D only, from 2^24 elements,
/// with the tall pass's two-pass plans on, at the sizes measured faster (NOTES.md, session 40);
/// the plans give the DFT (emulated at 2^19 x 32 and 2^20 x 16).
TEST(TcPlanLogic, FastDramSplitsWhereMeasuredAndTheyGiveTheDft) {
  using fftcore::detail::tc::fast_dram_split;
  std::int64_t const big = std::int64_t{1} << 28;
  std::vector<std::pair<int, std::vector<int>>> const table = {
      {19, {7, 12}},     {20, {12, 8}},     {22, {11, 11}},
      {25, {12, 4, 9}}, {26, {12, 3, 11}}, {27, {5, 11, 11}}};
  for (auto const& [k, want] : table) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    EXPECT_EQ(fast_dram_split(k, 1, big, false, true, true), want);
    EXPECT_EQ(fast_dram_split(k, 1, std::int64_t{1} << 24, false, true, true), want);
    EXPECT_TRUE(fast_dram_split(k, 1, (std::int64_t{1} << 24) - 1, false, true, true).empty());
    EXPECT_TRUE(fast_dram_split(k, 2, big, false, true, true).empty());  // 2-D axes keep theirs
    EXPECT_TRUE(fast_dram_split(k, 1, big, true, true, true).empty());   // FP32 ends (real Z)
    EXPECT_TRUE(fast_dram_split(k, 1, big, false, false, true).empty());  // tall pass off
    EXPECT_TRUE(fast_dram_split(k, 1, big, false, true, false).empty());  // rows form off
    fftcore::detail::tc::PlanOptions options;
    options.tall_two_pass = options.tall_rows = options.fast_dram = true;
    PassLayout layout;
    ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(std::int64_t{1} << k, big >> k), options,
                                                layout),
              fftcore::Status::kSuccess);
    ASSERT_EQ(layout.passes.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(layout.passes[i].log_length, want[i]);
    options.fast_dram = false;  // split_length's otherwise
    ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(std::int64_t{1} << k, big >> k), options,
                                                layout),
              fftcore::Status::kSuccess);
    std::vector<int> lengths;
    for (auto const& p : layout.passes) lengths.push_back(p.log_length);
    EXPECT_NE(lengths, want);
  }
  for (int k : {17, 18, 21, 23, 24}) {
    EXPECT_TRUE(fast_dram_split(k, 1, big, false, true, true).empty()) << k;
  }
  fftcore::detail::tc::PlanOptions options;
  options.tall_two_pass = options.tall_rows = options.fast_dram = true;
  for (auto const& [k, batch] : std::vector<std::pair<int, std::int64_t>>{{19, 32}, {20, 16}}) {
    SCOPED_TRACE("emulated n = 2^" + std::to_string(k) + " batch " + std::to_string(batch));
    check_emulated(desc_1d(std::int64_t{1} << k, batch), k == 20, options);
  }
}

TEST(TcPlanLogic, SplitOverrideIsParsedStrictly) {
  using fftcore::detail::tc::split_override;
  EXPECT_EQ(split_override("8,12"), (std::vector<int>{8, 12}));
  EXPECT_EQ(split_override("11,12"), (std::vector<int>{11, 12}));
  EXPECT_EQ(split_override("3,4,5"), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(split_override("14"), (std::vector<int>{14}));
  EXPECT_EQ(split_override("15"), (std::vector<int>{15}));  // the long pass, alone only
  EXPECT_EQ(split_override("16"), (std::vector<int>{16}));  // its split, alone only
  for (char const* bad : {"", "8,", ",8", "8,,12", "a", "8;12", "0,12", "17", "15,2", "2,15",
                          "16,1", "1,16", "1,2,3,4", "8 12"}) {
    EXPECT_TRUE(split_override(bad).empty()) << '"' << bad << '"';
  }
  EXPECT_TRUE(split_override(nullptr).empty());
}

TEST(TcPlanLogic, OverriddenSplitsGiveTheDft) {
  // Splits that FFTCORE_TC_SPLIT may ask for: uneven, a short pass first or last, three parts.
  for (auto const& [k, split] : std::vector<std::pair<int, std::vector<int>>>{
           {12, {4, 8}}, {13, {1, 12}}, {14, {2, 12}}, {15, {3, 12}}, {15, {7, 8}},
           {16, {12, 4}}, {11, {3, 4, 4}}, {17, {8, 9}}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    fftcore::detail::tc::PlanOptions options;
    options.split = split;
    PassLayout layout;
    ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(std::int64_t{1} << k, 1), options, layout),
              fftcore::Status::kSuccess);
    ASSERT_EQ(layout.passes.size(), split.size());
    for (std::size_t i = 0; i < split.size(); ++i) EXPECT_EQ(layout.passes[i].log_length, split[i]);
    check_emulated(desc_1d(std::int64_t{1} << k, 3), false, options);
    check_emulated(desc_1d(std::int64_t{1} << k, 1), true, options);
  }
  // 2-D: the split applies to each axis whose log2 matches (here the 2^12 columns of 2^12 x 8).
  fftcore::detail::tc::PlanOptions options;
  options.split = {12};
  check_emulated(desc_2d(1 << 12, 8, 2), false, options);
}

/// block_origin's shortcuts (shifts by the planner's log2 digits, 32-bit offsets) give the same
/// origins as its general path (divisions, 64-bit offsets) for every pass of a range of plans,
/// and the 32-bit flag is off where offsets pass 2^31; where the planner marks a pass's
/// origins linear, block b's are b times the steps, over whole tiles.
TEST(TcPlanLogic, BlockOriginShortcutsEqualTheGeneralPath) {
  namespace tc = fftcore::detail::tc;
  std::vector<fftcore::PlanDesc> descs;
  for (int k : {1, 3, 8, 12, 13, 14, 15, 16, 20, 22, 23, 27}) {
    for (std::int64_t batch : {1, 3, 16}) descs.push_back(desc_1d(std::int64_t{1} << k, batch));
  }
  for (auto [r, c] : std::vector<std::pair<int, int>>{{16, 16}, {512, 256}, {4096, 4096},
                                                      {2, 1 << 14}, {1 << 14, 8}, {64, 2048}}) {
    descs.push_back(desc_2d(r, c, 3));
  }
  int shortcut_passes = 0, offsets32_passes = 0, linear_passes = 0, nonlinear_passes = 0;
  for (fftcore::PlanDesc const& d : descs) {
    PassLayout layout;
    ASSERT_EQ(tc::build_layout(d, {}, layout), fftcore::Status::kSuccess);
    for (PassParams const& p : layout.passes) {
      PassParams general = p;
      general.log_tiles0 = -1;
      general.offsets32 = 0;
      shortcut_passes += p.log_tiles0 >= 0 ? 1 : 0;
      offsets32_passes += p.offsets32;
      linear_passes += p.linear_blocks;
      nonlinear_passes += 1 - p.linear_blocks;
      std::int64_t const step = std::max<std::int64_t>(1, p.blocks / 997);
      for (std::int64_t b = 0; b < p.blocks; b += step) {
        for (std::int64_t bb : {b, p.blocks - 1 - b}) {
          tc::BlockOrigin const x = tc::block_origin(p, bb);
          tc::BlockOrigin const y = tc::block_origin(general, bb);
          ASSERT_EQ(x.d0, y.d0) << bb;
          ASSERT_EQ(x.in_base, y.in_base) << bb;
          ASSERT_EQ(x.out_base, y.out_base) << bb;
          ASSERT_EQ(x.twiddle_base, y.twiddle_base) << bb;
          if (p.linear_blocks != 0) {  // the Stockham pass's one product per tile
            ASSERT_EQ(x.in_base, bb * p.block_in_step) << bb;
            ASSERT_EQ(x.out_base, bb * p.block_out_step) << bb;
            ASSERT_EQ(x.d0 + (std::int64_t{1} << p.log_tile) <= p.extent[0], true) << bb;
          }
        }
      }
    }
  }
  EXPECT_GT(shortcut_passes, 20);
  EXPECT_GT(offsets32_passes, 20);
  EXPECT_GT(linear_passes, 10);
  EXPECT_GT(nonlinear_passes, 10);
  // The Stockham pass's shapes: a batch of contiguous sequences, the rows of a 2-D batch.
  for (fftcore::PlanDesc const& d :
       {desc_1d(4096, 65536), desc_1d(8192, 3), desc_2d(512, 512, 3)}) {
    PassLayout layout;
    ASSERT_EQ(tc::build_layout(d, {}, layout), fftcore::Status::kSuccess);
    int rows = 0;
    for (PassParams const& p : layout.passes) {
      if (p.in_elem_stride == 1 && p.out_elem_stride == 1) {
        ++rows;
        EXPECT_EQ(p.linear_blocks, 1) << p.log_length;
      }
    }
    EXPECT_EQ(rows, 1);
  }
  // 2^27 x 32 spans 2^32 elements: its sequences' origins do not fit in 31 bits (2^27 x 16 is
  // the largest batch whose origins do).
  PassLayout big;
  ASSERT_EQ(tc::build_layout(desc_1d(std::int64_t{1} << 27, 32), {}, big),
            fftcore::Status::kSuccess);
  for (PassParams const& p : big.passes) EXPECT_EQ(p.offsets32, 0);
}

TEST(TcPlanLogic, StridedTileCapGivesSmallerTilesAndTheDft) {
  // FFTCORE_TC_STRIDED_TILE (PlanOptions::strided_max_log_tile): strided register-chained passes
  // take at most 2^t sequences per tile, below the whole 32-byte segments; contiguous ones keep
  // theirs.
  for (int t : {0, 1, 2}) {
    fftcore::detail::tc::PlanOptions options;
    options.strided_max_log_tile = t;
    for (int k : {15, 20}) {
      SCOPED_TRACE("n = 2^" + std::to_string(k) + ", t = " + std::to_string(t));
      PassLayout layout;
      ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(std::int64_t{1} << k, 2), options,
                                                  layout),
                fftcore::Status::kSuccess);
      int capped = 0;
      for (PassParams const& p : layout.passes) {
        if (p.log_length < 8) continue;  // the short pass
        EXPECT_LE(p.log_tile, std::max(t, 9 - p.log_length));
        capped += p.log_tile <= t ? 1 : 0;
      }
      EXPECT_GE(capped, 1);
      check_emulated(desc_1d(std::int64_t{1} << k, 2), t == 1, options);
    }
  }
}

TEST(TcPlanLogic, EmulatedPassesGiveTheDft2d) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{
           {2, 2}, {16, 16}, {2, 1 << 14}, {1 << 14, 2}, {256, 64}, {4096, 8}, {8, 4096},
           {1 << 12, 32}, {32, 1 << 12}}) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    check_emulated(desc_2d(r, c, 1), false);
    check_emulated(desc_2d(r, c, 3), true);
  }
}

TEST(TcPlanLogic, SharedMemorySlotsAreABijection) {
  for (int log_l = 1; log_l <= 14; ++log_l) {
    int const log_t = std::max(0, 9 - log_l);
    std::set<int> seen;
    for (int t = 0; t < (1 << log_t); ++t) {
      for (int n = 0; n < (1 << log_l); ++n) {
        int const s = fftcore::detail::tc::smem_slot(t, n, log_l);
        EXPECT_GE(s, t << log_l);
        EXPECT_LT(s, (t + 1) << log_l);
        seen.insert(s);
      }
    }
    EXPECT_EQ(seen.size(), std::size_t{1} << (log_l + log_t)) << log_l;
  }
}

/// The in-block Stockham merges with the kernel's index functions, including the radix-16
/// merge's lane/fragment bookkeeping (PTX ISA layouts of m16n8k16), in double.
std::vector<cd> emulate_block(std::vector<cd> x, PassParams const& p) {
  using namespace fftcore::detail::tc;
  int const log_l = p.log_length;
  int const threads = p.threads;
  int log_ns = 0;
  std::vector<cd> next(x.size());
  for (int s = 0; s < p.stage_count; ++s) {
    int const log_r = p.log_radix[s];
    int const r = 1 << log_r;
    next = x;
    if (log_r == 4) {
      for (int warp = 0; warp < threads / 32; ++warp) {
        for (int u = 0; u < 4; ++u) {
          cd b[16][8], d[16][8];
          for (int lane = 0; lane < 32; ++lane) {  // B fragment loads
            int const g = lane >> 2, q = lane & 3;
            int const c = ((warp * 4 + u) << 3) + g;
            int const t = c >> (log_l - 4), j = c & ((1 << (log_l - 4)) - 1);
            for (int reg = 0; reg < 2; ++reg) {
              for (int h = 0; h < 2; ++h) {
                int const m = 2 * q + h + 8 * reg;
                int const idx = merge_twiddle_index(j, m, 4, log_ns);
                b[m][g] = x[smem_slot(t, merge_read_index(j, m, log_l, 4), log_l)] *
                          tcfft::testing::root_of_unity(idx, 16384.0, false);
              }
            }
          }
          for (int row = 0; row < 16; ++row) {
            for (int col = 0; col < 8; ++col) {
              d[row][col] = 0;
              for (int k = 0; k < 16; ++k) {
                d[row][col] +=
                    tcfft::testing::root_of_unity((row * k) % 16, 16.0, false) * b[k][col];
              }
            }
          }
          for (int lane = 0; lane < 32; ++lane) {  // D fragment stores
            int const g = lane >> 2, q = lane & 3;
            for (int i = 0; i < 4; ++i) {
              int const c = ((warp * 4 + u) << 3) + 2 * q + (i & 1);
              int const m = g + 8 * (i >> 1);
              int const t = c >> (log_l - 4), j = c & ((1 << (log_l - 4)) - 1);
              next[smem_slot(t, merge_write_index(j, m, 4, log_ns), log_l)] =
                  d[m][2 * q + (i & 1)];
            }
          }
        }
      }
    } else {
      for (int beta = 0; beta < threads * 16 / r; ++beta) {
        int const t = beta >> (log_l - log_r), j = beta & ((1 << (log_l - log_r)) - 1);
        std::vector<cd> a(r);
        for (int m = 0; m < r; ++m) {
          int const idx = merge_twiddle_index(j, m, log_r, log_ns);
          a[m] = x[smem_slot(t, merge_read_index(j, m, log_l, log_r), log_l)] *
                 tcfft::testing::root_of_unity(idx, 16384.0, false);
        }
        fft_double(a);
        for (int m = 0; m < r; ++m) {
          next[smem_slot(t, merge_write_index(j, m, log_r, log_ns), log_l)] = a[m];
        }
      }
    }
    x = next;
    log_ns += log_r;
  }
  return x;
}

/// Shared-memory wavefronts of one warp instruction with 8-byte accesses: each half-warp is one
/// 128-byte request; the wavefronts are the most distinct 4-byte words any bank must serve.
int wavefronts(std::vector<int> const& slots) {
  int total = 0;
  for (int half = 0; half < 2; ++half) {
    std::set<int> words[32];
    for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
      for (int w : {2 * slots[lane], 2 * slots[lane] + 1}) words[w % 32].insert(w);
    }
    std::size_t worst = 0;
    for (auto const& b : words) worst = std::max(worst, b.size());
    total += static_cast<int>(worst);
  }
  return total;
}

/// The radix-16 merges' shared-memory reads and writes (the lane -> element maps of merge16 in
/// kernels/block_merges.cuh) take the minimum of 2 wavefronts per warp instruction for
/// 2^8 <= L <= 2^13 with the swizzle of smem_slot, and at most 4 (2-way) for L = 2^14 reads.
/// A regression guard for the bank-conflict work: the earlier swizzle took 4-8.
TEST(TcPlanLogic, RadixSixteenMergesAreBankConflictFree) {
  using fftcore::detail::tc::merge_read_index;
  using fftcore::detail::tc::merge_write_index;
  using fftcore::detail::tc::smem_slot;
  for (int log_l = 8; log_l <= 14; ++log_l) {
    for (int log_t = 0; log_l + log_t <= 14 && log_t <= 5; ++log_t) {
      int const warps = (1 << (log_l + log_t)) / 16 / 32;
      int const limit = log_l == 14 ? 4 : 2;
      int const log_cols = log_l - 4;
      for (int log_ns = 0; log_ns + 4 <= log_l; log_ns += 4) {
        for (int warp = 0; warp < warps; ++warp) {
          for (int u = 0; u < 4; ++u) {
            for (int rh = 0; rh < 4; ++rh) {  // reads: m = 2 quad + h + 8 r
              std::vector<int> slots(32);
              for (int lane = 0; lane < 32; ++lane) {
                int const c = ((warp * 4 + u) << 3) + (lane >> 2);
                int const m = 2 * (lane & 3) + (rh & 1) + 8 * (rh >> 1);
                slots[lane] = smem_slot(c >> log_cols,
                                        merge_read_index(c & ((1 << log_cols) - 1), m, log_l, 4),
                                        log_l);
              }
              ASSERT_LE(wavefronts(slots), limit)
                  << "read L=2^" << log_l << " T=2^" << log_t << " Ns=2^" << log_ns;
            }
            for (int i = 0; i < 4; ++i) {  // writes of the D fragments
              std::vector<int> slots(32);
              for (int lane = 0; lane < 32; ++lane) {
                int const c = ((warp * 4 + u) << 3) + 2 * (lane & 3) + (i & 1);
                int const m = (lane >> 2) + 8 * (i >> 1);
                slots[lane] = smem_slot(
                    c >> log_cols, merge_write_index(c & ((1 << log_cols) - 1), m, 4, log_ns),
                    log_l);
              }
              ASSERT_EQ(wavefronts(slots), 2)
                  << "write L=2^" << log_l << " T=2^" << log_t << " Ns=2^" << log_ns;
            }
          }
        }
      }
    }
  }
}

TEST(TcPlanLogic, EmulatedBlockMergesGiveTheDft) {
  for (int k = 1; k <= 14; ++k) {
    // Every block length the general kernel takes, as the one pass of 2^k (FP32 intermediates
    // and load hooks still send 256..16384-point passes to it).
    fftcore::detail::tc::PlanOptions options;
    options.split = {k};
    PassLayout layout;
    ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(std::int64_t{1} << k, 1), options, layout),
              fftcore::Status::kSuccess);
    ASSERT_EQ(layout.passes.size(), 1u);
    PassParams const& p = layout.passes.front();
    int const l = 1 << k, tiles = 1 << p.log_tile;
    unsigned seed = 0;
    auto x = tcfft::testing::random_complex(static_cast<std::size_t>(l) * tiles, seed);
    std::vector<cd> shared(x.size());
    for (int t = 0; t < tiles; ++t) {
      for (int n = 0; n < l; ++n) shared[fftcore::detail::tc::smem_slot(t, n, k)] = x[t * l + n];
    }
    auto const y = emulate_block(shared, p);
    for (int t = 0; t < tiles; t += std::max(1, tiles / 4)) {
      std::vector<cd> in(x.begin() + t * l, x.begin() + (t + 1) * l), got(l);
      for (int n = 0; n < l; ++n) got[n] = y[fftcore::detail::tc::smem_slot(t, n, k)];
      fft_double(in);
      EXPECT_LT(tcfft::testing::relative_l2_error(got, in), 1e-12) << "n = 2^" << k;
    }
  }
}

/// merge16<true> (the first radix-16 merge of a pass reading FP16) leaves out the B_lo MMAs:
/// every value it sees is an FP16 number times the block's power-of-two gain (2^-16..2^40
/// covers every gain tile_gain can choose), and its FP16 lo part must be exactly zero.
TEST(TcPlanLogic, ScaledHalfInputsHaveNoLoPart) {
  for (unsigned bits = 0; bits < 0x10000u; ++bits) {
    __half_raw raw;
    raw.x = static_cast<unsigned short>(bits);
    float const h = __half2float(__half(raw));
    if (!std::isfinite(h)) continue;
    for (int e = -16; e <= 40; ++e) {
      float const x = std::ldexp(h, e);
      if (!(std::fabs(x) < 32768.f)) continue;  // the gain keeps operands below 2^15
      float const hi = __half2float(__float2half_rn(x));
      float const lo = __half2float(__float2half_rn(x - hi));
      ASSERT_EQ(lo, 0.f) << "bits " << bits << " e " << e;
    }
  }
}

/// The kernel indexes inside a tile in 32 bits: base + (t * stride[0] + n * elem_stride) with
/// t < T, n < L. Every plan must keep those offsets (and the strides) below 2^31.
void expect_in_tile_offsets_fit(fftcore::PlanDesc const& d) {
  PassLayout layout;
  ASSERT_EQ(fftcore::detail::tc::build_layout(d, {}, layout), fftcore::Status::kSuccess);
  constexpr std::int64_t kLimit = (std::int64_t{1} << 31) - 1;
  for (PassParams const& p : layout.passes) {
    std::int64_t const t_max = (std::int64_t{1} << p.log_tile) - 1;
    std::int64_t const n_max = (std::int64_t{1} << p.log_length) - 1;
    for (std::int64_t s : {p.in_stride[0], p.in_elem_stride, p.out_stride[0], p.out_elem_stride}) {
      EXPECT_GE(s, 0);
      EXPECT_LE(s, kLimit);
    }
    EXPECT_LE(t_max * p.in_stride[0] + n_max * p.in_elem_stride, kLimit)
        << d.dims[0] << " x " << d.dims[1] << " batch " << d.batch;
    EXPECT_LE(t_max * p.out_stride[0] + n_max * p.out_elem_stride, kLimit)
        << d.dims[0] << " x " << d.dims[1] << " batch " << d.batch;
    EXPECT_GE(p.twiddle_stride[0], 0);
    EXPECT_LE(p.log_twiddle_n, fftcore::detail::tc::kLogTwiddleBase);
  }
}

TEST(TcPlanLogic, InTileOffsetsFitIn32Bits) {
  for (int k = 1; k <= 27; ++k) {
    for (std::int64_t batch : {std::int64_t{1}, std::int64_t{3}, std::int64_t{1} << 12}) {
      expect_in_tile_offsets_fit(desc_1d(std::int64_t{1} << k, batch));
    }
  }
  for (int r = 1; r <= 14; ++r) {
    for (int c = 1; c <= 14 && r + c <= 27; ++c) {
      for (std::int64_t batch : {1, 5}) {
        expect_in_tile_offsets_fit(desc_2d(std::int64_t{1} << r, std::int64_t{1} << c, batch));
      }
    }
  }
}

/// The register-chained pass copies its tiles 16 bytes at a time where fast::vector_loads says
/// so: every run of 4 elements in the tile's memory order (tile_element) must then be 4
/// contiguous elements starting at a multiple of 4. Counts the passes that qualified.
void expect_vector_runs_aligned(fftcore::PlanDesc const& d, int& vector_passes) {
  namespace tc = fftcore::detail::tc;
  PassLayout layout;
  EXPECT_EQ(tc::build_layout(d, {}, layout), fftcore::Status::kSuccess);
  vector_passes = 0;
  for (PassParams const& p : layout.passes) {
    if (!tc::fast::eligible(p) || !tc::fast::vector_loads(p)) continue;
    ++vector_passes;
    bool const fin = tc::fast::fast_in(p);
    int const elements = 1 << (p.log_length + p.log_tile);
    for (std::int64_t b : {std::int64_t{0}, p.blocks / 3, p.blocks - 1}) {
      tc::BlockOrigin const o = tc::block_origin(p, b);
      for (int e = 0; e < elements; e += 4) {
        for (int i = 0; i < 4; ++i) {
          auto const x = tc::fast::tile_element(e + i, fin, p.log_tile, p.log_length);
          std::int64_t const at = o.in_base + x.t * p.in_stride[0] + x.n * p.in_elem_stride;
          if (i == 0) {
            ASSERT_EQ(at % 4, 0) << d.dims[0] << " x " << d.dims[1] << " block " << b;
          }
          auto const x0 = tc::fast::tile_element(e, fin, p.log_tile, p.log_length);
          ASSERT_EQ(at, o.in_base + x0.t * p.in_stride[0] + x0.n * p.in_elem_stride + i);
        }
      }
    }
  }
}

TEST(TcPlanLogic, VectorLoadsCopyAlignedRunsOfFour) {
  for (int k = 8; k <= 27; ++k) {
    for (std::int64_t batch : {std::int64_t{1}, std::int64_t{3}}) {
      PassLayout layout;
      ASSERT_EQ(fftcore::detail::tc::build_layout(desc_1d(std::int64_t{1} << k, batch), {},
                                                  layout),
                fftcore::Status::kSuccess);
      int fast_passes = 0;
      for (PassParams const& p : layout.passes) fast_passes += fftcore::detail::tc::fast::eligible(p);
      // Every register-chained pass of a 1-D transform takes the 16-byte copies.
      int vector_passes = 0;
      expect_vector_runs_aligned(desc_1d(std::int64_t{1} << k, batch), vector_passes);
      EXPECT_EQ(vector_passes, fast_passes) << "2^" << k;
    }
  }
  for (int r = 1; r <= 13; ++r) {
    for (int c = 1; c <= 13 && r + c <= 24; ++c) {
      int vector_passes = 0;
      expect_vector_runs_aligned(desc_2d(std::int64_t{1} << r, std::int64_t{1} << c, 5),
                                 vector_passes);
    }
  }
  int vector_passes = 0;
  expect_vector_runs_aligned(desc_2d(512, 512, 1), vector_passes);
  EXPECT_EQ(vector_passes, 2) << "rows and columns";
}

/// The kernel's 32-bit twiddle exponent (operands mod 2^32) equals the 64-bit definition.
TEST(TcPlanLogic, TwiddleExponent32MatchesTheReference) {
  using fftcore::detail::tc::pass_twiddle_exponent;
  using fftcore::detail::tc::pass_twiddle_exponent32;
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 20;  // 44 bits
  };
  for (int log_n = 1; log_n <= fftcore::detail::tc::kLogTwiddleBase; ++log_n) {
    for (int i = 0; i < 20000; ++i) {
      auto const tw = static_cast<std::int64_t>(next() >> (i % 20));
      auto const k = static_cast<std::int64_t>(next() >> 30);  // < 2^14: k < L
      EXPECT_EQ(pass_twiddle_exponent(tw, k, log_n),
                pass_twiddle_exponent32(static_cast<std::uint32_t>(tw),
                                        static_cast<std::uint32_t>(k), log_n))
          << tw << " " << k << " " << log_n;
    }
  }
}

}  // namespace
