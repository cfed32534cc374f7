// SPDX-License-Identifier: MIT
// The pass kernel: a block loads a tile of T sequences of length L (FP16 or FP32) into FP32
// shared memory, normalises the tile by a power of two so that the FP16 hi/lo MMA operands
// neither overflow nor lose bits to underflow, runs the pass's merges, then multiplies by the
// pass twiddles and the scale and rounds once on the way out. Instantiated per length
// L = 2^1..2^14 and block size class: up to 512 threads (2^13 elements, two blocks per SM) and
// 1024 threads (2^14 elements, L >= 2^10).
#include <cuda_fp16.h>

#include <type_traits>
#include <utility>

#include "tc/column_pass_layout.hpp"
#include "tc/fast_pass_layout.hpp"
#include "tc/kernels/block_merges.cuh"
#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/long_pass_layout.hpp"
#include "tc/stockham_pass_layout.hpp"

namespace fftcore::detail::tc {
namespace {

/// Power-of-two gain for a tile whose largest component is `max_abs`: the operands of the last
/// radix-16 merge grow by at most 16^(merges16 - 1) * sqrt(2), and must stay below 2^15.
__device__ float tile_gain(float max_abs, int merges16) {
  if (merges16 == 0 || !(max_abs > 0.f) || !isfinite(max_abs)) return 1.f;
  float const growth = exp2f(4.f * static_cast<float>(merges16 - 1));
  int e = 0;
  frexpf(32768.f / (1.41422f * max_abs * growth), &e);
  return ldexpf(1.f, max(-100, min(100, e - 1)));
}

/// Element e = threadIdx.x + i * blockDim.x of a tile: sequence t, index n. `fast` when the
/// tile's sequences are adjacent in memory (t fastest, whole segments per warp).
struct TileIndex {
  int t;
  int n;
};
__device__ __forceinline__ TileIndex tile_index(int e, bool fast, int log_t, int log_l) {
  if (fast) return {e & ((1 << log_t) - 1), e >> log_t};
  return {e >> log_l, e & ((1 << log_l) - 1)};
}

__device__ __forceinline__ float2 to_float2(float2 r) { return r; }
__device__ __forceinline__ float2 to_float2(__half2 r) { return __half22float2(r); }
template <typename Raw>
__device__ __forceinline__ Raw from_float2(float2 v);
template <>
__device__ __forceinline__ float2 from_float2<float2>(float2 v) {
  return v;
}
template <>
__device__ __forceinline__ __half2 from_float2<__half2>(float2 v) {
  return __float22half2_rn(v);
}

/// A tile's accesses: `tile` points at the block's base element (the 64-bit offset applied
/// once); within the tile, t * stride0 + n * elem_stride fits in 32 bits for every plan
/// (tc_plan_logic_test: InTileOffsetsFitIn32Bits).
struct TileAccess {
  int stride0;
  int elem_stride;
  bool fast;
  int log_t;
  int log_l;
  int valid_t;  ///< sequences of the tile that exist, >= 1
};

/// Loads the thread's elements (0 for sequences past the end). All loads are issued before any
/// value is converted: the raw values first (a predicated load each), the conversions after,
/// so that no branch region holds a load and its use (one around each load and FP16
/// conversion made every load wait for the previous one's data).
template <typename Raw>
__device__ __forceinline__ void load_tile(float2 (&v)[kElementsPerThread], char const* tile,
                                          TileAccess const& a) {
  Raw raw[kElementsPerThread];
  int const threads = static_cast<int>(blockDim.x);
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    TileIndex const x =
        tile_index(static_cast<int>(threadIdx.x) + i * threads, a.fast, a.log_t, a.log_l);
    Raw r = from_float2<Raw>(make_float2(0.f, 0.f));
    if (x.t < a.valid_t) {
      r = reinterpret_cast<Raw const*>(tile)[x.t * a.stride0 + x.n * a.elem_stride];
    }
    raw[i] = r;
  }
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) v[i] = to_float2(raw[i]);
}

/// Stores the thread's elements [begin, end) of the sequences that exist.
template <typename Raw>
__device__ __forceinline__ void store_tile(char* tile, float2 const (&v)[kElementsPerThread],
                                           TileAccess const& a, int begin, int end) {
  int const threads = static_cast<int>(blockDim.x);
#pragma unroll
  for (int i = begin; i < end; ++i) {
    TileIndex const x =
        tile_index(static_cast<int>(threadIdx.x) + i * threads, a.fast, a.log_t, a.log_l);
    if (x.t < a.valid_t) {
      reinterpret_cast<Raw*>(tile)[x.t * a.stride0 + x.n * a.elem_stride] = from_float2<Raw>(v[i]);
    }
  }
}


