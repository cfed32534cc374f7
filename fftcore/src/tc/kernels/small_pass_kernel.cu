// SPDX-License-Identifier: MIT
// The short pass: passes of L = 2 .. 16 points with FP16 data and no hooks (small::eligible),
// one sequence per thread in FP32 registers, straight from global memory and back
// (small_pass_layout.hpp says why). Such a pass moves 8 L bytes per sequence for a handful of
// flops, so everything here serves the memory system: a thread's loads of a round come first
// (raw FP16 words, up to 32 in flight), its arithmetic after, and it rounds once.
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/small_pass_layout.hpp"

namespace fftcore::detail::tc {
namespace {

/// The L words of the sequence at tile offset `at` (element stride `elem`), or zeros. The
/// offsets are 32-bit (unsigned: the padding sequences of a round may wrap them, harmlessly,
/// as they are never dereferenced), the block base 64-bit. kVector: the words are adjacent and
/// 8- or 16-byte aligned (small::contiguous), so one lane takes them in one or two vector
/// accesses and a warp's access covers 32 L adjacent words, not 32 words L apart.
template <int kL, bool kVector>
__device__ __forceinline__ void load_sequence(std::uint32_t (&w)[kL], std::uint32_t const* base,
                                              std::uint32_t at, std::uint32_t elem, bool ok) {
  if constexpr (kVector && kL == 2) {
    uint2 const v = ok ? *reinterpret_cast<uint2 const*>(base + at) : make_uint2(0u, 0u);
    w[0] = v.x;
    w[1] = v.y;
  } else if constexpr (kVector) {
#pragma unroll
    for (int q = 0; q < kL / 4; ++q) {
      uint4 const v =
          ok ? reinterpret_cast<uint4 const*>(base + at)[q] : make_uint4(0u, 0u, 0u, 0u);
      w[4 * q] = v.x;
      w[4 * q + 1] = v.y;
      w[4 * q + 2] = v.z;
      w[4 * q + 3] = v.w;
    }
  } else {
#pragma unroll
    for (int n = 0; n < kL; ++n) w[n] = ok ? base[at + n * elem] : 0u;
  }
}

template <int kL, bool kVector>
__device__ __forceinline__ void store_sequence(std::uint32_t* base, std::uint32_t at,
                                               std::uint32_t elem, std::uint32_t const (&w)[kL]) {
  if constexpr (kVector && kL == 2) {
    *reinterpret_cast<uint2*>(base + at) = make_uint2(w[0], w[1]);
  } else if constexpr (kVector) {
#pragma unroll
    for (int q = 0; q < kL / 4; ++q) {
      reinterpret_cast<uint4*>(base + at)[q] =
          make_uint4(w[4 * q], w[4 * q + 1], w[4 * q + 2], w[4 * q + 3]);
    }
  } else {
#pragma unroll
    for (int n = 0; n < kL; ++n) base[at + n * elem] = w[n];
  }
}

/// How a thread reaches its sequences' words: one at a time (strided), in 8- or 16-byte vector
/// accesses of its own sequence (small::contiguous), or staged through shared memory by the
/// warp (small::packed).
enum Access : int { kStrided = 0, kVector = 1, kPacked = 2 };

/// kTwiddled: the pass has twiddles (log_twiddle_n > 0); untwiddled passes skip their table
/// lookups and the products by 1.
template <int kLogL, int kAccess, bool kTwiddled>
__global__ void __launch_bounds__(1 << small::kLogMaxThreads)
    small_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse,
                      float2 const* fine, int inverse_flag) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kL = 1 << kLogL;
  constexpr bool kVectorWords = kAccess == kVector;
  constexpr int kRound = 1 << small::log_round_sequences(kLogL);
  int const log_threads = small::log_threads(p.log_tile);
  int const tid = static_cast<int>(threadIdx.x);
  BlockOrigin const o = block_origin(p, blockIdx.x);
  // Within a tile, t * stride[0] + n * elem_stride fits in 32 bits for every plan
  // (tc_plan_logic_test: InTileOffsetsFitIn32Bits); only the block bases are 64-bit.
  int const valid_t =
      static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << p.log_tile));
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + o.in_base);
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + o.out_base);
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const in_se = static_cast<std::uint32_t>(p.in_elem_stride);
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  auto const out_se = static_cast<std::uint32_t>(p.out_elem_stride);
  // The inverse as conj(forward(conj x) W^(tw k)) with the forward twiddles: two sign flips of
  // FP16 bits, exact, and the butterflies and twiddles carry no direction.
  std::uint32_t const conj = inverse_flag != 0 ? kConjugate : 0u;
  auto const twiddle_base = static_cast<std::uint32_t>(o.twiddle_base);  // mod 2^32 suffices
  auto const twiddle_stride0 = static_cast<std::uint32_t>(p.twiddle_stride[0]);
  int const per_thread = 1 << (p.log_tile - log_threads);
  auto const tw_at = [&](int t) {  // the exponent of W^tw(t) as a multiple of 2 pi / 2^28
    return pass_twiddle_exponent32(twiddle_base + static_cast<std::uint32_t>(t) * twiddle_stride0,
                                   1u, p.log_twiddle_n);
  };
  auto const twiddle = [&](std::uint32_t ex) {
    return cmul(__ldg(coarse + (ex >> kLogCoarse)), __ldg(fine + (ex & ((1u << kLogCoarse) - 1u))));
  };
  float2 const step =
      kTwiddled
          ? twiddle(pass_twiddle_exponent32(twiddle_stride0 << log_threads, 1u, p.log_twiddle_n))
          : make_float2(1.f, 0.f);
  // kPacked: the warp's staging buffer (small::packed_slot), kRound x 32 sequences.
  constexpr int kStageParts = kAccess == kPacked ? kRound * 32 * kL / 4 : 1;
  __shared__ uint4 stage_all[(1 << small::kLogMaxThreads) / 32][kStageParts];
  uint4* const stage = stage_all[tid >> 5];
  int const lane = tid & 31;

  // One round: every load first (raw FP16 bits), the arithmetic after. `whole`: every
  // sequence of the round exists (the planner's full tiles), so nothing is predicated; else
  // sequences past valid_t (a partial tile, or the padding of a round larger than the
  // thread's share) read and write nothing.
  auto const round = [&](int j0, auto whole) {
    // W^(tw k) = w1^k with w1 = W^tw; tw steps by threads * stride[0] from one sequence of the
    // thread to the next, so w1 = W^tw(t0) step^j: one table product per round and thread
    // rather than one per sequence (each a scattered 8-byte load pair), and two registers
    // instead of a float2 per sequence. FP32 products, at most 16 deep, stay within a few
    // 2^-24 (relative), far below the FP16 output rounding. Looked up without a branch
    // (untwiddled passes read coarse[0] fine[0] = 1, exact), which would split the round's
    // loads: the compiler hoisted arithmetic on the first loads above it, so that the loads
    // after it waited for those.
    float2 w1 = kTwiddled ? twiddle(tw_at(small::tile_sequence(tid, j0, log_threads)))
                          : make_float2(1.f, 0.f);
    std::uint32_t raw[kRound][kL];
    if constexpr (kAccess == kPacked) {
      // The warp's sequences t0 .. t0 + 31 of each j lie back to back: load them in 512-byte
      // steps (lane c takes part c mod (L/4) of sequence c / (L/4)), stage them, and each
      // lane reads its own sequence back.
      uint4 v[kRound][kL / 4];
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
        int const t0 = small::tile_sequence(tid - lane, j0 + j, log_threads);
        auto const* from =
            reinterpret_cast<uint4 const*>(in + static_cast<std::uint32_t>(t0) * in_s0);
#pragma unroll
        for (int q = 0; q < kL / 4; ++q) {
          int const c = 32 * q + lane;
          bool const ok = whole || t0 + (c >> (kLogL - 2)) < valid_t;
          v[j][q] = ok ? from[c] : make_uint4(0u, 0u, 0u, 0u);
        }
      }
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
#pragma unroll
        for (int q = 0; q < kL / 4; ++q) {
          int const c = 32 * q + lane;
          stage[j * 8 * kL + small::packed_slot(c >> (kLogL - 2), c & (kL / 4 - 1), kLogL)] =
              v[j][q];
        }
      }
      __syncwarp();
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
#pragma unroll
        for (int part = 0; part < kL / 4; ++part) {
          uint4 const w = stage[j * 8 * kL + small::packed_slot(lane, part, kLogL)];
          raw[j][4 * part] = w.x;
          raw[j][4 * part + 1] = w.y;
          raw[j][4 * part + 2] = w.z;
          raw[j][4 * part + 3] = w.w;
        }
      }
    } else {
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
        int const t = small::tile_sequence(tid, j0 + j, log_threads);
        load_sequence<kL, kVectorWords>(raw[j], in, static_cast<std::uint32_t>(t) * in_s0, in_se,
                                        whole || t < valid_t);
      }
    }
