// SPDX-License-Identifier: MIT
// The tall pass: untwiddled FP16 column passes of 4096 points (tall_pass::eligible), eight
// adjacent columns per 512-thread block at a time, kept in shared memory as FP16 words between
// three in-place radix-16 stages computed in FP32 registers (tall_pass_layout.hpp has the maps
// and the reason), with the load and store hooks.
#include <cuda_fp16.h>

#include <atomic>
#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/plan_logic.hpp"
#include "tc/tall_pass_layout.hpp"

namespace fftcore::detail::tc {
namespace {

namespace tp = tall_pass;

constexpr int kTableEntries = 1 << (2 * tp::kLogRadix);  ///< stage 2's W_256^(b0 k2)
constexpr std::size_t kSmemBytes =
    static_cast<std::size_t>(tp::kSlots) * sizeof(std::uint32_t) + kTableEntries * sizeof(float2);
/// Rounds of stage-1 inputs a thread keeps loaded ahead (registers: 16 words each): two, one
/// with hooks (whose factor loads took two rounds ahead to 128 registers and ~150 bytes of
/// spills).
template <bool kHooked>
constexpr int tall_ahead = kHooked ? 1 : 2;

/// Stage 2's table W_256^(b0 k2) s3, entry k2 * 16 + b0.
__device__ __forceinline__ void fill_table(float2* table, float2 const* coarse, float s3, int j) {
  constexpr int kR = tp::kRadix;
  for (int e = j; e < kTableEntries; e += tp::kThreads) {
    int const k2 = e >> tp::kLogRadix, b0 = e & (kR - 1);
    table[e] = cscale(__ldg(coarse + (((b0 * k2) & (kTableEntries - 1)) << (kLogCoarse - 8))), s3);
  }
}

/// Butterfly w of column c of stage kStage (1 or 2): its 16 inputs from the words, then their
/// DFT, a[bit_reverse(k)] = DFT[k].
template <int kStage>
__device__ __forceinline__ void butterfly_dft(std::uint32_t const* words, int c, int w,
                                              float2 (&a)[tp::kRadix]) {
#pragma unroll
  for (int m = 0; m < tp::kRadix; ++m) {
    a[m] = unpack_word(words[tp::slot(c, tp::position(kStage, w, m))]);
  }
  dft_pow2<tp::kLogRadix>(a);
}

template <bool kInverse, bool kHooked>
__global__ void __launch_bounds__(tp::kThreads, 1)
    tall_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kR = tp::kRadix;
  constexpr int kLogR = tp::kLogRadix;
  constexpr int kAhead = tall_ahead<kHooked>;
  static_assert(tp::kRounds % kAhead == 0, "stage 1's rounds in whole prefetch groups");
  extern __shared__ std::uint32_t words[];  // the item, FP16 words at slot(c, position)
  auto* const table = reinterpret_cast<float2*>(words + tp::kSlots);
  int const j = static_cast<int>(threadIdx.x);
  // The pass's scale in three equal factors, one per stage (stage 2's in its table), so that
  // the FP16 words between the stages grow no more than the scaled transform's outputs do.
  float const s3 = cbrtf(p.scale);
  fill_table(table, coarse, s3, j);
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  bool const flip_factor = (p.conjugate_store != 0) != kInverse;
  bool const load_hook = kHooked && p.load_factors != nullptr;
  bool const store_hook = kHooked && p.store_factors != nullptr;

