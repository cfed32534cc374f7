// SPDX-License-Identifier: MIT
// The register-chained pass: passes of length L = 256 Q (Q = 1..64) with FP16 data, no load
// hooks and T L <= 2^14 (fast::eligible; fast_pass_layout.hpp has the phases and the index
// maps). Against the
// general pass kernel it keeps the tile in FP16 in shared memory and runs each 256-point DFT
// as two chained 16-point DFTs on Tensor Cores inside one warp, with every index of the inner
// loops a compile-time constant: one shared-memory round trip per element for step A instead
// of one per radix-16 merge, no barrier between the two merges.
//
// Precision: FP32 accumulation everywhere; the DFT-16 matrix enters as hi + lo FP16 parts
// (F_hi X + F_lo X, both products exact in FP32), the data as FP16. An element is rounded to
// FP16 after step C (Q > 1; after each of its two steps for Q > 16), between the two products
// of step A, and on output. A block gain
// (a power of two from the tile's largest component) keeps every FP16 intermediate below
// 16 Q sqrt(2) 2^11 / Q < 2^15.5.
#include "tc/kernels/pass_launch.hpp"

#include "tc/fast_constants.hpp"
#include "tc/fast_pass_layout.hpp"
#include "tc/kernels/block_merges.cuh"
#include "tc/kernels/chained_launch.cuh"
#include "tc/real_split.hpp"

#include <cuda_fp16.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

