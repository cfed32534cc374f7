// SPDX-License-Identifier: MIT
// The fused real transforms of n = 2 M = 128, 256 and 512 points (RealLayout::small with
// M = 64, 128, 256): one kernel from the reals to the half spectrum (R2C) or back (C2R), a row
// on P = M / 16 lanes of a warp, the M-point FFT (16 x P) and the split in FP32 registers (at
// M = 256 the split's pairs cross lanes and meet in the warp's shared words), one FP16 rounding
// (medium_real_layout.hpp has the maps and the reason).
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/medium_real_layout.hpp"
#include "tc/real_split.hpp"
#include "tc/real_transform.hpp"

namespace fftcore::detail::tc {
namespace {

namespace mr = medium_real;

/// The split's W_2M^(16 k2) and column 8's W_2M^(8 + 16 k2): constants of a compile-time k2.
template <int kLogM>
__device__ __forceinline__ float2 split_step(int k2) {
  return w32(mr::split_step_power(k2, kLogM));
}
template <int kLogM>
__device__ __forceinline__ float2 split_w8(int k2) {
  return w32(mr::split_w8_power(k2, kLogM));
}

/// Item k2 of a lane's column pair (t, W_2M^t = wt): its k = t + 16 k2 (paired with M - k)
/// and the split's W_2M^k; lane 0's pair 0 (`zero`, t = 0) takes mr::zero_item(k2) instead, by
/// selects. Both directions run the same items.
template <int kLogM>
__device__ __forceinline__ void split_item(int t, bool zero, float2 wt, int k2, int& k, float2& w) {
  constexpr int kHalf = 1 << (mr::log_lanes(kLogM) - 1);
  int const j = (k2 - kHalf) & (2 * kHalf - 1);
  k = zero ? mr::zero_item(k2, kLogM) : t + 16 * k2;
  w = zero ? (k2 < kHalf ? split_w8<kLogM>(k2) : split_step<kLogM>(j))
           : cmul(wt, split_step<kLogM>(k2));
}

/// X[k] (k <= M) of the rows' reals z (M words, read as complex), or z from X; f: the whole
/// transform's scale (RealLayout::split_factor). kPadded: the half spectrum's rows lie M + 8
/// words apart (rank 2's Y, RealLayout::y_pitch), else M + 1. kMinBlocks: resident blocks per
/// SM it is built for (3: at most 80 registers; the unpadded C2R's: medium_c2r_kernel).
template <int kLogM, bool kForward, bool kPadded, int kMinBlocks = kForward ? 3 : 2>
__global__ void __launch_bounds__(32 * mr::kWarps, kMinBlocks)
    medium_real_kernel(std::uint32_t const* in, std::uint32_t* out, std::int64_t rows, float f) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kM = 1 << kLogM;
  // Word w of the warp's run of half-spectrum rows (M + 1 words each) at w + w / (M + 1) times
  // the pad, from the row base row0 * kPitch.
  constexpr int kPitch = kPadded ? kM + 8 : kM + 1;
  auto const spectrum_word = [](int w) { return w + w / (kM + 1) * (kPitch - kM - 1); };
  constexpr int kLogP = mr::log_lanes(kLogM);
  constexpr int kP = 1 << kLogP;
  constexpr int kLogC = mr::log_columns(kLogM);
  constexpr int kC = 1 << kLogC;
  constexpr int kG = 1 << mr::log_rows(kLogM);
  constexpr int kS = mr::staging_stride(kLogM);
  constexpr int kRealRuns = kG * kM / 32;                   // 16: the warp's reals, 32 words a run
  constexpr int kSpectrumRuns = (kG * (kM + 1) + 31) / 32;  // 17: its half spectrum
  static_assert(kG * kS <= mr::kStagingWords && kRealRuns == 16);
  // A warp's exchange slots; its staging words (rows of reals or of the half spectrum) lie over
  // their first half, a __syncwarp between the last use of one and the first of the other
  // (34.8 KB per block: static shared memory stops at 48 KB).
  __shared__ float2 exchange_all[mr::kWarps][mr::kExchangeSlots];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  float2* const xs = exchange_all[warp];
  auto* const stage = reinterpret_cast<std::uint32_t*>(xs);
  int const g = lane >> kLogP;    // the lane's row of the warp
  int const p = lane & (kP - 1);  // its lane in the row: p of the 16-point step, q of the P-point
  std::uint32_t* const row = stage + g * kS;
  // W_M^(p k1), k1 < 16, p < P: a block table laid out [k1][p] (a warp's lanes read P
  // adjacent slots), one shared load per point instead of 32 registers per thread.
  __shared__ float2 tw_table[16 * kP];
  for (int i = static_cast<int>(threadIdx.x); i < 16 * kP; i += 32 * mr::kWarps) {
    // W_M^e = exp(-i pi 2e / M): the split's sincospif of an exact argument.
    tw_table[i] =
        split_twiddle(static_cast<std::uint32_t>(2 * (i & (kP - 1)) * (i >> kLogP)), kLogM);
  }
  __syncthreads();
  float2 const* const tw = tw_table + p;  // tw[k1 << kLogP] = W_M^(p k1)
  // The split's W_2M^t of column pair u (t = q + P u >= 1; lane 0's pair u = 0 is columns 0
  // and 8, handled apart).
  // The shared split (C = 1): ws[0] = W_2M^q, its items' W_2M^(q + 16 j) = ws[0] W_32^j.
  constexpr bool kShared = mr::shared_split(kLogM);
  constexpr int kPairs = kShared ? 1 : kC / 2;
  float2 ws[kPairs];
#pragma unroll
  for (int u = 0; u < kPairs; ++u) {
    ws[u] = split_twiddle(static_cast<std::uint32_t>(mr::pair_column(p, u, kLogM)), kLogM);
  }
  std::int64_t const chunks = (rows + kG - 1) / kG;
#pragma unroll 1
  for (std::int64_t c = std::int64_t{blockIdx.x} * mr::kWarps + warp; c < chunks;
       c += std::int64_t{gridDim.x} * mr::kWarps) {
    std::int64_t const row0 = c * kG;
    int const valid = static_cast<int>(std::min<std::int64_t>(kG, rows - row0));
    float2 b[kC][kP];
    if constexpr (kForward) {
      // The warp's rows of M words lie back to back: 128-byte runs in, to the staging words.
      std::uint32_t const* const from = in + row0 * kM;
      std::uint32_t v[kRealRuns];
#pragma unroll
      for (int r = 0; r < kRealRuns; ++r) {
        int const w = 32 * r + lane;
        v[r] = w < valid * kM ? from[w] : 0u;
      }
#pragma unroll
      for (int r = 0; r < kRealRuns; ++r) stage[mr::real_slot(32 * r + lane, kLogM)] = v[r];
      __syncwarp();
      float2 a[16];  // z[P n1 + p] of row g
#pragma unroll
      for (int n1 = 0; n1 < 16; ++n1) a[n1] = unpack_word(row[(n1 << kLogP) + p]);
      __syncwarp();    // the exchange overwrites the staging words
      dft_pow2<4>(a);  // a[bit_reverse(k1)] = sum_n1 W_16^(n1 k1) z[P n1 + p]
#pragma unroll
      for (int k1 = 0; k1 < 16; ++k1) {
        xs[mr::exchange_slot(g, k1, p, kLogM)] = cmul(a[bit_reverse<4>(k1)], tw[k1 << kLogP]);
      }
      __syncwarp();
#pragma unroll
      for (int e = 0; e < kC; ++e) {
        int const k1 = mr::column((p << kLogC) + e, kLogM);
#pragma unroll
        for (int s = 0; s < kP; ++s) b[e][s] = xs[mr::exchange_slot(g, k1, s, kLogM)];
        dft_pow2<kLogP>(b[e]);  // b[e][bit_reverse(k2)] = Z[k1 + 16 k2]
      }
      __syncwarp();  // the split's staging words overwrite the exchange slots
      auto const z = [&b](int e, int k2) { return b[e][bit_reverse<kLogP>(k2)]; };
      if constexpr (kShared) {
        // Z[q + 16 k2] to the exchange slots in natural order, then the items k = q + 16 j with
        // M - k (k = 0: X[0] and X[M]) and lane 0's X[M / 2] from there.
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) xs[mr::z_slot(g, p + 16 * k2, kLogM)] = z(0, k2);
        __syncwarp();
        constexpr int kItems = mr::shared_items(kLogM);
        float2 za[kItems], zb[kItems];
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          int const k = p + 16 * j;
          za[j] = xs[mr::z_slot(g, k, kLogM)];
          zb[j] = xs[mr::z_slot(g, (kM - k) & (kM - 1), kLogM)];
        }
        float2 const mid = xs[mr::z_slot(g, kM / 2, kLogM)];
        __syncwarp();  // the staging words overwrite the exchange slots
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          int const k = p + 16 * j;
          float2 xk, xmk;
          split_forward_pair(za[j], zb[j], cmul(ws[0], split_step<kLogM>(j)), f, xk, xmk);
          row[k] = pack_word(xk);
          row[kM - k] = pack_word(xmk);
        }
        if (p == 0) row[kM / 2] = pack_word(split_forward_middle(mid, f));
      } else {
#pragma unroll
        for (int u = 0; u < kC / 2; ++u) {
          int const t = mr::pair_column(p, u, kLogM);
          bool const zero = u == 0 && p == 0;  // t = 0: lane 0's columns 0 and 8
#pragma unroll
          for (int k2 = 0; k2 < kP; ++k2) {
            int k;
            float2 w;
            split_item<kLogM>(t, zero, ws[u], k2, k, w);
            // Z[t + 16 k2] in slot 2u pairs with Z[(16 - t) + 16 (P - 1 - k2)] in slot 2u + 1.
            float2 a = z(2 * u, k2), b2 = z(2 * u + 1, kP - 1 - k2);
            if (u == 0) {  // lane 0's item mr::zero_item(k2): its own columns 8 and 0
              int const j = (k2 - kP / 2) & (kP - 1);
              bool const col8 = k2 < kP / 2;
              a = zero ? (col8 ? z(1, k2) : z(0, j)) : a;
              b2 = zero ? (col8 ? z(1, kP - 1 - k2) : z(0, (kP - j) & (kP - 1))) : b2;
            }
            float2 xk, xmk;
            split_forward_pair(a, b2, w, f, xk, xmk);
            row[k] = pack_word(xk);
            row[kM - k] = pack_word(xmk);
          }
        }
        if (p == 0) row[kM / 2] = pack_word(split_forward_middle(z(0, kP / 2), f));
      }
      // The warp's rows of M + 1 words lie back to back: 128-byte runs out.
      __syncwarp();
      std::uint32_t* const to = out + row0 * kPitch;
#pragma unroll
      for (int r = 0; r < kSpectrumRuns; ++r) {
        int const w = 32 * r + lane;
        if (w < valid * (kM + 1)) to[spectrum_word(w)] = stage[mr::spectrum_slot(w, kLogM)];
      }
      __syncwarp();  // the next chunk's staging words overwrite these
    } else {
      // The warp's rows of M + 1 words in, as 128-byte runs.
      std::uint32_t const* const from = in + row0 * kPitch;
      std::uint32_t v[kSpectrumRuns];
#pragma unroll
      for (int r = 0; r < kSpectrumRuns; ++r) {
        int const w = 32 * r + lane;
        v[r] = w < valid * (kM + 1) ? from[spectrum_word(w)] : 0u;
      }
#pragma unroll
      for (int r = 0; r < kSpectrumRuns; ++r) {
        int const w = 32 * r + lane;
        if (w < kG * (kM + 1)) stage[mr::spectrum_slot(w, kLogM)] = v[r];
      }
      __syncwarp();
      auto const x = [row](int k) { return unpack_word(row[k]); };
      // b[e][k2] = Z[column(C q + e) + 16 k2] by the inverse split (the same items as R2C).
      if constexpr (kShared) {
        // The items k = q + 16 j with M - k (k = 0: X[0], X[M], whose imaginary parts C2R
        // ignores) and lane 0's X[M / 2], to Z in the exchange slots; then the lane's column.
        constexpr int kItems = mr::shared_items(kLogM);
        float2 za[kItems], zb[kItems];
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          int const k = p + 16 * j;
          float2 xa = x(k), xb = x(kM - k);
          if (j == 0) {
            xa.y = p == 0 ? 0.f : xa.y;
            xb.y = p == 0 ? 0.f : xb.y;
          }
          split_inverse_pair(xa, xb, cmul(ws[0], split_step<kLogM>(j)), f, za[j], zb[j]);
        }
        float2 const mid = split_inverse_middle(x(kM / 2), f);
        __syncwarp();  // Z overwrites the staging words
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
          int const k = p + 16 * j;
          xs[mr::z_slot(g, k, kLogM)] = za[j];
          if (k != 0) xs[mr::z_slot(g, kM - k, kLogM)] = zb[j];  // k = 0: Z[M] is Z[0]
        }
        if (p == 0) xs[mr::z_slot(g, kM / 2, kLogM)] = mid;
        __syncwarp();
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) b[0][k2] = xs[mr::z_slot(g, p + 16 * k2, kLogM)];
      } else {
#pragma unroll
        for (int u = 0; u < kC / 2; ++u) {
          int const t = mr::pair_column(p, u, kLogM);
          bool const zero = u == 0 && p == 0;
          float2 za[kP], zb[kP];  // Z[k], Z[M - k] of item k2
#pragma unroll
          for (int k2 = 0; k2 < kP; ++k2) {
            int k;
            float2 w;
            split_item<kLogM>(t, zero, ws[u], k2, k, w);
            float2 xa = x(k), xb = x(kM - k);
            if (u == 0 && k2 == kP / 2) {  // lane 0: X[0], X[M], whose imaginary parts C2R ignores
              xa.y = zero ? 0.f : xa.y;
              xb.y = zero ? 0.f : xb.y;
            }
            split_inverse_pair(xa, xb, w, f, za[k2], zb[k2]);
          }
          if (u == 0) {  // lane 0's items back into its columns 0 (slot 0) and 8 (slot 1)
            float2 const mid = split_inverse_middle(x(kM / 2), f);
#pragma unroll
            for (int m = 0; m < kP; ++m) {
              float2 const z0 = m < kP / 2    ? za[kP / 2 + m]
                                : m == kP / 2 ? mid
                                              : zb[3 * kP / 2 - m];
              b[0][m] = zero ? z0 : za[m];
              b[1][m] = zero && m < kP / 2 ? za[m] : zb[kP - 1 - m];
            }
          } else {
#pragma unroll
            for (int m = 0; m < kP; ++m) {
              b[2 * u][m] = za[m];
              b[2 * u + 1][m] = zb[kP - 1 - m];
            }
          }
        }
      }
      __syncwarp();  // the exchange overwrites the staging words
      // z = conj(DFT_M(conj Z)): the P-point DFTs over k2 of conj Z, then the exchange.
