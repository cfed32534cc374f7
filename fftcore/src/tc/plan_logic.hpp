// SPDX-License-Identifier: MIT
// Host planning of the Tensor Core backend: which descriptors it does, how a transform is
// factorised into global-memory passes (each a few fused merges in shared memory), which buffer
// each pass reads and writes, and how much workspace that takes. Pure host code, no device
// needed: the CPU tests check it, and a CPU emulation of the passes checks the index maps.
#pragma once

#include <fftcore/fftcore.hpp>

#include "pass_params.hpp"

#include <cstddef>
#include <vector>

namespace fftcore::detail::tc {

/// The passes of one plan, in execution order, and the workspace they need.
struct PassLayout {
  std::vector<PassParams> passes;
  std::size_t workspace_bytes = 0;
};

/// Planner knobs (defaults are the product's choice; tests may vary them).
struct PlanOptions {
  bool fp32_intermediate = false;  ///< keep the data between passes in FP32 (2x workspace)
  /// log2 pass lengths (at most 3, each 1..14, or 15 alone: the long pass) for every axis of
  /// 2^(their sum) points, in place of split_length's choice: for A/B measurements
  /// (FFTCORE_TC_SPLIT, see split_override).
  std::vector<int> split;
  /// Strided register-chained passes (L = 256..4096 over adjacent columns) take at least
  /// 2^strided_log_columns adjacent columns where the tile then holds at most
  /// 2^strided_log_elements elements: 16 columns (64-byte segments) up to L = 512 by default.
  /// With 8, the 2^27 transform (three 512-point passes) ran 5 % slower (H200, session 3); 32
  /// columns were slower everywhere (2^16..2^27, 256x256: 1-13 %), and 16 for L = 1024
  /// (1024-thread tiles) 1-7 % slower at 2^20 and 2^23 since the block constants come from a
  /// table (NOTES.md, session 6). FFTCORE_TC_COLUMNS="c,e" sets both, for A/B measurements.
  int strided_log_columns = 4;
  int strided_log_elements = 13;
  /// At most 2^strided_max_log_tile sequences per tile for strided register-chained passes,
  /// below the whole segments above if need be (fewer, smaller blocks; the L2 then merges the
  /// partial sectors of neighbouring blocks). FFTCORE_TC_STRIDED_TILE="t", for A/B measurements.
  int strided_max_log_tile = kLogMaxBlockElements;
  /// The axis's first pass reads or its last pass writes FP32 (the real transforms' Z), so no
  /// register-chained pass can take a whole 8192- or 16384-point axis: split_length keeps those
  /// as a short pass and a 4096-point one.
  bool fp32_ends = false;
  /// 1-D 2^21..2^23 from 2^24 elements in all as two passes, a twiddled 4096-point column pass
  /// on the tall pass (tall_pass_layout.hpp) and a 512..2048-point row pass, instead of three
  /// (H100, same call, ms per 2^28 elements: 2^21 2.04-2.05 against 2.40, 2^22 2.15-2.17
  /// against 2.44-2.45, 2^23 2.27-2.28 against 2.65; fftcore/NOTES.md, session 22). Set by the
  /// complex Tensor Core plan unless FFTCORE_TC_TALL_PASS=0 (the tall pass off, where the
  /// register-chained pass would take the 4096-point column pass: 3.5-3.8 ms).
  bool tall_two_pass = false;
  /// With tall_two_pass, 2^24 as two passes of 4096 points too: its last pass, read as rows
  /// and written transposed, on the tall pass's rows form (tall_pass::rows_eligible), which
  /// the register-chained pass took at 4.87 ms against three passes' 2.81 (session 22). Set
  /// by the complex plan unless FFTCORE_TC_TALL_ROWS=0.
  bool tall_rows = false;
  /// 1-D 2^16 from 2^22 elements as one split pass of the long pass (long_pass_layout.hpp)
  /// instead of two. The complex plans take it; the real plans' row FFTs (build_axis_layout)
  /// keep the two passes, which take the R2C / C2R split into a pass of their own (H100, ms per
  /// 2^28 reals of 2^17 points: R2C 1.03-1.04 and C2R 0.97 that way, 1.09 both with the split
  /// pass and the split kernel, in session 28's runs; fftcore/NOTES.md, session 28).
  bool long_split = true;
  /// The device is fast-DRAM (dram_balance.hpp: the H200, not the H100): 1-D sizes in batches of
  /// 2^24 elements and more take fast_dram_split's splits where it has one. Set by the complex
  /// plan from the device (fast_dram_device, FFTCORE_TC_FAST_DRAM=0/3 for A/B).
  bool fast_dram = false;
};

/// The split of 2^log_n points (1-D: vector 1) measured faster on fast-DRAM devices than
/// split_length's, for `total` elements in all, or an empty vector where split_length's stands.
/// Only from 2^24 elements (the batches the bench measured) and with the tall pass's two-pass
/// plans on (`tall_two_pass`, `tall_rows`), whose 4096-point passes these splits use.
[[nodiscard]] std::vector<int> fast_dram_split(int log_n, std::int64_t vector, std::int64_t total,
                                               bool fp32_ends, bool tall_two_pass, bool tall_rows);

/// The split that FFTCORE_TC_SPLIT="a,b[,c]" asks for (log2 pass lengths), or an empty vector
/// when it is unset or malformed (then split_length decides).
[[nodiscard]] std::vector<int> split_override(char const* text);

/// kSuccess when the Tensor Core backend does `desc`: FP16; rank 1 with n = 2^k, k = 1..27;
/// rank 2 with both dims 2^k, k = 1..14, and rows * cols <= 2^27; any batch >= 1. The same
/// sizes for every Transform kind (n counts the real points of R2C / C2R).
[[nodiscard]] Status check_descriptor(PlanDesc const& desc) noexcept;

/// Builds the passes of `desc` (which must pass check_descriptor) into `layout`.
[[nodiscard]] Status build_layout(PlanDesc const& desc, PlanOptions const& options,
                                  PassLayout& layout) noexcept;

/// The passes of batch x vector FFTs of 2^log_n points on data laid out
/// [batch][2^log_n][vector] (`vector` need not be a power of two: the last tile of columns is
/// partial), each pass scaled by its share of `scaling`, FP16 between passes. The first pass
/// reads kIn, the last writes kOut. Used by the real transforms (real_layout.cpp) for their
/// row FFTs (vector 1, `fp32_ends`: they read or write FP32 Z) and their column FFTs over
/// cols/2 + 1 columns.
/// in_pitch / out_pitch (0: vector): the row pitch of kIn / kOut where it is padded beyond
/// `vector` (the real transforms' FP16 half spectrum, rows of M + 1 padded to 32 bytes).
/// `tall`: PlanOptions::tall_two_pass and tall_rows (the 1-D real transforms' row FFTs);
/// `fast_dram`: PlanOptions::fast_dram (with `tall`: fast_dram_split's splits). `split`: the
/// log2 pass lengths to take (PlanOptions::split; empty: the choices above).
[[nodiscard]] Status build_axis_layout(int log_n, std::int64_t vector, std::int64_t batch,
                                       Scaling scaling, PassLayout& layout, bool fp32_ends = false,
                                       std::int64_t in_pitch = 0, std::int64_t out_pitch = 0,
                                       bool tall = false, bool fast_dram = false,
                                       std::vector<int> const& split = {}) noexcept;

/// Sets the block_origin shortcuts of `p` (PassParams::log_tiles0 ... block_out_step) from its
/// digits and strides; build_layout and build_axis_layout call it for every pass.
void set_origin_shortcuts(PassParams& p) noexcept;

/// `p` with the sequences along d0 regrouped in tiles of 2^log_tile (the same sequences, in a
/// kernel's own item width: the column kernels retile the planner's tiles at launch), with
/// tiles0, blocks and the block_origin shortcuts to match; a partial last tile where
/// 2^log_tile does not divide D0.
[[nodiscard]] PassParams retiled(PassParams const& p, int log_tile) noexcept;

/// log2 of the pass lengths a transform of 2^log_n points along an axis with `vector`
/// adjacent independent columns (1 for a contiguous axis) is split into (PlanOptions::fp32_ends
/// for `fp32_ends`), for `total` elements in all (0: unknown, treated as small), with
/// PlanOptions::tall_two_pass, tall_rows and long_split for `tall_two_pass`, `tall_rows` and
/// `long_split`.
[[nodiscard]] std::vector<int> split_length(int log_n, std::int64_t vector, bool fp32_ends = false,
                                            std::int64_t total = 0, bool tall_two_pass = false,
                                            bool tall_rows = false, bool long_split = true);

}  // namespace fftcore::detail::tc
