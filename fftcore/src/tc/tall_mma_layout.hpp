// SPDX-License-Identifier: MIT
// The tall pass's Tensor Core stages (kernels/tall_mma_kernel.cu): its radix-16 stages 1 and 2
// as FP16 matrix products, the tcFFT design, in place of 16-point DFTs in FP32 registers. The
// maps below are shared by the kernel and the CPU tests (tests/fftcore/tc_tall_mma_test.cpp).
//
// One mma.sync m16n8k16 (tc/mma.cuh) multiplies a 16x16 A by a 16x8 B. A tile is 8 butterflies
// of 16 points (8 adjacent columns of one butterfly w). Rows k and k + 8 of the DFT matrix F
// differ by (-1)^n in column n, so with E_k and O_k the sums over the even and the odd inputs
// (k < 8), Y_k = E_k + O_k and Y_(k+8) = E_k - O_k. E and O are each one real product
//   (16 x 8) = F_p (16 x 16) X_p (16 x 8),   p = 0 (even inputs), 1 (odd),
// X_p's row 2 q + c holding part c (0 real, 1 imaginary) of input 2 q + p, so that a B register
// (rows 2 q, 2 q + 1 of one column) is exactly one FP16 word of the item: lane (group g, thread
// t) passes, for product (k-step) s = p and register r, the word of input
//   input_of(t, r, s) = 2 (t + 4 r) + s
// of butterfly g, with no conversion. F_p's row g + 8 h is part h of output g, so that the two
// accumulator fragments give each lane both parts of E_g and O_g of butterflies 2 t and 2 t + 1,
// hence outputs g and g + 8 (output_of) as two adjacent words each (one 8-byte store). F's
// entries are cos and sin of multiples of 2 pi / 16, split into FP16 hi + lo parts (A_lo B +
// A_hi B, FP32 accumulation: ~2^-22 of the coefficients, so the product adds no rounding of its
// own; the words are rounded to FP16 once per stage, as the FP32 stages did). 4 MMAs per tile
// and stage (two chains of two) and 2 FP32 additions per output, against ~10 FP32 instructions
// per point for a 16-point DFT in registers.
//
// The item's words: the FP32 stages' slot(c, a) puts a pad word every L / 16 positions, which
// suits one thread per butterfly. Here a warp reads 4 inputs (t) of 8 columns (g) per access and
// writes outputs g of 8 columns (t), so the 4 rows of one access must fall in 4 distinct groups
// of 8 banks. mma_slot XOR-swizzles the bank group (bits 3 and 4 of the word index C a + c) by
// phi(n1) ^ eta(n2) of the position a = n3 + R3 n2 + (L / 16) n1, phi(x) = (x ^ 2 x) mod 4 one to
// one on bits 0, 1 of x, eta one to one on bits 0, 1 and on bits 1, 2: stage 1 writes outputs
// g (bits 0, 1 of n1), stage 2 reads inputs 2 t + s (bits 1, 2 of n2) and writes outputs g
// (bits 0, 1 of n2), and stage 3 (CUDA cores, 32 / C adjacent n1 per access where C < 32), and
// all land in distinct groups; no word is wasted (the swizzle permutes each aligned run of 32
// words).
#pragma once

#include "tall_pass_layout.hpp"

