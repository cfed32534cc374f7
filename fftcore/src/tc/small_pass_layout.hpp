// SPDX-License-Identifier: MIT
// The short pass (kernels/small_pass_kernel.cu): which passes it runs and which sequence of the
// tile each thread takes. Shared by the kernel and the CPU tests.
//
// A pass of L = 2 .. 16 points does about 1-4 flops per byte it moves, so it is bound by
// DRAM, not by arithmetic: the general kernel's round trip through FP32 shared memory, its
// tile gain and barriers made a 2-point strided pass over 2^28 elements take 1.2 ms on an H200
// against 0.51 ms for a copy. Here each thread takes whole sequences: it loads their FP16
// elements straight from global memory into registers (all loads of a round issued before any
// arithmetic), takes the L-point DFT, the pass twiddles and the scale in FP32, rounds once and
// stores. No shared memory, no barrier, no Tensor Cores.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::small {

inline constexpr int kMinLogLength = 1;  ///< L = 2
inline constexpr int kMaxLogLength = 4;  ///< L = 16 (2 sequences of 16 per round)
/// Threads per block: min(T, 256). The planner's tiles for L <= 16 hold T L = 2^9..2^13
/// elements (T >= 32), so a thread takes 1..32 / L sequences.
inline constexpr int kLogMaxThreads = 8;
/// Elements a thread loads in one round before it computes (32 4-byte loads in flight; the
/// planner's 2^13-element tiles are one round). Larger tiles loop over rounds.
inline constexpr int kLogRoundElements = 5;

/// Whether the short pass runs `p` (else the general pass kernel): FP16 in and out,
/// 2 <= L <= 16, no hooks (ExecuteHooks stay on the general kernel), and a layout safe to run in
/// place sequence by sequence: a thread writes a sequence only after reading it, so a pass that
/// does not scatter must write each sequence where it read it (every planner pass does; the
/// general kernel, which reads a whole tile before writing, would only need that per tile).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  return p.log_length >= kMinLogLength && p.log_length <= kMaxLogLength && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
         p.real_pairs == 0 && (p.scatter != 0 || same_places(p));
}

/// Whether every sequence's L elements are adjacent on both sides and start at a multiple of L
/// elements (1-D transforms of n <= 8, the rows of 2-D transforms of <= 8 columns): the kernel
/// then moves a sequence with one or two 8- or 16-byte accesses where the buffers are aligned
/// to that, so that a warp touches 32 L adjacent words per access rather than words L apart.
FFTCORE_HD inline bool contiguous(PassParams const& p) {
  std::int64_t const low_bits = (std::int64_t{1} << p.log_length) - 1;
  bool ok = p.in_elem_stride == 1 && p.out_elem_stride == 1;
  for (int i = 0; i < kDigits; ++i) {
    ok = ok && (p.in_stride[i] & low_bits) == 0 && (p.out_stride[i] & low_bits) == 0;
  }
  return ok;
}

/// Whether the kernel stages a warp's sequences through shared memory (packed_slot): L = 8 or
/// 16, sequences back to back on both sides (stride L, contiguous), tiles of at least a warp's
/// 32 sequences. One lane's own 32- or 64-byte sequence put a warp's 16-byte accesses 32 or 64
/// bytes apart, each touching half or a quarter of the sectors it fetched (H200, 2^28
/// elements: 2^3 at 79 %, 2^4 at 69 % of the copy bandwidth, against 97-99 % at 2^1, 2^2 whose
/// sequences are one access). Staged, every warp access covers 512 adjacent bytes.
FFTCORE_HD inline bool packed(PassParams const& p) {
  return p.log_length >= 3 && contiguous(p) && p.log_tile >= 5 &&
         p.in_stride[0] == (std::int64_t{1} << p.log_length) &&
         p.out_stride[0] == (std::int64_t{1} << p.log_length);
}

/// The 16-byte slot of part `part` (4 words) of sequence s (< 32) of a warp's staging buffer:
/// sequences back to back, the part XOR-swizzled by the sequence's bits above the 128-byte
/// line (L = 16: two sequences per line, L = 8: four), so that both the linear accesses (lane
/// c takes part c mod (L/4) of sequence c / (L/4)) and the per-sequence ones (lane s takes
/// part `part` of sequence s) hit eight distinct 16-byte bank groups per quarter warp.
FFTCORE_HD constexpr int packed_slot(int s, int part, int log_l) {
  return (s << (log_l - 2)) + (part ^ ((s >> (5 - log_l)) & ((1 << (log_l - 2)) - 1)));
}

/// log2 of the block size for tiles of T = 2^log_tile sequences.
FFTCORE_HD constexpr int log_threads(int log_tile) {
  return log_tile < kLogMaxThreads ? log_tile : kLogMaxThreads;
}

/// log2 of the sequences a thread takes per round.
FFTCORE_HD constexpr int log_round_sequences(int log_l) { return kLogRoundElements - log_l; }

/// The tile sequence t of sequence j of thread `tid` (j counts over all rounds): consecutive
/// threads on consecutive t, so that where d0 has unit stride (strided passes: adjacent
/// columns) every load and store of a warp covers 32 adjacent elements. t >= T for the
/// padding sequences of the last round when T / threads is not a multiple of the round.
FFTCORE_HD constexpr int tile_sequence(int tid, int j, int log_threads) {
  return tid + (j << log_threads);
}

}  // namespace fftcore::detail::tc::small
