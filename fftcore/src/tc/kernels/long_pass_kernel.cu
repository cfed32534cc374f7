// SPDX-License-Identifier: MIT
// The long pass: untwiddled FP16 passes of 32768 points over contiguous sequences
// (long_pass::eligible), one sequence per 512-thread block at a time, kept in shared memory as
// FP16 words between three in-place radix-32 stages computed in FP32 registers
// (long_pass_layout.hpp has the maps and the reason), with the load and store hooks.
#include <cuda_fp16.h>

#include <atomic>
#include <cmath>
#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/cluster.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/l2_prefetch.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/long_pass_layout.hpp"
#include "tc/real_split.hpp"

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

/// Stage 2's table W_1024^(b0 k2) s3, entry k2 * 32 + b0.
__device__ __forceinline__ void fill_table(float2* table, float2 const* coarse, float s3, int j) {
  constexpr int kR = lp::kRadix;
  for (int e = j; e < kTableEntries; e += lp::kThreads) {  // [k2][b0]
    int const k2 = e >> lp::kLogRadix, b0 = e & (kR - 1);
    table[e] = cscale(__ldg(coarse + (((b0 * k2) & (kTableEntries - 1)) << (kLogCoarse - 10))), s3);
  }
}

/// Stage 1 of butterfly b on its inputs a[m] = x[b + 1024 m]: writes W_N^(b k1) t0 DFT[k1] to
/// position b + 1024 k1 (t0: s3, or for the split's odd half s3 W_2N^b).
__device__ __forceinline__ void stage1_butterfly(std::uint32_t* words, float2 const* coarse, int b,
                                                 float2 t0, float2 (&a)[lp::kRadix]) {
  constexpr int kR = lp::kRadix;
  dft_pow2<lp::kLogRadix>(a);  // a[bit_reverse(k)] = DFT[k]
  float2 const w = w_2pow15(coarse, b);
  float2 t = t0;
#pragma unroll
  for (int k = 0; k < kR; ++k) {
    words[lp::slot_base(0, b) + lp::slot_offset(0, k)] =
        pack_word(cmul(a[bit_reverse<lp::kLogRadix>(k)], t));
    if (k + 1 < kR) t = cmul(t, w);
  }
}

/// Stage 2 (thread j's two rounds): butterfly q = b0 + 32 k1 reads position b0 + 32 m + 1024 k1,
/// writes W_1024^(b0 k2) s3 DFT[k2] in their place.
__device__ __forceinline__ void stage2(std::uint32_t* words, float2 const* table, int j) {
  constexpr int kR = lp::kRadix;
  int const b0 = j & (kR - 1);
#pragma unroll 1
  for (int u = 0; u < lp::kRounds; ++u) {
    int const q = lp::butterfly(j, u);
    float2 a[kR];
    butterfly_dft<1>(words, q, a);
#pragma unroll
    for (int k = 0; k < kR; ++k) {
      words[lp::slot_base(1, q) + lp::slot_offset(1, k)] =
          pack_word(cmul(a[bit_reverse<lp::kLogRadix>(k)], table[(k << lp::kLogRadix) + b0]));
    }
  }
}

/// The split's twist W_2N^(1024 m) = W_64^m (m < 32, N = 2^15): the odd half's factor
/// W_2N^(b + 1024 m) of input m of stage-1 butterfly b, whose other factor W_2N^b joins the
/// butterfly's output twiddles. Filled by prepare_long_pass_kernels; with m a constant after
/// unrolling, each entry is an operand of the multiplication itself.
__constant__ float2 c_split_twist[lp::kRadix];

__device__ __forceinline__ __half2 as_half2(std::uint32_t w) {
  return *reinterpret_cast<__half2 const*>(&w);
}
__device__ __forceinline__ std::uint32_t as_word(__half2 h) {
  return *reinterpret_cast<std::uint32_t const*>(&h);
}

/// What long_pass_kernel computes: the complex pass; the split pass of 2N = 65536 points
/// (long_pass_layout.hpp), a cluster of two blocks per sequence, block r computing X[2 k + r];
/// the C2R of 2^16 reals, Z[k] of X[k] and X[M - k] in the load (PassParams::real_in); the R2C
/// of 2^16 reals, X[k] and X[M - k] of Z[k] and Z[M - k] in stage 3 (real_out, r2c_stage3).
enum LongMode : int { kModeComplex = 0, kModeSplit = 1, kModeC2r = 2, kModeR2c = 3 };

