// SPDX-License-Identifier: MIT
// The tall pass (kernels/tall_pass_kernel.cu): the untwiddled column passes of L = 4096 points
// (2-D transforms with 4096 rows), eight adjacent columns per block at a time, kept in shared
// memory as FP16 words between three radix-16 stages computed in FP32 registers. Its index maps
// and which passes it takes, shared by the kernel and the CPU tests.
//
// Why a kernel of its own: a column pass reads each row of its tile as one run of C adjacent
// columns, C x 4 bytes. The register-chained pass that ran these (fast_pass_layout.hpp) holds
// a tile in FP32 shared memory, so 4096 points take 4 columns a tile: 16-byte runs, half a
// 32-byte sector, and ncu measured it at 26 % of DRAM bandwidth (2.4 ms of 4096x4096's 3.0,
// fftcore/NOTES.md session 21). Eight columns of 4096 FP16 words are 128 KiB and fit in one
// SM: whole sectors, as the long pass (long_pass_layout.hpp) keeps 2^15 points.
//
// The stages are the decimation-in-frequency factorisation 4096 = 16 x 16 x 16, in place, per
// column; with n = b + 256 j (b < 256) and k = k1 + 16 k2 + 256 k3:
//   stage 1, butterfly b:           y1[b, k1] = W_4096^(b k1) DFT16_j(x[b + 256 j])[k1]
//                                   at position b + 256 k1;
//   stage 2, butterfly b0 + 16 k1:  y2 = W_256^(b0 k2) DFT16_b1(y1[b0 + 16 b1 + 256 k1])[k2]
//                                   at position b0 + 16 k2 + 256 k1;
//   stage 3, butterfly k1 + 16 k2:  X[k1 + 16 k2 + 256 k3] = DFT16_b0(y2[b0 + 16 k2 + 256 k1])[k3].
// A stage has 8 x 256 butterflies q = c + 8 w (column c, butterfly w of its column); q is thread
// q mod 512's round q / 512, so that a warp's lanes take the 8 columns of 4 adjacent w: stage
// 1's loads and stage 3's stores touch 4 rows x 32 bytes per warp access (whole sectors), and
// a thread keeps its column through the rounds. The word of position a of column c sits at
// slot(c, a) = 8 a + c + 8 (a / 256): stages 1 and 2 touch 4 adjacent positions per warp
// access (32 adjacent words), stage 3 positions 256 apart (k1 across the lanes), which the pad
// of 8 words per 256 positions puts in distinct banks.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::tall_pass {

inline constexpr int kLogLength = 12;  ///< L = 4096
inline constexpr int kLogColumns = 3;  ///< C = 8 adjacent columns per item
inline constexpr int kColumns = 1 << kLogColumns;
inline constexpr int kLogRadix = 4;  ///< three stages of radix 16
inline constexpr int kRadix = 1 << kLogRadix;
inline constexpr int kStages = 3;
inline constexpr int kLogThreads = 9;  ///< 512 threads
inline constexpr int kThreads = 1 << kLogThreads;
/// Butterflies per column and stage (256) and per item (2048); rounds per thread and stage.
inline constexpr int kLogColumnButterflies = kLogLength - kLogRadix;
inline constexpr int kLogButterflies = kLogColumnButterflies + kLogColumns;
inline constexpr int kLogRounds = kLogButterflies - kLogThreads;
inline constexpr int kRounds = 1 << kLogRounds;
/// Thread j's butterflies within its column: w = j / 8 + kRoundStep u in round u.
inline constexpr int kRoundStep = 1 << (kLogColumnButterflies - kLogRounds);

/// Shared-memory words of an item: 8 x 4096 and a pad of 8 per 256 positions.
inline constexpr int kSlots = (kColumns << kLogLength) + (kColumns << (kLogLength - 8));

/// The shared-memory word of position a (< L) of column c (< 8): 8 a + c + 8 (a / 256).
FFTCORE_HD constexpr int slot(int c, int a) { return ((a + (a >> 8)) << kLogColumns) + c; }

/// Butterfly q (< 2048) of a stage that thread j takes in round u, its column and its index w
/// within the column.
FFTCORE_HD constexpr int butterfly(int j, int u) { return j + (u << kLogThreads); }
FFTCORE_HD constexpr int column_of(int q) { return q & (kColumns - 1); }
FFTCORE_HD constexpr int column_butterfly(int q) { return q >> kLogColumns; }

/// Position (within its column) of input m of column butterfly w of stage s (0, 1, 2); each
/// butterfly writes output k to position(s, w, k) (stages 1 and 2: in place).
FFTCORE_HD constexpr int position(int s, int w, int m) {
  // Stage 1: w = b, x[b + 256 m]. Stage 2: w = b0 + 16 k1, y1 at b0 + 16 m + 256 k1.
  // Stage 3: w = k1 + 16 k2, y2 at m + 16 k2 + 256 k1.
  return s == 0   ? w + (m << kLogColumnButterflies)
         : s == 1 ? (w & (kRadix - 1)) + (m << kLogRadix) + ((w >> kLogRadix) << 8)
                  : m + ((w >> kLogRadix) << kLogRadix) + ((w & (kRadix - 1)) << 8);
}

/// The exponent e of the twiddle W_4096^e that output k of column butterfly w of stage s is
/// multiplied by (stage 2's W_256^(b0 k2) is W_4096^(16 b0 k2)); stage 3 has none.
FFTCORE_HD constexpr int twiddle_exponent(int s, int w, int k) {
  return s == 0   ? (w * k) & ((1 << kLogLength) - 1)
         : s == 1 ? (((w & (kRadix - 1)) * k) << kLogRadix) & ((1 << kLogLength) - 1)
                  : 0;
}

/// The output index (row within the column) of output k3 of stage 3's butterfly w = k1 + 16 k2.
FFTCORE_HD constexpr int output_index(int w, int k3) { return w + (k3 << 8); }

/// Whether the tall pass runs `p`: FP16 in and out, L = 4096, no pass twiddle, no real split,
/// adjacent columns on both sides (stride[0] = 1) in whole items of 8 (D0 a multiple of 8),
/// points at least 8 apart, and a layout safe to run in place item by item (an item's threads
/// read all of its columns before they write them). Load and store hooks it applies. The
/// planner's tiles (4 columns) are retiled to 8 at launch.
FFTCORE_HD inline bool eligible(PassParams const& p) {
  return p.log_length == kLogLength && p.in_fp32 == 0 && p.out_fp32 == 0 && p.log_twiddle_n == 0 &&
         p.real_in == 0 && p.real_out == 0 && p.real_pairs == 0 && p.real_in_columns == 0 &&
         p.real_twin == 0 && p.real_row_pairs == 0 && p.in_stride[0] == 1 && p.out_stride[0] == 1 &&
         p.extent[0] % kColumns == 0 && p.in_elem_stride >= kColumns &&
         p.out_elem_stride >= kColumns && (p.scatter != 0 || same_places(p));
}

}  // namespace fftcore::detail::tc::tall_pass
