// SPDX-License-Identifier: MIT
// The short pass (kernels/small_pass_kernel.cu) and the warp pass (kernels/warp_pass_kernel.cu)
// on the GPU, with the accuracy rule of tc_accuracy_gpu_test (relative L2 error against a
// double reference at most 1.10x cuFFT FP16's on the same input, and below absolute sanity
// bounds). Short pass: as the twiddled strided first pass of 2^13 (2 x 4096), 2^14 (4 x 4096)
// and 2^15 (8 x 4096) via FFTCORE_TC_SPLIT, on partial tiles (1-D n = 2, 4, 8 with odd
// batches), as the column pass of 2-D shapes. Warp pass: 1-D n = 32 .. 256 on whole and
// partial tiles and scaled, and the rows of 2-D shapes. Forward and inverse, in and out of
// place (which must agree bit for bit, except where out of place takes the 2-D cross-row stage
// and in place does not: there within the accuracy budget). Column pass: the twiddled strided first
// passes of 1-D transforms split through 32..128 points, and the column passes of 2-D shapes
// with 32..128 rows. Stockham pass: 1-D n = 512 .. 16384 on whole and partial tiles and scaled, and
// the rows of 2-D shapes; its column variant on the column passes of 2-D shapes with 512..2048
// rows. Long pass: 1-D n = 32768 over single sequences, batches below and above the resident blocks
// (one sequence per block at a time, several per block), scaled. Tall pass: the column passes of
// 2-D shapes with 512..4096 rows (64..8 columns per item), one item per image up to many per block,
// scaled. Group pass: 1-D n = 512 .. 4096 on whole and partial tiles and scaled, and the rows of
// 2-D shapes (by default the wide form at 512 points and the doubled form at 1024..4096; ctest
// runs these again with the 16-point form at every length, the wide form wherever it can, the
// 256-byte fetch hint with the planner's tiles, and the Stockham tests with the group pass off).
// Each case checks on the host that its
// plan really has a pass the kernel under test takes.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/column_pass_layout.hpp"
#include "../../fftcore/src/tc/cross_rows_layout.hpp"
#include "../../fftcore/src/tc/group_pass_layout.hpp"
#include "../../fftcore/src/tc/long_pass_layout.hpp"
#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/small_pass_layout.hpp"
#include "../../fftcore/src/tc/stockham_pass_layout.hpp"
#include "../../fftcore/src/tc/tall_pass_layout.hpp"
#include "../../fftcore/src/tc/warp_pass_layout.hpp"
#include "common/gpu_test.hpp"
#include "common/reference_dft.hpp"
#include "tc_test_support.hpp"