/// Stage 3 over mirror pairs, the twin R2C's (long_pass_layout.hpp: twin_partner,
/// twin_mirror_source; long_twin_kernel keeps its own copy, faster), for the R2C of 2^16
/// reals: round 0 takes butterfly qa = j and puts its outputs back in its own slots (natural
/// order); round 1 takes its mirror qb = lp::twin_partner(j) in registers, whose outputs are the
/// Z[M - k] of qa's (thread 0: butterflies 0 and 512, each its own mirror). Step i < 16 calls
/// put(b, q, i, z, zm) with z = Z[k], zm = Z[M - k] for k = q + 1024 i, output i of butterfly q (b
/// = 1: qb, then b = 0: qa), then late(i): each step frees four of round 1's registers. Thread 0
/// last puts its own mirror k = M / 2 (b = 0, q = 0, i = 16).
template <typename Put, typename Late>
__device__ __forceinline__ void mirror_stage3(std::uint32_t* words, int j, Put&& put,
                                              Late&& late) {
  constexpr int kR = lp::kRadix;
  constexpr int kLogR = lp::kLogRadix;
  constexpr int kHalf = kR / 2;
  int const qa = j;
  int const at_a = lp::slot_base(2, qa);
  {
    float2 a[kR];
    butterfly_dft<2>(words, qa, a);
#pragma unroll
    for (int k = 0; k < kR; ++k) words[at_a + k] = pack_word(a[bit_reverse<kLogR>(k)]);
  }
  int const qb = lp::twin_partner(j);
  bool const t0 = j == 0;
  float2 bv[kR];
  butterfly_dft<2>(words, qb, bv);
#pragma unroll
  for (int i = 0; i < kHalf; ++i) {
    float2 const bi = bv[bit_reverse<kLogR>(i)];
    float2 const bm = bv[bit_reverse<kLogR>(kR - 1 - i)];
    float2 const ai = unpack_word(words[at_a + i]);
    // The value of round 0 that some output needs: round 0's output 31 - i (the mirror of
    // round 1's output i), or for thread 0 its output -i mod 32 (of its own output i).
    int const off = lp::twin_mirror_source(1, 1, i).k3;
    int const off0 = lp::twin_mirror_source(0, 0, i).k3;
    float2 const am = unpack_word(words[at_a + (t0 ? off0 : off)]);
    put(1, qb, i, bi, t0 ? bm : am);
    put(0, qa, i, ai, t0 ? am : bm);
    late(i);
  }
  if (t0) {  // k = M / 2: butterfly 0's output 16
    float2 const z = unpack_word(words[at_a + kHalf]);
    put(0, qa, kHalf, z, z);
  }
}

/// Stage 3 of the R2C of 2^16 reals (kModeR2c): Z = DFT_M(z) of z[n] = x[2 n] + i x[2 n + 1]
/// (M = 2^15), and from each mirror pair (Z[k], Z[M - k]) at once X[k] and X[M - k] of the
/// half spectrum (real_split.hpp) to `seq`, a row of M + 1 words. W^k = W^q W_64^i for
/// k = q + 1024 i (W^q of the thread's two butterflies, computed per item: held through stages
/// 1 and 2 they spilled); at k = M / 2 the pair formula gives conj Z[M / 2] twice, to the same
/// word. The stage's scale is in stage 2's table. late(i): as mirror_stage3's (the next item's
/// words 16 + i; all 32 held through the stage spilled).
template <typename Late>
__device__ __forceinline__ void r2c_stage3(std::uint32_t* words, std::uint32_t* seq, int j,
                                           Late&& late) {
  constexpr int kM = 1 << lp::kLogLength;
  float2 const wq[2] = {split_twiddle(static_cast<std::uint32_t>(j), lp::kLogLength),
                        split_twiddle(static_cast<std::uint32_t>(lp::twin_partner(j)),
                                      lp::kLogLength)};
  mirror_stage3(
      words, j,
      [&](int b, int q, int i, float2 z, float2 zm) {
        float2 xk, xm;
        split_forward_pair(z, zm, cmul(wq[b], c_split_twist[i]), 1.0f, xk, xm);
        int const k = q + (i << lp::kLogButterflies);
        seq[k] = pack_word(xk);
        seq[kM - k] = pack_word(xm);
      },
      late);
}

