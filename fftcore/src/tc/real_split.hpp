// SPDX-License-Identifier: MIT
// The split step that turns a complex FFT of M = n/2 points into a real one of n points, and
// back, per pair of outputs; shared by the kernel (real_transform.cu) and the CPU tests.
//
// R2C: the n reals read as M complex values z[j] = x[2j] + i x[2j+1], Z = DFT_M(z); with
// W = exp(-2 pi i / n), for k = 0..M:
//   X[k] = (Z[k] + conj(Z[M-k])) / 2 - i W^k (Z[k] - conj(Z[M-k])) / 2   (indices mod M)
// (the first half is the DFT of the even samples, the second W^k times that of the odd ones).
// C2R: the inverse pre-step, for k = 0..M-1:
//   Z[k] = (X[k] + conj(X[M-k])) + i W^-k (X[k] - conj(X[M-k]))
// then z = unnormalised inverse DFT_M(Z) holds n x[2j] + i n x[2j+1], i.e. the unnormalised
// C2R of X, as cuFFT defines it (the imaginary parts of X[0] and X[M] are ignored).
//
// Work is split in items of a pair (k, M - k), so that each reads two values and writes two:
// item 0 also does k = 0 with k = M (both from Z[0] / into Z[0]) and, for M >= 2, k = M/2
// (its own partner).
#pragma once

#include <vector_types.h>

#include <cstdint>

#if defined(__CUDACC__)
#define FFTCORE_SPLIT_HD __host__ __device__
#else
#define FFTCORE_SPLIT_HD
#include <cmath>
#endif

namespace fftcore::detail::tc {

/// W^k = exp(-i pi k / M) for 0 <= k < M = 2^log_m: FP32 sincospi of an exact argument (k is
/// split in two parts below 2^16 x 2^16 when it has more than 24 bits).
FFTCORE_SPLIT_HD inline float2 split_twiddle(std::uint32_t k, int log_m) {
  auto const one = [log_m](std::uint32_t e) {
    float const x = -static_cast<float>(e) * (1.0f / static_cast<float>(1u << log_m));
    float2 w;
#if defined(__CUDA_ARCH__)
    sincospif(x, &w.y, &w.x);
#else
    double const a = 3.14159265358979323846 * static_cast<double>(x);
    w.x = static_cast<float>(std::cos(a));
    w.y = static_cast<float>(std::sin(a));
#endif
    return w;
  };
  if (k < (1u << 24)) return one(k);
  float2 const a = one(k & ~0xFFFFu);
  float2 const b = one(k & 0xFFFFu);
  return float2{a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

/// R2C, k != 0 and k != M - k: (X[k], X[M-k]) from a = Z[k], b = Z[M-k], w = W^k, times f.
FFTCORE_SPLIT_HD inline void split_forward_pair(float2 a, float2 b, float2 w, float f, float2& xk,
                                                float2& xm) {
  // e = (a + conj b) / 2, d = (a - conj b) / 2; X[k] = e - i w d.
  float const ex = 0.5f * (a.x + b.x), ey = 0.5f * (a.y - b.y);
  float const dx = 0.5f * (a.x - b.x), dy = 0.5f * (a.y + b.y);
  float const px = w.x * dx - w.y * dy, py = w.x * dy + w.y * dx;  // w d
  xk = float2{f * (ex + py), f * (ey - px)};
  // X[M-k] = conj(e) - i W^(M-k) conj(-d)... = conj(e) - i (-conj w)(-conj d) = conj(e - i w d)
  // with e, d as above: the mirrored value is conj(e + i w d).
  xm = float2{f * (ex - py), f * (-ey - px)};
}

/// R2C item 0: X[0] and X[M] from z0 = Z[0] (both real).
FFTCORE_SPLIT_HD inline void split_forward_ends(float2 z0, float f, float2& x0, float2& xm) {
  x0 = float2{f * (z0.x + z0.y), 0.0f};
  xm = float2{f * (z0.x - z0.y), 0.0f};
}

/// R2C, k = M/2 (M >= 2): X[M/2] = conj(Z[M/2]).
FFTCORE_SPLIT_HD inline float2 split_forward_middle(float2 z, float f) {
  return float2{f * z.x, -f * z.y};
}

/// C2R, k != 0 and k != M - k: (Z[k], Z[M-k]) from a = X[k], b = X[M-k], w = W^k, times f.
FFTCORE_SPLIT_HD inline void split_inverse_pair(float2 a, float2 b, float2 w, float f, float2& zk,
                                                float2& zm) {
  // s = a + conj b, d = a - conj b; Z[k] = s + i conj(w) d, Z[M-k] = conj(s) + i (-w) (-conj d)
  // = conj(s) + i w conj(d) = conj(s - i conj(w) d).
  float const sx = a.x + b.x, sy = a.y - b.y;
  float const dx = a.x - b.x, dy = a.y + b.y;
  float const px = w.x * dx + w.y * dy, py = w.x * dy - w.y * dx;  // conj(w) d
  zk = float2{f * (sx - py), f * (sy + px)};
  zm = float2{f * (sx + py), f * (px - sy)};
}

/// C2R item 0: Z[0] from the real parts of X[0] and X[M].
FFTCORE_SPLIT_HD inline float2 split_inverse_ends(float2 x0, float2 xm, float f) {
  return float2{f * (x0.x + xm.x), f * (x0.x - xm.x)};
}

/// C2R, k = M/2 (M >= 2): Z[M/2] = 2 conj(X[M/2]).
FFTCORE_SPLIT_HD inline float2 split_inverse_middle(float2 x, float f) {
  return float2{2.0f * f * x.x, -2.0f * f * x.y};
}

}  // namespace fftcore::detail::tc

#undef FFTCORE_SPLIT_HD
