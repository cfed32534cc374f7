// SPDX-License-Identifier: MIT
// The long pass (kernels/long_pass_kernel.cu): untwiddled FP16 passes of L = 32768 points over
// contiguous sequences, one sequence per block at a time, so that a 1-D transform of 2^15
// points takes one pass over global memory instead of two; with the R2C or C2R split of 2^16
// reals inside it (real_out, real_in: see eligible), and as the split pass of 2^16 points
// (below, after the twin R2C). Its index maps and which passes it takes, shared by the kernel
// and the CPU tests.
//
// Why a kernel of its own: 2^15 complex FP16 values are 128 KiB and fit in one SM's shared
// memory, but not in FP32 (256 KiB, more than the 228 KiB of shared memory and about the whole
// register file), so the Stockham pass's data flow (E FP32 values per thread, FP32 exchanges)
// stops at 16384. Here the sequence stays in shared memory as FP16 words between three stages
// of radix 32, computed in FP32 registers: one FP16 rounding per exchange, two more than the
// Stockham pass's one and one more than the two-pass plan it replaces (whose intermediate is
// FP16 in global memory).
//
// The stages are the decimation-in-frequency factorisation N = 32 x 32 x 32, in place (each
// butterfly writes its outputs to the slots it read), so one buffer serves all three and a
// stage needs no barrier between its reads and writes; with n = b + 1024 j (b < 1024) and
// k = k1 + 32 k2 + 1024 k3:
//   stage 1, butterfly b:           y1[b, k1] = W_N^(b k1) DFT32_j(x[b + 1024 j])[k1]
//                                   at position b + 1024 k1;
//   stage 2, butterfly (b0, k1):    y2[b0, k2, k1] = W_1024^(b0 k2) DFT32_b1(y1[b0 + 32 b1, k1])[k2]
//                                   at position b0 + 32 k2 + 1024 k1;
//   stage 3, butterfly (k1, k2):    X[k1 + 32 k2 + 1024 k3] = DFT32_b0(y2[b0, k2, k1])[k3].
// Butterfly q (< 1024) of a stage is thread q mod 512's round q / 512, so that a warp's lanes
// take adjacent b (stage 1: coalesced loads), adjacent b0 (stage 2) and adjacent k1 (stage 3:
// coalesced stores). Stages 1 and 2 then touch 32 adjacent positions per warp access, stage 3
// positions 1024 apart; the slot of position a is a + a / 1024 (one pad word per 1024,
// `slot`), so that both kinds of access meet 32 distinct banks, and each butterfly's 32 slots
// are a base plus constants (slot_base, slot_offset). An XOR swizzle (low five bits with bits
// 10..14) was as conflict-free, but the compiler rebuilt it per access: ~4 integer
// instructions per shared access, ~8 of the first version's ~87 instructions per point.
// Measured (ms per 2^28 elements, same runs; fftcore/NOTES.md, session 18): H100 1.57 (two
// passes) -> 0.91-0.94 (1.83-1.90x cuFFT FP16, 76-79 % of copy), H200 1.45 -> 0.89; issue-bound
// (~75 instructions per point, 16 warps per SM meeting at three barriers per sequence). The
// planner takes it from 64 sequences (plan_logic.cpp): a lone sequence runs on one SM.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::long_pass {

inline constexpr int kLogLength = 15;  ///< L = 32768
/// Sequences ahead that a block prefetches into L2 (PassParams::prefetch_items; 0: none).
inline constexpr int kDefaultPrefetchItems = 1;
inline constexpr int kLogRadix = 5;    ///< three stages of radix 32
inline constexpr int kRadix = 1 << kLogRadix;
inline constexpr int kStages = 3;
inline constexpr int kLogThreads = 9;  ///< 512 threads, two butterflies each per stage
inline constexpr int kThreads = 1 << kLogThreads;
inline constexpr int kLogButterflies = kLogLength - kLogRadix;  ///< 1024 per stage
inline constexpr int kRounds = 1 << (kLogButterflies - kLogThreads);

