// SPDX-License-Identifier: MIT
// The warp pass (kernels/warp_pass_kernel.cu): untwiddled FP16 passes of L = 32, 64, 128
// points over contiguous sequences (1-D transforms of those sizes, rows of 2-D transforms),
// on CUDA cores. Which passes it takes and every index map of it, shared by the kernel and the
// CPU tests.
//
// The general kernel ran these lengths at 26-34 % of the copy bandwidth (H200): a radix-16
// merge on Tensor Cores with hi/lo operand splits and a radix-2..8 merge, each through FP32
// shared memory behind block barriers, plus the tile gain, for a pass that moves 8 bytes per
// point and needs ~5 log2 L flops per point. Here a sequence belongs to a group of 8 lanes of
// one warp, L = R1 x 8 (R1 = L / 8 = 4, 8, 16):
//   step 1: lane p of the group loads x[8 n1 + p], n1 < R1 (for a fixed n1 the 8 lanes read
//           one whole 32-byte sector), takes the R1-point DFT over n1 in FP32 registers
//           (radix-2/4 butterflies), multiplies output k1 by scale W_L^(p k1) and writes it to
//           the warp's shared memory;
//   step 2: after __syncwarp, lane q takes two of the group's 16 columns d = s R1 + k1
//           (d = 2q, 2q + 1: sequence s, adjacent k1 and k1 + 1), reads their 8 values over p,
//           takes the 8-point DFT over p (radix-2 butterflies) and stores
//           X[k1 + R1 k2] and X[k1 + 1 + R1 k2], k2 < 8 (two adjacent words: one 8-byte store
//           where aligned).
// X[k1 + R1 k2] = sum_p W_8^(p k2) W_L^(p k1) sum_n1 W_R1^(n1 k1) x[8 n1 + p] is the DFT.
// A group takes S = 16 / R1 sequences per round, so every lane has 16 loads in flight before
// it computes; one FP16 rounding at the store; no block barrier, no Tensor Cores.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::warp_pass {

inline constexpr int kMinLogLength = 5;  ///< L = 32
inline constexpr int kMaxLogLength = 7;  ///< L = 128
inline constexpr int kLogLanes = 3;      ///< lanes per group: the 8-point DFT of step 2
inline constexpr int kLogValues = 4;     ///< values a lane holds per round (16)
inline constexpr int kLogMaxThreads = 8;
/// float2 slots of one group's exchange area: 16 columns of 8, plus 8 so that the two groups
/// of a half-warp fall on different halves of the 32 banks.
inline constexpr int kGroupSlots = (1 << kLogValues) * (1 << kLogLanes) + 8;
inline constexpr int kWarpSlots = 4 * kGroupSlots;

/// Whether the warp pass runs `p` (else the general pass kernel): FP16 in and out,
/// 32 <= L <= 128, no hooks, no pass twiddle, unit element strides on both sides (each
/// sequence's points adjacent), a tile of at least one warp's 32 x 16 values (the planner's
/// smallest tiles hold 2^9), and a layout safe to run in place group by group (a group reads
/// all its sequences before it writes them, into the places it read).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  return p.log_length >= kMinLogLength && p.log_length <= kMaxLogLength &&
         p.log_tile + p.log_length >= 5 + kLogValues && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
         p.conjugate_store == 0 && p.real_in == 0 && p.real_out == 0 && p.log_twiddle_n == 0 &&
         p.in_elem_stride == 1 && p.out_elem_stride == 1 && (p.scatter != 0 || same_places(p));
}

/// Whether every store pair X[k1], X[k1 + 1] (k1 even) lies on an 8-byte boundary relative to
/// the destination: every output stride even (the pointer's alignment is the launcher's check).
FFTCORE_HD inline bool even_outputs(PassParams const& p) {
  bool ok = true;
  for (int i = 0; i < kDigits; ++i) ok = ok && (p.out_stride[i] & 1) == 0;
  return ok;
}

/// log2 of R1 = L / 8, the length of step 1's DFTs.
FFTCORE_HD constexpr int log_r1(int log_l) { return log_l - kLogLanes; }
/// log2 of S, the sequences a group takes per round (S L = 128 = 8 lanes x 16 values).
FFTCORE_HD constexpr int log_group_sequences(int log_l) {
  return kLogValues + kLogLanes - log_l;
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

/// The tile sequence of slot s (< S) of group `group` (thread index >> 3) in round r: groups
/// on consecutive runs of S sequences, so that a warp's four groups cover 4 S L = 512 adjacent
/// points.
FFTCORE_HD constexpr int tile_sequence(int round, int group, int s, int log_threads,
                                       int log_l) {
  return (round << (log_threads - kLogLanes + log_group_sequences(log_l))) +
         (group << log_group_sequences(log_l)) + s;
}

/// The exchange slot (float2, within the warp's kWarpSlots) of column d (< 16) and lane p
/// (< 8) of group g (< 4) of the warp: rows of 8, XOR-swizzled by the column pair d >> 1, so
/// that step 1's writes (d fixed, p across lanes) and step 2's reads (p fixed, d = 2q + e
/// across lanes q) both hit 16 distinct float2 banks per half-warp.
FFTCORE_HD constexpr int exchange_slot(int g, int d, int p) {
  return g * kGroupSlots + (d << kLogLanes) + (p ^ ((d >> 1) & 7));
}

}  // namespace fftcore::detail::tc::warp_pass