namespace fftcore::detail::tc {
namespace {

/// Per block: the step-A constants (copied from the table behind the coarse twiddles, see
/// fast_constants.hpp) and each warp's largest input component.
struct FastShared {
  FastConstants k;
  float warp_max[32];
};

__device__ __forceinline__ std::uint32_t half2_bits(__half2 h) {
  return *reinterpret_cast<std::uint32_t*>(&h);
}

/// a[q] = the FP16 value of raw[q] ^ mask (mask: 0, or the imaginary half's sign bit, which
/// conjugates), in FP32.
template <int kR>
__device__ __forceinline__ void unpack_fp16(std::uint32_t const* raw, std::uint32_t mask,
                                            float2 (&a)[kR]) {
#pragma unroll
  for (int q = 0; q < kR; ++q) {
    std::uint32_t const bits = raw[q] ^ mask;
    a[q] = __half22float2(*reinterpret_cast<__half2 const*>(&bits));
  }
}

/// Step C's store: output k of dft_pow2 (a[bit_reverse(k)]) times gain W^k, W = w1 (powers by
/// FP32 products), rounded to FP16, XOR-ed with `mask`, to tile[step_c_slot(sw, slot_m, k0 + k)].
template <int kLogR>
__device__ __forceinline__ void store_twiddled(float2 const (&a)[1 << kLogR], float2 w1, float gain,
                                               std::uint32_t mask, std::uint32_t* tile,
                                               fast::Swizzle const& sw, int slot_m, int k0) {
  float2 wk = cscale(w1, gain);
#pragma unroll
  for (int k = 0; k < (1 << kLogR); ++k) {
    float2 v = a[bit_reverse<kLogR>(k)];
    if (k == 0) {
      v = cscale(v, gain);
    } else {
      if (k > 1) wk = cmul(wk, w1);
      v = cmul(v, wk);
    }
    tile[fast::step_c_slot(sw, slot_m, k0 + k)] = half2_bits(__float22half2_rn(v)) ^ mask;
  }
}

/// The R2C split of one pair into a row of M + 1 outputs (real_split.hpp), one rounding: X[n]
/// and X[M - n] from a = Z[n] and b = Z[M - n], W_{2M}^n by the MUFU sine and cosine (~2^-21
/// absolute on [-pi, 0], far below the output rounding; minus_pi_over_m = -pi / M); n = 0: X[0]
/// and X[M] from a = Z[0], X[M / 2] from b = Z[M / 2].
__device__ __forceinline__ void store_split(std::uint32_t* row, int m, int n, float2 a, float2 b,
                                            float minus_pi_over_m) {
  auto const pack = [](float2 v) { return half2_bits(__float22half2_rn(v)); };
  float2 x0, xm;
  if (n == 0) {
    split_forward_ends(a, 1.0f, x0, xm);
    row[0] = pack(x0);
    row[m] = pack(xm);
    row[m / 2] = pack(split_forward_middle(b, 1.0f));
  } else {
    float2 w;
    __sincosf(static_cast<float>(n) * minus_pi_over_m, &w.y, &w.x);
    split_forward_pair(a, b, w, 1.0f, x0, xm);
    row[n] = pack(x0);
    row[m - n] = pack(xm);
  }
}

/// Asynchronous global -> shared copies (sm_80+): the next tile's loads stay in flight while
/// the block computes the current one, without holding registers. copy_async16 copies `bytes`
/// (0..16) and fills the rest of the 16 with zeros.
__device__ __forceinline__ void copy_async16(std::uint32_t smem_addr, void const* gmem, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr), "l"(gmem),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void copy_async4(std::uint32_t smem_addr, void const* gmem) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_addr), "l"(gmem)
               : "memory");
}
__device__ __forceinline__ void copy_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void copy_async_wait_all() {
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

/// kLogT >= 0: the tile size T = 2^kLogT is a compile-time constant (the planner's usual
/// T L = 2^13), so every tile index and swizzle of the load and store loops folds into
/// constants; kLogT = -1 takes it from the pass (any T).
#ifndef FFTCORE_TC_FAST_MIN_BLOCKS
#define FFTCORE_TC_FAST_MIN_BLOCKS 2  // resident 512-thread blocks per SM the registers must allow
#endif

/// kReal: kRealNone, or a real transform's split fused into the single row pass: kRealOut (R2C,
/// in the store) or kRealIn (C2R, in the load); or kRealPairs, the R2C split in the store of the
/// last of two or three row passes, over the sequence pairs t, P - t (PassParams::real_pairs);
/// or kRealInColumns, the C2R split in the load of the first of them, down adjacent columns
/// (PassParams::real_in_columns).
constexpr int kRealNone = 0;
constexpr int kRealOut = 1;
constexpr int kRealIn = 2;
constexpr int kRealPairs = 3;
constexpr int kRealInColumns = 4;

/// Whether a kernel instantiation stages its tiles (1024 threads, one block per SM; the C2R
/// loads read two elements per value and take them straight into registers instead).
constexpr bool staged_tiles(int max_threads, int real) {
  return max_threads > 512 && real != kRealIn && real != kRealInColumns;
}

template <int kLogQ, int kLogT, bool kFastIn, bool kFastOut, int kMaxThreads, int kReal>
__global__ void __launch_bounds__(kMaxThreads, kMaxThreads > 512   ? 1
                                               : kMaxThreads > 256 ? FFTCORE_TC_FAST_MIN_BLOCKS
                                                                   : 2 * FFTCORE_TC_FAST_MIN_BLOCKS)
    fast_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse,
                     float2 const* fine, int inverse_flag, int vector_flag) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogL = kLogQ + fast::kLogSub;
  constexpr int kQ = 1 << kLogQ;
  // Q > 16: step C in two steps (fast_pass_layout.hpp), C1 over q2 (16 points), C2 over q1.
  constexpr bool kSplitC = fast::split_step_c(kLogL);
  constexpr int kLogQ1 = kSplitC ? kLogQ - 4 : 0;
  extern __shared__ std::uint32_t tile[];  // __half2 bits: the tile, then two staging buffers
  __shared__ FastShared sh;
  bool const inverse = inverse_flag != 0;
  int const log_t = kLogT >= 0 ? kLogT : p.log_tile;
  int const threads = 16 << (log_t + kLogQ);  // == blockDim.x
  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid & 31;
  int const warp = tid >> 5;
  int const group = lane >> 2;
  int const quad = lane & 3;
  fast::Swizzle const sw = fast::make_swizzle(kLogL, log_t, kFastOut);
  auto const blocks = static_cast<std::uint32_t>(p.blocks);
  int const tile_words = threads * kElementsPerThread;  // T L

  // Staged (1024-thread tiles, one block per SM): the block loops over tiles
  // b = blockIdx.x + i gridDim.x (the grid is what stays resident, launch_fast), and the copies
  // of tile b + gridDim.x are in flight while it computes tile b; with one block per SM nothing
  // else hides the loads (2^22: 3.07 -> 2.56 ms). A staging buffer holds a tile in memory order:
  // element e at word e, (t, n) = tile_element(e) (t fastest for adjacent-columns input, n
  // fastest for rows), copied 16 bytes (4 elements) at a time where the pass and the pointer
  // allow it (fast::vector_loads), else 4. Smaller tiles (four or two blocks per SM) load
  // straight into registers, one tile per block: staged they ran 4-10 % slower (NOTES.md,
  // session 5).
  constexpr bool kStaged = staged_tiles(kMaxThreads, kReal);
  // The thread's first step-C input value, and value i < 16 relative to it (a constant when T
  // is): raw[s Q + q] = x(t_s, m_s + 256 q) for the 16 / Q tasks s of the chained step C;
  // raw[q2] = x(t, m + 256 (q1 + Q1 q2)) for the C1 task of the split one.
  fast::TileElement const task0 = kSplitC ? fast::split_task(tid, kLogQ)
                                          : fast::load_task(tid, 0, threads, kFastIn, log_t);
  auto const value_offset = [&](int i) -> fast::TileElement {
    if constexpr (kSplitC) {
      return {0, i << (fast::kLogSub + kLogQ1)};
    } else {
      fast::TileElement const d = fast::load_task(0, i / kQ, threads, kFastIn, log_t);
      return {d.t, d.n + ((i % kQ) << fast::kLogSub)};
    }
  };
  std::uint32_t* const stage = tile + tile_words;
  auto const stage_base = static_cast<std::uint32_t>(__cvta_generic_to_shared(stage));
  bool const vector_loads = vector_flag != 0;
  // kRealPairs: a tile's local sequence s is t = pair_sequence(s, g) of pair tile g = d0 / T
  // (fast_pass_layout.hpp), its row at this offset past the transform's (block_origin's in_base).
  constexpr bool kPairs = kReal == kRealPairs;
  auto const pair_row = [&](int s, std::int64_t d0) {
    int const t = fast::pair_sequence(s, static_cast<int>(d0 >> log_t), log_t - 1,
                                      p.pair_log_sequences);
    return (t & ((1 << p.pair_log_l0) - 1)) * static_cast<int>(p.pair_in_stride0) +
           (t >> p.pair_log_l0) * static_cast<int>(p.pair_in_stride1);
  };
  auto const issue_loads = [&](std::uint32_t b, int buf) {
    BlockOrigin const oi = block_origin(p, b);
    int const valid =
        static_cast<int>(min(p.extent[0] - oi.d0, static_cast<std::int64_t>(1) << log_t));
    auto const* in = reinterpret_cast<std::uint32_t const*>(src) + oi.in_base;
    int const s0 = kFastIn ? 1 : static_cast<int>(p.in_stride[0]);
    int const se = static_cast<int>(p.in_elem_stride);
    int const buf_words = buf * tile_words;
    std::uint32_t const buf_addr = stage_base + 4u * static_cast<std::uint32_t>(buf_words);
    if (vector_loads) {
#pragma unroll
      for (int j = 0; j < kElementsPerThread / 4; ++j) {
        int const e = 4 * (tid + j * threads);
        fast::TileElement const x = fast::tile_element(e, kFastIn, log_t, kLogL);
        // Elements of the chunk inside the tile (adjacent columns: t .. t + 3 of `valid`).
        int const bytes = kFastIn ? 4 * max(0, min(4, valid - x.t)) : (x.t < valid ? 16 : 0);
        int const at = kPairs ? pair_row(x.t, oi.d0) + x.n : x.t * s0 + x.n * se;
        copy_async16(buf_addr + 4u * static_cast<std::uint32_t>(e), bytes > 0 ? in + at : in,
                     bytes);
      }
    } else {
#pragma unroll
      for (int i = 0; i < kElementsPerThread; ++i) {
        int const e = tid + i * threads;
        fast::TileElement const x = fast::tile_element(e, kFastIn, log_t, kLogL);
        if (x.t < valid) {
          int const at = kPairs ? pair_row(x.t, oi.d0) + x.n : x.t * s0 + x.n * se;
          copy_async4(buf_addr + 4u * static_cast<std::uint32_t>(e), in + at);
        } else {
          stage[buf_words + e] = 0u;
        }
      }
    }
    copy_async_commit();
  };

  // The step-A constants (fast_constants.hpp): 6 KiB of register images per lane behind the
  // coarse table, copied into shared memory by the whole block with 16-byte loads after the
  // tile's loads are issued (the first barrier orders them before step A). Read from global
  // memory in step A instead, they were hoisted out of the task loop and spilled.
  auto const copy_constants = [&] {
    auto const* from = reinterpret_cast<uint4 const*>(
        reinterpret_cast<FastConstants const*>(coarse + kFastConstantsOffset) + (inverse ? 1 : 0));
    auto* to = reinterpret_cast<uint4*>(&sh.k);
    constexpr int kWords = static_cast<int>(sizeof(FastConstants) / sizeof(uint4));
    for (int i = tid; i < kWords; i += threads) to[i] = __ldg(from + i);
  };
  if constexpr (kStaged) {
    issue_loads(blockIdx.x, 0);
    copy_constants();
  }

  int buf = 0;