/// Shared-memory words of the sequence: L and one pad word per 1024.
inline constexpr int kSlots = (1 << kLogLength) + (1 << (kLogLength - 10));

/// The shared-memory word of position a (< L): a + a / 1024.
FFTCORE_HD constexpr int slot(int a) { return a + (a >> 10); }

/// The butterfly thread j takes in round u of a stage.
FFTCORE_HD constexpr int butterfly(int j, int u) { return j + (u << kLogThreads); }

/// Position of input m of butterfly q of stage s (0, 1, 2); each butterfly writes output k
/// to position(s, q, k): the stages run in place.
FFTCORE_HD constexpr int position(int s, int q, int m) {
  // Stage 1: q = b, x[b + 1024 m]. Stage 2: q = b0 + 32 k1, y1 at b0 + 32 m + 1024 k1.
  // Stage 3: q = k1 + 32 k2, y2 at m + 32 k2 + 1024 k1.
  return s == 0   ? q + (m << kLogButterflies)
         : s == 1 ? (q & (kRadix - 1)) + (m << kLogRadix) + ((q >> kLogRadix) << 10)
                  : m + ((q >> kLogRadix) << kLogRadix) + ((q & (kRadix - 1)) << 10);
}

/// slot(position(s, q, m)) in the kernel's form, slot_base(s, q) + slot_offset(s, m): stage 1
/// q + 1025 m, stage 2 (b0 + 1025 k1) + 32 m, stage 3 (32 k2 + 1025 k1) + m.
FFTCORE_HD constexpr int slot_base(int s, int q) {
  return s == 0   ? q
         : s == 1 ? (q & (kRadix - 1)) + ((q >> kLogRadix) * 1025)
                  : ((q >> kLogRadix) << kLogRadix) + (q & (kRadix - 1)) * 1025;
}
FFTCORE_HD constexpr int slot_offset(int s, int m) {
  return s == 0 ? m * 1025 : s == 1 ? m << kLogRadix : m;
}

/// The exponent e of the twiddle W_N^e that output k of butterfly q of stage s is multiplied
/// by (N = L; stage 2's W_1024^(b0 k2) is W_N^(32 b0 k2)); stage 3 has none.
FFTCORE_HD constexpr int twiddle_exponent(int s, int q, int k) {
  return s == 0 ? (q * k) & ((1 << kLogLength) - 1)
         : s == 1 ? (((q & (kRadix - 1)) * k) << kLogRadix) & ((1 << kLogLength) - 1)
                  : 0;
}

/// The output index (within the sequence) of output k3 of stage 3's butterfly q = k1 + 32 k2.
FFTCORE_HD constexpr int output_index(int q, int k3) { return q + (k3 << 10); }

// The twin R2C (PassParams::real_twin): the R2C of rows of N = 2^15 reals two at a time. Rows
// a and b are read as one complex sequence z = x_a + i x_b (both real), whose DFT Z gives
//   X_a[k] = (Z[k] + conj Z[N - k]) / 2,   X_b[k] = -i (Z[k] - conj Z[N - k]) / 2
// for k = 0 .. N / 2: one long pass moves each row's bytes once, with no split twiddles. (The
// other route, a 2^14-point FFT of x[2n] + i x[2n + 1] and the twiddled split, runs on the
// Stockham pass, issue-bound at one block per SM: 0.61 ms per 2^28 reals on the H100, 1.50x the
// C2C of 2^15 where 1.6x is asked.) Thread j loads the 4-byte words of both rows that hold
// positions 2 j + 1024 m and 2 j + 1 + 1024 m, and its stage-1 butterflies are 2 j and 2 j + 1
// (twin_butterfly); stage 2 runs as in the complex pass. Stage 3: round 0 takes butterfly
// j = k1 + 32 k2 (k2 < 16), round 1 its mirror twin_partner(j), which
// holds Z[N - k] for every output k of butterfly j (its output 31 - k3 for output k3); round 1
// writes the outputs k3 < 16 of both, reading round 0's values back from round 0's own slots
// as FP16 words (one rounding more than the complex pass). Thread 0 takes the two butterflies
// that are their own mirrors, 0 and 512 (k1 = 0, k2 = 0 and 16), and also writes k = N / 2.
// Measured (H100, ms per 2^28 reals, same calls): 0.550-0.553 against 0.616-0.628 on the
// Stockham pass, 1.67-1.68x the C2C of 2^15 (0.92-0.93); error 0.23x cuFFT FP16's. It issues
// ~10 % more instructions per point than the complex pass (the split, round 0's shared-memory
// round trip) and waits more on shared memory (ncu: short scoreboard and MIO throttle).
// The planner takes it from 2^kLogMinTwinRows rows (real_layout.hpp); at 256..2048 rows it
// measured as fast as the Stockham pass, faster only when every SM has several items.

