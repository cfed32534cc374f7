// SPDX-License-Identifier: MIT
// The fused real transforms of n = 2 M <= 32 points (1-D, RealLayout::small): one kernel from
// the data to the half spectrum (R2C) or back (C2R), one thread per row in FP32 registers,
// the M-point FFT and the split (real_split.hpp) together, one FP16 rounding.
//
// The unfused steps (a short-pass row FFT into FP32 Z, the split kernel) moved 12 bytes per
// point where the transform needs 4-5 (H200, 2^28 reals: R2C 0.53-0.74x the speed of the
// complex transform of as many points at n = 4..32). A warp takes 512 / M adjacent rows (16 / M
// per lane): rows of M words (n FP16 reals) and of M + 1 words (half spectrum) lie back to
// back, so the warp loads and stores them as runs of 32 words (128 bytes per access) staged
// through shared memory in rows of M + 1 words (an odd stride for M >= 2: each lane's own row
// is conflict-free).
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/real_split.hpp"
#include "tc/real_transform.hpp"

namespace fftcore::detail::tc {
namespace {

constexpr int kWarps = 8;  // 256 threads per block

/// X[k] (k <= M) of the rows' reals z (M words, read as complex), or z from X; f: the whole
/// transform's scale (RealLayout::split_factor).
template <int kLogM, bool kForward>
__global__ void __launch_bounds__(32 * kWarps)
    small_real_kernel(std::uint32_t const* in, std::uint32_t* out, std::int64_t rows, float f) {
  constexpr int kM = 1 << kLogM;
  constexpr int kInWords = kForward ? kM : kM + 1;  // per row
  constexpr int kOutWords = kForward ? kM + 1 : kM;
  // Rows per lane and chunk: 16 / M, so that a lane has 16-17 loads in flight at every M (one
  // row of 2 reals per lane left the DRAM idle).
  constexpr int kG = 16 >> kLogM;
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
        if constexpr (kLogM > 0) dft_pow2<kLogM>(a);  // a[bit_reverse(k)] = Z[k]
        auto const z = [&a](int k) { return a[bit_reverse<kLogM>(k)]; };
        float2 x0, xm;
        split_forward_ends(z(0), f, x0, xm);
        own[0] = pack_word(x0);
        own[kM] = pack_word(xm);
        if constexpr (kM >= 2) own[kM / 2] = pack_word(split_forward_middle(z(kM / 2), f));
#pragma unroll
        for (int k = 1; k < kM / 2; ++k) {
          float2 xk, xmk;
          split_forward_pair(z(k), z(kM - k), w32(k * 16 / kM), f, xk, xmk);
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
          split_inverse_pair(unpack_word(own[k]), unpack_word(own[kM - k]), w32(k * 16 / kM), f,
                             zs[k], zs[kM - k]);
        }
#pragma unroll
        for (int n = 0; n < kM; ++n) a[n] = make_float2(zs[n].x, -zs[n].y);
        if constexpr (kLogM > 0) dft_pow2<kLogM>(a);
#pragma unroll
        for (int n = 0; n < kM; ++n) {
          float2 const y = a[bit_reverse<kLogM>(n)];
          own[n] = pack_word(make_float2(y.x, -y.y));
        }
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
  std::int64_t const chunks = (a.rows + (32 << (4 - kLogM)) - 1) / (32 << (4 - kLogM));
  // Grid-stride over the warps' chunks: at most 16 blocks per SM's worth (132 SMs on an
  // H100/H200).
  auto const grid = static_cast<unsigned>(
      std::max<std::int64_t>(1, std::min<std::int64_t>((chunks + kWarps - 1) / kWarps, 132 * 16)));
  auto const* src = static_cast<std::uint32_t const*>(in);
  auto* dst = static_cast<std::uint32_t*>(out);
  if (forward) {
    small_real_kernel<kLogM, true><<<grid, 32 * kWarps, 0, stream>>>(src, dst, a.rows, a.factor);
  } else {
    small_real_kernel<kLogM, false><<<grid, 32 * kWarps, 0, stream>>>(src, dst, a.rows, a.factor);
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_small_real(SplitArgs const& args, bool r2c, void const* in, void* out,
                              cudaStream_t stream) noexcept {
  if (args.rows <= 0) return cudaSuccess;
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
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