#pragma unroll
      for (int e = 0; e < kC; ++e) {
        int const k1 = mr::column((p << kLogC) + e, kLogM);
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) b[e][k2].y = -b[e][k2].y;
        dft_pow2<kLogP>(b[e]);  // b[e][bit_reverse(s)] = sum_k2 W_P^(s k2) conj Z[k1 + 16 k2]
#pragma unroll
        for (int s = 0; s < kP; ++s) {
          xs[mr::exchange_slot(g, k1, s, kLogM)] = b[e][bit_reverse<kLogP>(s)];
        }
      }
      __syncwarp();
      float2 a[16];
#pragma unroll
      for (int k1 = 0; k1 < 16; ++k1) {
        a[k1] = cmul(xs[mr::exchange_slot(g, k1, p, kLogM)], tw[k1 << kLogP]);
      }
      dft_pow2<4>(a);  // a[bit_reverse(n1)] = conj z[P n1 + p]
      __syncwarp();    // the staging words overwrite the exchange slots
#pragma unroll
      for (int n1 = 0; n1 < 16; ++n1) {
        float2 const y = a[bit_reverse<4>(n1)];
        row[(n1 << kLogP) + p] = pack_word(make_float2(y.x, -y.y));
      }
      // The warp's rows of M words lie back to back: 128-byte runs out.
      __syncwarp();
      std::uint32_t* const to = out + row0 * kM;
