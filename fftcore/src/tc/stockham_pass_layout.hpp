// SPDX-License-Identifier: MIT
// The Stockham pass (kernels/stockham_pass_kernel.cu): untwiddled FP16 passes of L = 512 ..
// 16384 points over contiguous sequences (1-D transforms of those sizes, rows of 2-D
// transforms; the last passes of larger 1-D sizes write transposed, so not those), and as its
// column variant the untwiddled column passes of 512..2048 points (columns_eligible), on CUDA
// cores. Which passes it takes and every index map of it, shared by the kernel and the CPU tests.
//
// The register-chained Tensor Core pass (fast_pass_layout.hpp) ran these lengths at 61-64 % of
// the copy bandwidth (H200), issue-bound at ~65 instructions per point (hi/lo operand splits,
// FP32 shared round trips per radix-16 merge). Here a sequence belongs to T = L / E threads,
// each holding E values in FP32 registers (E = 16 at L = 512, 32 from 1024 up), and takes
// three Stockham stages of radices E, 16 and R3 = L / (16 E) (16, 16, 2 at 512; 32, 16, 2..32
// from 1024 to 16384):
//   stage s (Ns points already merged, radix R): the thread's registers a[i] hold
//   x[j + T i] (i < E); as E / R butterflies v = j + u T (u < E / R) it multiplies input m of
//   butterfly v, a[u + m E / R], by W_{Ns R}^((v mod Ns) m), takes the R-point DFT and writes
//   output k to y[(v - v mod Ns) R + v mod Ns + k Ns] (pass_params.hpp: merge_write_index).
// Stage 1 (Ns = 1) has no twiddle; stage 2 (Ns = E) carries the pass's scale in its twiddles;
// stage 3 (Ns = 16 E, Ns R3 = L) writes y[v + k Ns] straight to global memory, where a warp's
// 32 lanes cover 128 adjacent bytes. At L = 512 each exchange has its own shared buffer, so
// that a round takes one (warp) barrier per exchange; from 1024 up one buffer (a barrier before
// each exchange's writes as well). One FP16 rounding. E = 32 from 1024 (was: from 8192) took
// L = 1024 / 2048 / 4096 from 0.675 / 0.684 / 0.70 to 0.618 / 0.583 / 0.60 ms (H200, same runs;
// NOTES.md, session 15).
// Measured on the H200 (ms per 2^28 elements; fftcore/NOTES.md, sessions 11 and 14), from the
// Tensor Core pass's 0.80-0.84: first version 1.24 / 0.97 / 0.84 / 0.86 ms at L = 512 .. 4096
// (stage 3's table entries W_L^v lay 2^14 / L entries apart across the lanes: up to 32 cache
// lines per warp load); W_L^v = W_L^j W_E^u and stage 2's twiddles from a block table: 0.72 /
// 0.79 / 0.78 / 0.86; tiles grid-stride over resident blocks (the per-block set-up was ~9
// instructions per point at L = 4096, where a tile is one round): 0.63 / 0.78 / 0.79 / 0.79;
// the next item's loads issued before this item's stages: 0.61 / 0.71 / 0.73 / 0.76 (84 / 72
// / 70 / 68 % of the copy bandwidth). One buffer per sequence (four barriers, four blocks of
// 64 registers per SM, with spills) measured 0.68 / 0.84 / 0.83 / 0.86. L = 8192 as four
// stages of E = 16 on 512 threads (three buffers, 209 KB, one block per SM): 1.18 -> 0.94 ms;
// as three stages of E = 32 on 256 threads (one buffer, two blocks per SM): 0.68 ms.
#pragma once

#include <cstdint>

#include "pass_params.hpp"