namespace {

using tcfft::testing::cd;
constexpr double kMaxRatio = 1.10;
constexpr double kSanityL2 = 3e-3;

class TcSmallPass : public tcfft::testing::GpuTest {};
class TcWarpPass : public tcfft::testing::GpuTest {};
class TcColumnPass : public tcfft::testing::GpuTest {};
class TcStockhamPass : public tcfft::testing::GpuTest {};
class TcGroupPass : public tcfft::testing::GpuTest {};
class TcLongPass : public tcfft::testing::GpuTest {};
class TcTallPass : public tcfft::testing::GpuTest {};

/// Whether a kernel takes a pass (small::eligible, warp_pass::eligible).
using Takes = bool (*)(fftcore::detail::tc::PassParams const&);

struct Case {
  std::int64_t rows;
  std::int64_t cols;
  std::int64_t batch;
  char const* split;  ///< FFTCORE_TC_SPLIT, or nullptr for the planner's choice
  fftcore::Scaling scaling = fftcore::Scaling::kNone;
};

fftcore::PlanDesc desc_of(Case const& c) {
  fftcore::PlanDesc d;
  d.rank = c.rows > 1 ? 2 : 1;
  d.dims[0] = c.rows > 1 ? c.rows : c.cols;
  d.dims[1] = c.rows > 1 ? c.cols : 0;
  d.batch = c.batch;
  d.scaling = c.scaling;
  return d;
}

/// Whether the plan of `c` has a pass that `takes`, and one such with a partial tile.
void kernel_passes(Case const& c, Takes takes, bool& any, bool& partial) {
  fftcore::detail::tc::PlanOptions options;
  options.split = fftcore::detail::tc::split_override(c.split);
  fftcore::detail::tc::PassLayout layout;
  ASSERT_EQ(fftcore::detail::tc::build_layout(desc_of(c), options, layout),
            fftcore::Status::kSuccess);
  any = partial = false;
  for (auto const& p : layout.passes) {
    if (!takes(p)) continue;
    any = true;
    partial = partial || p.extent[0] % (std::int64_t{1} << p.log_tile) != 0;
  }
}

/// Whether the executor runs `c` out of place with the cross-row stage (cross_rows_layout.hpp;
/// in place it takes the plan's own passes): by default, unless FFTCORE_TC_CROSS_ROWS=0.
bool crosses_rows(Case const& c) {
  char const* mode = std::getenv("FFTCORE_TC_CROSS_ROWS");
  if (c.split != nullptr || (mode != nullptr && std::string(mode) == "0")) return false;
  fftcore::detail::tc::PassLayout layout;
  if (fftcore::detail::tc::build_layout(desc_of(c), {}, layout) != fftcore::Status::kSuccess) {
    return false;
  }
  return layout.passes.size() == 2 &&
         fftcore::detail::tc::cross_rows::eligible(layout.passes[0], layout.passes[1]);
}

/// Runs `c` through a Tensor Core plan (FFTCORE_TC_SPLIT set around make_plan).
void run(Case const& c, std::vector<cd> const& x, fftcore::Direction dir, bool in_place,
         std::vector<cd>& y) {
  if (c.split != nullptr) ::setenv("FFTCORE_TC_SPLIT", c.split, 1);
  tcfft::testing::run_tc(desc_of(c), x, dir, in_place, y);
  ::unsetenv("FFTCORE_TC_SPLIT");
}

void compare(Case const& c, int sign) {
  std::int64_t const rows = c.rows, cols = c.cols;
  unsigned seed = 0;
  auto const x = tcfft::testing::round_to_half(
      tcfft::testing::random_complex(static_cast<std::size_t>(rows * cols * c.batch), seed));
  auto ref = tcfft::testing::reference_fft(x, rows, cols, c.batch, sign);
  std::vector<cd> theirs;
  ASSERT_NO_FATAL_FAILURE(tcfft::testing::run_cufft_half(rows, cols, c.batch, x, sign, theirs));
  if (c.scaling != fftcore::Scaling::kNone) {  // 1/N is a power of two: exact in double
    double const n = static_cast<double>(rows * cols);
    double const s = c.scaling == fftcore::Scaling::kByN ? 1.0 / n : 1.0 / std::sqrt(n);
    for (auto& v : ref) v *= s;
    for (auto& v : theirs) v *= s;
  }
  double const l2_cufft = tcfft::testing::relative_l2_error(theirs, ref);
  auto const dir = sign < 0 ? fftcore::Direction::kForward : fftcore::Direction::kInverse;
  std::vector<cd> out_of_place;
  for (bool in_place : {false, true}) {
    std::vector<cd> ours;
    ASSERT_NO_FATAL_FAILURE(run(c, x, dir, in_place, ours));
    double const l2 = tcfft::testing::relative_l2_error(ours, ref);
    double const mx = tcfft::testing::relative_max_error(ours, ref);
    std::printf(
        "[tc-small] %5lld x %-6lld batch %-5lld split %-5s %s %s  L2 %.3e (cuFFT %.3e,"
        " ratio %.3f)  max %.3e  seed %u\n",
        static_cast<long long>(rows), static_cast<long long>(cols), static_cast<long long>(c.batch),
        c.split != nullptr ? c.split : "-", sign < 0 ? "fwd" : "inv",
        in_place ? "in-place" : "out-of-place", l2, l2_cufft, l2_cufft > 0 ? l2 / l2_cufft : 0.0,
        mx, seed);
    EXPECT_LE(l2, kMaxRatio * l2_cufft + 1e-7) << "seed " << seed;
    EXPECT_LT(l2, kSanityL2) << "seed " << seed;
    EXPECT_LT(mx, 10 * kSanityL2) << "seed " << seed;
    if (in_place && crosses_rows(c)) {
      // Out of place took the cross-row stage, in place the plan's own two passes (the stage's
      // row pass writes rows other blocks read): not the same roundings, so the two agree to
      // within the accuracy rule's budget instead of bit for bit.
      double const apart = tcfft::testing::relative_l2_error(ours, out_of_place);
      std::printf("[tc-small] in place against out of place (cross-row stage): L2 %.3e\n", apart);
      EXPECT_LE(apart, 2 * kMaxRatio * l2_cufft) << "seed " << seed;
    } else if (in_place) {
      EXPECT_TRUE(ours == out_of_place) << "in place differs from out of place";
    } else {
      out_of_place = ours;
    }
  }
}

void run_cases(std::vector<Case> const& cases, bool want_partial,
               Takes takes = fftcore::detail::tc::small::eligible) {
  for (Case const& c : cases) {
    SCOPED_TRACE(std::to_string(c.rows) + " x " + std::to_string(c.cols) + " batch " +
                 std::to_string(c.batch) + " split " + (c.split != nullptr ? c.split : "-"));
    bool any = false, partial = false;
    ASSERT_NO_FATAL_FAILURE(kernel_passes(c, takes, any, partial));
    ASSERT_TRUE(any) << "the plan has no pass for the kernel under test";
    if (want_partial) {
      EXPECT_TRUE(partial) << "no partial tile";
    }
    for (int sign : {-1, +1}) compare(c, sign);
  }
}

TEST_F(TcSmallPass, StridedTwiddledFirstPassAgainstCufftHalf) {
  // Batches of 2^21 elements get the planner's full tiles (T L = 2^13: 4096, 2048, 1024
  // sequences, one whole round of 16, 8, 4 per thread); small batches get tiles of 2^9
  // elements (one sequence per thread, padded rounds).
  run_cases({{1, 1 << 13, 256, "1,12"},
             {1, 1 << 14, 128, "2,12"},
             {1, 1 << 15, 64, "3,12"},
             {1, 1 << 13, 3, "1,12"},
             {1, 1 << 14, 3, "2,12"},
             {1, 1 << 15, 3, "3,12"},
             {1, 1 << 15, 1, "3,12", fftcore::Scaling::kByN},
             {1, 1 << 11, 3, "3,8"},
             {1, 1 << 16, 3, "4,12"}},
            false);
}

TEST_F(TcSmallPass, PartialTilesAgainstCufftHalf) {
  // T = 256, 128, 64 (the smallest tiles) over 5 or 4099 sequences, and 2^13-element tiles
  // (whole rounds, contiguous vector accesses) followed by a partial one.
  run_cases({{1, 2, 5, nullptr},
             {1, 4, 5, nullptr},
             {1, 8, 5, nullptr},
             {1, 8, 4099, nullptr},
             {1, 2, (1 << 20) + 1, nullptr},
             {1, 4, (1 << 19) + 7, nullptr},
             {1, 8, (1 << 18) + 3, nullptr},
             {1, 16, 5, nullptr},
             {1, 16, (1 << 17) + 5, nullptr}},
            true);
}

TEST_F(TcSmallPass, Shapes2dAgainstCufftHalf) {
  // 2-D shapes of <= 4096 elements (8 x 4, 4 x 8) keep FP32 between their passes and so stay
  // on the general kernel (tc_small_pass_test); these are FP16 shapes with 2..16 rows or
  // columns.
  run_cases({{8, 2048, 3, nullptr},
             {2, 4096, 3, nullptr},
             {1024, 8, 3, nullptr},
             {16, 1024, 3, nullptr},
             {512, 16, 3, nullptr}},
            false);
}

TEST_F(TcWarpPass, LengthsAgainstCufftHalf) {
  // 1-D n = 32 .. 256: the planner's 2^13-element tiles (two rounds of 256 threads) over
  // batches of 2^21 elements, small batches (tiles of 2^9 elements: one warp, one round),
  // partial last tiles, and 1/N scaling.
  run_cases({{1, 32, 65536, nullptr},
             {1, 64, 32768, nullptr},
             {1, 128, 16384, nullptr},
             {1, 256, 8192, nullptr},
             {1, 256, 1, nullptr, fftcore::Scaling::kByN},
             {1, 32, 1, nullptr},
             {1, 128, 1, nullptr, fftcore::Scaling::kByN}},
            false, fftcore::detail::tc::warp_pass::eligible);
}

TEST_F(TcWarpPass, PartialTilesAgainstCufftHalf) {
  run_cases({{1, 32, 5, nullptr},
             {1, 64, 3, nullptr},
             {1, 128, 7, nullptr},
             {1, 32, 65536 + 5, nullptr},
             {1, 64, 32768 + 3, nullptr},
             {1, 128, 16384 + 1, nullptr},
             {1, 256, 8192 + 3, nullptr}},
            true, fftcore::detail::tc::warp_pass::eligible);
}

TEST_F(TcWarpPass, RowsOf2dShapesAgainstCufftHalf) {
  // The rows (32..256 contiguous points) take the warp pass, the columns another kernel.
  run_cases({{512, 32, 3, nullptr},
             {256, 256, 3, nullptr},
             {512, 256, 2, nullptr},
             {2048, 64, 2, nullptr},
             {256, 128, 3, nullptr},
             {128, 128, 5, nullptr}},
            false, fftcore::detail::tc::warp_pass::eligible);
}

TEST_F(TcColumnPass, TwiddledFirstPassesAgainstCufftHalf) {
  // Whole rounds of 32 columns need >= 256 x 32 columns in all (the planner halves tiles below
  // 256 blocks): batches of 32 and more at 2^13..2^16.
  run_cases({{1, 1 << 13, 32, "5,8"},
             {1, 1 << 14, 33, "6,8"},
             {1, 1 << 15, 64, "7,8"},
             {1, 1 << 16, 32, "7,9"},
             {1, 1 << 16, 32, "7,9", fftcore::Scaling::kByN},
             {1, 1 << 19, 3, "7,12"},
             {1, 1 << 21, 1, "5,8,8"}},
            false, fftcore::detail::tc::column::eligible);
}

TEST_F(TcColumnPass, ColumnsOf2dShapesAgainstCufftHalf) {
  run_cases({{128, 128, 64, nullptr},
             {128, 1024, 8, nullptr},
             {64, 512, 17, nullptr},
             {32, 2048, 4, nullptr},
             {128, 64, 128, nullptr}},
            false, fftcore::detail::tc::column::eligible);
}

TEST_F(TcStockhamPass, LengthsAgainstCufftHalf) {
  // 1-D n = 512 .. 16384: the planner's tiles over batches of 2^21 elements (blocks of 256
  // threads, several rounds), single sequences (one block of L / E threads) and 1/N scaling.
  run_cases({{1, 512, 4096, nullptr},
             {1, 1024, 2048, nullptr},
             {1, 2048, 1024, nullptr},
             {1, 4096, 512, nullptr},
             {1, 512, 1, nullptr, fftcore::Scaling::kByN},
             {1, 4096, 1, nullptr},
             {1, 2048, 2, nullptr, fftcore::Scaling::kByN},
             {1, 8192, 256, nullptr},  // 32 values per thread, one exchange buffer
             {1, 8192, 1, nullptr, fftcore::Scaling::kByN},
             {1, 16384, 128, nullptr},  // 512 threads per sequence, a radix-32 last stage
             {1, 16384, 1, nullptr, fftcore::Scaling::kByN},
             {1, 16384, 3, nullptr, fftcore::Scaling::kBySqrtN}},
            false, fftcore::detail::tc::stockham::eligible);
}

TEST_F(TcStockhamPass, PartialTilesAgainstCufftHalf) {
  // The planner's tiles hold 2^12 elements (8, 4, 2 sequences at 512..2048; 4096 has one per
  // tile, never a partial one).
  run_cases({{1, 512, 4096 + 5, nullptr},
             {1, 1024, 2048 + 3, nullptr},
             {1, 2048, 1024 + 1, nullptr},
             {1, 512, 8192 + 3, nullptr}},
            true, fftcore::detail::tc::stockham::eligible);
}

TEST_F(TcStockhamPass, RowsOf2dShapesAgainstCufftHalf) {
  run_cases({{512, 512, 3, nullptr},
             {256, 1024, 3, nullptr},
             {128, 2048, 2, nullptr},
             {64, 4096, 2, nullptr},
             {1024, 2048, 1, nullptr},
             {16, 8192, 2, nullptr},
             {8, 16384, 3, nullptr}},
            false, fftcore::detail::tc::stockham::eligible);
}

TEST_F(TcGroupPass, LengthsAgainstCufftHalf) {
  // 1-D n = 512 .. 4096: the launcher's tiles (2^13 elements, two rounds of 256 threads in the
  // 16-point form: 8, 4, 2 groups or one; 2^14 in the wide form, 2^15 in the doubled form; the
  // planner's tiles where a batch would have fewer than 1024 blocks) over batches of 2^21
  // elements, single sequences (blocks of one group) and scaling.
  run_cases({{1, 512, 4096, nullptr},
             {1, 1024, 2048, nullptr},
             {1, 2048, 1024, nullptr},
             {1, 4096, 512, nullptr},
             {1, 512, 1, nullptr, fftcore::Scaling::kByN},
             {1, 1024, 1, nullptr, fftcore::Scaling::kBySqrtN},
             {1, 2048, 1, nullptr},
             {1, 4096, 1, nullptr, fftcore::Scaling::kByN}},
            false, fftcore::detail::tc::group_pass::eligible);
}

TEST_F(TcGroupPass, PartialTilesAgainstCufftHalf) {
  // The last tile's groups past the batch skip their round.
  run_cases({{1, 512, 4096 + 5, nullptr},
             {1, 1024, 2048 + 3, nullptr},
             {1, 2048, 1024 + 1, nullptr},
             {1, 512, 8192 + 3, nullptr, fftcore::Scaling::kByN}},
            true, fftcore::detail::tc::group_pass::eligible);
}

TEST_F(TcGroupPass, RowsOf2dShapesAgainstCufftHalf) {
  run_cases({{512, 512, 3, nullptr},
             {256, 1024, 3, nullptr},
             {128, 2048, 2, nullptr},
             {64, 4096, 2, nullptr}},
            false, fftcore::detail::tc::group_pass::eligible);
}

TEST_F(TcStockhamPass, ColumnsOf2dShapesAgainstCufftHalf) {
  // The column variant: 2-D shapes with 512..2048 rows (16 columns per item at 512 and 1024,
  // 8 at 2048; the planner's tiles of 8 retiled), images in batches, one item per image. By
  // default the tall pass takes the ones with whole items of its own; the ctest entry
  // TcStockhamPass.ColumnsOf2dShapesEveryEligiblePass runs this with the tall pass off.
  run_cases({{512, 512, 3, nullptr},
             {512, 256, 2, nullptr},
             {512, 16, 5, nullptr},
             {1024, 1024, 1, nullptr, fftcore::Scaling::kByN},
             {1024, 64, 3, nullptr},
             {2048, 128, 2, nullptr},
             {2048, 8, 3, nullptr},
             {2048, 2048, 1, nullptr, fftcore::Scaling::kBySqrtN}},
            false, fftcore::detail::tc::stockham::columns_eligible);
}

TEST_F(TcGroupPass, CrossRowStageOf2048x2048ImagesAgainstCufftHalf) {
  // The 2-D cross-row stage (cross_rows_layout.hpp; on by default, and the ctest entry
  // TcGroupPass.CrossRowStageOff runs these with FFTCORE_TC_CROSS_ROWS=0, the plan's two
  // passes): the column transform's radix-4 first stage in the doubled form's row pass, then the
  // 512-row column pass, out of place (compare() runs each in place too, where the executor
  // takes the plan's own two passes): one image (the tiles fitted down to one round a block),
  // two and three (the column pass's FP32 stages), four (1024 items: its Tensor Core stages),
  // each scaling.
  run_cases({{2048, 2048, 1, nullptr},
             {2048, 2048, 2, nullptr, fftcore::Scaling::kByN},
             {2048, 2048, 3, nullptr, fftcore::Scaling::kBySqrtN},
             {2048, 2048, 4, nullptr}},
            false, [](fftcore::detail::tc::PassParams const& p) {
              return fftcore::detail::tc::group_pass::doubled_eligible(p) &&
                     p.log_length == fftcore::detail::tc::cross_rows::kLogWidth;
            });
}

TEST_F(TcLongPass, SequencesAgainstCufftHalf) {
  // One sequence (one block) and 3 through FFTCORE_TC_SPLIT=15 (the planner takes two passes
  // below 64 sequences), 64 and 100 (fewer than the SMs), 300 (blocks take several sequences
  // each, grid-stride), and the pass's scale split over its three stages.
  run_cases({{1, 1 << 15, 1, "15"},
             {1, 1 << 15, 3, "15", fftcore::Scaling::kBySqrtN},
             {1, 1 << 15, 64, nullptr},
             {1, 1 << 15, 300, nullptr},
             {1, 1 << 15, 100, nullptr, fftcore::Scaling::kByN}},
            false, fftcore::detail::tc::long_pass::eligible);
}

TEST_F(TcLongPass, SplitSequencesAgainstCufftHalf) {
  // The split pass of 2^16 points (clusters of two blocks): one sequence and 3 through
  // FFTCORE_TC_SPLIT=16 (the planner takes two passes below 64 sequences), 64 and 100 (fewer
  // clusters than the GPU holds), 300 (clusters take several sequences each, grid-stride), and
  // each scaling (the split's factor 1/2 where the pass scales down). compare() runs each in
  // place too, which the clusters' barrier keeps safe.
  run_cases({{1, 1 << 16, 1, "16"},
             {1, 1 << 16, 3, "16", fftcore::Scaling::kBySqrtN},
             {1, 1 << 16, 64, nullptr},
             {1, 1 << 16, 300, nullptr},
             {1, 1 << 16, 100, nullptr, fftcore::Scaling::kByN}},
            false, [](fftcore::detail::tc::PassParams const& p) {
              return fftcore::detail::tc::long_pass::split(p) &&
                     fftcore::detail::tc::long_pass::eligible(p);
            });
}

TEST_F(TcTallPass, ColumnsOf2dShapesAgainstCufftHalf) {
  // 512..4096 rows (C = 32, 32, 16, 8 columns an item): one item per image in batches, a few items
  // per image (fewer items than SMs), and many (blocks walk several, grid-stride), with each
  // scaling split over the stages (the complex column passes it takes by default; the ctest
  // entry TcTallPass.ColumnsOf2dShapesEveryEligibleLength runs this with FFTCORE_TC_TALL_PASS=3).
  // At 4096 rows the blocks run in clusters of two in step by default, so the odd item counts
  // (3 of 4096 x 8) leave a block of the last cluster without an item.
  run_cases({{4096, 8, 3, nullptr},
             {4096, 64, 2, nullptr, fftcore::Scaling::kByN},
             {4096, 16, 1, nullptr, fftcore::Scaling::kBySqrtN},
             {4096, 4096, 1, nullptr},
             {2048, 16, 3, nullptr},
             {2048, 2048, 1, nullptr, fftcore::Scaling::kBySqrtN},
             {1024, 32, 2, nullptr, fftcore::Scaling::kByN},
             {1024, 1024, 2, nullptr},
             {512, 64, 3, nullptr},
             {512, 512, 2, nullptr, fftcore::Scaling::kByN}},
            false, fftcore::detail::tc::tall_pass::eligible);
}

TEST_F(TcTallPass, TensorCoreStagesAt512RowsAgainstCufftHalf) {
  // The untwiddled 512-row column passes on a few items (also what compute-sanitizer runs):
  // the Tensor Core stages take them by default from 1024 items (tall_mma_kernel.cu), here
  // under the ctest entry TcTallPass.TensorCoreStagesEveryEligibleLength (FFTCORE_TC_TALL_MMA=3).
  run_cases({{512, 64, 3, nullptr}, {512, 32, 1, nullptr, fftcore::Scaling::kByN}}, false,
            fftcore::detail::tc::tall_pass::eligible);
}

TEST_F(TcTallPass, TwiddledPassesOf1dPlansAgainstCufftHalf) {
  // The twiddled column passes of 1-D plans: the first pass of 2^19 and 2^20, the middle pass
  // of 2^25, and 4096-point first passes of two-pass splits of 2^21 and 2^22.
  run_cases({{1, 1 << 19, 3, nullptr, fftcore::Scaling::kByN},
             {1, 1 << 20, 2, nullptr},
             {1, 1 << 25, 1, nullptr},
             {1, 1 << 21, 1, "12,9", fftcore::Scaling::kBySqrtN},
             {1, 1 << 22, 1, "12,10"}},
            false, fftcore::detail::tc::tall_pass::eligible);
}

TEST_F(TcTallPass, RowsFormEveryLengthAgainstCufftHalf) {
  // The rows form (rows in, transposed out) at 512..4096 points (C = 32, 32, 16, 8 sequences
  // an item) as the last pass of small two-pass splits: one or a few items (also what
  // compute-sanitizer runs), batches, each scaling.
  run_cases({{1, 1 << 16, 1, "4,12"},
             {1, 1 << 15, 3, "4,11"},
             {1, 1 << 15, 1, "5,10", fftcore::Scaling::kBySqrtN},
             {1, 1 << 14, 2, "5,9", fftcore::Scaling::kByN}},
            false, fftcore::detail::tc::tall_pass::rows_eligible);
}

TEST_F(TcTallPass, RowsFormLastPassesOf1dPlansAgainstCufftHalf) {
  // The last passes of the planner's two-pass 1-D plans (a 4096-point column pass first),
  // 2^21..2^24 points.
  run_cases({{1, 1 << 21, 2, "12,9", fftcore::Scaling::kBySqrtN},
             {1, 1 << 22, 1, "12,10"},
             {1, 1 << 23, 1, "12,11", fftcore::Scaling::kByN},
             {1, 1 << 24, 1, "12,12"}},
            false, fftcore::detail::tc::tall_pass::rows_eligible);
}

}  // namespace
