// SPDX-License-Identifier: MIT
// The long pass: untwiddled FP16 passes of 32768 points over contiguous sequences
// (long_pass::eligible), one sequence per 512-thread block at a time, kept in shared memory as
// FP16 words between three in-place radix-32 stages computed in FP32 registers
// (long_pass_layout.hpp has the maps and the reason), with the load and store hooks.
#include <cuda_fp16.h>

#include <atomic>
#include <cstdint>

#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/long_pass_layout.hpp"

namespace fftcore::detail::tc {
namespace {

namespace lp = long_pass;

constexpr int kTableEntries = 1 << (2 * lp::kLogRadix);  ///< stage 2's W_1024^(b0 k2)
constexpr std::size_t kSmemBytes =
    static_cast<std::size_t>(lp::kSlots) * sizeof(std::uint32_t) + kTableEntries * sizeof(float2);

/// Butterfly q of stage kStage (1 or 2): its 32 inputs from the words, then their DFT,
/// a[bit_reverse(k)] = DFT[k].
template <int kStage>
__device__ __forceinline__ void butterfly_dft(std::uint32_t const* words, int q,
                                              float2 (&a)[lp::kRadix]) {
#pragma unroll
  for (int m = 0; m < lp::kRadix; ++m) {
    a[m] = unpack_word(words[lp::slot_base(kStage, q) + lp::slot_offset(kStage, m)]);
  }
  dft_pow2<lp::kLogRadix>(a);
}

template <bool kInverse, bool kHooked>
__global__ void __launch_bounds__(lp::kThreads, 1)
    long_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  constexpr int kR = lp::kRadix;
  constexpr int kLogR = lp::kLogRadix;
  extern __shared__ std::uint32_t words[];  // the sequence, FP16 words at slot(position)
  auto* const table = reinterpret_cast<float2*>(words + lp::kSlots);
  int const j = static_cast<int>(threadIdx.x);
  // The pass's scale in three equal factors, one per stage (stage 2's in its table), so that
  // the FP16 words between the stages grow no more than the scaled transform's outputs do.
  float const s3 = cbrtf(p.scale);
  for (int e = j; e < kTableEntries; e += lp::kThreads) {  // [k2][b0]
    int const k2 = e >> kLogR, b0 = e & (kR - 1);
    table[e] = cscale(__ldg(coarse + (((b0 * k2) & (kTableEntries - 1)) << (kLogCoarse - 10))), s3);
  }
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  bool const flip_factor = (p.conjugate_store != 0) != kInverse;
  bool const load_hook = kHooked && p.load_factors != nullptr;
  bool const store_hook = kHooked && p.store_factors != nullptr;

