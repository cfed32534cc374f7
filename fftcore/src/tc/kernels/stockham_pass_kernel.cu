// SPDX-License-Identifier: MIT
// The Stockham pass: untwiddled FP16 passes of 512..16384 points over contiguous sequences
// (stockham::eligible), each sequence on L / E threads of E = 16 (32 from L = 1024) values in
// FP32 registers, three Stockham stages (E, 16, L / 16 E) exchanged through shared memory, with
// store hooks and the real transforms' fused splits (stockham_pass_layout.hpp has the maps and
// the reason); its column variant (kColumns) takes C adjacent strided columns of 512..2048
// points in place of a round's sequences (the 2-D column passes where it measured faster).
#include <cuda_fp16.h>

#include <atomic>
#include <cstdint>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/l2_prefetch.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/plan_logic.hpp"
#include "tc/real_split.hpp"
#include "tc/stockham_pass_layout.hpp"

namespace fftcore::detail::tc {
namespace {

/// Multiplies input m of the butterfly (a[base + m stride], 0 < m < R) by W^m (w = W): powers
/// by FP32 products, at most 31 deep (L = 16384's radix-32 last stage: ~4e-6 relative at worst,
/// far below the FP16 output rounding's 4.9e-4).
template <int kR, int kStride, int kN>
__device__ __forceinline__ void twiddle_inputs(float2 (&a)[kN], int base, float2 w) {
  float2 t = w;
#pragma unroll
  for (int m = 1; m < kR; ++m) {
    a[base + m * kStride] = cmul(a[base + m * kStride], t);
    if (m + 1 < kR) t = cmul(t, w);
  }
}

/// W_2E^i (forward), i < E: the real splits' W_{2M}^(T i) (2M / T = 2E).
template <int kLogE>
__device__ __forceinline__ float2 w_2e(int i) {
  static_assert(kLogE == 4 || kLogE == 5, "E = 16 or 32");
  return kLogE == 4 ? w32(i) : w64(i);
}

/// W_2M^n (M = L = 2^kLogL, n < 2M) from the coarse table W_2^14: at 2M = 2^15, past the table,
/// W_2^14^(n / 2) times W_2^15 for odd n.
template <int kLogL>
__device__ __forceinline__ float2 w_2m(float2 const* coarse, int n) {
  if constexpr (kLogL >= kLogCoarse) {
    static_assert(kLogL == kLogCoarse, "2M <= 2^15");
    return w_2pow15(coarse, n);
  } else {
    return __ldg(coarse + (n << (kLogCoarse - kLogL - 1)));
  }
}

/// The R2C split of thread 0's butterfly v = 0 of the last stage (its own mirror: output k pairs
/// with R3 - k), into the row starting at `row`: X[0] and X[M] from Z[0], X[M / 2] from Z[M / 2],
/// the pairs with W_2M^(k Ns) = w2r3(k) = W_2R3^k. b[bit_reverse(k)] = Z[k Ns].
template <int kLogL, class W>
__device__ __forceinline__ void split_own_zero(
    float2 const (&b)[1 << stockham::stage_log_radix(2, kLogL)], std::uint32_t* row, W w2r3) {
  constexpr int kLogR3 = stockham::stage_log_radix(2, kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kLogNs3 = stockham::stage_log_ns(2, kLogL);
  float2 x0, xm;
  split_forward_ends(b[0], 1.0f, x0, xm);
  row[0] = pack_word(x0);
  row[1 << kLogL] = pack_word(xm);
  row[(kR3 / 2) << kLogNs3] =
      pack_word(split_forward_middle(b[bit_reverse<kLogR3>(kR3 / 2)], 1.0f));
#pragma unroll
  for (int k = 1; k < kR3 / 2; ++k) {
    split_forward_pair(b[bit_reverse<kLogR3>(k)], b[bit_reverse<kLogR3>(kR3 - k)], w2r3(k), 1.0f,
                       x0, xm);
    row[k << kLogNs3] = pack_word(x0);
    row[(kR3 - k) << kLogNs3] = pack_word(xm);
  }
}

/// The same for thread 0's butterfly Ns / 2 (output k pairs with R3 - 1 - k), with W_2M^n =
/// wn(k) for n = Ns / 2 + k Ns. c[bit_reverse(k)] = Z[Ns / 2 + k Ns].
template <int kLogL, class W>
__device__ __forceinline__ void split_own_half(
    float2 const (&c)[1 << stockham::stage_log_radix(2, kLogL)], std::uint32_t* row, W wn) {
  constexpr int kLogR3 = stockham::stage_log_radix(2, kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kLogNs3 = stockham::stage_log_ns(2, kLogL);
  constexpr int kHalfNs = 1 << (kLogNs3 - 1);
#pragma unroll
  for (int k = 0; k < kR3 / 2; ++k) {
    float2 x0, xm;
    split_forward_pair(c[bit_reverse<kLogR3>(k)], c[bit_reverse<kLogR3>(kR3 - 1 - k)], wn(k), 1.0f,
                       x0, xm);
    row[kHalfNs + (k << kLogNs3)] = pack_word(x0);
    row[kHalfNs + ((kR3 - 1 - k) << kLogNs3)] = pack_word(xm);
  }
}

/// The last stage and the R2C split of the warp-paired deal (stockham::warp_paired_butterfly,
/// one butterfly per thread: L = 16384) for thread j of a sequence whose row of M + 1
/// outputs starts at `row`: its butterfly v from buf2 (twiddles W_L^v from the table), then
/// outputs R3 / 2.. R3 - 1 swapped with lane j ^ 16 (which holds the mirror v' = Ns - v), so
/// that each lane has, for its own outputs k < R3 / 2 (n = v + k Ns), the partner Z[M - n] =
/// output R3 - 1 - k of v'. The pair gives X[n] and X[M - n] with W_2M^n = W_2M^v W_2R3^k.
/// Warp 0's lanes 0 (v = 0: k pairs with R3 - k; X[0], X[M], X[M / 2]) and 16 (v = Ns / 2: k
/// with R3 - 1 - k) pair within their own outputs. Nothing is stored unless `ok`.
template <int kLogL>
__device__ __forceinline__ void warp_paired_r2c_stage(float2 const* buf2, float2 const* coarse,
                                                      int j, bool ok, std::uint32_t* row) {
  constexpr int kLogR3 = stockham::stage_log_radix(2, kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kH = kR3 / 2;
  constexpr int kLogNs3 = stockham::stage_log_ns(2, kLogL);
  constexpr int kNs = 1 << kLogNs3;
  constexpr int kM = 1 << kLogL;
  static_assert(stockham::r2c_warp_paired(kLogL), "one butterfly per thread");
  int const v = stockham::warp_paired_butterfly(j, kLogL);
  float2 b[kR3];
#pragma unroll
  for (int m = 0; m < kR3; ++m) b[m] = buf2[stockham::slot(v + (m << kLogNs3), kLogL)];
  twiddle_inputs<kR3, 1>(b, 0, __ldg(coarse + (v << (kLogCoarse - kLogL))));
  dft_pow2<kLogR3>(b);  // b[bit_reverse(k)] = Z[v + k Ns]
  float2 o[kH];         // o[k] = Z[v' + (R3 / 2 + k) Ns], from lane j ^ 16
#pragma unroll
  for (int k = 0; k < kH; ++k) {
    float2 const mine = b[bit_reverse<kLogR3>(kH + k)];
    o[k] = make_float2(__shfl_xor_sync(0xffffffffu, mine.x, 16),
                       __shfl_xor_sync(0xffffffffu, mine.y, 16));
  }
  float2 const wv = w_2m<kLogL>(coarse, v);
  if (!ok) return;
  if (v == 0) {
    split_own_zero<kLogL>(b, row, [](int k) { return w_2e<kLogR3>(k); });
  } else if (v == kNs / 2) {
    split_own_half<kLogL>(b, row, [wv](int k) { return cmul(wv, w_2e<kLogR3>(k)); });
  } else {
#pragma unroll
    for (int k = 0; k < kH; ++k) {
      float2 x0, xm;
      split_forward_pair(b[bit_reverse<kLogR3>(k)], o[kH - 1 - k], cmul(wv, w_2e<kLogR3>(k)), 1.0f,
                         x0, xm);
      row[v + (k << kLogNs3)] = pack_word(x0);
      row[kM - v - (k << kLogNs3)] = pack_word(xm);
    }
  }
}

/// The last stage and the R2C split of the paired deal (stockham::paired_butterfly) for thread j
/// of a sequence: per pair u < E / 2 R3 its butterfly v = j + u T from buf2 (twiddles W_L^v =
/// w3j W_E^u) and the mirror v' = Ns - v (W_L^v' = W_R3 conj(W_L^v)); output k of v, n = v + k
/// Ns = j + T (u + k E / R3), pairs with output R3 - 1 - k of v', M - n. The pair gives X[n]
/// (at seq[n - j]) and X[M - n] (at seq[M - n - j]) with the split's twiddle W_2M^n = wsplit
/// W_2E^(u + k E / R3) (wsplit = W_2M^j). Thread 0's v = 0 and v' = Ns / 2 pair within
/// themselves (k with R3 - k, and with R3 - 1 - k), and give X[0], X[M] and X[M / 2]. Nothing is
/// stored unless `ok`. The pass's scale rode on stage 2's twiddles.
template <int kLogL>
__device__ __forceinline__ void paired_r2c_stage(float2 const* buf2, float2 w3j, float2 wsplit,
                                                 int j, bool ok, std::uint32_t* seq) {
  constexpr int kLogE = stockham::log_values(kLogL);
  constexpr int kLogT = stockham::log_sequence_threads(kLogL);
  constexpr int kLogR3 = stockham::stage_log_radix(2, kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kU3 = 1 << (kLogE - kLogR3);
  constexpr int kLogNs3 = stockham::stage_log_ns(2, kLogL);
  static_assert(kU3 >= 2 && kR3 <= 16, "two butterflies per thread or more; W_R3 from w32");
  std::uint32_t* const mirror = seq + ((1 << kLogL) - 2 * j);  // X[M - j]
#pragma unroll
  for (int u = 0; u < kU3 / 2; ++u) {
    bool const own = u == 0 && j == 0;  // v = 0 and v' = Ns / 2: each its own mirror
    int const vm = stockham::paired_butterfly(j, u + kU3 / 2, kLogL);
    float2 b[kR3], c[kR3];
#pragma unroll
    for (int m = 0; m < kR3; ++m) {
      b[m] = buf2[stockham::read_slot(j, stockham::input_register(u, m, kLogR3, kLogL), kLogL)];
      c[m] = buf2[stockham::slot(vm + (m << kLogNs3), kLogL)];
    }
    float2 const t = times_w32(w3j, u << (5 - kLogE));
    float2 tm = make_float2(-t.x, t.y);  // W_2 conj(t)
    if constexpr (kR3 > 2) tm = cmul(make_float2(t.x, -t.y), w32(32 >> kLogR3));
    if (own) tm = w32(16 >> kLogR3);  // W_L^(Ns / 2) = W_2R3
    twiddle_inputs<kR3, 1>(b, 0, t);
    twiddle_inputs<kR3, 1>(c, 0, tm);
    dft_pow2<kLogR3>(b);  // b[bit_reverse(k)] = Z[v + k Ns]
    dft_pow2<kLogR3>(c);  // c[bit_reverse(k)] = Z[v' + k Ns]
    if (!ok) continue;
    if (own) {  // W_2M^(k Ns) = W_2E^(k E / R3), W_2M^(Ns / 2 + k Ns) = W_2E^((2 k + 1) E / 2 R3)
      split_own_zero<kLogL>(b, seq, [](int k) { return w_2e<kLogE>(k * kU3); });
      split_own_half<kLogL>(c, seq, [](int k) { return w_2e<kLogE>(kU3 / 2 + k * kU3); });
    } else {
#pragma unroll
      for (int k = 0; k < kR3; ++k) {
        int const i = u + k * kU3;  // n = j + T i
        float2 xn, xm;
        split_forward_pair(b[bit_reverse<kLogR3>(k)], c[bit_reverse<kLogR3>(kR3 - 1 - k)],
                           cmul(wsplit, w_2e<kLogE>(i)), 1.0f, xn, xm);
        seq[i << kLogT] = pack_word(xn);
        mirror[-(i << kLogT)] = pack_word(xm);
      }
    }
  }
}

/// Synchronises the threads that share a sequence's exchange buffers: a warp where a sequence
/// fits in one (L = 512), else the block.
template <int kLogT>
__device__ __forceinline__ void sequence_barrier() {
  if constexpr (kLogT <= 5) {
    __syncwarp();
  } else {
    __syncthreads();
  }
}

/// The kernel's fused real split (PassParams::real_out, real_in): none, R2C in the store, C2R
/// in the load (real_split.hpp); or the 2-D R2C's row pairs (real_row_pairs: the separation
/// of two rows in the load, both rows' half spectra in the store), or the C2R's (both rows'
/// half spectra in the load, the two rows of Y in the store).
/// kColumns is no split but the column variant (stockham::columns_eligible): C adjacent columns
/// of points in_elem_stride apart in place of a round's sequences. kSplitInPaired is the C2R
/// split with each pair X[n], X[M - n] in one lane (stockham::c2r_paired_source, L = 512 ..
/// 16384), where kSplitIn has both lanes of a pair load both words and compute its Z.
enum RealSplit : int {
  kNoSplit = 0,
  kSplitOut = 1,
  kSplitIn = 2,
  kRowPairs = 3,
  kRowPairsIn = 4,
  kColumns = 5,
  kSplitInPaired = 6
};
inline constexpr int kLaunchVariants = 7;

/// The kernel's block size bound and resident blocks per SM (its __launch_bounds__).
constexpr int kernel_max_threads(int log_l, int real) {
  return real == kColumns ? 1 << stockham::kLogColumnThreads : stockham::max_threads(log_l);
}
constexpr int kernel_min_blocks(int log_l, int real) {
  return real == kColumns ? 1 : stockham::min_blocks(log_l, real != kNoSplit);
}

template <int kLogL, bool kInverse, bool kHooked, int kReal = kNoSplit>
__global__ void __launch_bounds__(kernel_max_threads(kLogL, kReal),
                                  kernel_min_blocks(kLogL, kReal))
    stockham_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  // E values per thread (16 at L = 512; 32 from 1024), T threads per sequence.
  constexpr int kLogE = stockham::log_values(kLogL);
  constexpr int kE = 1 << kLogE;
  constexpr int kLogT = stockham::log_sequence_threads(kLogL);
  constexpr int kT = 1 << kLogT;
  static_assert(stockham::stages(kLogL) == 3, "stages of radices E, 16, L / (16 E)");
  static_assert(kReal == kNoSplit || kLogL <= stockham::kMaxLogLengthReal, "W_2M^j from coarse");
  // The C2R split, unpaired or paired.
  constexpr bool kPairedIn = kReal == kSplitInPaired;
  static_assert(!kPairedIn || stockham::c2r_paired(kLogL), "the paired C2R: T >= 32");
  constexpr bool kSplitInAny = kReal == kSplitIn || kPairedIn;
  static_assert(kReal != kRowPairs || (kLogL >= stockham::kMinLogLengthRowPairs &&
                                       kLogL <= stockham::kMaxLogLengthRowPairs && !kInverse &&
                                       !kHooked),
                "row pairs: forward");
  static_assert(kReal != kRowPairsIn || (kLogL >= stockham::kMinLogLengthRowPairs &&
                                         kLogL <= stockham::kMaxLogLengthRowPairs && kInverse &&
                                         !kHooked),
                "C2R row pairs: inverse");
  static_assert(kReal != kColumns || (kLogL >= stockham::kMinLogLengthColumns &&
                                       kLogL <= stockham::kMaxLogLengthColumns && !kHooked),
                "columns: plain");
  constexpr bool kRows = kReal == kRowPairs;
  // Columns: thread (j, c), c = tid mod C; slot s of column c at s C + c (kScale = C).
  constexpr bool kCols = kReal == kColumns;
  constexpr int kLogC = kCols ? stockham::log_columns(kLogL) : 0;
  constexpr int kScale = 1 << kLogC;
  // The threads of a sequence: one warp (L = 512), else the block; a column's, the block.
  constexpr int kLogBarrier = kCols ? stockham::kLogColumnThreads : kLogT;
  constexpr bool kRowsIn = kReal == kRowPairsIn;
  // Row pairs: lane j reads word j / 2 + (T / 2) i of its row (stockham_pass_layout.hpp).
  constexpr int kLogLoadStep = kRows ? kLogT - 1 : kLogT;
  // Stage 2: radix 16, Ns = E, kU2 butterflies per thread.
  constexpr int kU2 = kE / 16;
  // The last stage: radix R3, Ns = 2^kLogNs3 (L = Ns R3), kU3 butterflies per thread.
  constexpr int kLogR3 = stockham::stage_log_radix(2, kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kU3 = kE / kR3;
  constexpr int kLogNs3 = stockham::stage_log_ns(2, kLogL);
  constexpr int kSlots = stockham::sequence_slots(kLogL);
  constexpr int kBuffers = stockham::buffers(kLogL);
  // One buffer (E = 32): a barrier before each exchange's writes as well, so that they never
  // meet the reads of the exchange before (this item's, or the last item's stage 3).
  constexpr bool kOneBuffer = kBuffers == 1;
  static_assert(kBuffers == 1 || kLogE == stockham::kLogValues, "two buffers at E = 16 only");
  // At E = 32 the next item's words are loaded after stage 2's writes, not before stage 1,
  // and stage 3 reads its butterflies' inputs one butterfly at a time: 32 words in flight beside
  // 64 registers of data through all three stages spilled 44-52 words per thread at 128.
  constexpr bool kLateLoad = kOneBuffer;
  // The R2C split with its pairs Z[n], Z[M - n] in registers (stockham::r2c_paired, L = 512 ..
  // 8192): stage 3 takes the mirrored deal of butterflies, reading each one's inputs from the
  // exchange buffer, and Z never goes to shared memory; the same from two lanes at 16384
  // (stockham::r2c_warp_paired). (Through the buffer - Z written, a barrier, Z[n] and Z[M - n]
  // read - it spilled 104 bytes and measured 0.55 / 0.62 ms at 2^14 / 2^15 reals, against
  // 0.43 / 0.58 now.)
  constexpr bool kPaired = kReal == kSplitOut && stockham::r2c_paired(kLogL);
  constexpr bool kWarpPaired = kReal == kSplitOut && stockham::r2c_warp_paired(kLogL);
  static_assert(kReal != kSplitOut || kPaired || kWarpPaired, "every R2C length is paired");
  // Whether stage 3 reads its inputs one butterfly at a time: with late loads, and in the R2C.
  constexpr bool kStreamLast = kLateLoad || kReal == kSplitOut;
  extern __shared__ float2 exchange[];  // per sequence of a round: kBuffers buffers of kSlots

  int const log_threads =
      kCols ? stockham::kLogColumnThreads : stockham::log_threads(p.log_tile, kLogL);
  int const tid = static_cast<int>(threadIdx.x);
  int const j = kCols ? tid >> kLogC : tid & (kT - 1);
  int const seq_slot = kCols ? tid & (kScale - 1) : tid >> kLogT;
  // Stage 1 -> 2 and stage 2 -> 3 (one buffer from E = 32).
  float2* const buf1 = kCols ? exchange + seq_slot : exchange + (kBuffers * seq_slot) * kSlots;
  float2* const buf2 = buf1 + (kOneBuffer ? 0 : kSlots * kScale);
  auto const in_s0 = static_cast<std::uint32_t>(p.in_stride[0]);
  auto const out_s0 = static_cast<std::uint32_t>(p.out_stride[0]);
  // Points of a sequence: adjacent, or in_elem_stride / out_elem_stride apart (columns).
  auto const in_es = kCols ? static_cast<std::uint32_t>(p.in_elem_stride) : 1u;
  auto const out_es = kCols ? static_cast<std::uint32_t>(p.out_elem_stride) : 1u;
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  bool const flip_factor = (p.conjugate_store != 0) != kInverse;
  // The real split's twiddles W_{2M}^n, n = j + T i (M = L): W_{2M}^j W_2E^i. W_{2M}^j is held
  // in two registers at E = 16 and loaded again where the split runs (an L1 hit) at E = 32:
  // held there, the C2R spilled 90 words at 128 registers; loaded so at E = 16, the C2R ran
  // 4-8 % slower (H200, 2^10..2^13 reals).
  constexpr bool kSplit = kReal == kSplitOut || kSplitInAny;
  float2 const wsplit_held = kSplit && !kLateLoad ? w_2m<kLogL>(coarse, j) : make_float2(1.f, 0.f);
  auto const split_base = [&]() { return kLateLoad ? w_2m<kLogL>(coarse, j) : wsplit_held; };
  // Stage 2's twiddles scale W_16E^(k m) for k = v mod E (= j mod E for each of the thread's
  // butterflies v = j + u T), m < 16, from a block table of 16 E entries in shared memory laid
  // out [m][k]: for each m a warp reads E adjacent float2 (twice over at E = 16), one load per
  // point instead of a complex power (15 FP32 products per butterfly and round).
  int const k2 = j & (kE - 1);
  // Where stages 1 and 2 write output k of butterfly j: a base per thread plus k times a step
  // (stage 2's butterfly u: the base of j + u T).
  int const write1 = stockham::write_slot_base(j, 0, kLogL);
  int const write2 = stockham::write_slot_base(j, 1, kLogL);
  float2* const tw2 = exchange + (kBuffers * kSlots << (log_threads - kLogT));
  for (int e = tid; e < 16 * kE; e += 1 << log_threads) {
    int const m = e >> kLogE, k = e & (kE - 1);
    tw2[e] = cscale(
        __ldg(coarse + (((k * m) & (16 * kE - 1)) << (kLogCoarse - 4 - kLogE))), p.scale);
  }
  __syncthreads();
  // The last stage's butterflies v = j + u T take W_L^v = W_L^j W_E^u: one table entry per
  // thread (lanes take adjacent j), times a constant. A table entry per butterfly and round, at
  // stride 2^14 / L entries across the lanes, put up to 32 cache lines on each warp load
  // (L = 512).
  float2 const w3j = __ldg(coarse + (j << (kLogCoarse - kLogL)));
  // Columns: an item is a round of C columns (launch_columns makes the tiles that wide).
  int const log_rounds = kCols ? p.log_tile - kLogC : stockham::log_rounds(p.log_tile, kLogL);
  int const round_sequences = 1 << (log_threads - kLogT);
  // Work items (tile, round) grid-stride: item w of this block is round w mod R of tile
  // blockIdx.x + (w / R) gridDim.x (the launcher starts as many blocks as stay resident), so
  // that the set-up above is paid once per block, not once per tile: a 4096-point tile is one
  // round of 16 values per thread, and the set-up alone came to ~9 instructions per point.
  // locate() points this thread at its sequence of item w: 1 if it holds one, 0 if the tile
  // ends before it, -1 (the same for the whole block) past the block's last item.
  // `at` is the offset of the sequence's output j in dst (the store hook's factor index).
  // Row pairs: `to_mirror` points at row R - q's output 2M - j, `to_self`: q = R - q mod R; C2R
  // row pairs: `from_mirror` at row R - q's input 2M - j.
  std::uint32_t* to_mirror = nullptr;
  std::uint32_t const* from_mirror = nullptr;
  bool to_self = false;
  auto const locate = [&](std::int64_t w, std::uint32_t const*& from, std::uint32_t*& to,
                          std::uint32_t& at) -> int {
    std::int64_t const b = blockIdx.x + (w >> log_rounds) * gridDim.x;
    if (b >= p.blocks) return -1;
    int const t = static_cast<int>(w & ((1 << log_rounds) - 1)) * round_sequences + seq_slot;
    if constexpr (kRows || kRowsIn) {
      // Sequence q = d0 + t of its image and its mirror R - q. R2C: rows q and R - q of Y in, of
      // the half spectrum out; C2R: rows q and R - q of the half spectrum in, rows q (even
      // lanes) and R - q (odd lanes) of Y out.
      BlockOrigin const o = block_origin(p, b);
      auto const q = static_cast<std::uint32_t>(o.d0) + static_cast<std::uint32_t>(t);
      std::uint32_t const qm = stockham::row_pairs_mirror(q, p.row_pairs_log_rows);
      std::int64_t const in_image = o.in_base - o.d0 * p.in_stride[0];
      std::int64_t const out_image = o.out_base - o.d0 * p.out_stride[0];
      auto const in_at = [&](std::uint32_t offset) {
        return opaque(opaque(static_cast<std::uint32_t const*>(src) + in_image) + offset);
      };
      auto const out_at = [&](std::uint32_t offset) {
        return opaque(opaque(static_cast<std::uint32_t*>(dst) + out_image) + offset);
      };
      auto const uj = static_cast<std::uint32_t>(j);
      std::uint32_t const lane_row = (j & 1) != 0 ? qm : q;
      if constexpr (kRows) {
        from = in_at(lane_row * in_s0 + (uj >> 1));
        to = out_at(q * out_s0 + uj);
        to_mirror = out_at(qm * out_s0 + ((1u << kLogL) - uj));
      } else {
        from = in_at(q * in_s0 + uj);
        from_mirror = in_at(qm * in_s0 + ((1u << kLogL) - uj));
        to = out_at(lane_row * out_s0 + (uj >> 1));
      }
      to_self = q == qm;
      at = 0;
      return t < min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << p.log_tile) ? 1 : 0;
    }
    // Whole tiles at one step (PassParams::linear_blocks): one product per pointer (b < 2^31),
    // and every sequence of the tile exists; else block_origin and the tile's end.
    std::int64_t in_base = 0, out_base = 0;
    int ok = 1;
    if (p.linear_blocks != 0) {
      auto const b32 = static_cast<std::uint32_t>(b);
      in_base = static_cast<std::int64_t>(b32) * p.block_in_step;
      out_base = static_cast<std::int64_t>(b32) * p.block_out_step;
    } else {
      BlockOrigin const o = block_origin(p, b);
      in_base = o.in_base;
      out_base = o.out_base;
      ok = t < min(p.extent[0] - o.d0, static_cast<std::int64_t>(1) << p.log_tile) ? 1 : 0;
    }
    from = opaque(opaque(static_cast<std::uint32_t const*>(src) + in_base) +
                  (static_cast<std::uint32_t>(t) * in_s0 + static_cast<std::uint32_t>(j) * in_es));
    to = opaque(opaque(static_cast<std::uint32_t*>(dst) + out_base) +
                (static_cast<std::uint32_t>(t) * out_s0 + static_cast<std::uint32_t>(j) * out_es));
    at = static_cast<std::uint32_t>(out_base) + static_cast<std::uint32_t>(t) * out_s0 +
         static_cast<std::uint32_t>(j);
    return ok;
  };
  // The next item's E words are loaded before this item's stages run (software pipelining):
  // with ~20 warps resident per SM, loads issued only at the top of each item left the DRAM at
  // 45 % while the stages ran (from L = 8192: after stage 2's writes, kLateLoad).
  std::uint32_t raw[kE];
  // kPairedIn: lane 0's X[M / 2] (its own mirror), loaded with raw.
  std::uint32_t middle = 0;
  std::uint32_t const* from = nullptr;
  std::uint32_t* to = nullptr;
  std::uint32_t to_at = 0;
  auto const load = [&](int state) {
    if constexpr (kCols) {
      // Points T in_es words apart: a running pointer, opaque so that the E offsets are not
      // hoisted out of the item loop into E registers (204 bytes of spills at L = 1024).
      std::uint32_t const* q = from;
      std::uint32_t const step = in_es << kLogT;
#pragma unroll
      for (int i = 0; i < kE; ++i) {
        raw[i] = state <= 0 ? 0u : *q;
        q = opaque(q + step);
      }
    } else if constexpr (kPairedIn) {
      // The paired C2R: X[n] for the lane's pairs p < E / 2 (n = j + T p), then X[M - n].
      std::uint32_t const* const mirror = from + ((1 << kLogL) - 2 * j);
#pragma unroll
      for (int i = 0; i < kE / 2; ++i) {
        raw[i] = state <= 0 ? 0u : from[i << kLogT];
        raw[kE / 2 + i] = state <= 0 ? 0u : mirror[-(i << kLogT)];
      }
      middle = state <= 0 || j != 0 ? 0u : from[(1 << kLogL) / 2];
    } else {
#pragma unroll
      for (int i = 0; i < kE; ++i) {
        // C2R row pairs: values n >= M (i >= E / 2) from row R - q at 2M - n.
        raw[i] = state <= 0                  ? 0u
                 : kRowsIn && i >= kE / 2 ? from_mirror[-(i << kLogT)]
                                          : from[i << kLogLoadStep];
      }
    }
  };
  // The L2 bulk prefetch (PassParams::prefetch_items, which launch_length sets only where each
  // item's input is one contiguous range: whole tiles of adjacent rows): thread 0 starts
  // the DRAM reads of item w + P while the block computes item w, so that the read stream does
  // not wait for registers to hold the loads (at E = 32 the next item's loads are issued only
  // after stage 2). Only the plain, R2C and C2R variants take it; the others ignore
  // prefetch_items at compile time, so that the code and its registers are not in them.
  int const ahead =
      kReal == kNoSplit || kReal == kSplitOut || kSplitInAny ? p.prefetch_items : 0;
  auto const prefetch = [&](std::int64_t w) {
    std::int64_t const b = blockIdx.x + (w >> log_rounds) * gridDim.x;
    if (b >= p.blocks) return;
    auto const sequences = static_cast<std::uint32_t>(round_sequences);
    stockham::WordRange const r = stockham::sequences_input(
        p, b, static_cast<std::uint32_t>(w & ((1 << log_rounds) - 1)) * sequences, sequences);
    prefetch_l2(static_cast<std::uint32_t const*>(src) + r.first, r.count * 4u);
  };
  if (ahead > 0 && tid == 0) {
    for (int d = 1; d < ahead; ++d) prefetch(d);
  }
  int state = locate(0, from, to, to_at);
  __builtin_assume(__isGlobal(from));
  load(state);
#pragma unroll 1
  for (std::int64_t w = 0; state >= 0; ++w) {
    // The item's pointers are global (locate sets them whenever state >= 0); said again here,
    // since across the loop's back edge ptxas loses opaque()'s assumption and used generic
    // LD / ST for them. Only in the complex and R2C variants: H200, session 47, three runs
    // each, with the assumption in every variant (session 46's form) against none: C2C 2^13
    // 0.659-0.670 against 0.665-0.673 and the R2C of 2^14 reals 0.415-0.417 against
    // 0.422-0.433, but the C2R of 2048x2048 0.927-0.933 against 0.880-0.881, of 1024x1024
    // 0.828-0.843 against 0.792-0.799, the R2C of 1024x1024 0.766-0.778 against 0.746-0.761
    // (the row pairs) and the C2R of 2^14 reals 0.413-0.417 against 0.401-0.411 (paired).
    if constexpr (kReal == kNoSplit || kReal == kSplitOut) {
      __builtin_assume(__isGlobal(from));
      __builtin_assume(__isGlobal(to));
    }
    if (ahead > 0 && tid == 0) prefetch(w + ahead);
    float2 a[kE];
    if constexpr (kReal == kSplitIn) {
      // C2R rows hold M + 1 values: X[n] at from[T i] (raw, prefetched), X[M - n] at
      // from[M - 2 j - T i], loaded now (prefetching both spilled: 18-46 words at E = 16,
      // 108 at E = 32). Tried in session 42 (NOTES.md), no faster: X[M - n] copied one item
      // ahead into shared memory by cp.async (2^11..2^15 reals 2-22 % slower: 32 KB less L1),
      // and loaded one item ahead with the next X[n] at E = 32 (within 1 % at 1024 and 2048
      // points, where it does not spill; 4-12 % slower from 4096, where it does).
      std::uint32_t other[kE];
      std::uint32_t const* const mirror = from + ((1 << kLogL) - 2 * j);
#pragma unroll
      for (int i = 0; i < kE; ++i) other[i] = state > 0 ? mirror[-(i << kLogT)] : 0u;
      // W_{2M}^j / 4: the quarter in the per-item factor, not in each value's (exact either way;
      // 62 fewer FMUL per thread and item at L = 1024 and 2048, C2R 2^11..2^14 reals 1-3 %
      // faster on the H200, session 42).
      float2 const wsplit4 = cscale(split_base(), 0.25f);
      // conj Z[n] / 4 (split_inverse_quarter, conjugated for the forward DFT the inverse runs
      // on; n = 0 pairs X[0] with X[M], their imaginary parts ignored as cuFFT does).
#pragma unroll
      for (int i = 0; i < kE; ++i) {
        float2 x = unpack_word(raw[i]);
        float2 y = unpack_word(other[i]);
        if (i == 0 && j == 0) x.y = y.y = 0.f;
        a[i] = cconj(split_inverse_quarter(x, y, cmul(wsplit4, w_2e<kLogE>(i))));
      }
    } else if constexpr (kPairedIn) {
      // conj Z[n] / 4 and conj Z[M - n] / 4 from each pair (split_inverse_quarter_pair), then
      // the inputs from E / 2 on from lane (T - j) mod T's mirrors (stockham::c2r_paired_source;
      // lane 0 shifted, its Z[M / 2] = 2 conj X[M / 2]).
      float2 const wsplit4 = cscale(split_base(), 0.25f);
      float2 mz[kE / 2];
#pragma unroll
      for (int i = 0; i < kE / 2; ++i) {
        float2 x = unpack_word(raw[i]);
        float2 y = unpack_word(raw[kE / 2 + i]);
        if (i == 0 && j == 0) x.y = y.y = 0.f;
        float2 zn, zm;
        split_inverse_quarter_pair(x, y, cmul(wsplit4, w_2e<kLogE>(i)), zn, zm);
        a[i] = cconj(zn);
        mz[i] = cconj(zm);
      }
      float2 const half = cscale(unpack_word(middle), 0.5f);  // conj(2 conj X[M / 2]) / 4
      int const partner = (kT - j) & (kT - 1);
      // What the partner takes as its input E - 1 - q.
      auto const given = [&](int q) { return j != 0 ? mz[q] : q + 1 < kE / 2 ? mz[q + 1] : half; };
      if constexpr (kT == 32) {
#pragma unroll
        for (int q = 0; q < kE / 2; ++q) {
          float2 const src = given(q);
          a[kE - 1 - q] = make_float2(__shfl_sync(0xffffffffu, src.x, partner),
                                      __shfl_sync(0xffffffffu, src.y, partner));
        }
      } else {
        // T >= 64: the partner is in another warp of the sequence (lane T / 2 is its own), so
        // the halves go through the exchange buffer, slot q T + j: after the barrier that ends the
        // last item's stage-3 reads; stage 1's own barrier (kOneBuffer) ends these reads.
        static_assert(kOneBuffer && (kE / 2) * kT <= kSlots, "the halves fit one buffer");
        sequence_barrier<kLogBarrier>();
#pragma unroll
        for (int q = 0; q < kE / 2; ++q) buf1[q * kT + j] = given(q);
        sequence_barrier<kLogBarrier>();
#pragma unroll
        for (int q = 0; q < kE / 2; ++q) a[kE - 1 - q] = buf1[q * kT + partner];
      }
    } else if constexpr (kRows) {
      // 2 A[n] from the words of rows q and R - q, swapped within the lane pair (every lane of
      // the warp takes part: state is uniform per block past its last item).
      bool const odd = (j & 1) != 0;
#pragma unroll
      for (int i = 0; i < kE; ++i) {
        std::uint32_t const other = __shfl_xor_sync(0xffffffffu, raw[i], 1);
        a[i] = stockham::row_pairs_value(odd, unpack_word(raw[i]), unpack_word(other));
      }
    } else if constexpr (kRowsIn) {
      // conj F[n] (the inverse as conj forward conj): conj X[q][n], n < M; X[R - q][2M - n].
#pragma unroll
      for (int i = 0; i < kE; ++i) a[i] = unpack_word(i < kE / 2 ? raw[i] ^ kConjugate : raw[i]);
    } else {
#pragma unroll
      for (int i = 0; i < kE; ++i) a[i] = unpack_word(raw[i] ^ conj);
    }
    bool const ok = state > 0;
    // Columns: the stores' point stride, opaque per item so that the E store offsets are formed
    // where they are used, not held in registers through the item loop.
    std::uint32_t item_out_es = out_es;
    if constexpr (kCols) asm("" : "+r"(item_out_es));
    std::uint32_t* const seq = to;
    std::uint32_t* const seq_mirror = to_mirror;
    bool const seq_self = to_self;
    std::uint32_t const seq_at = to_at;
    state = locate(w + 1, from, to, to_at);
    __builtin_assume(__isGlobal(from));
    __builtin_assume(__isGlobal(seq));
    if constexpr (!kLateLoad) load(state);
    // Stage 1: Ns = 1, radix E, no twiddle; y[E j + k].
    dft_pow2<kLogE>(a);  // a[bit_reverse(k)] = X[k]
    if constexpr (kOneBuffer) sequence_barrier<kLogBarrier>();  // the last item's stage-3 reads
#pragma unroll
    for (int k = 0; k < kE; ++k) buf1[(write1 + k) * kScale] = a[bit_reverse<kLogE>(k)];
    sequence_barrier<kLogBarrier>();
#pragma unroll
    for (int i = 0; i < kE; ++i) a[i] = buf1[stockham::read_slot(j, i, kLogL) * kScale];
    // Stage 2: Ns = E, radix 16, butterflies v = j + u T, inputs a[u + m E / 16], twiddles
    // scale W_16E^(k2 m); y[(v - k2) 16 + k2 + E k].
#pragma unroll
    for (int m = 0; m < 16; ++m) {
      float2 const t = tw2[(m << kLogE) + k2];
#pragma unroll
      for (int u = 0; u < kU2; ++u) {
        a[stockham::input_register(u, m, 4, kLogL)] =
            cmul(a[stockham::input_register(u, m, 4, kLogL)], t);
      }
    }
#pragma unroll
    for (int u = 0; u < kU2; ++u) {
      float2 b[16];
#pragma unroll
      for (int m = 0; m < 16; ++m) b[m] = a[stockham::input_register(u, m, 4, kLogL)];
      dft_pow2<4>(b);
#pragma unroll
      for (int k = 0; k < 16; ++k) a[stockham::input_register(u, k, 4, kLogL)] = b[k];
    }
    if constexpr (kOneBuffer) sequence_barrier<kLogBarrier>();  // this item's stage-2 reads
#pragma unroll
    for (int u = 0; u < kU2; ++u) {
      // write_slot_base(j + u T, 1): T is a multiple of E, so the low part stays j mod E.
      int const base = write2 + u * (stockham::write_slot_base(kT, 1, kLogL) -
                                     stockham::write_slot_base(0, 1, kLogL));
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        buf2[(base + k * stockham::write_slot_step(1, kLogL)) * kScale] =
            a[stockham::input_register(u, bit_reverse<4>(k), 4, kLogL)];
      }
    }
    if constexpr (kLateLoad) load(state);
    sequence_barrier<kLogBarrier>();
    if constexpr (!kStreamLast) {
#pragma unroll
      for (int i = 0; i < kE; ++i) a[i] = buf2[stockham::read_slot(j, i, kLogL) * kScale];
    }
    // W_L^j opaque per item in the row pairs: its powers are the same for every item, and the
    // compiler kept some of them through the item loop (hoisted), where they spilled 4-44 bytes
    // (SASS); opaque, none, and the R2C of 1024x1024 0.852 -> 0.836 ms (H100, same call). Not in
    // the 1-D R2C: it spilled less there too, but ran 0.453 -> 0.469 ms at 2^14 reals.
    float2 w3 = w3j;
    if constexpr (kRows || kRowsIn) asm("" : "+f"(w3.x), "+f"(w3.y));
    if constexpr (kPaired) {
      paired_r2c_stage<kLogL>(buf2, w3, split_base(), j, ok, seq);
    } else if constexpr (kWarpPaired) {
      warp_paired_r2c_stage<kLogL>(buf2, coarse, j, ok, seq - j);
    } else {
      // The last stage: Ns = L / R3, radix R3, butterflies v = j + u T (v < Ns), twiddles
      // W_L^(v m); X[v + Ns k] to global memory.
#pragma unroll
      for (int u = 0; u < kU3; ++u) {
        float2 b[kR3];
#pragma unroll
        for (int m = 0; m < kR3; ++m) {
          int const r = stockham::input_register(u, m, kLogR3, kLogL);
          b[m] = kStreamLast ? buf2[stockham::read_slot(j, r, kLogL) * kScale] : a[r];
        }
        twiddle_inputs<kR3, 1>(b, 0, times_w32(w3, u << (5 - kLogE)));
        dft_pow2<kLogR3>(b);
        if constexpr (kRowsIn) {
          // a[n] = conj of output n = v + k Ns; the lane pair (n, n ^ 1) swaps them and writes
          // word n / 2 of Y's rows q (even lane) and R - q (odd lane). Every lane shuffles.
          bool const odd = (j & 1) != 0;
#pragma unroll
          for (int k = 0; k < kR3; ++k) {
            float2 const y = b[bit_reverse<kLogR3>(k)];
            float2 const mine = make_float2(y.x, -y.y);
            float2 const other = make_float2(__shfl_xor_sync(0xffffffffu, mine.x, 1),
                                             __shfl_xor_sync(0xffffffffu, mine.y, 1));
            if (ok && !(odd && seq_self)) {
              seq[((u << kLogT) + (k << kLogNs3)) >> 1] =
                  pack_word(stockham::row_pairs_join(odd, seq_self, mine, other));
            }
          }
          continue;
        }
        if (ok) {
#pragma unroll
          for (int k = 0; k < kR3; ++k) {
            float2 y = b[bit_reverse<kLogR3>(k)];
            if constexpr (kRows) {
              // Output n = v + k Ns: row q at n, row R - q at 2M - n conjugated (n = 0: at 0,
              // seq_mirror[-2M]).
              int const off = (u << kLogT) + (k << kLogNs3);
              auto const where =
                  stockham::row_pairs_stage_targets(k, u == 0 && j == 0, kLogL, seq_self);
              if (where.own) seq[off] = pack_word(y);
              if (where.mirror) {
                seq_mirror[k == 0 ? -(1 << kLogL) : -off] = pack_word(y) ^ kConjugate;
              }
              continue;
            }
            if constexpr (kHooked) {
              // ExecuteHooks::store_factors: output times its factor (indexed by its offset in
              // dst & mask), conjugated if asked; y is the conjugate of the output for the
              // inverse, so the factor is conjugated once more there.
              y = cmul(y, hook_factor(p.store_factors,
                                      (seq_at + (u << kLogT) + (k << kLogNs3)) & p.factor_mask,
                                      flip_factor));
            }
            seq[static_cast<std::uint32_t>((u << kLogT) + (k << kLogNs3)) * item_out_es] =
                pack_word(y) ^ conj;
          }
        }
      }
    }
  }
}

/// The exchange buffers of each sequence of a round, then stage 2's 16 E twiddles.
template <int kLogL>
std::size_t smem_bytes(int log_threads) {
  return ((static_cast<std::size_t>(stockham::buffers(kLogL) * stockham::sequence_slots(kLogL))
           << (log_threads - stockham::log_sequence_threads(kLogL))) +
          (16 << stockham::log_values(kLogL))) *
         sizeof(float2);
}

/// The R2C split's kernel (stockham::r2c_length: every length, paired or warp-paired).
template <int kLogL>
constexpr auto r2c_kernel() {
  static_assert(stockham::r2c_length(kLogL), "the R2C split at every length");
  return stockham_pass_kernel<kLogL, false, false, kSplitOut>;
}

/// The row pairs' kernels, R2C (forward) and C2R (inverse), at every length of the pass.
template <int kLogL>
constexpr auto row_pairs_kernel() {
  static_assert(kLogL >= stockham::kMinLogLengthRowPairs, "row pairs at every length");
  return stockham_pass_kernel<kLogL, false, false, kRowPairs>;
}
template <int kLogL>
constexpr auto row_pairs_in_kernel() {
  static_assert(kLogL >= stockham::kMinLogLengthRowPairs, "row pairs at every length");
  return stockham_pass_kernel<kLogL, true, false, kRowPairsIn>;
}

/// The C2R split's kernel up to L = 16384 (every such length pairs: stockham::c2r_paired),
/// paired (kSplitInPaired) or not; else the plain inverse one (likewise never launched with
/// real_in).
template <int kLogL>
constexpr auto c2r_kernel(bool paired) {
  if constexpr (stockham::c2r_paired(kLogL)) {
    return paired ? stockham_pass_kernel<kLogL, true, false, kSplitInPaired>
                  : stockham_pass_kernel<kLogL, true, false, kSplitIn>;
  } else {
    return stockham_pass_kernel<kLogL, true, false>;
  }
}

/// The C2R split of every length (512 .. 16384 points) runs paired (kSplitInPaired) unless
/// FFTCORE_TC_C2R_PAIRED=0 (read once). H200, ms per 2^28 reals, unpaired / paired, three runs
/// each in one call (fftcore/NOTES.md, session 43): 2^10 reals 0.335-0.341 / 0.300-0.303, 2^11
/// 0.398-0.405 / 0.347-0.350, 2^12 0.375-0.380 / 0.350-0.356, 2^13 0.395-0.397 / 0.368-0.371,
/// 2^14 0.420-0.422 / 0.402-0.404, 2^15 0.511-0.513 / 0.467-0.474.
bool c2r_paired_on() noexcept {
  static bool const on = env_mode("FFTCORE_TC_C2R_PAIRED") != 0;
  return on;
}

template <int kLogL>
cudaError_t prepare_length() noexcept {
  int const bytes =
      static_cast<int>(smem_bytes<kLogL>(stockham::log_threads(stockham::kLogMaxThreads, kLogL)));
  cudaError_t e = cudaSuccess;
  if constexpr (kLogL <= stockham::kMaxLogLengthColumns) {
    int const column_bytes = static_cast<int>(smem_bytes<kLogL>(stockham::kLogColumnThreads));
    for (auto const kernel : {stockham_pass_kernel<kLogL, false, false, kColumns>,
                              stockham_pass_kernel<kLogL, true, false, kColumns>}) {
      if (e == cudaSuccess) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 column_bytes);
      }
    }
  }
  for (auto const kernel :
       {stockham_pass_kernel<kLogL, false, false>, stockham_pass_kernel<kLogL, true, false>,
        stockham_pass_kernel<kLogL, false, true>, stockham_pass_kernel<kLogL, true, true>,
        r2c_kernel<kLogL>(), c2r_kernel<kLogL>(false), c2r_kernel<kLogL>(true),
        row_pairs_kernel<kLogL>(),
        row_pairs_in_kernel<kLogL>()}) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    }
  }
  return e;
}

