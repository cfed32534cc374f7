// SPDX-License-Identifier: MIT
// The column pass: FP16 passes of 32..128 points down adjacent columns (column::eligible), a
// lane per column, L / 16 warps per block, one exchange through shared memory
// (column_pass_layout.hpp has the maps).
#include <cuda_fp16.h>

#include <cstdint>

#include "tc/column_pass_layout.hpp"
#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/real_split.hpp"

namespace fftcore::detail::tc {
namespace {

constexpr int kMaxThreads = 32 << column::log_warps(column::kMaxLogLength);


/// kRealIn: the C2R split in the load (PassParams::real_in_columns).
template <int kLogL, bool kTwiddled, bool kInverse, bool kRealIn>
__global__ void __launch_bounds__(kMaxThreads)
    column_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse,
                       float2 const* fine) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kR1 = 1 << column::kLogR1;
  constexpr int kLogP = column::log_warps(kLogL);
  constexpr int kP = 1 << kLogP;
  constexpr int kLogC = column::log_step2_columns(kLogL);
  constexpr int kC = 1 << kLogC;
  // The inverse as conj(forward(conj x) W^(tw k)) with the forward factors and twiddles.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  extern __shared__ float2 xs[];

  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const w = static_cast<int>(threadIdx.x) >> 5;
  BlockOrigin const o = block_origin(p, blockIdx.x);
  int const valid_t =
      static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << p.log_tile));
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + o.in_base);
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + o.out_base);
  auto const in_e = static_cast<std::uint32_t>(p.in_elem_stride);
  auto const out_e = static_cast<std::uint32_t>(p.out_elem_stride);

  // Step 1's factors scale W_L^(w k1): one table entry and its powers (FP32, <= 15 deep).
  float2 f1[kR1];
  float2 const w1 = __ldg(coarse + (w << (kLogCoarse - kLogL)));
  f1[0] = make_float2(p.scale, 0.f);
#pragma unroll
  for (int k1 = 1; k1 < kR1; ++k1) f1[k1] = cmul(f1[k1 - 1], w1);

  auto const twiddle = [&](std::uint32_t ex) {
    return cmul(__ldg(coarse + (ex >> kLogCoarse)), __ldg(fine + (ex & ((1u << kLogCoarse) - 1u))));
  };
  auto const twiddle_base = static_cast<std::uint32_t>(o.twiddle_base);  // mod 2^32 suffices
  auto const twiddle_stride0 = static_cast<std::uint32_t>(p.twiddle_stride[0]);
  int const k1_first = w << kLogC;  // step 2: this thread's k1 = k1_first + e

  int const rounds = 1 << column::log_rounds(p.log_tile);
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    int const t = (r << column::kLogColumns) + lane;
    bool const ok = t < valid_t;
    std::uint32_t raw[kR1];
    std::uint32_t const* const col =
        in + (static_cast<std::uint32_t>(t) + static_cast<std::uint32_t>(w) * in_e);
    std::uint32_t const step = in_e << kLogP;
#pragma unroll
    for (int n1 = 0; n1 < kR1; ++n1) raw[n1] = ok ? col[static_cast<std::uint32_t>(n1) * step] : 0u;
    float2 a[kR1];
    if constexpr (kRealIn) {
      // Element n = P n1 + w of column c = d0 + t is Z[j] / 4, j = c + D0 n, of X[j] and
      // X[M - j] (real_split.hpp: Z = s + i conj(W_2M^j) d, s = X[j] + conj X[M - j],
      // d = X[j] - conj X[M - j]) in FP32; the mirrors lie D0 P apart downwards.
      // W_2M^j = W_2M^(c + D0 w) W_32^n1 (D0 P / 2M = 1 / 32): one sincospi per round and a
      // constant product per value; the 1/4 rides in them.
      int const d0 = static_cast<int>(o.d0);
      int const inner = static_cast<int>(in_e);
      int const c = d0 + t;
      std::uint32_t const* const mirror =
          in + real_mirror_offset(d0, t, w, inner, kLogL);
      std::uint32_t other[kR1];
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) {
        other[n1] = ok ? mirror[-static_cast<int>(static_cast<std::uint32_t>(n1) * step)] : 0u;
      }
      int const log_m = log2_of_pow2(in_e) + kLogL;
      float2 const w0 =
          cscale(split_twiddle(static_cast<std::uint32_t>(c + inner * w), log_m), 0.25f);
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) {
        float2 const wj = n1 == 0 ? w0 : cmul(w0, w32(n1));
        float2 x = unpack_word(raw[n1]);
        float2 y = unpack_word(other[n1]);
        if (n1 == 0 && c == 0 && w == 0) {  // X[0] and X[M]: their imaginary parts ignored
          x.y = 0.0f;
          y.y = 0.0f;
        }
        float2 const z = split_inverse_quarter(x, y, wj);
        a[n1] = make_float2(z.x, kInverse ? -z.y : z.y);
      }
    } else {
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) a[n1] = unpack_word(raw[n1] ^ conj);
    }
    dft_pow2<column::kLogR1>(a);  // a[bit_reverse(k1)] = sum_n1 W_16^(n1 k1) x[P n1 + w]
#pragma unroll
    for (int k1 = 0; k1 < kR1; ++k1) {
      xs[column::exchange_slot(k1, w, lane, kLogL)] =
          cmul(a[bit_reverse<column::kLogR1>(k1)], f1[k1]);
    }
    __syncthreads();
    float2 b[kC][kP];
#pragma unroll
    for (int e = 0; e < kC; ++e) {
#pragma unroll
      for (int q = 0; q < kP; ++q)
        b[e][q] = xs[column::exchange_slot(k1_first + e, q, lane, kLogL)];
    }
    __syncthreads();  // the next round's step 1 overwrites the exchange
    if (!ok) continue;
