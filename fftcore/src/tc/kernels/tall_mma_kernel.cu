// SPDX-License-Identifier: MIT
// The tall pass with Tensor Core stages: the same passes, items and stage 3 as
// tall_pass_kernel.cu, but its two radix-16 stages as FP16 matrix products (mma.sync m16n8k16,
// tall_mma_layout.hpp has the formulation and the swizzled words), the tcFFT design. Without
// hooks (a load hook's factors would have to be rounded to FP16 before the product; the hooked
// passes keep the FP32 stages). By default on the untwiddled column passes of 512 rows, and of
// 1024 rows on fast-DRAM devices (runs_tall_mma has the measurements).
#include <cuda_fp16.h>

#include <atomic>
#include <cstdlib>
#include <cstdint>
#include <type_traits>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/kernels/tall_pass_stages.cuh"
#include "tc/mma.cuh"
#include "tc/plan_logic.hpp"
#include "tc/tall_mma_layout.hpp"

namespace fftcore::detail::tc {
namespace {

namespace tp = tall_pass;
namespace tm = tall_pass::mma;

/// Stage-1 tiles a lane keeps loaded ahead (4 words each): 4, or 8 (EXPERIMENT).

/// The lane's A fragments of F_0 and F_1 (tall_mma_layout.hpp), [product s][register], FP16 hi
/// and lo parts: 16 registers.
struct DftFragments {
  std::uint32_t hi[2][4];
  std::uint32_t lo[2][4];
};

/// The fragments staged in shared memory after the item's words and table, [part][lane] with
/// part = 2 hi + s: computed once per block by warp 0, read back by every warp for each item's
/// stages 1 and 2 (4 LDS.128), so that their registers are not live across stage 3.
struct SharedFragments {
  uint4 part[4][32];
};

/// Then stage 1's twiddles s3 W_L^(b k1), entry 16 b + k1 (b < L / 16, k1 < 16: L float2, a
/// warp's eight k1 of one b in adjacent entries). Session 45: they were read from the coarse
/// table in global memory, and ncu put 14 % of 1024x1024's column pass's stall samples on the
/// wait for those loads (long scoreboard; the streaming column words keep them out of L1).
/// H200, ms per 2^28 elements, same call (two runs of the old, one of this): 1024x1024
/// 1.509-1.521 -> 1.414, 512x512 1.358-1.366 -> 1.311, 512x256 1.343-1.355 -> 1.296. The same
/// table for the FP32 kernel's W_L^b was mixed there (2048x2048 1.519-1.530 -> 1.470, 2^22
/// 1.951-1.953 -> 1.925, but 4096x4096 1.578-1.582 -> 1.609, 2^20 1.810-1.824 -> 1.834): not kept.
template <int kLogL>
constexpr std::size_t kMmaSmemBytes =
    tp::kSmemBytes<kLogL> + sizeof(SharedFragments) + (std::size_t{1} << kLogL) * sizeof(float2);

template <int kLogL>
__device__ __forceinline__ SharedFragments* shared_fragments(std::uint32_t* words) {
  return reinterpret_cast<SharedFragments*>(reinterpret_cast<char*>(words) +
                                            tp::kSmemBytes<kLogL>);
}

template <int kLogL>
__device__ __forceinline__ float2* stage1_twiddles(std::uint32_t* words) {
  return reinterpret_cast<float2*>(shared_fragments<kLogL>(words) + 1);
}

/// Fills stage 1's twiddles s3 W_L^(b k1) at entry tm::stage1_twiddle_entry(b, k1).
template <int kLogL>
__device__ __forceinline__ void fill_stage1_twiddles(float2* table, float2 const* coarse, float s3,
                                                     int j) {
  for (int e = j; e < (1 << kLogL); e += tp::threads(kLogL)) {
    int const exponent = tm::stage1_twiddle_exponent(e, kLogL);
    table[e] = cscale(__ldg(coarse + (exponent << (kLogCoarse - kLogL))), s3);
  }
}

__device__ __forceinline__ DftFragments dft_fragments(float2 const* coarse, int g, int t) {
  DftFragments f;
#pragma unroll
  for (int s = 0; s < 2; ++s) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      HalfSplit v[2];
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        tm::Coefficient const q = tm::coefficient(g, t, s, r, half);
        // W_16^e = W_(2^14)^(e 2^10), forward.
        float2 const w = __ldg(coarse + (q.exponent << (kLogCoarse - tp::kLogRadix)));
        float const x = q.imaginary ? w.y : w.x;
        v[half] = split_half(q.negated ? -x : x);
      }
      f.hi[s][r] = pack_halves(v[0].hi, v[1].hi);
      f.lo[s][r] = pack_halves(v[0].lo, v[1].lo);
    }
  }
  return f;
}