/// PassParams::prefetch_items: FFTCORE_TC_PREFETCH items ahead (read once; else
/// stockham::default_prefetch_items) where each item's input is one contiguous range
/// (stockham::prefetch_contiguous), else 0. The kernel's variants without the prefetch ignore it.
int stockham_prefetch_items(PassParams const& pass) noexcept {
  static int const items = env_int("FFTCORE_TC_PREFETCH", -1);
  if (!stockham::prefetch_contiguous(pass)) return 0;
  return items >= 0 ? items
                    : stockham::default_prefetch_items(pass.log_length, fast_dram_device(),
                                                       pass.real_in != 0);
}

template <int kLogL>
cudaError_t launch_length(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                          bool inverse, cudaStream_t stream) noexcept {
  int const log_threads = stockham::log_threads(pass.log_tile, kLogL);
  dim3 const block(1u << static_cast<unsigned>(log_threads));
  std::size_t const smem = smem_bytes<kLogL>(log_threads);
  if ((pass.real_out != 0 && inverse) || (pass.real_in != 0 && !inverse)) {
    return cudaErrorInvalidValue;  // R2C runs forward, C2R inverse
  }
  if (pass.real_in != 0 && kLogL > stockham::kMaxLogLengthReal) return cudaErrorInvalidValue;
  if (pass.real_row_pairs != 0 &&
      (inverse != stockham::row_pairs_c2r(pass) || !stockham::eligible(pass))) {
    return cudaErrorInvalidValue;  // the R2C's forward, the C2R's inverse
  }
  int const variant = pass.real_row_pairs != 0 ? (inverse ? kRowPairsIn : kRowPairs)
                      : pass.real_out != 0     ? kSplitOut
                      : pass.real_in != 0
                          ? (stockham::c2r_paired(kLogL) && c2r_paired_on() ? kSplitInPaired
                                                                            : kSplitIn)
                          : kNoSplit;
  PassParams run = pass;
  run.prefetch_items = stockham_prefetch_items(pass);
  auto const kernel = variant == kRowPairs    ? row_pairs_kernel<kLogL>()
                      : variant == kRowPairsIn ? row_pairs_in_kernel<kLogL>()
                      : variant == kSplitOut ? r2c_kernel<kLogL>()
                      : variant == kSplitIn || variant == kSplitInPaired
                          ? c2r_kernel<kLogL>(variant == kSplitInPaired)
                      : pass.store_factors != nullptr
                          ? (inverse ? stockham_pass_kernel<kLogL, true, true>
                                     : stockham_pass_kernel<kLogL, false, true>)
                          : (inverse ? stockham_pass_kernel<kLogL, true, false>
                                     : stockham_pass_kernel<kLogL, false, false>);
  // As many blocks as stay resident (cached per block size and split), at most one per tile.
  constexpr int kBlockSizes = stockham::log_sequence_threads(stockham::kMaxLogLength) + 1;
  static std::atomic<int> resident_cache[kLaunchVariants][kBlockSizes] = {};
  unsigned grid = 0;
  cudaError_t const e = resident_grid(kernel, static_cast<int>(block.x), smem,
                                      resident_cache[variant][log_threads], pass.blocks, grid);
  if (e != cudaSuccess) return e;
  return launch_chained(kernel, grid, block, smem, stream, run, src, dst, coarse);
}

}  // namespace

