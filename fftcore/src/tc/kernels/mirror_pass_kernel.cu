// SPDX-License-Identifier: MIT
// The mirror pass: the last pass of the 1-D R2C of 2^17..2^20 reals, 128-point DFTs over two
// mirrored groups of 32 sequences a block, the split in the store, the half spectrum written in
// natural order (mirror_pass_layout.hpp has the maps and why).
#include <cuda_fp16.h>

#include <atomic>
#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/l2_prefetch.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/mirror_pass_layout.hpp"
#include "tc/real_split.hpp"

namespace fftcore::detail::tc {
namespace {

namespace mp = mirror_pass;

/// The kernel's blocks per SM (__launch_bounds__): two by default (127 registers, no spills),
/// three with FFTCORE_TC_MIRROR_BLOCKS=3 (80 registers: 172 bytes of spills) or
/// FFTCORE_TC_MIRROR_ZA16=3 (group A's Z in FP16: 28 bytes); the shared memory (kSmemBytes)
/// allows three. H200, session 44, ms per 2^28 reals of 2^18 (NOTES.md): ...
constexpr int kDefaultBlocks = 2;

/// kHalfZa: group A's Z rounded to FP16 into its dead staging rows right after its step 2
/// (nothing held in registers across group B's step 1), B's in FP32 as before.
template <int kLogD0, int kBlocks, bool kHalfZa>
__global__ void __launch_bounds__(mp::kThreads, kBlocks)
    mirror_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogM = kLogD0 + mp::kLogLength;
  constexpr std::uint32_t kM = 1u << kLogM;
  constexpr int kR1 = 1 << mp::kLogR1;
  constexpr int kP = mp::kWarps;
  constexpr int kC = 1 << mp::kLogStep2Columns;
  constexpr int kLogGroups = mp::log_groups(kLogD0);
  extern __shared__ float2 smem[];
  auto* const staging = reinterpret_cast<std::uint32_t*>(smem);
  float2* const exchange = reinterpret_cast<float2*>(staging + mp::kStagingWords);
  float2* const zbuf = smem;  // A over the staging words, B over their tail and the exchange

  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const w = static_cast<int>(threadIdx.x) >> 5;
  int const n_load = static_cast<int>(threadIdx.x) & (mp::kLength - 1);
  int const s_load = static_cast<int>(threadIdx.x) >> mp::kLogLength;
  constexpr int kLoads = mp::kSequences * mp::kLength / mp::kThreads;
  auto const* const in_all = static_cast<std::uint32_t const*>(src);
  auto* const out_all = static_cast<std::uint32_t*>(dst);