__device__ __forceinline__ void store_fragments(SharedFragments& sf, DftFragments const& f,
                                                int lane) {
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    sf.part[s][lane] = make_uint4(f.lo[s][0], f.lo[s][1], f.lo[s][2], f.lo[s][3]);
    sf.part[2 + s][lane] = make_uint4(f.hi[s][0], f.hi[s][1], f.hi[s][2], f.hi[s][3]);
  }
}

__device__ __forceinline__ DftFragments read_fragments(SharedFragments const& sf, int lane) {
  DftFragments f;
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    uint4 const lo = sf.part[s][lane];
    uint4 const hi = sf.part[2 + s][lane];
    f.lo[s][0] = lo.x;
    f.lo[s][1] = lo.y;
    f.lo[s][2] = lo.z;
    f.lo[s][3] = lo.w;
    f.hi[s][0] = hi.x;
    f.hi[s][1] = hi.y;
    f.hi[s][2] = hi.z;
    f.hi[s][3] = hi.w;
  }
  return f;
}

/// The tile's products: E = F_0 X_0 (even inputs) and O = F_1 X_1 (odd) from the lane's words
/// x[s][r] (input input_of(t, r, s) of column g), each lo then hi, two chains of two; then
/// d[0] = E + O (output g) and d[1] = E - O (output g + 8), of columns 2 t + e in d[mt][e]
/// (real) and d[mt][2 + e] (imaginary).
__device__ __forceinline__ void tile_product(DftFragments const& f,
                                             std::uint32_t const (&x)[2][2], float (&d)[2][4]) {
  float p[2][4];
#pragma unroll
  for (int s = 0; s < 2; ++s) mma_16x8x16_first(p[s], f.lo[s], x[s][0], x[s][1]);
#pragma unroll
  for (int s = 0; s < 2; ++s) mma_16x8x16(p[s], f.hi[s], x[s][0], x[s][1]);
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    d[0][q] = p[0][q] + p[1][q];
    d[1][q] = p[0][q] - p[1][q];
  }
}

/// Output g + 8 mt of the lane's two columns times `tw`, as two adjacent FP16 words (one 8-byte
/// store; mma_slot keeps column pairs 2 t, 2 t + 1 adjacent and 8-byte aligned).
__device__ __forceinline__ void store_outputs(std::uint32_t* words, int slot,
                                              float const (&d)[4], float2 tw) {
  *reinterpret_cast<uint2*>(words + slot) =
      make_uint2(pack_word(cmul(make_float2(d[0], d[2]), tw)),
                 pack_word(cmul(make_float2(d[1], d[3]), tw)));
}