template <bool kInverse, bool kHooked, int kMode>
__global__ void __launch_bounds__(lp::kThreads, 1)
    long_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr bool kSplit = kMode == kModeSplit;
  constexpr bool kC2r = kMode == kModeC2r;
  constexpr bool kR2c = kMode == kModeR2c;
  constexpr int kR = lp::kRadix;
  constexpr int kLogR = lp::kLogRadix;
  constexpr int kLogStride = kSplit ? 1 : 0;  // of the outputs, X[2 k + r]
  extern __shared__ std::uint32_t words[];  // the sequence, FP16 words at slot(position)
  auto* const table = reinterpret_cast<float2*>(words + lp::kSlots);
  int const j = static_cast<int>(threadIdx.x);
  // The split: block r of the cluster takes half r of every sequence of its cluster's.
  int const r = kSplit ? static_cast<int>(__clusterRelativeBlockRank()) : 0;
  std::int64_t const first = kSplit ? static_cast<std::int64_t>(__clusterIdx().x) : blockIdx.x;
  std::int64_t const step =
      kSplit ? static_cast<std::int64_t>(__clusterGridDimInClusters().x) : gridDim.x;
  // The pass's scale in three equal factors, one per stage (stage 2's in its table), so that
  // the FP16 words between the stages grow no more than the scaled transform's outputs do; the
  // split's sum takes a factor f = 1/2 of it where the pass scales down (exact in FP16).
  float const f = lp::split_factor(p);
  float const s3 = cbrtf(p.scale / f);
  // The R2C's stage 3 scales nothing: stage 2's table takes its share.
  fill_table(table, coarse, kR2c ? s3 * s3 : s3, j);
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  bool const flip_factor = (p.conjugate_store != 0) != kInverse;
  bool const load_hook = kHooked && p.load_factors != nullptr;
  bool const store_hook = kHooked && p.store_factors != nullptr;
  // The split's half r of the input: f (x[n] + x[n + N]) or f (x[n] - x[n + N]), in FP16
  // (one rounding: the FP32 result rounded, as the two-pass plan's intermediate is).
  __half2 const keep = __float2half2_rn(f);
  __half2 const sign = __float2half2_rn(r != 0 ? -f : f);
  // The C2R's Z[k] / 4 of X[k] and X[M - k] (real_split.hpp) for k = b + 1024 m, with
  // W^k = W^b W_64^m (W = exp(-i pi / M); wb = W^b per butterfly), rounded once to FP16 (as the
  // register-chained pass's fused load and the split kernel's Z round it); X[0] and X[M] with
  // their imaginary parts ignored, as cuFFT does.
  auto const load = [&](std::uint32_t const* from, int b, int m, float2 wb) -> std::uint32_t {
    int const at = lp::position(0, b, m);
    if constexpr (kC2r) {
      float2 xk = unpack_word(from[at]);
      float2 xm = unpack_word(from[(1 << lp::kLogLength) - at]);
      if (m == 0 && b == 0) xk.y = xm.y = 0.f;
      float2 zk, zm;
      split_inverse_pair(xk, xm, m == 0 ? wb : cmul(wb, c_split_twist[m]), 0.25f, zk, zm);
      return pack_word(zk);
    } else if constexpr (kSplit && !kHooked) {
      return as_word(__hfma2(as_half2(from[at + lp::kSplitHalf]), sign,
                             __hmul2(as_half2(from[at]), keep)));
    } else {
      return from[at];  // hooked splits add the other half in FP32, after the hooks
    }
  };

  // Sequences grid-stride over the resident blocks (clusters); the next sequence's first-round
  // words are loaded before this one's last stage, its second round's while its first round
  // computes.
  auto const base_of = [&](std::int64_t item, std::uint32_t& in_at, std::uint32_t& out_at,
                           std::uint32_t const*& from, std::uint32_t*& to) {
    BlockOrigin const o = block_origin(p, item);
    in_at = static_cast<std::uint32_t>(o.in_base);
    out_at = static_cast<std::uint32_t>(o.out_base + r);
    from = opaque(static_cast<std::uint32_t const*>(src) + o.in_base);
    to = opaque(static_cast<std::uint32_t*>(dst) + o.out_base + r);
  };
  // W^j for the C2R's loads of butterfly j (the first round's, prefetched).
  float2 const wj =
      kC2r ? split_twiddle(static_cast<std::uint32_t>(j), lp::kLogLength) : float2{};
  std::uint32_t raw[kR];
  std::int64_t item = first;
  std::uint32_t in_at = 0, out_at = 0;
  std::uint32_t const* from = nullptr;
  std::uint32_t* to = nullptr;
  if (item < p.blocks) {
    base_of(item, in_at, out_at, from, to);
#pragma unroll
    for (int m = 0; m < kR; ++m) raw[m] = load(from, j, m, wj);
  }
  // The L2 bulk prefetch (PassParams::prefetch_items): after stage 1, thread 0 starts the DRAM
  // reads of the sequence P items ahead.
  // Not in the split, whose forward kernel spilled 56 bytes with it (no spare registers).
  int const ahead = kSplit ? 0 : p.prefetch_items;
  constexpr std::uint32_t kInputBytes = ((1u << lp::kLogLength) + (kC2r ? 1u : 0u)) * 4u;
