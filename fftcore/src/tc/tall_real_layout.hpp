// SPDX-License-Identifier: MIT
// The 1-D R2C and C2R in two tall passes over half the data (RealLayout::halves; the kernels are
// the tall pass's, kernels/tall_pass_kernel.cu). The R2C: N = N1 N2 reals x[n1 + N1 n2], N2 =
// 1024..4096, N1 = 512 or 1024 (splits: 2^19..2^22 reals); the C2R: N1 and N2 = 1024..4096
// (c2r_splits: 2^20..2^24 reals, below). Read as complex words z[j + (N1 / 2) n2] = x[2j + N1
// n2] + i x[2j + 1 + N1 n2], the data are N1 / 2 complex columns of N2 points, each holding two
// real columns.
//   Pass 1 (kColumnsPass): the tall pass's column form over those columns; stage 3 pairs the
//   outputs Z[k2] and Z[N2 - k2] of a column, separates the two real columns' spectra
//   A[k2] = (Z[k2] + conj Z[N2 - k2]) / 2 and B[k2] = -i (Z[k2] - conj Z[N2 - k2]) / 2 for
//   k2 <= N2 / 2 only (the rest are their conjugates), and writes Y[k2][2j] = A W_N^(2j k2),
//   Y[k2][2j + 1] = B W_N^((2j + 1) k2): rows of N1 words, 2 C adjacent words a row.
//   Pass 2 (kRowsPass): the tall pass's rows form over the N2 / 2 + 1 rows of Y (padded to
//   whole items of C); row k2's DFT F[k1] is X[k2 + N2 k1], written where that index is at most
//   N / 2 (k1 < N1 / 2), else as conj F[k1] to X[N - k2 - N2 k1] (rows 0 and N2 / 2 keep only
//   their own half: their mirrors are their own outputs). Each X[k], k <= N / 2, once.
// Two passes over N real-sized (2-byte) values each way, against three for the complex FFT of
// N / 2 points and the split kernel; no pair of sequences shares an item, so every store run is
// the tall pass's full C words (the paired split, NOTES.md session 25, halved them).
//
// The C2R the same backwards, x[n1 + N1 n2] = sum_k2 W_N2^(-n2 k2) W_N^(-n1 k2) sum_k1
// X[k2 + N2 k1] W_N1^(-n1 k1), with the two forms swapped (the column form reads what the rows
// form wrote and the other way round):
//   Pass A (kC2rColumnsPass): the column form, inverse, over the columns k2 <= N2 / 2 of the
//   half spectrum (padded to P = N2 / 2 + C of them, C pass A's columns an item): point k1 of
//   column k2 is X[k2 + N2 k1] while that index is at most N / 2, else conj X[N - k2 - N2 k1]
//   (spectrum_source); the imaginary parts of X[0] and X[N / 2] are dropped, as numpy's irfft
//   does (a Hermitian spectrum has none). Its pass twiddles W_N^(-n1 k2) on the outputs;
//   T[k2][n1] to Y at k2 + P n1: rows of P words, one per real column n1 of the output.
//   Pass B (kC2rRowsPass): the rows form, inverse, over the N1 / 2 pairs of those rows (2j and
//   2j + 1): T[.][n1] is the half spectrum of real column n1 (T[N2 - k2] = conj T[k2]), so
//   point k2 of sequence j is Z[k2] = A[k2] + i B[k2], A and B rows 2j and 2j + 1 at k2 <= N2 / 2
//   and their conjugates at N2 - k2 above (row_source; the imaginary parts at 0 and N2 / 2
//   dropped: those values are real but for rounding). Its outputs z[n2] = x[2j + N1 n2] + i x[2j
//   + 1 + N1 n2] are the output's complex words j + (N1 / 2) n2.
#pragma once

#include <cstdint>

#include "pass_params.hpp"
#include "tall_pass_layout.hpp"

