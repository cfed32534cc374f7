// SPDX-License-Identifier: MIT
// The group pass: untwiddled FP16 passes of 512..4096 points over contiguous sequences
// (group_pass::eligible), each sequence on a group of L / 16 lanes holding 16 FP32 values each,
// three steps with two exchanges through the group's shared memory behind group-wide barriers
// (group_pass_layout.hpp has the maps and the reason); at 512 points by default its wide form,
// a radix-8 first step on two adjacent columns a lane, loaded as 8-byte words.
#include <cuda_fp16.h>

#include <cstdint>

#include "tc/group_pass_layout.hpp"
#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/plan_logic.hpp"

namespace fftcore::detail::tc {
namespace {

namespace gp = group_pass;

/// Blocks of 256 threads a multiprocessor should hold (__launch_bounds__): at most 64 registers
/// a thread, 32 warps an SM (the Stockham pass holds 16-20). The next round's words loaded
/// during this round's steps instead (80 registers, 3 blocks) measured slower at every length
/// (H100, ms per 2^28 elements, same call, NOTES.md session 32): 2^10 0.807-0.808 against
/// 0.775-0.777, 2^12 0.840-0.844 against 0.795-0.796.
constexpr int kMinBlocks = 4;

/// The barrier of a group of 2^kLogG lanes: the warp's for one warp, else named barrier 1 +
/// the group's index in the block (bar.sync counts threads; barrier 0 is __syncthreads').
template <int kLogG>
__device__ __forceinline__ void group_sync(int group) {
  if constexpr (kLogG <= 5) {
    __syncwarp();
  } else {
    asm volatile("bar.sync %0, %1;" ::"r"(group + 1), "n"(1 << kLogG) : "memory");
  }
}

/// kVectorStores: a lane's 16 / R3 adjacent outputs as one store (group_pass::aligned_outputs
/// and an aligned destination). kWide: the wide form (group_pass_layout.hpp: step 1 of radix 8
/// on two adjacent columns a lane, 8-byte loads; group_pass::wide_eligible and an aligned
/// source).
template <int kLogL, bool kInverse, bool kVectorStores, bool kWide>
__global__ void __launch_bounds__(1 << gp::kLogMaxThreads, kMinBlocks)
    group_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogV = gp::kLogValues;
  constexpr int kV = 1 << kLogV;
  constexpr int kLogG = gp::log_group_lanes(kLogL);
  constexpr int kLogR1 = gp::log_first_radix(kWide);
  constexpr int kR1 = 1 << kLogR1;
  constexpr int kLogM = kLogL - kLogR1;  // M = L / R1 columns
  constexpr int kLogR3 = gp::log_last_radix(kLogL, kWide);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kLogC = kLogV - kLogR3;  // step 3's butterflies a lane, C = 16 / R3
  constexpr int kC = 1 << kLogC;
  constexpr int kS1 = gp::k1_stride(kLogL, kWide);
  constexpr int kS2 = gp::m2_stride(kLogL, kWide);
  constexpr int kS3 = gp::m3_stride(kLogL, kWide);
  extern __shared__ float2 exchange[];  // group_slots a group

  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid & ((1 << kLogG) - 1);
  int const group = tid >> kLogG;
  float2* const xs = exchange + group * gp::group_slots(kLogL, kWide);
  // Each step's slots: a base per lane plus constants (group_pass_layout.hpp). Step 1: column m
  // = m3 + R3 m2 (lane m; the wide form's lane l: m = 2 l and 2 l + 1, the second at m3 + 1)
  // writes k1 S1 past m3 S3 + m2 S2; step 2: lane (k1, m3) reads and writes m2 S2 past k1 S1 +
  // m3 S3; step 3: butterfly b = b0 + i (b0 = C step3_order(lane): k1 = b0 mod R1 + i, k2 = b0 /
  // R1) reads i S1 + m3 S3 past (b0 mod R1) S1 + k2 S2.
  int const m1 = kWide ? 2 * lane : lane;  // the lane's (first) step-1 column
  int const m3_2 = gp::step2_m3(lane, kLogL, kWide);
  int const b0 = gp::step3_butterfly(lane, 0, kLogL, kWide);
  float2* const at1 = xs + (m1 & (kR3 - 1)) * kS3 + (m1 >> kLogR3) * kS2;
  float2* const at2 = xs + gp::step2_k1(lane, kLogL, kWide) * kS1 + m3_2 * kS3;
  float2* const at3 = xs + (b0 & (kR1 - 1)) * kS1 + (b0 >> kLogR1) * kS2;
  int const log_threads = gp::log_threads(p.log_tile, kLogL);
  BlockOrigin const o = block_origin(p, blockIdx.x);
  int const valid_t =
      static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << p.log_tile));
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + o.in_base);
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + o.out_base);
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;

  // The twiddles' bases, one table entry each per thread: W_L^m1 (step 1; the wide form's
  // second column W_L^(m1 + 1)) and W_M^m3 (step 2); their powers by FP32 products (at most 15
  // deep: a few 2^-24 relative, far below the FP16 output rounding).
  float2 const w1 = __ldg(coarse + (m1 << (kLogCoarse - kLogL)));
  float2 const w1b = kWide ? __ldg(coarse + ((m1 + 1) << (kLogCoarse - kLogL))) : w1;
  float2 const w2 = __ldg(coarse + (m3_2 << (kLogCoarse - kLogM)));

  int const rounds = 1 << gp::log_rounds(p.log_tile, kLogL);
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    int const t = gp::tile_sequence(r, group, log_threads, kLogL);
    if (t >= valid_t) break;  // the whole group: later rounds' sequences lie further on
    // The twiddles' powers are the same every round: opaque per round, or the compiler hoists
    // all 30 of them out of the loop into registers (they spilled ~140 bytes at 64).
    float2 u1 = w1, u1b = w1b, u2 = w2;
    float scale = p.scale;
    asm volatile(""
                 : "+f"(u1.x), "+f"(u1.y), "+f"(u1b.x), "+f"(u1b.y), "+f"(u2.x), "+f"(u2.y),
                   "+f"(scale));
    float2 a[kV];
    if constexpr (kWide) {
      // Step 1: columns m1, m1 + 1 of rows n1 < 8 as one 8-byte word each (a warp's lanes on
      // 256 adjacent bytes); every load before any use.
      auto const* const pairs =
          reinterpret_cast<uint2 const*>(in + static_cast<std::uint32_t>(t) * in_s0) + lane;
      uint2 raw[kR1];
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) raw[n1] = pairs[n1 << kLogG];  // M / 2 = G pairs a row
      float2 e[kR1], f[kR1];
