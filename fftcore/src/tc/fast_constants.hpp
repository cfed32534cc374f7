// SPDX-License-Identifier: MIT
// The block constants of the register-chained pass (kernels/fast_pass_kernel.cu) as register
// images per lane, computed once on the host and uploaded behind the coarse twiddle table
// (upload_twiddle_tables), one set per direction. The general pass kernel's merge16 takes its
// DFT-16 A fragments (`dft`) from here too. Every block used to build them in warp 0:
// 32 scattered table look-ups and their FP16 splits per block, on the critical path before the
// block's first barrier (the other warps waited for them there).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace fftcore::detail::tc {

/// Per lane (group g = lane / 4, quad q = lane % 4) of the step-A DFT-16 products.
struct FastConstants {
  /// A fragments of F[m][n] = W_16^(m n) (conjugated for the inverse), parts re_hi, re_lo,
  /// im_hi, im_lo: register r holds F[g + 8 (r & 1)][c], F[...][c + 1], c = 2 q + 8 (r >> 1), as
  /// FP16 pairs, F = hi + lo with hi = fp16(f), lo = fp16(f - hi), f the FP32 coarse-table value.
  uint4 dft[4][32];
  /// The same parts as B fragments of the second product: registers (0, 2, 1, 3).
  uint4 dft_b[4][32];
  /// W_256^(n1 k1) for n-tile j and a in {0, 1} at twiddle[2 j + a]: k1 = g + 8 a,
  /// n1 = 8 j + 2 q and n1 + 1 as (re, im, re, im).
  float4 twiddle[4][32];
};

/// float2 entries of the coarse table before the constants, and of one direction's set.
inline constexpr int kFastConstantsOffset = 1 << 14;
inline constexpr int kFastConstantsEntries = static_cast<int>(sizeof(FastConstants) / sizeof(float2));

/// The forward then the inverse constants, from the FP32 coarse table (W_{2^14}^i), as float2
/// entries to append to it.
[[nodiscard]] std::vector<float2> make_fast_constants(std::vector<float2> const& coarse);

}  // namespace fftcore::detail::tc
