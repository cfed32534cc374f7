// SPDX-License-Identifier: MIT
// The fused real transforms of n = 2 M = 128, 256 and 512 points (1-D, RealLayout::small with
// M = 64, 128, 256; rank 2 M = 64, 128; kernels/medium_real_kernel.cu): every index map of the
// kernel, shared with the CPU tests.
//
// Those sizes ran as a warp pass into FP16 Z and the split kernel: ~12 bytes per real point
// where the transform needs 4-5, 0.66x / 0.86x the speed of the complex transform of as many
// points (H200). One thread cannot hold a row's M complex values in FP32 registers, so a row
// belongs to P = M / 16 lanes of a warp (G = 32 / P rows per warp), 16 values per lane, and
// the M-point FFT is M = 16 x P:
//   Z[k1 + 16 k2] = sum_p W_P^(p k2) W_M^(p k1) sum_n1 W_16^(n1 k1) z[P n1 + p].
// R2C: lane p loads z[P n1 + p] (n1 < 16; a group's P lanes read P adjacent words per n1),
// takes the 16-point DFT over n1, multiplies output k1 by W_M^(p k1) and writes it to the
// warp's exchange slots; lane q then reads C = 16 / P columns k1 over p and takes the P-point
// DFTs: it holds Z[k1 + 16 k2] for its columns and every k2. The columns are dealt so that
// each lane's set is closed under k1 -> 16 - k1 (mod 16): the split pairs Z[k] with Z[M - k],
// k = k1 + 16 k2 and M - k = (16 - k1) + 16 (P - 1 - k2) (k1 != 0), so it runs in registers.
// The half spectrum (rows of M + 1 words) goes out through the warp's staging words as
// 128-byte runs.
// C2R is the transpose: the half-spectrum rows come in through the staging words, lane q
// forms Z[k] of its columns by the inverse split, takes P-point DFTs over k2 (the forward DFT
// of conj Z, so z = conj(DFT(conj Z))), writes the exchange, and lane p multiplies by
// W_M^(p k1), takes the 16-point DFT over k1 and stores z[P n1 + p].
// FP32 throughout, one FP16 rounding per output.
//
// M = 256 (n = 512), the shared split: P = 16 lanes a row, C = 1 column a lane (k1 = q), G = 2
// rows a warp. A lane's column k1 and its partner 16 - k1 then lie on two lanes, so Z goes
// through the warp's exchange slots in natural order (z_slot) between the P-point DFTs and the
// split: lane q of row g takes the items k = q + 16 j (j < 8) paired with M - k (k = 0: X[0]
// and X[M]), lane 0 also X[M / 2]. It ran on the register-chained pass with the split in its
// store before (fast_pass_layout.hpp, real_row_eligible): 0.43 ms per 2^28 reals on both the
// H100 and the H200, 1.37x the complex transform of as many points on the H200, where the
// C2C of 512 points runs 0.59 ms.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::medium_real {

inline constexpr int kMinLogM = 6;     ///< M = 64 (n = 128)
inline constexpr int kMaxLogM = 7;     ///< M = 128 (n = 256): the last with the split in registers
inline constexpr int kLogMShared = 8;  ///< M = 256 (n = 512): the shared split, 1-D only
inline constexpr int kLogValues = 4;   ///< 16 values per lane
inline constexpr int kWarps = 8;       ///< 256 threads per block

/// log2 of P = M / 16, the lanes of a row.
FFTCORE_HD constexpr int log_lanes(int log_m) { return log_m - kLogValues; }
/// log2 of C = 16 / P, the columns k1 a lane takes in the second step.
FFTCORE_HD constexpr int log_columns(int log_m) { return kLogValues - log_lanes(log_m); }
/// log2 of G = 32 / P, the rows of a warp.
FFTCORE_HD constexpr int log_rows(int log_m) { return 5 - log_lanes(log_m); }

/// Lane q's column pair u (< C / 2): t = q + P u (0..7). Its column slots 2u and 2u + 1 hold
/// t and 16 - t (t = 0: the self-paired 0 and 8), so a lane's set is closed under
/// k1 -> 16 - k1 (mod 16), and for fixed u the P lanes of a row take P adjacent t: the split's
/// half-spectrum words t + 16 k2 and M - t - 16 k2 of a row lie on P adjacent banks.
FFTCORE_HD constexpr int pair_column(int q, int u, int log_m) {
  return q + (u << log_lanes(log_m));
}
/// Whether M = 2^log_m takes the shared split (C = 1, Z through the exchange slots).
FFTCORE_HD constexpr bool shared_split(int log_m) { return log_m == kLogMShared; }

