// SPDX-License-Identifier: MIT
// The warp pass (kernels/warp_pass_kernel.cu): untwiddled FP16 passes of L = 32 .. 256
// points over contiguous sequences (1-D transforms of those sizes, rows of 2-D transforms),
// on CUDA cores. Which passes it takes and every index map of it, shared by the kernel and the
// CPU tests.
//
// The general kernel ran these lengths at 26-34 % of the copy bandwidth (H200): a radix-16
// merge on Tensor Cores with hi/lo operand splits and a radix-2..8 merge, each through FP32
// shared memory behind block barriers, plus the tile gain, for a pass that moves 8 bytes per
// point and needs ~5 log2 L flops per point. Here a sequence belongs to a group of P lanes of
// one warp (P = 4, 8, 8, 16 for L = 32, 64, 128, 256), L = R1 x P (R1 = L / P = 8, 8, 16,
// 16):
//   step 1: lane p of the group loads x[P n1 + p], n1 < R1 (for a fixed n1 the group reads
//           P adjacent words), takes the R1-point DFT over n1 in FP32 registers (radix-2
//           butterflies), multiplies output k1 by scale W_L^(p k1) and writes it to the warp's
//           shared memory;
//   step 2: after __syncwarp, lane q takes C = 16 / P of the group's 16 columns
//           d = s R1 + k1, d = C q + e (e < C: one sequence s, adjacent k1), reads their P
//           values over p, takes the P-point DFTs over p and stores X[k1 + e + R1 k2], k2 < P
//           (C adjacent words: one 8- or 16-byte store where aligned; C = 1 at L = 256).
// X[k1 + R1 k2] = sum_p W_P^(p k2) W_L^(p k1) sum_n1 W_R1^(n1 k1) x[P n1 + p] is the DFT.
// A group takes S = 16 P / L sequences per round, so every lane has 16 loads in flight before
// it computes; one FP16 rounding at the store; no block barrier, no Tensor Cores.
// P = 4 at L = 32: with 8 lanes (R1 = 4) a store instruction covered only 16 bytes of each
// sequence (k1 = 0..3 of one k2), and the pass ran at 63 % of the copy bandwidth against 84 %
// at L = 64; with 4 lanes each store covers 8 adjacent words (32 bytes) of a sequence.
// L = 256 (two 16-point DFTs in FP32, radix-2 butterflies on CUDA cores) also takes the untwiddled
// contiguous passes the register-chained Tensor Core pass took (fast_pass_layout.hpp): those
// run ~65 instructions per point there (issue-bound, 74 % of the copy bandwidth), ~40 here.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::warp_pass {

inline constexpr int kMinLogLength = 5;  ///< L = 32
inline constexpr int kMaxLogLength = 8;  ///< L = 256
inline constexpr int kLogValues = 4;     ///< values a lane holds per round (16)
inline constexpr int kLogMaxThreads = 8;
/// float2 slots of a warp's exchange area: 32 / P groups of 16 columns of P slots, each group
/// padded by P slots so that the groups of a half-warp fall on different banks.
inline constexpr int kWarpSlots = 17 * 32;  // (32 / P) x 17 P

/// log2 of P, the lanes of a group (the length of step 2's DFTs).
FFTCORE_HD constexpr int log_lanes(int log_l) { return log_l == 5 ? 2 : log_l == 8 ? 4 : 3; }
/// log2 of C = 16 / P, the adjacent columns (outputs) a lane takes in step 2.
FFTCORE_HD constexpr int log_columns(int log_l) { return kLogValues - log_lanes(log_l); }

/// Whether the warp pass runs `p` (else the general pass kernel): FP16 in and out,
/// 32 <= L <= 256, no hooks, no pass twiddle, unit element strides on both sides (each
/// sequence's points adjacent), a tile of at least one warp's 32 x 16 values (the planner's
/// smallest tiles hold 2^9), and a layout safe to run in place group by group (a group reads
/// all its sequences before it writes them, into the places it read).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  return p.log_length >= kMinLogLength && p.log_length <= kMaxLogLength &&
         p.log_tile + p.log_length >= 5 + kLogValues && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
         p.conjugate_store == 0 && p.real_in == 0 && p.real_out == 0 && p.real_pairs == 0 &&
         p.log_twiddle_n == 0 &&
         p.in_elem_stride == 1 && p.out_elem_stride == 1 && (p.scatter != 0 || same_places(p));
}

/// Whether every lane's C adjacent outputs X[k1 .. k1 + C) (k1 a multiple of C) lie on a
/// 4 C-byte boundary relative to the destination: every output stride a multiple of C (the
/// pointer's alignment is the launcher's check).
FFTCORE_HD inline bool aligned_outputs(PassParams const& p) {
  std::int64_t const c_mask = (std::int64_t{1} << log_columns(p.log_length)) - 1;
  bool ok = true;
  for (int i = 0; i < kDigits; ++i) ok = ok && (p.out_stride[i] & c_mask) == 0;
  return ok;
}

/// log2 of R1 = L / P, the length of step 1's DFTs.
FFTCORE_HD constexpr int log_r1(int log_l) { return log_l - log_lanes(log_l); }
/// log2 of S, the sequences a group takes per round (S L = 16 P: P lanes x 16 values).
FFTCORE_HD constexpr int log_group_sequences(int log_l) {
  return kLogValues + log_lanes(log_l) - log_l;
}
/// log2 of the block size for tiles of 2^log_tile sequences: 16 values per thread, at most
/// 256 threads (the planner's tiles hold >= 2^9 elements: at least one warp).
FFTCORE_HD constexpr int log_threads(int log_tile, int log_l) {
  return log_tile + log_l - kLogValues < kLogMaxThreads ? log_tile + log_l - kLogValues
                                                        : kLogMaxThreads;
}
/// log2 of the rounds a block takes over its tile.
FFTCORE_HD constexpr int log_rounds(int log_tile, int log_l) {
  return log_tile + log_l - kLogValues - log_threads(log_tile, log_l);
}

/// The tile sequence of slot s (< S) of group `group` (thread index >> log2 P) in round r:
/// groups on consecutive runs of S sequences, so that a warp's 32 / P groups cover
/// 32 / P x S L = 512 adjacent points.
FFTCORE_HD constexpr int tile_sequence(int round, int group, int s, int log_threads,
                                       int log_l) {
  return (round << (log_threads - log_lanes(log_l) + log_group_sequences(log_l))) +
         (group << log_group_sequences(log_l)) + s;
}

/// The exchange slot (float2, within the warp's kWarpSlots) of column d (< 16) and lane p
/// (< P) of group g (< 32 / P) of the warp: rows of P, XOR-swizzled by the lane that reads
/// the column in step 2 (d >> log2 C), groups 17 P slots apart, so that step 1's writes
/// (d fixed, p across lanes) and step 2's reads (p fixed, d = C q + e across lanes q) both
/// hit 16 distinct float2 banks per half-warp.
FFTCORE_HD constexpr int exchange_slot(int g, int d, int p, int log_l) {
  int const lp = log_lanes(log_l);
  return g * (17 << lp) + (d << lp) + (p ^ ((d >> log_columns(log_l)) & ((1 << lp) - 1)));
}

}  // namespace fftcore::detail::tc::warp_pass
