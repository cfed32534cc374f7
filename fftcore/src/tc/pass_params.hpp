// SPDX-License-Identifier: MIT
// The description of one global-memory pass of the Tensor Core backend, shared by the host
// planner (plan_logic.cpp), the kernel (kernels/pass_kernel.cu) and the CPU tests. A pass runs
// `T` independent FFTs of length `L` per thread block; the index maps below say where each of
// them lives in global and shared memory. Plain data: it is passed to the kernel by value.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define FFTCORE_HD __host__ __device__
#else
#define FFTCORE_HD
#endif

namespace fftcore::detail::tc {

inline constexpr int kMaxStages = 8;
inline constexpr int kDigits = 4;
inline constexpr int kElementsPerThread = 16;
inline constexpr int kLogMaxBlockElements = 14;  ///< 2^14 complex FP32 = 128 KiB shared
inline constexpr int kLogMinBlockElements = 9;   ///< one warp of 16 elements per thread
inline constexpr int kLogCoarse = 14;            ///< coarse table: W_{2^14}^i, i < 2^14
inline constexpr int kLogTwiddleBase = 28;       ///< pass twiddles: W_{2^28}^e = coarse * fine

/// Buffers a pass reads or writes.
enum class Buffer : std::int32_t { kIn = 0, kOut = 1, kWorkspace = 2 };

/// One pass. The sequences of a pass are numbered q = d0 + D0 (d1 + D1 (d2 + D2 d3)); a block
/// takes T consecutive values of d0 (a tile of adjacent columns where d0 has unit stride, so
/// that every access touches whole 32..256-byte segments). Element n of sequence q is read at
/// sum_i d_i in_stride[i] + n in_elem_stride; output k is multiplied by
/// W_{2^log_twiddle_n}^(tw(q) k), tw(q) = sum_i d_i twiddle_stride[i], and by `scale`, then
/// written at sum_i d_i out_stride[i] + k out_elem_stride.
struct PassParams {
  std::int32_t log_length = 0;  ///< L = 2^log_length
  std::int32_t log_tile = 0;    ///< T = 2^log_tile sequences per block
  std::int32_t stage_count = 0;
  std::int32_t log_radix[kMaxStages] = {};  ///< in-block merges; 4 (radix 16) runs on MMAs
  std::int64_t extent[kDigits - 1] = {1, 1, 1};  ///< D0, D1, D2; d3 takes what is left
  std::int64_t in_stride[kDigits] = {};
  std::int64_t out_stride[kDigits] = {};
  std::int64_t in_elem_stride = 1;
  std::int64_t out_elem_stride = 1;
  std::int64_t twiddle_stride[kDigits] = {};
  std::int32_t log_twiddle_n = 0;  ///< 0: no twiddle after this pass
  float scale = 1.0f;
  std::int32_t in_fp32 = 0;   ///< source holds float2 (workspace in FP32 mode), else __half2
  std::int32_t out_fp32 = 0;
  Buffer src = Buffer::kIn;
  Buffer dst = Buffer::kOut;
  std::int32_t scatter = 0;  ///< reads and writes different element sets (needs src != dst)
  /// The R2C split fused into the store (the single pass of a real transform's row FFT, run by
  /// the register-chained pass, fast_pass_layout.hpp): sequence t of L = M outputs Z becomes
  /// the M + 1 outputs X[k] written at sum_i d_i out_stride[i] + k (out_elem_stride 1).
  std::int32_t real_out = 0;
  /// The C2R split fused into the load (likewise): value n of sequence t is
  /// Z[n] = (X[n] + conj X[M-n]) + i W_{2M}^-n (X[n] - conj X[M-n]) (real_split.hpp) of the
  /// M + 1 inputs X of that sequence at sum_i d_i in_stride[i] + k (in_elem_stride 1), times
  /// 1/4 to stay in FP16's range (the pass's scale carries the 4).
  std::int32_t real_in = 0;
  /// The R2C split fused into the store of the last pass of a row FFT of M = P L points in
  /// two or three passes (the register-chained pass, fast_pass_layout.hpp: pair_*): its
  /// sequences t < P = 2^pair_log_sequences write Z[t + P k], so that Z[M - n] of output k of t
  /// is output L - 1 - k of sequence P - t; a block takes T / 2 sequences and their mirrors and
  /// writes X[n] and X[M - n] to rows of M + 1 (out_stride[1] apart). Sequence t = t0 + L0 t1
  /// (L0 = 2^pair_log_l0) reads its row at t0 pair_in_stride0 + t1 pair_in_stride1 past the
  /// transform's in_stride[1] b. Digits: extent[0] = P (tiles of T), extent[1] = the batch.
  std::int32_t real_pairs = 0;
  std::int32_t pair_log_sequences = 0;
  std::int32_t pair_log_l0 = 0;
  std::int64_t pair_in_stride0 = 0;
  std::int64_t pair_in_stride1 = 0;
  /// The C2R split fused into the load of the first of two or three row passes of M = L D0
  /// points (the column pass at L = 128, the register-chained pass at 256..1024; both read
  /// adjacent columns): element n of column c < D0 is Z[j] / 4, j = c + D0 n (in_elem_stride
  /// D0, in_stride[0] 1), of X[j] and X[M - j] (real_split.hpp; X[0] and X[M] without their
  /// imaginary parts; real_mirror_offset) in rows of M + 1 (in_stride[1] apart). The column
  /// pass keeps Z in FP32, the register-chained pass rounds Z / 4 to FP16 once. `scale` carries
  /// the 4 and the split's scale.
  std::int32_t real_in_columns = 0;
  /// The R2C of rows of 2^15 reals two at a time on the long pass (long_pass_layout.hpp,
  /// "twin"): item d1 reads rows a = 2 d1 and b = 2 d1 + 1 (FP16 reals, in_stride[1] / 2 words
  /// apart) as one complex sequence z = x_a + i x_b, and writes both rows' M + 1 = 16385
  /// half-spectrum values (out_stride[1] / 2 apart) from Z[k] and Z[N - k]. twin_odd: the last
  /// item has row a only.
  std::int32_t real_twin = 0;
  std::int32_t twin_odd = 0;
  /// The last pass of a 2-D R2C of R = 2^row_pairs_log_rows rows of 2M reals whose column FFT
  /// ran first, over the M complex columns of the reals read as complex (the Stockham pass,
  /// stockham_pass_layout.hpp: row_pairs_*): with Y[q][c] that FFT's output (rows in_stride[0]
  /// = M apart), sequence q (d0 < R / 2 + 1) is the L = 2M values 2 A[q][n],
  /// 2 A[q][2c] = Y[q][c] + conj Y[R - q][c] and 2 A[q][2c + 1] = -i (Y[q][c] - conj Y[R - q][c])
  /// (A: the column DFTs of the real columns), whose DFT F gives row q of the half spectrum
  /// (X[q][k] = F[k], k <= M) and row R - q (X[R - q][k] = conj F[2M - k]), rows out_stride[0]
  /// = M + 1 apart. Digits: extent[0] = R / 2 + 1, extent[1] = the batch (images in_stride[1]
  /// and out_stride[1] apart). The C2R's (run inverse; rows of M + 1 in, in_stride[0], and of M
  /// out): sequence q is row q of the full spectrum (X[q][n], n < M; conj X[R - q][2M - n]),
  /// and its inverse DFT a gives Y[q][c] = a[2c] + i a[2c + 1], Y[R - q][c] = conj a[2c] +
  /// i conj a[2c + 1], the input of the inverse column FFT.
  std::int32_t real_row_pairs = 0;
  std::int32_t row_pairs_log_rows = 0;
  /// The 1-D R2C of N = N1 N2 reals in two tall passes over half the data
  /// (tall_real_layout.hpp): tall_real::kColumnsPass, the column FFTs of N2 points over the
  /// N1 / 2 complex columns of the reals, separated into the N1 real columns' spectra rows
  /// k2 <= N2 / 2 and twiddled by W_N^(n1 k2); tall_real::kRowsPass, the row FFTs of N1 points
  /// of those rows, written to the half spectrum directly or conjugate-mirrored. The C2R's
  /// backwards: tall_real::kC2rColumnsPass, the inverse column FFTs of N1 points over the
  /// columns k2 <= N2 / 2 of the half spectrum (the mirrored half read conjugated), twiddled by
  /// W_N^(-n1 k2); tall_real::kC2rRowsPass, the inverse row FFTs of N2 points over pairs of
  /// those rows, each pair read as one complex sequence. halves_log_n: log2 N; halves_log_n2:
  /// log2 N2.
  std::int32_t real_halves = 0;
  std::int32_t halves_log_n = 0;
  std::int32_t halves_log_n2 = 0;
  /// Set by the real layouts on the last pass of a 1-D R2C of 2^17..2^20 reals
  /// (RealLayout::mirror): the 128-point DFTs of the D0 = 2^mirror_log_sequences sequences of
  /// 128 adjacent words the twiddled first pass left, two mirrored groups of 32 a block, with the
  /// split in the store, to the half spectrum in natural order; and on the first pass of the C2R
  /// of those sizes, the same backwards (mirror_pass_layout.hpp).
  std::int32_t real_mirror = 0;
  std::int32_t mirror_log_sequences = 0;
  /// Set by the real layouts on the column FFT of the row pairs: the Stockham pass's column
  /// variant (stockham::columns_eligible) measured faster there at 512..2048 rows, where for
  /// complex 2-D columns it did only from 1024 (fftcore/NOTES.md, session 21).
  std::int32_t prefer_stockham_columns = 0;
  std::int64_t tiles0 = 1;   ///< ceil(D0 / T)
  std::int64_t blocks = 1;
  /// Shortcuts for block_origin, set by the planner (set_origin_shortcuts): log2 of tiles0, D1
  /// and D2 where all three are powers of two (else -1), and whether every offset of the pass
  /// (input, output, twiddle exponent base) fits in 31 bits, so that 32-bit products do.
  std::int32_t log_tiles0 = -1;
  std::int32_t log_extent1 = -1;
  std::int32_t log_extent2 = -1;
  std::int32_t offsets32 = 0;
  /// Also set there: whether block b's origin is b times (block_in_step, block_out_step) for
  /// every b (whole tiles, and each digit's stride the span of the digits below it: the
  /// sequences of the pass lie at one stride, tile after tile), so that a kernel walking many
  /// tiles needs one product per tile instead of block_origin (the Stockham pass: ~100 of its
  /// ~1000 instructions per 16-value item, H200 SASS).
  std::int32_t linear_blocks = 0;
  std::int64_t block_in_step = 0;
  std::int64_t block_out_step = 0;
  std::int32_t threads = 32;
  std::int32_t smem_bytes = 0;
  /// Set by the launchers of the kernels that take it (the long pass and its twin, the
  /// Stockham pass): how many work items ahead of the one it computes a block prefetches the
  /// item's input into L2 (0: none; kernels/l2_prefetch.cuh). Only where each item's input is
  /// one contiguous range.
  std::int32_t prefetch_items = 0;
  /// Set by the tall pass's launcher: whether its column-form loads ask L2 to fetch the whole
  /// 128-byte line around each 32-byte run (ld.global.L2::128B; NOTES.md session 31). Set by the
  /// group pass's launcher: whether step 1's loads ask L2 to fetch the 256 bytes around them
  /// (ld.global.L2::256B; NOTES.md session 34).
  std::int32_t l2_fetch_hint = 0;
  /// The cross-row first stage of a 2-D column transform (cross_rows_layout.hpp), set by the
  /// executor on a copy of the row pass it runs with it: 0 off; else the input distance (in
  /// words) between the four rows a round of the group pass's doubled form takes, and the
  /// stage's share of the column transform's scale.
  std::int64_t cross_stride = 0;
  float cross_scale = 1.0f;
  // ExecuteHooks, set per execute on copies of the first pass (load) and the last pass (store):
  // float2 factors indexed by the element's offset in the source / destination buffer & mask
  // (transforms lie back to back, so that is the index within the transform). Null: none.
  void const* load_factors = nullptr;
  void const* store_factors = nullptr;
  std::int32_t conjugate_store = 0;
  std::uint32_t factor_mask = 0;
};

/// Whether `p` reads and writes every element at the same place (the same strides in and out).
FFTCORE_HD inline bool same_places(PassParams const& p) {
  bool same = p.in_elem_stride == p.out_elem_stride;
  for (int i = 0; i < kDigits; ++i) same = same && p.in_stride[i] == p.out_stride[i];
  return same;
}

/// log2 of a power of two (> 0).
FFTCORE_HD inline int log2_of_pow2(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(v)) - 1;
#else
  return __builtin_ctz(v);
#endif
}

