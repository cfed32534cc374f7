// SPDX-License-Identifier: MIT
// The mirror pass: the last pass of the 1-D R2C of 2^17..2^20 reals, 128-point DFTs over two
// mirrored groups of 32 sequences a block, the split in the store, the half spectrum written in
// natural order (mirror_pass_layout.hpp has the maps and why).
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

/// kHalfZa (the default): group A's Z rounded to FP16 into its dead staging rows right after
/// its step 2, so that nothing stays in registers across group B's step 1 and the kernel fits
/// three blocks per SM (80 registers, 20 bytes of spills); else both groups' Z in FP32 (group
/// A's held in registers until group B's step 1 is done) at two blocks per SM (128 registers),
/// FFTCORE_TC_MIRROR_ZA16=0. H200, ms per 2^28 reals, three runs each in one call (NOTES.md,
/// session 44, call 4): 2^18 0.904-0.907 against 0.928-0.932, 2^19 0.905-0.910 against
/// 0.938-0.940, 2^20 0.929-0.939 against 0.965-0.975 (before the split's common path below,
/// call 3: 0.985-0.988 against 1.013-1.025 at 2^18); relative L2 error 4.40e-4 against 4.15e-4
/// (cuFFT FP16's 1.39-1.80e-3). FP32 at three blocks spilled 172 bytes and ran 1.048-1.097 in
/// call 3; the blocks walking the tiles grid-stride (with or without an L2 prefetch of the next
/// tile) 1.08-1.49.
template <int kLogD0, bool kHalfZa>
__global__ void __launch_bounds__(mp::kThreads, kHalfZa ? 3 : 2)
    mirror_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
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
  float2* const zbuf = smem;  // A over the staging words, B over their tail and the exchange

  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const w = static_cast<int>(threadIdx.x) >> 5;
  int const g = static_cast<int>(blockIdx.x) & ((1 << kLogGroups) - 1);
  auto const transform = static_cast<std::int64_t>(blockIdx.x >> kLogGroups);
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + transform * kM);
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + transform * (kM + 1));

  // The block's 64 sequences to the staging rows: a warp loads 32 adjacent words of one
  // sequence (slot s = 2 j + threadIdx.x / 128, word n = threadIdx.x mod 128), all loads first.
  // Group A's sequences are one run upwards and group B's one run downwards (mp::sequence),
  // but for group 0's lane 0, whose B sequence is D0 / 2: from D0 = 1024, two pointers and
  // constant offsets (256 words a load, 2 kPitch staging words a store) in place of the map per
  // load. H200, session 45 (three runs each, ms per 2^28 reals): 2^18 0.901-0.918 -> 0.875-0.937,
  // 2^19 0.907-0.916 -> 0.852-0.866, 2^20 0.941-0.950 -> 0.890-0.895; but 2^17 (D0 = 512)
  // 0.973-0.982 -> 0.998-1.006, so D0 = 512 keeps the map.
  {
    constexpr int kLoads = mp::kSequences * mp::kLength / mp::kThreads;
    std::uint32_t raw[kLoads];
    if constexpr (kLogD0 >= 10) {
      auto const n_load = static_cast<std::uint32_t>(threadIdx.x) & (mp::kLength - 1);
      auto const s_load = static_cast<std::uint32_t>(threadIdx.x) >> mp::kLogLength;
      auto const g32 = static_cast<std::uint32_t>(g) << mp::kLogGroup;
      std::uint32_t const* const run_a = in + (((g32 + s_load) << mp::kLogLength) + n_load);
      std::uint32_t const* const run_b = in + (((kD0 - g32 - s_load) << mp::kLogLength) + n_load);
      constexpr int kStep = 2 * mp::kLength;
#pragma unroll
      for (int j = 0; j < kLoads / 2; ++j) raw[j] = run_a[j * kStep];
      raw[kLoads / 2] = g32 + s_load == 0 ? in[((kD0 / 2) << mp::kLogLength) + n_load] : run_b[0];
#pragma unroll
      for (int j = 1; j < kLoads / 2; ++j) raw[kLoads / 2 + j] = run_b[-j * kStep];
      std::uint32_t* const rows = staging + mp::staging_word(static_cast<int>(s_load),
                                                             static_cast<int>(n_load));
#pragma unroll
      for (int j = 0; j < kLoads; ++j) rows[j * 2 * mp::kPitch] = raw[j];
    } else {
      int const n_load = static_cast<int>(threadIdx.x) & (mp::kLength - 1);
      int const s_load = static_cast<int>(threadIdx.x) >> mp::kLogLength;
#pragma unroll
      for (int j = 0; j < kLoads; ++j) {
        int const s = 2 * j + s_load;
        int const seq = mp::sequence(g, s >> mp::kLogGroup, s & (mp::kGroup - 1), kLogD0);
        raw[j] = in[(static_cast<std::uint32_t>(seq) << mp::kLogLength) + n_load];
      }
#pragma unroll
      for (int j = 0; j < kLoads; ++j) staging[mp::staging_word(2 * j + s_load, n_load)] = raw[j];
    }
  }
  __syncthreads();

  // Step 1 of group h: lane t's words 8 n1 + w of its sequence, in role w (the scale rides in
  // the split).
  auto const step1 = [&](int h) {
    float2 a[kR1];
#pragma unroll
    for (int n1 = 0; n1 < kR1; ++n1) {
      a[n1] = unpack_word(
          staging[mp::staging_word((h << mp::kLogGroup) + lane, (n1 << mp::kLogWarps) + w)]);
    }
    mp::step1(a, w, lane, coarse, exchange);
  };
  // Step 2: z[e][bit_reverse(k2)] is output k1 + 16 k2 (k1 = 2 w + e) of lane t's sequence.
  auto const step2 = [&](float2 (&z)[kC][kP]) {
    mp::step2_inputs(z, w, lane, exchange);
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
  {
    float2 za_regs[kC][kP];
    step1(0);
    __syncthreads();
    step2(za_regs);
    if constexpr (kHalfZa) {  // to group A's staging rows, [k_hi][t] (4096 of its 4128 words)
#pragma unroll
      for (int e = 0; e < kC; ++e) {
#pragma unroll
        for (int k2 = 0; k2 < kP; ++k2) {
          staging[mp::half_z_word(w * kC + e + (k2 << mp::kLogR1), lane)] =
              pack_word(za_regs[e][bit_reverse<mp::kLogWarps>(k2)]);
        }
      }
    }
    __syncthreads();  // group B's step 1 overwrites the exchange
    step1(1);
    __syncthreads();  // the staging words of group B are dead
    if constexpr (!kHalfZa) to_zbuf(0, za_regs);  // over all of the staging words
  }
  {
    float2 zb_regs[kC][kP];
    step2(zb_regs);
    __syncthreads();  // the exchange is dead: group B's Z goes over it
    to_zbuf(1, zb_regs);
  }
  __syncthreads();

  // The split: pair slots r = w + 8 i of lane t, X[k] and X[M - k] (real_split.hpp) with
  // W^k = W^(sequence) W_256^(row) (k = sequence + D0 row, D0 / M = 1 / 128), times the scale.
  auto const z_at = [&](int h, int row, int lane_of) {
    if constexpr (kHalfZa) {
      if (h == 0) return unpack_word(staging[mp::half_z_word(row, lane_of)]);
    }
    return zbuf[mp::z_slot(h, row, lane_of)];
  };
  int const t = lane;
  float const f = p.scale;
  // W_256^8 = W_32: row r + 8 from row r.
  float2 const step = __ldg(coarse + (1 << (kLogCoarse - 5)));
  if (g != 0 || t != 0) {
    // Every lane but group 0's lane 0: X[k] at sequence A_t, row r and X[M - k] at sequence
    // D0 - A_t, row 127 - r; W^k = W^(A_t) W_256^w W_32^i.
    auto const seq_a = static_cast<std::uint32_t>((g << mp::kLogGroup) + t);
    float2 wk = cmul(split_twiddle(seq_a, kLogM),
                     __ldg(coarse + (w << (kLogCoarse - mp::kLogLength - 1))));
    std::uint32_t* const xa = out + seq_a + (static_cast<std::uint32_t>(w) << kLogD0);
    std::uint32_t* const xb = out + (kM - seq_a) - (static_cast<std::uint32_t>(w) << kLogD0);
#pragma unroll
    for (int i = 0; i < mp::kLength / kP; ++i) {
      int const r = w + i * kP;
      float2 xk, xm;
      split_forward_pair(z_at(0, r, t), z_at(1, mp::kLength - 1 - r, t), wk, f, xk, xm);
      xa[static_cast<std::uint32_t>(i * kP) * kD0] = pack_word(xk);
      xb[-static_cast<int>(static_cast<std::uint32_t>(i * kP) * kD0)] = pack_word(xm);
      wk = cmul(wk, step);
    }
    return;
  }
  // Group 0's lane 0 (mirror_pass::pair_slot): sequence 0's rows r and 128 - r, sequence D0 / 2's
  // rows r' and 127 - r'.
  float2 const w_mid = split_twiddle(kD0 / 2, kLogM);
#pragma unroll 1
  for (int i = 0; i < mp::kLength / kP; ++i) {
    int const r = w + i * kP;
    mp::PairSlot const ps = mp::pair_slot(0, 0, r);
    float2 const za = z_at(ps.h_a, ps.row_a, 0);
    if (ps.ends) {
      float2 x0, xm;
      split_forward_ends(za, f, x0, xm);
      out[0] = pack_word(x0);
      out[kM] = pack_word(xm);
      out[kM / 2] = pack_word(split_forward_middle(z_at(0, mp::kLength / 2, 0), f));
      continue;
    }
    float2 const wk = cmul(ps.h_a == 0 ? make_float2(1.f, 0.f) : w_mid,
                           __ldg(coarse + (ps.row_a << (kLogCoarse - mp::kLogLength - 1))));
    float2 xk, xm;
    split_forward_pair(za, z_at(ps.h_b, ps.row_b, 0), wk, f, xk, xm);
    auto const k = (ps.h_a == 0 ? 0u : kD0 / 2) + (static_cast<std::uint32_t>(ps.row_a) << kLogD0);
    out[k] = pack_word(xk);
    out[kM - k] = pack_word(xm);
  }
}

