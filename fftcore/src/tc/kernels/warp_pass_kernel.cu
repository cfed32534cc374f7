// SPDX-License-Identifier: MIT
// The warp pass: untwiddled FP16 passes of 32..256 points over contiguous sequences
// (warp_pass::eligible), each sequence on 4..16 lanes of a warp in FP32 registers, exchanged once
// through that warp's shared memory (warp_pass_layout.hpp has the maps and the reason).
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/warp_pass_layout.hpp"

namespace fftcore::detail::tc {
namespace {

template <int kLogL, bool kVectorStores, bool kInverse>
__global__ void __launch_bounds__(1 << warp_pass::kLogMaxThreads)
    warp_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogR1 = warp_pass::log_r1(kLogL);
  constexpr int kR1 = 1 << kLogR1;
  constexpr int kLogS = warp_pass::log_group_sequences(kLogL);
  constexpr int kS = 1 << kLogS;
  constexpr int kLogP = warp_pass::log_lanes(kLogL);
  constexpr int kLanes = 1 << kLogP;
  constexpr int kLogC = warp_pass::log_columns(kLogL);
  constexpr int kC = 1 << kLogC;
  extern __shared__ float2 exchange[];  // kWarpSlots per warp (one-warp blocks are common)

  int const log_threads = warp_pass::log_threads(p.log_tile, kLogL);
  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid & (kLanes - 1);  // p in step 1, q in step 2
  int const group = tid >> kLogP;
  float2* const xs = exchange + (tid >> 5) * warp_pass::kWarpSlots;
  int const g = group & (32 / kLanes - 1);
  BlockOrigin const o = block_origin(p, blockIdx.x);
  int const valid_t =
      static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << p.log_tile));
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + o.in_base);
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + o.out_base);
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact (a template
  // parameter: the forward pass spends no instruction on them).
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;

  // Step 1's factors scale W_L^(p k1), once per thread: one table entry W_L^p and its powers
  // by FP32 products (at most 15 deep: a few 2^-24 relative, far below the FP16 output
  // rounding). One load per factor, as first written, put R1 scattered 8-byte loads per thread
  // on the L1 (lanes up to 16 cache lines apart): ncu showed the L1 at 96 % of its throughput
  // and the DRAM at 26 % for L = 256.
  float2 tw[kR1];
  float2 const w1 = __ldg(coarse + (lane << (kLogCoarse - kLogL)));
  tw[0] = make_float2(p.scale, 0.f);
#pragma unroll
  for (int k1 = 1; k1 < kR1; ++k1) tw[k1] = cmul(tw[k1 - 1], w1);
  // Step 2: this lane's columns d = C lane + e are (s2, k1 + e) of the group.
  int const s2 = (lane << kLogC) >> kLogR1;
  int const k1_2 = (lane << kLogC) & (kR1 - 1);

  auto const round = [&](int r, auto whole) {
    std::uint32_t raw[kS][kR1];
#pragma unroll
    for (int s = 0; s < kS; ++s) {
      int const t = warp_pass::tile_sequence(r, group, s, log_threads, kLogL);
      bool const ok = whole || t < valid_t;
      // The sequence's base once (32-bit offset, one wide multiply-add), the points at constant
      // offsets from it: each load then takes no address arithmetic of its own.
      std::uint32_t const* const seq =
          in + (static_cast<std::uint32_t>(t) * in_s0 + static_cast<std::uint32_t>(lane));
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) raw[s][n1] = ok ? seq[n1 << kLogP] : 0u;
    }
#pragma unroll
    for (int s = 0; s < kS; ++s) {
      float2 a[kR1];
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) a[n1] = unpack_word(raw[s][n1] ^ conj);
      dft_pow2<kLogR1>(a);  // a[bit_reverse(k1)] = sum_n1 W_R1^(n1 k1) x[8 n1 + p]
#pragma unroll
      for (int k1 = 0; k1 < kR1; ++k1) {
        xs[warp_pass::exchange_slot(g, s * kR1 + k1, lane, kLogL)] =
            cmul(a[bit_reverse<kLogR1>(k1)], tw[k1]);
      }
    }
    __syncwarp();
    float2 b[kC][kLanes];