  // Thread j keeps column c = j mod 8 through every round and stage; its butterflies are
  // w = j / 8 + 64 u. Element n of column c of an item lies at its base + c + n * stride.
  int const c = tp::column_of(j);
  int const w0 = tp::column_butterfly(j);
  auto const in_es = static_cast<std::uint32_t>(p.in_elem_stride);
  auto const out_es = static_cast<std::uint32_t>(p.out_elem_stride);
  // Stage 1 of round u reads rows w0 + 64 u + 256 m: a running pointer per round (m steps of
  // 256 rows) keeps the 16 offsets out of registers.
  std::uint32_t const round_step = in_es * tp::kRoundStep;
  std::uint32_t const m_step = in_es << tp::kLogColumnButterflies;
  auto const base_of = [&](std::int64_t item, std::uint32_t& in_at, std::uint32_t& out_at,
                           std::uint32_t const*& from, std::uint32_t*& to) {
    BlockOrigin const o = block_origin(p, item);
    in_at = static_cast<std::uint32_t>(o.in_base) + static_cast<std::uint32_t>(c) +
            static_cast<std::uint32_t>(w0) * in_es;
    out_at = static_cast<std::uint32_t>(o.out_base) + static_cast<std::uint32_t>(c);
    from = opaque(static_cast<std::uint32_t const*>(src) + o.in_base + c +
                  static_cast<std::int64_t>(w0) * in_es);
    to = opaque(static_cast<std::uint32_t*>(dst) + o.out_base + c);
  };
  auto const load_round = [&](std::uint32_t const* from, int u, std::uint32_t(&raw)[kR]) {
    std::uint32_t const* at = opaque(from + u * round_step);
#pragma unroll
    for (int m = 0; m < kR; ++m) {
      raw[m] = *at;
      at = opaque(at + m_step);
    }
  };

  std::uint32_t raw[kAhead][kR];
  std::int64_t item = blockIdx.x;
  std::uint32_t in_at = 0, out_at = 0;
  std::uint32_t const* from = nullptr;
  std::uint32_t* to = nullptr;
  if (item < p.blocks) {
    base_of(item, in_at, out_at, from, to);
#pragma unroll
    for (int u = 0; u < kAhead; ++u) load_round(from, u, raw[u]);
  }
#pragma unroll 1
  for (; item < p.blocks; item += gridDim.x) {
    // Stage 1: butterfly b = w0 + 64 u reads x[b + 256 m], writes W_4096^(b k1) s3 DFT[k1] to
    // position b + 256 k1; round u + kAhead's words are loaded as round u's are taken.
#pragma unroll
    for (int u = 0; u < tp::kRounds; ++u) {
      int const b = w0 + u * tp::kRoundStep;
      float2 a[kR];
#pragma unroll
      for (int m = 0; m < kR; ++m) a[m] = unpack_word(raw[u % kAhead][m] ^ conj);
      if (u + kAhead < tp::kRounds) load_round(from, u + kAhead, raw[u % kAhead]);
      if (load_hook) {
#pragma unroll
        for (int m = 0; m < kR; ++m) {
          // Conjugated for the inverse, which runs as the conjugate of a forward transform of
          // the conjugated input.
          auto const row =
              static_cast<std::uint32_t>(u * tp::kRoundStep + (m << tp::kLogColumnButterflies));
          std::uint32_t const at = in_at + row * in_es;
          a[m] = cmul(a[m], hook_factor(p.load_factors, at & p.factor_mask, kInverse));
        }
      }
      dft_pow2<kLogR>(a);  // a[bit_reverse(k)] = DFT[k]
      float2 const wb = __ldg(coarse + (b << (kLogCoarse - tp::kLogLength)));  // W_4096^b
      float2 t = make_float2(s3, 0.f);
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        words[tp::slot(c, tp::position(0, b, k))] = pack_word(cmul(a[bit_reverse<kLogR>(k)], t));
        if (k + 1 < kR) t = cmul(t, wb);
      }
    }
    __syncthreads();
    // Stage 2: butterfly w = b0 + 16 k1 reads position b0 + 16 m + 256 k1, writes
    // W_256^(b0 k2) s3 DFT[k2] in their place (b0 = w0 mod 16 in every round).
    int const b0 = w0 & (kR - 1);
#pragma unroll 1
    for (int u = 0; u < tp::kRounds; ++u) {
      int const w = w0 + u * tp::kRoundStep;
      float2 a[kR];
      butterfly_dft<1>(words, c, w, a);
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        words[tp::slot(c, tp::position(1, w, k))] =
            pack_word(cmul(a[bit_reverse<kLogR>(k)], table[(k << kLogR) + b0]));
      }
    }
    __syncthreads();
    // The next item's first rounds, in flight while this one's last stage runs.
    std::uint32_t* const seq = to;
    std::uint32_t const seq_at = out_at;
    std::int64_t const next_item = item + gridDim.x;
    if (next_item < p.blocks) {
      base_of(next_item, in_at, out_at, from, to);
#pragma unroll
      for (int u = 0; u < kAhead; ++u) load_round(from, u, raw[u]);
    }
    // Stage 3: butterfly w = k1 + 16 k2 reads position m + 16 k2 + 256 k1 and writes
    // X[w + 256 k3] = s3 DFT[k3] to global memory (a warp: 8 columns x 4 adjacent rows).
#pragma unroll 1
    for (int u = 0; u < tp::kRounds; ++u) {
      int const w = w0 + u * tp::kRoundStep;
      float2 a[kR];
      butterfly_dft<2>(words, c, w, a);
      std::uint32_t* at = opaque(seq + static_cast<std::uint32_t>(w) * out_es);
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        float2 y = cscale(a[bit_reverse<kLogR>(k)], s3);
        if (store_hook) {
          // ExecuteHooks::store_factors: y is the conjugate of the output for the inverse, so
          // the factor is conjugated once more there.
          std::uint32_t const n = static_cast<std::uint32_t>(tp::output_index(w, k));
          y = cmul(
              y, hook_factor(p.store_factors, (seq_at + n * out_es) & p.factor_mask, flip_factor));
        }
        *at = pack_word(y) ^ conj;
        at = opaque(at + (out_es << tp::kLogColumnButterflies));
      }
    }
    __syncthreads();  // this stage's reads before the next item's stage-1 writes
  }
}