#pragma unroll
      for (int r = 0; r < kRealRuns; ++r) {
        int const w = 32 * r + lane;
        if (w < valid * kM) to[w] = stage[mr::real_slot(w, kLogM)];
      }
      __syncwarp();  // the next chunk's staging words overwrite these
    }
  }
}

/// The unpadded C2R's resident blocks per SM: built for 3 (80 registers, no spills; 24 warps per
/// SM), or for 2 with FFTCORE_TC_MEDIUM_C2R_BLOCKS=2 (116-128 registers; read once). H200, ms
/// per 2^28 reals, three runs each in rotation in one call (fftcore/NOTES.md, session 43), 2 / 3
/// / 4 blocks: 2^7 reals 0.330-0.336 / 0.308-0.311 / 0.316-0.317, 2^8 0.343-0.357 / 0.324-0.328
/// / 0.344-0.345, 2^9 0.367-0.375 / 0.349-0.352 / 0.352-0.355 (4: 64 registers, spills of
/// 12-20 bytes at M = 64 and 128). The padded C2R (rank 2) stays at 2: it spills at 3.
bool medium_c2r_two_blocks() noexcept {
  static bool const two = env_int("FFTCORE_TC_MEDIUM_C2R_BLOCKS", 3) == 2;
  return two;
}
template <int kLogM>
auto medium_c2r_kernel() noexcept {
  return medium_c2r_two_blocks() ? medium_real_kernel<kLogM, false, false, 2>
                                 : medium_real_kernel<kLogM, false, false, 3>;
}