template <int kLogD0, bool kHalfZa>
cudaError_t prepare_one() noexcept {
  return cudaFuncSetAttribute(mirror_pass_kernel<kLogD0, kHalfZa>,
                              cudaFuncAttributeMaxDynamicSharedMemorySize, mp::kSmemBytes);
}

template <int kLogD0>
cudaError_t prepare_length() noexcept {
  cudaError_t const e = prepare_one<kLogD0, true>();
  return e == cudaSuccess ? prepare_one<kLogD0, false>() : e;
}

template <int kLogD0>
cudaError_t launch_one(PassParams const& pass, void const* src, void* dst,
                       float2 const* coarse, cudaStream_t stream) noexcept {
  // FFTCORE_TC_MIRROR_ZA16=0: both groups' Z in FP32, two blocks per SM (A/B, read once).
  static bool const half_za = env_switch_on("FFTCORE_TC_MIRROR_ZA16");
  dim3 const grid(static_cast<unsigned>(pass.blocks));
  if (half_za) {
    return launch_chained(mirror_pass_kernel<kLogD0, true>, grid, dim3(mp::kThreads),
                          mp::kSmemBytes, stream, pass, src, dst, coarse);
  }
  return launch_chained(mirror_pass_kernel<kLogD0, false>, grid, dim3(mp::kThreads),
                        mp::kSmemBytes, stream, pass, src, dst, coarse);
}

}  // namespace

cudaError_t prepare_mirror_pass_kernels() noexcept {
  cudaError_t e = prepare_mirror_c2r_kernels();
  if (e == cudaSuccess) e = prepare_length<9>();
  if (e == cudaSuccess) e = prepare_length<10>();
  if (e == cudaSuccess) e = prepare_length<11>();
  if (e == cudaSuccess) e = prepare_length<12>();
  return e;
}

cudaError_t launch_mirror_pass(PassParams const& pass, void const* src, void* dst,
                               float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  if (!mp::eligible(pass) || inverse != mp::c2r(pass)) return cudaErrorInvalidValue;
  if (inverse) return launch_mirror_c2r(pass, src, dst, coarse, stream);
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