/// The column k1 of column slot d = C q + e (lane q's e-th; the shared split: k1 = q).
FFTCORE_HD constexpr int column(int d, int log_m) {
  if (shared_split(log_m)) return d;
  int const lc = log_columns(log_m);
  int const t = pair_column(d >> lc, (d & ((1 << lc) - 1)) >> 1, log_m);
  return (d & 1) == 0 ? t : t == 0 ? 8 : 16 - t;
}
/// The split's items: lane q's pair u takes P items k2, Z[k] with Z[M - k], k = t + 16 k2
/// (slot 2u's k2 with slot 2u + 1's P - 1 - k2). Lane 0's pair 0 (t = 0) runs the same P
/// items, so that the warp does not diverge, on its own columns: k2 < P / 2 column 8's
/// 8 + 16 k2 (slot 1's k2 with its P - 1 - k2), then column 0's 16 j, j = k2 - P / 2 (slot 0's j
/// with its P - j mod P; j = 0 is Z[0] with itself: X[0] and X[M]); X[M / 2] apart. This is
/// lane 0's k of item k2.
FFTCORE_HD constexpr int zero_item(int k2, int log_m) {
  int const half = 1 << (log_lanes(log_m) - 1);
  return k2 < half ? 8 + 16 * k2 : 16 * (k2 - half);
}

/// The lane of its row that holds column k1 in the second step.
FFTCORE_HD constexpr int owner(int k1, int log_m) {
  if (shared_split(log_m)) return k1;
  int const t = k1 == 8 ? 0 : k1 < 8 ? k1 : 16 - k1;
  return t & ((1 << log_lanes(log_m)) - 1);
}

/// float2 slots of a warp's exchange: G rows of 16 columns of P values, each row padded by P.
inline constexpr int kExchangeSlots = 17 * 32;
/// The exchange slot of row g (< G), column k1 and lane p (< P): XOR-swizzled by the lane
/// that owns the column, so that the first step's accesses (k1 fixed, g and p across lanes) and
/// the second's (p fixed, k1 = column(C q + e) across lanes q) both hit 16 distinct float2
/// banks per half-warp.
FFTCORE_HD constexpr int exchange_slot(int g, int k1, int p, int log_m) {
  int const lp = log_lanes(log_m);
  return g * (17 << lp) + (k1 << lp) + (p ^ owner(k1, log_m));
}

/// The shared split's exchange slot of Z[k] (k < M) of row g: natural order within the row's
/// 17 P slots, so that the P lanes of a row touch P adjacent slots both when they write Z[q +
/// 16 k2] and when they read Z[q + 16 j] or Z[M - q - 16 j].
FFTCORE_HD constexpr int z_slot(int g, int k, int log_m) {
  return g * (17 << log_lanes(log_m)) + k;
}
/// Its items per lane: M / 32 pairs k = q + 16 j, j < M / 32 (8 at M = 256).
FFTCORE_HD constexpr int shared_items(int log_m) { return 1 << (log_m - 5); }

/// The split's twiddles as powers of W_32 (exact, k2 < P): W_2M^(16 k2), the step between a
/// column's items, and W_2M^(8 + 16 k2), column 8's (16 k2 / 2M = 256 k2 / M / 32).
FFTCORE_HD constexpr int split_step_power(int k2, int log_m) { return (k2 << 8) >> log_m; }
FFTCORE_HD constexpr int split_w8_power(int k2, int log_m) { return ((k2 << 8) + 128) >> log_m; }

/// The warp's rows staged in shared memory (its G rows of n reals, as M words, or of M + 1
/// half-spectrum words) lie at a row stride of M + P words, over the first half of the
/// exchange slots (G (M + P) = 544 words at every M): the 16-point side's words P n1 + p of row
/// g and the split's t + 16 k2 (t = q + P u) then fall on 32 distinct banks (4 g + p, 8 g + p
/// mod 32), while the warp copies its rows in and out as runs of 32 words.
inline constexpr int kStagingWords = 17 * 32;
FFTCORE_HD constexpr int staging_stride(int log_m) {
  return (1 << log_m) + (1 << log_lanes(log_m));
}
/// The staging word of word w of the warp's run of rows of M words (the reals)...
FFTCORE_HD constexpr int real_slot(int w, int log_m) {
  return w + (w >> log_m) * (1 << log_lanes(log_m));
}
/// ... and of its run of rows of M + 1 words (the half spectrum).
FFTCORE_HD constexpr int spectrum_slot(int w, int log_m) {
  return w + w / ((1 << log_m) + 1) * ((1 << log_lanes(log_m)) - 1);
}

}  // namespace fftcore::detail::tc::medium_real