#pragma unroll
      for (int n1 = 0; n1 < kR1; ++n1) {
        e[n1] = unpack_word(raw[n1].x ^ conj);
        f[n1] = unpack_word(raw[n1].y ^ conj);
      }
      dft_pow2<kLogR1>(e);  // e[bit_reverse(k1)] = DFT[k1]
      dft_pow2<kLogR1>(f);
      float2 te = make_float2(scale, 0.f), tf = te;
#pragma unroll
      for (int k1 = 0; k1 < kR1; ++k1) {
        at1[k1 * kS1] = cmul(e[bit_reverse<kLogR1>(k1)], te);
        at1[k1 * kS1 + kS3] = cmul(f[bit_reverse<kLogR1>(k1)], tf);
        if (k1 + 1 < kR1) {
          te = cmul(te, u1);
          tf = cmul(tf, u1b);
        }
      }
    } else {
      // Step 1: x[m + M n1], a warp's lanes on adjacent words; every load before any use.
      std::uint32_t const* const seq =
          in + (static_cast<std::uint32_t>(t) * in_s0 + static_cast<std::uint32_t>(lane));
      std::uint32_t raw[kV];
#pragma unroll
      for (int n1 = 0; n1 < kV; ++n1) raw[n1] = seq[n1 << kLogG];
#pragma unroll
      for (int n1 = 0; n1 < kV; ++n1) a[n1] = unpack_word(raw[n1] ^ conj);
      dft_pow2<kLogV>(a);  // a[bit_reverse(k1)] = DFT[k1]
      float2 tw = make_float2(scale, 0.f);
#pragma unroll
      for (int k1 = 0; k1 < kV; ++k1) {
        at1[k1 * kS1] = cmul(a[bit_reverse<kLogV>(k1)], tw);
        if (k1 + 1 < kV) tw = cmul(tw, u1);
      }
    }
    group_sync<kLogG>(group);
    // Step 2: A[k1][m3 + R3 m2] over m2, written back as B[k1][k2][m3] into the same slots.
#pragma unroll
    for (int m2 = 0; m2 < kV; ++m2) a[m2] = at2[m2 * kS2];
    dft_pow2<kLogV>(a);
    float2 tw = make_float2(1.f, 0.f);
#pragma unroll
    for (int k2 = 0; k2 < kV; ++k2) {
      float2 const v = a[bit_reverse<kLogV>(k2)];
      at2[k2 * kS2] = k2 == 0 ? v : cmul(v, tw);
      if (k2 + 1 < kV) tw = k2 == 0 ? u2 : cmul(tw, u2);
    }
    group_sync<kLogG>(group);
    // Step 3: butterflies b = k1 + R1 k2 = b0 + i, R3 points each.
    float2 c[kC][kR3];
