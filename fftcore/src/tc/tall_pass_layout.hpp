// SPDX-License-Identifier: MIT
// The tall pass (kernels/tall_pass_kernel.cu): the column passes of L = 512..4096
// points (2-D transforms with that many rows; with pass twiddles, 1-D plans'), C adjacent columns
// per block at a time (C L = 2^14 words at 512 rows, 2^15 from 1024: C = 32, 32, 16, 8; log_item),
// kept in shared memory as FP16 words between three stages computed in FP32 registers. Its index
// maps and which passes it takes, shared by the kernel and the CPU tests.
//
// Why a kernel of its own: a column pass reads each row of its tile as one run of C adjacent
// columns, C x 4 bytes. The register-chained pass that ran the 4096-point ones
// (fast_pass_layout.hpp) holds a tile in FP32 shared memory, so 4096 points took 4 columns a
// tile: 16-byte runs, half a 32-byte sector, and ncu measured it at 26 % of DRAM bandwidth
// (2.4 ms of 4096x4096's 3.0, fftcore/NOTES.md session 21); the Stockham column variant keeps
// FP32 values and takes 16 columns at 512 and 1024, 8 at 2048. C columns of L FP16 words are
// 128 KiB for every L and fit in one SM: whole sectors at 4096, wider runs below.
//
// The stages are the decimation-in-frequency factorisation L = 16 x 16 x R3 (R3 = L / 256:
// 2..16), in place, per column; with n = n3 + R3 n2 + (L / 16) n1 and k = k1 + 16 k2 + 256 k3:
//   stage 1, butterfly b (< L / 16):      y1 = W_L^(b k1) DFT16_n1(x[b + (L / 16) n1])[k1]
//                                         at position b + (L / 16) k1;
//   stage 2, butterfly b0 + R3 k1:        y2 = W_(L/16)^(b0 k2) DFT16_n2(y1[b0 + R3 n2 + (L/16)
//   k1])[k2]
//                                         at position b0 + R3 k2 + (L / 16) k1;
//   stage 3, butterfly k1 + 16 k2 (< 256): X[k1 + 16 k2 + 256 k3] = DFT_R3_n3(y2[n3 + R3 k2 +
//   (L/16) k1])[k3].
// Stages 1 and 2 have C L / 16 butterflies q = c + C w (column c, butterfly w of its column),
// q thread q mod T's round q / T (T threads, 4 rounds); stage 3 has C x 256, G = 16 / R3 per thread
// and round. So a warp's lanes take 32 / C adjacent w of all C columns (C < 32) or 32 adjacent
// columns of one w: stage 1's loads and stage 3's stores touch whole runs of C x 4 bytes, and a
// thread keeps its column through every round. The word of position a of column c sits at
// slot(c, a) = C (a + a / (L / 16)) + c: stages 1 and 2 touch adjacent positions per warp
// access, stage 3 (C < 32) positions L / 16 apart, which the pad puts in distinct banks.
#pragma once

#include <cstdint>

#include "pass_params.hpp"