namespace fftcore::detail::tc::tall_real {

inline constexpr int kColumnsPass = 1;     ///< PassParams::real_halves of the R2C's pass 1
inline constexpr int kRowsPass = 2;        ///< of its pass 2
inline constexpr int kC2rColumnsPass = 3;  ///< of the C2R's pass A
inline constexpr int kC2rRowsPass = 4;     ///< of its pass B

/// Pass 1's lengths: 1024..4096. Pass 2's: 512 and 1024, whose items of C = 32 rows write runs
/// of 32 words into the half spectrum; at 2048 and 4096 (16 and 8 words) the runs, one word off
/// the sector grid in the mirrored half and in every row of N / 2 + 1 but each eighth, cost
/// partial-sector writes: H100, pass 2 of 2^24 (4096 points) 1.50 ms under ncu with 1.12 GB
/// read from DRAM and 0.90 GB written for 0.54 GB each way, the R2C 2.17-2.18 ms against
/// 1.53-1.57 on the complex FFT and the split; 2^23 (2048) 1.70-1.72 against 1.49. And pass 1
/// at 512 (2^18 reals, 512 + 512) measured slower than the paired register-chained pass:
/// 1.30-1.32 against 1.17-1.18 (NOTES.md, session 25).
inline constexpr int kMinLogColumnsLength = 10;
inline constexpr int kMaxLogRowsLength = 10;

/// log2 N2 of N = 2^log_n reals for both directions: as long as the tall pass allows (4096)
/// with N1 at least 2^min_log_n1.
FFTCORE_HD constexpr int longest_n2(int log_n, int min_log_n1) {
  return log_n - min_log_n1 < tall_pass::kMaxLogLength ? log_n - min_log_n1
                                                       : tall_pass::kMaxLogLength;
}
/// Whether N2 = 2^log_n2 is at least 1024 and N1 = N / N2 within [2^min_log_n1, 2^max_log_n1].
FFTCORE_HD constexpr bool lengths_fit(int log_n, int log_n2, int min_log_n1, int max_log_n1) {
  return log_n2 >= kMinLogColumnsLength && log_n - log_n2 >= min_log_n1 &&
         log_n - log_n2 <= max_log_n1;
}

/// log2 N2 (pass 1's length) of N = 2^log_n reals: as long as pass 1 allows with N1 >= 512.
FFTCORE_HD constexpr int log_n2(int log_n) { return longest_n2(log_n, tall_pass::kMinLogLength); }
/// Whether N = 2^log_n splits into the two passes' lengths: 2^19 .. 2^22 reals (1024 + 512,
/// 2048 + 512, 4096 + 512, 4096 + 1024).
FFTCORE_HD constexpr bool splits(int log_n) {
  return lengths_fit(log_n, log_n2(log_n), tall_pass::kMinLogLength, kMaxLogRowsLength);
}
/// Whether a fast-DRAM device (the H200) takes the R2C's halves at N = 2^log_n reals. H200, ms
/// per 2^28 reals, halves / the complex FFT of half the points with the split in its last pass
/// (FFTCORE_TC_REAL_HALVES=0), two runs each in one call (NOTES.md, session 41): 2^19
/// 1.236-1.244 / 1.149-1.156, 2^20 1.146-1.164 / 1.165-1.171, 2^21 1.161-1.169 / 1.266-1.279,
/// 2^22 1.144-1.145 / 1.333-1.338. The C2R's halves win at every length there.
FFTCORE_HD constexpr bool r2c_halves_on_fast_dram(int log_n) { return log_n != 19; }

// Pass 1's stage 3: the thread of column butterfly w0 takes 2 G iterations v. Each reads two
// butterflies: w = w0 + round_step v and its partner 256 - w, whose outputs are the mirrors
// L - k2 of w's (w's output k3 < R3 / 2 gives row w + 256 k3 from it and the partner's output
// R3 - 1 - k3; the partner's outputs k' < R3 / 2 give rows (256 - w) + 256 k' likewise); for
// w0 = 0 the first iteration reads instead the two butterflies that pair with themselves, 0
// (rows 256 k3, k3 <= R3 / 2) and 128 (rows 128 + 256 k3, k3 < R3 / 2), so that every thread
// reads 4 G butterflies. The pairs of threads w0 and round_step - w0 (v < 2 G) are disjoint,
// so each butterfly is read once and each row k2 <= L / 2 of the column written once.
struct ColumnsStep {
  int w, pw;    ///< the butterflies read (pw: 256 - w, or 128 with the selves)
  bool selves;  ///< 0 and 128
};
FFTCORE_HD constexpr int columns_steps(int log_l) { return 2 << tall_pass::log_last_group(log_l); }
FFTCORE_HD constexpr ColumnsStep columns_step(int w0, int v, int log_l) {
  if (w0 == 0 && v == 0) return {0, 128, true};
  int const w = w0 + (v << tall_pass::log_round_step(log_l));
  return {w, 256 - w, false};
}

/// Pass 2: where output k1 of row k2 goes in the half spectrum (N = 2^log_n, N2 = 2^log_n2).
struct HalfTarget {
  bool write;
  bool mirror;  ///< conjugated, at N - k2 - N2 k1
  std::uint32_t index;
};
FFTCORE_HD constexpr HalfTarget half_target(std::uint32_t k2, std::uint32_t k1, int log_n,
                                            int log_n2) {
  std::uint32_t const n2 = 1u << log_n2, half_n1 = 1u << (log_n - log_n2 - 1);
  if (k2 > n2 / 2) return {false, false, 0};
  if (k1 < half_n1) return {true, false, k2 + (k1 << log_n2)};
  if (k2 == 0 && k1 == half_n1) return {true, false, 1u << (log_n - 1)};
  if (k2 == 0 || k2 == n2 / 2) return {false, false, 0};
  return {true, true, (1u << log_n) - k2 - (k1 << log_n2)};
}

/// Pass 1: real_halves = kColumnsPass, the column form's shape (adjacent columns, N2 points
/// N1 / 2 words apart, items of C), N = 2^halves_log_n, rows of Y N1 words apart
/// (out_elem_stride), column j's two words at 2 j (out_stride[0] = 2), no twiddles or hooks.
FFTCORE_HD inline bool columns_eligible(PassParams const& p) {
  int const log_l = p.log_length;
  if (log_l < kMinLogColumnsLength || log_l > tall_pass::kMaxLogLength) return false;
  std::int64_t const c = std::int64_t{1} << tall_pass::log_columns(log_l);
  std::int64_t const n1 = std::int64_t{1} << (p.halves_log_n - log_l);
  return p.real_halves == kColumnsPass && p.halves_log_n2 == log_l && splits(p.halves_log_n) &&
         log_n2(p.halves_log_n) == log_l && p.in_fp32 == 0 && p.out_fp32 == 0 &&
         p.log_twiddle_n == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
         p.extent[0] == n1 / 2 && p.extent[0] % c == 0 &&
         p.log_tile == tall_pass::log_columns(log_l) && p.in_stride[0] == 1 &&
         p.in_elem_stride == n1 / 2 && p.out_stride[0] == 2 && p.out_elem_stride == n1 &&
         p.scatter != 0;
}

/// Pass 2: real_halves = kRowsPass, the rows form's shape over rows of Y (N1 = L words, a
/// row's points adjacent, rows in_stride[0] = N1 apart, extent[0] = N2 / 2 + C of them, the last
/// C - 1 padding), writing rows of N / 2 + 1 (out_stride[1]; out_stride[0] = 0).
FFTCORE_HD inline bool rows_eligible(PassParams const& p) {
  int const log_l = p.log_length;
  if (log_l < tall_pass::kMinLogLength || log_l > kMaxLogRowsLength) return false;
  std::int64_t const c = std::int64_t{1} << tall_pass::log_columns(log_l);
  return p.real_halves == kRowsPass && p.halves_log_n2 + log_l == p.halves_log_n &&
         splits(p.halves_log_n) && log_n2(p.halves_log_n) == p.halves_log_n2 && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.log_twiddle_n == 0 && p.load_factors == nullptr &&
         p.store_factors == nullptr && p.in_elem_stride == 1 &&
         p.in_stride[0] == (std::int64_t{1} << log_l) &&
         p.extent[0] == (std::int64_t{1} << (p.halves_log_n2 - 1)) + c &&
         p.log_tile == tall_pass::log_columns(log_l) && p.out_stride[0] == 0 &&
         p.out_stride[1] == (std::int64_t{1} << (p.halves_log_n - 1)) + 1 && p.scatter != 0;
}

/// The C2R's lengths: pass A (N1) and pass B (N2) 1024..4096 each, N2 as long as it can be with
/// N1 = 1024: 2^20..2^24 reals (1024 + 1024, 1024 + 2048, 1024 + 4096, 2048 + 4096, 4096 + 4096).
/// Pass A at 512 measured slow (H100, ms per 2^28 reals, two runs in one call, NOTES.md session
/// 26, against the column split): 2^19 (512 + 1024) 1.25-1.27 against 1.04-1.05, 2^20 (512 +
/// 2048) 1.25-1.27 against 1.23-1.24, 2^21 (512 + 4096) 1.27 against 1.33-1.35, but 2^22 (1024 +
/// 4096) 1.18 against 1.37-1.38. Pass A's reads of X at N1 = 2048 and 4096 are runs of C = 16
/// and 8 words, one word off the sector grid in the mirrored half; unlike the R2C's pass-2
/// stores there (kMaxLogRowsLength), partial sectors cost reads only.
inline constexpr int kC2rMinLogLength = 10;
FFTCORE_HD constexpr int c2r_log_n2(int log_n) { return longest_n2(log_n, kC2rMinLogLength); }
FFTCORE_HD constexpr bool c2r_splits(int log_n) {
  return lengths_fit(log_n, c2r_log_n2(log_n), kC2rMinLogLength, tall_pass::kMaxLogLength);
}

/// The C2R: P, the words of a row of Y (pass A's columns, N2 / 2 + 1 padded to whole items of
/// C; N = 2^log_n, N2 = 2^log_n2).
FFTCORE_HD constexpr std::int64_t c2r_pitch(int log_n, int log_n2) {
  return (std::int64_t{1} << (log_n2 - 1)) +
         (std::int64_t{1} << tall_pass::log_columns(log_n - log_n2));
}

/// Where a C2R pass reads a point from: index (in X, or within the pair's rows of Y), whether
/// conjugated, whether its imaginary part is dropped.
struct Source {
  std::uint32_t index;
  bool conj;
  bool real_only;
};
/// Pass A: point n = b + (L / 16) m (L = N1 = 2^(log_n - log_n2); stage 1's butterfly b, input
/// m) of column k2 (< P): X[k2 + N2 n] for m < 8 (n < N1 / 2), else conj X[N - k2 - N2 n] (n >=
/// N1 / 2, whose index k2 + N2 n >= N / 2 is X's mirrored half, N / 2 itself at k2 = 0 and
/// n = N1 / 2, real only as X[0]). The kernel reads them through two running pointers.
FFTCORE_HD constexpr Source spectrum_source(std::uint32_t k2, int b, int m, int log_n, int log_n2) {
  int const log_l = log_n - log_n2;
  std::uint32_t const n =
      static_cast<std::uint32_t>(b) +
      (static_cast<std::uint32_t>(m) << tall_pass::log_column_butterflies(log_l));
  bool const real_only = k2 == 0 && b == 0 && (m == 0 || m == tall_pass::kRadix / 2);
  if (m < tall_pass::kRadix / 2) return {k2 + (n << log_n2), false, real_only};
  return {(1u << log_n) - k2 - (n << log_n2), true, real_only};
}
/// Pass B: point k2 = b + (L / 16) m (L = N2) of a sequence: row position k2 for m < 8, else
/// N2 - k2 conjugated; real only at k2 = 0 and N2 / 2.
FFTCORE_HD constexpr Source row_source(int b, int m, int log_n2) {
  std::uint32_t const k2 =
      static_cast<std::uint32_t>(b) +
      (static_cast<std::uint32_t>(m) << tall_pass::log_column_butterflies(log_n2));
  bool const real_only = b == 0 && (m == 0 || m == tall_pass::kRadix / 2);
  if (m < tall_pass::kRadix / 2) return {k2, false, real_only};
  return {(1u << log_n2) - k2, true, real_only};
}

/// Pass A: real_halves = kC2rColumnsPass, the column form's shape over the P columns of the half
/// spectrum (in_stride[0] = 1, points N2 apart), the pass twiddles of N (column k2's index k2:
/// twiddle_stride[0] = 1), writing columns of Y (out_stride[0] = 1, rows P apart).
FFTCORE_HD inline bool c2r_columns_eligible(PassParams const& p) {
  int const log_l = p.log_length;
  if (log_l < kC2rMinLogLength || log_l > tall_pass::kMaxLogLength) return false;
  std::int64_t const pitch = c2r_pitch(p.halves_log_n, p.halves_log_n2);
  return p.real_halves == kC2rColumnsPass && p.halves_log_n2 + log_l == p.halves_log_n &&
         c2r_splits(p.halves_log_n) && c2r_log_n2(p.halves_log_n) == p.halves_log_n2 &&
         p.in_fp32 == 0 && p.out_fp32 == 0 && p.log_twiddle_n == p.halves_log_n &&
         p.twiddle_stride[0] == 1 && p.twiddle_stride[1] == 0 && p.load_factors == nullptr &&
         p.store_factors == nullptr && p.in_stride[0] == 1 &&
         p.in_elem_stride == (std::int64_t{1} << p.halves_log_n2) && p.extent[0] == pitch &&
         p.log_tile == tall_pass::log_columns(log_l) && p.out_stride[0] == 1 &&
         p.out_elem_stride == pitch && p.scatter != 0;
}

/// Pass B: real_halves = kC2rRowsPass, the rows form's shape over the N1 / 2 row pairs of Y
/// (sequence j at 2 j P: in_stride[0] = 2 P, points adjacent), writing the output's complex
/// words (out_stride[0] = 1, points N1 / 2 apart).
FFTCORE_HD inline bool c2r_rows_eligible(PassParams const& p) {
  int const log_l = p.log_length;
  if (log_l < kC2rMinLogLength || log_l > tall_pass::kMaxLogLength) return false;
  std::int64_t const c = std::int64_t{1} << tall_pass::log_columns(log_l);
  std::int64_t const half_n1 = std::int64_t{1} << (p.halves_log_n - log_l - 1);
  return p.real_halves == kC2rRowsPass && p.halves_log_n2 == log_l && c2r_splits(p.halves_log_n) &&
         c2r_log_n2(p.halves_log_n) == log_l && p.in_fp32 == 0 && p.out_fp32 == 0 &&
         p.log_twiddle_n == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
         p.in_elem_stride == 1 &&
         p.in_stride[0] == 2 * c2r_pitch(p.halves_log_n, p.halves_log_n2) &&
         p.extent[0] == half_n1 && p.extent[0] % c == 0 &&
         p.log_tile == tall_pass::log_columns(log_l) && p.out_stride[0] == 1 &&
         p.out_elem_stride == half_n1 && p.scatter != 0;
}

}  // namespace fftcore::detail::tc::tall_real
