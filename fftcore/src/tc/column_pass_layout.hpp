// SPDX-License-Identifier: MIT
// The column pass (kernels/column_pass_kernel.cu): FP16 passes of L = 32 .. 128 points down
// adjacent columns (the strided first and middle passes of 1-D transforms, twiddled, and the
// column passes of 2-D transforms), on CUDA cores. Which passes it takes and its index maps,
// shared by the kernel and the CPU tests.
//
// A block takes 32 adjacent columns t (one per lane) in each round and P = L / 16 warps:
//   step 1: warp p, lane t loads x_t[P n1 + p], n1 < 16 (for a fixed n1 the warp reads 32
//           adjacent words: one 128-byte line), takes the 16-point DFT over n1 in FP32
//           registers, multiplies output k1 by scale W_L^(p k1) and writes it to shared memory
//           at [k1][p][t];
//   step 2: after a block barrier, warp w, lane t takes the C = 16 / P columns
//           k1 = C w + e (e < C) of column t, reads their P values over p, takes the P-point
//           DFTs and stores X_t[k1 + 16 k2] (k2 < P) times the pass twiddle W^(tw(t) k) (for a
//           fixed output the warp writes 32 adjacent words again).
// X[k1 + 16 k2] = sum_p W_P^(p k2) W_L^(p k1) sum_n1 W_16^(n1 k1) x[P n1 + p] is the DFT. Both
// shared accesses have t fastest, so every warp access is conflict-free. One FP16 rounding.
// The general kernel ran these passes at 26-34 % of the copy bandwidth. At L = 256 (16 warps
// of ~100 registers: one block per SM) this kernel measured slower than the register-chained
// Tensor Core pass (H200: 256 x 256 1.43 -> 1.50 ms, 2^24 as 8,8,8 2.83 -> 2.89 ms), so 256
// stays there.
#pragma once

#include "pass_params.hpp"

namespace fftcore::detail::tc::column {

inline constexpr int kMinLogLength = 5;  ///< L = 32
inline constexpr int kMaxLogLength = 7;  ///< L = 128
inline constexpr int kLogR1 = 4;         ///< step 1: 16-point DFTs
inline constexpr int kLogColumns = 5;    ///< 32 adjacent columns per round (one per lane)

/// log2 of P = L / 16, the warps of a block (the length of step 2's DFTs).
FFTCORE_HD constexpr int log_warps(int log_l) { return log_l - kLogR1; }
/// log2 of C = 16 / P, the k1 columns a thread takes in step 2.
FFTCORE_HD constexpr int log_step2_columns(int log_l) { return 2 * kLogR1 - log_l; }
/// float2 slots of the block's exchange: 16 x P x 32.
FFTCORE_HD constexpr int exchange_slots(int log_l) { return 1 << (log_l + kLogColumns); }
/// The exchange slot of (k1, p, t).
FFTCORE_HD constexpr int exchange_slot(int k1, int p, int t, int log_l) {
  return (((k1 << log_warps(log_l)) + p) << kLogColumns) + t;
}

/// Whether the column pass runs `p`: FP16 in and out, 32 <= L <= 128, no hooks and no split
/// but the C2R one in its load (real_in_columns: the first pass of a row FFT, reading `in`),
/// adjacent columns on both sides (stride[0] = 1) with tiles of whole rounds of 32 columns
/// (T >= 32), points at least T apart, and a layout safe to run in place block by block (a
/// block reads every point of its columns before its barrier and writes after it).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  bool const real_in = p.real_in_columns != 0;
  return p.log_length >= kMinLogLength && p.log_length <= kMaxLogLength && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
         p.conjugate_store == 0 && p.real_in == 0 && p.real_out == 0 && p.real_pairs == 0 &&
         p.in_stride[0] == 1 && p.out_stride[0] == 1 && p.log_tile >= kLogColumns &&
         p.in_elem_stride >= (std::int64_t{1} << p.log_tile) &&
         p.out_elem_stride >= (std::int64_t{1} << p.log_tile) &&
         (!real_in || (p.src == Buffer::kIn && p.scatter != 0 && p.extent[0] == p.in_elem_stride &&
                       p.extent[2] == 1)) &&
         (p.scatter != 0 || same_places(p));
}

/// Rounds of 32 columns a block takes over its tile.
FFTCORE_HD constexpr int log_rounds(int log_tile) { return log_tile - kLogColumns; }

}  // namespace fftcore::detail::tc::column
