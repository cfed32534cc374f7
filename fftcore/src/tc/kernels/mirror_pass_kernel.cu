// SPDX-License-Identifier: MIT
// The mirror pass: the last pass of the 1-D R2C of 2^17..2^20 reals, 128-point DFTs over two
// mirrored groups of 32 sequences a block, the split in the store, the half spectrum written in
// natural order (mirror_pass_layout.hpp has the maps and why).
#include <cuda_fp16.h>

#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/mirror_pass_layout.hpp"
#include "tc/real_split.hpp"

namespace fftcore::detail::tc {
namespace {

namespace mp = mirror_pass;

template <int kLogD0>
__global__ void __launch_bounds__(mp::kThreads, 2)
    mirror_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogM = kLogD0 + mp::kLogLength;
  constexpr std::uint32_t kM = 1u << kLogM;
  constexpr int kR1 = 1 << mp::kLogR1;
  constexpr int kP = mp::kWarps;
  constexpr int kC = 1 << mp::kLogStep2Columns;
  extern __shared__ float2 smem[];
  auto* const staging = reinterpret_cast<std::uint32_t*>(smem);
  float2* const exchange = reinterpret_cast<float2*>(staging + mp::kStagingWords);
  float2* const zbuf = smem;  // over staging and exchange once both groups' DFTs are done

  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const w = static_cast<int>(threadIdx.x) >> 5;
  int const g = static_cast<int>(blockIdx.x) & ((1 << mp::log_groups(kLogD0)) - 1);
  auto const transform = static_cast<std::int64_t>(blockIdx.x >> mp::log_groups(kLogD0));
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + transform * kM);
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + transform * (kM + 1));

  // The block's 64 sequences to the staging rows: a warp loads 32 adjacent words of one
  // sequence (slot s = 2 j + threadIdx.x / 128, word n = threadIdx.x mod 128), all loads first.
  int const n_load = static_cast<int>(threadIdx.x) & (mp::kLength - 1);
  int const s_load = static_cast<int>(threadIdx.x) >> mp::kLogLength;
  constexpr int kLoads = mp::kSequences * mp::kLength / mp::kThreads;
  std::uint32_t raw[kLoads];
#pragma unroll
  for (int j = 0; j < kLoads; ++j) {
    int const s = 2 * j + s_load;
    int const seq = mp::sequence(g, s >> mp::kLogGroup, s & (mp::kGroup - 1), kLogD0);
    raw[j] = in[(static_cast<std::uint32_t>(seq) << mp::kLogLength) + n_load];
  }
#pragma unroll
  for (int j = 0; j < kLoads; ++j) staging[mp::staging_word(2 * j + s_load, n_load)] = raw[j];

  // Step 1's factors scale W_128^(w k1) (the column pass's).
  float2 f1[kR1];
  float2 const w1 = __ldg(coarse + (w << (kLogCoarse - mp::kLogLength)));
  f1[0] = make_float2(p.scale, 0.f);
#pragma unroll
  for (int k1 = 1; k1 < kR1; ++k1) f1[k1] = cmul(f1[k1 - 1], w1);
  __syncthreads();

  // Both groups' DFTs: z[h][e][bit_reverse(k2)] is output k1 + 16 k2 (k1 = 2 w + e) of the
  // sequence of lane `lane` in group h.
  float2 z[2][kC][kP];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float2 a[kR1];
#pragma unroll
    for (int n1 = 0; n1 < kR1; ++n1) {
      a[n1] = unpack_word(
          staging[mp::staging_word((h << mp::kLogGroup) + lane, (n1 << mp::kLogWarps) + w)]);
    }
    dft_pow2<mp::kLogR1>(a);  // a[bit_reverse(k1)] = sum_n1 W_16^(n1 k1) y[8 n1 + w]
#pragma unroll
    for (int k1 = 0; k1 < kR1; ++k1) {
      exchange[mp::exchange_slot(k1, w, lane)] = cmul(a[bit_reverse<mp::kLogR1>(k1)], f1[k1]);
    }
    __syncthreads();
