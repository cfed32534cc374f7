// SPDX-License-Identifier: MIT
// The group pass: untwiddled FP16 passes of 512..4096 points over contiguous sequences
// (group_pass::eligible), each sequence on a group of L / 16 lanes holding 16 FP32 values each,
// three steps with two exchanges through the group's shared memory behind group-wide barriers
// (group_pass_layout.hpp has the maps and the reason); at 512 points by default its wide form,
// a radix-8 first step on two adjacent columns a lane, loaded as 8-byte words; at 1024..4096 its
// doubled form, 32 values a lane on groups of L / 32 lanes.
#include <cuda_fp16.h>

#include <cstdint>

#include "tc/cross_rows_layout.hpp"
#include "tc/group_pass_layout.hpp"
#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/l2_prefetch.cuh"
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

/// The longest passes the group pass takes on fast-DRAM devices (runs_group_pass): 1024 points.
constexpr int kFastDramMaxLogLength = 10;

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

/// Blocks of 256 threads a multiprocessor should hold in the doubled form: its exchange (8
/// groups of 1171 slots at 1024 points, 75 KB) fits three, and 24 warps allow 80 registers.
constexpr int kMinDoubledBlocks = 3;

constexpr int min_blocks(gp::Form form) {
  return form == gp::Form::kDoubled ? kMinDoubledBlocks : kMinBlocks;
}