#pragma unroll 1
  for (; item < p.blocks; item += step) {
    // The item's pointers are global (base_of sets them before the loop and at its end); said
    // again here, since across the back edge ptxas loses opaque()'s assumption and used generic
    // LD / ST. H200, session 46 (NOTES.md item 3): 2^15 C2C 0.823 -> 0.799 ms; but the R2C of
    // 2^16 reals (kR2c) 0.500 -> 0.508, so that variant keeps the generic form.
    if constexpr (!kR2c) {
      __builtin_assume(__isGlobal(from));
      __builtin_assume(__isGlobal(to));
    }
    // Stage 1: butterfly b = j + 512 u reads x[b + 1024 m], writes W_N^(b k1) s3 DFT[k1] to
    // position b + 1024 k1 (the split's odd half: times W_2N^b as well).
#pragma unroll 1
    for (int u = 0; u < lp::kRounds; ++u) {
      int const b = lp::butterfly(j, u);
      float2 a[kR];
#pragma unroll
      for (int m = 0; m < kR; ++m) a[m] = unpack_word(raw[m] ^ conj);
      if constexpr (kSplit && kHooked) {
        // The other half, each input times its load factor first (conjugated for the inverse,
        // which runs as the conjugate of a forward transform of the conjugated input).
#pragma unroll
        for (int m = 0; m < kR; ++m) {
          std::uint32_t const at = in_at + static_cast<std::uint32_t>(lp::position(0, b, m));
          float2 hi = unpack_word(from[lp::position(0, b, m) + lp::kSplitHalf] ^ conj);
          if (load_hook) {
            a[m] = cmul(a[m], hook_factor(p.load_factors, at & p.factor_mask, kInverse));
            hi = cmul(hi, hook_factor(p.load_factors, (at + lp::kSplitHalf) & p.factor_mask,
                                      kInverse));
          }
          a[m] = cscale(r != 0 ? csub(a[m], hi) : cadd(a[m], hi), f);
        }
      }
      if (u + 1 < lp::kRounds) {
        int const next = lp::butterfly(j, u + 1);
        float2 const wnext = kC2r ? split_twiddle(static_cast<std::uint32_t>(next), lp::kLogLength)
                                  : float2{};
#pragma unroll
        for (int m = 0; m < kR; ++m) raw[m] = load(from, next, m, wnext);
      }
      if (!kSplit && load_hook) {
#pragma unroll
        for (int m = 0; m < kR; ++m) {
          std::uint32_t const at = in_at + static_cast<std::uint32_t>(lp::position(0, b, m));
          a[m] = cmul(a[m], hook_factor(p.load_factors, at & p.factor_mask, kInverse));
        }
      }
      float2 start = make_float2(s3, 0.f);
      if (kSplit && r != 0) {
#pragma unroll
        for (int m = 1; m < kR; ++m) a[m] = cmul(a[m], c_split_twist[m]);
        float sn = 0.f, cs = 1.f;
        sincospif(static_cast<float>(b) * (1.0f / (1 << lp::kLogLength)), &sn, &cs);
        start = make_float2(s3 * cs, -s3 * sn);  // s3 W_2N^b
      }
      stage1_butterfly(words, coarse, b, start, a);
    }
    __syncthreads();
    if constexpr (kSplit) cluster_arrive();  // both blocks have read all of the sequence
    // Here, where stage 1's words are spent (at the loop's top it cost registers).
    if (ahead > 0 && j == 0 && item + ahead * step < p.blocks) {
      prefetch_l2(
          static_cast<std::uint32_t const*>(src) + block_origin(p, item + ahead * step).in_base,
          kInputBytes);
    }
    stage2(words, table, j);
    __syncthreads();
    // The next sequence's first-round words, in flight while this one's last stage runs.
    std::uint32_t* const seq = to;
    std::uint32_t const seq_at = out_at;
    std::int64_t const next_item = item + step;
    bool const more = next_item < p.blocks;
    if (more) base_of(next_item, in_at, out_at, from, to);
    if constexpr (kR2c) {
      // Zeros where there is no next item, so that no earlier word stays live through stage 3
      // (as in the twin kernel: a load under `if (more)` keeps the old words: spills).
#pragma unroll
      for (int m = 0; m < kR / 2; ++m) raw[m] = more ? load(from, j, m, wj) : 0u;
    } else if (more) {
#pragma unroll
      for (int m = 0; m < kR; ++m) raw[m] = load(from, j, m, wj);
    }
    // In place, the other block's reads of the sequence before this block's writes to it.
    if constexpr (kSplit) cluster_wait();
    // Stage 3: butterfly q = k1 + 32 k2 reads position m + 32 k2 + 1024 k1 and writes
    // X[q + 1024 k3] = s3 DFT[k3] to global memory (a warp's lanes: adjacent k1; the split's
    // X[2 (q + 1024 k3) + r]).
    if constexpr (kR2c) {
      r2c_stage3(words, seq, j, [&](int i) {
        raw[kR / 2 + i] = more ? load(from, j, kR / 2 + i, wj) : 0u;
      });
    } else {
#pragma unroll 1
      for (int u = 0; u < lp::kRounds; ++u) {
        int const q = lp::butterfly(j, u);
        float2 a[kR];
        butterfly_dft<2>(words, q, a);
#pragma unroll
        for (int k = 0; k < kR; ++k) {
          float2 y = cscale(a[bit_reverse<kLogR>(k)], s3);
          int const n = lp::output_index(q, k) << kLogStride;
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
    }
    __syncthreads();  // this stage's reads before the next sequence's stage-1 writes
  }
}

/// The bytes of one of the twin's input rows: N = 2^15 FP16 reals.
constexpr std::uint32_t kTwinRowBytes = 2u << lp::kLogLength;

/// The twin R2C (PassParams::real_twin; long_pass_layout.hpp has the maps): rows a = 2 d1 and
/// b = 2 d1 + 1 of N = 2^15 FP16 reals as the sequence x_a + i x_b, and from its DFT Z both rows'
/// half spectra X_a[k], X_b[k], k <= N / 2. Item by item as the complex kernel, forward only.
/// Row b lies lp::kTwinInRow words past row a in the input and lp::kTwinOutRow past it in the
/// output (long_pass::eligible): immediate offsets, no pointers of their own.
/// Thread j loads the 4-byte words x[2 j + 1024 m], x[2 j + 1 + 1024 m] of both rows (m < 32):
/// the inputs of its stage-1 butterflies 2 j and 2 j + 1. The next item's words of m < 16 are
/// loaded before stage 3, those of m >= 16 as round 1 frees its registers. This form measured
/// 0.550-0.553 ms per 2^28 reals (H100; fftcore/NOTES.md, session 19). Tried and slower, against
/// 0.571-0.582 for it with the late words loaded from round 1's step 8: the words placed in
/// shared memory for stage 1 to read as the complex pass's butterflies j and j + 512 (64 more
/// shared accesses per thread and a barrier), 0.647; round 0's outputs in a scratch area by
/// 16-byte accesses instead of back in its own slots, 0.588-0.593.
__global__ void __launch_bounds__(lp::kThreads, 1)
    long_twin_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kR = lp::kRadix;
  constexpr int kLogR = lp::kLogRadix;
  constexpr int kHalf = kR / 2;
  extern __shared__ std::uint32_t words[];  // the sequence, FP16 words at slot(position)
  auto* const table = reinterpret_cast<float2*>(words + lp::kSlots);
  int const j = static_cast<int>(threadIdx.x);
  float const s3 = cbrtf(p.scale);
  // Stage 2's table carries stage 3's share of the scale and the split's 1/2 as well, so that
  // stage 3 scales nothing (128 multiplications per thread and item fewer).
  fill_table(table, coarse, s3 * (0.5f * s3), j);
  auto const base_of = [&](std::int64_t item, std::uint32_t const*& from, std::uint32_t*& to,
                           bool& has_b) {
    BlockOrigin const o = block_origin(p, item);
    from = opaque(static_cast<std::uint32_t const*>(src) + o.in_base + j);
    to = opaque(static_cast<std::uint32_t*>(dst) + o.out_base);
    has_b = p.twin_odd == 0 || item + 1 != p.blocks;
  };
  // raw_a[m], raw_b[m]: x[2 j + 1024 m] (low half) and x[2 j + 1 + 1024 m] (high) of each row;
  // row b reads as zeros (and is not written) where the last item has none.
  std::uint32_t raw_a[kR], raw_b[kR];
  std::uint32_t const* from = nullptr;
  std::uint32_t* to = nullptr;
  bool has_b = false;
  // Zeros where there is no next item, so that no earlier value stays live through the loop
  // (a load under `if (more)` keeps the old words alive across all three stages: spills).
  auto const load = [&](int m, bool more) {
    raw_a[m] = more ? from[m << (kLogR + 4)] : 0u;  // word (2 j + 1024 m) / 2
    raw_b[m] = more && has_b ? from[lp::kTwinInRow + (m << (kLogR + 4))] : 0u;
  };
  // Stage 1 from registers: thread j's round u takes butterfly lp::twin_butterfly(j, u) =
  // 2 j + (u ^ e), e = 1 on lanes 16..31 (so that each store meets 32 banks), whose inputs are
  // the low (2 j) or high (2 j + 1) halves of raw_a[m] and raw_b[m].
  int const e = (j >> 4) & 1;
  std::uint32_t const select0 = e != 0 ? 0x7632u : 0x5410u;
  std::uint32_t const select1 = e != 0 ? 0x5410u : 0x7632u;
  // A zero the compiler cannot see (long_pass::eligible: log_tile is 0). Round 0's words take
  // round 1's packed words as an input through it, so that the packing happens before round
  // 0's arithmetic and 32 registers carry round 1's halves through it, not the 64 of raw_a and
  // raw_b (the compiler sank the packing into round 1: spills).
  auto const zero = static_cast<std::uint32_t>(p.log_tile);
  std::int64_t item = blockIdx.x;
  if (item < p.blocks) {
    base_of(item, from, to, has_b);
#pragma unroll
    for (int m = 0; m < kR; ++m) load(m, true);
  }
#pragma unroll 1
  // No space assumption in this loop (generic LD / ST): with it, the R2C of 2^15 reals ran
  // 0.500-0.504 -> 0.504-0.510 ms (H200, session 46, NOTES.md item 8).
  for (; item < p.blocks; item += gridDim.x) {
    std::uint32_t later[kR];
    {
      float2 a[kR];
#pragma unroll
      for (int m = 0; m < kR; ++m) {
        later[m] = __byte_perm(raw_a[m], raw_b[m], select1);
        a[m] = unpack_word(__byte_perm(raw_a[m], raw_b[m], select0) | (later[m] & zero));
      }
      stage1_butterfly(words, coarse, lp::twin_butterfly(j, 0), make_float2(s3, 0.f), a);
    }
    {
      float2 a[kR];
#pragma unroll
      for (int m = 0; m < kR; ++m) a[m] = unpack_word(later[m]);
      stage1_butterfly(words, coarse, lp::twin_butterfly(j, 1), make_float2(s3, 0.f), a);
    }
    __syncthreads();
    // The L2 bulk prefetch of the rows P items ahead (as in long_pass_kernel; row b where the
    // item has one).
    if (p.prefetch_items > 0 && j == 0 && item + p.prefetch_items * gridDim.x < p.blocks) {
      std::int64_t const ahead = item + p.prefetch_items * gridDim.x;
      auto const* const row_a =
          static_cast<std::uint32_t const*>(src) + block_origin(p, ahead).in_base;
      prefetch_l2(row_a, kTwinRowBytes);
      if (p.twin_odd == 0 || ahead + 1 != p.blocks) {
        prefetch_l2(row_a + lp::kTwinInRow, kTwinRowBytes);
      }
    }
    stage2(words, table, j);
    __syncthreads();
    // The next item's words of m < 16, in flight while this one's last stage runs.
    std::uint32_t* const seq = to;
    bool const store_b = has_b;
    std::int64_t const next_item = item + gridDim.x;
    bool const more = next_item < p.blocks;
    if (more) base_of(next_item, from, to, has_b);
#pragma unroll
    for (int m = 0; m < kHalf; ++m) load(m, more);
    // Stage 3, round 0: butterfly j's DFT (times s3 / 2, from stage 2's table) back to its own
    // slots, in natural order. (The same pairing as mirror_stage3, written out: through that
    // helper this kernel measured 0.560-0.567 ms per 2^28 reals against 0.551-0.554, H100,
    // session 28.)
    int const qa = j;
    int const at_a = lp::slot_base(2, qa);
    {
      float2 a[kR];
      butterfly_dft<2>(words, qa, a);
#pragma unroll
      for (int k = 0; k < kR; ++k) words[at_a + k] = pack_word(a[bit_reverse<kLogR>(k)]);
    }
    // Round 1: the mirror butterfly in registers; outputs k3 < 16 of both butterflies, each
    // with the value lp::twin_mirror_source names: Z[N - k] of j's output k3 is the mirror's
    // output 31 - k3, and for thread 0 (butterflies 0 and 512, their own mirrors) 512's output
    // 31 - k3 and 0's output -k3 mod 32.
    int const qb = lp::twin_partner(j);
    bool const t0 = j == 0;
    float2 bv[kR];
    butterfly_dft<2>(words, qb, bv);
    // X_a[k] = Z[k] + conj Z[N - k], X_b[k] = -i (Z[k] - conj Z[N - k]) (Z carries s3 / 2).
    auto const put = [&](int k, float2 z, float2 zm) {
      float2 xa, xb;
      lp::twin_split(z, zm, xa, xb);
      seq[k] = pack_word(xa);
      if (store_b) seq[lp::kTwinOutRow + k] = pack_word(xb);
    };
#pragma unroll
    for (int i = 0; i < kHalf; ++i) {
      float2 const bi = bv[bit_reverse<kLogR>(i)];
      float2 const bm = bv[bit_reverse<kLogR>(kR - 1 - i)];
      float2 const ai = unpack_word(words[at_a + i]);
      // The value of round 0 that some output needs: round 0's output 31 - i (the mirror of
      // round 1's output i), or for thread 0 its output -i mod 32 (of its own output i).
      int const off = lp::twin_mirror_source(1, 1, i).k3;
      int const off0 = lp::twin_mirror_source(0, 0, i).k3;
      float2 const am = unpack_word(words[at_a + (t0 ? off0 : off)]);
      put(qb + (i << 10), bi, t0 ? bm : am);
      put(qa + (i << 10), ai, t0 ? am : bm);
      // One late word of each row per step (m = 16 + i), from the first step on: each step
      // frees four of bv's registers. (From step 8, two per step, measured 0.570-0.581 ms per
      // 2^28 reals against 0.550-0.553: their latency was not hidden before the next stage 1.)
      load(kHalf + i, more);
    }
    if (t0) {  // k = N / 2: butterfly 0's output 16, its own mirror
      float2 const z = unpack_word(words[at_a + kHalf]);
      put(kHalf << 10, z, z);
    }
    __syncthreads();  // this stage's reads before the next item's stage-1 writes
  }
}