#pragma unroll 1
  for (std::uint32_t b = blockIdx.x; b < blocks; b += gridDim.x, buf ^= 1) {
    BlockOrigin const o = block_origin(p, b);
    int const valid_t =
        static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << log_t));
    // This tile's copies (every thread's), then the next tile's into the other buffer: its last
    // readers finished before the barriers of the previous iteration. Raw FP16 bits of the
    // step-C tasks (fast::load_task): raw[s Q + q] = x(t_s, m_s + 256 q); consecutive lanes read
    // consecutive words.
    std::uint32_t raw[kElementsPerThread];
    if constexpr (kStaged) {
      copy_async_wait_all();
      __syncthreads();
      auto const word = [&](fast::TileElement x) {
        return kFastIn ? (x.n << log_t) + x.t : (x.t << kLogL) + x.n;
      };
      std::uint32_t const* const from = stage + buf * tile_words + word(task0);
#pragma unroll
      for (int i = 0; i < kElementsPerThread; ++i) raw[i] = from[word(value_offset(i))];
      if (b + gridDim.x < blocks) issue_loads(b + gridDim.x, buf ^ 1);
    } else {
      // Straight into registers: the Q values of each of the thread's 16 / Q step-C tasks, 16
      // loads in flight before anything else.
      auto const* in = reinterpret_cast<std::uint32_t const*>(src) + o.in_base;
      int const s0 = static_cast<int>(p.in_stride[0]);
      bool const whole = valid_t == (1 << log_t);
      // elem_stride is 1 (contiguous rows) or a run-time value; the in-tile offset of element
      // (s, q) is d.t s0 + (d.n + 256 q) elem_stride past the thread's first element, with
      // (d.t, d.n) = load_task(0, s) a constant when T is.
      auto load_all = [&](auto elem_stride, auto row_stride) {
        auto const* first = in + (task0.t * row_stride + task0.n * elem_stride);
#pragma unroll
        for (int i = 0; i < kElementsPerThread; ++i) {
          fast::TileElement const d = value_offset(i);
          bool const ok = whole || task0.t + d.t < valid_t;
          raw[i] = ok ? first[d.t * row_stride + d.n * elem_stride] : 0u;
        }
      };
      int const se = static_cast<int>(p.in_elem_stride);
      if constexpr (kReal == kRealIn) {
        // C2R (PassParams::real_in): value n of sequence t is Z[n] of X[n] and X[M - n]
        // (real_split.hpp; n = 0 pairs X[0] with X[M], their imaginary parts ignored as cuFFT
        // does; n = M/2 with itself), in FP32, times 1/4, rounded once. Every load first.
        constexpr int kM = 1 << kLogL;
        constexpr float kMinusPiOverM = -3.14159265358979323846f / static_cast<float>(kM);
        auto const* first = in + (task0.t * s0 + task0.n);
        auto const* mirror = in + (task0.t * s0 + (kM - task0.n));
        std::uint32_t other[kElementsPerThread];
#pragma unroll
        for (int i = 0; i < kElementsPerThread; ++i) {
          fast::TileElement const d = value_offset(i);
          bool const ok = whole || task0.t + d.t < valid_t;
          raw[i] = ok ? first[d.t * s0 + d.n] : 0u;
          other[i] = ok ? mirror[d.t * s0 - d.n] : 0u;
        }
        // w = W_{2M}^n / 4: by the MUFU sine and cosine (as the R2C store) at each task's first
        // value, then by products with W_{2M}^step along the task (step = 256, or 256 Q1 for the
        // split step C; at most 15 products, a few 2^-24, far below the rounding of Z).
        constexpr int kStep = kSplitC ? 256 << kLogQ1 : 256;
        constexpr int kRun = kSplitC ? kElementsPerThread : kQ;  // values per task
        float2 step;
        __sincosf(static_cast<float>(kStep) * kMinusPiOverM, &step.y, &step.x);
        float2 w{};
#pragma unroll
        for (int i = 0; i < kElementsPerThread; ++i) {
          int const n = task0.n + value_offset(i).n;
          if (i % kRun == 0) {
            __sincosf(static_cast<float>(n) * kMinusPiOverM, &w.y, &w.x);
            w = cscale(w, 0.25f);
          } else {
            w = cmul(w, step);
          }
          float2 a = __half22float2(*reinterpret_cast<__half2 const*>(&raw[i]));
          float2 b = __half22float2(*reinterpret_cast<__half2 const*>(&other[i]));
          if (n == 0) {
            a.y = 0.0f;
            b.y = 0.0f;
          }
          raw[i] = half2_bits(__float22half2_rn(split_inverse_quarter(a, b, w)));
        }
      } else if constexpr (kReal == kRealInColumns) {
        // C2R (PassParams::real_in_columns, adjacent columns, whole tiles): value (t, n) of
        // column c = d0 + t is Z[j] / 4, j = c + D0 n, of X[j] (at t + n D0) and X[M - j]
        // (real_mirror_offset), rounded once. The thread's values share t and differ in n by
        // d.n, a multiple of L / 16 (fast::load_task), so W_2M^j = W_2M^(c + D0 n0)
        // W_32^(16 d.n / L): one sincospi per thread and a constant product per value.
        static_assert(kFastIn && !kSplitC, "adjacent columns, L <= 4096");
        int const inner = se;
        int const d0 = static_cast<int>(o.d0);
        int const c = d0 + task0.t;
        auto const* first = in + (task0.t + task0.n * inner);
        auto const* mirror = in + real_mirror_offset(d0, task0.t, task0.n, inner, kLogL);
        std::uint32_t other[kElementsPerThread];
#pragma unroll
        for (int i = 0; i < kElementsPerThread; ++i) {
          int const dn = value_offset(i).n;
          raw[i] = first[dn * inner];
          other[i] = mirror[-dn * inner];
        }
        int const log_m = log2_of_pow2(static_cast<std::uint32_t>(inner)) + kLogL;
        float2 const w0 = cscale(
            split_twiddle(static_cast<std::uint32_t>(c + inner * task0.n), log_m), 0.25f);
#pragma unroll
        for (int i = 0; i < kElementsPerThread; ++i) {
          int const dn = value_offset(i).n;
          float2 const w = dn == 0 ? w0 : cmul(w0, w32(dn >> (kLogL - 4)));
          float2 a = __half22float2(*reinterpret_cast<__half2 const*>(&raw[i]));
          float2 b = __half22float2(*reinterpret_cast<__half2 const*>(&other[i]));
          if (c == 0 && task0.n + dn == 0) {  // X[0] and X[M]: their imaginary parts ignored
            a.y = 0.0f;
            b.y = 0.0f;
          }
          raw[i] = half2_bits(__float22half2_rn(split_inverse_quarter(a, b, w)));
        }
      } else if constexpr (kPairs) {
        // Each value's row from its local sequence (whole tiles, contiguous rows).
#pragma unroll
        for (int i = 0; i < kElementsPerThread; ++i) {
          fast::TileElement const d = value_offset(i);
          raw[i] = in[pair_row(task0.t + d.t, o.d0) + task0.n + d.n];
        }
      } else if constexpr (kFastIn) {
        load_all(se, std::integral_constant<int, 1>{});  // adjacent columns: stride[0] == 1
      } else if (se == 1) {
        load_all(std::integral_constant<int, 1>{}, s0);
      } else {
        load_all(se, s0);
      }
      copy_constants();
    }

    // The tile's range: each warp's largest component, then one barrier.
    __half2 hmax = __float2half2_rn(0.f);
