// SPDX-License-Identifier: MIT
// The mirror pass backwards: the first pass of the 1-D C2R of 2^17..2^20 reals. It reads the
// half spectrum in natural order over two mirrored groups of 32 sequences a block, takes the
// C2R split of each pair X[k], X[M - k] once, the 128-point inverse DFTs of the sequences and
// the pass twiddles W_M^(-n k_lo), and writes Y[k_lo][n] as rows of 128 words
// (mirror_pass_layout.hpp has the maps; the R2C's pass is kernels/mirror_pass_kernel.cu).
#include <cuda_fp16.h>

#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/mirror_steps.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/mirror_pass_layout.hpp"
#include "tc/real_split.hpp"

namespace fftcore::detail::tc {
namespace {

namespace mp = mirror_pass;

/// W_M^(-x) for 0 <= x < M = 2^log_m <= 2^19: exp(2 pi i x / M) from an exact sincospi argument.
__device__ __forceinline__ float2 inverse_twiddle(std::uint32_t x, int log_m) {
  return cconj(split_twiddle(2u * x, log_m));
}

/// The inverse of the mirror pass, data flow reversed: thread (w, t) loads the pairs of its
/// slots r = w + 8 i (mirror_pass::pair_slot) and splits each once, so that it holds Z of
/// group A's sequence at rows w + 8 i and of group B's at rows (7 - w) + 8 i': exactly step 1's
/// inputs of role p = w for group A and p = 7 - w for group B, in registers. Group 0's lane 0
/// (sequences 0 and D0 / 2, whose pairs lie within one sequence) loads both halves of each of
/// its own rows and computes its Z alone. Then per group: step 1 (16-point DFTs, factors
/// W_128^(p k1), to the exchange), step 2 (8-point DFTs of k1 = 2 w, 2 w + 1), the pass twiddle,
/// FP16 to the staging rows; last, the 64 rows to Y, a warp writing 32 adjacent words.
template <int kLogD0>
__global__ void __launch_bounds__(mp::kThreads, 2)
    mirror_c2r_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogM = kLogD0 + mp::kLogLength;
  constexpr std::uint32_t kM = 1u << kLogM;
  constexpr std::uint32_t kD0 = 1u << kLogD0;
  constexpr int kR1 = 1 << mp::kLogR1;
  constexpr int kP = mp::kWarps;
  constexpr int kC = 1 << mp::kLogStep2Columns;
  constexpr int kLogGroups = mp::log_groups(kLogD0);
  extern __shared__ float2 smem[];
  auto* const staging = reinterpret_cast<std::uint32_t*>(smem);
  float2* const exchange = reinterpret_cast<float2*>(staging + mp::kStagingWords);

  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const w = static_cast<int>(threadIdx.x) >> 5;
  int const g = static_cast<int>(blockIdx.x) & ((1 << kLogGroups) - 1);
  auto const transform = static_cast<std::int64_t>(blockIdx.x >> kLogGroups);
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + transform * (kM + 1));
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + transform * kM);
  int const t = lane;
  float const f = p.scale;
  bool const special = g == 0 && t == 0;

  // za[n1]: Z of group A's sequence at row 8 n1 + w; zb[n1]: group B's at row 8 n1 + 7 - w.
  float2 za[kR1];
  float2 zb[kR1];
  if (!special) {
    auto const seq_a = static_cast<std::uint32_t>((g << mp::kLogGroup) + t);
    // W^k = W^(A_t) W_256^w W_32^i for k = A_t + D0 (w + 8 i) (real_split.hpp's W^k).
    float2 wk = cmul(split_twiddle(seq_a, kLogM),
                     __ldg(coarse + (w << (kLogCoarse - mp::kLogLength - 1))));
    float2 const step = __ldg(coarse + (1 << (kLogCoarse - 5)));
    std::uint32_t const* const xa = in + seq_a + (static_cast<std::uint32_t>(w) << kLogD0);
    std::uint32_t const* const xb = in + (kM - seq_a) - (static_cast<std::uint32_t>(w) << kLogD0);
    std::uint32_t ra[kR1], rb[kR1];
#pragma unroll
    for (int i = 0; i < kR1; ++i) {
      ra[i] = xa[static_cast<std::uint32_t>(i * kP) * kD0];
      rb[i] = xb[-static_cast<int>(static_cast<std::uint32_t>(i * kP) * kD0)];
    }
#pragma unroll
    for (int i = 0; i < kR1; ++i) {
      split_inverse_pair(unpack_word(ra[i]), unpack_word(rb[i]), wk, f, za[i], zb[kR1 - 1 - i]);
      wk = cmul(wk, step);
    }
  } else {
    // Sequence 0 (group A): Z[D0 r] from X[D0 r] and X[M - D0 r] (r = 0: X[0], X[M]; r = 64:
    // X[M / 2] alone); sequence D0 / 2 (group B): Z[k], k = D0 / 2 + D0 r', from X[k] and
    // X[M - k] = X[D0 / 2 + D0 (127 - r')].
    float2 const w_mid = split_twiddle(kD0 / 2, kLogM);
#pragma unroll  // za, zb stay in registers: constant indices
    for (int i = 0; i < kR1; ++i) {
      std::uint32_t const r = static_cast<std::uint32_t>(w + i * kP);
      float2 const a = unpack_word(in[r * kD0]);
      float2 zm;
      if (r == 0) {
        za[i] = split_inverse_ends(a, unpack_word(in[kM]), f);
      } else if (r == mp::kLength / 2) {
        za[i] = split_inverse_middle(a, f);
      } else {
        split_inverse_pair(a, unpack_word(in[kM - r * kD0]),
                           __ldg(coarse + (r << (kLogCoarse - mp::kLogLength - 1))), f, za[i],
                           zm);
      }
      std::uint32_t const rb_row = static_cast<std::uint32_t>(7 - w + i * kP);
      std::uint32_t const k = kD0 / 2 + rb_row * kD0;
      split_inverse_pair(unpack_word(in[k]), unpack_word(in[kM - k]),
                         cmul(w_mid, __ldg(coarse + (rb_row << (kLogCoarse - mp::kLogLength - 1)))),
                         f, zb[i], zm);
    }
  }

  // Per group: the inverse as conj(forward(conj Z)); step 1 in role p, step 2, twiddle, FP16.
  auto const group = [&](int h, int role, float2 (&a)[kR1]) {
#pragma unroll
    for (int n1 = 0; n1 < kR1; ++n1) a[n1] = cconj(a[n1]);
    mp::step1(a, role, lane, coarse, exchange);
    __syncthreads();
    float2 b[kC][kP];
    mp::step2_inputs(b, w, lane, exchange);
    __syncthreads();  // the next group's step 1 overwrites the exchange
#pragma unroll
    for (int e = 0; e < kC; ++e) dft_pow2<mp::kLogWarps>(b[e]);
    // Output n = k1 + 16 k2 (k1 = 2 w + e) of sequence k_lo, times W_M^(-n k_lo): u at k1 =
    // 2 w, gg = W_M^(-k_lo), v = W_M^(-16 k_lo).
    auto const k_lo = static_cast<std::uint32_t>(mp::sequence(g, h, t, kLogD0));
    float2 u = inverse_twiddle(k_lo * static_cast<std::uint32_t>(w * kC), kLogM);
    float2 const gg = inverse_twiddle(k_lo, kLogM);
    float2 const v = inverse_twiddle((k_lo << mp::kLogR1) & (kM - 1), kLogM);
#pragma unroll
    for (int e = 0; e < kC; ++e) {
      if (e > 0) u = cmul(u, gg);
      float2 fw = u;
#pragma unroll
      for (int k2 = 0; k2 < kP; ++k2) {
        if (k2 > 0) fw = cmul(fw, v);
        int const n = w * kC + e + (k2 << mp::kLogR1);
        staging[mp::staging_word((h << mp::kLogGroup) + lane, n)] =
            pack_word(cmul(cconj(b[e][bit_reverse<mp::kLogWarps>(k2)]), fw));
      }
    }
  };
  group(0, w, za);
  group(1, kP - 1 - w, zb);
  __syncthreads();

  // The 64 rows to Y: a warp writes 32 adjacent words of one sequence (slot s = 2 j +
  // threadIdx.x / 128); group A's sequences one run upwards, group B's one run downwards but
  // for group 0's lane 0 (D0 / 2): two pointers and constant offsets, as the R2C's loads (128
  // -> 96 registers). H200, session 45, three runs each, ms per 2^28 reals: 2^17 0.926-0.938 ->
  // 0.855-0.859, 2^18 0.956-0.968 -> 0.886-0.895, 2^19 0.960-0.974 -> 0.885-0.889, 2^20
  // 0.977-0.991 -> 0.900-0.917.
  auto const n_store = static_cast<std::uint32_t>(threadIdx.x) & (mp::kLength - 1);
  auto const s_store = static_cast<std::uint32_t>(threadIdx.x) >> mp::kLogLength;
  auto const g32 = static_cast<std::uint32_t>(g) << mp::kLogGroup;
  std::uint32_t* const run_a = out + (((g32 + s_store) << mp::kLogLength) + n_store);
  std::uint32_t* const run_b = out + (((kD0 - g32 - s_store) << mp::kLogLength) + n_store);
  std::uint32_t const* const rows =
      staging + mp::staging_word(static_cast<int>(s_store), static_cast<int>(n_store));
  constexpr int kStores = mp::kSequences * mp::kLength / mp::kThreads;
  constexpr int kStep = 2 * mp::kLength;