  // The tiles (group pair g of transform `transform`) grid-stride; thread 0 asks L2 for the next
  // tile's two runs of sequences while this one is computed (p.prefetch_items).
#pragma unroll 1
  for (std::int64_t tile = blockIdx.x; tile < p.blocks; tile += gridDim.x) {
    int const g = static_cast<int>(tile) & ((1 << kLogGroups) - 1);
    std::int64_t const transform = tile >> kLogGroups;
    auto const* in = opaque(in_all + transform * kM);
    auto* out = opaque(out_all + transform * (kM + 1));
    if (p.prefetch_items != 0 && threadIdx.x == 0 && tile + gridDim.x < p.blocks) {
      std::int64_t const next = tile + gridDim.x;
      int const gn = static_cast<int>(next) & ((1 << kLogGroups) - 1);
      auto const* base = in_all + (next >> kLogGroups) * kM;
      constexpr std::uint32_t kRun = mp::kGroup * mp::kLength * 4;
      prefetch_l2(base + (gn << (mp::kLogGroup + mp::kLogLength)), kRun);
      // Group B: sequences D0 - 32 gn - 31 .. D0 - 32 gn (group 0: D0 - 31 .. D0 - 1, and D0 / 2).
      int const b_first = (1 << kLogD0) - (gn << mp::kLogGroup) - (mp::kGroup - 1);
      prefetch_l2(base + (b_first << mp::kLogLength), gn == 0 ? kRun - mp::kLength * 4 : kRun);
    }

    // The block's 64 sequences to the staging rows: a warp loads 32 adjacent words of one
    // sequence (slot s = 2 j + threadIdx.x / 128, word n = threadIdx.x mod 128), all loads first.
    {
      std::uint32_t raw[kLoads];
#pragma unroll
      for (int j = 0; j < kLoads; ++j) {
        int const s = 2 * j + s_load;
        int const seq = mp::sequence(g, s >> mp::kLogGroup, s & (mp::kGroup - 1), kLogD0);
        raw[j] = in[(static_cast<std::uint32_t>(seq) << mp::kLogLength) + n_load];
      }
#pragma unroll
      for (int j = 0; j < kLoads; ++j) staging[mp::staging_word(2 * j + s_load, n_load)] = raw[j];
    }
    __syncthreads();

    // Step 1 of group h: lane t's 16-point DFT of words 8 n1 + w of its sequence, output k1
    // times W_128^(w k1) (powers of one table entry, <= 15 deep, formed as they are stored so
    // that no array of them stays live; the scale rides in the split) to the exchange.
    auto const step1 = [&](int h) {
      float2 a[kR1];
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) {
        a[n1] = unpack_word(
            staging[mp::staging_word((h << mp::kLogGroup) + lane, (n1 << mp::kLogWarps) + w)]);
      }
      dft_pow2<mp::kLogR1>(a);  // a[bit_reverse(k1)] = sum_n1 W_16^(n1 k1) y[8 n1 + w]
      float2 const w1 = __ldg(coarse + (w << (kLogCoarse - mp::kLogLength)));
      float2 f = make_float2(1.f, 0.f);
#pragma unroll
      for (int k1 = 0; k1 < kR1; ++k1) {
        exchange[mp::exchange_slot(k1, w, lane)] =
            k1 == 0 ? a[0] : cmul(a[bit_reverse<mp::kLogR1>(k1)], f);
        f = cmul(f, w1);
      }
    };
    // Step 2: z[e][bit_reverse(k2)] is output k1 + 16 k2 (k1 = 2 w + e) of lane t's sequence.
    auto const step2 = [&](float2 (&z)[kC][kP]) {
#pragma unroll
      for (int e = 0; e < kC; ++e) {
#pragma unroll
        for (int q = 0; q < kP; ++q) z[e][q] = exchange[mp::exchange_slot((w * kC) + e, q, lane)];
      }
#pragma unroll
      for (int e = 0; e < kC; ++e) dft_pow2<mp::kLogWarps>(z[e]);
    };
    auto const to_zbuf = [&](int h, float2 const (&z)[kC][kP]) {
#pragma unroll
      for (int e = 0; e < kC; ++e) {
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) {
          zbuf[mp::z_slot(h, w * kC + e + (k2 << mp::kLogR1), lane)] =
              z[e][bit_reverse<mp::kLogWarps>(k2)];
        }
      }
    };
    float2 za_regs[kC][kP];
    step1(0);
    __syncthreads();
    step2(za_regs);
    if constexpr (kHalfZa) {  // to group A's staging rows, [k_hi][t] (4096 of its 4128 words)
#pragma unroll
      for (int e = 0; e < kC; ++e) {
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) {
          staging[((w * kC + e + (k2 << mp::kLogR1)) << mp::kLogGroup) + lane] =
              pack_word(za_regs[e][bit_reverse<mp::kLogWarps>(k2)]);
        }
      }
    }
    __syncthreads();  // group B's step 1 overwrites the exchange
    step1(1);
    __syncthreads();  // the staging words are dead: group A's Z goes over them
    if constexpr (!kHalfZa) to_zbuf(0, za_regs);
    {
      float2 zb_regs[kC][kP];
      step2(zb_regs);
      __syncthreads();  // the exchange is dead: group B's Z goes over it
      to_zbuf(1, zb_regs);
    }
    __syncthreads();

    // The split: pair slots r = w + 8 i of lane t, X[k] and X[M - k] (real_split.hpp) with
    // W^k = W^(sequence) W_256^(row) (k = sequence + D0 row, D0 / M = 1 / 128), times the scale.
    int const t = lane;
    float const f = p.scale;
    float2 const w_a =
        split_twiddle(static_cast<std::uint32_t>(mp::sequence(g, 0, t, kLogD0)), kLogM);
    float2 const w_mid = split_twiddle(1u << (kLogD0 - 1), kLogM);  // lane 0 of group 0's B
