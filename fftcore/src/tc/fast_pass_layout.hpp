// SPDX-License-Identifier: MIT
// The register-chained pass (kernels/fast_pass_kernel.cu): which passes it runs and where each
// of its phases finds an element in shared memory. Shared by the kernel and the CPU tests,
// which simulate every warp access of every phase against the 32 banks.
//
// A pass of length L = 256 Q (Q = 1..16) on a tile of T sequences, FP16 (__half2) in shared
// memory, one 32-bit word per element:
//   copy:    the tile, in memory order, into a staging buffer (cp.async, 16 or 4 bytes), a tile
//            ahead of the compute (blocks loop over tiles);
//   load and step C, fused: thread task (t, m), m < 256 (load_task): the Q values x[m + 256 q]
//            read from the staging buffer into registers, times a
//            power-of-two gain, their Q-point DFT in FP32 on CUDA cores (Q > 1), times
//            W_L^(m k_q), written to shared memory once (index m + 256 k_q);
//   step A:  warp task (t, k_q): the 256-point DFT of the 256 contiguous values of k_q as two
//            chained 16-point DFTs on Tensor Cores (mma m16n8k16; the D fragments of the first
//            product are the A fragments of the second, so the intermediate never leaves the
//            registers), written back in place: output k = k_q + Q k_m sits at 256 k_q + k_m;
//   store:   output k of sequence t read from 256 (k mod Q) + k / Q and written to global.
// Q = 32, 64 (L = 8192, 16384; one sequence per tile, 512 or 1024 threads) split step C, since
// a thread holds 16 values: with Q = 16 Q1 and q = q1 + Q1 q2,
//   step C1: thread task (t, m, q1) (split_task): its 16 values x[m + 256 (q1 + Q1 q2)] into
//            registers, their 16-point DFT over q2 in FP32, times gain W_Q^(q1 k2), written to
//            m + 256 (k2 + 16 q1);
//   step C2: after a barrier, task (t, m, k2) (split_c2_task, 16 / Q1 per thread): the Q1 values
//            m + 256 (k2 + 16 q1), their Q1-point DFT over q1, times W_L^(m k_q) with
//            k_q = k2 + 16 k1, written back in place (the same Q1 slots): m + 256 k_q as above.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::fast {

inline constexpr int kMinLogLength = 8;    ///< L = 256
inline constexpr int kMaxLogLength = 14;   ///< L = 16384 (Q = 64)
inline constexpr int kMaxLogChained = 12;  ///< L = 4096 (Q = 16): step C in one thread per m
inline constexpr int kLogMaxTile = 13;     ///< any T with T L <= 2^13: <= 512 threads, 32 KiB
inline constexpr int kLogBigTile = 14;     ///< T L = 2^14 too: 1024 threads, 64 KiB
inline constexpr int kLogSub = 8;          ///< the 256-point DFT of step A

/// Whether a pass of 2^log_l points splits step C in two (Q > 16: C1, then C2).
FFTCORE_HD constexpr bool split_step_c(int log_l) { return log_l > kMaxLogChained; }

/// Adjacent sequences of the tile are adjacent in memory (a warp's access spans several t).
FFTCORE_HD inline bool fast_in(PassParams const& p) { return p.in_stride[0] == 1 && p.log_tile > 0; }

/// Whether the register-chained pass runs `p` (else the general pass kernel): FP16 in and out,
/// 256 <= L <= 16384, T L <= 2^14, one sequence per tile for L > 4096 (split step C), no load
/// hook (store hooks, on the last pass, it applies).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  return p.log_length >= kMinLogLength && p.log_length <= kMaxLogLength && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.load_factors == nullptr &&
         p.log_length + p.log_tile <= kLogBigTile &&
         (!split_step_c(p.log_length) || p.log_tile == 0);
}
FFTCORE_HD inline bool fast_out(PassParams const& p) {
  return p.out_stride[0] == 1 && p.log_tile > 0;
}

/// Whether the register-chained pass can fuse a real transform's split into `p` (the R2C one
/// into its store, PassParams::real_out; the C2R one into its load, real_in): an eligible pass
/// over contiguous rows (no hooks, unit element strides, no twiddles) whose tile has an
/// instantiation with the split, T L <= 2^12 or L > 4096.
FFTCORE_HD inline bool real_row_eligible(PassParams const& p) {
  return eligible(p) && !fast_in(p) && !fast_out(p) && p.in_elem_stride == 1 &&
         p.out_elem_stride == 1 && p.store_factors == nullptr && p.log_twiddle_n == 0 &&
         (split_step_c(p.log_length) || p.log_length + p.log_tile <= kLogMaxTile - 1);
}

