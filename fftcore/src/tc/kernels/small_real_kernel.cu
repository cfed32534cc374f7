// SPDX-License-Identifier: MIT
// The fused real transforms of n = 2 M <= 64 points (1-D, RealLayout::small): one kernel from
// the data to the half spectrum (R2C) or back (C2R), one thread per row in FP32 registers,
// the M-point FFT and the split (real_split.hpp) together, one FP16 rounding.
//
// The unfused steps (a short-pass row FFT into FP32 Z, the split kernel) moved 12 bytes per
// point where the transform needs 4-5 (H200, 2^28 reals: R2C 0.53-0.74x the speed of the
// complex transform of as many points at n = 4..64). A warp takes 512 / M adjacent rows (16 / M
// per lane, at least one): rows of M words (n FP16 reals) and of M + 1 words (half spectrum) lie
// back to back, so the warp loads and stores them as runs of 32 words (128 bytes per access) staged
// through shared memory in rows of M + 1 words (an odd stride for M >= 2: each lane's own row
// is conflict-free).
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/real_split.hpp"
#include "tc/real_transform.hpp"

namespace fftcore::detail::tc {
namespace {

constexpr int kWarps = 8;  // 256 threads per block

/// Rows per lane and chunk: 16 / M (at least one), so that a lane has 16-33 loads in flight at
/// every M (one row of 2 reals per lane left the DRAM idle).
constexpr int rows_per_lane(int log_m) { return log_m >= 4 ? 1 : 16 >> log_m; }

/// z[k] = DFT_M(a)[k] in natural order (a is overwritten): M <= 16 by the DIF butterflies,
/// M = 32 as one radix-2 DIF step (twiddles W_32^i) and two 16-point DFTs.
template <int kLogM>
__device__ __forceinline__ void dft_natural(float2 (&a)[1 << kLogM], float2 (&z)[1 << kLogM]) {
  constexpr int kM = 1 << kLogM;
  if constexpr (kLogM == 5) {
    float2 even[16], odd[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      even[i] = cadd(a[i], a[i + 16]);
      odd[i] = cmul(csub(a[i], a[i + 16]), w32(i));
    }
    dft_pow2<4>(even);
    dft_pow2<4>(odd);
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      z[2 * k] = even[bit_reverse<4>(k)];
      z[2 * k + 1] = odd[bit_reverse<4>(k)];
    }
  } else {
    if constexpr (kLogM > 0) dft_pow2<kLogM>(a);  // a[bit_reverse(k)] = Z[k]
#pragma unroll
    for (int k = 0; k < kM; ++k) z[k] = a[bit_reverse<kLogM>(k)];
  }
}

/// The split's W^k = exp(-i pi k / M) = W_2M^k, k < M / 2: W_32^(16 k / M) up to M = 16,
/// W_64^k at M = 32.
template <int kLogM>
__device__ __forceinline__ float2 split_w(int k) {
  if constexpr (kLogM <= 4) {
    return w32(k << (4 - kLogM));
  } else {
    return w64(k);
  }
}

/// X[k] (k <= M) of the rows' reals z (M words, read as complex), or z from X; f: the whole
/// transform's scale (RealLayout::split_factor).
template <int kLogM, bool kForward>
__global__ void __launch_bounds__(32 * kWarps)
    small_real_kernel(std::uint32_t const* in, std::uint32_t* out, std::int64_t rows, float f) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kM = 1 << kLogM;
  constexpr int kInWords = kForward ? kM : kM + 1;  // per row
  constexpr int kOutWords = kForward ? kM + 1 : kM;
  constexpr int kG = rows_per_lane(kLogM);
  constexpr int kRows = 32 * kG;  // per warp and chunk
  __shared__ std::uint32_t stage_all[kWarps][kRows * (kM + 1)];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  std::uint32_t* const stage = stage_all[warp];
  // Word w of a run of rows of kM words sits at w + w / kM (rows padded to M + 1).
  auto const padded = [](int w) { return w + (w >> kLogM); };
  std::int64_t const chunks = (rows + kRows - 1) / kRows;
#pragma unroll 1
  for (std::int64_t c = std::int64_t{blockIdx.x} * kWarps + warp; c < chunks;
       c += std::int64_t{gridDim.x} * kWarps) {
    std::int64_t const row0 = c * kRows;
    int const valid = static_cast<int>(std::min<std::int64_t>(kRows, rows - row0));
    std::uint32_t const* const from = in + row0 * kInWords;
    std::uint32_t v[kG * kInWords];
#pragma unroll
    for (int r = 0; r < kG * kInWords; ++r) {
      int const w = 32 * r + lane;
      v[r] = w < valid * kInWords ? from[w] : 0u;
    }
#pragma unroll
    for (int r = 0; r < kG * kInWords; ++r) {
      int const w = 32 * r + lane;
      stage[kForward ? padded(w) : w] = v[r];
    }
    __syncwarp();
#pragma unroll
    for (int g = 0; g < kG; ++g) {
      std::uint32_t* const own = stage + (32 * g + lane) * (kM + 1);  // M + 1 words
      float2 a[kM];
      if constexpr (kForward) {
        // Z = DFT_M(z), then X[k] = split(Z[k], Z[M - k]) (real_split.hpp), W^k = W_32^(16k/M).
#pragma unroll
        for (int n = 0; n < kM; ++n) a[n] = unpack_word(own[n]);
        float2 zn[kM];
        dft_natural<kLogM>(a, zn);
        auto const z = [&zn](int k) { return zn[k]; };
        float2 x0, xm;
        split_forward_ends(z(0), f, x0, xm);
        own[0] = pack_word(x0);
        own[kM] = pack_word(xm);
        if constexpr (kM >= 2) own[kM / 2] = pack_word(split_forward_middle(z(kM / 2), f));
#pragma unroll
        for (int k = 1; k < kM / 2; ++k) {
          float2 xk, xmk;
          split_forward_pair(z(k), z(kM - k), split_w<kLogM>(k), f, xk, xmk);
          own[k] = pack_word(xk);
          own[kM - k] = pack_word(xmk);
        }
      } else {
        // Z[k] from X[k], X[M - k], then z = conj(DFT_M(conj Z)): the unnormalised inverse.
        float2 zs[kM];
        zs[0] = split_inverse_ends(unpack_word(own[0]), unpack_word(own[kM]), f);
        if constexpr (kM >= 2) zs[kM / 2] = split_inverse_middle(unpack_word(own[kM / 2]), f);
#pragma unroll
        for (int k = 1; k < kM / 2; ++k) {
          split_inverse_pair(unpack_word(own[k]), unpack_word(own[kM - k]), split_w<kLogM>(k), f,
                             zs[k], zs[kM - k]);
        }
#pragma unroll
        for (int n = 0; n < kM; ++n) a[n] = make_float2(zs[n].x, -zs[n].y);
        dft_natural<kLogM>(a, zs);
#pragma unroll
        for (int n = 0; n < kM; ++n) own[n] = pack_word(make_float2(zs[n].x, -zs[n].y));
      }
    }
    // Each lane wrote only its own rows; the warp then stores the run of output rows.
    __syncwarp();
    std::uint32_t* const to = out + row0 * kOutWords;
#pragma unroll
    for (int r = 0; r < kG * kOutWords; ++r) {
      int const w = 32 * r + lane;
      if (w < valid * kOutWords) to[w] = stage[kForward ? w : padded(w)];
    }
    __syncwarp();  // the next chunk's staging overwrites these words
  }
}