/// The twin R2C's rows: 2^15 FP16 reals (2^14 words) in, M + 1 = 16385 words out, back to back.
inline constexpr int kTwinInRow = 1 << (kLogLength - 1);
inline constexpr int kTwinOutRow = (1 << (kLogLength - 1)) + 1;

/// Stage-1 butterfly of thread j in round u of the twin R2C: 2 j + (u ^ e), e = 1 on lanes
/// 16..31, so that each of the round's stores meets 32 banks (lanes 0..15 on even positions,
/// 16..31 on odd ones). Its inputs x[b + 1024 m] are halves of the thread's 4-byte loads of
/// both rows, x[2 j + 1024 m] and x[2 j + 1 + 1024 m].
FFTCORE_HD constexpr int twin_butterfly(int j, int u) { return 2 * j + (u ^ ((j >> 4) & 1)); }

/// Stage-3 round-1 butterfly of thread j of the twin R2C (round 0: butterfly j): the mirror of
/// j = k1 + 32 k2, (-k1 mod 32) + 32 ((-k2 - [k1 != 0]) mod 32), whose output 31 - k3 is
/// Z[N - k] of j's output k3; thread 0 takes butterfly 512 (k1 = 0, k2 = 16).
FFTCORE_HD constexpr int twin_partner(int j) {
  int const k1 = j & (kRadix - 1), k2 = j >> kLogRadix;
  return j == 0 ? 512
                : ((kRadix - k1) & (kRadix - 1)) +
                      ((((k1 != 0 ? kRadix - 1 : kRadix) - k2) & (kRadix - 1)) << kLogRadix);
}

/// Output k3 (< 32) of stage 3's butterfly whose value is Z[N - k] for output `k3` of thread
/// j's butterfly `q` (j or twin_partner(j)), as (round, output): round 0 is butterfly j,
/// round 1 twin_partner(j). The kernel's selection, for the CPU tests.
struct TwinSource {
  int round;
  int k3;
};
FFTCORE_HD constexpr TwinSource twin_mirror_source(int j, int round, int k3) {
  // Thread 0: each butterfly is its own mirror (512's output 31 - k3, 0's output -k3 mod 32).
  return j == 0 ? TwinSource{round, round == 0 ? (kRadix - k3) & (kRadix - 1) : kRadix - 1 - k3}
                : TwinSource{1 - round, kRadix - 1 - k3};
}

/// The twin split of one output k from z = Z[k] and zm = Z[N - k] (any type with members x, y):
/// xa = Z[k] + conj Z[N - k], xb = -i (Z[k] - conj Z[N - k]), i.e. 2 X_a[k] and 2 X_b[k] (the
/// kernel's Z carries the 1/2).
template <typename C>
FFTCORE_HD constexpr void twin_split(C z, C zm, C& xa, C& xb) {
  xa.x = z.x + zm.x;
  xa.y = z.y - zm.y;
  xb.x = z.y + zm.y;
  xb.y = zm.x - z.x;
}