  // Sequences grid-stride over the resident blocks; the next sequence's first-round words are
  // loaded before this one's last stage, its second round's while its first round computes.
  auto const base_of = [&](std::int64_t item, std::uint32_t& in_at, std::uint32_t& out_at,
                           std::uint32_t const*& from, std::uint32_t*& to) {
    BlockOrigin const o = block_origin(p, item);
    in_at = static_cast<std::uint32_t>(o.in_base);
    out_at = static_cast<std::uint32_t>(o.out_base);
    from = opaque(static_cast<std::uint32_t const*>(src) + o.in_base);
    to = opaque(static_cast<std::uint32_t*>(dst) + o.out_base);
  };
  std::uint32_t raw[kR];
  std::int64_t item = blockIdx.x;
  std::uint32_t in_at = 0, out_at = 0;
  std::uint32_t const* from = nullptr;
  std::uint32_t* to = nullptr;
  if (item < p.blocks) {
    base_of(item, in_at, out_at, from, to);
#pragma unroll
    for (int m = 0; m < kR; ++m) raw[m] = from[lp::position(0, j, m)];
  }
#pragma unroll 1
  for (; item < p.blocks; item += gridDim.x) {
    // Stage 1: butterfly b = j + 512 u reads x[b + 1024 m], writes W_N^(b k1) s3 DFT[k1] to
    // position b + 1024 k1.
#pragma unroll 1
    for (int u = 0; u < lp::kRounds; ++u) {
      int const b = lp::butterfly(j, u);
      float2 a[kR];
#pragma unroll
      for (int m = 0; m < kR; ++m) a[m] = unpack_word(raw[m] ^ conj);
      if (u + 1 < lp::kRounds) {
        int const next = lp::butterfly(j, u + 1);
#pragma unroll
        for (int m = 0; m < kR; ++m) raw[m] = from[lp::position(0, next, m)];
      }
      if (load_hook) {
#pragma unroll
        for (int m = 0; m < kR; ++m) {
          // Conjugated for the inverse, which runs as the conjugate of a forward transform of
          // the conjugated input.
          std::uint32_t const at = in_at + static_cast<std::uint32_t>(lp::position(0, b, m));
          a[m] = cmul(a[m], hook_factor(p.load_factors, at & p.factor_mask, kInverse));
        }
      }
      dft_pow2<kLogR>(a);  // a[bit_reverse(k)] = DFT[k]
      float2 const w = w_2pow15(coarse, b);
      float2 t = make_float2(s3, 0.f);
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        words[lp::slot_base(0, b) + lp::slot_offset(0, k)] =
            pack_word(cmul(a[bit_reverse<kLogR>(k)], t));
        if (k + 1 < kR) t = cmul(t, w);
      }
    }
    __syncthreads();
    // Stage 2: butterfly q = b0 + 32 k1 reads position b0 + 32 m + 1024 k1, writes
    // W_1024^(b0 k2) s3 DFT[k2] in their place.
    int const b0 = j & (kR - 1);
#pragma unroll 1
    for (int u = 0; u < lp::kRounds; ++u) {
      int const q = lp::butterfly(j, u);
      float2 a[kR];
      butterfly_dft<1>(words, q, a);
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        words[lp::slot_base(1, q) + lp::slot_offset(1, k)] =
            pack_word(cmul(a[bit_reverse<kLogR>(k)], table[(k << kLogR) + b0]));
      }
    }
    __syncthreads();
    // The next sequence's first-round words, in flight while this one's last stage runs.
    std::uint32_t* const seq = to;
    std::uint32_t const seq_at = out_at;
    std::int64_t const next_item = item + gridDim.x;
    if (next_item < p.blocks) {
      base_of(next_item, in_at, out_at, from, to);
#pragma unroll
      for (int m = 0; m < kR; ++m) raw[m] = from[lp::position(0, j, m)];
    }
    // Stage 3: butterfly q = k1 + 32 k2 reads position m + 32 k2 + 1024 k1 and writes
    // X[q + 1024 k3] = s3 DFT[k3] to global memory (a warp's lanes: adjacent k1).
#pragma unroll 1
    for (int u = 0; u < lp::kRounds; ++u) {
      int const q = lp::butterfly(j, u);
      float2 a[kR];
      butterfly_dft<2>(words, q, a);
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        float2 y = cscale(a[bit_reverse<kLogR>(k)], s3);
        int const n = lp::output_index(q, k);
        if (store_hook) {
          // ExecuteHooks::store_factors: y is the conjugate of the output for the inverse, so
          // the factor is conjugated once more there.
          y = cmul(y, hook_factor(p.store_factors,
                                  (seq_at + static_cast<std::uint32_t>(n)) & p.factor_mask,
                                  flip_factor));
        }
        seq[n] = pack_word(y) ^ conj;
      }
    }
    __syncthreads();  // this stage's reads before the next sequence's stage-1 writes
  }
}

template <bool kInverse, bool kHooked>
std::atomic<int>& resident_cache() {
  static std::atomic<int> cache{0};
  return cache;
}

template <bool kInverse, bool kHooked>
cudaError_t launch_variant(PassParams const& pass, void const* src, void* dst,
                           float2 const* coarse, cudaStream_t stream) noexcept {
  auto const kernel = long_pass_kernel<kInverse, kHooked>;
  unsigned grid = 0;
  cudaError_t const e = resident_grid(kernel, lp::kThreads, kSmemBytes,
                                      resident_cache<kInverse, kHooked>(), pass.blocks, grid);
  if (e != cudaSuccess) return e;
  kernel<<<grid, lp::kThreads, kSmemBytes, stream>>>(pass, src, dst, coarse);
  return cudaGetLastError();
}

}  // namespace

cudaError_t prepare_long_pass_kernels() noexcept {
  cudaError_t e = cudaSuccess;
  for (auto const kernel : {long_pass_kernel<false, false>, long_pass_kernel<true, false>,
                            long_pass_kernel<false, true>, long_pass_kernel<true, true>}) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(kSmemBytes));
    }
  }
  return e;
}

cudaError_t launch_long_pass(PassParams const& pass, void const* src, void* dst,
                             float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  if (!long_pass::eligible(pass)) return cudaErrorInvalidValue;
  bool const hooked = pass.load_factors != nullptr || pass.store_factors != nullptr;
  if (hooked) {
    return inverse ? launch_variant<true, true>(pass, src, dst, coarse, stream)
                   : launch_variant<false, true>(pass, src, dst, coarse, stream);
  }
  return inverse ? launch_variant<true, false>(pass, src, dst, coarse, stream)
                 : launch_variant<false, false>(pass, src, dst, coarse, stream);
}

}  // namespace fftcore::detail::tc
