// SPDX-License-Identifier: MIT
// The two DFT steps the mirror pass's kernels share (mirror_pass_layout.hpp): both directions
// take a sequence's 128 points as the column pass does, 16-point DFTs in step 1 and 8-point ones
// over the warps in step 2, through one exchange in shared memory.
#pragma once

#include "tc/kernels/complex_math.cuh"
#include "tc/mirror_pass_layout.hpp"

namespace fftcore::detail::tc::mirror_pass {

/// Step 1 of lane `lane` in role p (a[n1]: point 8 n1 + p of its sequence): the 16-point DFT,
/// output k1 times W_128^(p k1) (powers of one table entry, <= 15 deep, formed as they are
/// stored so that no array of them stays live) to the exchange at [k1][p][lane].
__device__ __forceinline__ void step1(float2 (&a)[1 << kLogR1], int role, int lane,
                                      float2 const* coarse, float2* exchange) {
  dft_pow2<kLogR1>(a);  // a[bit_reverse(k1)] = sum_n1 W_16^(n1 k1) y[8 n1 + role]
  float2 const w1 = __ldg(coarse + (role << (kLogCoarse - kLogLength)));
  float2 f = make_float2(1.f, 0.f);
#pragma unroll
  for (int k1 = 0; k1 < (1 << kLogR1); ++k1) {
    exchange[exchange_slot(k1, role, lane)] = k1 == 0 ? a[0] : cmul(a[bit_reverse<kLogR1>(k1)], f);
    f = cmul(f, w1);
  }
}

/// Step 2's inputs of warp w's lane: z[e][p] = the exchange's [2 w + e][p][lane] (k1 = 2 w + e
/// over the roles p); its 8-point DFTs then give z[e][bit_reverse(k2)], output k1 + 16 k2.
__device__ __forceinline__ void step2_inputs(float2 (&z)[1 << kLogStep2Columns][kWarps], int w,
                                             int lane, float2 const* exchange) {
#pragma unroll
  for (int e = 0; e < (1 << kLogStep2Columns); ++e) {
#pragma unroll
    for (int p = 0; p < kWarps; ++p) {
      z[e][p] = exchange[exchange_slot((w << kLogStep2Columns) + e, p, lane)];
    }
  }
}

}  // namespace fftcore::detail::tc::mirror_pass