// The split pass: 2N = 65536 points in one pass over global memory, instead of two (a 128-
// and a 512-point pass, 1.68 ms per 2^28 elements on the H100 against cuFFT FP16's 2.13). The
// first step of the decimation in frequency, x[n] +- x[n + N] (n < N), joins the long pass's
// load: a cluster of two blocks takes each sequence, block r its half
//   y_r[n] = f (x[n] + (-1)^r x[n + N]) W_2N^(r n),   X[2 k + r] = DFT_N(y_r)[k],
// reading both halves of the input (the second block's reads of the same words meet them in
// L2). For n = b + 1024 m, W_2N^n = W_2N^b W_64^m: W_2N^b joins stage-1 butterfly
// b's output twiddles, W_64^m is a constant per input. The sum is rounded to FP16 once (the
// two-pass plan rounds its intermediate once too), with f = 1/2 where the pass scales down, so
// that it cannot overflow where the outputs do not. Block r writes every other output word,
// X[2 k + r] (the two blocks' words fill the same sectors while these are in L2: ncu counts the
// same DRAM bytes as the 2^15 pass, twice its L2 write requests). The cluster's barrier (arrive
// after stage 1, wait before stage 3) keeps it safe in place: both blocks have read the whole
// sequence before either writes any of it.
inline constexpr int kLogSplitLength = kLogLength + 1;
inline constexpr int kSplitBlocks = 2;              ///< per cluster, one half each
inline constexpr int kSplitHalf = 1 << kLogLength;  ///< words between x[n] and x[n + N]

/// Whether the long pass runs `p` as the split pass (2^16 points).
FFTCORE_HD constexpr bool split(PassParams const& p) { return p.log_length == kLogSplitLength; }

/// The split's factor f of its sum: 1/2 where the pass scales down, else 1 (the three stages
/// take p.scale / f).
FFTCORE_HD constexpr float split_factor(PassParams const& p) {
  return split(p) && p.scale < 1.0f ? 0.5f : 1.0f;
}

/// Whether the long pass runs `p`: FP16 in and out, L = 32768 (or the split's 65536, complex
/// only), one sequence per tile, no pass
/// twiddle, no real split, unit element strides on both sides, and a layout safe to run in
/// place sequence by sequence (a block reads all of a sequence before it writes any of it).
/// Load and store hooks it applies: the planner leaves no other kernel for this length.
/// The twin R2C (real_twin, the only real split it takes): out of place, no hooks (checked at
/// launch), rows back to back (an item's two rows: in_stride[1] = 2 kTwinInRow words,
/// out_stride[1] = 2 kTwinOutRow).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  bool const twin_ok =
      p.real_twin == 0 ||
      (p.scatter != 0 && p.in_stride[1] == 2 * kTwinInRow && p.out_stride[1] == 2 * kTwinOutRow &&
       p.extent[0] == 1 && p.extent[2] == 1 && p.conjugate_store == 0);
  bool const length_ok =
      p.log_length == kLogLength || (p.log_length == kLogSplitLength && p.real_twin == 0);
  // The C2R and R2C of 2^16 reals (real_in: the split in the load, real_out: in stage 3):
  // 32768 points, out of place, rows of M + 1 half-spectrum words, no hooks, not both.
  bool const real_ok = (p.real_in == 0 && p.real_out == 0) ||
                       (p.log_length == kLogLength && p.real_twin == 0 && p.scatter != 0 &&
                        p.load_factors == nullptr && p.store_factors == nullptr &&
                        p.conjugate_store == 0 && (p.real_in == 0 || p.real_out == 0));
  return length_ok && real_ok && p.log_tile == 0 && p.in_fp32 == 0 && p.out_fp32 == 0 &&
         p.log_twiddle_n == 0 && p.real_pairs == 0 && p.real_in_columns == 0 &&
         p.in_elem_stride == 1 && p.out_elem_stride == 1 && (p.scatter != 0 || same_places(p)) &&
         twin_ok;
}

}  // namespace fftcore::detail::tc::long_pass