#pragma unroll
    for (int i = 0; i < kC; ++i) {
#pragma unroll
      for (int m3 = 0; m3 < kR3; ++m3) c[i][m3] = at3[i * kS1 + m3 * kS3];
    }
    group_sync<kLogG>(group);  // the next round's step 1 overwrites these slots
    std::uint32_t* const to =
        out + (static_cast<std::uint32_t>(t) * out_s0 + static_cast<std::uint32_t>(b0));
#pragma unroll
    for (int i = 0; i < kC; ++i) dft_pow2<kLogR3>(c[i]);
#pragma unroll
    for (int k3 = 0; k3 < kR3; ++k3) {
      std::uint32_t w[kC];
#pragma unroll
      for (int i = 0; i < kC; ++i) w[i] = pack_word(c[i][bit_reverse<kLogR3>(k3)]) ^ conj;
      std::uint32_t* const at = to + (k3 << (kLogV + kLogR1));  // X[b0 + i + 16 R1 k3]
      if constexpr (kVectorStores && kC == 2) {
        *reinterpret_cast<uint2*>(at) = make_uint2(w[0], w[1]);
      } else if constexpr (kVectorStores && kC == 4) {
        *reinterpret_cast<uint4*>(at) = make_uint4(w[0], w[1], w[2], w[3]);
      } else if constexpr (kVectorStores && kC == 8) {
        reinterpret_cast<uint4*>(at)[0] = make_uint4(w[0], w[1], w[2], w[3]);
        reinterpret_cast<uint4*>(at)[1] = make_uint4(w[4], w[5], w[6], w[7]);
      } else {
#pragma unroll
        for (int i = 0; i < kC; ++i) at[i] = w[i];
      }
    }
  }
}

template <int kLogL, bool kVectorStores, bool kWide>
cudaError_t launch_kind(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                        bool inverse, cudaStream_t stream) noexcept {
  dim3 const grid(static_cast<unsigned>(pass.blocks));
  unsigned const threads = 1u << static_cast<unsigned>(gp::log_threads(pass.log_tile, kLogL));
  std::size_t const smem = (std::size_t{threads} >> gp::log_group_lanes(kLogL)) *
                           gp::group_slots(kLogL, kWide) * sizeof(float2);
  if (inverse) {
    return launch_chained(group_pass_kernel<kLogL, true, kVectorStores, kWide>, grid, dim3(threads),
                          smem, stream, pass, src, dst, coarse);
  }
  return launch_chained(group_pass_kernel<kLogL, false, kVectorStores, kWide>, grid, dim3(threads),
                        smem, stream, pass, src, dst, coarse);
}

/// Whether the wide form runs `pass` from `src` (group_pass::wide_eligible and a source on an
/// 8-byte boundary). FFTCORE_TC_GROUP_WIDE (env_mode): 0 never, 3 at every length it can (A/B);
/// by default at 512 points, where it measured faster than the 16-point first step, and not at
/// 1024 (step 3's two-way bank conflicts) or 2048 (4-byte stores). H100, ms per 2^28 elements,
/// three runs each in one call (NOTES.md session 33), wide / 16-point first step / Stockham
/// pass: 2^9 0.751-0.755 / 0.770-0.785 / 0.771-0.775, 512x512 1.652-1.660 / 1.675-1.686 /
/// 1.682-1.688; 2^10 0.778-0.783 / 0.769-0.783 / 0.761-0.772, 2^11 0.784-0.790 / 0.779-0.794 /
/// 0.797-0.803.
bool runs_wide(PassParams const& pass, void const* src) noexcept {
  static int const mode = env_mode("FFTCORE_TC_GROUP_WIDE");
  bool const preferred = mode == 3 || (mode == 1 && pass.log_length == gp::kMinLogLength);
  return preferred && gp::wide_eligible(pass) && reinterpret_cast<std::uintptr_t>(src) % 8 == 0;
}

template <int kLogL, bool kVectorStores>
cudaError_t launch_form(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                        bool inverse, cudaStream_t stream) noexcept {
  if constexpr (kLogL <= gp::kMaxWideLogLength) {
    if (runs_wide(pass, src)) {
      return launch_kind<kLogL, kVectorStores, true>(pass, src, dst, coarse, inverse, stream);
    }
  }
  return launch_kind<kLogL, kVectorStores, false>(pass, src, dst, coarse, inverse, stream);
}

