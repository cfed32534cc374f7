// SPDX-License-Identifier: MIT
// The mirror pass (kernels/mirror_pass_kernel.cu): the last pass of a 1-D R2C of N = 2M reals,
// M = D0 x 128, D0 = 512..4096 (2^17..2^20 reals), that writes the half spectrum in natural
// order with the split in its store (RealLayout::mirror); and backwards
// (kernels/mirror_c2r_kernel.cu) the first pass of the C2R, which reads the half spectrum in
// natural order with the split in its load, each pair once, and writes Y[k_lo][n] times the
// pass twiddles W_M^(-n k_lo) for the inverse column FFT of D0 points after it. Its index maps,
// shared by the kernels and the CPU tests.
//
// The row FFT of M points runs as the complex plan of split {log D0, 7}: pass 1 (the tall pass,
// or the register-chained pass at D0 = 512) takes the D0-point DFTs down the 128 columns
// n_lo of z[n_lo + 128 n_hi] and their twiddles W_M^(n_lo k_lo), and leaves Y[k_lo][n_lo] in
// the workspace: D0 sequences of 128 adjacent words. This pass takes the 128-point DFTs of those
// sequences, Z[k_lo + D0 k_hi] = sum_n Y[k_lo][n] W_128^(n k_hi), so that sequence k_lo's
// outputs land D0 apart and a warp's 32 adjacent sequences write 32 adjacent words of X.
// The split (real_split.hpp) pairs Z[k] with Z[M - k]; for k = k_lo + D0 k_hi with k_lo != 0
// that is M - k = (D0 - k_lo) + D0 (127 - k_hi): sequence D0 - k_lo, output 127 - k_hi. So a
// block takes two groups of 32 sequences, A_t = 32 g + t and their mirrors B_t = D0 - A_t
// (t < 32), the groups g < D0 / 64 of a transform covering A = 0 .. D0/2 - 1 and B = D0/2 + 1
// .. D0 - 1; sequence 0 is its own mirror (k and M - k both in it: outputs k_hi and 128 -
// k_hi), and so is D0 / 2 (outputs k_hi and 127 - k_hi), which lane 0 of group 0 takes as its
// B sequence in place of 0. After both groups' DFTs, Z (FP32) sits in shared memory and the
// block writes X[k] and X[M - k] of each pair: lanes over t, so that both stores are 32
// adjacent words (the B side in descending order), whole 128-byte runs but for the rows' M + 1
// offsets. X[M] rides with X[0], X[M / 2] too (real_split.hpp's item 0).
//
// The DFTs are the column pass's (column_pass_layout.hpp) with the sequences in shared memory:
// the block first copies its 64 sequences there (a warp reads 32 adjacent words of one
// sequence per load: 128-byte lines), rows of kPitch = 129 words so that lane t reading word n
// of sequence t meets bank (t + n) mod 32; then per group step 1 (warp p, lane t: 16-point DFT
// of words 8 n1 + p of sequence t, times scale W_128^(p k1), to the exchange at [k1][p][t]) and
// step 2 (the 8-point DFTs of k1 = 2 w, 2 w + 1 over p). Both groups' Z go to the Z buffer
// [h][k_hi][t] (h = 0: A, 1: B) over the staging words and the exchange; by default group A's
// in FP16 over its own staging rows right after its step 2 (half_z_word), so that the kernel
// holds nothing across group B's step 1 and fits three blocks per SM.
#pragma once

#include <cstdint>

#include "pass_params.hpp"