/// PassParams::real_in_columns: the block's column t is column c = d0 + t of its transform (the
/// block's input origin is that transform's row plus d0), whose element n is Z[j], j = c + D0 n,
/// of X[j] (at t + n D0 past the origin) and X[M - j] (M = D0 L) at this offset past the origin;
/// it may be negative (-D0 < offset <= M: within the row of M + 1).
FFTCORE_HD inline int real_mirror_offset(int d0, int t, int n, int inner, int log_l) {
  return (inner << log_l) - 2 * d0 - t - n * inner;
}

/// Where a block's tile starts: d0 of its first sequence and the base offsets of that sequence.
struct BlockOrigin {
  std::int64_t d0;
  std::int64_t in_base;
  std::int64_t out_base;
  std::int64_t twiddle_base;
};

/// The planner keeps blocks < 2^31 (finish_layout), so the block index and the digit extents
/// it is split by (tiles0, D1, D2: factors of blocks) fit in 32 bits, and the split runs in
/// 32-bit unsigned arithmetic: every thread of a block computes it, and a 64-bit division by a
/// run-time divisor is a long subroutine on the GPU. Only the offsets are 64-bit.
/// With the planner's shortcuts (set_origin_shortcuts) the split takes three shifts, and the
/// offsets 32-bit products (ncu: the 64-bit path was ~90 of a thread's ~1000 instructions).
FFTCORE_HD inline BlockOrigin block_origin(PassParams const& p, std::int64_t block) {  // NOLINT
  auto const b = static_cast<std::uint32_t>(block);
  auto const tiles0 = static_cast<std::uint32_t>(p.tiles0);
  auto const e1 = static_cast<std::uint32_t>(p.extent[1]);
  auto const e2 = static_cast<std::uint32_t>(p.extent[2]);
  std::uint32_t rest0, rest1, rest2;
  if (p.log_tiles0 >= 0) {
    // Powers of two (every digit but a batch that is not): shifts, not three divisions.
    rest0 = b >> p.log_tiles0;
    rest1 = rest0 >> p.log_extent1;
    rest2 = rest1 >> p.log_extent2;
  } else {
    rest0 = b / tiles0;
    rest1 = rest0 / e1;
    rest2 = rest1 / e2;
  }
  if (p.offsets32 != 0) {
    std::int32_t const d32[kDigits] = {static_cast<std::int32_t>((b - rest0 * tiles0) << p.log_tile),
                                       static_cast<std::int32_t>(rest0 - rest1 * e1),
                                       static_cast<std::int32_t>(rest1 - rest2 * e2),
                                       static_cast<std::int32_t>(rest2)};
    std::int32_t in = 0, out = 0, tw = 0;
    for (int i = 0; i < kDigits; ++i) {
      in += d32[i] * static_cast<std::int32_t>(p.in_stride[i]);
      out += d32[i] * static_cast<std::int32_t>(p.out_stride[i]);
      tw += d32[i] * static_cast<std::int32_t>(p.twiddle_stride[i]);
    }
    return {d32[0], in, out, tw};
  }
  std::int64_t d[kDigits];
  d[0] = static_cast<std::int64_t>(b - rest0 * tiles0) << p.log_tile;
  d[1] = rest0 - rest1 * e1;
  d[2] = rest1 - rest2 * e2;
  d[3] = rest2;
  BlockOrigin o{d[0], 0, 0, 0};
  for (int i = 0; i < kDigits; ++i) {
    o.in_base += d[i] * p.in_stride[i];
    o.out_base += d[i] * p.out_stride[i];
    o.twiddle_base += d[i] * p.twiddle_stride[i];
  }
  return o;
}