namespace fftcore::detail::tc::tall_pass::mma {

inline constexpr int kLogTileButterflies = 3;  ///< 8 butterflies (adjacent columns) a tile
inline constexpr int kTilesPerWarp = 16;       ///< per stage: C L / 16 / 8 / (threads / 32)

/// Tiles of a stage per item and warps per block.
FFTCORE_HD constexpr int log_tiles(int log_l) {
  return log_item(log_l) - kLogRadix - kLogTileButterflies;
}
FFTCORE_HD constexpr int log_warps(int log_l) { return log_threads(log_l) - 5; }
static_assert(log_tiles(9) - log_warps(9) == 4 && log_tiles(12) - log_warps(12) == 4,
              "16 tiles a warp and stage");

/// log2 of the column groups of 8 (C / 8) of an item.
FFTCORE_HD constexpr int log_column_groups(int log_l) {
  return log_columns(log_l) - kLogTileButterflies;
}
/// Tile i (< 16) of warp `warp`: tile index theta = 16 warp + i, columns 8 (theta mod C / 8) +
/// 0..7, butterfly w = theta / (C / 8) of its stage (stage 1: b; stage 2: b0 + R3 k1). So a
/// warp's tiles share w C / 8 at a time (stage 1's twiddles are loaded once per w).
FFTCORE_HD constexpr int tile_first_column(int warp, int i, int log_l) {
  return ((kTilesPerWarp * warp + i) & ((1 << log_column_groups(log_l)) - 1))
         << kLogTileButterflies;
}
FFTCORE_HD constexpr int tile_butterfly(int warp, int i, int log_l) {
  return (kTilesPerWarp * warp + i) >> log_column_groups(log_l);
}

/// The input (0..15) a lane passes for register r of product s (s: the inputs' parity), and the
/// output k of accumulator set mt it stores (mt = 0: E + O, output g; 1: E - O, output g + 8).
FFTCORE_HD constexpr int input_of(int t, int r, int s) { return 2 * (t + 4 * r) + s; }
FFTCORE_HD constexpr int output_of(int g, int mt) { return g + 8 * mt; }

/// Stage 1's twiddle table (tall_mma_kernel.cu: in shared memory after the fragments, L float2,
/// filled once per block): s3 W_L^(b k1) at entry 16 b + k1 (b < L / 16, k1 < 16), so that a
/// warp's reads, the eight k1 = output_of(g, mt) of its tile's butterfly b, are eight adjacent
/// float2 (one wavefront).
FFTCORE_HD constexpr int stage1_twiddle_entry(int b, int k1) { return (b << kLogRadix) + k1; }
/// The exponent e of the W_L^e at entry `entry`: b k1 mod L.
FFTCORE_HD constexpr int stage1_twiddle_exponent(int entry, int log_l) {
  return ((entry >> kLogRadix) * (entry & (kRadix - 1))) & ((1 << log_l) - 1);
}

/// The entry of F_s that A register r (low half: half = 0, high: 1) of lane (g, t) holds, as
/// the exponent e of W_16^e times a sign and a part: row g + 8 (r & 1) (part h = r & 1 of
/// output g), column 2 t + 8 (r >> 1) + half (part half of input input_of(t, r >> 1, s)).
/// Re Y = sum Re F Re X - Im F Im X, Im Y = sum Im F Re X + Re F Im X.
struct Coefficient {
  int exponent;    ///< of W_16 = exp(-2 pi i / 16)
  bool imaginary;  ///< the entry is (a sign times) Im W_16^exponent, else Re
  bool negated;
};
FFTCORE_HD constexpr Coefficient coefficient(int g, int t, int s, int r, int half) {
  int const n = input_of(t, r >> 1, s);
  int const e = (g * n) & 15;
  // h = 0: (Re F, -Im F); h = 1: (Im F, Re F).
  return (r & 1) == 0 ? Coefficient{e, half == 1, half == 1} : Coefficient{e, half == 0, false};
}

/// phi(x) = (x ^ 2 x) mod 4: one to one on x mod 4, and adjacent x (2 y, 2 y + 1) differ in
/// bit 0 (what stage 3 needs at C = 16, where a warp reads two adjacent n1 of two column groups).
FFTCORE_HD constexpr int phi(int x) { return (x ^ (x << 1)) & 3; }
/// eta(x) = (bit 0 ^ bit 2, bit 1): one to one on bits 0, 1 (stage 2's stores, outputs g) and on
/// bits 1, 2 (its loads, inputs 2 t + s); linear over XOR as phi is.
FFTCORE_HD constexpr int eta(int x) { return ((x ^ (x >> 2)) & 1) | (x & 2); }

/// The word of position a (< L) of column c (< C) in the Tensor Core stages' layout: C a + c
/// with its bank group (bits 3, 4) XORed by phi(n1) ^ eta(n2). One to one on [0, C L): the XOR
/// depends on bits of C a + c above bit 4 only (n1, n2 lie above n3's low two bits where C = 8,
/// above n3's bit 0 where C = 16, and above c where C = 32).
FFTCORE_HD constexpr int mma_slot(int c, int a, int log_l) {
  int const n1 = a >> log_column_butterflies(log_l);
  int const n2 = (a >> log_last_radix(log_l)) & (kRadix - 1);
  return ((a << log_columns(log_l)) + c) ^ ((phi(n1) ^ eta(n2)) << 3);
}

/// mma_slot is XOR-linear over the bits of (c, a): mma_slot(c1 | c2, a1 | a2) = mma_slot(c1, a1)
/// ^ mma_slot(c2, a2) whenever c1, c2 and a1, a2 share no set bits (the word index C a + c is
/// then an OR, and n1, n2 and phi are linear over XOR). The kernel splits each access that way:
/// a part fixed per lane and warp (computed once), a part per tile (a compile-time constant, one
/// XOR per tile), and a part whose bits lie above bit 4 and outside the others (an immediate
/// offset added to the address). The maps below are those parts; the CPU tests check every
/// access they form against mma_slot.
///
/// Stage 1's 8-byte stores: lane (g, t) of warp `warp` writes output g + 8 mt of columns
/// c0 + 2 t, c0 + 2 t + 1 of butterfly b = w_warp | d (d = i / (C / 8)) at position
/// b + (L / 16) (g + 8 mt).
FFTCORE_HD constexpr int stage1_store_lane(int g, int t, int warp, int log_l) {
  return mma_slot(2 * t, tile_butterfly(warp, 0, log_l) + (g << log_column_butterflies(log_l)),
                  log_l);
}
/// Stage 2's loads: lane (g, t) reads input 2 t + 8 r + s of column c0 + g of butterfly
/// w = w_warp | d at position b0 + R3 n2 + (L / 16) k1 (the part of s, which touches the bank
/// group, is one more XOR per tile: stage2_load_parity).
FFTCORE_HD constexpr int stage2_load_lane(int g, int t, int warp, int log_l) {
  return mma_slot(g, position(1, tile_butterfly(warp, 0, log_l), 2 * t, log_l), log_l);
}
FFTCORE_HD constexpr int stage2_load_parity(int s, int log_l) {
  return mma_slot(0, s << log_last_radix(log_l), log_l);
}
/// Stage 2's 8-byte stores: output g + 8 mt of columns c0 + 2 t, c0 + 2 t + 1, in place.
FFTCORE_HD constexpr int stage2_store_lane(int g, int t, int warp, int log_l) {
  return mma_slot(2 * t, position(1, tile_butterfly(warp, 0, log_l), g, log_l), log_l);
}
/// The part of tile i's butterfly offset d = i / (C / 8) (from w_warp) and first column
/// c0 = 8 (i mod C / 8) in stage s (0, 1). Linear in i too: tile_part(s, i1 | i2) =
/// tile_part(s, i1) ^ tile_part(s, i2), so a loop over groups of tiles forms the group's part at
/// run time and each tile's from its compile-time offset in the group.
FFTCORE_HD constexpr int tile_part(int s, int i, int log_l) {
  int const d = i >> log_column_groups(log_l);
  int const c0 = (i & ((1 << log_column_groups(log_l)) - 1)) << kLogTileButterflies;
  return mma_slot(c0, position(s, d, 0, log_l), log_l);
}
/// The offsets of the other accesses: stage 1's store of output g + 8 mt, stage 2's load of
/// register r (input + 8 r) and store of output g + 8 mt.
FFTCORE_HD constexpr int stage1_store_offset(int mt, int log_l) {
  return mma_slot(0, (8 * mt) << log_column_butterflies(log_l), log_l);
}
FFTCORE_HD constexpr int stage2_load_offset(int r, int log_l) {
  return mma_slot(0, (8 * r) << log_last_radix(log_l), log_l);
}
FFTCORE_HD constexpr int stage2_store_offset(int mt, int log_l) {
  return mma_slot(0, (8 * mt) << log_last_radix(log_l), log_l);
}

/// Stage 3 (thread j on column c = j mod C, butterflies w = w0 | round_step v, v = G u + e, input
/// m): the thread's part, the round's (u; a runtime XOR per round), and the constant part of
/// (e, m), whose bits 3 and 4 select one of four per-round bases and whose other bits are an
/// immediate offset.
FFTCORE_HD constexpr int stage3_thread(int c, int w0, int log_l) {
  return mma_slot(c, position(2, w0, 0, log_l), log_l);
}
FFTCORE_HD constexpr int stage3_round(int u, int log_l) {
  return mma_slot(0, position(2, (u << log_last_group(log_l)) << log_round_step(log_l), 0, log_l),
                  log_l);
}
FFTCORE_HD constexpr int stage3_constant(int e, int m, int log_l) {
  return mma_slot(0, position(2, e << log_round_step(log_l), m, log_l), log_l);
}
inline constexpr int kBankGroupBits = 3 << 3;  ///< bits 3 and 4 of a word index

}  // namespace fftcore::detail::tc::tall_pass::mma