#pragma unroll
    for (int e = 0; e < kC; ++e) {
#pragma unroll
      for (int q = 0; q < kLanes; ++q) {
        b[e][q] = xs[warp_pass::exchange_slot(g, (lane << kLogC) + e, q, kLogL)];
      }
    }
    __syncwarp();  // the next round's step 1 overwrites these slots
    int const t = warp_pass::tile_sequence(r, group, s2, log_threads, kLogL);
    if (!whole && t >= valid_t) return;
    std::uint32_t* const seq =
        out + (static_cast<std::uint32_t>(t) * out_s0 + static_cast<std::uint32_t>(k1_2));
#pragma unroll
    for (int e = 0; e < kC; ++e) dft_pow2<kLogP>(b[e]);  // b[e][bit_reverse(k2)]
#pragma unroll
    for (int k2 = 0; k2 < kLanes; ++k2) {
      std::uint32_t w[kC];
#pragma unroll
      for (int e = 0; e < kC; ++e) w[e] = pack_word(b[e][bit_reverse<kLogP>(k2)]) ^ conj;
      std::uint32_t* const at = seq + (k2 << kLogR1);
      if constexpr (kVectorStores && kC == 2) {
        *reinterpret_cast<uint2*>(at) = make_uint2(w[0], w[1]);
      } else if constexpr (kVectorStores && kC == 4) {
        *reinterpret_cast<uint4*>(at) = make_uint4(w[0], w[1], w[2], w[3]);
      } else {
#pragma unroll
        for (int e = 0; e < kC; ++e) at[e] = w[e];
      }
    }
  };
  int const rounds = 1 << warp_pass::log_rounds(p.log_tile, kLogL);
  int const round_sequences = 1 << (log_threads - kLogP + kLogS);
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    if ((r + 1) * round_sequences <= valid_t) {
      round(r, std::true_type{});
    } else {
      round(r, std::false_type{});
    }
  }
}

template <int kLogL, bool kVectorStores>
cudaError_t launch_direction(dim3 grid, dim3 block, std::size_t smem, PassParams const& pass,
                             void const* src, void* dst, float2 const* coarse, bool inverse,
                             cudaStream_t stream) noexcept {
  if (inverse) {
    return launch_chained(warp_pass_kernel<kLogL, kVectorStores, true>, grid, block, smem, stream,
                         pass, src, dst, coarse);
  }
  return launch_chained(warp_pass_kernel<kLogL, kVectorStores, false>, grid, block, smem, stream,
                         pass, src, dst, coarse);
}

template <int kLogL>
cudaError_t launch_length(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                          bool inverse, cudaStream_t stream) noexcept {
  dim3 const grid(static_cast<unsigned>(pass.blocks));
  unsigned const threads =
      1u << static_cast<unsigned>(warp_pass::log_threads(pass.log_tile, kLogL));
  dim3 const block(threads);
  std::size_t const smem = threads / 32 * warp_pass::kWarpSlots * sizeof(float2);
  // Vector stores need each lane's C outputs on a 4 C-byte boundary: output offsets that are
  // multiples of C (the layout) and a destination aligned to that (the API asks for 4 bytes).
  constexpr std::uintptr_t kBytes = std::uintptr_t{4} << warp_pass::log_columns(kLogL);
  if (warp_pass::aligned_outputs(pass) && reinterpret_cast<std::uintptr_t>(dst) % kBytes == 0) {
    return launch_direction<kLogL, true>(grid, block, smem, pass, src, dst, coarse, inverse,
                                         stream);
  }
  return launch_direction<kLogL, false>(grid, block, smem, pass, src, dst, coarse, inverse, stream);
}

}  // namespace

/// FFTCORE_TC_WARP_PASS=0 in the environment sends these passes to the general kernel (for A/B
/// measurements in one build; read once).
bool runs_warp_pass(PassParams const& pass) noexcept {
  static bool const enabled = env_switch_on("FFTCORE_TC_WARP_PASS");
  return enabled && warp_pass::eligible(pass);
}

cudaError_t launch_warp_pass(PassParams const& pass, void const* src, void* dst,
                             float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  switch (pass.log_length) {
    case 5:
      return launch_length<5>(pass, src, dst, coarse, inverse, stream);
    case 6:
      return launch_length<6>(pass, src, dst, coarse, inverse, stream);
    case 7:
      return launch_length<7>(pass, src, dst, coarse, inverse, stream);
    case 8:
      return launch_length<8>(pass, src, dst, coarse, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