#pragma unroll
    for (int e = 0; e < kC; ++e) dft_pow2<kLogP>(b[e]);  // b[e][bit_reverse(k2)]
    std::uint32_t* const dst_col = out + static_cast<std::uint32_t>(t);
    if constexpr (kTwiddled) {
      // Output k = k1 + 16 k2 times W^(tw k): u = W^(tw k1_first) and g = W^tw from the
      // tables, v = W^(16 tw); the rest by FP32 products (<= 15 deep).
      std::uint32_t const tw = twiddle_base + static_cast<std::uint32_t>(t) * twiddle_stride0;
      float2 const g = twiddle(pass_twiddle_exponent32(tw, 1u, p.log_twiddle_n));
      float2 const v = twiddle(pass_twiddle_exponent32(tw, kR1, p.log_twiddle_n));
      float2 u = twiddle(pass_twiddle_exponent32(tw, static_cast<std::uint32_t>(k1_first),
                                                 p.log_twiddle_n));
#pragma unroll
      for (int e = 0; e < kC; ++e) {
        if (e > 0) u = cmul(u, g);
        float2 f = u;
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) {
          if (k2 > 0) f = cmul(f, v);
          auto const k = static_cast<std::uint32_t>(k1_first + e + (k2 << column::kLogR1));
          dst_col[k * out_e] = pack_word(cmul(b[e][bit_reverse<kLogP>(k2)], f)) ^ conj;
        }
      }
    } else {
#pragma unroll
      for (int e = 0; e < kC; ++e) {
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) {
          auto const k = static_cast<std::uint32_t>(k1_first + e + (k2 << column::kLogR1));
          dst_col[k * out_e] = pack_word(b[e][bit_reverse<kLogP>(k2)]) ^ conj;
        }
      }
    }
  }
}

template <int kLogL, bool kTwiddled, bool kInverse, bool kRealIn = false>
cudaError_t prepare_one() noexcept {
  int const bytes = column::exchange_slots(kLogL) * static_cast<int>(sizeof(float2));
  return cudaFuncSetAttribute(column_pass_kernel<kLogL, kTwiddled, kInverse, kRealIn>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

template <int kLogL>
cudaError_t prepare_length() noexcept {
  cudaError_t e = prepare_one<kLogL, false, false>();
  if (e == cudaSuccess) e = prepare_one<kLogL, false, true>();
  if (e == cudaSuccess) e = prepare_one<kLogL, true, false>();
  if (e == cudaSuccess) e = prepare_one<kLogL, true, true>();
  if (e == cudaSuccess) e = prepare_one<kLogL, true, true, true>();  // C2R: inverse, twiddled
  return e;
}

template <int kLogL, bool kTwiddled>
cudaError_t launch_twiddled(PassParams const& pass, void const* src, void* dst,
                            float2 const* coarse, float2 const* fine, bool inverse,
                            cudaStream_t stream) noexcept {
  dim3 const grid(static_cast<unsigned>(pass.blocks));
  dim3 const block(32u << column::log_warps(kLogL));
  std::size_t const smem = static_cast<std::size_t>(column::exchange_slots(kLogL)) * sizeof(float2);
  if (pass.real_in_columns != 0) {
    // The C2R split: the first pass of a C2R row FFT (inverse, twiddled) only.
    if constexpr (kTwiddled) {
      if (inverse) {
        return launch_chained(column_pass_kernel<kLogL, true, true, true>, grid, block, smem,
                              stream, pass, src, dst, coarse, fine);
      }
    }
    return cudaErrorInvalidValue;
  }
  if (inverse) {
    return launch_chained(column_pass_kernel<kLogL, kTwiddled, true, false>, grid, block, smem,
                          stream, pass, src, dst, coarse, fine);
  }
  return launch_chained(column_pass_kernel<kLogL, kTwiddled, false, false>, grid, block, smem,
                        stream, pass, src, dst, coarse, fine);
}

template <int kLogL>
cudaError_t launch_length(PassParams const& pass, void const* src, void* dst,
                          float2 const* coarse, float2 const* fine, bool inverse,
                          cudaStream_t stream) noexcept {
  if (pass.log_twiddle_n > 0) {
    return launch_twiddled<kLogL, true>(pass, src, dst, coarse, fine, inverse, stream);
  }
  return launch_twiddled<kLogL, false>(pass, src, dst, coarse, fine, inverse, stream);
}

}  // namespace

cudaError_t prepare_column_pass_kernels() noexcept {
  cudaError_t e = prepare_length<5>();
  if (e == cudaSuccess) e = prepare_length<6>();
  if (e == cudaSuccess) e = prepare_length<7>();
  return e;
}

/// FFTCORE_TC_COLUMN_PASS=0 in the environment sends these passes to the other kernels (for
/// A/B measurements in one build; read once).
bool runs_column_pass(PassParams const& pass) noexcept {
  static bool const enabled = env_switch_on("FFTCORE_TC_COLUMN_PASS");
  return enabled && column::eligible(pass);
}

cudaError_t launch_column_pass(PassParams const& pass, void const* src, void* dst,
                               float2 const* coarse, float2 const* fine, bool inverse,
                               cudaStream_t stream) noexcept {
  switch (pass.log_length) {
    case 5:
      return launch_length<5>(pass, src, dst, coarse, fine, inverse, stream);
    case 6:
      return launch_length<6>(pass, src, dst, coarse, fine, inverse, stream);
    case 7:
      return launch_length<7>(pass, src, dst, coarse, fine, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