#pragma unroll
    for (int i = 0; i < kElementsPerThread; ++i) {
      hmax = __hmax2(hmax, __habs2(*reinterpret_cast<__half2 const*>(&raw[i])));
    }
    float local_max = fmaxf(__low2float(hmax), __high2float(hmax));
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
      local_max = fmaxf(local_max, __shfl_xor_sync(0xffffffffu, local_max, offset));
    }
    if (lane == 0) sh.warp_max[warp] = local_max;
    __syncthreads();
    float tile_max = 0.f;
    for (int w = 0; w < (threads >> 5); ++w) tile_max = fmaxf(tile_max, sh.warp_max[w]);
    // gain = 2^e with max * gain <= 2^11 / Q: the FP16 values of step C stay below sqrt(2) 2^11
    // and the step-A intermediate below 16 sqrt(2) 2^11 < 2^15.5.
    // With m = max in [2^em, 2^(em+1)), e = 10 - log2 Q - em gives m 2^e < 2^11 / Q (one bit
    // short of the largest such power where m is a power of two). Exact powers of two from bits.
    int gain_exp = 0;
    {
      unsigned int const bits = __float_as_uint(tile_max);  // non-negative (or +inf: gain 1)
      int const em = static_cast<int>(bits >> 23) - 127;
      if (bits != 0u && em < 128) gain_exp = max(-14, min(15, 10 - kLogQ - em));
    }
    float const gain = __uint_as_float(static_cast<unsigned int>(127 + gain_exp) << 23);
    float const inv_gain = __uint_as_float(static_cast<unsigned int>(127 - gain_exp) << 23);

    // Step C in registers: per task, the Q-point DFT over q, times gain W_L^(m k_q), rounded to
    // FP16 and written to shared memory at m + 256 k_q (Q = 1: the gain alone). Slots split over
    // the bits like the tasks: slot(task s) = slot(task 0) ^ slot(load_task(0, s)).
    int const task_slot0 = fast::slot(sw, task0.t, task0.n);
    if constexpr (kSplitC) {
      // C1: the 16-point DFT over q2 of x(t, m + 256 (q1 + Q1 q2)), times gain W_Q^(q1 k2), to
      // m + 256 (k2 + 16 q1); barrier; C2: per task (t, m, k2) the Q1-point DFT over q1 of
      // those, times W_L^(m (k2 + 16 k1)), in place. The inverse as conj(forward(conj x)), the
      // intermediate staying conjugated.
      constexpr int kQ1 = 1 << kLogQ1;
      std::uint32_t const conj_mask = inverse ? 0x80000000u : 0u;
      {
        int const m = task0.n & ((1 << fast::kLogSub) - 1);
        int const q1 = task0.n >> fast::kLogSub;
        int const slot_m = fast::slot(sw, task0.t, m);
        float2 a[16];
        unpack_fp16(raw, conj_mask, a);
        dft_pow2<4>(a);
        store_twiddled<4>(a, coarse_twiddle(coarse, q1 << (kLogCoarse - kLogQ), false), gain, 0u,
                          tile, sw, slot_m, 16 * q1);
      }
      __syncthreads();
#pragma unroll
      for (int s = 0; s < 16 / kQ1; ++s) {
        fast::TileElement const c = fast::split_c2_task(tid, s, threads);
        int const m = c.n & ((1 << fast::kLogSub) - 1);
        int const k2 = c.n >> fast::kLogSub;
        int const slot_m = fast::slot(sw, c.t, m);
        std::uint32_t bits[kQ1];
#pragma unroll
        for (int q = 0; q < kQ1; ++q) bits[q] = tile[fast::step_c_slot(sw, slot_m, k2 + 16 * q)];
        float2 a[kQ1];
        unpack_fp16(bits, 0u, a);
        dft_pow2<kLogQ1>(a);
        constexpr int kShift = kLogCoarse - kLogL;
        float2 wk = coarse_twiddle(coarse, (m * k2) << kShift, false);
        float2 const w16 = coarse_twiddle(coarse, (16 * m) << kShift, false);
#pragma unroll
        for (int k = 0; k < kQ1; ++k) {
          if (k > 0) wk = cmul(wk, w16);
          float2 const v = cmul(a[bit_reverse<kLogQ1>(k)], wk);
          tile[fast::step_c_slot(sw, slot_m, k2 + 16 * k)] =
              half2_bits(__float22half2_rn(v)) ^ conj_mask;
        }
      }
    } else if constexpr (kQ == 1) {
      __half2 const hgain = __float2half2_rn(gain);
#pragma unroll
      for (int s = 0; s < kElementsPerThread; ++s) {
        fast::TileElement const d = fast::load_task(0, s, threads, kFastIn, log_t);
        tile[task_slot0 ^ fast::slot(sw, d.t, d.n)] =
            half2_bits(__hmul2(*reinterpret_cast<__half2 const*>(&raw[s]), hgain));
      }
    } else {
      // The inverse as conj(forward(conj x)): the butterflies carry no direction (a sign flip
      // of the imaginary half on the way in and out).
      std::uint32_t const conj_mask = inverse ? 0x80000000u : 0u;
#pragma unroll
      for (int s = 0; s < kElementsPerThread / kQ; ++s) {
        fast::TileElement const d = fast::load_task(0, s, threads, kFastIn, log_t);
        int const m = task0.n + d.n;
        int const slot_m = task_slot0 ^ fast::slot(sw, d.t, d.n);
        float2 a[kQ];
        unpack_fp16(raw + s * kQ, conj_mask, a);
        dft_pow2<kLogQ>(a);
        store_twiddled<kLogQ>(a, coarse_twiddle(coarse, m << (kLogCoarse - kLogL), false), gain,
                              conj_mask, tile, sw, slot_m, 0);
      }
    }
    __syncthreads();

    // Step A: per warp task (t, k_q), the 256-point DFT as Y = F X, Y' = Y .* W_256, Z = Y' F.
    {
      float const factor = p.scale * inv_gain;
      int const warps = threads >> 5;
      auto const twiddle_base = static_cast<std::uint32_t>(o.twiddle_base);
      auto const twiddle_stride0 = static_cast<std::uint32_t>(p.twiddle_stride[0]);
      int const log_tw = p.log_twiddle_n;
#pragma unroll 1
      for (int u = 0; u < 2; ++u) {
        int const task = warp + u * warps;
        FastConstants const& kc = sh.k;
        int const t = task >> kLogQ;
        int const kq = task & (kQ - 1);
        // B fragments: real and imaginary halves of x[n1 + 16 n2] and x[n1 + 16 (n2 + 1)].
        int const base = fast::step_a_base(sw, t, kq, group, quad);
        std::uint32_t br[2][2], bi[2][2];
#pragma unroll
        for (int j = 0; j < 2; ++j) {
#pragma unroll
          for (int r = 0; r < 2; ++r) {
            std::uint32_t const lo = tile[fast::step_a_slot(base, j, 0, r)];
            std::uint32_t const hi = tile[fast::step_a_slot(base, j, 1, r)];
            br[j][r] = __byte_perm(lo, hi, 0x5410);
            bi[j][r] = __byte_perm(lo, hi, 0x7632);
          }
        }
        // Y = F X (rows k1, columns n1), F = F_hi + F_lo, X exact in FP16.
        Dft16Fragments f;
        from_uint4(f.re_hi, kc.dft[0][lane]);
        from_uint4(f.re_lo, kc.dft[1][lane]);
        from_uint4(f.im_hi, kc.dft[2][lane]);
        from_uint4(f.im_lo, kc.dft[3][lane]);
        float yr[2][4], yi[2][4];
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          std::uint32_t const nbi0 = negate_halves(bi[j][0]);
          std::uint32_t const nbi1 = negate_halves(bi[j][1]);
          mma_16x8x16_first(yr[j], f.re_lo, br[j][0], br[j][1]);
          mma_16x8x16(yr[j], f.im_lo, nbi0, nbi1);
          mma_16x8x16(yr[j], f.re_hi, br[j][0], br[j][1]);
          mma_16x8x16(yr[j], f.im_hi, nbi0, nbi1);
          mma_16x8x16_first(yi[j], f.re_lo, bi[j][0], bi[j][1]);
          mma_16x8x16(yi[j], f.im_lo, br[j][0], br[j][1]);
          mma_16x8x16(yi[j], f.re_hi, bi[j][0], bi[j][1]);
          mma_16x8x16(yi[j], f.im_hi, br[j][0], br[j][1]);
        }
        // Y' = Y .* W_256^(n1 k1), rounded into the A fragments of Y' (A reg r = n-tile r >> 1,
        // floats 2 (r & 1), 2 (r & 1) + 1).
        std::uint32_t ar[4], ai[4], nai[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          int const j = r >> 1;
          int const i0 = 2 * (r & 1);
          float4 const wv = kc.twiddle[2 * j + (r & 1)][lane];
          float2 const v0 = cmul(make_float2(yr[j][i0], yi[j][i0]), make_float2(wv.x, wv.y));
          float2 const v1 =
              cmul(make_float2(yr[j][i0 + 1], yi[j][i0 + 1]), make_float2(wv.z, wv.w));
          ar[r] = half2_bits(__floats2half2_rn(v0.x, v1.x));
          ai[r] = half2_bits(__floats2half2_rn(v0.y, v1.y));
          nai[r] = negate_halves(ai[r]);
        }
        // Z = Y' F: the B fragments of F for n-tile j are its A registers j and j + 2, kept
        // pairwise in kc.dft_b (x, y: n-tile 0; z, w: n-tile 1).
        uint4 const b_re_hi = kc.dft_b[0][lane], b_re_lo = kc.dft_b[1][lane];
        uint4 const b_im_hi = kc.dft_b[2][lane], b_im_lo = kc.dft_b[3][lane];
        float zr[2][4], zi[2][4];
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          auto const lo = [j](uint4 v) { return j == 0 ? v.x : v.z; };
          auto const hi = [j](uint4 v) { return j == 0 ? v.y : v.w; };
          mma_16x8x16_first(zr[j], ar, lo(b_re_lo), hi(b_re_lo));
          mma_16x8x16(zr[j], nai, lo(b_im_lo), hi(b_im_lo));
          mma_16x8x16(zr[j], ar, lo(b_re_hi), hi(b_re_hi));
          mma_16x8x16(zr[j], nai, lo(b_im_hi), hi(b_im_hi));
          mma_16x8x16_first(zi[j], ar, lo(b_im_lo), hi(b_im_lo));
          mma_16x8x16(zi[j], ai, lo(b_re_lo), hi(b_re_lo));
          mma_16x8x16(zi[j], ar, lo(b_im_hi), hi(b_im_hi));
          mma_16x8x16(zi[j], ai, lo(b_re_hi), hi(b_re_hi));
        }
        std::uint32_t outv[2][4];
        if (log_tw > 0) {
          // Output twiddles: k = k0 + 8 Q a + 16 Q b + 128 Q j for float i of n-tile j (a = i >> 1,
          // b = i & 1), so W^(tw k) = W^(tw k0) W^(tw 8Q)^a W^(tw 16Q)^b W^(tw 128Q)^j; the
          // output factor rides on W^(tw k0).
          std::uint32_t const tw = twiddle_base + static_cast<std::uint32_t>(t) * twiddle_stride0;
          std::uint32_t const k0 = static_cast<std::uint32_t>(kq + kQ * (group + 32 * quad));
          float2 const w0 = cscale(
              pass_twiddle(coarse, fine, pass_twiddle_exponent32(tw, k0, log_tw), inverse), factor);
          float2 const s8 =
              pass_twiddle(coarse, fine, pass_twiddle_exponent32(tw, 8u * kQ, log_tw), inverse);
          float2 const s16 =
              pass_twiddle(coarse, fine, pass_twiddle_exponent32(tw, 16u * kQ, log_tw), inverse);
          float2 const s128 =
              pass_twiddle(coarse, fine, pass_twiddle_exponent32(tw, 128u * kQ, log_tw), inverse);
#pragma unroll
          for (int j = 0; j < 2; ++j) {
            float2 const wj = j == 0 ? w0 : cmul(w0, s128);
            float2 const wa[2] = {wj, cmul(wj, s8)};
#pragma unroll
            for (int i = 0; i < 4; ++i) {
              float2 wi = wa[i >> 1];
              if ((i & 1) != 0) wi = cmul(wi, s16);
              outv[j][i] = half2_bits(__float22half2_rn(cmul(make_float2(zr[j][i], zi[j][i]), wi)));
            }
          }
        } else if (p.store_factors != nullptr) {
          // ExecuteHooks::store_factors (the last pass, which has no twiddles): output
          // k = k0 + Q (8 a + 16 b + 128 j) of float i = 2 a + b of n-tile j times its factor,
          // indexed by its offset in the destination & mask, before the one rounding.
          auto const k0 = static_cast<std::uint32_t>(kq + kQ * (group + 32 * quad));
          auto const se = static_cast<std::uint32_t>(p.out_elem_stride);
          std::uint32_t const at0 =
              static_cast<std::uint32_t>(o.out_base) +
              static_cast<std::uint32_t>(t) * static_cast<std::uint32_t>(p.out_stride[0]) + k0 * se;
          bool const conjugate = p.conjugate_store != 0;
#pragma unroll
          for (int j = 0; j < 2; ++j) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
              std::uint32_t const dk = kQ * (8 * (i >> 1) + 16 * (i & 1) + 128 * j);
              float2 const h =
                  hook_factor(p.store_factors, (at0 + dk * se) & p.factor_mask, conjugate);
              float2 const y = cmul(make_float2(zr[j][i], zi[j][i]), cscale(h, factor));
              outv[j][i] = half2_bits(__float22half2_rn(y));
            }
          }
        } else {
#pragma unroll
          for (int j = 0; j < 2; ++j) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
              outv[j][i] = half2_bits(__floats2half2_rn(zr[j][i] * factor, zi[j][i] * factor));
            }
          }
        }
        __syncwarp();