namespace fftcore::detail::tc::mirror_pass {

inline constexpr int kLogLength = 7;  ///< 128-point DFTs
inline constexpr int kLength = 1 << kLogLength;
inline constexpr int kLogGroup = 5;   ///< 32 sequences a group, one per lane
inline constexpr int kGroup = 1 << kLogGroup;
inline constexpr int kSequences = 2 * kGroup;  ///< a block's: groups A and B
inline constexpr int kLogR1 = 4;               ///< step 1: 16-point DFTs
inline constexpr int kLogWarps = kLogLength - kLogR1;  ///< P = 8 warps: step 2's 8-point DFTs
inline constexpr int kWarps = 1 << kLogWarps;
inline constexpr int kThreads = 32 * kWarps;
inline constexpr int kLogStep2Columns = 2 * kLogR1 - kLogLength;  ///< C = 2 k1 a thread
inline constexpr int kMinLogSequences = 9;   ///< D0 = 512: 2^17 reals
inline constexpr int kMaxLogSequences = 12;  ///< D0 = 4096: 2^20 reals

/// Staging: the block's 64 sequences as FP16 words, rows of kPitch.
inline constexpr int kPitch = kLength + 1;
inline constexpr int kStagingWords = kSequences * kPitch;
/// Exchange of one group's step 1: float2 [k1][p][t] (the column pass's exchange_slot at 128).
inline constexpr int kExchangeSlots = kLength * kGroup;
/// Z buffer: float2 [h][k_hi][t], over the staging words and the exchange.
inline constexpr int kZSlots = 2 * kLength * kGroup;
inline constexpr int kSmemBytes = kStagingWords * 4 + kExchangeSlots * 8;
static_assert(kZSlots * 8 <= kSmemBytes, "the Z buffer fits over staging and exchange");

/// The word of sequence slot s (< 64: A lanes, then B lanes) and point n in the staging rows.
FFTCORE_HD constexpr int staging_word(int s, int n) { return s * kPitch + n; }
/// The exchange slot of (k1, p, t): [k1][p][t].
FFTCORE_HD constexpr int exchange_slot(int k1, int p, int t) {
  return (((k1 << kLogWarps) + p) << kLogGroup) + t;
}
/// The Z buffer slot of group h, output k_hi, lane t.
FFTCORE_HD constexpr int z_slot(int h, int k_hi, int t) {
  return (((h << kLogLength) + k_hi) << kLogGroup) + t;
}

/// The staging word that holds group A's Z of output k_hi, lane t, in FP16 (the kernel's
/// default form): [k_hi][t] over group A's own staging rows, dead after its step 1.
FFTCORE_HD constexpr int half_z_word(int k_hi, int t) { return (k_hi << kLogGroup) + t; }
static_assert(kLength * kGroup <= kGroup * kPitch, "group A's Z fits in its staging rows");

/// The sequence k_lo of lane t of group h (0: A, 1: B) in block group g (D0 = 2^log_d0).
FFTCORE_HD constexpr int sequence(int g, int h, int t, int log_d0) {
  int const a = (g << kLogGroup) + t;
  return h == 0 ? a : (a == 0 ? 1 << (log_d0 - 1) : (1 << log_d0) - a);
}

/// Pair slot r (< 128) of lane t in block group g: the element (h_a, row_a) of the lane whose
/// output index k = sequence + D0 row_a it writes, and the element (h_b, row_b) that holds
/// Z[M - k]; `ends`: k = 0, which writes X[0] and X[M] from Z[0] and X[M / 2] from (0, 64).
struct PairSlot {
  int h_a, row_a, h_b, row_b;
  bool ends;
};
FFTCORE_HD constexpr PairSlot pair_slot(int g, int t, int r) {
  if (g != 0 || t != 0) return {0, r, 1, kLength - 1 - r, false};
  // Lane 0 of group 0: sequence 0 (group A) pairs its outputs r and 128 - r, sequence D0 / 2
  // (group B) its outputs r' and 127 - r'; slots 0..63 take the former, 64..127 the latter.
  if (r == 0) return {0, 0, 0, 0, true};
  if (r < kLength / 2) return {0, r, 0, kLength - r, false};
  int const q = r - kLength / 2;
  return {1, q, 1, kLength - 1 - q, false};
}

/// The blocks' groups per transform: D0 / 64.
FFTCORE_HD constexpr int log_groups(int log_d0) { return log_d0 - kLogGroup - 1; }

/// Whether `p` is the mirror pass backwards (the C2R's first pass): its input the half
/// spectrum's rows of M + 1, its output rows of M.
FFTCORE_HD inline bool c2r(PassParams const& p) {
  return p.in_stride[1] == p.out_stride[1] + 1;
}

/// Whether the mirror pass can run `p`: the R2C's last pass or the C2R's first as
/// real_layout.cpp (fuse_mirror) builds them: FP16 in and out, no hooks, 128 points over D0 =
/// 2^mirror_log_sequences sequences (512..4096) a transform in one block per group pair and
/// transform, rows of M = 128 D0 words on the sequences' side and of M + 1 on the half
/// spectrum's, different buffers.
FFTCORE_HD inline bool eligible(PassParams const& p) {
  int const log_d0 = p.mirror_log_sequences;
  std::int64_t const m = std::int64_t{kLength} << log_d0;
  bool const strides = (p.in_stride[1] == m && p.out_stride[1] == m + 1) ||
                       (p.in_stride[1] == m + 1 && p.out_stride[1] == m);
  return p.real_mirror != 0 && p.log_length == kLogLength && log_d0 >= kMinLogSequences &&
         log_d0 <= kMaxLogSequences && p.in_fp32 == 0 && p.out_fp32 == 0 &&
         p.load_factors == nullptr && p.store_factors == nullptr && p.conjugate_store == 0 &&
         p.extent[0] == (std::int64_t{1} << log_groups(log_d0)) && p.extent[1] >= 1 &&
         p.blocks == p.extent[0] * p.extent[1] && strides && p.threads == kThreads &&
         p.smem_bytes == kSmemBytes && p.src != p.dst;
}

}  // namespace fftcore::detail::tc::mirror_pass
