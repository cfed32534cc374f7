// SPDX-License-Identifier: MIT
// FP32 complex helpers of the kernels and the twiddle look-ups. Tables hold the forward
// twiddles exp(-2 pi i e / M); the inverse transform uses their conjugates.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "tc/pass_params.hpp"

namespace fftcore::detail::tc {

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
/// t[k] = s w^k for k < kR (a power of two), by products in a tree (t[span + k] = t[k]
/// w^span, w^span by squaring): the same number of products as the chain t[k + 1] = t[k] w
/// within a few, but log2 kR + 1 deep instead of kR - 1, so that a latency-bound kernel does
/// not wait on the chain (FP32 rounding: a few 2^-24 relative either way).
template <int kR>
__device__ __forceinline__ void scaled_powers(float s, float2 w, float2 (&t)[kR]) {
  t[0] = make_float2(s, 0.f);
  float2 p = w;  // w^span
#pragma unroll
  for (int span = 1; span < kR; span *= 2) {
    t[span] = make_float2(s * p.x, s * p.y);
#pragma unroll
    for (int k = 1; k < span; ++k) t[span + k] = cmul(t[k], p);
    if (2 * span < kR) p = cmul(p, p);
  }
}
__device__ __forceinline__ float2 cadd(float2 a, float2 b) {
  return make_float2(a.x + b.x, a.y + b.y);
}
__device__ __forceinline__ float2 csub(float2 a, float2 b) {
  return make_float2(a.x - b.x, a.y - b.y);
}
__device__ __forceinline__ float2 cscale(float2 a, float s) {
  return make_float2(a.x * s, a.y * s);
}
__device__ __forceinline__ float2 cconj(float2 a) { return make_float2(a.x, -a.y); }

/// W_{2^14}^index from the coarse table, conjugated for the inverse direction.
__device__ __forceinline__ float2 coarse_twiddle(float2 const* coarse, int index, bool inverse) {
  float2 w = __ldg(coarse + index);
  if (inverse) w.y = -w.y;
  return w;
}

/// W_{2^15}^n (forward), n < 2^15, one step past the coarse table: W_{2^14}^(n / 2), times
/// W_{2^15} for odd n.
__device__ __forceinline__ float2 w_2pow15(float2 const* coarse, int n) {
  float2 const w = __ldg(coarse + (n >> 1));
  return (n & 1) != 0 ? cmul(w, make_float2(1.0f, -1.917475973e-04f)) : w;
}

/// W_{2^28}^ex (pass twiddles) from the coarse and fine tables, conjugated for the inverse.
__device__ __forceinline__ float2 pass_twiddle(float2 const* coarse, float2 const* fine,
                                               std::uint32_t ex, bool inverse) {
  float2 wv =
      cmul(__ldg(coarse + (ex >> kLogCoarse)), __ldg(fine + (ex & ((1u << kLogCoarse) - 1u))));
  if (inverse) wv.y = -wv.y;
  return wv;
}

/// Factor `index` of an ExecuteHooks array, conjugated on request.
__device__ __forceinline__ float2 hook_factor(void const* factors, std::uint32_t index,
                                              bool conjugate) {
  float2 f = __ldg(static_cast<float2 const*>(factors) + index);
  if (conjugate) f.y = -f.y;
  return f;
}

/// The lane's four merge-16 twiddles W^(m k), m = 2 quad + {0, 1, 8, 9} (tw[r][h] for
/// m = 2 quad + h + 8 r), from w1 = W^k alone: powers by FP32 products, at most five deep, so
/// their relative error stays a few 2^-24, far below the FP16 rounding of the results. One
/// table load per column instead of four scattered ones (those loads, up to 32 cache lines per
/// warp instruction, were the largest part of the kernel's L1 traffic).
__device__ __forceinline__ void merge16_twiddles(float2 (&tw)[2][2], float2 w1, int quad) {
  float2 const w2 = cmul(w1, w1);
  float2 const w4 = cmul(w2, w2);
  float2 const w8 = cmul(w4, w4);
  float2 base = (quad & 1) != 0 ? w2 : make_float2(1.f, 0.f);
  if ((quad & 2) != 0) base = cmul(base, w4);
  tw[0][0] = base;
  tw[0][1] = cmul(base, w1);
  tw[1][0] = cmul(base, w8);
  tw[1][1] = cmul(tw[1][0], w1);
}

/// W_32^i (forward), i < 16: the real splits' twiddle factors (the Stockham pass's W_{2M}^(T i),
/// 2M / T = 32; the small real kernel's W_{2M}^k, 2M <= 32). A switch, so that a constant i folds
/// to immediates (a constant array indexed in an unrolled loop was kept on the stack).
__device__ __forceinline__ float2 w32(int i) {
  switch (i) {
    case 0:
      return make_float2(1.000000000e+00f, -0.000000000e+00f);
    case 1:
      return make_float2(9.807852804e-01f, -1.950903220e-01f);
    case 2:
      return make_float2(9.238795325e-01f, -3.826834324e-01f);
    case 3:
      return make_float2(8.314696123e-01f, -5.555702330e-01f);
    case 4:
      return make_float2(7.071067812e-01f, -7.071067812e-01f);
    case 5:
      return make_float2(5.555702330e-01f, -8.314696123e-01f);
    case 6:
      return make_float2(3.826834324e-01f, -9.238795325e-01f);
    case 7:
      return make_float2(1.950903220e-01f, -9.807852804e-01f);
    case 8:
      return make_float2(0.000000000e+00f, -1.000000000e+00f);
    case 9:
      return make_float2(-1.950903220e-01f, -9.807852804e-01f);
    case 10:
      return make_float2(-3.826834324e-01f, -9.238795325e-01f);
    case 11:
      return make_float2(-5.555702330e-01f, -8.314696123e-01f);
    case 12:
      return make_float2(-7.071067812e-01f, -7.071067812e-01f);
    case 13:
      return make_float2(-8.314696123e-01f, -5.555702330e-01f);
    case 14:
      return make_float2(-9.238795325e-01f, -3.826834324e-01f);
    default:
      return make_float2(-9.807852804e-01f, -1.950903220e-01f);
  }
}

/// W_64^i (forward), i < 32: W_32^(i / 2), times W_64 for odd i (one FP32 product, ~1e-7). The
/// real splits' twiddles where 2M / T or 2M is 64 (the Stockham pass at E = 32, the small real
/// kernel at M = 32).
__device__ __forceinline__ float2 w64(int i) {
  float2 const w = w32(i >> 1);
  return (i & 1) == 0 ? w : cmul(w, make_float2(9.951847267e-01f, -9.801714033e-02f));
}

/// The C2R split of one value (real_split.hpp's split_inverse_pair, the 1/4 folded in): Z[n] / 4
/// from a = X[n], b = X[M - n] and w = W_2M^n / 4, as s / 4 + i conj(w) d with s = a + conj b,
/// d = a - conj b (the callers zero the imaginary parts of X[0] and X[M]).
__device__ __forceinline__ float2 split_inverse_quarter(float2 a, float2 b, float2 w) {
  float const sx = a.x + b.x, sy = a.y - b.y;
  float const dx = a.x - b.x, dy = a.y + b.y;
  float const px = w.x * dx + w.y * dy, py = w.x * dy - w.y * dx;  // conj(w) d
  return make_float2(fmaf(sx, 0.25f, -py), fmaf(sy, 0.25f, px));
}

/// Both values of the pair from one s and d: zn = Z[n] / 4 (split_inverse_quarter) and
/// zm = Z[M - n] / 4 = conj(s / 4 - i conj(w) d) (real_split.hpp's split_inverse_pair). zm.y
/// is written as -(s_y / 4 - p_x), the form whose conjugate the paired Stockham C2R compiled
/// and was measured with (same SASS).
__device__ __forceinline__ void split_inverse_quarter_pair(float2 a, float2 b, float2 w,
                                                           float2& zn, float2& zm) {
  float const sx = a.x + b.x, sy = a.y - b.y;
  float const dx = a.x - b.x, dy = a.y + b.y;
  float const px = w.x * dx + w.y * dy, py = w.x * dy - w.y * dx;  // conj(w) d
  zn = make_float2(fmaf(sx, 0.25f, -py), fmaf(sy, 0.25f, px));
  zm = make_float2(fmaf(sx, 0.25f, py), -fmaf(sy, 0.25f, -px));
}

/// W_8^k (k < 8) without a table: the twiddles inside the radix-2/4/8 butterflies.
__device__ __forceinline__ float2 w8(int k, bool inverse) {
  constexpr float c = 0.70710678118654752f;
  float2 w;
  switch (k & 7) {
    case 0: w = make_float2(1.f, 0.f); break;
    case 1: w = make_float2(c, -c); break;
    case 2: w = make_float2(0.f, -1.f); break;
    case 3: w = make_float2(-c, -c); break;
    case 4: w = make_float2(-1.f, 0.f); break;
    case 5: w = make_float2(-c, c); break;
    case 6: w = make_float2(0.f, 1.f); break;
    default: w = make_float2(c, c); break;
  }
  if (inverse) w.y = -w.y;
  return w;
}

/// In-register DFT of 2^kLogR <= 8 points (decimation in frequency): on return
/// a[bit_reverse(k)] holds X[k].
template <int kLogR>
__device__ __forceinline__ void dft_small(float2 (&a)[1 << kLogR], bool inverse) {
  constexpr int kR = 1 << kLogR;
#pragma unroll
  for (int span = kR / 2; span >= 1; span /= 2) {
#pragma unroll
    for (int start = 0; start < kR; start += 2 * span) {
#pragma unroll
      for (int i = 0; i < span; ++i) {
        float2 const u = a[start + i];
        float2 const v = a[start + i + span];
        a[start + i] = cadd(u, v);
        float2 const d = csub(u, v);
        a[start + i + span] = i == 0 ? d : cmul(d, w8(i * (4 / span), inverse));
      }
    }
  }
}

/// W_16^e (forward) for e < 8 times d (the butterflies of the Q-point DFTs): trivial for e = 0
/// and 4.
__device__ __forceinline__ float2 times_w16(float2 d, int e) {
  if (e == 0) return d;
  if (e == 4) return make_float2(d.y, -d.x);
  constexpr float kC1 = 0.92387953251128674f;
  constexpr float kS1 = 0.38268343236508978f;
  constexpr float kC2 = 0.70710678118654752f;
  float2 wv;
  switch (e) {
    case 1: wv = make_float2(kC1, -kS1); break;
    case 2: wv = make_float2(kC2, -kC2); break;
    case 3: wv = make_float2(kS1, -kC1); break;
    case 5: wv = make_float2(-kS1, -kC1); break;
    case 6: wv = make_float2(-kC2, -kC2); break;
    default: wv = make_float2(-kC1, -kS1); break;
  }
  return cmul(d, wv);
}

/// W_32^e (forward) for e < 16 times d: the even powers through times_w16, the odd ones by a
/// product with w32(e).
__device__ __forceinline__ float2 times_w32(float2 d, int e) {
  return (e & 1) == 0 ? times_w16(d, e >> 1) : cmul(d, w32(e));
}

/// One radix-2 stage (butterfly span kSpan <= 16) of a decimation-in-frequency DFT; every index
/// is a template constant, so the array stays in registers.
template <int kR, int kSpan>
__device__ __forceinline__ void dif_stage(float2 (&a)[kR]) {
  static_assert(kSpan <= 16, "twiddles up to W_32");
#pragma unroll
  for (int start = 0; start < kR; start += 2 * kSpan) {
#pragma unroll
    for (int i = 0; i < kSpan; ++i) {
      float2 const u = a[start + i];
      float2 const v = a[start + i + kSpan];
      a[start + i] = cadd(u, v);
      a[start + i + kSpan] = times_w32(csub(u, v), i * (16 / kSpan));
    }
  }
  if constexpr (kSpan > 1) dif_stage<kR, kSpan / 2>(a);
}

/// In-register forward DFT of 2^kLogR <= 32 points, decimation in frequency:
/// a[bit_reverse(k)] = X[k].
template <int kLogR>
__device__ __forceinline__ void dft_pow2(float2 (&a)[1 << kLogR]) {
  dif_stage<(1 << kLogR), (1 << kLogR) / 2>(a);
}

template <int kLogR>
__host__ __device__ constexpr int bit_reverse(int k) {
  int r = 0;
  for (int b = 0; b < kLogR; ++b) r |= ((k >> b) & 1) << (kLogR - 1 - b);
  return r;
}

}  // namespace fftcore::detail::tc