#pragma unroll
        for (int j = 0; j < 2; ++j) {
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            tile[fast::step_a_slot(base, i >> 1, i & 1, j)] = outv[j][i];
          }
        }
      }
    }
    __syncthreads();

    if constexpr (kReal == kRealOut) {
      // R2C: the split of real_split.hpp on the tile's outputs Z, item (t, j) as
      // fast::r2c_item says: X[j] and X[M - j] from Z[j] and Z[M - j] (item 0: X[0], X[M] and
      // X[M/2]), in FP32, one rounding. The transform's scale rode on step A's factor.
      constexpr int kM = 1 << kLogL;
      constexpr float kMinusPiOverM = -3.14159265358979323846f / static_cast<float>(kM);
      int const stride = fast::r2c_stride(threads, kLogL);
      fast::TileElement const item0 = fast::r2c_item(tid, kLogL);
      bool const j0_nonzero = item0.n != 0;
      int const own0 = fast::output_slot(sw, item0.t, item0.n);
      int const partner0 = fast::output_slot(sw, item0.t, (stride - item0.n) & (stride - 1));
      auto* const out = reinterpret_cast<std::uint32_t*>(dst) + o.out_base;
      int const s0 = static_cast<int>(p.out_stride[0]);
      bool const whole = valid_t == (1 << log_t);
      auto const value = [&](int slot) {
        std::uint32_t const bits = tile[slot];
        return __half22float2(*reinterpret_cast<__half2 const*>(&bits));
      };
#pragma unroll
      for (int i = 0; i < kElementsPerThread / 2; ++i) {
        fast::TileElement const d = fast::r2c_item(i * threads, kLogL);  // a constant when T is
        int const t = item0.t + d.t;
        if (!whole && t >= valid_t) continue;
        int const j = item0.n + d.n;
        float2 const a = value(own0 ^ fast::output_slot(sw, d.t, d.n));
        float2 const b = value(partner0 ^ fast::r2c_partner_term(sw, d, stride, j0_nonzero));
        store_split(out + t * s0, kM, j, a, b, kMinusPiOverM);
      }
    } else if constexpr (kPairs) {
      // R2C over sequence pairs (fast::pair_split): item (s, k) of the tile reads outputs a
      // and b and writes X[n] and X[M - n] of the transform's row of M + 1. The split's scale
      // rode on step A's factor.
      int const log_p = p.pair_log_sequences;
      // -pi / M, exact in its power of two.
      float const minus_pi_over_m = __uint_as_float(static_cast<unsigned>(127 - kLogL - log_p)
                                                    << 23) * -3.14159265358979323846f;
      int const g = static_cast<int>(o.d0 >> log_t);
      auto* const row = reinterpret_cast<std::uint32_t*>(dst) + o.out_base;
      auto const value = [&](int s, int k) {
        std::uint32_t const bits = tile[fast::output_slot(sw, s, k)];
        return __half22float2(*reinterpret_cast<__half2 const*>(&bits));
      };
#pragma unroll
      for (int i = 0; i < kElementsPerThread / 2; ++i) {
        fast::TileElement const it = fast::pair_item(tid + i * threads, log_t - 1);
        fast::PairSplit const q = fast::pair_split(it.t, it.n, g, log_t - 1, kLogL, log_p);
        store_split(row, 1 << (kLogL + log_p), q.n, value(q.sa, q.ka), value(q.sb, q.kb),
                    minus_pi_over_m);
      }
    } else {
      // Store: output k of sequence t from 256 (k mod Q) + k / Q; element i of the thread is
      // tile_element(tid) + tile_element(i * threads) (disjoint bits, the second part a
      // constant when T is), its slot likewise.
      fast::TileElement const out0 = fast::tile_element(tid, kFastOut, log_t, kLogL);
      int const store_slot0 = fast::store_slot(sw, tid, kFastOut, log_t);
#pragma unroll
      for (int i = 0; i < kElementsPerThread; ++i) {
        raw[i] = tile[store_slot0 ^ fast::store_slot(sw, i * threads, kFastOut, log_t)];
      }
      auto* out = reinterpret_cast<std::uint32_t*>(dst) + o.out_base;
      bool const whole = valid_t == (1 << log_t);
      auto store_all = [&](auto elem_stride, auto row_stride) {
        auto* first = out + (out0.t * row_stride + out0.n * elem_stride);
#pragma unroll
        for (int i = 0; i < kElementsPerThread; ++i) {
          fast::TileElement const d = fast::tile_element(i * threads, kFastOut, log_t, kLogL);
          if (whole || out0.t + d.t < valid_t) first[d.t * row_stride + d.n * elem_stride] = raw[i];
        }
      };
      int const s0 = static_cast<int>(p.out_stride[0]);
      int const se = static_cast<int>(p.out_elem_stride);
      if constexpr (kFastOut) {
        store_all(se, std::integral_constant<int, 1>{});  // adjacent columns: stride[0] == 1
      } else if (se == 1) {
        store_all(std::integral_constant<int, 1>{}, s0);
      } else {
        store_all(se, s0);
      }
    }
    if constexpr (!kStaged) break;  // one tile per block
  }  // tiles
}