/// v[i] *= factors[(base + offset of element i) & mask] for the thread's elements (the
/// offsets are those of load_tile; mod 2^32 arithmetic commutes with the mask, which is below
/// 2^32). Elements of sequences past the end are zeros times some factor.
__device__ __forceinline__ void apply_factors(float2 (&v)[kElementsPerThread], TileAccess const& a,
                                              std::uint32_t base, void const* factors,
                                              std::uint32_t mask, bool conjugate) {
  int const threads = static_cast<int>(blockDim.x);
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    TileIndex const x =
        tile_index(static_cast<int>(threadIdx.x) + i * threads, a.fast, a.log_t, a.log_l);
    std::uint32_t const at =
        base + static_cast<std::uint32_t>(x.t * a.stride0 + x.n * a.elem_stride);
    v[i] = cmul(v[i], hook_factor(factors, at & mask, conjugate));
  }
}

#ifndef FFTCORE_TC_MIN_BLOCKS_512
#define FFTCORE_TC_MIN_BLOCKS_512 2  // blocks of <= 512 threads per SM the registers must allow
#endif

/// One instantiation per sequence length 2^kLogL (so that every shift, mask and merge
/// index inside the tile is a compile-time constant: with the length a run-time value, integer
/// index arithmetic was ~60 % of the kernel's instructions) and block size class.
template <int kMaxThreads, int kLogL, bool kHooks>
__global__ void __launch_bounds__(kMaxThreads, kMaxThreads > 512 ? 1 : FFTCORE_TC_MIN_BLOCKS_512)
    pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse,
                float2 const* fine, int inverse_flag) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  extern __shared__ float2 smem[];
  __shared__ unsigned int tile_max_bits;
  __shared__ Dft16Shared dft16;  // 2 KiB: the DFT-16 A fragments of every lane
  bool const inverse = inverse_flag != 0;
  constexpr int log_l = kLogL;
  int const log_t = p.log_tile;
  int const threads = static_cast<int>(blockDim.x);
  BlockOrigin const o = block_origin(p, blockIdx.x);
  // Sequences of this tile that exist (<= T). Within a tile, t < T and n < L: offsets
  // t * stride[0] + n * elem_stride are 32-bit; only the block bases are 64-bit.
  int const valid_t =
      static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << log_t));
  char const* const src_tile = static_cast<char const*>(src) + o.in_base * (p.in_fp32 ? 8 : 4);
  if (threadIdx.x == 0) tile_max_bits = 0u;
  __syncthreads();

  bool const tile_fast_in = p.in_stride[0] == 1 && log_t > 0;
  TileAccess const in_access{static_cast<int>(p.in_stride[0]),
                             static_cast<int>(p.in_elem_stride),
                             tile_fast_in,
                             log_t,
                             log_l,
                             valid_t};
  float2 v[kElementsPerThread];
  if (p.in_fp32) {
    load_tile<float2>(v, src_tile, in_access);
  } else {
    load_tile<__half2>(v, src_tile, in_access);
  }
  if (kHooks && p.load_factors != nullptr) {  // ExecuteHooks::load_factors (first pass)
    apply_factors(v, in_access, static_cast<std::uint32_t>(o.in_base), p.load_factors,
                  p.factor_mask, false);
  }
  float local_max = 0.f;
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    local_max = fmaxf(local_max, fmaxf(fabsf(v[i].x), fabsf(v[i].y)));
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    local_max = fmaxf(local_max, __shfl_xor_sync(0xffffffffu, local_max, offset));
  }
  if ((threadIdx.x & 31) == 0) atomicMax(&tile_max_bits, __float_as_uint(local_max));
  __syncthreads();
  float const gain = tile_gain(__uint_as_float(tile_max_bits), kLogL >= 4 ? kLogL / 4 : 0);
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    int const e = static_cast<int>(threadIdx.x) + i * threads;
    int const t = tile_fast_in ? (e & ((1 << log_t) - 1)) : (e >> log_l);
    int const n = tile_fast_in ? (e >> log_t) : (e & ((1 << log_l) - 1));
    smem[smem_slot(t, n, log_l)] = cscale(v[i], gain);
  }
  if (threadIdx.x < 32) store_dft16_fragments(dft16, coarse, inverse);
  __syncthreads();

  // The first merge of a pass reading FP16 sees FP16 values times the power-of-two gain
  // (exact in FP32) and no twiddles: its B operands need no lo part (see merge16).
  run_merges<kLogL>(smem, p.in_fp32 == 0, dft16, coarse, inverse);

  float const factor = p.scale / gain;
  bool const tile_fast_out = p.out_stride[0] == 1 && log_t > 0;
  std::uint32_t const fine_mask = (1u << kLogCoarse) - 1u;
  char* const dst_tile = static_cast<char*>(dst) + o.out_base * (p.out_fp32 ? 8 : 4);
  TileAccess const out_access{static_cast<int>(p.out_stride[0]),
                              static_cast<int>(p.out_elem_stride),
                              tile_fast_out,
                              log_t,
                              log_l,
                              valid_t};
  // In chunks of 8 elements: all values (and their twiddle loads) first, the stores after,
  // without a branch per element in between (values of sequences past the end are computed
  // and dropped); the (block-uniform) twiddle test is outside the loop. A branch per element
  // made each element's twiddle loads wait for the previous element's; chunks of 8 keep the
  // loads in flight within the registers.
  auto const twiddle_base = static_cast<std::uint32_t>(o.twiddle_base);  // mod 2^32 suffices
  auto const twiddle_stride0 = static_cast<std::uint32_t>(p.twiddle_stride[0]);
  constexpr int kChunk = 8;
  auto const pass_twiddle = [&](std::uint32_t ex) {
    float2 w = cmul(__ldg(coarse + (ex >> kLogCoarse)), __ldg(fine + (ex & fine_mask)));
    if (inverse) w.y = -w.y;
    return w;
  };
  auto const finish = [&](auto twiddled, int begin) {
    float2 tw[kChunk];
    if constexpr (decltype(twiddled)::value) {
      // A thread's exponents in a chunk almost always step by a constant (mod 2^28): then
      // two table products (the first twiddle and the step) and FP32 products give all 8,
      // within a few 2^-24 (8 dependent products), instead of 16 scattered loads; else
      // each twiddle is looked up.
      std::uint32_t ex[kChunk];
#pragma unroll
      for (int i = 0; i < kChunk; ++i) {
        TileIndex const x = tile_index(static_cast<int>(threadIdx.x) + (begin + i) * threads,
                                       tile_fast_out, log_t, log_l);
        ex[i] = pass_twiddle_exponent32(
            twiddle_base + static_cast<std::uint32_t>(x.t) * twiddle_stride0,
            static_cast<std::uint32_t>(x.n), p.log_twiddle_n);
      }
      constexpr std::uint32_t kMask = (1u << kLogTwiddleBase) - 1u;
      std::uint32_t const step = (ex[1] - ex[0]) & kMask;
      bool linear = true;
#pragma unroll
      for (int i = 2; i < kChunk; ++i) linear = linear && ((ex[i] - ex[i - 1]) & kMask) == step;
      if (linear) {
        float2 const s = pass_twiddle(step);
        tw[0] = pass_twiddle(ex[0]);
#pragma unroll
        for (int i = 1; i < kChunk; ++i) tw[i] = cmul(tw[i - 1], s);
      } else {
#pragma unroll
        for (int i = 0; i < kChunk; ++i) tw[i] = pass_twiddle(ex[i]);
      }
    }
#pragma unroll
    for (int i = begin; i < begin + kChunk; ++i) {
      TileIndex const x =
          tile_index(static_cast<int>(threadIdx.x) + i * threads, tile_fast_out, log_t, log_l);
      float2 y = cscale(smem[smem_slot(x.t, x.n, log_l)], factor);
      if constexpr (decltype(twiddled)::value) y = cmul(y, tw[i - begin]);
      if (kHooks && p.store_factors != nullptr) {  // ExecuteHooks::store_factors (last pass)
        std::uint32_t const at =
            static_cast<std::uint32_t>(o.out_base) +
            static_cast<std::uint32_t>(x.t * out_access.stride0 + x.n * out_access.elem_stride);
        y = cmul(y, hook_factor(p.store_factors, at & p.factor_mask, p.conjugate_store != 0));
      }
      v[i] = y;
    }
    if (p.out_fp32) {
      store_tile<float2>(dst_tile, v, out_access, begin, begin + kChunk);
    } else {
      store_tile<__half2>(dst_tile, v, out_access, begin, begin + kChunk);
    }
  };