template <bool kInverse, bool kHooked, int kMode>
std::atomic<int>& resident_cache() {
  static std::atomic<int> cache{0};
  return cache;
}

template <bool kInverse, bool kHooked, int kMode = kModeComplex>
cudaError_t launch_variant(PassParams const& pass, void const* src, void* dst,
                           float2 const* coarse, cudaStream_t stream) noexcept {
  auto const kernel = long_pass_kernel<kInverse, kHooked, kMode>;
  unsigned grid = 0;
  cudaError_t const e =
      resident_grid(kernel, lp::kThreads, kSmemBytes, resident_cache<kInverse, kHooked, kMode>(),
                    pass.blocks, grid);
  if (e != cudaSuccess) return e;
  return launch_chained(kernel, grid, lp::kThreads, kSmemBytes, stream, pass, src, dst, coarse);
}

/// The split pass: clusters of two blocks, as many as are resident at once (or sequences).
template <bool kInverse, bool kHooked>
cudaError_t launch_split(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                         cudaStream_t stream) noexcept {
  bool launched = false;
  cudaError_t const e = launch_clusters(long_pass_kernel<kInverse, kHooked, kModeSplit>,
                                        lp::kSplitBlocks, pass.blocks, lp::kThreads, kSmemBytes,
                                        stream, resident_cache<kInverse, kHooked, kModeSplit>(),
                                        launched, pass, src, dst, coarse);
  // The split needs its clusters: none fitting is an error here.
  return e == cudaSuccess && !launched ? cudaErrorInvalidConfiguration : e;
}

