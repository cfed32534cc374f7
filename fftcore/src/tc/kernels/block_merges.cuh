// SPDX-License-Identifier: MIT
// The merges a thread block applies to its tile in shared memory (FP32 complex, slots from
// smem_slot). Every thread owns 16 elements per merge: it reads them, keeps the results in
// registers across a barrier and writes them back in place, so one buffer suffices.
//   merge16:      radix 16 on Tensor Cores. Each warp runs 4 tiles of 8 butterflies as the
//                 complex product Y = F16 X (16x16 by 16x8), the twiddles applied to the B
//                 fragments in registers and both operands split into FP16 hi + lo parts:
//                 A_hi B_hi + A_hi B_lo + A_lo B_hi, 3 MMAs per real product, 12 per tile.
//                 Each lane's twiddles of a column come from one table load (W^k) and FP32
//                 powers of it (merge16_twiddles).
//                 merge16<true> is the first merge of a pass with FP16 input: its data is an
//                 FP16 value times a power of two, so B_lo is exactly zero and its MMAs are
//                 left out (8 per tile; the sums are bit-identical).
//   merge_small:  radix 2, 4 or 8 on CUDA cores in FP32.
#pragma once

#include "tc/fast_constants.hpp"
#include "tc/kernels/complex_math.cuh"
#include "tc/mma.cuh"
#include "tc/pass_params.hpp"

#include <cstdint>