template <int kLogM>
cudaError_t launch_m(SplitArgs const& a, bool forward, void const* in, void* out,
                     cudaStream_t stream) noexcept {
  std::int64_t const rows = 32 * rows_per_lane(kLogM);  // per warp and chunk
  std::int64_t const chunks = (a.rows + rows - 1) / rows;
  // Grid-stride over the warps' chunks: at most 16 blocks per SM's worth (132 SMs on an
  // H100/H200), more than stay resident: resident_grid's grid (resident blocks only) measured
  // 4-8 % slower at n = 16..64 (H200).
  auto const grid = static_cast<unsigned>(
      std::max<std::int64_t>(1, std::min<std::int64_t>((chunks + kWarps - 1) / kWarps, 132 * 16)));
  auto const* src = static_cast<std::uint32_t const*>(in);
  auto* dst = static_cast<std::uint32_t*>(out);
  if (forward) {
    return launch_chained(small_real_kernel<kLogM, true>, grid, 32 * kWarps, 0, stream, src, dst,
                         a.rows, a.factor);
  }
  return launch_chained(small_real_kernel<kLogM, false>, grid, 32 * kWarps, 0, stream, src, dst,
                         a.rows, a.factor);
}

}  // namespace

cudaError_t launch_small_real(SplitArgs const& args, bool r2c, void const* in, void* out,
                              cudaStream_t stream) noexcept {
  if (args.rows <= 0) return cudaSuccess;
  // Padded half-spectrum rows only on the medium real kernel (RealLayout::small in rank 2).
  if (args.log_m < 6 && args.pitch != 0 && args.pitch != (std::int64_t{1} << args.log_m) + 1) {
    return cudaErrorInvalidValue;
  }
  switch (args.log_m) {
    case 0:
      return launch_m<0>(args, r2c, in, out, stream);
    case 1:
      return launch_m<1>(args, r2c, in, out, stream);
    case 2:
      return launch_m<2>(args, r2c, in, out, stream);
    case 3:
      return launch_m<3>(args, r2c, in, out, stream);
    case 4:
      return launch_m<4>(args, r2c, in, out, stream);
    case 5:
      return launch_m<5>(args, r2c, in, out, stream);
    case 6:
    case 7:
    case 8:
      return launch_medium_real(args, r2c, in, out, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