cudaError_t launch_twin(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                        cudaStream_t stream) noexcept {
  static std::atomic<int> cache{0};
  unsigned grid = 0;
  cudaError_t const e =
      resident_grid(long_twin_kernel, lp::kThreads, kSmemBytes, cache, pass.blocks, grid);
  if (e != cudaSuccess) return e;
  return launch_chained(long_twin_kernel, grid, lp::kThreads, kSmemBytes, stream, pass, src, dst,
                        coarse);
}

}  // namespace

cudaError_t prepare_long_pass_kernels() noexcept {
  cudaError_t e = cudaSuccess;
  for (auto const kernel :
       {long_pass_kernel<false, false, kModeComplex>, long_pass_kernel<true, false, kModeComplex>,
        long_pass_kernel<false, true, kModeComplex>, long_pass_kernel<true, true, kModeComplex>,
        long_pass_kernel<false, false, kModeSplit>, long_pass_kernel<true, false, kModeSplit>,
        long_pass_kernel<false, true, kModeSplit>, long_pass_kernel<true, true, kModeSplit>,
        long_pass_kernel<true, false, kModeC2r>, long_pass_kernel<false, false, kModeR2c>,
        long_twin_kernel}) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(kSmemBytes));
    }
  }
  // The split's twist W_64^m, from double precision.
  float2 twist[lp::kRadix];
  for (int m = 0; m < lp::kRadix; ++m) {
    double const angle = -2.0 * 3.14159265358979323846 * m / (2 * lp::kRadix);
    twist[m] =
        make_float2(static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle)));
  }
  if (e == cudaSuccess) e = cudaMemcpyToSymbol(c_split_twist, twist, sizeof(twist));
  return e;
}