namespace fftcore::detail::tc::stockham {

inline constexpr int kMinLogLength = 9;       ///< L = 512
inline constexpr int kMaxLogLength = 14;      ///< L = 16384 (E = 32 values per thread)
inline constexpr int kMaxLogLengthReal = 14;  ///< the fused C2R split: L <= 16384
inline constexpr int kLogValues = 4;          ///< E = 16 values per thread at L = 512
inline constexpr int kLogValuesWide = 5;      ///< E = 32 values per thread from L = 1024
inline constexpr int kLogMinLengthWide = 10;  ///< the first length with E = 32: L = 1024
inline constexpr int kLogMaxThreads = 8;      ///< 256 threads per block
/// Work items ahead that a block prefetches into L2 (PassParams::prefetch_items; 0: none).
/// H100: one at L = 16384 (items of 64 KiB), none below; ms per 2^28 elements, two runs each
/// (fftcore/NOTES.md, session 29): 2^14 0.787-0.795 without, 0.749-0.754 one ahead; but 2^9..2^13
/// (items of 16-32 KiB) 0.77-0.80 without, 0.80-0.99 one ahead, 0.89-1.00 two ahead. On
/// fast-DRAM devices (tc/dram_balance.hpp: the H200, where the 2048- and 4096-point passes are the
/// Stockham pass's) the other way round: one at L = 2048..8192, none at 16384. H200, four runs
/// each in rotation in one call (NOTES.md session 39), without / one ahead: 2^11 0.581-0.588 /
/// 0.564-0.575, 2^12 0.590-0.597 / 0.577-0.589, 2^13 0.674-0.684 / 0.666-0.678, 2^14
/// 0.748-0.756 / 0.764-0.772; two ahead 0.685-0.688 at 2^11..2^13 (session 38). The C2R split
/// (`c2r`: PassParams::real_in) at L = 16384 takes one ahead there too: 2^15 reals, H200, ms
/// per 2^28 reals, without / one ahead, three runs each in one call (session 42):
/// 0.518-0.525 / 0.512-0.516 (0.527 against 0.530-0.537 in another call).
FFTCORE_HD constexpr int default_prefetch_items(int log_l, bool fast_dram, bool c2r = false) {
  if (fast_dram) return (log_l >= 11 && log_l <= 13) || (c2r && log_l == 14) ? 1 : 0;
  return log_l >= 14 ? 1 : 0;
}
/// Resident 256-thread blocks per multiprocessor the kernel is built for: two exchange buffers
/// of 17 x 256 float2 per block (69.6 KB) let three share an SM's 228 KB, and three ask for at
/// most 85 registers per thread.
inline constexpr int kMinBlocks = 3;
/// The same for the fused real splits, which hold a second set of 16 words (C2R: X[M - n]) or
/// read Z twice (R2C): at 80 registers they spilled 36-90 words per thread and item.
inline constexpr int kMinBlocksSplit = 2;
/// The same from L = 1024 to 8192: 256 threads holding 32 values each (64 FP32 registers of
/// data, 32 of the next item's words), one exchange buffer of 33 T float2 per sequence (67.6 KB
/// per block): two blocks per SM, at most 128 registers per thread. At 16384 a sequence takes
/// 512 threads and 135 KB: one block.
inline constexpr int kMinBlocksWide = 2;

/// log2 of E, the values a thread holds: 16 at L = 512, 32 from 1024 (kLogMinLengthWide).
FFTCORE_HD constexpr int log_values(int log_l) {
  return log_l >= kLogMinLengthWide ? kLogValuesWide : kLogValues;
}
/// log2 of T = L / E, the threads of a sequence.
FFTCORE_HD constexpr int log_sequence_threads(int log_l) { return log_l - log_values(log_l); }
/// Stages: three, of radices E, 16 and L / (16 E) (16, 16, 2 at L = 512; 32, 16, 2..32 from
/// 1024 to 16384).
FFTCORE_HD constexpr int stages(int /*log_l*/) { return 3; }
/// log2 of the radix of stage s.
FFTCORE_HD constexpr int stage_log_radix(int s, int log_l) {
  return s == 0 ? log_values(log_l) : s == 1 ? kLogValues : log_l - log_values(log_l) - kLogValues;
}
/// log2 of Ns, the points merged before stage s.
FFTCORE_HD constexpr int stage_log_ns(int s, int log_l) {
  return s == 0 ? 0 : s == 1 ? log_values(log_l) : log_values(log_l) + kLogValues;
}
/// Whether the fused R2C split takes the pairs Z[k], Z[M - k] from one thread's registers: the
/// last stage's butterflies are then dealt in mirrored pairs (paired_butterfly), which needs two
/// or more of them per thread (E > R3: L = 512 .. 8192).
FFTCORE_HD constexpr bool r2c_paired(int log_l) {
  return log_values(log_l) > stage_log_radix(2, log_l);
}
/// Whether it takes them from two lanes of a warp instead (one butterfly per thread, E = R3: L =
/// 16384): lanes l and l + 16 hold a butterfly and its mirror (warp_paired_butterfly)
/// and swap half their outputs by shuffles.
FFTCORE_HD constexpr bool r2c_warp_paired(int log_l) {
  return log_values(log_l) == stage_log_radix(2, log_l);
}
/// Whether the fused R2C split runs here at L = 2^log_l: at every length, paired or warp-paired
/// (the split through the exchange buffer, Z written, a barrier and Z[n], Z[M - n] read, measured
/// slower than the register-chained pass's fused R2C at 1024..4096; fftcore/NOTES.md, session 15).
FFTCORE_HD constexpr bool r2c_length(int log_l) {
  return r2c_paired(log_l) || r2c_warp_paired(log_l);
}
/// Whether the fused C2R split takes the pairs X[n], X[M - n] into one lane (c2r_paired_source):
/// one warp per sequence (T = 32: L = 512 and 1024), where the partner's half is a shuffle away,
/// and more (T = 64 .. 512: L = 2048 .. 16384), where it comes through the exchange buffer (one
/// more barrier).
FFTCORE_HD constexpr bool c2r_paired(int log_l) {
  return log_sequence_threads(log_l) >= 5 && log_l <= kMaxLogLengthReal;
}
/// Where lane j's stage-1 input k (conj Z[n], n = j + T k) comes from in the paired C2R split:
/// lane j loads X[n] and X[M - n] for its pairs p < E / 2 (n = j + T p) and computes Z[n] and
/// Z[M - n] from each (split_inverse_pair); its inputs k < E / 2 are its own pairs' Z[n]; those
/// from E / 2 on are lane (T - j) mod T's mirrors Z[M - n'] of its pair E - 1 - k (M - n' = j +
/// T k), which a shuffle (T = 32) or the exchange buffer brings. Lane 0 is its own partner with
/// a shift: its pair p's mirror is its own input E - p (so its input k > E / 2 is its pair
/// E - k's mirror), pair 0's mirror Z[M] does not exist (n = 0 pairs X[0] with X[M]), and its
/// input E / 2 (n = M / 2, its own mirror) comes from X[M / 2] alone (`middle`).
struct PairedSource {
  int lane;     ///< the lane that computes it
  int pair;     ///< from that lane's pair p (n = lane + T p)
  bool mirror;  ///< Z[M - n] of the pair rather than Z[n]
  bool middle;  ///< lane 0's Z[M / 2], from X[M / 2] alone
};
FFTCORE_HD constexpr PairedSource c2r_paired_source(int j, int k, int log_l) {
  int const t = 1 << log_sequence_threads(log_l);
  int const e = 1 << log_values(log_l);
  if (k < e / 2) return {j, k, false, false};
  if (j != 0) return {t - j, e - 1 - k, true, false};
  if (k == e / 2) return {0, 0, false, true};
  return {0, e - k, true, false};
}
/// The last stage's butterfly v that thread j takes as its u-th (u < E / R3) in the paired R2C
/// deal: u < E / 2 R3 the usual v = j + u T; the others their mirrors Ns - v (Ns = L / R3), whose
/// outputs Z[Ns - v + k Ns] are the partners M - n of v's outputs n = v + (R3 - 1 - k) Ns. Thread
/// 0's v = 0 is its own mirror (k pairs with R3 - k): its mirror slot takes v = Ns / 2 instead,
/// the other butterfly that is its own (k pairs with R3 - 1 - k).
FFTCORE_HD constexpr int paired_butterfly(int j, int u, int log_l) {
  int const log_half = log_values(log_l) - stage_log_radix(2, log_l) - 1;
  int const ns = 1 << stage_log_ns(2, log_l);
  int const v = j + ((u & ((1 << log_half) - 1)) << log_sequence_threads(log_l));
  return (u >> log_half) == 0 ? v : v == 0 ? ns / 2 : ns - v;
}
/// The last stage's butterfly of thread j (lane l of warp w) in the warp-paired deal: lanes
/// l < 16 take v = 16 w + l (v < Ns / 2), lanes l + 16 their mirrors Ns - v, so that output k of
/// lane l pairs with output R3 - 1 - k of lane l + 16; warp 0's lane 16 takes Ns / 2 (v = 0 and
/// Ns / 2 are each their own mirror).
FFTCORE_HD constexpr int warp_paired_butterfly(int j, int log_l) {
  int const ns = 1 << stage_log_ns(2, log_l);
  int const v = ((j >> 5) << 4) + (j & 15);
  return (j & 16) == 0 ? v : v == 0 ? ns / 2 : ns - v;
}
// The 2-D R2C's row pairs (PassParams::real_row_pairs): the column FFT runs first, over the M
// complex columns of the rows of 2M reals read as complex, into Y (rows of M words: aligned,
// whole tiles of columns), and this pass takes rows q and R - q of Y together as one 2M-point
// sequence (pass length L = 2M). Written last, the half spectrum's rows of M + 1 outputs (4-byte
// aligned only) are contiguous runs; written by the column pass (the layout before), each tile
// of 8 columns wrote 32-byte runs straddling two sectors, and the partial-sector fills read
// ~0.43 GB more from DRAM than the 0.54 GB of input (ncu, 2048x2048 x 64, NOTES.md session 17).
// Loads: lane j takes word c = j / 2 + (T / 2) i of row q (even j) or R - q (odd j), and the
// lane pair swaps its words by one shuffle: register i of lane j then holds value n = j + T i
// (n of lane j's parity) of the sequence, 2 A[n] (row_pairs_value). Stores: output n of the
// DFT F goes to row q at n for n <= M, and conjugated to row R - q at 2M - n for n >= M and
// n = 0 (row_pairs_targets); rows 0 and R / 2 are their own mirrors (A real, F Hermitian) and
// write row q only.
// The C2R runs the same steps backwards (the row pairs first, inverse, then the column FFT):
// sequence q is row q of the full spectrum, F[n] = X[q][n] for n < M and conj X[R - q][2M - n]
// for n >= M (row_pairs_reads_mirror: register i >= E / 2), and its inverse DFT a = A[q] gives
// Y[q][c] = a[2c] + i a[2c + 1] and Y[R - q][c] = conj a[2c] + i conj a[2c + 1]: the lane pair
// holding a[2c], a[2c + 1] swaps them by shuffles, the even lane writes row q's word c and the
// odd lane row R - q's (row_pairs_join; a self-mirrored row keeps the real parts of a, which
// its exact values are).

/// The first and last pass lengths the row pairs take: every length of the pass, as a lane
/// pair's words stay in one warp (T >= 32) and the last stage's radix R3 >= 2 (L = 512: 16
/// values per thread, T = 32, one sequence per warp).
inline constexpr int kMinLogLengthRowPairs = kMinLogLength;
inline constexpr int kMaxLogLengthRowPairs = kMaxLogLength;

/// Row R - q mod R, the mirror of row q of R = 2^log_rows.
FFTCORE_HD constexpr std::uint32_t row_pairs_mirror(std::uint32_t q, int log_rows) {
  return (0u - q) & ((1u << log_rows) - 1u);
}

/// 2 A[n] from lane j's word `mine` and its partner lane's `other` (word c = n / 2 of rows q and
/// R - q: y = Y[q][c], z = Y[R - q][c]). Even n (lane holds y): y + conj z; odd n (lane holds
/// z): -i (y - conj z). The pass's scale carries the 1/2.
template <class F2>
FFTCORE_HD constexpr F2 row_pairs_value(bool odd, F2 mine, F2 other) {
  return odd ? F2{other.y + mine.y, mine.x - other.x} : F2{mine.x + other.x, mine.y - other.y};
}

/// Where output n (< L = 2M) of the sequence of rows q, R - q goes: `own` to row q at n
/// (n <= M), `mirror` conjugated to row R - q at (2M - n) mod 2M (n >= M, and n = 0), unless the
/// row is its own mirror (`self`).
struct RowPairTargets {
  bool own;
  bool mirror;
};
FFTCORE_HD constexpr RowPairTargets row_pairs_targets(int n, int log_l, bool self) {
  int const half = 1 << (log_l - 1);
  return {n <= half, !self && (n >= half || n == 0)};
}
/// The same in the kernel's form, for output k of the last stage's butterfly v (n = v + k Ns,
/// v < Ns = L / R3): n <= M where k < R3 / 2 or (k = R3 / 2 and v = 0); `v0`: v = 0.
FFTCORE_HD constexpr RowPairTargets row_pairs_stage_targets(int k, bool v0, int log_l, bool self) {
  int const half_r3 = 1 << (stage_log_radix(2, log_l) - 1);
  return {k < half_r3 || (k == half_r3 && v0), !self && (k >= half_r3 || (k == 0 && v0))};
}

/// C2R: whether value n of sequence q is read from row R - q (conjugated, at 2M - n), n >= M.
FFTCORE_HD constexpr bool row_pairs_reads_mirror(int n, int log_l) {
  return n >= (1 << (log_l - 1));
}

/// C2R: the word a lane writes from a[n] (`mine`) and a[n ^ 1] (`other`), n = 2c + odd: Y[q][c]
/// = a[2c] + i a[2c + 1] (even lane), Y[R - q][c] = conj a[2c] + i conj a[2c + 1] (odd lane);
/// where the row is its own mirror the even lane writes Re a[2c] + i Re a[2c + 1] and the odd
/// lane nothing.
template <class F2>
FFTCORE_HD constexpr F2 row_pairs_join(bool odd, bool self, F2 mine, F2 other) {
  return self  ? F2{mine.x, other.x}
         : odd ? F2{other.x + mine.y, mine.x - other.y}
               : F2{mine.x - other.y, mine.y + other.x};
}

/// Whether a row-pair pass is the C2R's (rows of M + 1 in, of M out) rather than the R2C's.
FFTCORE_HD inline bool row_pairs_c2r(PassParams const& p) {
  return p.in_stride[0] == (std::int64_t{1} << (p.log_length - 1)) + 1;
}

/// Exchange buffers per sequence: one per exchange at E = 16 (L = 512), so that an item takes one
/// barrier per exchange and the next item's first writes never meet this item's last reads; one
/// at E = 32 (two more barriers per item: before each exchange's writes), so that two blocks
/// share an SM and a 16384-point sequence fits at all.
FFTCORE_HD constexpr int buffers(int log_l) {
  return log_values(log_l) == kLogValues ? stages(log_l) - 1 : 1;
}
/// The kernel's block size bound: 256 threads, or one sequence's T = 512 at L = 16384.
FFTCORE_HD constexpr int max_threads(int log_l) {
  return 1 << (log_sequence_threads(log_l) > kLogMaxThreads ? log_sequence_threads(log_l)
                                                            : kLogMaxThreads);
}
/// The resident blocks per SM the kernel is built for (its __launch_bounds__): kMinBlocks,
/// kMinBlocksSplit with a fused real split (E = 16), kMinBlocksWide at E = 32, one at 16384.
FFTCORE_HD constexpr int min_blocks(int log_l, bool split) {
  return log_sequence_threads(log_l) > kLogMaxThreads ? 1
         : log_values(log_l) != kLogValues            ? kMinBlocksWide
         : split                                      ? kMinBlocksSplit
                                                      : kMinBlocks;
}

/// log2 of the block size for tiles of 2^log_tile sequences: E values per thread, at most 256
/// threads, at least one sequence's T.
FFTCORE_HD constexpr int log_threads(int log_tile, int log_l) {
  return log_tile + log_sequence_threads(log_l) < kLogMaxThreads
             ? log_tile + log_sequence_threads(log_l)
         : log_sequence_threads(log_l) > kLogMaxThreads ? log_sequence_threads(log_l)
                                                        : kLogMaxThreads;
}
/// log2 of the rounds a block takes over its tile (one sequence per T threads per round).
FFTCORE_HD constexpr int log_rounds(int log_tile, int log_l) {
  return log_tile + log_sequence_threads(log_l) - log_threads(log_tile, log_l);
}

// The L2 bulk prefetch (PassParams::prefetch_items, kernels/l2_prefetch.cuh): a block starts the
// DRAM reads of its item P ahead as one range, so only where each item's input is one.
/// Whether every item's input is one contiguous range of words: whole tiles at one step
/// (linear_blocks), rows of adjacent FP16 points back to back (L words; the C2R's L + 1).
FFTCORE_HD inline bool prefetch_contiguous(PassParams const& p) {
  std::int64_t const l = std::int64_t{1} << p.log_length;
  return p.linear_blocks != 0 && p.in_elem_stride == 1 && p.in_fp32 == 0 &&
         (p.in_stride[0] == l || (p.real_in != 0 && p.in_stride[0] == l + 1));
}
/// The input of `count` sequences from sequence `first` of tile b under prefetch_contiguous (a
/// round's: first = round x its sequences): their rows, WordRange::first the offset of their
/// first word in the source, WordRange::count their words (a tile's words fit 32 bits,
/// block_in_step: only the tile's origin takes 64; in 64 throughout, the hooked kernels at
/// L = 16384 spilled 24-44 bytes).
struct WordRange {
  std::int64_t first;
  std::uint32_t count;
};
FFTCORE_HD inline WordRange sequences_input(PassParams const& p, std::int64_t b,
                                            std::uint32_t first, std::uint32_t count) {
  auto const row = static_cast<std::uint32_t>(p.in_stride[0]);
  return {b * p.block_in_step + first * row, count * row};
}

// Columns (the kernel's kColumns variant; the 2-D column passes of 512..2048 points, which
// the register-chained pass ran at 39-53 % of the DRAM bandwidth, H100 ncu): C adjacent
// columns (points in_elem_stride apart) take the place of a round's sequences. Thread (j, c)
// is thread j of column c with c = tid mod C, so that a warp's loads and stores cover C
// adjacent words of 32 / C adjacent points; the exchange buffers hold slot s of column c at
// s C + c (a half-warp's accesses 128 adjacent bytes, or 64 bytes with the pad of slot()
// putting the next point's in the other half of the banks at C = 8). 512 threads per block,
// one block per SM (139-141 KB of exchange), at most 128 registers.
inline constexpr int kMinLogLengthColumns = 9;   ///< L = 512
inline constexpr int kMaxLogLengthColumns = 11;  ///< L = 2048 (C = 8: 32-byte runs)
inline constexpr int kLogColumnThreads = 9;      ///< 512 threads per block
/// log2 of C, the columns of an item: 16 at L = 512 and 1024, 8 at 2048. (256 threads with C = 8
/// at 512 and 1024, three and two blocks per SM, measured 14-26 % slower: 32-byte runs.)
FFTCORE_HD constexpr int log_columns(int log_l) {
  return kLogColumnThreads - log_sequence_threads(log_l);
}
/// Whether the Stockham pass runs `p` as columns: FP16 in and out, 512 <= L <= 2048, no hook,
/// no real split, no pass twiddle, adjacent columns on both sides (stride[0] = 1), points at
/// least a tile apart, and a layout safe to run in place item by item (an item's threads read
/// all of its columns before they write them). An item is C columns: a round of a tile at least
/// that wide, or 2^k whole tiles of narrower ones (the planner's tiles of 8 columns).
FFTCORE_HD inline bool columns_eligible(PassParams const& p) {
  return p.log_length >= kMinLogLengthColumns && p.log_length <= kMaxLogLengthColumns &&
         p.in_fp32 == 0 && p.out_fp32 == 0 && p.load_factors == nullptr &&
         p.store_factors == nullptr && p.conjugate_store == 0 && p.real_in == 0 &&
         p.real_out == 0 && p.real_pairs == 0 && p.real_in_columns == 0 && p.real_twin == 0 &&
         p.real_row_pairs == 0 && p.log_twiddle_n == 0 && p.in_stride[0] == 1 &&
         p.out_stride[0] == 1 && p.in_elem_stride >= (std::int64_t{1} << p.log_tile) &&
         p.out_elem_stride >= (std::int64_t{1} << p.log_tile) && (p.scatter != 0 || same_places(p));
}

/// float2 slots of one sequence's exchange buffer: L plus one pad slot per E.
FFTCORE_HD constexpr int sequence_slots(int log_l) {
  return ((1 << log_values(log_l)) + 1) << log_sequence_threads(log_l);
}
/// The padded slot of point a of a sequence: a + a / E. Stage 1 writes points E v + k (k
/// fixed, v across lanes: (E + 1) v + k, an odd float2 stride, 16 distinct float2 banks per
/// half-warp), stage 2 writes runs of E >= 16 adjacent points and the stages read x[j + T i]
/// (j across lanes): adjacent points, the pad falling between half-warps.
FFTCORE_HD constexpr int slot(int a, int log_l) { return a + (a >> log_values(log_l)); }

/// Global index (within the sequence) that thread j reads into register i: j + T i.
FFTCORE_HD constexpr int read_index(int j, int i, int log_l) {
  return j + (i << log_sequence_threads(log_l));
}
/// slot(read_index(j, i)) in the kernel's form: j + j / E once per thread, then constant
/// offsets i (E + 1) T / E (j < T and T a multiple of E, so the pad of j + T i splits).
FFTCORE_HD constexpr int read_slot(int j, int i, int log_l) {
  return j + (j >> log_values(log_l)) +
         i * (((1 << log_values(log_l)) + 1) << (log_sequence_threads(log_l) - log_values(log_l)));
}
/// slot(merge_write_index(v, k, log_r(s), log_ns(s))) of an exchange stage s (butterfly v) in
/// the kernel's form: a base per butterfly plus k times a constant (Ns >= E: the pad of k Ns
/// splits off, (E + 1) Ns / E per k; Ns = 1: E v + k, whose pad is v). Written as slot(...)
/// per k, the compiler rebuilt the signed shift for every store: ~5 integer instructions per
/// point at stage 2.
FFTCORE_HD constexpr int write_slot_base(int v, int s, int log_l) {
  int const log_ns = stage_log_ns(s, log_l);
  int const low = v & ((1 << log_ns) - 1);
  return slot(((v - low) << stage_log_radix(s, log_l)) + low, log_l);
}
FFTCORE_HD constexpr int write_slot_step(int s, int log_l) {
  return s == 0 ? 1
                : ((1 << log_values(log_l)) + 1) << (stage_log_ns(s, log_l) - log_values(log_l));
}

/// Register of input m of butterfly u of a stage of radix 2^log_r: u + m E / R.
FFTCORE_HD constexpr int input_register(int u, int m, int log_r, int log_l) {
  return u + (m << (log_values(log_l) - log_r));
}

/// Whether the Stockham pass runs `p`: FP16 in and out, 512 <= L <= 16384, no load hook (a
/// store hook it applies), no pass twiddle, unit element strides on both sides, and a layout
/// safe to run in place sequence by sequence (a sequence's threads read all of it before they
/// write it, into the places they read). A real transform's split it fuses (real_out: the R2C
/// split in the store, rows of M + 1 outputs, at the lengths of r2c_length; real_in: the C2R
/// split in the load), without a hook; real transforms run out of place. The R2C split through
/// the exchange buffer (Z written, a barrier, Z[n] and Z[M - n] read) measured slower than the
/// register-chained pass's fused R2C at 1024..4096 (H200, 2^28 reals: 2^11 0.474 against 0.509
/// ms, 2^12 0.466 / 0.513, 2^13 0.477 / 0.539; built for three blocks per SM at 80 registers,
/// without spills, 0.540 / 0.543 / 0.558: not the occupancy but the split's own barrier and
/// shared round trip), hence the paired and warp-paired deals; the C2R split was faster at
/// every length (2^10..2^13: 0.494 / 0.502 / 0.519 / 0.518 -> 0.362 / 0.461 / 0.487 / 0.430 ms).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  if (p.real_row_pairs != 0) {  // the 2-D R2C's or C2R's row pairs: out of place, no hook
    std::int64_t const l = std::int64_t{1} << p.log_length;
    bool const r2c = p.in_stride[0] * 2 == l && p.out_stride[0] == l / 2 + 1;
    bool const c2r = p.in_stride[0] == l / 2 + 1 && p.out_stride[0] * 2 == l;
    return p.log_length >= kMinLogLengthRowPairs && p.log_length <= kMaxLogLengthRowPairs &&
           p.row_pairs_log_rows >= 1 && p.row_pairs_log_rows <= 14 &&
           p.extent[0] == (std::int64_t{1} << (p.row_pairs_log_rows - 1)) + 1 && p.extent[2] == 1 &&
           (r2c || c2r) && p.in_stride[1] == (p.in_stride[0] << p.row_pairs_log_rows) &&
           p.out_stride[1] == (p.out_stride[0] << p.row_pairs_log_rows) && p.in_fp32 == 0 &&
           p.out_fp32 == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
           p.conjugate_store == 0 && p.real_in == 0 && p.real_out == 0 && p.real_pairs == 0 &&
           p.real_in_columns == 0 && p.real_twin == 0 && p.log_twiddle_n == 0 &&
           p.in_elem_stride == 1 && p.out_elem_stride == 1 && p.scatter != 0;
  }
  bool const real = p.real_in != 0 || p.real_out != 0;
  if (p.real_pairs != 0) return false;  // the register-chained pass's
  if (p.real_out != 0 && !r2c_length(p.log_length)) return false;
  if (real && p.log_length > kMaxLogLengthReal) return false;
  return p.log_length >= kMinLogLength && p.log_length <= kMaxLogLength && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.load_factors == nullptr &&
         (p.conjugate_store == 0 || p.store_factors != nullptr) &&
         !(real && p.store_factors != nullptr) && !(p.real_in != 0 && p.real_out != 0) &&
         p.log_twiddle_n == 0 && p.in_elem_stride == 1 && p.out_elem_stride == 1 &&
         (real || p.scatter != 0 || same_places(p));
}

}  // namespace fftcore::detail::tc::stockham