/// Whether the register-chained pass can fuse the C2R split into the load of `p`, the first of
/// a row FFT's passes (PassParams::real_in_columns): 256, 512 or 1024 points down adjacent
/// columns (in and out) on whole tiles of T L <= 2^13 (the instantiations without staging; the
/// load does not mask partial tiles), no hooks.
/// (The first passes other than 128 points, which take the column pass, that a C2R row FFT gets
/// from the planner: 2^20 and 2^21 reals, and smaller batches of 2^16..2^19.)
FFTCORE_HD inline bool real_columns_eligible(PassParams const& p) {
  return eligible(p) && fast_in(p) && fast_out(p) && p.store_factors == nullptr &&
         p.conjugate_store == 0 && p.real_in == 0 && p.real_out == 0 && p.real_pairs == 0 &&
         p.log_length >= kMinLogLength && p.log_length <= kMinLogLength + 2 &&
         p.log_length + p.log_tile <= kLogMaxTile &&
         (p.extent[0] & ((std::int64_t{1} << p.log_tile) - 1)) == 0;
}

/// Whether the tiles of `p` can be copied into shared memory 16 bytes (4 elements) at a time:
/// in memory order a tile is runs of 4 contiguous, 16-byte aligned elements (given a 16-byte
/// aligned buffer) when the contiguous index (t for adjacent columns, n for rows) has unit
/// stride and every other stride, and so every tile origin, is a multiple of 4 elements.
FFTCORE_HD inline bool vector_loads(PassParams const& p) {
  for (int i = 1; i < kDigits; ++i) {
    if (p.in_stride[i] % 4 != 0) return false;
  }
  if (fast_in(p)) return p.log_tile >= 2 && p.in_elem_stride % 4 == 0;
  return p.in_elem_stride == 1 && p.in_stride[0] % 4 == 0;
}

/// The shared-memory slot of element n of tile sequence t: sequences back to back, the low five
/// bits of n XOR-ed with
///   (t << tau_shift) & 31         spreads the sequences of a warp's tile access (load/store in
///                                 the adjacent-columns layout) over the banks;
///   ((n >> 5) & 3) << 3           the four 32-word rows of a step-A fragment access;
///   ((n >> 8) << kq_shift) & mask the values of k_q met by one store access (consecutive
///                                 outputs k of one sequence lie in different 256-blocks).
/// Each term is uniform over the lanes of the accesses it does not serve, so it leaves them
/// conflict-free (tc_fast_pass_layout_test simulates all of them).
struct Swizzle {
  int log_l;
  int tau_shift;
  int kq_shift;
  int kq_mask;
};

FFTCORE_HD inline Swizzle make_swizzle(int log_l, int log_t, bool tile_fast_out) {
  int const log_warp_t = log_t < 5 ? log_t : 5;  // sequences one warp access spans (fast layout)
  int const log_run = tile_fast_out ? 5 - log_warp_t : 5;  // consecutive k per sequence and access
  int const log_q = log_l - kLogSub;
  Swizzle s{};
  s.log_l = log_l;
  s.tau_shift = 5 - log_warp_t;
  s.kq_shift = log_run > log_q ? log_run - log_q : 0;
  s.kq_mask = (1 << log_run) - 1;
  return s;
}

/// The k_q term alone (it depends on n only through k_q = n >> 8).
FFTCORE_HD inline int kq_term(Swizzle const& s, int k_q) { return (k_q << s.kq_shift) & s.kq_mask; }

FFTCORE_HD inline int slot(Swizzle const& s, int t, int n) {
  int const x = ((t << s.tau_shift) ^ (((n >> 5) & 3) << 3) ^ kq_term(s, n >> kLogSub)) & 31;
  return (t << s.log_l) + (n ^ x);
}

// Shortcuts the kernel takes (the CPU tests check them against slot() everywhere): the swizzle
// only touches bits 0-4 and depends on n through bits 5-6 and k_q, so
//   slot(t, m + 256 q) = (slot(t, m) ^ kq_term(q)) + 256 q               (step C, m < 256), and
//   slot(t, 256 k_q + g + 8 a + 16 b + 32 quad + 128 r) = (base ^ (8 a + 16 b)) + 128 r (step A)
// with base = slot(t, 256 k_q + g + 32 quad): one XOR and an immediate offset per access.
FFTCORE_HD inline int step_c_slot(Swizzle const& s, int slot_m, int q) {
  return (slot_m ^ kq_term(s, q)) + (q << kLogSub);
}
FFTCORE_HD inline int step_a_base(Swizzle const& s, int t, int k_q, int group, int quad) {
  return slot(s, t, (k_q << kLogSub) + group + 32 * quad);
}
FFTCORE_HD inline int step_a_slot(int base, int a, int b, int r) {
  return (base ^ (8 * a + 16 * b)) + 128 * r;
}

