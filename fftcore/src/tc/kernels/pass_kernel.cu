// SPDX-License-Identifier: MIT
// The pass kernel: a block loads a tile of T sequences of length L (FP16 or FP32) into FP32
// shared memory, normalises the tile by a power of two so that the FP16 hi/lo MMA operands
// neither overflow nor lose bits to underflow, runs the pass's merges, then multiplies by the
// pass twiddles and the scale and rounds once on the way out. Two instantiations: up to 512
// threads (2^13 elements) and 1024 threads (2^14 elements).
#include "tc/kernels/pass_launch.hpp"

#include "tc/kernels/block_merges.cuh"

#include <cuda_fp16.h>

namespace fftcore::detail::tc {
namespace {

/// Power-of-two gain for a tile whose largest component is `max_abs`: the operands of the last
/// radix-16 merge grow by at most 16^(merges16 - 1) * sqrt(2), and must stay below 2^15.
__device__ float tile_gain(float max_abs, PassParams const& p) {
  int merges16 = 0;
  for (int s = 0; s < p.stage_count; ++s) merges16 += p.log_radix[s] == 4 ? 1 : 0;
  if (merges16 == 0 || !(max_abs > 0.f) || !isfinite(max_abs)) return 1.f;
  float const growth = exp2f(4.f * static_cast<float>(merges16 - 1));
  int e = 0;
  frexpf(32768.f / (1.41422f * max_abs * growth), &e);
  return ldexpf(1.f, max(-100, min(100, e - 1)));
}

/// `tile` points at the block's base element (64-bit offset applied once); `index` is the
/// element's offset within the tile, which fits in 32 bits for every plan
/// (tc_plan_logic_test: InTileOffsetsFitIn32Bits).
__device__ __forceinline__ float2 load_element(char const* tile, int index, bool fp32) {
  if (fp32) return reinterpret_cast<float2 const*>(tile)[index];
  return __half22float2(reinterpret_cast<__half2 const*>(tile)[index]);
}

__device__ __forceinline__ void store_element(char* tile, int index, float2 v, bool fp32) {
  if (fp32) {
    reinterpret_cast<float2*>(tile)[index] = v;
  } else {
    reinterpret_cast<__half2*>(tile)[index] = __float22half2_rn(v);
  }
}

#ifndef FFTCORE_TC_MIN_BLOCKS_512
#define FFTCORE_TC_MIN_BLOCKS_512 2  // blocks of <= 512 threads per SM the registers must allow
#endif

template <int kMaxThreads>
__global__ void __launch_bounds__(kMaxThreads, kMaxThreads > 512 ? 1 : FFTCORE_TC_MIN_BLOCKS_512)
    pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse,
                float2 const* fine, int inverse_flag) {
  extern __shared__ float2 smem[];
  __shared__ unsigned int tile_max_bits;
  __shared__ Dft16Shared dft16;  // 2 KiB: the DFT-16 A fragments of every lane
  bool const inverse = inverse_flag != 0;
  int const log_l = p.log_length;
  int const log_t = p.log_tile;
  int const threads = static_cast<int>(blockDim.x);
  BlockOrigin const o = block_origin(p, blockIdx.x);
  // Sequences of this tile that exist (<= T). Within a tile, t < T and n < L: offsets
  // t * stride[0] + n * elem_stride are 32-bit; only the block bases are 64-bit.
  int const valid_t =
      static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << log_t));
  char const* const src_tile =
      static_cast<char const*>(src) + o.in_base * (p.in_fp32 ? 8 : 4);
  int const in_stride0 = static_cast<int>(p.in_stride[0]);
  int const in_elem_stride = static_cast<int>(p.in_elem_stride);
  if (threadIdx.x == 0) tile_max_bits = 0u;
  __syncthreads();

  bool const tile_fast_in = p.in_stride[0] == 1 && log_t > 0;
  float2 v[kElementsPerThread];
  float local_max = 0.f;
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    int const e = static_cast<int>(threadIdx.x) + i * threads;
    int const t = tile_fast_in ? (e & ((1 << log_t) - 1)) : (e >> log_l);
    int const n = tile_fast_in ? (e >> log_t) : (e & ((1 << log_l) - 1));
    float2 x = make_float2(0.f, 0.f);
    if (t < valid_t) {
      x = load_element(src_tile, t * in_stride0 + n * in_elem_stride, p.in_fp32);
    }
    v[i] = x;
    local_max = fmaxf(local_max, fmaxf(fabsf(x.x), fabsf(x.y)));
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    local_max = fmaxf(local_max, __shfl_xor_sync(0xffffffffu, local_max, offset));
  }
  if ((threadIdx.x & 31) == 0) atomicMax(&tile_max_bits, __float_as_uint(local_max));
  __syncthreads();
  float const gain = tile_gain(__uint_as_float(tile_max_bits), p);
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    int const e = static_cast<int>(threadIdx.x) + i * threads;
    int const t = tile_fast_in ? (e & ((1 << log_t) - 1)) : (e >> log_l);
    int const n = tile_fast_in ? (e >> log_t) : (e & ((1 << log_l) - 1));
    smem[smem_slot(t, n, log_l)] = cscale(v[i], gain);
  }
  if (threadIdx.x < 32) store_dft16_fragments(dft16, coarse, inverse);
  __syncthreads();

  int log_ns = 0;
  for (int s = 0; s < p.stage_count; ++s) {
    int const log_r = p.log_radix[s];
    if (log_r == 4) {
      // The first merge of a pass reading FP16 sees FP16 values times the power-of-two gain
      // (exact in FP32) and no twiddles: its B operands need no lo part (see merge16).
      if (log_ns == 0 && p.in_fp32 == 0) {
        merge16<true>(smem, log_l, log_ns, dft16, coarse, inverse);
      } else {
        merge16<false>(smem, log_l, log_ns, dft16, coarse, inverse);
      }
    } else if (log_r == 3) {
      merge_small<3>(smem, log_l, log_ns, coarse, inverse);
    } else if (log_r == 2) {
      merge_small<2>(smem, log_l, log_ns, coarse, inverse);
    } else {
      merge_small<1>(smem, log_l, log_ns, coarse, inverse);
    }
    log_ns += log_r;
  }

  float const factor = p.scale / gain;
  bool const tile_fast_out = p.out_stride[0] == 1 && log_t > 0;
  std::uint32_t const fine_mask = (1u << kLogCoarse) - 1u;
  char* const dst_tile = static_cast<char*>(dst) + o.out_base * (p.out_fp32 ? 8 : 4);
  int const out_stride0 = static_cast<int>(p.out_stride[0]);
  int const out_elem_stride = static_cast<int>(p.out_elem_stride);
  auto const twiddle_base = static_cast<std::uint32_t>(o.twiddle_base);  // mod 2^32 suffices
  auto const twiddle_stride0 = static_cast<std::uint32_t>(p.twiddle_stride[0]);
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    int const e = static_cast<int>(threadIdx.x) + i * threads;
    int const t = tile_fast_out ? (e & ((1 << log_t) - 1)) : (e >> log_l);
    int const k = tile_fast_out ? (e >> log_t) : (e & ((1 << log_l) - 1));
    if (t >= valid_t) continue;
    float2 x = cscale(smem[smem_slot(t, k, log_l)], factor);
    if (p.log_twiddle_n > 0) {
      std::uint32_t const ex = pass_twiddle_exponent32(
          twiddle_base + static_cast<std::uint32_t>(t) * twiddle_stride0,
          static_cast<std::uint32_t>(k), p.log_twiddle_n);
      float2 w = cmul(__ldg(coarse + (ex >> kLogCoarse)), __ldg(fine + (ex & fine_mask)));
      if (inverse) w.y = -w.y;
      x = cmul(x, w);
    }
    store_element(dst_tile, t * out_stride0 + k * out_elem_stride, x, p.out_fp32);
  }
}

constexpr int kMaxSmemBytes = (1 << kLogMaxBlockElements) * static_cast<int>(sizeof(float2));

}  // namespace

cudaError_t prepare_pass_kernels() noexcept {
  cudaError_t e = cudaFuncSetAttribute(pass_kernel<512>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       kMaxSmemBytes / 2);
  if (e != cudaSuccess) return e;
  return cudaFuncSetAttribute(pass_kernel<1024>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              kMaxSmemBytes);
}

cudaError_t launch_pass(PassParams const& pass, void const* src, void* dst,
                        float2 const* coarse, float2 const* fine, bool inverse,
                        cudaStream_t stream) noexcept {
  dim3 const grid(static_cast<unsigned>(pass.blocks));
  dim3 const block(static_cast<unsigned>(pass.threads));
  auto const smem = static_cast<std::size_t>(pass.smem_bytes);
  if (pass.threads > 512) {
    pass_kernel<1024><<<grid, block, smem, stream>>>(pass, src, dst, coarse, fine, inverse);
  } else {
    pass_kernel<512><<<grid, block, smem, stream>>>(pass, src, dst, coarse, fine, inverse);
  }
  return cudaGetLastError();
}

}  // namespace fftcore::detail::tc