/// Dynamic shared memory of a tile of T L elements: the tile, and two staging buffers for the
/// 1024-thread tiles.
constexpr std::size_t fast_smem_bytes(int log_elements, bool staged) {
  return (staged ? std::size_t{3 * 4} : std::size_t{4}) << log_elements;
}
constexpr int kFastSmemBytes = static_cast<int>(fast_smem_bytes(fast::kLogBigTile, true));

/// FFTCORE_TC_PERSISTENT=0 in the environment launches the staged kernels with one block per
/// tile (each block then copies and computes one tile, nothing in flight across tiles; for A/B
/// measurements in one build; read once).
bool persistent_grid() {
  static bool const enabled = env_switch_on("FFTCORE_TC_PERSISTENT");
  return enabled;
}

template <int kLogQ, int kLogT, bool kFastIn, bool kFastOut, int kMaxThreads,
          int kReal = kRealNone>
cudaError_t launch_fast(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                        float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  auto const kernel = fast_pass_kernel<kLogQ, kLogT, kFastIn, kFastOut, kMaxThreads, kReal>;
  constexpr bool kStaged = staged_tiles(kMaxThreads, kReal);  // as in the kernel
  std::size_t const smem = fast_smem_bytes(pass.log_length + pass.log_tile, kStaged);
  auto grid = static_cast<unsigned>(pass.blocks);
  if (kStaged && persistent_grid()) {
    // As many blocks as stay resident (per tile size; cached per instantiation), at most one
    // per tile.
    static std::atomic<int> resident_cache[kLogMaxBlockElements + 1] = {};
    cudaError_t const e = resident_grid(kernel, pass.threads, smem, resident_cache[pass.log_tile],
                                        pass.blocks, grid);
    if (e != cudaSuccess) return e;
  }
  return launch_chained(
      kernel, dim3(grid), dim3(static_cast<unsigned>(pass.threads)), smem, stream, pass, src, dst,
      coarse, fine, inverse ? 1 : 0,
      fast::vector_loads(pass) && (reinterpret_cast<std::uintptr_t>(src) & 15u) == 0 ? 1 : 0);
}