#pragma unroll
    for (int e = 0; e < kC; ++e) {
#pragma unroll
      for (int q = 0; q < kP; ++q) z[h][e][q] = exchange[mp::exchange_slot((w * kC) + e, q, lane)];
    }
    __syncthreads();  // the next group's step 1 (or the Z buffer) overwrites the exchange
#pragma unroll
    for (int e = 0; e < kC; ++e) dft_pow2<mp::kLogWarps>(z[h][e]);
  }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
#pragma unroll
    for (int e = 0; e < kC; ++e) {
#pragma unroll
      for (int k2 = 0; k2 < kP; ++k2) {
        zbuf[mp::z_slot(h, w * kC + e + (k2 << mp::kLogR1), lane)] =
            z[h][e][bit_reverse<mp::kLogWarps>(k2)];
      }
    }
  }
  __syncthreads();

  // The split: pair slots r = w + 8 i of lane t, X[k] and X[M - k] (real_split.hpp) with
  // W^k = W^(sequence) W_256^(row) (k = sequence + D0 row, D0 / M = 1 / 128).
  int const t = lane;
  float2 const w_a = split_twiddle(static_cast<std::uint32_t>(mp::sequence(g, 0, t, kLogD0)), kLogM);
  float2 const w_mid = split_twiddle(1u << (kLogD0 - 1), kLogM);  // lane 0 of group 0's B
#pragma unroll 4
  for (int i = 0; i < mp::kLength / kP; ++i) {
    int const r = w + i * kP;
    mp::PairSlot const ps = mp::pair_slot(g, t, r);
    float2 const za = zbuf[mp::z_slot(ps.h_a, ps.row_a, t)];
    if (ps.ends) {
      float2 x0, xm;
      split_forward_ends(za, 1.0f, x0, xm);
      float2 const xh = split_forward_middle(zbuf[mp::z_slot(0, mp::kLength / 2, 0)], 1.0f);
      out[0] = pack_word(x0);
      out[kM] = pack_word(xm);
      out[kM / 2] = pack_word(xh);
      continue;
    }
    float2 const zb = zbuf[mp::z_slot(ps.h_b, ps.row_b, t)];
    float2 const wk = cmul(ps.h_a == 0 ? w_a : w_mid,
                           __ldg(coarse + (ps.row_a << (kLogCoarse - mp::kLogLength - 1))));
    float2 xk, xm;
    split_forward_pair(za, zb, wk, 1.0f, xk, xm);
    auto const k = static_cast<std::uint32_t>(mp::sequence(g, ps.h_a, t, kLogD0)) +
                   (static_cast<std::uint32_t>(ps.row_a) << kLogD0);
    out[k] = pack_word(xk);
    out[kM - k] = pack_word(xm);
  }
}

template <int kLogD0>
cudaError_t prepare_one() noexcept {
  return cudaFuncSetAttribute(mirror_pass_kernel<kLogD0>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, mp::kSmemBytes);
}

template <int kLogD0>
cudaError_t launch_one(PassParams const& pass, void const* src, void* dst,
                       float2 const* coarse, cudaStream_t stream) noexcept {
  return launch_chained(mirror_pass_kernel<kLogD0>, dim3(static_cast<unsigned>(pass.blocks)),
                        dim3(mp::kThreads), mp::kSmemBytes, stream, pass, src, dst, coarse);
}

}  // namespace

cudaError_t prepare_mirror_pass_kernels() noexcept {
  cudaError_t e = prepare_one<9>();
  if (e == cudaSuccess) e = prepare_one<10>();
  if (e == cudaSuccess) e = prepare_one<11>();
  if (e == cudaSuccess) e = prepare_one<12>();
  return e;
}

cudaError_t launch_mirror_pass(PassParams const& pass, void const* src, void* dst,
                               float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  if (inverse || !mp::eligible(pass)) return cudaErrorInvalidValue;
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