/// kLogStride: 0, or log2 of the pass's in_elem_stride and out_elem_stride where both are that
/// power of two (launch_length dispatches), so that every global access of an item is its base
/// pointer plus an immediate offset (no stride reloads, no per-access address arithmetic; 1696
/// -> 1480 SASS instructions, 128 -> 114 registers at 1024 rows). H200, session 46 (NOTES.md
/// item 2): 1024x1024 1.40 -> 1.35 ms, 512x512 1.305 -> 1.286.
template <int kLogL, bool kInverse, bool kTwiddled, int kAheadTiles = 4, int kLogStride = 0>
__global__ void __launch_bounds__(tp::threads(kLogL), tp::blocks_per_sm(kLogL))
    tall_mma_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse,
                    float2 const* fine) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogB = tp::log_column_butterflies(kLogL);  // L / 16 butterflies a column
  constexpr int kLogR3 = tp::log_last_radix(kLogL);
  constexpr int kGroupMask = (1 << tm::log_column_groups(kLogL)) - 1;
  constexpr int kTiles = tm::kTilesPerWarp;
  static_assert(kTiles % kAheadTiles == 0 &&
                    kAheadTiles % (1 << tm::log_column_groups(tp::kMinLogLength)) == 0,
                "stage 1 in whole prefetch groups of whole butterflies");
  extern __shared__ std::uint32_t words[];  // the item, FP16 words at mma_slot(c, position)
  float2 const* const table = tp::stage2_table<kLogL>(words);
  int const j = static_cast<int>(threadIdx.x);
  int const warp = j >> 5;
  int const g = (j >> 2) & 7;  // mma group: column of a B fragment, output of an accumulator
  int const t = j & 3;         // thread in group: inputs of a B fragment, columns of the outputs
  // The pass's scale in three equal factors, one per stage, as the FP32 kernel splits it.
  float const s3 = cbrtf(p.scale);
  tp::fill_table<kLogL>(tp::stage2_table<kLogL>(words), coarse, s3, j);
  SharedFragments* const fragments = shared_fragments<kLogL>(words);
  float2* const stage1 = stage1_twiddles<kLogL>(words);
  fill_stage1_twiddles<kLogL>(stage1, coarse, s3, j);
  if (warp == 0) store_fragments(*fragments, dft_fragments(coarse, g, t), j);
  __syncthreads();
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  // Stage 3's deal (tall_pass_stages.cuh): column c, butterflies w0 + round_step v.
  int const c = tp::column_of(j, kLogL);
  int const w0 = tp::column_butterfly(j, kLogL);
  auto const in_es =
      kLogStride != 0 ? (1u << kLogStride) : static_cast<std::uint32_t>(p.in_elem_stride);
  // The warp's tiles i share their butterfly C / 8 at a time: w = w_warp + i / (C / 8), and
  // start at column 8 (i mod C / 8) (16 warp is a multiple of C / 8).
  int const w_warp = tm::tile_butterfly(warp, 0, kLogL);
  // The lane's parts of its shared-memory addresses (tall_mma_layout.hpp: each access is
  // (lane part ^ tile part) + offset, the tile part a constant within a group of tiles).
  int const store1_lane = tm::stage1_store_lane(g, t, warp, kLogL);
  int const load2_lane = tm::stage2_load_lane(g, t, warp, kLogL);
  int const store2_lane = tm::stage2_store_lane(g, t, warp, kLogL);
  // Stage 1: the lane reads rows b + (L / 16) input_of(t, r, s) of column c0 + g; inputs
  // 2 t + 1, 2 t + 8, 2 t + 9 are one, eight and nine sixteenths further.
  std::uint32_t const sixteenth = in_es << kLogB;
  std::uint32_t const half_column = in_es << (kLogB + 3);
  auto const base_of = [&](std::int64_t item, std::uint32_t const*& from,
                           tp::LastStageTarget& o) {
    BlockOrigin const origin = block_origin(p, item);
    if constexpr (kTwiddled) {
      o.seq_tw = static_cast<std::uint32_t>(origin.twiddle_base) +
                 static_cast<std::uint32_t>(c) * static_cast<std::uint32_t>(p.twiddle_stride[0]);
    }
    o.seq_at = static_cast<std::uint32_t>(origin.out_base) + static_cast<std::uint32_t>(c);
    o.seq = opaque(static_cast<std::uint32_t*>(dst) + origin.out_base + c);
    from = opaque(static_cast<std::uint32_t const*>(src) + origin.in_base + g +
                  static_cast<std::int64_t>(w_warp + (t << (kLogB + 1))) * in_es);
  };
  // Tile i of the group whose first row pointer is `rows` (kLogStride: immediate offsets).
  auto const load_group_tile = [&](std::uint32_t const* rows, int u, std::uint32_t(&x)[2][2]) {
    constexpr std::uint32_t kS = 1u << kLogStride;
    constexpr std::uint32_t kSixteenth = kS << kLogB, kHalf = kS << (kLogB + 3);
    std::uint32_t const at = static_cast<std::uint32_t>(u >> tm::log_column_groups(kLogL)) * kS +
                             static_cast<std::uint32_t>(tm::tile_first_column(0, u, kLogL));
    x[0][0] = rows[at];
    x[1][0] = rows[at + kSixteenth];
    x[0][1] = rows[at + kHalf];
    x[1][1] = rows[at + kSixteenth + kHalf];
  };
  auto const load_tile = [&](std::uint32_t const* from, int i, std::uint32_t(&x)[2][2]) {
    std::uint32_t const* at = opaque(
        from + (static_cast<std::uint32_t>(i >> tm::log_column_groups(kLogL)) * in_es +
                static_cast<std::uint32_t>(tm::tile_first_column(0, i, kLogL))));
    x[0][0] = *at;  // input 2 t
    std::uint32_t const* const odd = opaque(at + sixteenth);
    x[1][0] = *odd;  // 2 t + 1
    x[0][1] = *opaque(at + half_column);   // 2 t + 8
    x[1][1] = *opaque(odd + half_column);  // 2 t + 9
  };

  std::uint32_t raw[kAheadTiles][2][2];
  std::int64_t item = blockIdx.x;
  std::uint32_t const* from = nullptr;
  tp::LastStageTarget o{nullptr, 0u, 0u};
  if (item < p.blocks) {
    base_of(item, from, o);
#pragma unroll
    for (int u = 0; u < kAheadTiles; ++u) {
      if constexpr (kLogStride != 0) {
        load_group_tile(from, u, raw[u]);
      } else {
        load_tile(from, u, raw[u]);
      }
    }
  }