/// L = 8192, 16384 (split step C): one sequence per tile, 512 threads (L = 8192) or 1024
/// (staged).
template <int kLogQ>
constexpr bool kSplit = fast::split_step_c(kLogQ + fast::kLogSub);
template <int kLogQ>
constexpr int kSplitThreads = 16 << kLogQ;

/// The planner's usual tiles, T L = 2^12, 2^13 and 2^14 (256, 512, 1024 threads), have their own
/// instantiations with T a constant; other T (T L < 2^13) take the general one.
template <int kLogQ>
constexpr int kLogT13 = fast::kLogMaxTile - fast::kLogSub - kLogQ;
template <int kLogQ>
constexpr int kLogT14 = fast::kLogBigTile - fast::kLogSub - kLogQ;
template <int kLogQ>
constexpr int kLogT12 = fast::kLogMaxTile - 1 - fast::kLogSub - kLogQ;

/// Instantiations with a real transform's split fused in (PassParams::real_out, real_in): the
/// tiles the planner gives a real transform's single row pass (T L = 2^12 with T a constant,
/// smaller T, or one sequence of 8192 or 16384 points).
template <int kLogQ, int kLogT, int kMaxThreads>
constexpr bool kHasReal =
    kSplit<kLogQ> || (kMaxThreads <= 512 && (kLogT == -1 || kLogT == kLogT12<kLogQ>));

/// Instantiations with the C2R split down adjacent columns (PassParams::real_in_columns): L = 256,
/// 512 and 1024 on tiles of T L = 2^12 and 2^13 with T a constant, and smaller T
/// (fast::real_columns_eligible).
template <int kLogQ, int kLogT, int kMaxThreads>
constexpr bool kHasRealColumns = kLogQ <= 2 && kMaxThreads <= 512 &&
                                 (kLogT == -1 || kLogT == kLogT12<kLogQ> ||
                                  kLogT == kLogT13<kLogQ>);

/// Instantiations with the R2C split over sequence pairs (PassParams::real_pairs): the tile of
/// fast::pairs_log_tile at L = 512 and 1024.
template <int kLogQ, int kLogT, int kMaxThreads>
constexpr bool kHasPairs = kLogQ <= 3 && kLogT >= 1 &&
                           kLogT == fast::pairs_log_tile(kLogQ + fast::kLogSub) &&
                           kMaxThreads == (16 << (kLogQ + (kLogT >= 1 ? kLogT : 0)));