#pragma unroll
    for (int j = 0; j < kRound; ++j) {
      int const t = small::tile_sequence(tid, j0 + j, log_threads);
      if (kTwiddled && j > 0) w1 = cmul(w1, step);
      // Staged, every lane takes part in the warp's stores (its sequence past the tile's end
      // holds zeros and is not written).
      if (kAccess != kPacked && !whole && t >= valid_t) continue;
      float2 a[kL];
#pragma unroll
      for (int n = 0; n < kL; ++n) a[n] = unpack_word(raw[j][n] ^ conj);
      // a[bit_reverse(k)] = X[k]
      if constexpr (kLogL == 4) {
        dft_pow2<4>(a);  // W_16 butterflies
      } else {
        dft_small<kLogL>(a, false);
      }
      // Output k times scale w1^k (k = 0 apart: a product by (scale, 0) would cost a full
      // complex product, as 0 * x is not folded in IEEE arithmetic).
      raw[j][0] = pack_word(cscale(a[0], p.scale)) ^ conj;
      float2 f = cscale(w1, p.scale);
#pragma unroll
      for (int k = 1; k < kL; ++k) {
        if constexpr (kTwiddled) {
          if (k > 1) f = cmul(f, w1);
          raw[j][k] = pack_word(cmul(a[bit_reverse<kLogL>(k)], f)) ^ conj;
        } else {
          raw[j][k] = pack_word(cscale(a[bit_reverse<kLogL>(k)], p.scale)) ^ conj;
        }
      }
      if constexpr (kAccess != kPacked) {
        store_sequence<kL, kVectorWords>(out, static_cast<std::uint32_t>(t) * out_s0, out_se,
                                         raw[j]);
      }
    }
    if constexpr (kAccess == kPacked) {
      // Each lane writes its sequence into the slots it read (no other lane's), then the warp
      // stores 512 adjacent bytes per step; the barrier after keeps the next round's staging
      // behind these reads.
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
#pragma unroll
        for (int part = 0; part < kL / 4; ++part) {
          stage[j * 8 * kL + small::packed_slot(lane, part, kLogL)] = make_uint4(
              raw[j][4 * part], raw[j][4 * part + 1], raw[j][4 * part + 2], raw[j][4 * part + 3]);
        }
      }
      __syncwarp();
