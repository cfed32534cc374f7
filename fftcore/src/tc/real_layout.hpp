// SPDX-License-Identifier: MIT
// Host planning of the Tensor Core backend's real transforms (R2C / C2R). A real transform of
// n = 2M points along the last axis is a complex FFT of M points on the same data read as
// complex (z[j] = x[2j] + i x[2j+1]) and a split step (real_split.hpp) between it and the
// half spectrum; for rank 2 the complex FFT of the first axis over the M + 1 columns follows
// (R2C) or precedes (C2R). Order of the steps:
//   R2C: row FFT (in -> Z) ; split (Z -> X or Y) ; rank 2: column FFT (Y -> out)
//   C2R: rank 2: column FFT (in -> Y) ; split (X or Y -> Z) ; row FFT (Z -> out)
// Unfused, Z and Y live in the workspace in FP32, so the only FP16 roundings are those of the
// complex passes' own boundaries and of the output (M = 1 has no row FFT: Z is the data); that
// is kept for M < 256 and small 2-D shapes, where the passes are cheap and cuFFT's error small.
// 1-D with M > 16384 (z_fp16): Z in FP16, so the row FFT runs the FP16 kernels and the split
// kernel moves FP16 (C2R: Z / 4, the row FFT's first pass scales by 4).
// Small (1-D, n <= 512; rank 2 with 128 or 256 columns above 4096 elements): one kernel from
// the reals to the half spectrum and back (FFT and split in FP32 registers, one rounding), no Z;
// for rank 2 it writes (R2C) or reads (C2R) the FP16 half spectrum Y in padded rows, as the
// fused row pass does.
// Column split (1-D C2R, M > 16384, where the row FFT's first pass runs down adjacent columns
// on the column pass (128 points: 2^16..2^19 and 2^22.. reals in large batches) or the
// register-chained pass (512, 1024 points on tiles of 2^12 or 2^13: 2^20, 2^21 reals)): the
// split in that pass's load, Z / 4 in FP32 registers (column pass) or rounded to FP16 there
// (PassParams::real_in_columns); no Z buffer, no split kernel.
// Paired (1-D R2C, M > 16384, where the last of the row FFT's passes has a tile of
// fast::pairs_log_tile: 2^17 and 2^18 reals in batches too small for the mirror pass): the
// split in that pass's store, each block holding sequences t and their mirrors P - t
// (PassParams::real_pairs); no Z.
// Twin (1-D R2C of 2^15 reals, M = 16384, in batches of 2^8 rows and more): rows two at a time
// as one complex 2^15-point sequence x_a + i x_b on the long pass, split in its last stage
// (PassParams::real_twin, long_pass_layout.hpp); no Z, no split kernel, no twiddled split.
// Row pairs (rank 2 with 2^kLogMinRowPairsColumns .. 16384 columns): the R2C's column FFT first,
// over the M complex columns of the rows of reals read as complex (in -> Y, FP16, rows of M
// words), then one Stockham pass of 2M points over the row pairs q, R - q of each image (Y ->
// out: PassParams::real_row_pairs, stockham_pass_layout.hpp), which separates the two rows'
// column DFTs in its load and writes both rows of the half spectrum. No Z, no split kernel,
// and the half spectrum's rows of M + 1 (4-byte aligned only) are written as contiguous runs;
// written by the column pass (the fused order), partial 32-byte sectors cost ~0.8x the input
// again in DRAM reads. The C2R the same backwards: the row pairs (in -> Y, inverse: rows q and
// R - q of the half spectrum in, the two rows of Y out), then the column FFT (Y -> out), which
// reads aligned rows instead of the half spectrum's.
// Mirror (1-D R2C and C2R of 2^17..2^20 reals, M = 128 D0, in large batches): R2C, the row
// FFT's passes swapped, D0 points down the 128 columns first (twiddled, into the workspace),
// then the mirror pass: 128 points over the D0 sequences with the split in its store, two
// mirrored groups of sequences a block (t and D0 - t), so that X[k] and X[M - k] leave as whole
// 128-byte runs in natural order (mirror_pass_layout.hpp); C2R backwards, the mirror pass
// reading each pair once and splitting it in its load, then the D0-point inverse column FFT;
// no Z, no split kernel.
// Halves (1-D R2C of 2^19..2^22 reals in batches that give each pass 128 items): two tall
// passes over half the data (tall_real_layout.hpp), the column FFTs of the reals read as
// complex columns, separated into real columns' spectra and twiddled (in -> Y, the row
// workspace), then the row FFTs into the half spectrum (Y -> out); no Z, no split kernel.
// Fused (256 <= M <= 16384 in 1-D; rank 2 above 4096 elements only with the row pairs switched
// off, FFTCORE_TC_ROW_PAIRS=0: at 2048x2048 this layout measured 1.13-1.15x the C2C against the
// row pairs' 1.95-1.98x, H100, NOTES.md session 20): the row FFT is one register-chained
// pass with the split in its store (R2C, PassParams::real_out) or its load (C2R, real_in),
// between the data and the half spectrum (out, or Y in FP16 for rank 2), no Z, no split
// kernel: half the bytes of the unfused steps and one launch fewer. Z is rounded to FP16 once
// (in shared memory before the R2C split, in registers after the C2R one), and Y once: one
// rounding more each than the FP32 Z and Y.
#pragma once