cudaError_t launch_long_pass(PassParams const& given, void const* src, void* dst,
                             float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  if (!long_pass::eligible(given)) return cudaErrorInvalidValue;
  // FFTCORE_TC_LONG_PREFETCH: sequences ahead that a block prefetches into L2 (read once).
  static int const ahead = env_int("FFTCORE_TC_LONG_PREFETCH", lp::kDefaultPrefetchItems);
  PassParams pass = given;
  pass.prefetch_items = ahead;
  bool const hooked = pass.load_factors != nullptr || pass.store_factors != nullptr;
  if (pass.real_twin != 0) {  // the twin R2C: forward, no hooks
    return inverse || hooked ? cudaErrorInvalidValue
                             : launch_twin(pass, src, dst, coarse, stream);
  }
  if (pass.real_out != 0) {  // the R2C of 2^16 reals: forward, no hooks
    return inverse || hooked
               ? cudaErrorInvalidValue
               : launch_variant<false, false, kModeR2c>(pass, src, dst, coarse, stream);
  }
  if (pass.real_in != 0) {  // the C2R of 2^16 reals: inverse, no hooks
    return !inverse || hooked
               ? cudaErrorInvalidValue
               : launch_variant<true, false, kModeC2r>(pass, src, dst, coarse, stream);
  }
  if (lp::split(pass)) {
    if (hooked) {
      return inverse ? launch_split<true, true>(pass, src, dst, coarse, stream)
                     : launch_split<false, true>(pass, src, dst, coarse, stream);
    }
    return inverse ? launch_split<true, false>(pass, src, dst, coarse, stream)
                   : launch_split<false, false>(pass, src, dst, coarse, stream);
  }
  if (hooked) {
    return inverse ? launch_variant<true, true>(pass, src, dst, coarse, stream)
                   : launch_variant<false, true>(pass, src, dst, coarse, stream);
  }
  return inverse ? launch_variant<true, false>(pass, src, dst, coarse, stream)
                 : launch_variant<false, false>(pass, src, dst, coarse, stream);
}

}  // namespace fftcore::detail::tc