namespace fftcore::detail::tc {

#ifndef FFTCORE_TC_SPLIT_DATA
#define FFTCORE_TC_SPLIT_DATA 0
#endif
/// Whether merges after the first split their FP32 data into FP16 hi + lo MMA operands (12
/// MMAs per tile, ~2^-22) or round it to FP16 (8 MMAs, fewer registers and spills; one FP16
/// rounding per merge). Rounding measured (H200) a relative L2 error of 2.1e-4 (L <= 128) to
/// 5.1e-4 (2^27), 0.15-0.67x cuFFT FP16's at every size but n = 2 (equal, both exact up to the
/// output rounding), and made the kernel 1.2-1.5x faster.
inline constexpr bool kSplitData = FFTCORE_TC_SPLIT_DATA != 0;

/// The A fragments of the 16-point DFT matrix F[m][n] = W_16^(m n), real and imaginary parts,
/// each split into hi + lo FP16 parts.
struct Dft16Fragments {
  std::uint32_t re_hi[4], re_lo[4], im_hi[4], im_lo[4];
};

/// The same fragments staged in shared memory, [part][lane] with parts re_hi, re_lo, im_hi,
/// im_lo: written once per block by warp 0 and read (4 LDS.128 per lane) by every radix-16
/// merge, so that their 16 registers are live inside merge16 only and not across the loads,
/// the small merges and the stores.
struct Dft16Shared {
  uint4 part[4][32];
};

__device__ __forceinline__ void from_uint4(std::uint32_t (&r)[4], uint4 v) {
  r[0] = v.x;
  r[1] = v.y;
  r[2] = v.z;
  r[3] = v.w;
}

/// Called by the 32 lanes of one warp; a barrier must follow before merge16 reads them. The
/// fragments are the host-built ones behind the coarse table (fast_constants.hpp), shared with
/// the register-chained pass.
__device__ inline void store_dft16_fragments(Dft16Shared& s, float2 const* coarse, bool inverse) {
  int const lane = threadIdx.x & 31;
  FastConstants const& k =
      reinterpret_cast<FastConstants const*>(coarse + kFastConstantsOffset)[inverse ? 1 : 0];
#pragma unroll
  for (int part = 0; part < 4; ++part) s.part[part][lane] = __ldg(&k.dft[part][lane]);
}

__device__ __forceinline__ Dft16Fragments read_dft16_fragments(Dft16Shared const& s) {
  int const lane = threadIdx.x & 31;
  Dft16Fragments f;
  from_uint4(f.re_hi, s.part[0][lane]);
  from_uint4(f.re_lo, s.part[1][lane]);
  from_uint4(f.im_hi, s.part[2][lane]);
  from_uint4(f.im_lo, s.part[3][lane]);
  return f;
}

/// acc += A * B with the hi/lo split: A_hi B_hi + A_hi B_lo + A_lo B_hi.
__device__ __forceinline__ void mma_split(float (&acc)[4], std::uint32_t const (&a_hi)[4],
                                          std::uint32_t const (&a_lo)[4],
                                          std::uint32_t const (&b_hi)[2],
                                          std::uint32_t const (&b_lo)[2]) {
  mma_16x8x16(acc, a_lo, b_hi[0], b_hi[1]);
  mma_16x8x16(acc, a_hi, b_lo[0], b_lo[1]);
  mma_16x8x16(acc, a_hi, b_hi[0], b_hi[1]);
}

/// acc += A * B for an operand B that is exact in FP16 (B_lo == 0): A_lo B_hi + A_hi B_hi, in
/// the order mma_split adds them (its A_hi B_lo term would add exact zeros).
__device__ __forceinline__ void mma_split_exact_b(float (&acc)[4], std::uint32_t const (&a_hi)[4],
                                                  std::uint32_t const (&a_lo)[4],
                                                  std::uint32_t const (&b_hi)[2]) {
  mma_16x8x16(acc, a_lo, b_hi[0], b_hi[1]);
  mma_16x8x16(acc, a_hi, b_hi[0], b_hi[1]);
}

/// kExactB: the caller guarantees that every element read is an FP16 value times a power of two
/// with no twiddle to apply (log_ns == 0), e.g. the first merge of a pass reading FP16. Then
/// x - hi is either 0 or (below the FP16 subnormal spacing) at most 2^-25, which rounds to 0:
/// B_lo == 0 exactly.
template <bool kExactB, int kLogL, int kLogNs>
__device__ inline void merge16(float2* smem, Dft16Shared const& fs, float2 const* coarse,
                               bool inverse) {
  constexpr int log_l = kLogL;
  constexpr int log_ns = kLogNs;
  Dft16Fragments const f = read_dft16_fragments(fs);
  int const lane = threadIdx.x & 31;
  int const warp = threadIdx.x >> 5;
  int const group = lane >> 2;
  int const quad = lane & 3;
  constexpr int log_cols = log_l - 4;  // butterflies per sequence
  constexpr int col_mask = (1 << log_cols) - 1;
  float2 out[4][4];
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    int const c = ((warp * 4 + u) << 3) + group;
    int const t = c >> log_cols;
    int const j = c & col_mask;
    std::uint32_t re_hi[2], re_lo[2], im_hi[2], im_lo[2];
    float2 tw[2][2];
    if constexpr (!kExactB && log_ns > 0) {
      merge16_twiddles(tw, coarse_twiddle(coarse, merge_twiddle_index(j, 1, 4, log_ns), inverse),
                       quad);
    }
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      HalfSplit re[2], im[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int const m = 2 * quad + h + 8 * r;
        float2 x = smem[smem_slot(t, merge_read_index(j, m, log_l, 4), log_l)];
        if constexpr (!kExactB && log_ns > 0) x = cmul(x, tw[r][h]);
        if constexpr (kExactB || !kSplitData) {
          re[h] = {__float2half_rn(x.x), __half{}};
          im[h] = {__float2half_rn(x.y), __half{}};
        } else {
          re[h] = split_half(x.x);
          im[h] = split_half(x.y);
        }
      }
      re_hi[r] = pack_halves(re[0].hi, re[1].hi);
      im_hi[r] = pack_halves(im[0].hi, im[1].hi);
      if constexpr (!kExactB && kSplitData) {
        re_lo[r] = pack_halves(re[0].lo, re[1].lo);
        im_lo[r] = pack_halves(im[0].lo, im[1].lo);
      }
    }
    std::uint32_t const nim_hi[2] = {negate_halves(im_hi[0]), negate_halves(im_hi[1])};
    float dr[4] = {0.f, 0.f, 0.f, 0.f};
    float di[4] = {0.f, 0.f, 0.f, 0.f};
    if constexpr (kExactB) {
      mma_split_exact_b(dr, f.re_hi, f.re_lo, re_hi);   // Re F Re X
      mma_split_exact_b(dr, f.im_hi, f.im_lo, nim_hi);  // - Im F Im X
      mma_split_exact_b(di, f.im_hi, f.im_lo, re_hi);   // Im F Re X
      mma_split_exact_b(di, f.re_hi, f.re_lo, im_hi);   // Re F Im X
    } else if constexpr (kSplitData) {
      std::uint32_t const nim_lo[2] = {negate_halves(im_lo[0]), negate_halves(im_lo[1])};
      mma_split(dr, f.re_hi, f.re_lo, re_hi, re_lo);   // Re F Re X
      mma_split(dr, f.im_hi, f.im_lo, nim_hi, nim_lo); // - Im F Im X
      mma_split(di, f.im_hi, f.im_lo, re_hi, re_lo);   // Im F Re X
      mma_split(di, f.re_hi, f.re_lo, im_hi, im_lo);   // Re F Im X
    } else {
      mma_split_exact_b(dr, f.re_hi, f.re_lo, re_hi);   // Re F Re X
      mma_split_exact_b(dr, f.im_hi, f.im_lo, nim_hi);  // - Im F Im X
      mma_split_exact_b(di, f.im_hi, f.im_lo, re_hi);   // Im F Re X
      mma_split_exact_b(di, f.re_hi, f.re_lo, im_hi);   // Re F Im X
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) out[u][i] = make_float2(dr[i], di[i]);
  }
  __syncthreads();