#pragma unroll 4
    for (int i = 0; i < mp::kLength / kP; ++i) {
      int const r = w + i * kP;
      mp::PairSlot const ps = mp::pair_slot(g, t, r);
      auto const z_at = [&](int h, int row, int lane_of) {
        if constexpr (kHalfZa) {
          if (h == 0) return unpack_word(staging[(row << mp::kLogGroup) + lane_of]);
        }
        return zbuf[mp::z_slot(h, row, lane_of)];
      };
      float2 const za = z_at(ps.h_a, ps.row_a, t);
      if (ps.ends) {
        float2 x0, xm;
        split_forward_ends(za, f, x0, xm);
        float2 const xh = split_forward_middle(z_at(0, mp::kLength / 2, 0), f);
        out[0] = pack_word(x0);
        out[kM] = pack_word(xm);
        out[kM / 2] = pack_word(xh);
        continue;
      }
      float2 const zb = z_at(ps.h_b, ps.row_b, t);
      float2 const wk = cmul(ps.h_a == 0 ? w_a : w_mid,
                             __ldg(coarse + (ps.row_a << (kLogCoarse - mp::kLogLength - 1))));
      float2 xk, xm;
      split_forward_pair(za, zb, wk, f, xk, xm);
      auto const k = static_cast<std::uint32_t>(mp::sequence(g, ps.h_a, t, kLogD0)) +
                     (static_cast<std::uint32_t>(ps.row_a) << kLogD0);
      out[k] = pack_word(xk);
      out[kM - k] = pack_word(xm);
    }
    __syncthreads();  // the next tile's staging words go over the Z buffer
  }
}

template <int kLogD0, int kBlocks, bool kHalfZa>
cudaError_t prepare_one() noexcept {
  return cudaFuncSetAttribute(mirror_pass_kernel<kLogD0, kBlocks, kHalfZa>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, mp::kSmemBytes);
}

template <int kLogD0>
cudaError_t prepare_length() noexcept {
  cudaError_t e = prepare_one<kLogD0, 2, false>();
  if (e == cudaSuccess) e = prepare_one<kLogD0, 3, false>();
  return e == cudaSuccess ? prepare_one<kLogD0, 3, true>() : e;
}

/// One block per tile, or (`resident`) as many as stay resident walking the tiles grid-stride
/// with the next tile's L2 prefetch.
template <int kLogD0, int kBlocks, bool kHalfZa>
cudaError_t launch_blocks(PassParams const& pass, void const* src, void* dst,
                          float2 const* coarse, bool resident, cudaStream_t stream) noexcept {
  static std::atomic<int> per_sm{0};
  auto grid = static_cast<unsigned>(pass.blocks);
  if (resident) {
    if (cudaError_t const e = resident_grid(mirror_pass_kernel<kLogD0, kBlocks, kHalfZa>,
                                            mp::kThreads, mp::kSmemBytes, per_sm, pass.blocks,
                                            grid);
        e != cudaSuccess) {
      return e;
    }
  }
  return launch_chained(mirror_pass_kernel<kLogD0, kBlocks, kHalfZa>, dim3(grid),
                        dim3(mp::kThreads), mp::kSmemBytes, stream, pass, src, dst, coarse);
}

template <int kLogD0>
cudaError_t launch_one(PassParams const& pass, void const* src, void* dst,
                       float2 const* coarse, cudaStream_t stream) noexcept {
  // A/B switches, read once: FFTCORE_TC_MIRROR_BLOCKS=3, built for three blocks per SM;
  // FFTCORE_TC_MIRROR_ZA16=3, three with group A's Z in FP16 (kHalfZa);
  // FFTCORE_TC_MIRROR_PERSISTENT=3, resident blocks grid-stride, with the next tile's L2 prefetch
  // unless FFTCORE_TC_MIRROR_PREFETCH=0.
  static bool const three = env_mode("FFTCORE_TC_MIRROR_BLOCKS") == 3;
  static bool const half_za = env_mode("FFTCORE_TC_MIRROR_ZA16") == 3;
  static bool const resident = env_mode("FFTCORE_TC_MIRROR_PERSISTENT") == 3;
  static bool const prefetch = env_switch_on("FFTCORE_TC_MIRROR_PREFETCH");
  PassParams q = pass;
  q.prefetch_items = resident && prefetch ? 1 : 0;
  if (half_za) return launch_blocks<kLogD0, 3, true>(q, src, dst, coarse, resident, stream);
  if (three) return launch_blocks<kLogD0, 3, false>(q, src, dst, coarse, resident, stream);
  static_assert(kDefaultBlocks == 2);
  return launch_blocks<kLogD0, 2, false>(q, src, dst, coarse, resident, stream);
}

}  // namespace

cudaError_t prepare_mirror_pass_kernels() noexcept {
  cudaError_t e = prepare_length<9>();
  if (e == cudaSuccess) e = prepare_length<10>();
  if (e == cudaSuccess) e = prepare_length<11>();
  if (e == cudaSuccess) e = prepare_length<12>();
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