/// The index maps of the phases (lane = 4 group + quad, as in mma.cuh).
struct TileElement {
  int t;
  int n;
};
/// Store: element e = thread + i * threads of the tile.
FFTCORE_HD inline TileElement tile_element(int e, bool tile_fast, int log_t, int log_l) {
  if (tile_fast) return {e & ((1 << log_t) - 1), e >> log_t};
  return {e >> log_l, e & ((1 << log_l) - 1)};
}
/// The load with step C fused into it: thread `tid` of `threads` takes the step-C tasks
/// s < 16 / Q, task s being the Q elements (t, m + 256 q), q < Q, of one (t, m), m < 256, which
/// it loads straight into registers, transforms and writes to shared memory once. Tasks of
/// adjacent-columns input give the lanes of a warp adjacent t (whole segments per access);
/// otherwise adjacent m. Like the slots, the map splits over the bits: load_task(tid, s) is
/// load_task(tid, 0) plus load_task(0, s) with disjoint bits in t and in m.
FFTCORE_HD inline TileElement load_task(int tid, int s, int threads, bool tile_fast, int log_t) {
  if (tile_fast) return {tid & ((1 << log_t) - 1), (tid >> log_t) + (threads >> log_t) * s};
  int const task = tid + threads * s;
  return {task >> kLogSub, task & ((1 << kLogSub) - 1)};
}

/// Split step C (L > 4096, rows): thread `tid`'s C1 task (t, m, q1), as the element of its value
/// q2 = 0, n = m + 256 q1; value q2 is n + 256 Q1 q2.
FFTCORE_HD inline TileElement split_task(int tid, int log_q) {
  int const log_q1 = log_q - 4;
  return {tid >> (kLogSub + log_q1), tid & ((1 << (kLogSub + log_q1)) - 1)};
}
/// Task s < 16 / Q1 of thread `tid` in step C2: (t, m, k2), as the element of its value
/// q1 = 0, n = m + 256 k2; value q1 is n + 4096 q1.
FFTCORE_HD inline TileElement split_c2_task(int tid, int s, int threads) {
  int const task = tid + threads * s;
  return {task >> (kLogSub + 4), task & ((1 << (kLogSub + 4)) - 1)};
}

/// Where output k of a sequence sits after step A.
FFTCORE_HD inline int output_position(int k, int log_q) {
  return ((k & ((1 << log_q) - 1)) << kLogSub) + (k >> log_q);
}
/// The slot of output e of the tile at the store. The map, like slot(), is linear over GF(2) in
/// the bits of e, and e = thread + i * threads has disjoint bits, so the kernel forms
/// store_slot(thread) ^ store_slot(i * threads): the second term is a constant when T is.
FFTCORE_HD inline int store_slot(Swizzle const& s, int e, bool tile_fast, int log_t) {
  TileElement const x = tile_element(e, tile_fast, log_t, s.log_l);
  return slot(s, x.t, output_position(x.n, s.log_l - kLogSub));
}

/// R2C with the split fused into the store (PassParams::real_out; the row FFT of a real
/// transform of 2 M points, M = L, real_split.hpp): the tile's T M / 2 items (t, j), j < M / 2,
/// item e = thread + i * threads; item (t, j) reads outputs Z[j] and Z[r2c_partner(j)] and
/// writes X[j] and X[M - j] (item 0: X[0] and X[M] from Z[0], and X[M/2] from Z[M/2]).
FFTCORE_HD inline TileElement r2c_item(int e, int log_l) {
  return {e >> (log_l - 1), e & ((1 << (log_l - 1)) - 1)};
}
FFTCORE_HD inline int r2c_partner(int j, int log_l) {
  return j == 0 ? 1 << (log_l - 1) : (1 << log_l) - j;
}
/// Where output k of sequence t sits after step A.
FFTCORE_HD inline int output_slot(Swizzle const& s, int t, int k) {
  return slot(s, t, output_position(k, s.log_l - kLogSub));
}
/// The kernel's shortcut for the partner slots. With S = min(threads, M / 2) the items of one
/// thread share j0 = j mod S; item i is (t0 + dt_i, j0 + r_i S) with (t0, j0) = r2c_item(thread)
/// and (dt_i, r_i S) = r2c_item(i * threads) (disjoint bits). Its partner is c + h_i S with
/// c = -j0 mod S and h_i = M / S - 1 - r_i (j0 != 0), M / (2 S) (j0 = 0, r_i = 0) or M / S - r_i
/// (j0 = 0, r_i > 0), so its slot is output_slot(t0, c) ^ output_slot(dt_i, h_i S): the second
/// term a constant per i when T is (the CPU tests check it against output_slot everywhere).
FFTCORE_HD inline int r2c_stride(int threads, int log_l) {
  return threads < (1 << (log_l - 1)) ? threads : 1 << (log_l - 1);
}
FFTCORE_HD inline int r2c_partner_term(Swizzle const& s, TileElement d, int stride,
                                       bool j0_nonzero) {
  int const m = 1 << s.log_l;
  int const r = d.n / stride;
  int const nonzero = output_slot(s, d.t, m - (r + 1) * stride);
  int const zero = output_slot(s, d.t, r == 0 ? m / 2 : m - r * stride);
  return j0_nonzero ? nonzero : zero;
}