#include <fftcore/fftcore.hpp>

#include "plan_logic.hpp"

#include <cstddef>
#include <cstdint>

namespace fftcore::detail::tc {

/// Where a buffer of the complex sub-plans points to in a real plan.
enum class RealBuffer : int { kIn, kOut, kZ, kY, kRowWorkspace, kColumnWorkspace };

struct RealLayout {
  bool r2c = true;
  std::int64_t rows = 1;   ///< sequences along the halved axis: batch (x dims[0] for rank 2)
  int log_m = 0;           ///< M = 2^log_m = (last dim) / 2
  float split_factor = 1;  ///< scale applied in the split step (see real_layout.cpp)
  bool fused = false;      ///< the split rides in the row pass (no split kernel, no Z, FP16 Y)
  /// 1-D, n = 2 M <= 512 (M <= kSmallRealMaxM1d), or rank 2 with M = 64 or 128 (>=
  /// kMediumRealMinM) above 4096 elements: one kernel does the M-point FFT and the split
  /// (launch_small_real); no row passes, split_factor the row FFT's and the split's scale; no
  /// workspace in 1-D, Y (FP16, y_pitch) and the column FFT's in rank 2.
  bool small = false;
  bool rank2 = false;
  bool z_fp16 = false;  ///< 1-D, M > 16384: Z in FP16 between the row FFT and the split kernel
  /// 1-D R2C, M > 16384: the split rides in the store of the row FFT's last pass, over the
  /// sequence pairs t, P - t (PassParams::real_pairs), which writes `out`; no Z, no split kernel.
  bool paired = false;
  /// 1-D C2R, M > 16384, where the row FFT's first pass runs down adjacent columns on a kernel
  /// that takes the split: it rides in its load (PassParams::real_in_columns), which reads `in`;
  /// no Z, no split kernel.
  bool column_split = false;
  /// 1-D R2C of 2^15 reals in batches of 2^kLogMinTwinRows and more: one long pass over row
  /// pairs (PassParams::real_twin) from `in` to `out`, in `row`; no Z, no split kernel.
  bool twin = false;
  /// Rank 2 from 2^kLogMinRowPairsColumns columns: R2C, the column FFT first (`column`, in ->
  /// Y), then the row pairs (`row`, one pass, Y -> out); C2R, the row pairs (in -> Y), then the
  /// column FFT (Y -> out). Y holds the column FFT of the reals read as complex, rows of M words.
  bool row_pairs = false;
  /// 1-D R2C of N = N1 N2 reals (2^19..2^22, tall_real::splits) or C2R (2^20..2^24,
  /// tall_real::c2r_splits) in large batches: two tall passes over half the data in `row`
  /// (tall_real_layout.hpp), `in` -> Y (the row workspace; R2C: N2 / 2 + C rows of N1 words a
  /// transform, C2R: N1 rows of P words) -> `out`; no Z, no split kernel.
  bool halves = false;
  /// 1-D R2C and C2R of 2^17..2^20 reals (M = 128 D0) in large batches: R2C, the row FFT as
  /// the complex plan of split {log D0, 7}, in -> the row workspace, whose last pass is the
  /// mirror pass (PassParams::real_mirror, mirror_pass_layout.hpp): the 128-point DFTs over
  /// mirrored groups of sequences with the split in the store, the half spectrum in natural
  /// order (-> out); C2R, the mirror pass backwards (in -> the row workspace), then the inverse
  /// column FFT of D0 points (-> out); no Z, no split kernel.
  bool mirror = false;
  /// Whether the split rides in a row pass (fused, paired, column split, twin, row pairs,
  /// halves or mirror), so that no split kernel runs (`small` has its own kernel instead).
  [[nodiscard]] bool split_in_row_pass() const noexcept {
    return fused || paired || column_split || twin || row_pairs || halves || mirror;
  }
  /// Rank 2, FP16 Y: its row pitch, M + 1 rounded up to 8 (fused or small), or M (row pairs).
  std::int64_t y_pitch = 0;
  PassLayout row;          ///< complex FFT of M points on `rows` sequences (empty when M = 1)
  PassLayout column;       ///< rank 2: FFT of dims[0] points over M + 1 columns (else empty)
  /// Byte offsets of the FP32 buffers and the sub-plans' workspaces in the plan's workspace.
  std::size_t z_offset = 0;
  std::size_t y_offset = 0;
  std::size_t row_workspace_offset = 0;
  std::size_t column_workspace_offset = 0;
  std::size_t workspace_bytes = 0;
};

/// The largest M of the small real kernels (RealLayout::small): up to 32 one thread holds a
/// row's M complex values and M + 1 outputs in registers; at 64 and 128, M / 16 lanes
/// (medium_real_layout.hpp).
inline constexpr std::int64_t kSmallRealMaxM = 128;
/// 1-D also M = 256 (n = 512) on the medium real kernel's shared split (medium_real_layout.hpp):
/// one pass where the register-chained pass with the split in its store ran before.
inline constexpr std::int64_t kSmallRealMaxM1d = 256;
/// The smallest M of the small real kernels in rank 2 (the medium real kernel, whose rows of the
/// half spectrum may be padded; the one-thread-per-row kernel's may not).
inline constexpr std::int64_t kMediumRealMinM = 64;

/// The twin R2C's smallest batch (rows of 2^15 reals): 128 row pairs, about one per SM of an
/// H100 (the long pass runs one item per SM at a time; below, the fused Stockham pass runs a
/// row per SM in fewer waves). Measured (H100, fftcore_bench --small, an earlier version of the
/// kernel): as fast as the Stockham pass at 256..2048 rows, 5 % faster at 8192 (now 12 %).
inline constexpr int kLogMinTwinRows = 8;

/// The row pairs' fewest columns (2M reals), 2^9: the 2-D R2C and C2R shapes with 512 columns
/// and more (above 4096 elements). Measured (H100, fftcore_bench --real, FFTCORE_TC_ROW_PAIRS=9
/// against 10 and 11 in one call, two or three runs each): 512x512 R2C 1.056-1.062 ->
/// 0.928-0.935 ms (1.65x -> 1.89x the C2C), C2R 1.000-1.013 -> 0.890-0.898 (1.73x -> 1.97x);
/// 1024x1024 R2C 1.117-1.123 -> 0.975-0.983 (1.66x -> 1.90x), C2R equal.
inline constexpr int kLogMinRowPairsColumns = 9;

/// The mirror pass's default fewest sequences, log2 D0: the 1-D R2C and C2R from 2^17 reals
/// (RealLayout::mirror; FFTCORE_TC_REAL_MIRROR sets it for A/B, tc_real_plan.cpp). H200, ms per
/// 2^28 reals (NOTES.md, session 44), the mirror pass / the layouts before it: R2C 2^17
/// 0.973-0.983 / 0.992-1.004, 2^18 0.904-0.913 / 1.115-1.131, 2^19 0.905-0.913 / 1.148-1.160,
/// 2^20 0.929-0.946 / 1.145-1.156; C2R 2^17 0.923-0.931 / 0.938-0.943, 2^18 0.957-0.963 /
/// 0.983-0.986, 2^19 0.963-0.968 / 0.960-0.963, 2^20 0.981-0.984 / 1.122-1.124.
inline constexpr int kLogMinMirrorSequences = 9;

/// The 1-D C2R's split kernel from M = 2^24 complex points (2^25..2^27 reals, which the halves
/// leave to the column split): the staged split kernel (real_transform.cu, 280 us per 2^28
/// reals, ncu) moves X to FP16 Z near the copy's rate, and the row FFT then runs the complex
/// plan's passes (at M = 2^24 two, where the column split's first pass made three). H200, ms per
/// 2^28 reals, three runs each against FFTCORE_TC_C2R_SPLIT_KERNEL=0 (fftcore/NOTES.md, session
/// 47): 2^25 1.493-1.509 -> 1.238-1.239, 2^26 1.565-1.577 -> 1.517-1.525, 2^27 1.616-1.633 ->
/// 1.589-1.604. (Expected 2^27 ~1.53: the split kernel came out at 280 us, not the R2C's 257.)
inline constexpr int kLogMinC2rSplitKernelM = 24;

/// Builds the layout of a kR2C / kC2R descriptor that passed check_descriptor. The row and
/// column passes have their buffers already mapped to FP16 / FP32 (in_fp32 / out_fp32) as
/// real_buffer() says.
/// `fuse`: take the fused split and the FP16 Z where they apply (false: FP32 Z and Y and the
/// split kernel everywhere, for A/B measurements and where the register-chained pass is
/// switched off). `twin`: take the twin R2C where it applies (with `fuse`); the row pairs
/// likewise from 2^row_pairs_log_columns columns (0: never; below 9 the kernel has no such
/// pass, so it counts as 9). `tall`: the 1-D R2C's row FFTs of FP16 Z in the complex plans'
/// two-pass splits of 2^21..2^24 points (PlanOptions::tall_two_pass, tall_rows), then the split
/// kernel. H100, ms per 2^28 reals, two runs in one call (NOTES.md, session 24), against three
/// passes: 2^22 reals 1.44 against 1.62-1.63, 2^23 1.49 against 1.63-1.66, 2^24 1.54 against
/// 1.73-1.76, 2^25 1.56 against 1.81-1.82. Not the C2R below `c2r_split_log_m`, whose three
/// passes carry the split in their first (fuse_column_split): two passes and the (plain) split
/// kernel measured 1.46 / 1.51 / 1.56 against 1.37-1.39 / 1.40-1.42 / 1.52-1.54 at 2^22..2^24
/// (2^25 1.585 against 1.61-1.63).
/// `halves`: the 1-D R2C of 2^19..2^22 reals and the C2R of 2^20..2^24 in two tall passes
/// (RealLayout::halves) where both passes have at least 128 items. `small_512`: the 1-D R2C and
/// C2R of 512 reals on the medium real kernel (with `fuse`; false: the register-chained pass
/// with the split in its store or load, as before session 40, for A/B). `fast_dram`: the
/// choices of a fast-DRAM device (the H200): with `tall`, the R2C's row FFTs in
/// fast_dram_split's splits where it has one (PlanOptions::fast_dram: the R2C of 2^23, 2^26 and
/// 2^27 reals from 2^24 elements), and no R2C halves where tall_real::r2c_halves_on_fast_dram
/// says so (2^19 reals). `mirror_log_sequences`: the 1-D R2C and C2R of M = 128 D0 complex
/// points with D0 from 2^mirror_log_sequences to 4096 on the mirror pass (RealLayout::mirror,
/// with `fuse`; 0: never, below 9 it counts as 9), where its D0-point pass has
/// tall_pass::kMinItems items. `c2r_split_log_m`: the 1-D C2R of M >= 2^c2r_split_log_m
/// complex points (with `fuse`; 0: none) takes the split kernel into FP16 Z and then the row
/// FFT as the complex plan has it (with `tall`, its two-pass splits), instead of the split in
/// the first row pass's load (fuse_column_split); see kLogMinC2rSplitKernelM.
[[nodiscard]] Status build_real_layout(PlanDesc const& desc, RealLayout& layout, bool fuse = true,
                                       bool twin = true,
                                       int row_pairs_log_columns = kLogMinRowPairsColumns,
                                       bool tall = false, bool halves = false,
                                       bool small_512 = true, bool fast_dram = false,
                                       int mirror_log_sequences = 0,
                                       int c2r_split_log_m = 0) noexcept;

/// The real-plan buffer behind a complex sub-plan's Buffer (`column`: the column FFT's).
[[nodiscard]] RealBuffer real_buffer(RealLayout const& layout, bool column, Buffer buffer) noexcept;

}  // namespace fftcore::detail::tc