cudaError_t prepare_stockham_pass_kernels() noexcept {
  cudaError_t e = prepare_length<9>();
  if (e == cudaSuccess) e = prepare_length<10>();
  if (e == cudaSuccess) e = prepare_length<11>();
  if (e == cudaSuccess) e = prepare_length<12>();
  if (e == cudaSuccess) e = prepare_length<13>();
  if (e == cudaSuccess) e = prepare_length<14>();
  return e;
}

/// The column variant: 512 threads (C columns of T threads), resident blocks grid-stride.
template <int kLogL>
cudaError_t launch_columns(PassParams const& pass, void const* src, void* dst,
                           float2 const* coarse, bool inverse, cudaStream_t stream) noexcept {
  static_assert(kLogL >= stockham::kMinLogLengthColumns &&
                kLogL <= stockham::kMaxLogLengthColumns, "columns of 512..2048 points");
  if (!stockham::columns_eligible(pass)) return cudaErrorInvalidValue;
  // Tiles of at least C columns (the planner's hold 8): the same columns, retiled, so that an
  // item is a round of one tile. Its partial last tile leaves the slots past the columns idle.
  int const log_c = stockham::log_columns(kLogL);
  PassParams const tiled = pass.log_tile < log_c ? retiled(pass, log_c) : pass;
  dim3 const block(1u << stockham::kLogColumnThreads);
  std::size_t const smem = smem_bytes<kLogL>(stockham::kLogColumnThreads);
  auto const kernel = inverse ? stockham_pass_kernel<kLogL, true, false, kColumns>
                              : stockham_pass_kernel<kLogL, false, false, kColumns>;
  static std::atomic<int> resident_cache = 0;
  unsigned grid = 0;
  cudaError_t const e = resident_grid(kernel, static_cast<int>(block.x), smem, resident_cache,
                                      tiled.blocks, grid);
  if (e != cudaSuccess) return e;
  return launch_chained(kernel, grid, block, smem, stream, tiled, src, dst, coarse);
}