#pragma unroll 1
  for (; item < p.blocks; item += gridDim.x) {
    // Stage 1: tile i (butterfly b, 8 columns) to positions b + (L / 16) k1 as W_L^(b k1) s3
    // DFT[k1]; tile i + kAheadTiles is loaded as tile i is taken.
    DftFragments const f = read_fragments(*fragments, j & 31);
    float2 tw[2];
#pragma unroll 1
    for (int i0 = 0; i0 < kTiles; i0 += kAheadTiles) {
      int const store1_group = store1_lane ^ tm::tile_part(0, i0, kLogL);
      // kLogStride: the next group's first row (kAheadTiles is whole butterflies).
      std::uint32_t const* const ahead =
          from + (static_cast<std::uint32_t>((i0 + kAheadTiles) >> tm::log_column_groups(kLogL))
                  << kLogStride);
#pragma unroll
      for (int u = 0; u < kAheadTiles; ++u) {
        int const i = i0 + u;
        int const b = w_warp + (i >> tm::log_column_groups(kLogL));
        int const c0 = tm::tile_first_column(0, u, kLogL);  // kAheadTiles: whole groups of C / 8
        std::uint32_t x[2][2];
#pragma unroll
        for (int s = 0; s < 2; ++s) {
#pragma unroll
          for (int r = 0; r < 2; ++r) x[s][r] = raw[u][s][r] ^ conj;
        }
        if (i0 + kAheadTiles < kTiles) {
          if constexpr (kLogStride != 0) {
            load_group_tile(ahead, u, raw[u]);
          } else {
            load_tile(from, i + kAheadTiles, raw[u]);
          }
        }
        float d[2][4];
        tile_product(f, x, d);
        if ((u & kGroupMask) == 0) {  // a new butterfly: its twiddles W_L^(b k1) s3
#pragma unroll
          for (int mt = 0; mt < 2; ++mt) {
            tw[mt] = stage1[tm::stage1_twiddle_entry(b, tm::output_of(g, mt))];
          }
        }
        int const at = store1_group ^ tm::tile_part(0, u, kLogL);
#pragma unroll
        for (int mt = 0; mt < 2; ++mt) {
          store_outputs(words + tm::stage1_store_offset(mt, kLogL), at, d[mt], tw[mt]);
        }
      }
    }
    __syncthreads();
    // Stage 2: tile i (butterfly w = b0 + R3 k1, 8 columns) reads positions b0 + R3 n2 +
    // (L / 16) k1 and writes W_(L/16)^(b0 k2) s3 DFT[k2] in their place. A tile's reads and
    // writes are its own positions, and the warp's product sits between them.
#pragma unroll 1
    for (int i0 = 0; i0 < kTiles; i0 += 2) {  // two tiles at a time: two products in flight
      int const tile = tm::tile_part(1, i0, kLogL);
      std::uint32_t x[2][2][2];
#pragma unroll
      for (int v = 0; v < 2; ++v) {
#pragma unroll
        for (int s = 0; s < 2; ++s) {
          int const at = (load2_lane ^ tile) ^
                         (tm::tile_part(1, v, kLogL) ^ tm::stage2_load_parity(s, kLogL));
#pragma unroll
          for (int r = 0; r < 2; ++r) x[v][s][r] = words[at + tm::stage2_load_offset(r, kLogL)];
        }
      }
      float d[2][2][4];
#pragma unroll
      for (int v = 0; v < 2; ++v) tile_product(f, x[v], d[v]);
      // Other lanes' loads of these positions are ordered before the stores by the products
      // (which take every lane's words); the barrier says so to racecheck.
      __syncwarp();
#pragma unroll
      for (int v = 0; v < 2; ++v) {
        int const w = w_warp + ((i0 + v) >> tm::log_column_groups(kLogL));
        int const b0 = w & ((1 << kLogR3) - 1);
        int const at = (store2_lane ^ tile) ^ tm::tile_part(1, v, kLogL);
#pragma unroll
        for (int mt = 0; mt < 2; ++mt) {
          int const k2 = tm::output_of(g, mt);
          store_outputs(words + tm::stage2_store_offset(mt, kLogL), at, d[v][mt],
                        table[(k2 << kLogR3) + b0]);
        }
      }
    }
    __syncthreads();
    // The next item's first tiles, in flight while this one's last stage runs.
    tp::LastStageTarget const current = o;
    std::int64_t const next_item = item + gridDim.x;
    if (next_item < p.blocks) {
      base_of(next_item, from, o);
#pragma unroll
      for (int u = 0; u < kAheadTiles; ++u) {
        if constexpr (kLogStride != 0) {
          load_group_tile(from, u, raw[u]);
        } else {
          load_tile(from, u, raw[u]);
        }
      }
    }
    tp::last_stage<kLogL, kInverse, false, kTwiddled, tp::kMma, kLogStride>(p, words, c, w0,
                                                                        current, s3, coarse,
                                                                        fine);
    __syncthreads();  // this stage's reads before the next item's stage-1 writes
  }
}