#pragma unroll
  for (int u = 0; u < 4; ++u) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      int const c = ((warp * 4 + u) << 3) + 2 * quad + (i & 1);
      int const m = group + 8 * (i >> 1);
      int const t = c >> log_cols;
      int const j = c & col_mask;
      smem[smem_slot(t, merge_write_index(j, m, 4, log_ns), log_l)] = out[u][i];
    }
  }
  __syncthreads();
}

template <int kLogR, int kLogL, int kLogNs>
__device__ inline void merge_small(float2* smem, float2 const* coarse, bool inverse) {
  constexpr int log_l = kLogL;
  constexpr int log_ns = kLogNs;
  constexpr int kR = 1 << kLogR;
  constexpr int kPerThread = kElementsPerThread / kR;
  constexpr int log_b = log_l - kLogR;
  constexpr int b_mask = (1 << log_b) - 1;
  float2 v[kPerThread][kR];
#pragma unroll
  for (int s = 0; s < kPerThread; ++s) {
    int const beta = threadIdx.x + s * static_cast<int>(blockDim.x);
    int const t = beta >> log_b;
    int const j = beta & b_mask;
    // W^(m k) as running powers of one table value W^k (at most 7 FP32 products deep:
    // relative error below 2^-21, far under the FP16 rounding of the results).
    float2 w1 = make_float2(1.f, 0.f);
    if constexpr (log_ns > 0)
      w1 = coarse_twiddle(coarse, merge_twiddle_index(j, 1, kLogR, log_ns), inverse);
    float2 wm = w1;
#pragma unroll
    for (int m = 0; m < kR; ++m) {
      float2 x = smem[smem_slot(t, merge_read_index(j, m, log_l, kLogR), log_l)];
      if (log_ns > 0 && m > 0) {
        if (m > 1) wm = cmul(wm, w1);
        x = cmul(x, wm);
      }
      v[s][m] = x;
    }
    dft_small<kLogR>(v[s], inverse);
  }
  __syncthreads();
#pragma unroll
  for (int s = 0; s < kPerThread; ++s) {
    int const beta = threadIdx.x + s * static_cast<int>(blockDim.x);
    int const t = beta >> log_b;
    int const j = beta & b_mask;
#pragma unroll
    for (int m = 0; m < kR; ++m) {
      smem[smem_slot(t, merge_write_index(j, m, kLogR, log_ns), log_l)] =
          v[s][bit_reverse<kLogR>(m)];
    }
  }
  __syncthreads();
}

/// The merges of a pass of length 2^kLogL, all known at compile time (the planner's rule,
/// make_pass in plan_logic.cpp): radix 16 while 16 points are left, then one radix 2, 4 or 8
/// merge; a length below 16 is one small merge. `exact_first`: the input is FP16 (merge16).
template <int kLogL, int kLogNs = 0>
__device__ __forceinline__ void run_merges(float2* smem, bool exact_first, Dft16Shared const& fs,
                                           float2 const* coarse, bool inverse) {
  constexpr int kRest = kLogL - kLogNs;
  if constexpr (kRest >= 4) {
    if constexpr (kLogNs == 0) {
      if (exact_first) {
        merge16<true, kLogL, 0>(smem, fs, coarse, inverse);
      } else {
        merge16<false, kLogL, 0>(smem, fs, coarse, inverse);
      }
    } else {
      merge16<false, kLogL, kLogNs>(smem, fs, coarse, inverse);
    }
    run_merges<kLogL, kLogNs + 4>(smem, exact_first, fs, coarse, inverse);
  } else if constexpr (kRest > 0) {
    merge_small<kRest, kLogL, kLogNs>(smem, coarse, inverse);
  }
}

}  // namespace fftcore::detail::tc