template <int kLogQ, int kLogT, int kMaxThreads>
cudaError_t launch_fast_t(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                          float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  int const real = pass.real_out != 0 ? kRealOut : pass.real_in != 0 ? kRealIn : kRealNone;
  if (pass.real_pairs != 0) {
    if constexpr (kHasPairs<kLogQ, kLogT, kMaxThreads>) {
      return launch_fast<kLogQ, kLogT, false, true, kMaxThreads, kRealPairs>(pass, src, dst, coarse,
                                                                            fine, inverse, stream);
    }
    return cudaErrorInvalidValue;  // fast::pairs_log_tile rules these out
  }
  if (pass.real_in_columns != 0) {
    if constexpr (kHasRealColumns<kLogQ, kLogT, kMaxThreads>) {
      return launch_fast<kLogQ, kLogT, true, true, kMaxThreads, kRealInColumns>(
          pass, src, dst, coarse, fine, inverse, stream);
    }
    return cudaErrorInvalidValue;  // fast::real_columns_eligible rules these out
  }
  if constexpr (kSplit<kLogQ>) {
    if (pass.log_tile != 0) return cudaErrorInvalidValue;  // not eligible
    constexpr int kThreads = kSplitThreads<kLogQ>;
    if (real == kRealOut) {
      return launch_fast<kLogQ, 0, false, false, kThreads, kRealOut>(pass, src, dst, coarse, fine,
                                                                     inverse, stream);
    }
    if (real == kRealIn) {
      return launch_fast<kLogQ, 0, false, false, kThreads, kRealIn>(pass, src, dst, coarse, fine,
                                                                    inverse, stream);
    }
    return launch_fast<kLogQ, 0, false, false, kThreads>(pass, src, dst, coarse, fine, inverse,
                                                         stream);
  } else {
    bool const fin = fast::fast_in(pass);
    bool const fout = fast::fast_out(pass);
    if (real != kRealNone) {
      if constexpr (kHasReal<kLogQ, kLogT, kMaxThreads>) {
        if (!fin && !fout && real == kRealOut) {
          return launch_fast<kLogQ, kLogT, false, false, kMaxThreads, kRealOut>(
              pass, src, dst, coarse, fine, inverse, stream);
        }
        if (!fin && !fout && real == kRealIn) {
          return launch_fast<kLogQ, kLogT, false, false, kMaxThreads, kRealIn>(
              pass, src, dst, coarse, fine, inverse, stream);
        }
      }
      return cudaErrorInvalidValue;  // fast::real_row_eligible rules these out
    }
    if (fin && fout) {
      return launch_fast<kLogQ, kLogT, true, true, kMaxThreads>(pass, src, dst, coarse, fine,
                                                                inverse, stream);
    }
    if (fin) {
      return launch_fast<kLogQ, kLogT, true, false, kMaxThreads>(pass, src, dst, coarse, fine,
                                                                 inverse, stream);
    }
    if (fout) {
      return launch_fast<kLogQ, kLogT, false, true, kMaxThreads>(pass, src, dst, coarse, fine,
                                                                 inverse, stream);
    }
    return launch_fast<kLogQ, kLogT, false, false, kMaxThreads>(pass, src, dst, coarse, fine,
                                                                inverse, stream);
  }
}

template <int kLogQ>
cudaError_t launch_fast_q(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                          float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  if constexpr (kSplit<kLogQ>) {
    return launch_fast_t<kLogQ, 0, kSplitThreads<kLogQ>>(pass, src, dst, coarse, fine, inverse,
                                                         stream);
  } else {
    if (pass.log_tile == kLogT14<kLogQ>) {
      return launch_fast_t<kLogQ, kLogT14<kLogQ>, 1024>(pass, src, dst, coarse, fine, inverse,
                                                        stream);
    }
    if (pass.log_tile == kLogT12<kLogQ>) {
      return launch_fast_t<kLogQ, kLogT12<kLogQ>, 256>(pass, src, dst, coarse, fine, inverse,
                                                       stream);
    }
    if (pass.log_tile == kLogT13<kLogQ>) {
      return launch_fast_t<kLogQ, kLogT13<kLogQ>, 512>(pass, src, dst, coarse, fine, inverse,
                                                       stream);
    }
    return launch_fast_t<kLogQ, -1, 512>(pass, src, dst, coarse, fine, inverse, stream);
  }
}

template <int kLogQ, int kLogT, int kMaxThreads>
cudaError_t prepare_fast_t() noexcept {
  cudaError_t e = cudaSuccess;
  auto raise = [&](auto kernel) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kFastSmemBytes);
    }
    if (e == cudaSuccess && kMaxThreads > 512) {  // staged: a tile and two buffers, 198 KiB
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
    }
  };
  if constexpr (!kSplit<kLogQ>) {
    raise(fast_pass_kernel<kLogQ, kLogT, true, true, kMaxThreads, kRealNone>);
    raise(fast_pass_kernel<kLogQ, kLogT, true, false, kMaxThreads, kRealNone>);
    raise(fast_pass_kernel<kLogQ, kLogT, false, true, kMaxThreads, kRealNone>);
  }
  raise(fast_pass_kernel<kLogQ, kLogT, false, false, kMaxThreads, kRealNone>);
  if constexpr (kHasReal<kLogQ, kLogT, kMaxThreads>) {
    raise(fast_pass_kernel<kLogQ, kLogT, false, false, kMaxThreads, kRealOut>);
    raise(fast_pass_kernel<kLogQ, kLogT, false, false, kMaxThreads, kRealIn>);
  }
  if constexpr (kHasPairs<kLogQ, kLogT, kMaxThreads>) {
    raise(fast_pass_kernel<kLogQ, kLogT, false, true, kMaxThreads, kRealPairs>);
  }
  if constexpr (kHasRealColumns<kLogQ, kLogT, kMaxThreads>) {
    raise(fast_pass_kernel<kLogQ, kLogT, true, true, kMaxThreads, kRealInColumns>);
  }
  return e;
}

template <int kLogQ>
cudaError_t prepare_fast_q() noexcept {
  if constexpr (kSplit<kLogQ>) {
    return prepare_fast_t<kLogQ, 0, kSplitThreads<kLogQ>>();
  } else {
    cudaError_t e = prepare_fast_t<kLogQ, kLogT14<kLogQ>, 1024>();
    if (e == cudaSuccess) e = prepare_fast_t<kLogQ, -1, 512>();
    if (e == cudaSuccess) e = prepare_fast_t<kLogQ, kLogT12<kLogQ>, 256>();
    if (e == cudaSuccess) e = prepare_fast_t<kLogQ, kLogT13<kLogQ>, 512>();
    return e;
  }
}

}  // namespace
cudaError_t prepare_fast_pass_kernels() noexcept {
  cudaError_t e = prepare_fast_q<0>();
  if (e == cudaSuccess) e = prepare_fast_q<1>();
  if (e == cudaSuccess) e = prepare_fast_q<2>();
  if (e == cudaSuccess) e = prepare_fast_q<3>();
  if (e == cudaSuccess) e = prepare_fast_q<4>();
  if (e == cudaSuccess) e = prepare_fast_q<5>();
  if (e == cudaSuccess) e = prepare_fast_q<6>();
  return e;
}

cudaError_t launch_fast_pass(PassParams const& pass, void const* src, void* dst,
                             float2 const* coarse, float2 const* fine, bool inverse,
                             cudaStream_t stream) noexcept {
  switch (pass.log_length - fast::kLogSub) {
    case 0:
      return launch_fast_q<0>(pass, src, dst, coarse, fine, inverse, stream);
    case 1:
      return launch_fast_q<1>(pass, src, dst, coarse, fine, inverse, stream);
    case 2:
      return launch_fast_q<2>(pass, src, dst, coarse, fine, inverse, stream);
    case 3:
      return launch_fast_q<3>(pass, src, dst, coarse, fine, inverse, stream);
    case 4:
      return launch_fast_q<4>(pass, src, dst, coarse, fine, inverse, stream);
    case 5:
      return launch_fast_q<5>(pass, src, dst, coarse, fine, inverse, stream);
    case 6:
      return launch_fast_q<6>(pass, src, dst, coarse, fine, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