/// Tiles of inputs loaded ahead: 8 for the untwiddled passes (512x512 1.66-1.67 ms against
/// 4's 1.69-1.70; H100, NOTES.md session 23), 4 with the pass twiddles (their registers).
template <bool kTwiddled>
constexpr int kMmaAhead = kTwiddled ? 4 : 8;

template <int kLogL, bool kInverse, bool kTwiddled, int kAhead = kMmaAhead<kTwiddled>,
          int kLogStride = 0>
cudaError_t launch_variant(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                           float2 const* fine, cudaStream_t stream) noexcept {
  static std::atomic<int> resident_cache{0};
  auto const kernel = tall_mma_kernel<kLogL, kInverse, kTwiddled, kAhead, kLogStride>;
  constexpr std::size_t smem = kMmaSmemBytes<kLogL>;
  unsigned grid = 0;
  cudaError_t const e =
      resident_grid(kernel, tp::threads(kLogL), smem, resident_cache, pass.blocks, grid);
  if (e != cudaSuccess) return e;
  return launch_chained(kernel, grid, tp::threads(kLogL), smem, stream, pass, src, dst, coarse,
                        fine);
}

/// The untwiddled passes' constant-stride kernels (kLogStride, the default):
/// FFTCORE_TC_MMA_CONST_STRIDE=0 keeps the runtime stride for A/B.
int constant_stride_log(PassParams const& tiled) noexcept {
  static bool const on = env_switch_on("FFTCORE_TC_MMA_CONST_STRIDE");
  if (!on || tiled.in_elem_stride != tiled.out_elem_stride) return 0;
  for (int s = 8; s <= 12; ++s) {
    if (tiled.in_elem_stride == (std::int64_t{1} << s)) return s;
  }
  return 0;
}

template <int kLogL, int kLogStride>
cudaError_t launch_strided(PassParams const& tiled, void const* src, void* dst,
                           float2 const* coarse, float2 const* fine, bool inverse,
                           cudaStream_t stream) noexcept {
  return inverse ? launch_variant<kLogL, true, false, kMmaAhead<false>, kLogStride>(
                       tiled, src, dst, coarse, fine, stream)
                 : launch_variant<kLogL, false, false, kMmaAhead<false>, kLogStride>(
                       tiled, src, dst, coarse, fine, stream);
}

template <int kLogL>
cudaError_t launch_length(PassParams const& tiled, void const* src, void* dst,
                          float2 const* coarse, float2 const* fine, bool inverse,
                          cudaStream_t stream) noexcept {
  if (tiled.log_twiddle_n != 0) {
    return inverse ? launch_variant<kLogL, true, true>(tiled, src, dst, coarse, fine, stream)
                   : launch_variant<kLogL, false, true>(tiled, src, dst, coarse, fine, stream);
  }
  if constexpr (kLogL <= 10) {
    switch (constant_stride_log(tiled)) {
      case 8:
        return launch_strided<kLogL, 8>(tiled, src, dst, coarse, fine, inverse, stream);
      case 9:
        return launch_strided<kLogL, 9>(tiled, src, dst, coarse, fine, inverse, stream);
      case 10:
        return launch_strided<kLogL, 10>(tiled, src, dst, coarse, fine, inverse, stream);
      case 11:
        return launch_strided<kLogL, 11>(tiled, src, dst, coarse, fine, inverse, stream);
      case 12:
        return launch_strided<kLogL, 12>(tiled, src, dst, coarse, fine, inverse, stream);
      default:
        break;
    }
  }
  return inverse ? launch_variant<kLogL, true, false>(tiled, src, dst, coarse, fine, stream)
                 : launch_variant<kLogL, false, false>(tiled, src, dst, coarse, fine, stream);
}