namespace fftcore::detail::tc::tall_pass {

inline constexpr int kMinLogLength = 9;   ///< 512 rows, 32 columns an item
inline constexpr int kMaxLogLength = 12;  ///< 4096 rows, 8 columns an item
inline constexpr int kLogRadix = 4;       ///< stages 1 and 2: radix 16
inline constexpr int kRadix = 1 << kLogRadix;
inline constexpr int kStages = 3;
/// Rounds per thread and stage (stages 1 and 2: one butterfly of radix 16 a round; stage 3: G
/// of radix R3).
inline constexpr int kLogRounds = 2;
inline constexpr int kRounds = 1 << kLogRounds;
/// Stage 3's butterflies per column: 256 (k1 + 16 k2) for every L.
inline constexpr int kLogLastButterflies = 2 * kLogRadix;

/// C L = 2^log_item FP16 words an item on 2^(log_item - 6) threads: 2^14 on 256 threads, two
/// blocks per SM, at 512 rows (C = 32: 128-byte runs); 2^15 on 512 threads, one block per SM,
/// from 1024 rows (C = 32 .. 8). H100, ms per 2^28 elements, three runs each in one call
/// (fftcore/NOTES.md, session 22): 2^14 against 2^15, 512x256 1.644-1.649 against 1.668-1.672,
/// 512x512 1.690-1.699 against 1.729-1.734, but 1024x1024 1.85-1.90 against 1.77, 2048x2048
/// 2.11 against 1.81 and 4096x4096 (4 columns) 3.8-3.9 against 1.93: the run length of a row
/// counts for more than the second block.
FFTCORE_HD constexpr int log_item(int log_l) { return log_l == kMinLogLength ? 14 : 15; }
/// The fewest items a pass should have for the tall pass's kernels to take it: about one per
/// SM of an H100 (132); with fewer, one item per block leaves most SMs idle (runs_tall_pass
/// has the measurement; the two-pass real transforms, real_layout.cpp: install_halves, keep to
/// it too).
inline constexpr std::int64_t kMinItems = 128;
FFTCORE_HD constexpr int log_threads(int log_l) { return log_item(log_l) - kLogRadix - kLogRounds; }
FFTCORE_HD constexpr int threads(int log_l) { return 1 << log_threads(log_l); }
FFTCORE_HD constexpr int blocks_per_sm(int log_l) { return 1 << (15 - log_item(log_l)); }

/// log2 of C, of R3, and of the butterflies per column of stages 1 and 2 (L / 16).
FFTCORE_HD constexpr int log_columns(int log_l) { return log_item(log_l) - log_l; }
FFTCORE_HD constexpr int log_last_radix(int log_l) { return log_l - 2 * kLogRadix; }
FFTCORE_HD constexpr int log_column_butterflies(int log_l) { return log_l - kLogRadix; }
/// Stage 3's butterflies per thread and round: G = 16 / R3.
FFTCORE_HD constexpr int log_last_group(int log_l) { return kLogRadix - log_last_radix(log_l); }
/// Thread j's butterflies within its column, stages 1 and 2: w = j / C + round_step u.
FFTCORE_HD constexpr int log_round_step(int log_l) {
  return log_threads(log_l) - log_columns(log_l);
}

/// Shared-memory words of an item: C (L + 16), the pad of one word per L / 16 positions.
FFTCORE_HD constexpr int slots(int log_l) { return ((1 << log_l) + kRadix) << log_columns(log_l); }

/// The shared-memory word of position a (< L) of column c (< C): C (a + a / (L / 16)) + c.
FFTCORE_HD constexpr int slot(int c, int a, int log_l) {
  return ((a + (a >> log_column_butterflies(log_l))) << log_columns(log_l)) + c;
}

// The rows form (rows_eligible): the last passes of 1-D plans, which read their sequences as
// rows (points adjacent, sequences in_stride[0] apart) and write them transposed (outputs
// out_elem_stride apart, sequences adjacent). Stages 2 and 3 and their thread deal are the
// column form's; stage 1 deals its butterflies so that a warp's lanes take 32 adjacent b of one
// sequence (every load 128 adjacent bytes of a row): thread j's butterfly b = j mod (L / 16) of
// sequence j / (L / 16) + (C / 4) u in round u (T = C L / 64 threads, a multiple of L / 16). Its
// stores (positions b + (L / 16) k of one column, 32 adjacent a) would meet only 32 / C banks in
// the padded layout, so the words' column bits are XORed with bits of the position:
// rows_slot(c, a) = slot(c, a) ^ ((a >> (5 - log C)) mod C), which makes those 32 stores cover
// 32 banks; every access of stages 2 and 3 touches, at each position it touches, all C
// columns, so their banks are those of the padded layout, conflict-free as there.

/// The shared-memory word of position a of column c in the rows form.
FFTCORE_HD constexpr int rows_slot(int c, int a, int log_l) {
  int const log_c = log_columns(log_l);
  return slot(c, a, log_l) ^ ((a >> (5 - log_c)) & ((1 << log_c) - 1));
}
/// Stage 1 of the rows form: the column (sequence of the item) and butterfly b of thread j in
/// round u.
FFTCORE_HD constexpr int rows_column(int j, int u, int log_l) {
  return (j >> log_column_butterflies(log_l)) + (u << (log_columns(log_l) - kLogRounds));
}
FFTCORE_HD constexpr int rows_butterfly(int j, int log_l) {
  return j & ((1 << log_column_butterflies(log_l)) - 1);
}

/// Butterfly q of a stage that thread j takes in round (stage 3: round and group) v, its
/// column and its index w within the column.
FFTCORE_HD constexpr int butterfly(int j, int v, int log_l) {
  return j + (v << log_threads(log_l));
}
FFTCORE_HD constexpr int column_of(int q, int log_l) { return q & ((1 << log_columns(log_l)) - 1); }
FFTCORE_HD constexpr int column_butterfly(int q, int log_l) { return q >> log_columns(log_l); }

/// Position (within its column) of input m of column butterfly w of stage s (0, 1, 2); each
/// butterfly writes output k to position(s, w, k) (stages 1 and 2: in place).
FFTCORE_HD constexpr int position(int s, int w, int m, int log_l) {
  int const lb = log_column_butterflies(log_l), lr3 = log_last_radix(log_l);
  // Stage 1: w = b, x[b + (L / 16) m]. Stage 2: w = b0 + R3 k1, y1 at b0 + R3 m + (L / 16) k1.
  // Stage 3: w = k1 + 16 k2, y2 at m + R3 k2 + (L / 16) k1.
  return s == 0   ? w + (m << lb)
         : s == 1 ? (w & ((1 << lr3) - 1)) + (m << lr3) + ((w >> lr3) << lb)
                  : m + ((w >> kLogRadix) << lr3) + ((w & (kRadix - 1)) << lb);
}

/// The padded layout's word of input m of column butterfly w of stage s (0, 1, 2) is the word of
/// its input 0 plus m input_step(s): a butterfly's inputs share the pad a / (L / 16) (stage 1:
/// b < L / 16, positions L / 16 apart, one pad word more each; stage 2: b0 + R3 m < L / 16;
/// stage 3: m + R3 k2 < L / 16), so they lie L / 16 + 1, R3 and 1 rows of C words apart. The
/// rows form's swizzle keeps stage 1's steps too (its XOR takes bits of b alone there).
/// One address and immediate offsets per butterfly instead of slot()'s LEA pair per input (the
/// <12> column kernel 3648 -> 3096 SASS instructions); H200, session 46 (NOTES.md item 1):
/// 4096x4096 1.584 -> 1.534 ms, 2^22 1.953 -> 1.796, 2^24 2.023 -> 1.858.
FFTCORE_HD constexpr int input_step(int s, int log_l) {
  int const log_c = log_columns(log_l);
  return s == 0   ? ((1 << log_column_butterflies(log_l)) + 1) << log_c
         : s == 1 ? 1 << (log_last_radix(log_l) + log_c)
                  : 1 << log_c;
}
/// The rows form's word of input m is (input 0's word ^ rows_input_xor(s, m)) + m input_step(s):
/// its swizzle XORs bits of the position, and a butterfly's input 0 and the offset of input m
/// (m R3 at stage 2, m at stage 3; at stage 1 none that reach the swizzle) hold disjoint bits.
FFTCORE_HD constexpr int rows_input_xor(int s, int m, int log_l) {
  int const log_c = log_columns(log_l);
  int const delta = s == 0 ? 0 : s == 1 ? m << log_last_radix(log_l) : m;
  return (delta >> (5 - log_c)) & ((1 << log_c) - 1);
}

/// The exponent e of the twiddle W_L^e that output k of column butterfly w of stage s is
/// multiplied by (stage 2's W_(L/16)^(b0 k2) is W_L^(16 b0 k2)); stage 3 has none.
FFTCORE_HD constexpr int twiddle_exponent(int s, int w, int k, int log_l) {
  int const mask = (1 << log_l) - 1;
  return s == 0   ? (w * k) & mask
         : s == 1 ? (((w & ((1 << log_last_radix(log_l)) - 1)) * k) << kLogRadix) & mask
                  : 0;
}

/// The output index (row within the column) of output k3 of stage 3's butterfly w = k1 + 16 k2.
FFTCORE_HD constexpr int output_index(int w, int k3) { return w + (k3 << kLogLastButterflies); }

/// Whether the tall pass can run `p`: FP16 in and out, 512 <= L <= 4096, no real split,
/// adjacent columns on both sides (stride[0] = 1) in whole items of C (D0 a multiple of C),
/// points at least C apart, and a layout safe to run in place item by item (an item's threads
/// read all of its columns before they write them). Load and store hooks it applies, and the
/// pass twiddles of 1-D transforms' first passes (twiddle_stride[0] the columns' step) when
/// there are no hooks. The planner's tiles are retiled to C at launch.
FFTCORE_HD inline bool eligible(PassParams const& p) {
  if (p.log_length < kMinLogLength || p.log_length > kMaxLogLength) return false;
  std::int64_t const c = std::int64_t{1} << log_columns(p.log_length);
  bool const hooked = p.load_factors != nullptr || p.store_factors != nullptr;
  return p.in_fp32 == 0 && p.out_fp32 == 0 && (p.log_twiddle_n == 0 || !hooked) && p.real_in == 0 &&
         p.real_out == 0 && p.real_pairs == 0 && p.real_in_columns == 0 && p.real_twin == 0 &&
         p.real_row_pairs == 0 && p.real_halves == 0 && p.in_stride[0] == 1 &&
         p.out_stride[0] == 1 && p.extent[0] % c == 0 && p.in_elem_stride >= c &&
         p.out_elem_stride >= c && (p.scatter != 0 || same_places(p));
}

/// Whether the rows form can run `p`: FP16 in and out, 512 <= L <= 4096, no load hook (a store
/// hook it applies: the fused chain's last pass), no pass twiddles, no real split; points
/// adjacent in its sequences (in_elem_stride 1), which lie at least L apart, and written
/// transposed: adjacent sequences (out_stride[0] = 1) in whole items of C, outputs at least C
/// apart, to the other buffer (scatter). The last passes of 1-D plans of two or three passes.
FFTCORE_HD inline bool rows_eligible(PassParams const& p) {
  if (p.log_length < kMinLogLength || p.log_length > kMaxLogLength) return false;
  std::int64_t const c = std::int64_t{1} << log_columns(p.log_length);
  return p.in_fp32 == 0 && p.out_fp32 == 0 && p.log_twiddle_n == 0 && p.load_factors == nullptr &&
         p.real_in == 0 && p.real_out == 0 && p.real_pairs == 0 &&
         p.real_in_columns == 0 && p.real_twin == 0 && p.real_row_pairs == 0 &&
         p.real_halves == 0 && p.in_elem_stride == 1 &&
         p.in_stride[0] >= (std::int64_t{1} << p.log_length) && p.out_stride[0] == 1 &&
         p.extent[0] % c == 0 && p.out_elem_stride >= c && p.scatter != 0;
}

}  // namespace fftcore::detail::tc::tall_pass