/// Shared-memory slot of element n of the block's sequence t: sequences back to back, the low
/// four index bits XOR-swizzled by the sequence and by an XOR-fold of the higher index bits,
/// h ^ h >> 2 ^ h >> 4 ^ h << 2 with h = n >> 4. The fold was picked by simulating the 32 banks
/// for every access of every pass shape (tile loads and stores, each merge's reads and
/// writes): 56 excess wavefronts over all shapes against 290 with the earlier swizzle by the
/// top four bits. The radix-16 merges take the minimum of 2 wavefronts per warp access for
/// 2^8 <= L <= 2^13 (they took 4-8), and reads of L = 2^14 stay 2-way
/// (tc_plan_logic_test: RadixSixteenMergesAreBankConflictFree).
FFTCORE_HD inline int smem_slot(int t, int n, int log_l) {
  if (log_l < 4) return (t << log_l) + (n ^ (t & ((1 << log_l) - 1)));
  int const h = n >> 4;
  return (t << log_l) + (n ^ ((t ^ h ^ (h >> 2) ^ (h >> 4) ^ (h << 2)) & 15));
}

/// A Stockham merge of radix r = 2^log_r after Ns = 2^log_ns points are already merged, on a
/// sequence of length L: butterfly j < L/r reads x[j + m L/r] (m < r), multiplies it by
/// W_{Ns r}^(m k) with k = j mod Ns, takes the r-point DFT and writes y[(j - k) r + k + m Ns].
FFTCORE_HD inline int merge_read_index(int j, int m, int log_l, int log_r) {
  return j + (m << (log_l - log_r));
}
FFTCORE_HD inline int merge_write_index(int j, int m, int log_r, int log_ns) {
  int const k = j & ((1 << log_ns) - 1);
  return ((j - k) << log_r) + k + (m << log_ns);
}
/// Index into the coarse table (W_{2^14}^i) of the twiddle W_{Ns r}^(m k) of butterfly j.
FFTCORE_HD inline int merge_twiddle_index(int j, int m, int log_r, int log_ns) {
  int const k = j & ((1 << log_ns) - 1);
  return (m * k) << (kLogCoarse - log_ns - log_r);
}

/// The pass twiddle exponent of output k of the sequence with twiddle index tw, as a multiple
/// of 2 pi / 2^28 (split into a coarse and a fine table index by the caller).
FFTCORE_HD inline std::uint32_t pass_twiddle_exponent(std::int64_t tw, std::int64_t k,
                                                      int log_n) {
  auto const e = static_cast<std::uint64_t>(tw * k) & ((std::uint64_t{1} << log_n) - 1);
  return static_cast<std::uint32_t>(e << (kLogTwiddleBase - log_n));
}

/// The same in 32-bit arithmetic (the kernel's form): the exponent is taken mod 2^log_n with
/// log_n <= kLogTwiddleBase < 32, and reduction mod 2^32 commutes with + and *, so tw and k
/// may be passed mod 2^32.
FFTCORE_HD inline std::uint32_t pass_twiddle_exponent32(std::uint32_t tw, std::uint32_t k,
                                                        int log_n) {
  return ((tw * k) & ((1u << log_n) - 1u)) << (kLogTwiddleBase - log_n);
}

}  // namespace fftcore::detail::tc