template <int kLogL>
cudaError_t prepare_length() noexcept {
  cudaError_t e = cudaSuccess;
  for (auto const kernel : {tall_mma_kernel<kLogL, false, false, kMmaAhead<false>>,
                            tall_mma_kernel<kLogL, true, false, kMmaAhead<false>>,
                            tall_mma_kernel<kLogL, false, true, kMmaAhead<true>>,
                            tall_mma_kernel<kLogL, true, true, kMmaAhead<true>>}) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(kMmaSmemBytes<kLogL>));
    }
  }
  if constexpr (kLogL <= 10) {
    auto const strided = [&](auto stride) {
      constexpr int kS = decltype(stride)::value;
      for (auto const kernel : {tall_mma_kernel<kLogL, false, false, kMmaAhead<false>, kS>,
                                tall_mma_kernel<kLogL, true, false, kMmaAhead<false>, kS>}) {
        if (e == cudaSuccess) {
          e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(kMmaSmemBytes<kLogL>));
        }
      }
    };
    strided(std::integral_constant<int, 8>{});
    strided(std::integral_constant<int, 9>{});
    strided(std::integral_constant<int, 10>{});
    strided(std::integral_constant<int, 11>{});
    strided(std::integral_constant<int, 12>{});
  }
  return e;
}

}  // namespace

cudaError_t prepare_tall_mma_kernels() noexcept {
  cudaError_t e = prepare_length<9>();
  if (e == cudaSuccess) e = prepare_length<10>();
  if (e == cudaSuccess) e = prepare_length<11>();
  return e == cudaSuccess ? prepare_length<12>() : e;
}

/// FFTCORE_TC_TALL_MMA (env_mode; read once): 0 keeps every pass on the FP32 stages, 3 hands
/// these stages every unhooked pass of the tall pass's column form (A/B). By default the
/// untwiddled ones of 512 rows, where they measured faster on the H100 (NOTES.md sessions 23
/// and 24), ms per 2^28 elements in one call against the FP32 stages: 512x256 1.613-1.619
/// against 1.634-1.638, 512x512 1.661-1.669 against 1.683-1.686; but 1024x1024 1.84 against
/// 1.75, 2048x2048 1.92 against 1.81, 4096x4096 2.06 against 1.92, 1-D twiddled passes 4-7 %
/// slower (latency-bound there: long and short scoreboard, MIO). Only from kMmaMinItems items,
/// where that gain (the grid-stride loop's, 2^28-element batches) was measured; small
/// transforms measured the same with and without them (NOTES.md session 24: their slowdown
/// was the tall pass's, which now leaves passes of fewer than 128 items, runs_tall_pass).
/// On fast-DRAM devices (fast_dram_device: the H200) also the untwiddled ones of 1024 rows:
/// there, two runs each in one call (NOTES.md session 38), 1024x1024 1.516-1.524 against
/// 1.541-1.544 ms with every pass on them, but 4096x4096 1.760-1.767 against 1.602-1.612 and
/// 2^20 2.141-2.147 against 2.030-2.031.
bool runs_tall_mma(PassParams const& tiled) noexcept {
  constexpr std::int64_t kMmaMinItems = 1024;
  static int const mode = env_mode("FFTCORE_TC_TALL_MMA");
  int const max_log_rows = tall_pass::kMinLogLength + (fast_dram_device() ? 1 : 0);
  bool const preferred =
      mode == 3 || (tiled.log_length <= max_log_rows && tiled.log_twiddle_n == 0 &&
                    tiled.blocks >= kMmaMinItems);
  return mode != 0 && preferred && tiled.load_factors == nullptr && tiled.store_factors == nullptr;
}

cudaError_t launch_tall_mma(PassParams const& tiled, void const* src, void* dst,
                            float2 const* coarse, float2 const* fine, bool inverse,
                            cudaStream_t stream) noexcept {
  switch (tiled.log_length) {
    case 9:
      return launch_length<9>(tiled, src, dst, coarse, fine, inverse, stream);
    case 10:
      return launch_length<10>(tiled, src, dst, coarse, fine, inverse, stream);
    case 11:
      return launch_length<11>(tiled, src, dst, coarse, fine, inverse, stream);
    case 12:
      return launch_length<12>(tiled, src, dst, coarse, fine, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