/// FFTCORE_TC_STOCKHAM_COLUMNS: 0 sends the column passes back to the other kernels, 3 hands
/// it every eligible pass (A/B; read once). By default the variant takes the
/// passes where it measured faster (H100, session 21): L = 1024 and 2048 (1024x1024 1.81-1.86
/// against 1.86-1.88 ms, 2048x2048 1.87-2.03 against 2.16-2.18), and the column FFTs of the
/// real row pairs (prefer_stockham_columns) at 512..2048; the complex 2-D column passes of 512
/// points stay on the register-chained pass (512 x 256 1.70 against 1.92-1.99 ms).
int stockham_columns_mode() noexcept {
  static int const mode = env_mode("FFTCORE_TC_STOCKHAM_COLUMNS");
  return mode;
}

bool runs_stockham_columns(PassParams const& pass) noexcept {
  int const mode = stockham_columns_mode();
  bool const preferred = pass.log_length > stockham::kMinLogLengthColumns ||
                         pass.prefer_stockham_columns != 0 || mode == 3;
  return mode != 0 && preferred && stockham::columns_eligible(pass);
}

cudaError_t launch_stockham_columns(PassParams const& pass, void const* src, void* dst,
                                    float2 const* coarse, bool inverse,
                                    cudaStream_t stream) noexcept {
  switch (pass.log_length) {
    case 9:
      return launch_columns<9>(pass, src, dst, coarse, inverse, stream);
    case 10:
      return launch_columns<10>(pass, src, dst, coarse, inverse, stream);
    case 11:
      return launch_columns<11>(pass, src, dst, coarse, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

/// FFTCORE_TC_STOCKHAM_PASS=0 in the environment sends these passes to the other kernels (for
/// A/B measurements in one build; read once).
bool runs_stockham_pass(PassParams const& pass) noexcept {
  static bool const enabled = env_switch_on("FFTCORE_TC_STOCKHAM_PASS");
  return enabled && stockham::eligible(pass);
}

cudaError_t launch_stockham_pass(PassParams const& pass, void const* src, void* dst,
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
    case 13:
      return launch_length<13>(pass, src, dst, coarse, inverse, stream);
    case 14:
      return launch_length<14>(pass, src, dst, coarse, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