template <int kLogM>
cudaError_t launch_m(SplitArgs const& a, bool forward, void const* in, void* out,
                     cudaStream_t stream) noexcept {
  std::int64_t const chunks = (a.rows + (1 << mr::log_rows(kLogM)) - 1) >> mr::log_rows(kLogM);
  // Grid-stride over the warps' chunks, at most 16 blocks per SM's worth (as the small real
  // kernel, small_real_kernel.cu).
  auto const grid = static_cast<unsigned>(std::max<std::int64_t>(
      1, std::min<std::int64_t>((chunks + mr::kWarps - 1) / mr::kWarps, 132 * 16)));
  auto const* src = static_cast<std::uint32_t const*>(in);
  auto* dst = static_cast<std::uint32_t*>(out);
  constexpr std::int64_t kM = 1 << kLogM;
  bool const padded = a.pitch == kM + 8;
  if (a.pitch != 0 && a.pitch != kM + 1 && !padded) return cudaErrorInvalidValue;
  if constexpr (mr::shared_split(kLogM)) {  // 1-D only: rows of M + 1
    if (padded) return cudaErrorInvalidValue;
    auto const kernel =
        forward ? medium_real_kernel<kLogM, true, false> : medium_c2r_kernel<kLogM>();
    return launch_chained(kernel, grid, 32 * mr::kWarps, 0, stream, src, dst, a.rows, a.factor);
  } else {
    auto const kernel = forward ? (padded ? medium_real_kernel<kLogM, true, true>
                                          : medium_real_kernel<kLogM, true, false>)
                        : padded ? medium_real_kernel<kLogM, false, true>
                                 : medium_c2r_kernel<kLogM>();
    return launch_chained(kernel, grid, 32 * mr::kWarps, 0, stream, src, dst, a.rows, a.factor);
  }
}

}  // namespace

cudaError_t launch_medium_real(SplitArgs const& args, bool r2c, void const* in, void* out,
                               cudaStream_t stream) noexcept {
  if (args.rows <= 0) return cudaSuccess;
  switch (args.log_m) {
    case 6:
      return launch_m<6>(args, r2c, in, out, stream);
    case 7:
      return launch_m<7>(args, r2c, in, out, stream);
    case mr::kLogMShared:  // 1-D only (the plan's RealLayout::small)
      return launch_m<mr::kLogMShared>(args, r2c, in, out, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