#pragma unroll
  for (int j = 0; j < kStores / 2; ++j) run_a[j * kStep] = rows[j * 2 * mp::kPitch];
  std::uint32_t const first_b = rows[(kStores / 2) * 2 * mp::kPitch];
  if (g32 + s_store == 0) {
    out[((kD0 / 2) << mp::kLogLength) + n_store] = first_b;
  } else {
    run_b[0] = first_b;
  }
#pragma unroll
  for (int j = 1; j < kStores / 2; ++j) {
    run_b[-j * kStep] = rows[(kStores / 2 + j) * 2 * mp::kPitch];
  }
}

template <int kLogD0>
cudaError_t prepare_one() noexcept {
  return cudaFuncSetAttribute(mirror_c2r_kernel<kLogD0>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, mp::kSmemBytes);
}

template <int kLogD0>
cudaError_t launch_one(PassParams const& pass, void const* src, void* dst,
                       float2 const* coarse, cudaStream_t stream) noexcept {
  return launch_chained(mirror_c2r_kernel<kLogD0>, dim3(static_cast<unsigned>(pass.blocks)),
                        dim3(mp::kThreads), mp::kSmemBytes, stream, pass, src, dst, coarse);
}

}  // namespace

cudaError_t prepare_mirror_c2r_kernels() noexcept {
  cudaError_t e = prepare_one<9>();
  if (e == cudaSuccess) e = prepare_one<10>();
  if (e == cudaSuccess) e = prepare_one<11>();
  if (e == cudaSuccess) e = prepare_one<12>();
  return e;
}

cudaError_t launch_mirror_c2r(PassParams const& pass, void const* src, void* dst,
                              float2 const* coarse, cudaStream_t stream) noexcept {
  switch (pass.mirror_log_sequences) {
    case 9:
      return launch_one<9>(pass, src, dst, coarse, stream);
    case 10:
      return launch_one<10>(pass, src, dst, coarse, stream);
    case 11:
      return launch_one<11>(pass, src, dst, coarse, stream);
    case 12:
      return launch_one<12>(pass, src, dst, coarse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