#pragma unroll
  for (int begin = 0; begin < kElementsPerThread; begin += kChunk) {
    if (p.log_twiddle_n > 0) {
      finish(std::true_type{}, begin);
    } else {
      finish(std::false_type{}, begin);
    }
  }
}

constexpr int kMaxSmemBytes = (1 << kLogMaxBlockElements) * static_cast<int>(sizeof(float2));
/// Blocks of more than 512 threads (2^14 elements) occur only for L >= 2^10 (the planner
/// targets 2^13 elements per block and goes above only to reach 8 adjacent columns).
constexpr int kMinLogLength1024 = 10;

template <int kMaxThreads, int kLogL>
cudaError_t raise_smem(int bytes) noexcept {
  cudaError_t const e = cudaFuncSetAttribute(pass_kernel<kMaxThreads, kLogL, false>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (e != cudaSuccess) return e;
  return cudaFuncSetAttribute(pass_kernel<kMaxThreads, kLogL, true>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

template <int kLogL>
cudaError_t prepare_length() noexcept {
  if constexpr (kLogL <= kLogMaxBlockElements - 1) {
    cudaError_t const e = raise_smem<512, kLogL>(kMaxSmemBytes / 2);
    if (e != cudaSuccess) return e;
  }
  if constexpr (kLogL >= kMinLogLength1024) return raise_smem<1024, kLogL>(kMaxSmemBytes);
  return cudaSuccess;
}

/// The pass with hooks (ExecuteHooks on the first or last pass) runs its own instantiation, so
/// that the factor loads cost the plain passes neither instructions nor registers (with one
/// kernel for both, spills of the 2^10 kernel grew from 60/80 to 176/276 bytes and it ran 8 %
/// slower).
template <int kMaxThreads, int kLogL>
cudaError_t enqueue(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
             float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  dim3 const grid(static_cast<unsigned>(pass.blocks));
  dim3 const block(static_cast<unsigned>(pass.threads));
  auto const smem = static_cast<std::size_t>(pass.smem_bytes);
  if (pass.load_factors != nullptr || pass.store_factors != nullptr) {
    return launch_chained(pass_kernel<kMaxThreads, kLogL, true>, grid, block, smem, stream, pass,
                          src, dst, coarse, fine, inverse);
  }
  return launch_chained(pass_kernel<kMaxThreads, kLogL, false>, grid, block, smem, stream, pass,
                        src, dst, coarse, fine, inverse);
}

template <int kLogL>
cudaError_t launch_length(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                          float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  if (pass.threads > 512) {
    if constexpr (kLogL >= kMinLogLength1024) {
      return enqueue<1024, kLogL>(pass, src, dst, coarse, fine, inverse, stream);
    } else {
      return cudaErrorInvalidConfiguration;  // the planner never asks for this
    }
  } else {
    if constexpr (kLogL <= kLogMaxBlockElements - 1) {
      return enqueue<512, kLogL>(pass, src, dst, coarse, fine, inverse, stream);
    } else {
      return cudaErrorInvalidConfiguration;  // L = 2^14 always takes 1024 threads
    }
  }
}

template <int... kLogL>
cudaError_t prepare_all(std::integer_sequence<int, kLogL...> /*unused*/) noexcept {
  cudaError_t e = cudaSuccess;
  ((e = e == cudaSuccess ? prepare_length<kLogL>() : e), ...);
  return e;
}

template <int... kLogL>
cudaError_t launch_any(std::integer_sequence<int, kLogL...> /*unused*/, PassParams const& pass,
                       void const* src, void* dst, float2 const* coarse, float2 const* fine,
                       bool inverse, cudaStream_t stream) noexcept {
  cudaError_t e = cudaErrorInvalidValue;
  ((pass.log_length == kLogL + 1
        ? (e = launch_length<kLogL + 1>(pass, src, dst, coarse, fine, inverse, stream))
        : e),
   ...);
  return e;
}

using Lengths = std::make_integer_sequence<int, kLogMaxBlockElements>;  // 0..13: L = 2^(i+1)

template <int... kI>
cudaError_t prepare_shifted(std::integer_sequence<int, kI...> /*unused*/) noexcept {
  return prepare_all(std::integer_sequence<int, (kI + 1)...>{});
}

}  // namespace

cudaError_t prepare_pass_kernels() noexcept {
  cudaError_t e = prepare_shifted(Lengths{});
  if (e == cudaSuccess) e = prepare_fast_pass_kernels();
  if (e == cudaSuccess) e = prepare_column_pass_kernels();
  if (e == cudaSuccess) e = prepare_mirror_pass_kernels();
  if (e == cudaSuccess) e = prepare_stockham_pass_kernels();
  if (e == cudaSuccess) e = prepare_group_pass_kernels();
  if (e == cudaSuccess) e = prepare_tall_pass_kernels();
  return e == cudaSuccess ? prepare_long_pass_kernels() : e;
}

/// FFTCORE_TC_FAST_PASS=0 in the environment sends every pass to the general kernel (for A/B
/// measurements in one build; read once).
bool runs_fast_pass(PassParams const& pass) noexcept {
  static bool const enabled = env_switch_on("FFTCORE_TC_FAST_PASS");
  return enabled && fast::eligible(pass);
}

cudaError_t launch_pass(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                        float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  // The two passes of the real R2C and C2R over half the data: the tall pass only.
  if (pass.real_halves != 0) return launch_tall_real(pass, src, dst, coarse, fine, stream);
  // The R2C split over mirrored sequence groups, natural order: the mirror pass only.
  if (pass.real_mirror != 0) return launch_mirror_pass(pass, src, dst, coarse, inverse, stream);
  // The R2C split over sequence pairs: the register-chained pass only.
  if (pass.real_pairs != 0) {
    return runs_fast_pass(pass) ? launch_fast_pass(pass, src, dst, coarse, fine, inverse, stream)
                                : cudaErrorInvalidValue;
  }
  // The 2-D R2C's row pairs: the Stockham pass only (whatever its A/B switch; the planner asks
  // for them only where it is on).
  if (pass.real_row_pairs != 0) {
    return stockham::eligible(pass) ? launch_stockham_pass(pass, src, dst, coarse, inverse, stream)
                                    : cudaErrorInvalidValue;
  }
  // The C2R split in the first row pass's load: the column pass (whatever its A/B switch) or
  // the register-chained pass.
  if (pass.real_in_columns != 0) {
    if (column::eligible(pass)) {
      return launch_column_pass(pass, src, dst, coarse, fine, inverse, stream);
    }
    return fast::real_columns_eligible(pass) && runs_fast_pass(pass)
               ? launch_fast_pass(pass, src, dst, coarse, fine, inverse, stream)
               : cudaErrorInvalidValue;
  }
  // 32768- and 65536-point passes: the long pass only (it refuses the ones it cannot run).
  if (pass.log_length == long_pass::kLogLength || pass.log_length == long_pass::kLogSplitLength) {
    return launch_long_pass(pass, src, dst, coarse, inverse, stream);
  }
  // The warp pass first: at L = 256 it takes the untwiddled contiguous passes the
  // register-chained pass would (warp_pass_layout.hpp says why).
  if (runs_warp_pass(pass)) {
    return launch_warp_pass(pass, src, dst, coarse, inverse, stream);
  }
  // The group pass ahead of the Stockham pass: the plain untwiddled contiguous passes of
  // 512..4096 points (group_pass_layout.hpp says why).
  if (runs_group_pass(pass)) {
    return launch_group_pass(pass, src, dst, coarse, inverse, stream);
  }
  // The Stockham pass ahead of the register-chained pass: it takes the untwiddled contiguous
  // passes of 512..16384 points (stockham_pass_layout.hpp says why).
  if (runs_stockham_pass(pass)) {
    return launch_stockham_pass(pass, src, dst, coarse, inverse, stream);
  }
  if (runs_column_pass(pass)) {
    return launch_column_pass(pass, src, dst, coarse, fine, inverse, stream);
  }
  // The tall pass ahead of the Stockham column variant and the register-chained pass: C L =
  // 2^15 FP16 words an item, in shared memory (tall_pass_layout.hpp says why): the complex
  // column passes of 512..4096 points (runs_tall_pass has the measurements).
  if (runs_tall_pass(pass)) {
    return launch_tall_pass(pass, src, dst, coarse, fine, inverse, stream);
  }
  // The Stockham column variant ahead of the register-chained pass: the untwiddled column
  // passes of 512..2048 points (stockham_pass_layout.hpp: columns_eligible) the tall pass
  // leaves, the real row pairs' column FFTs and narrow images (fewer columns than its items).
  if (runs_stockham_columns(pass)) {
    return launch_stockham_columns(pass, src, dst, coarse, inverse, stream);
  }
  if (runs_fast_pass(pass)) {
    return launch_fast_pass(pass, src, dst, coarse, fine, inverse, stream);
  }
  if (pass.real_out != 0 || pass.real_in != 0) {
    return cudaErrorInvalidValue;  // only the register-chained pass fuses a split
  }
  if (runs_small_pass(pass)) {
    return launch_small_pass(pass, src, dst, coarse, fine, inverse, stream);
  }
  return launch_any(Lengths{}, pass, src, dst, coarse, fine, inverse, stream);
}

}  // namespace fftcore::detail::tc