template <bool kInverse, bool kHooked>
cudaError_t launch_variant(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                           cudaStream_t stream) noexcept {
  static std::atomic<int> resident_cache{0};
  auto const kernel = tall_pass_kernel<kInverse, kHooked>;
  unsigned grid = 0;
  cudaError_t const e =
      resident_grid(kernel, tp::kThreads, kSmemBytes, resident_cache, pass.blocks, grid);
  if (e != cudaSuccess) return e;
  return launch_chained(kernel, grid, tp::kThreads, kSmemBytes, stream, pass, src, dst, coarse);
}

}  // namespace

cudaError_t prepare_tall_pass_kernels() noexcept {
  cudaError_t e = cudaSuccess;
  for (auto const kernel : {tall_pass_kernel<false, false>, tall_pass_kernel<true, false>,
                            tall_pass_kernel<false, true>, tall_pass_kernel<true, true>}) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(kSmemBytes));
    }
  }
  return e;
}

/// FFTCORE_TC_TALL_PASS=0 in the environment sends these passes back to the register-chained
/// pass (A/B in one build; read once).
bool runs_tall_pass(PassParams const& pass) noexcept {
  static bool const enabled = env_switch_on("FFTCORE_TC_TALL_PASS");
  return enabled && tall_pass::eligible(pass);
}

cudaError_t launch_tall_pass(PassParams const& pass, void const* src, void* dst,
                             float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  if (!tall_pass::eligible(pass)) return cudaErrorInvalidValue;
  // Items of 8 columns: the planner's tiles (4 columns), retiled; eligible() asks for whole ones.
  PassParams tiled = pass;
  if (tiled.log_tile != tp::kLogColumns) {
    std::int64_t const rest = pass.blocks / pass.tiles0;  // the digits above the columns
    tiled.log_tile = tp::kLogColumns;
    tiled.tiles0 = tiled.extent[0] >> tp::kLogColumns;
    tiled.blocks = tiled.tiles0 * rest;
    set_origin_shortcuts(tiled);
  }
  bool const hooked = pass.load_factors != nullptr || pass.store_factors != nullptr;
  if (hooked) {
    return inverse ? launch_variant<true, true>(tiled, src, dst, coarse, stream)
                   : launch_variant<false, true>(tiled, src, dst, coarse, stream);
  }
  return inverse ? launch_variant<true, false>(tiled, src, dst, coarse, stream)
                 : launch_variant<false, false>(tiled, src, dst, coarse, stream);
}

}  // namespace fftcore::detail::tc