/// kVectorStores: a lane's 16 / R3 adjacent outputs as one store (group_pass::aligned_outputs
/// and an aligned destination). kForm (group_pass_layout.hpp): the 16-point form; the wide form
/// (step 1 of radix 8 on two adjacent columns a lane, 8-byte loads; group_pass::wide_eligible
/// and an aligned source); the doubled form (32 values a lane: step 1 of radix 16 on two
/// adjacent columns, 8-byte loads, steps 2 and 3 for two 16-point-form lanes each;
/// group_pass::doubled_eligible and an aligned source).
/// kCross: the cross-row first stage of a 2-D column transform (cross_rows_layout.hpp; the
/// doubled form at 2048 points, four groups a block, whole tiles): the round's four rows are
/// rows m + (H / 4) g, their outputs are staged as FP16 words in the groups' exchange areas and
/// combined by a radix-4 across them, times W_H^(m k1) and p.cross_scale, into rows 4 m + k1.
template <int kLogL, bool kInverse, bool kVectorStores, gp::Form kForm, bool kCross = false>
__global__ void __launch_bounds__(1 << gp::kLogMaxThreads, min_blocks(kForm))
    group_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kLogV = gp::kLogValues;
  constexpr int kV = 1 << kLogV;
  constexpr bool kPairs = gp::log_step1_columns(kForm) == 1;  // two columns a lane in step 1
  constexpr int kShares = 1 << gp::log_shares(kForm);         // step-2/3 lanes a lane
  constexpr int kLogG = gp::log_group_lanes(kLogL, kForm);
  constexpr int kLogR1 = gp::log_first_radix(kForm);
  constexpr int kR1 = 1 << kLogR1;
  constexpr int kLogM = kLogL - kLogR1;  // M = L / R1 columns
  constexpr int kLogR3 = gp::log_last_radix(kLogL, kForm);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kLogC = kLogV - kLogR3;  // step 3's butterflies a lane, C = 16 / R3
  constexpr int kC = 1 << kLogC;
  constexpr int kS1 = gp::k1_stride(kLogL, kForm);
  constexpr int kS2 = gp::m2_stride(kLogL, kForm);
  constexpr int kS3 = gp::m3_stride(kLogL, kForm);
  // The doubled form's second share: step-2 lane l + G (k1 + G / R3), step-3 butterflies b + C G
  // (k1 the same, k2 + C G / R1).
  static_assert(kShares == 1 || ((kC << kLogG) & (kR1 - 1)) == 0);
  constexpr int kShare2 = ((1 << kLogG) >> kLogR3) * kS1;
  constexpr int kShare3 = ((kC << kLogG) >> kLogR1) * kS2;
  extern __shared__ float2 exchange[];  // group_slots a group

  int const tid = static_cast<int>(threadIdx.x);
  int const lane = tid & ((1 << kLogG) - 1);
  int const group = tid >> kLogG;
  float2* const xs = exchange + group * gp::group_slots(kLogL, kForm);
  // Each step's slots: a base per lane plus constants (group_pass_layout.hpp). Step 1: column m
  // = m3 + R3 m2 (lane m; the wide and doubled forms' lane l: m = 2 l and 2 l + 1, the second at
  // m3 + 1) writes k1 S1 past m3 S3 + m2 S2; step 2: lane (k1, m3) reads and writes m2 S2 past
  // k1 S1 + m3 S3; step 3: butterfly b = b0 + i (b0 = C step3_order(lane): k1 = b0 mod R1 + i,
  // k2 = b0 / R1) reads i S1 + m3 S3 past (b0 mod R1) S1 + k2 S2.
  int const m1 = kPairs ? 2 * lane : lane;  // the lane's (first) step-1 column
  int const m3_2 = gp::step2_m3(lane, kLogL, kForm);
  int const b0 = gp::step3_butterfly(lane, 0, kLogL, kForm);
  float2* const at1 = xs + (m1 & (kR3 - 1)) * kS3 + (m1 >> kLogR3) * kS2;
  float2* const at2 = xs + gp::step2_k1(lane, kLogL, kForm) * kS1 + m3_2 * kS3;
  float2* const at3 = xs + (b0 & (kR1 - 1)) * kS1 + (b0 >> kLogR1) * kS2;
  int const log_threads = gp::log_threads(p.log_tile, kLogL, kForm);
  BlockOrigin const o = block_origin(p, blockIdx.x);
  int const valid_t =
      static_cast<int>(min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << p.log_tile));
  auto const* in = opaque(static_cast<std::uint32_t const*>(src) + o.in_base);
  auto* out = opaque(static_cast<std::uint32_t*>(dst) + o.out_base);
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  static_assert(!kCross || (kForm == gp::Form::kDoubled && kLogL == cross_rows::kLogWidth &&
                            kVectorStores),
                "the cross stage: the doubled form's four groups at 2048 points");
  // Sequence t's input offset: t in_s0, or with the cross stage rows (t / 4) 4 in_s0 (= W) and
  // (t mod 4) cross_stride.
  auto const in_offset = [&](int t) -> std::uint32_t {
    if constexpr (kCross) {
      return (static_cast<std::uint32_t>(t) >> cross_rows::kLogRadix) *
                 (in_s0 << cross_rows::kLogRadix) +
             (static_cast<std::uint32_t>(t) & ((1u << cross_rows::kLogRadix) - 1)) *
                 static_cast<std::uint32_t>(p.cross_stride);
    } else {
      return static_cast<std::uint32_t>(t) * in_s0;
    }
  };
  // The cross stage's staging: each group's row as L FP16 words at the start of its own
  // exchange area (2 group_slots words), free once step 3 has read it.
  static_assert(!kCross || 2 * gp::group_slots(kLogL, kForm) >= (1 << kLogL));
  [[maybe_unused]] std::uint32_t held[kCross ? kR3 : 1][kC];  // the first share's words
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;

  // The twiddles' bases, one table entry each per thread: W_L^m1 (step 1; the second column's
  // W_L^(m1 + 1)) and W_M^m3 (step 2, the same for both shares: G is a multiple of R3); their
  // powers by FP32 products (at most 15 deep: a few 2^-24 relative, far below the FP16 output
  // rounding).
  float2 const w1 = __ldg(coarse + (m1 << (kLogCoarse - kLogL)));
  float2 const w1b = kPairs ? __ldg(coarse + ((m1 + 1) << (kLogCoarse - kLogL))) : w1;
  float2 const w2 = __ldg(coarse + (m3_2 << (kLogCoarse - kLogM)));

  int const rounds = 1 << gp::log_rounds(p.log_tile, kLogL, kForm);
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    int const t = gp::tile_sequence(r, group, log_threads, kLogL, kForm);
    if (t >= valid_t) break;  // the whole group: later rounds' sequences lie further on
    // The twiddles' powers are the same every round: opaque per round, or the compiler hoists
    // all 30 of them out of the loop into registers (they spilled ~140 bytes at 64).
    float2 u1 = w1, u1b = w1b, u2 = w2;
    float scale = p.scale;
    asm volatile(""
                 : "+f"(u1.x), "+f"(u1.y), "+f"(u1b.x), "+f"(u1b.y), "+f"(u2.x), "+f"(u2.y),
                   "+f"(scale));
    float2 a[kV];
    if constexpr (kPairs) {
      // Step 1: columns m1, m1 + 1 of rows n1 < R1 as one 8-byte word each (a warp's lanes on
      // 256 adjacent bytes); every load before any use.
      auto const* const pairs = reinterpret_cast<uint2 const*>(in + in_offset(t)) + lane;
      uint2 raw[kR1];
      if (p.l2_fetch_hint != 0) {
#pragma unroll
        for (int n1 = 0; n1 < kR1; ++n1) raw[n1] = load_fetching_256(pairs + (n1 << kLogG));
      } else {
#pragma unroll
        for (int n1 = 0; n1 < kR1; ++n1) raw[n1] = pairs[n1 << kLogG];  // M / 2 = G pairs a row
      }
      // Each column's R1-point DFT in turn (the doubled form's two 16-point ones together
      // spilled at 80 registers).
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        float2 e[kR1];
#pragma unroll
        for (int n1 = 0; n1 < kR1; ++n1)
          e[n1] = unpack_word((q == 0 ? raw[n1].x : raw[n1].y) ^ conj);
        dft_pow2<kLogR1>(e);  // e[bit_reverse(k1)] = DFT[k1]
        float2 const u = q == 0 ? u1 : u1b;
        float2 tw = make_float2(scale, 0.f);
#pragma unroll
        for (int k1 = 0; k1 < kR1; ++k1) {
          at1[k1 * kS1 + q * kS3] = cmul(e[bit_reverse<kLogR1>(k1)], tw);
          if (k1 + 1 < kR1) tw = cmul(tw, u);
        }
      }
    } else {
      // Step 1: x[m + M n1], a warp's lanes on adjacent words; every load before any use.
      std::uint32_t const* const seq =
          in + (static_cast<std::uint32_t>(t) * in_s0 + static_cast<std::uint32_t>(lane));
      std::uint32_t raw[kV];
      if (p.l2_fetch_hint != 0) {
#pragma unroll
        for (int n1 = 0; n1 < kV; ++n1) raw[n1] = load_fetching_256(seq + (n1 << kLogG));
      } else {
#pragma unroll
        for (int n1 = 0; n1 < kV; ++n1) raw[n1] = seq[n1 << kLogG];
      }
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
    for (int j = 0; j < kShares; ++j) {
      float2* const at = at2 + j * kShare2;
#pragma unroll
      for (int m2 = 0; m2 < kV; ++m2) a[m2] = at[m2 * kS2];
      dft_pow2<kLogV>(a);
      float2 tw = make_float2(1.f, 0.f);
#pragma unroll
      for (int k2 = 0; k2 < kV; ++k2) {
        float2 const v = a[bit_reverse<kLogV>(k2)];
        at[k2 * kS2] = k2 == 0 ? v : cmul(v, tw);
        if (k2 + 1 < kV) tw = k2 == 0 ? u2 : cmul(tw, u2);
      }
    }
    group_sync<kLogG>(group);
    // Step 3: butterflies b = k1 + R1 k2 = b0 + i (the second share's b0 + C G), R3 points each.
#pragma unroll
    for (int j = 0; j < kShares; ++j) {
      float2 c[kC][kR3];
#pragma unroll
      for (int i = 0; i < kC; ++i) {
#pragma unroll
        for (int m3 = 0; m3 < kR3; ++m3) c[i][m3] = at3[j * kShare3 + i * kS1 + m3 * kS3];
      }
      // After the last reads: the next round's step 1 overwrites these slots.
      if (j + 1 == kShares) group_sync<kLogG>(group);
      std::uint32_t* const to = out + (static_cast<std::uint32_t>(t) * out_s0 +
                                       static_cast<std::uint32_t>(b0 + (j << (kLogC + kLogG))));
#pragma unroll
      for (int i = 0; i < kC; ++i) dft_pow2<kLogR3>(c[i]);
#pragma unroll
      for (int k3 = 0; k3 < kR3; ++k3) {
        std::uint32_t w[kC];
        if constexpr (kCross) {
          // Staged as they are (the conjugation follows the cross stage) at X[b0 + i + 16 R1 k3]
          // of the group's row in its own exchange area: the first share's words held until
          // the second share's reads are behind the group's barrier, then both.
#pragma unroll
          for (int i = 0; i < kC; ++i) w[i] = pack_word(c[i][bit_reverse<kLogR3>(k3)]);
          if (j == 0) {
#pragma unroll
            for (int i = 0; i < kC; ++i) held[k3][i] = w[i];
          } else {
            auto* const words = reinterpret_cast<std::uint32_t*>(xs);
            std::uint32_t const at = b0 + (k3 << (kLogV + kLogR1));
            *reinterpret_cast<uint2*>(words + at) = make_uint2(held[k3][0], held[k3][1]);
            *reinterpret_cast<uint2*>(words + at + (j << (kLogC + kLogG))) = make_uint2(w[0], w[1]);
          }
        } else {
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
    if constexpr (kCross) {
      // The round's rows m + (H / 4) g staged: each thread combines columns 4 tid + 1024 h
      // (h < 2, four adjacent a time: 16-byte accesses, a warp on 512 adjacent bytes) of the
      // four, y_k1 = W_H^(m k1) s sum_g W_4^(g k1) row_g, and stores them to output sequence
      // 4 r + k1 (row 4 m + k1).
      static_assert(kC == 2 && kShares == 2 && kLogL - gp::kLogMaxThreads == 3,
                    "two shares, 8 columns a thread");
      __syncthreads();
      constexpr int kCols = 8;
      auto const column = [&](int h) { return (h << (kLogL - 1)) + 4 * tid; };
      int const m = static_cast<int>((o.d0 + t) >> cross_rows::kLogRadix) &
                    ((1 << cross_rows::kLogSubLength) - 1);
      float2 tw[4];
      tw[0] = make_float2(p.cross_scale, 0.f);
#pragma unroll
      for (int k1 = 1; k1 < 4; ++k1) {
        int const e = (m * k1) & ((1 << cross_rows::kLogHeight) - 1);
        tw[k1] = cscale(__ldg(coarse + (e << (kLogCoarse - cross_rows::kLogHeight))),
                        p.cross_scale);
      }
#pragma unroll
      for (int h = 0; h < kCols / 4; ++h) {
        uint4 v[4];
#pragma unroll
        for (int g = 0; g < 4; ++g) {
          // 8-byte reads: a group's area starts on 8 bytes only (group_slots may be odd).
          auto const* const pair = reinterpret_cast<uint2 const*>(
              exchange + g * gp::group_slots(kLogL, kForm) + (column(h) >> 1));
          uint2 const lo = pair[0], hi = pair[1];
          v[g] = make_uint4(lo.x, lo.y, hi.x, hi.y);
        }
        std::uint32_t y[4][4];
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          float2 x[4];
#pragma unroll
          for (int g = 0; g < 4; ++g) {
            std::uint32_t const word = q == 0 ? v[g].x : q == 1 ? v[g].y : q == 2 ? v[g].z : v[g].w;
            x[g] = unpack_word(word);
          }
          // DFT_4 over g (W_4 = -i): s02 = x0 + x2, d02 = x0 - x2, s13 = x1 + x3, d13 = x1 - x3.
          float2 const s02 = make_float2(x[0].x + x[2].x, x[0].y + x[2].y);
          float2 const d02 = make_float2(x[0].x - x[2].x, x[0].y - x[2].y);
          float2 const s13 = make_float2(x[1].x + x[3].x, x[1].y + x[3].y);
          float2 const d13 = make_float2(x[1].x - x[3].x, x[1].y - x[3].y);
          float2 const z[4] = {make_float2(s02.x + s13.x, s02.y + s13.y),
                               make_float2(d02.x + d13.y, d02.y - d13.x),  // d02 - i d13
                               make_float2(s02.x - s13.x, s02.y - s13.y),
                               make_float2(d02.x - d13.y, d02.y + d13.x)};  // d02 + i d13
#pragma unroll
          for (int k1 = 0; k1 < 4; ++k1) y[k1][q] = pack_word(cmul(z[k1], tw[k1])) ^ conj;
        }
#pragma unroll
        for (int k1 = 0; k1 < 4; ++k1) {
          std::uint32_t* const row = out + static_cast<std::uint32_t>((t & ~3) + k1) * out_s0;
          *reinterpret_cast<uint4*>(row + column(h)) =
              make_uint4(y[k1][0], y[k1][1], y[k1][2], y[k1][3]);
        }
      }
      __syncthreads();  // the staging read before the next round's step 1 writes there
    }
  }
}

/// log2 of the launch's tile over the planner's (group_pass::default_log_tile_factor, lowered by
/// fitted_tile_factor for small batches): FFTCORE_TC_GROUP_ROUNDS=r (0..kMaxLogTileFactor) sets
/// it for every form and batch (A/B). H100, ms per 2^28 elements: 16-point form, two runs each in
/// one call (NOTES.md session 32), one / two / four / eight rounds: 2^10 0.774-0.775 /
/// 0.768-0.770 / 0.766-0.774 / 0.764-0.776, 2^11 0.782-0.784 / 0.777-0.779 / 0.773-0.780 /
/// 0.769-0.777, 512x512 1.676-1.680 / 1.671-1.672 / 1.678-1.687 / 1.684-1.697; the wide form at
/// 512 points (session 34), two / four rounds: 2^9 0.749-0.755 / 0.740-0.748 (six runs each over
/// two calls), 512x512 1.654-1.668 / 1.648-1.654 (three runs each); the doubled form (session
/// 34), one round (three runs, one call) / two (six runs, two later calls): 2^10 0.780-0.791 /
/// 0.752-0.759, 2^11 0.783-0.790 / 0.761-0.772, 2^12 0.788-0.803 / 0.787-0.798; (session 35,
/// three runs each in one call) two / four: 2^10 0.751-0.761 / 0.743-0.747, 2^11 0.761-0.771 /
/// 0.754-0.761, 2^12 0.789-0.797 / 0.781-0.789, 1024x1024 1.784-1.787 / 1.758-1.781, 2048x2048
/// 1.886-1.898 / 1.875-1.890, 4096x4096 1.883-1.905 / 1.877-1.884.
/// The cross-row stage (kCross) on fast-DRAM devices takes two rounds a block (factor 1): the
/// H200, 2048x2048, two runs each in one call (NOTES.md session 38), factor 0 / 1 / 2 / 3 (the
/// default elsewhere): 1.511-1.517 / 1.513-1.517 / 1.523-1.529 / 1.559-1.568 ms.
template <gp::Form kForm, bool kCross = false>
int log_tile_factor(PassParams const& pass) noexcept {
  static int const forced = env_int("FFTCORE_TC_GROUP_ROUNDS", -1);
  if (forced >= 0 && forced <= gp::kMaxLogTileFactor) return forced;
  int const wanted = kCross && fast_dram_device() ? 1 : gp::default_log_tile_factor(kForm);
  return gp::fitted_tile_factor(pass, wanted);
}

/// Whether step 1 loads with the 256-byte L2 fetch hint (load_fetching_256):
/// FFTCORE_TC_GROUP_L2_HINT (env_mode) 0 never, 3 in every form at every length (A/B); by
/// default in the 16-point form from 1024 points, where a warp's load covers half a 256-byte
/// row or less and measured faster with it (H100, ms per 2^28 elements, three runs each in one
/// call, NOTES.md session 34, without / with: 2^10 0.771-0.779 / 0.754-0.757, 2^11 0.777-0.785
/// / 0.764-0.765, 2^12 0.803-0.810 / 0.785-0.794); not in the wide and doubled forms, whose
/// 8-byte loads cover 256 bytes a warp (the doubled form with one round a block, with it: 2^10
/// 0.785-0.792; without it, in an earlier call: 0.780-0.791).
bool fetches_256(gp::Form form, int log_l) noexcept {
  static int const mode = env_mode("FFTCORE_TC_GROUP_L2_HINT");
  return mode == 3 || (mode == 1 && form == gp::Form::kSixteen && log_l >= 10);
}

/// kCross (cross_rows_layout.hpp): tiles of at least one round of the block's four groups, and
/// only whole tiles (cudaErrorNotSupported otherwise: the executor runs the plan's own passes).
template <int kLogL, bool kVectorStores, gp::Form kForm, bool kCross = false>
cudaError_t launch_kind(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                        bool inverse, cudaStream_t stream) noexcept {
  int log_tile = pass.log_tile + log_tile_factor<kForm, kCross>(pass);
  if constexpr (kCross) log_tile = max(log_tile, cross_rows::kLogRadix);
  PassParams run = log_tile != pass.log_tile ? retiled(pass, log_tile) : pass;
  run.l2_fetch_hint = fetches_256(kForm, kLogL) ? 1 : 0;
  if constexpr (kCross) {
    if (gp::log_threads(run.log_tile, kLogL, kForm) != gp::kLogMaxThreads ||
        run.extent[0] % (std::int64_t{1} << run.log_tile) != 0) {
      return cudaErrorNotSupported;
    }
  }
  dim3 const grid(static_cast<unsigned>(run.blocks));
  unsigned const threads = 1u << static_cast<unsigned>(gp::log_threads(run.log_tile, kLogL, kForm));
  std::size_t const smem = (std::size_t{threads} >> gp::log_group_lanes(kLogL, kForm)) *
                           gp::group_slots(kLogL, kForm) * sizeof(float2);
  if (inverse) {
    return launch_chained(group_pass_kernel<kLogL, true, kVectorStores, kForm, kCross>, grid,
                          dim3(threads), smem, stream, run, src, dst, coarse);
  }
  return launch_chained(group_pass_kernel<kLogL, false, kVectorStores, kForm, kCross>, grid,
                        dim3(threads), smem, stream, run, src, dst, coarse);
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

/// Whether the doubled form runs `pass` from `src` (group_pass::doubled_eligible and a source on
/// an 8-byte boundary). FFTCORE_TC_GROUP_DOUBLED (env_mode): 0 never (the 16-point form), else
/// wherever it can (1024..4096 points; the wide form, where it runs, comes first): with two
/// rounds a block it measured as fast as the 16-point form with the 256-byte hint or faster, and
/// faster than the Stockham pass (H100, ms per 2^28 elements, three runs each in one call,
/// NOTES.md session 34, doubled / 16-point with the hint / Stockham: 2^10 0.754-0.759 /
/// 0.754-0.801 / 0.764-0.772, 2^11 0.762-0.772 / 0.767-0.771 / -, 2^12 0.787-0.798 /
/// 0.786-0.793 / 0.795-0.806, 1024x1024 1.770-1.781 / 1.768-1.795 / 1.797-1.798; 2048x2048 and
/// 4096x4096 within 1 %).
bool runs_doubled(PassParams const& pass, void const* src) noexcept {
  static int const mode = env_mode("FFTCORE_TC_GROUP_DOUBLED");
  return mode != 0 && gp::doubled_eligible(pass) && reinterpret_cast<std::uintptr_t>(src) % 8 == 0;
}

template <int kLogL, bool kVectorStores>
cudaError_t launch_form(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                        bool inverse, cudaStream_t stream) noexcept {
  if constexpr (kLogL <= gp::kMaxWideLogLength) {
    if (runs_wide(pass, src)) {
      return launch_kind<kLogL, kVectorStores, gp::Form::kWide>(pass, src, dst, coarse, inverse,
                                                                stream);
    }
  }
  if constexpr (kLogL >= gp::kMinDoubledLogLength) {
    if (runs_doubled(pass, src)) {
      return launch_kind<kLogL, kVectorStores, gp::Form::kDoubled>(pass, src, dst, coarse, inverse,
                                                                   stream);
    }
  }
  return launch_kind<kLogL, kVectorStores, gp::Form::kSixteen>(pass, src, dst, coarse, inverse,
                                                               stream);
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
  return vector ? launch_form<kLogL, true>(pass, src, dst, coarse, inverse, stream)
                : launch_form<kLogL, false>(pass, src, dst, coarse, inverse, stream);
}

template <int kLogL, gp::Form kForm, bool kCross = false>
cudaError_t prepare_form() noexcept {
  // The blocks' exchange (up to 49.6 KiB at 512 points, 75 KB in the doubled form) past the
  // default 48 KiB, and the largest carve-out, so that min_blocks blocks fit. The cross stage's
  // kernels stage their rows in the same areas; they have vector stores only (the other form
  // fails their static_assert), so with kCross the first two entries repeat the last two.
  int const smem = static_cast<int>(
      (std::size_t{1} << (gp::kLogMaxThreads - gp::log_group_lanes(kLogL, kForm))) *
      gp::group_slots(kLogL, kForm) * sizeof(float2));
  cudaError_t e = cudaSuccess;
  for (auto const kernel : {group_pass_kernel<kLogL, false, kCross, kForm, kCross>,
                            group_pass_kernel<kLogL, true, kCross, kForm, kCross>,
                            group_pass_kernel<kLogL, false, true, kForm, kCross>,
                            group_pass_kernel<kLogL, true, true, kForm, kCross>}) {
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
  cudaError_t e = prepare_form<kLogL, gp::Form::kSixteen>();
  if constexpr (kLogL <= gp::kMaxWideLogLength) {
    if (e == cudaSuccess) e = prepare_form<kLogL, gp::Form::kWide>();
  }
  if constexpr (kLogL >= gp::kMinDoubledLogLength) {
    if (e == cudaSuccess) e = prepare_form<kLogL, gp::Form::kDoubled>();
  }
  return e;
}

}  // namespace

cudaError_t prepare_group_pass_kernels() noexcept {
  cudaError_t e = prepare_length<9>();
  if (e == cudaSuccess) e = prepare_length<10>();
  if (e == cudaSuccess) e = prepare_length<11>();
  if (e == cudaSuccess) e = prepare_form<cross_rows::kLogWidth, gp::Form::kDoubled, true>();
  return e == cudaSuccess ? prepare_length<12>() : e;
}

/// FFTCORE_TC_CROSS_ROWS (env_mode; read once): by default runs out-of-place 2048 x 2048 C2C
/// images with the cross-row stage (cross_rows_layout.hpp) where cross_rows::eligible takes the
/// plan's pair; 0 runs the plan's two passes (the A/B switch). H100, ms per 2^28 elements
/// (NOTES.md sessions 36 and 37), off / on: 2048x2048 1.871-1.889 / 1.768-1.785, relative L2
/// error 0.174-0.175x / 0.196-0.199x cuFFT FP16's (one FP16 rounding more).
bool runs_cross_rows(PassParams const& rows, PassParams const& cols) noexcept {
  static int const mode = env_mode("FFTCORE_TC_CROSS_ROWS");
  return mode != 0 && cross_rows::eligible(rows, cols);
}

cudaError_t launch_cross_rows(PassParams const& pass, void const* src, void* dst,
                              float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  // The doubled form's 8-byte loads and the cross stage's 16-byte stores.
  if (reinterpret_cast<std::uintptr_t>(src) % 8 != 0 ||
      reinterpret_cast<std::uintptr_t>(dst) % 16 != 0 || pass.cross_stride == 0 ||
      pass.log_length != cross_rows::kLogWidth) {
    return cudaErrorNotSupported;
  }
  return launch_kind<cross_rows::kLogWidth, true, gp::Form::kDoubled, true>(pass, src, dst, coarse,
                                                                            inverse, stream);
}

/// FFTCORE_TC_GROUP_PASS (env_mode; read once): 0 leaves these passes to the Stockham pass;
/// else the group pass takes every one it can (512..4096 points). Session 32 gave it the 512-
/// and 2048-point ones only (its 16-point form at 1024 and 4096 measured no faster than the
/// Stockham pass: 2^10 0.775-0.777 / 0.761-0.762, 2^12 0.795-0.796 / 0.794-0.802, 4096x4096
/// 1.912-1.914 / 1.892-1.897); with the doubled form at 1024..4096 it measured faster at 1024
/// and 4096 too (runs_doubled).
/// On fast-DRAM devices (fast_dram_device: the H200) the Stockham pass takes the 2048- and
/// 4096-point passes (mode 3 keeps them here): the H200, ms per 2^28 elements, two runs each
/// in one call (NOTES.md session 38), group / Stockham: 2^11 0.627-0.632 / 0.581-0.586, 2^12
/// 0.666-0.670 / 0.590-0.593, 4096x4096 1.665-1.668 / 1.596-1.604; 2^9 and 2^10 stay here
/// (2^10 0.597-0.601 / 0.621-0.624). ncu there at 2^12: both run ~460 M instructions at 75-78 %
/// of the SM's issue rate; the group pass issues one instruction a warp every 7.7 cycles at 36 %
/// occupancy, the Stockham pass every 4.4 at 22 %.
bool runs_group_pass(PassParams const& pass) noexcept {
  static int const mode = env_mode("FFTCORE_TC_GROUP_PASS");
  if (mode == 0 || !gp::eligible(pass)) return false;
  return mode == 3 || pass.log_length <= kFastDramMaxLogLength || !fast_dram_device();
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