/// R2C with the split fused into the store of a row FFT's last pass (PassParams::real_pairs,
/// M = P L, two or three passes): sequence t writes Z[t + P k], whose partner Z[M - t - P k] is
/// output L - 1 - k of sequence P - t (t = 0 and P / 2 are their own mirrors: k with L - k,
/// and with L - 1 - k). A block takes pair tile g of T = 2 H sequences: local s < H is
/// t = g H + s, local H + s its mirror P - g H - s, except that tile 0's slot H (mirror of t = 0)
/// holds t = P / 2. So every sequence is loaded once, and each block writes X[n] and X[M - n]
/// for its own pairs. Taken at L = 512 and 1024 on tiles of 2^13 elements (T = 16, 8; the one
/// instantiation the kernel has) with at most P = 2^kPairsMaxLogSequences sequences per
/// transform (pairs_log_tile -1 elsewhere). Measured (H100, 2^28 reals, against the plain last
/// pass and the split kernel; fftcore/NOTES.md, session 16): 2^17 reals (L = 512, P = 128)
/// 1.245 -> 1.036 ms, 2^18 (1024, 128) 1.28 -> 1.17; slower at L = 256 (2^22: 1.61 -> 1.68),
/// 2048 (2^19: 1.34 -> 2.69, staged), and P >= 1024 (2^21: 1.50 -> 1.63, 2^27: 1.91 -> 2.40).
/// The mirror side's H adjacent outputs per k start one element past a 32-byte sector, so its
/// warp stores write partial sectors (ncu, 2^21: 2.8x the plain pass's L2 write requests; at
/// 2^19, 2.8x its DRAM bytes); no choice of tiles aligns both sides.
inline constexpr int kPairsMaxLogSequences = 7;
FFTCORE_HD constexpr int pairs_log_tile(int log_l) {
  return log_l == 9 ? 4 : log_l == 10 ? 3 : -1;
}
/// The sequence t of local slot s of pair tile g (H = 2^log_h, P = 2^log_p).
FFTCORE_HD inline int pair_sequence(int s, int g, int log_h, int log_p) {
  int const a = (g << log_h) + (s & ((1 << log_h) - 1));
  if (s < (1 << log_h)) return a;
  return a == 0 ? 1 << (log_p - 1) : (1 << log_p) - a;
}
/// Item e (= thread + i threads, i < 8) of the paired split: (s < H, k < L), lanes over s
/// first, so that a warp writes X[t + P k] for adjacent t.
FFTCORE_HD inline TileElement pair_item(int e, int log_h) {
  return {e & ((1 << log_h) - 1), e >> log_h};
}
/// What item (s, k) of pair tile g computes: X[n] and X[M - n] from a = output ka of local
/// sequence sa and b = output kb of sb (n = 0: X[0] and X[M] from a, X[M / 2] from b). Tile 0's
/// item s = 0 takes t = 0's pairs (k < L / 2) or P / 2's (k >= L / 2, as k - L / 2).
struct PairSplit {
  int sa, ka, sb, kb, n;
};
FFTCORE_HD inline PairSplit pair_split(int s, int k, int g, int log_h, int log_l, int log_p) {
  int const h = 1 << log_h;
  int const l = 1 << log_l;
  int const t = (g << log_h) + s;
  if (t != 0) return {s, k, s + h, l - 1 - k, t + (k << log_p)};
  if (k < l / 2) return {0, k, 0, k == 0 ? l / 2 : l - k, k << log_p};
  int const kk = k - l / 2;
  return {h, kk, h, l - 1 - kk, (1 << (log_p - 1)) + (kk << log_p)};
}

/// Step A, B operand of n-tile j, register r, half h: x[n1 + 16 n2] of the task's 256-block,
/// n1 = group + 8 j, n2 = 2 quad + 8 r + h.
FFTCORE_HD inline int step_a_read(int k_q, int group, int quad, int j, int r, int h) {
  return (k_q << kLogSub) + group + 8 * j + 16 * (2 * quad + 8 * r + h);
}
/// Step A, D fragment of n-tile j, float i: output k_m = k1 + 16 k2 with k1 = group + 8 (i >> 1),
/// k2 = 8 j + 2 quad + (i & 1).
FFTCORE_HD inline int step_a_output_km(int group, int quad, int j, int i) {
  return group + 8 * (i >> 1) + 16 * (8 * j + 2 * quad + (i & 1));
}

}  // namespace fftcore::detail::tc::fast