#pragma unroll
      for (int j = 0; j < kRound; ++j) {
        int const t0 = small::tile_sequence(tid - lane, j0 + j, log_threads);
        auto* to = reinterpret_cast<uint4*>(out + static_cast<std::uint32_t>(t0) * out_s0);
#pragma unroll
        for (int q = 0; q < kL / 4; ++q) {
          int const c = 32 * q + lane;
          if (whole || t0 + (c >> (kLogL - 2)) < valid_t) {
            to[c] =
                stage[j * 8 * kL + small::packed_slot(c >> (kLogL - 2), c & (kL / 4 - 1), kLogL)];
          }
        }
      }
      __syncwarp();
    }
  };
#pragma unroll 1
  for (int j0 = 0; j0 < per_thread; j0 += kRound) {
    if ((j0 + kRound) << log_threads <= valid_t) {
      round(j0, std::true_type{});
    } else {
      round(j0, std::false_type{});
    }
  }
}

template <int kLogL, int kAccess>
cudaError_t launch_small(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                         float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  auto const kernel = pass.log_twiddle_n > 0 ? small_pass_kernel<kLogL, kAccess, true>
                                             : small_pass_kernel<kLogL, kAccess, false>;
  return launch_chained(kernel, dim3(static_cast<unsigned>(pass.blocks)),
                       dim3(1u << static_cast<unsigned>(small::log_threads(pass.log_tile))), 0,
                       stream, pass, src, dst, coarse, fine, inverse ? 1 : 0);
}

template <int kLogL>
cudaError_t launch_small_length(PassParams const& pass, void const* src, void* dst,
                                float2 const* coarse, float2 const* fine, bool inverse,
                                cudaStream_t stream) noexcept {
  // Vector accesses need every sequence to start on an 8-byte (L = 2) or 16-byte boundary:
  // the layout gives offsets that are multiples of L, the pointers must do the rest (the API
  // only asks for 4-byte alignment).
  auto const bytes = static_cast<std::uintptr_t>(kLogL == 1 ? 8 : 16);
  bool const aligned = reinterpret_cast<std::uintptr_t>(src) % bytes == 0 &&
                       reinterpret_cast<std::uintptr_t>(dst) % bytes == 0;
  if constexpr (kLogL >= 3) {
    if (aligned && small::packed(pass)) {
      return launch_small<kLogL, kPacked>(pass, src, dst, coarse, fine, inverse, stream);
    }
  }
  if (aligned && small::contiguous(pass)) {
    return launch_small<kLogL, kVector>(pass, src, dst, coarse, fine, inverse, stream);
  }
  return launch_small<kLogL, kStrided>(pass, src, dst, coarse, fine, inverse, stream);
}

}  // namespace

/// FFTCORE_TC_SMALL_PASS=0 in the environment sends these passes to the general kernel (for
/// A/B measurements in one build; read once).
bool runs_small_pass(PassParams const& pass) noexcept {
  static bool const enabled = env_switch_on("FFTCORE_TC_SMALL_PASS");
  return enabled && small::eligible(pass);
}

cudaError_t launch_small_pass(PassParams const& pass, void const* src, void* dst,
                              float2 const* coarse, float2 const* fine, bool inverse,
                              cudaStream_t stream) noexcept {
  switch (pass.log_length) {
    case 1:
      return launch_small_length<1>(pass, src, dst, coarse, fine, inverse, stream);
    case 2:
      return launch_small_length<2>(pass, src, dst, coarse, fine, inverse, stream);
    case 3:
      return launch_small_length<3>(pass, src, dst, coarse, fine, inverse, stream);
    case 4:
      return launch_small_length<4>(pass, src, dst, coarse, fine, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