template <int kLogL>
cudaError_t launch_length(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                          bool inverse, cudaStream_t stream) noexcept {
  // Vector stores need each lane's C outputs on a 4 C-byte boundary: output strides that are
  // multiples of C (aligned_outputs) and a destination aligned to that (the API asks for 4).
  constexpr std::uintptr_t kBytes = std::uintptr_t{4}
                                    << (gp::kLogValues - gp::log_last_radix(kLogL));
  bool const vector =
      gp::aligned_outputs(pass) && reinterpret_cast<std::uintptr_t>(dst) % kBytes == 0;
  // Tiles of twice the planner's sequences (2^12 elements: one round of 256 threads), so that
  // each block takes two rounds (FFTCORE_TC_GROUP_ROUNDS=r: 2^r, r = 0..3, A/B). H100, ms per
  // 2^28 elements, two runs each in one call (NOTES.md session 32), one / two / four / eight
  // rounds: 2^10 0.774-0.775 / 0.768-0.770 / 0.766-0.774 / 0.764-0.776, 2^11 0.782-0.784 /
  // 0.777-0.779 / 0.773-0.780 / 0.769-0.777, 512x512 1.676-1.680 / 1.671-1.672 / 1.678-1.687
  // / 1.684-1.697, 2^9 and 2^12 the same within 0.5 %.
  static int const log_rounds = env_int("FFTCORE_TC_GROUP_ROUNDS", 1);
  PassParams const tiled =
      log_rounds > 0 && log_rounds <= 3 ? retiled(pass, pass.log_tile + log_rounds) : pass;
  return vector ? launch_form<kLogL, true>(tiled, src, dst, coarse, inverse, stream)
                : launch_form<kLogL, false>(tiled, src, dst, coarse, inverse, stream);
}

template <int kLogL, bool kWide>
cudaError_t prepare_form() noexcept {
  // The blocks' exchange (up to 49.6 KiB at 512 points) past the default 48 KiB, and the
  // largest carve-out, so that kMinBlocks blocks fit.
  int const smem =
      static_cast<int>((std::size_t{1} << (gp::kLogMaxThreads - gp::log_group_lanes(kLogL))) *
                       gp::group_slots(kLogL, kWide) * sizeof(float2));
  cudaError_t e = cudaSuccess;
  for (auto const kernel :
       {group_pass_kernel<kLogL, false, false, kWide>, group_pass_kernel<kLogL, true, false, kWide>,
        group_pass_kernel<kLogL, false, true, kWide>,
        group_pass_kernel<kLogL, true, true, kWide>}) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    }
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
    }
  }
  return e;
}

template <int kLogL>
cudaError_t prepare_length() noexcept {
  cudaError_t const e = prepare_form<kLogL, false>();
  if constexpr (kLogL <= gp::kMaxWideLogLength) {
    if (e == cudaSuccess) return prepare_form<kLogL, true>();
  }
  return e;
}

}  // namespace

cudaError_t prepare_group_pass_kernels() noexcept {
  cudaError_t e = prepare_length<9>();
  if (e == cudaSuccess) e = prepare_length<10>();
  if (e == cudaSuccess) e = prepare_length<11>();
  return e == cudaSuccess ? prepare_length<12>() : e;
}

/// FFTCORE_TC_GROUP_PASS (env_mode; read once): 0 leaves these passes to the Stockham pass, 3
/// hands the group pass every one it can take (A/B). By default the 512- and 2048-point ones,
/// where it measured faster than the Stockham pass in two runs each (H100, ms per 2^28
/// elements, one call, NOTES.md session 32, group / Stockham): 2^9 0.766 / 0.770, 2^11
/// 0.783-0.784 / 0.797-0.800, 512x512 (its rows) 1.669-1.671 / 1.679-1.683; but 2^10
/// 0.775-0.777 / 0.761-0.762, 2^12 0.795-0.796 / 0.794-0.802, 4096x4096 1.912-1.914 /
/// 1.892-1.897 (1024x1024 and 2048x2048 within noise: 1.815-1.832 / 1.819-1.826,
/// 1.901-1.940 / 1.926-1.928).
bool runs_group_pass(PassParams const& pass) noexcept {
  static int const mode = env_mode("FFTCORE_TC_GROUP_PASS");
  bool const preferred =
      mode == 3 || (mode == 1 && (pass.log_length == 9 || pass.log_length == 11));
  return preferred && gp::eligible(pass);
}

cudaError_t launch_group_pass(PassParams const& pass, void const* src, void* dst,
                              float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  switch (pass.log_length) {
    case 9:
      return launch_length<9>(pass, src, dst, coarse, inverse, stream);
    case 10:
      return launch_length<10>(pass, src, dst, coarse, inverse, stream);
    case 11:
      return launch_length<11>(pass, src, dst, coarse, inverse, stream);
    case 12:
      return launch_length<12>(pass, src, dst, coarse, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
