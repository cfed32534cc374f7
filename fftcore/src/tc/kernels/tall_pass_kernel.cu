// SPDX-License-Identifier: MIT
// The tall pass: FP16 column passes of 512..4096 points (tall_pass::eligible), C
// adjacent columns per block at a time (C L = 2^14 words on 256 threads at 512 rows, 2^15 on
// 512 threads from 1024), kept in shared memory as FP16 words between three in-place stages
// (radix 16, 16, L / 256) computed in FP32 registers (tall_pass_layout.hpp has the maps and the
// reason), with the load and store hooks, or with the pass twiddles of 1-D plans; and the passes
// of the two-pass real transforms (tall_real_layout.hpp). At 4096 points, whose column runs
// are 32 bytes, the column form's loads fetch whole L2 lines and its untwiddled passes run in
// clusters of two blocks kept in step (tall_cluster_blocks, tall_l2_hint).
#include <cuda_fp16.h>

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/cluster.cuh"
#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/l2_prefetch.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/kernels/tall_pass_stages.cuh"
#include "tc/plan_logic.hpp"
#include "tc/stockham_pass_layout.hpp"
#include "tc/tall_pass_layout.hpp"
#include "tc/tall_real_layout.hpp"

namespace fftcore::detail::tc {
namespace {

namespace tp = tall_pass;

/// Rounds of stage-1 inputs a thread keeps loaded ahead (registers: 16 words each): two, one
/// with hooks (whose factor loads took two rounds ahead to 128 registers and ~150 bytes of
/// spills at 4096 points) and in the C2R's pass B (two words a point). Staging the other two
/// rounds in shared memory by cp.async instead (all of the next item's words in flight during
/// stage 3) measured slower: 4096x4096 2.05-2.07 against 1.93-1.94 ms (H100, same call;
/// NOTES.md session 22).
template <bool kHooked>
constexpr int tall_ahead = kHooked ? 1 : 2;

/// The variant of a two-pass real transform's pass (tall_real_layout.hpp): the R2C's forward,
/// the C2R's inverse; the C2R's pass A twiddled; the rows form for the R2C's pass 2 and the
/// C2R's pass B.
template <int kReal>
struct RealVariant {
  static constexpr bool kInverse =
      kReal == tall_real::kC2rColumnsPass || kReal == tall_real::kC2rRowsPass;
  static constexpr bool kTwiddled = kReal == tall_real::kC2rColumnsPass;
  static constexpr bool kRows = kReal == tall_real::kRowsPass || kReal == tall_real::kC2rRowsPass;
};

/// The variants that may load with the 128-byte L2 line fetch and run in clusters in step: the
/// plain and twiddled complex column forms. Not the others: with the cluster's bookkeeping the
/// hooked, C2R and rows-form kernels spilled 8-140 bytes (and the rows form reads whole rows).
constexpr bool in_step_variant(bool hooked, bool rows, int real) {
  return real == 0 && !hooked && !rows;
}

/// kTwiddled: the pass's twiddles W_N^(tw(q) n) on the outputs (1-D transforms' first passes;
/// tall_pass::eligible: no hooks with them). kRows: the rows form (tall_pass::rows_eligible:
/// stage 1 reads each sequence as a row, lanes on adjacent points; the words in rows_slot).
/// kReal: a pass of the two-pass real transforms (tall_real_layout.hpp; no hooks): the R2C's
/// kColumnsPass on the column form and kRowsPass on the rows form (forward, no twiddles), each
/// with its stage 3; the C2R's kC2rColumnsPass on the column form (inverse, twiddled) and
/// kC2rRowsPass on the rows form (inverse), each with its stage-1 loads.
template <int kLogL, bool kInverse, bool kHooked, bool kTwiddled, bool kRows, int kReal = 0>
__global__ void __launch_bounds__(tp::threads(kLogL), tp::blocks_per_sm(kLogL))
    tall_pass_kernel(PassParams const p, void const* src, void* dst, float2 const* coarse,
                     float2 const* fine) {
  using Real = RealVariant<kReal>;
  static_assert(kReal == 0 || (!kHooked && kInverse == Real::kInverse &&
                               kTwiddled == Real::kTwiddled && kRows == Real::kRows),
                "the real passes: no hooks, their directions, twiddles and forms");
  constexpr bool kC2rA = kReal == tall_real::kC2rColumnsPass;
  constexpr bool kC2rB = kReal == tall_real::kC2rRowsPass;
  constexpr bool kR2c = kReal == tall_real::kColumnsPass || kReal == tall_real::kRowsPass;
  // Loads with the 128-byte L2 fetch where p.l2_fetch_hint says, clusters in step where
  // launched so (below).
  constexpr bool kInStep = in_step_variant(kHooked, kRows, kReal);
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  constexpr int kR = tp::kRadix;
  constexpr int kLogR = tp::kLogRadix;
  constexpr int kLogB = tp::log_column_butterflies(kLogL);  // L / 16 butterflies a column
  constexpr int kLogR3 = tp::log_last_radix(kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kStep = 1 << tp::log_round_step(kLogL);  // w from one round to the next
  // Words a point (the C2R's pass B reads two rows, A and B: one round ahead, as many words
  // in flight as two rounds of one; two spilled 216 bytes) and the first mirrored input (the
  // C2R's inputs m >= 8 are read from the mirrored half, tall_real::spectrum_source).
  constexpr int kPointWords = kC2rB ? 2 : 1;
  constexpr int kAhead = tall_ahead<kHooked || kC2rB>;
  constexpr int kMirror = tp::kRadix / 2;
  constexpr int kWords = kRows ? tp::kRows : tp::kPadded;
  static_assert(tp::kRounds % kAhead == 0, "stage 1's rounds in whole prefetch groups");
  extern __shared__ std::uint32_t words[];  // the item, FP16 words at slot(c, position)
  float2* const table = tp::stage2_table<kLogL>(words);
  int const j = static_cast<int>(threadIdx.x);
  // The pass's scale in three equal factors, one per stage (stage 2's in its table), so that
  // the FP16 words between the stages grow no more than the scaled transform's outputs do.
  float const s3 = cbrtf(p.scale);
  tp::fill_table<kLogL>(table, coarse, s3, j);
  // The inverse as conj(forward(conj x)): two sign flips of FP16 bits, exact.
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  bool const load_hook = kHooked && p.load_factors != nullptr;

  // Thread j keeps column c = j mod C through every round of stages 2 and 3 (and of stage 1
  // in the column form); its butterflies are w = j / C + kStep v. Element n of column c of an
  // item lies at its base + c in_stride[0] + n in_elem_stride (in_stride[0] = 1 in the column
  // form). Stage 1 of the rows form takes butterfly b1 of column c1 + (C / 4) u in round u.
  int const c = tp::column_of(j, kLogL);
  int const w0 = tp::column_butterfly(j, kLogL);
  int const c1 = kRows ? tp::rows_column(j, 0, kLogL) : c;
  int const b1 = kRows ? tp::rows_butterfly(j, kLogL) : w0;
  auto const in_es = static_cast<std::uint32_t>(p.in_elem_stride);
  auto const in_seq = static_cast<std::uint32_t>(kRows ? p.in_stride[0] : 1);
  // Stage 1 of round u reads points b + (L / 16) m: a running pointer per round keeps the 16
  // offsets out of registers.
  std::uint32_t const round_step =
      kRows ? in_seq * static_cast<std::uint32_t>(tp::rows_column(0, 1, kLogL)) : in_es * kStep;
  std::uint32_t const m_step = in_es << kLogB;
  // The twiddle index of column c of an item (mod 2^32 suffices, pass_params.hpp).
  std::uint32_t tw_at = 0;
  // The C2R passes: the running pointer of the mirrored inputs (m >= 8; pass A: back - u
  // round_step - m m_step, pass B: back + u round_step - m m_step), the offset of row B (pass
  // B), whether the thread's first butterfly reads X[0] and X[N / 2] (pass A; pass B: b1 = 0).
  std::uint32_t const* back = nullptr;
  auto const row_b = static_cast<std::uint32_t>(kC2rB ? p.in_stride[0] / 2 : 0);
  bool real_first = kC2rB && b1 == 0;
  auto const base_of = [&](std::int64_t item, std::uint32_t& in_at, std::uint32_t& out_at,
                           std::uint32_t const*& from, std::uint32_t*& to) {
    BlockOrigin const o = block_origin(p, item);
    if constexpr (kC2rA) {
      // X[N - k2 - N2 n] of column k2 = d0 + c, n = w0 + ...: from the transform's X, in_base -
      // d0.
      std::int64_t const k2 = o.d0 + c;
      back = opaque(static_cast<std::uint32_t const*>(src) + (o.in_base - o.d0) +
                    (std::int64_t{1} << p.halves_log_n) - k2 -
                    static_cast<std::int64_t>(w0) * p.in_elem_stride);
      real_first = k2 == 0 && w0 == 0;
    } else if constexpr (kC2rB) {
      // Position N2 - k2 of the sequence's row A: its start + N2 - b1 - (L / 16) m.
      back = opaque(static_cast<std::uint32_t const*>(src) + o.in_base +
                    static_cast<std::int64_t>(c1) * p.in_stride[0] + (1 << kLogL) - b1);
    }
    if constexpr (kTwiddled) {
      tw_at = static_cast<std::uint32_t>(o.twiddle_base) +
              static_cast<std::uint32_t>(c) * static_cast<std::uint32_t>(p.twiddle_stride[0]);
    }
    std::uint32_t const first = static_cast<std::uint32_t>(c1) * in_seq +
                                static_cast<std::uint32_t>(b1) * in_es;
    in_at = static_cast<std::uint32_t>(o.in_base) + first;
    out_at = static_cast<std::uint32_t>(o.out_base) + static_cast<std::uint32_t>(c);
    from = opaque(static_cast<std::uint32_t const*>(src) + o.in_base + first);
    to = opaque(static_cast<std::uint32_t*>(dst) + o.out_base + c);
    if constexpr (kR2c) {
      // out_at: the item's column c in all (pass 1: the complex column; pass 2: the row of Y);
      // to: its words of row 0 of Y (pass 1), the transform's half spectrum (pass 2).
      out_at = static_cast<std::uint32_t>(o.d0) + static_cast<std::uint32_t>(c);
      to = opaque(static_cast<std::uint32_t*>(dst) + o.out_base +
                  (kReal == tall_real::kColumnsPass ? 2 * c : 0));
    }
  };
  auto const load_round = [&](std::uint32_t const* from, int u,
                              std::uint32_t(&raw)[kR * kPointWords]) {
    std::uint32_t const* at = opaque(from + u * round_step);
    if constexpr (kC2rA || kC2rB) {
      // Inputs m < 8 ahead from `from`, the others back from `back` (pass A runs its rounds
      // backwards there); pass B both rows.
      std::uint32_t const* mirrored =
          opaque(kC2rA ? back - u * round_step - kMirror * m_step
                       : back + u * round_step - kMirror * m_step);
#pragma unroll
      for (int m = 0; m < kMirror; ++m) {
        raw[m] = *at;
        raw[kMirror + m] = *mirrored;
        if constexpr (kC2rB) {
          raw[kR + m] = at[row_b];
          raw[kR + kMirror + m] = mirrored[row_b];
        }
        at = opaque(at + m_step);
        mirrored = opaque(mirrored - m_step);
      }
    } else if (kInStep && p.l2_fetch_hint != 0) {
#pragma unroll
      for (int m = 0; m < kR; ++m) {
        raw[m] = load_fetching_line(at);
        at = opaque(at + m_step);
      }
    } else {
#pragma unroll
      for (int m = 0; m < kR; ++m) {
        raw[m] = *at;
        at = opaque(at + m_step);
      }
    }
  };

  std::uint32_t raw[kAhead][kR * kPointWords];
  // Items in 32 bits where kInStep (at least 2^14 words each, so fewer than 2^31), which kept
  // those kernels free of spills at 127-128 registers.
  using Item = std::conditional_t<kInStep, int, std::int64_t>;
  Item const items = static_cast<Item>(p.blocks);
  Item item = static_cast<Item>(blockIdx.x);
  std::uint32_t in_at = 0, out_at = 0;
  std::uint32_t const* from = nullptr;
  std::uint32_t* to = nullptr;
  if (item < items) {
    base_of(item, in_at, out_at, from, to);
#pragma unroll
    for (int u = 0; u < kAhead; ++u) load_round(from, u, raw[u]);
  }
  // Launched in clusters (launch_variant: the column form only): the blocks of a cluster take
  // adjacent items (bands of C columns) and meet at a cluster barrier after stage 2, just before
  // they load their next items, so that the 32-byte runs of neighbouring bands are read at
  // about the same time (with the 128-byte L2 fetch, one DRAM read of the line serves them all).
  // Every block of a cluster runs as many iterations as its first block; one past the items
  // computes nothing but still meets the barriers.
  bool const in_step = kInStep && __clusterSizeInBlocks() > 1;
  Item const rank = in_step ? static_cast<Item>(__clusterRelativeBlockRank()) : 0;
#pragma unroll 1
  for (; item - rank < items; item += static_cast<Item>(gridDim.x)) {
    bool const active = !kInStep || item < items;
    // Stage 1: butterfly b of column cu (column form: b = w0 + kStep u, cu = c; rows form:
    // b = b1, cu = c1 + (C / 4) u) reads x[b + (L / 16) m], writes W_L^(b k1) s3 DFT[k1] to
    // position b + (L / 16) k1; round u + kAhead's words are loaded as round u's are taken.
#pragma unroll
    for (int u = 0; u < tp::kRounds; ++u) {
      if (!active) break;
      int const b = kRows ? b1 : w0 + u * kStep;
      int const cu = kRows ? tp::rows_column(j, u, kLogL) : c;
      float2 a[kR];
      if constexpr (kC2rA || kC2rB) {
        // Conjugated where mirrored; X[0], X[N / 2] (pass A) and the rows' points 0 and N2 / 2
        // (pass B) real only; pass B's Z = A + i B.
        std::uint32_t(&r)[kR * kPointWords] = raw[u % kAhead];
        if (real_first && (kC2rB || u == 0)) {
#pragma unroll
          for (int h = 0; h < kPointWords; ++h) {
            r[h * kR] &= 0xFFFFu;
            r[h * kR + kMirror] &= 0xFFFFu;
          }
        }
#pragma unroll
        for (int m = 0; m < kR; ++m) {
          std::uint32_t const flip = m >= kMirror ? kConjugate : 0u;
          if constexpr (kC2rA) {
            a[m] = unpack_word(r[m] ^ flip ^ conj);
          } else {
            float2 const ra = unpack_word(r[m] ^ flip), rb = unpack_word(r[kR + m] ^ flip);
            a[m] = make_float2(ra.x - rb.y, -(ra.y + rb.x));  // conj (A + i B): the inverse
          }
        }
      } else {
#pragma unroll
        for (int m = 0; m < kR; ++m) a[m] = unpack_word(raw[u % kAhead][m] ^ conj);
      }
      if (u + kAhead < tp::kRounds) load_round(from, u + kAhead, raw[u % kAhead]);
      if (load_hook) {
#pragma unroll
        for (int m = 0; m < kR; ++m) {
          // Conjugated for the inverse, which runs as the conjugate of a forward transform of
          // the conjugated input.
          std::uint32_t const at = in_at + static_cast<std::uint32_t>(u) * round_step +
                                   static_cast<std::uint32_t>(m) * m_step;
          a[m] = cmul(a[m], hook_factor(p.load_factors, at & p.factor_mask, kInverse));
        }
      }
      dft_pow2<kLogR>(a);                                             // a[bit_reverse(k)] = DFT[k]
      // Output k's word: output 0's plus k input_step(0) (both layouts of this kernel).
      std::uint32_t* const first1 = words + tp::word_of<kLogL, kWords>(cu, b);
      float2 const wb = __ldg(coarse + (b << (kLogCoarse - kLogL)));  // W_L^b
      if constexpr (kReal == 0) {
        // s3 W_L^(b k) in a tree 5 products deep, not a chain of 15: the pass waits on the
        // chain's latency at 16 warps per SM (H100, ms per 2^28 elements, three runs each in
        // one call, NOTES.md session 32, chain / tree: 4096x4096 1.890-1.905 / 1.862-1.879,
        // 2048x2048 1.932-1.944 / 1.892-1.899, 1024x1024 1.812-1.825 / 1.783-1.788, 2^20
        // 2.114-2.131 / 2.060-2.062, 2^24 2.210-2.229 / 2.181-2.189). Not in the real passes'
        // kernels, which spilled 48-200 bytes with it.
        float2 t[kR];
        scaled_powers(s3, wb, t);
#pragma unroll
        for (int k = 0; k < kR; ++k) {
          first1[k * tp::input_step(0, kLogL)] = pack_word(cmul(a[bit_reverse<kLogR>(k)], t[k]));
        }
      } else {
        float2 t = make_float2(s3, 0.f);
#pragma unroll
        for (int k = 0; k < kR; ++k) {
          first1[k * tp::input_step(0, kLogL)] = pack_word(cmul(a[bit_reverse<kLogR>(k)], t));
          if (k + 1 < kR) t = cmul(t, wb);
        }
      }
    }
    __syncthreads();
    // Stage 2: butterfly w = b0 + R3 k1 reads position b0 + R3 m + (L / 16) k1, writes
    // W_(L/16)^(b0 k2) s3 DFT[k2] in their place (b0 = w0 mod R3 in every round).
    int const b0 = w0 & (kR3 - 1);
#pragma unroll 1
    for (int u = 0; u < tp::kRounds; ++u) {
      if (!active) break;
      int const w = w0 + u * kStep;
      float2 a[kR];
      tp::butterfly_dft<kLogL, 1, kLogR, kWords>(words, c, w, a);
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        float2 const y = cmul(a[bit_reverse<kLogR>(k)], table[(k << kLogR3) + b0]);
        // In place: output k at input k's word (input_step, rows_input_xor).
        int const first2 = tp::word_of<kLogL, kWords>(c, tp::position(1, w, 0, kLogL));
        int const xk = kWords == tp::kRows ? tp::rows_input_xor(1, k, kLogL) : 0;
        words[(first2 ^ xk) + k * tp::input_step(1, kLogL)] = pack_word(y);
      }
    }
    if (in_step) {
      cluster_arrive();
      cluster_wait();
    } else {
      __syncthreads();
    }
    // The next item's first rounds, in flight while this one's last stage runs.
    tp::LastStageTarget const current{to, out_at, tw_at};
    Item const next_item = item + static_cast<Item>(gridDim.x);
    if (next_item < items) {
      base_of(next_item, in_at, out_at, from, to);
#pragma unroll
      for (int u = 0; u < kAhead; ++u) load_round(from, u, raw[u]);
    }
    if (!active) {
      // Past the items: nothing to write.
    } else if constexpr (kReal == tall_real::kColumnsPass) {
      tp::last_stage_real_columns<kLogL>(words, c, w0, current.seq, current.seq_at,
                                         p.halves_log_n,
                                         static_cast<std::uint32_t>(p.out_elem_stride), s3,
                                         coarse, fine);
    } else if constexpr (kReal == tall_real::kRowsPass) {
      tp::last_stage_half_rows<kLogL>(words, c, w0, current.seq, current.seq_at, p.halves_log_n,
                                      p.halves_log_n2, s3);
    } else {
      tp::last_stage<kLogL, kInverse, kHooked, kTwiddled, kWords>(p, words, c, w0, current, s3,
                                                                 coarse, fine);
    }
    __syncthreads();  // this stage's reads before the next item's stage-1 writes
  }
}

/// Clusters of blocks in step for the column form at 2^log_l points (FFTCORE_TC_TALL_CLUSTER:
/// 1, 2, 4 or 8 for every such pass, A/B; else the default): two for the untwiddled 4096-point
/// passes (8 columns an item, 32-byte runs: the 2-D column passes of 4096 rows), none for the
/// rest. H100, ms per 2^28 elements, one call (NOTES.md, session 31), without either / the
/// 128-byte L2 fetch alone / the fetch and clusters of 2 / of 4: 4096x4096 1.956-2.037 / 1.944 /
/// 1.890-1.907 / 2.044-2.049, 2048x2048 1.904-1.933 / 1.913 / 1.907-1.919 / 1.995, 2^20
/// 2.121-2.123 / 2.126 / 2.183-2.186 / 2.304-2.317, 2^22 2.179-2.184 / 2.129 / 2.163-2.166 /
/// 2.262-2.293, 2^24 2.321-2.341 / 2.229 / 2.255-2.268 / 2.370-2.383.
int tall_cluster_blocks(int log_l, bool twiddled) noexcept {
  static int const n = env_int("FFTCORE_TC_TALL_CLUSTER", 0);
  if (n == 1 || n == 2 || n == 4 || n == 8) return n;
  return log_l == tall_pass::kMaxLogLength && !twiddled ? 2 : 1;
}

/// Whether the column form's loads at 2^log_l points ask for the 128-byte L2 fetch
/// (FFTCORE_TC_TALL_L2_HINT: 0 never, 3 at every length, A/B; by default at 4096 points, whose
/// 32-byte runs are a quarter of a line). Next call, same machine, without / with it (clusters
/// as by default): 4096x4096 1.988-2.000 / 1.892-1.903, 2048x2048 1.874-1.892 / 1.917 (64-byte
/// runs: slower with it), 1024x1024 1.799-1.830 / 1.814-1.821, 2^20 2.131-2.136 / 2.134-2.137.
bool tall_l2_hint(int log_l) noexcept {
  static int const mode = env_mode("FFTCORE_TC_TALL_L2_HINT");
  return mode == 3 || (mode == 1 && log_l == tall_pass::kMaxLogLength);
}

template <int kLogL, bool kInverse, bool kHooked, bool kTwiddled = false, bool kRows = false,
          int kReal = 0>
cudaError_t launch_variant(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                           float2 const* fine, cudaStream_t stream) noexcept {
  static std::atomic<int> resident_cache{0};
  auto const kernel = tall_pass_kernel<kLogL, kInverse, kHooked, kTwiddled, kRows, kReal>;
  constexpr std::size_t smem = tp::kSmemBytes<kLogL>;
  // The column form's runs are 4 C bytes (32 at 4096 points): the L2 line fetch and the
  // clusters in step are for them.
  constexpr bool kInStep = in_step_variant(kHooked, kRows, kReal);
  PassParams run = pass;
  run.l2_fetch_hint = kInStep && tall_l2_hint(kLogL) ? 1 : 0;
  int const cluster = kInStep ? tall_cluster_blocks(kLogL, kTwiddled) : 1;
  if (cluster > 1) {
    static std::atomic<int> cluster_cache{0};
    // Where no such cluster fits (a GPU shared or partitioned down to too few SMs), single
    // blocks below: the kernel runs either way.
    bool launched = false;
    cudaError_t const e = launch_clusters(
        kernel, static_cast<unsigned>(cluster), (run.blocks + cluster - 1) / cluster,
        tp::threads(kLogL), smem, stream, cluster_cache, launched, run, src, dst, coarse, fine);
    if (e != cudaSuccess || launched) return e;
  }
  unsigned grid = 0;
  cudaError_t const e =
      resident_grid(kernel, tp::threads(kLogL), smem, resident_cache, run.blocks, grid);
  if (e != cudaSuccess) return e;
  return launch_chained(kernel, grid, tp::threads(kLogL), smem, stream, run, src, dst, coarse,
                        fine);
}

template <int kLogL>
cudaError_t launch_length(PassParams const& pass, void const* src, void* dst, float2 const* coarse,
                          float2 const* fine, bool inverse, cudaStream_t stream) noexcept {
  // Items of C columns: the planner's tiles, retiled; eligible() asks for whole ones.
  constexpr int kLogC = tp::log_columns(kLogL);
  PassParams const tiled = pass.log_tile != kLogC ? retiled(pass, kLogC) : pass;
  if (tiled.in_stride[0] != 1) {  // the rows form (rows_eligible: a store hook, no twiddles)
    if (tiled.store_factors != nullptr) {
      return inverse ? launch_variant<kLogL, true, true, false, true>(tiled, src, dst, coarse,
                                                                      fine, stream)
                     : launch_variant<kLogL, false, true, false, true>(tiled, src, dst, coarse,
                                                                       fine, stream);
    }
    return inverse
               ? launch_variant<kLogL, true, false, false, true>(tiled, src, dst, coarse, fine,
                                                                stream)
               : launch_variant<kLogL, false, false, false, true>(tiled, src, dst, coarse, fine,
                                                                 stream);
  }
  if (runs_tall_mma(tiled)) return launch_tall_mma(tiled, src, dst, coarse, fine, inverse, stream);
  bool const hooked = pass.load_factors != nullptr || pass.store_factors != nullptr;
  if (pass.log_twiddle_n != 0) {  // never hooked (eligible)
    return inverse
               ? launch_variant<kLogL, true, false, true>(tiled, src, dst, coarse, fine, stream)
               : launch_variant<kLogL, false, false, true>(tiled, src, dst, coarse, fine, stream);
  }
  if (hooked) {
    return inverse ? launch_variant<kLogL, true, true>(tiled, src, dst, coarse, fine, stream)
                   : launch_variant<kLogL, false, true>(tiled, src, dst, coarse, fine, stream);
  }
  return inverse ? launch_variant<kLogL, true, false>(tiled, src, dst, coarse, fine, stream)
                 : launch_variant<kLogL, false, false>(tiled, src, dst, coarse, fine, stream);
}

template <int kLogL>
cudaError_t prepare_length() noexcept {
  cudaError_t e = cudaSuccess;
  for (auto const kernel : {tall_pass_kernel<kLogL, false, false, false, false>,
                            tall_pass_kernel<kLogL, true, false, false, false>,
                            tall_pass_kernel<kLogL, false, true, false, false>,
                            tall_pass_kernel<kLogL, true, true, false, false>,
                            tall_pass_kernel<kLogL, false, false, true, false>,
                            tall_pass_kernel<kLogL, true, false, true, false>,
                            tall_pass_kernel<kLogL, false, false, false, true>,
                            tall_pass_kernel<kLogL, true, false, false, true>,
                            tall_pass_kernel<kLogL, false, true, false, true>,
                            tall_pass_kernel<kLogL, true, true, false, true>}) {
    if (e == cudaSuccess) {
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(tp::kSmemBytes<kLogL>));
    }
  }
  return e;
}

template <int kLogL, int kReal>
cudaError_t prepare_real() noexcept {
  using V = RealVariant<kReal>;
  return cudaFuncSetAttribute(
      tall_pass_kernel<kLogL, V::kInverse, false, V::kTwiddled, V::kRows, kReal>,
      cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(tp::kSmemBytes<kLogL>));
}

/// FFTCORE_TC_TALL_ROWS: 0 the rows form off (A/B; read once), which also keeps 2^24 in three
/// passes (tc_plan.cpp); 3 every pass it can take. By default the last passes of 2048 and 4096
/// points of the two-pass plans of 2^23 and 2^24; those of 512 and 1024 (2^21, 2^22) stay on
/// the register-chained pass. H100, ms per 2^28 elements, two runs each in one call (NOTES.md,
/// session 24), rows form against the register-chained pass (2^24: against three passes):
/// 2^24 2.275-2.284 against 2.805-2.812, 2^23 2.226-2.240 against 2.270-2.299, but 2^22
/// 2.170-2.184 against 2.156-2.175 and 2^21 2.080-2.082 against 2.057-2.062.
bool runs_tall_rows(int log_length) noexcept {
  static int const mode = env_mode("FFTCORE_TC_TALL_ROWS");
  return mode == 3 || (mode == 1 && log_length >= 11);
}

/// FFTCORE_TC_TALL_ROWS_HOOK=0: a store-hooked copy of a rows-form pass leaves the rows form
/// for another kernel, as before session 41 (A/B; read once).
bool tall_rows_hook_on() noexcept {
  static bool const on = env_switch_on("FFTCORE_TC_TALL_ROWS_HOOK");
  return on;
}

}  // namespace

cudaError_t prepare_tall_pass_kernels() noexcept {
  cudaError_t e = prepare_length<9>();
  if (e == cudaSuccess) e = prepare_length<10>();
  if (e == cudaSuccess) e = prepare_length<11>();
  if (e == cudaSuccess) e = prepare_length<12>();
  // The two-pass real transforms' kernels (launch_tall_real's lengths).
  if (e == cudaSuccess) e = prepare_real<10, tall_real::kColumnsPass>();
  if (e == cudaSuccess) e = prepare_real<11, tall_real::kColumnsPass>();
  if (e == cudaSuccess) e = prepare_real<12, tall_real::kColumnsPass>();
  if (e == cudaSuccess) e = prepare_real<9, tall_real::kRowsPass>();
  if (e == cudaSuccess) e = prepare_real<10, tall_real::kRowsPass>();
  if (e == cudaSuccess) e = prepare_real<10, tall_real::kC2rColumnsPass>();
  if (e == cudaSuccess) e = prepare_real<11, tall_real::kC2rColumnsPass>();
  if (e == cudaSuccess) e = prepare_real<12, tall_real::kC2rColumnsPass>();
  if (e == cudaSuccess) e = prepare_real<10, tall_real::kC2rRowsPass>();
  if (e == cudaSuccess) e = prepare_real<11, tall_real::kC2rRowsPass>();
  if (e == cudaSuccess) e = prepare_real<12, tall_real::kC2rRowsPass>();
  return e == cudaSuccess ? prepare_tall_mma_kernels() : e;
}

/// FFTCORE_TC_TALL_PASS: 0 sends these passes back to the other kernels, 3 hands it every
/// pass it can take (A/B; read once). By default it takes every complex 2-D column pass of
/// 512..4096 points, but not the column FFTs of the real row pairs at 512..2048
/// (prefer_stockham_columns), where the Stockham column variant measured faster, and the
/// twiddled column passes of 1-D plans from 1024 points (below). H100, ms per
/// 2^28 elements, three runs each in one call (fftcore/NOTES.md, session 22): 4096x4096 1.93
/// against 2.95-3.06 on the register-chained pass; 2048x2048 1.82-1.83 against 1.90-1.94 and
/// 1024x1024 1.77 against 1.78-1.79 on the Stockham column variant; 512x256 1.67-1.68 against
/// 1.70-1.71 and 512x512 1.73 against 1.76-1.77 on the register-chained pass (items of 2^15
/// words; of 2^14 then, tall_pass::log_item: 1.64-1.65 and 1.69-1.70); R2C 512x512 /
/// 1024x1024 0.92 / 0.93 against 0.84 / 0.85-0.87 on the Stockham column variant.
int tall_pass_mode() noexcept {
  static int const mode = env_mode("FFTCORE_TC_TALL_PASS");
  return mode;
}

bool runs_tall_pass(PassParams const& pass) noexcept {
  int const mode = tall_pass_mode();
  // Twiddled (1-D plans' column passes): from 1024 points; at 512 the register-chained pass
  // measured faster (2^19 2.10 against 2.21 ms, 2^25 2.91 against 2.97, 2^26 2.98 against
  // 3.12; from 1024: 2^20 2.09-2.10 against 2.20, 2^27 3.00 against 3.09).
  bool const twiddle_ok = pass.log_twiddle_n == 0 || pass.log_length >= 10;
  // And from tall_pass::kMinItems (about one per SM): one item of 2^14..2^15 words per block
  // leaves most SMs idle on small transforms, where the register-chained pass's smaller tiles
  // spread (two 512x256 images, 16 items: 19-20 against cuFFT FP16's 16-17 us, 0.83-0.88x;
  // H100, session 24; 1.12-1.31x on the register-chained pass in session 21).
  std::int64_t const items =
      (pass.blocks << pass.log_tile) >> tall_pass::log_columns(pass.log_length);
  bool const preferred =
      mode == 3 ||
      (twiddle_ok && items >= tall_pass::kMinItems &&
       (pass.prefer_stockham_columns == 0 || pass.log_length > stockham::kMaxLogLengthColumns));
  return mode != 0 && ((preferred && tall_pass::eligible(pass)) ||
                       (runs_tall_rows(pass.log_length) && tall_pass::rows_eligible(pass) &&
                        (pass.store_factors == nullptr || tall_rows_hook_on())));
}

cudaError_t launch_tall_real(PassParams const& pass, void const* src, void* dst,
                             float2 const* coarse, float2 const* fine,
                             cudaStream_t stream) noexcept {
  if (!tall_real::columns_eligible(pass) && !tall_real::rows_eligible(pass) &&
      !tall_real::c2r_columns_eligible(pass) && !tall_real::c2r_rows_eligible(pass)) {
    return cudaErrorInvalidValue;
  }
  // The R2C's pass 1 at 1024..4096 points and its pass 2 at 512 and 1024; the C2R's passes at
  // 1024..4096 (tall_real_layout.hpp). The planner's tiles are the items already (the
  // eligibilities ask for log_tile = log2 C).
  auto const run = [&](auto length, auto real) {
    constexpr int kLogL = decltype(length)::value;
    constexpr int kReal = decltype(real)::value;
    using V = RealVariant<kReal>;
    return launch_variant<kLogL, V::kInverse, false, V::kTwiddled, V::kRows, kReal>(
        pass, src, dst, coarse, fine, stream);
  };
  auto const by_kind = [&](auto length) -> cudaError_t {
    constexpr int kLogL = decltype(length)::value;
    switch (pass.real_halves) {
      case tall_real::kColumnsPass:
        if constexpr (kLogL >= 10) {
          return run(length, std::integral_constant<int, tall_real::kColumnsPass>{});
        }
        break;
      case tall_real::kRowsPass:
        if constexpr (kLogL <= 10) {
          return run(length, std::integral_constant<int, tall_real::kRowsPass>{});
        }
        break;
      case tall_real::kC2rColumnsPass:
        if constexpr (kLogL >= 10) {
          return run(length, std::integral_constant<int, tall_real::kC2rColumnsPass>{});
        }
        break;
      case tall_real::kC2rRowsPass:
        if constexpr (kLogL >= 10) {
          return run(length, std::integral_constant<int, tall_real::kC2rRowsPass>{});
        }
        break;
      default:
        break;
    }
    return cudaErrorInvalidValue;
  };
  switch (pass.log_length) {
    case 9:
      return by_kind(std::integral_constant<int, 9>{});
    case 10:
      return by_kind(std::integral_constant<int, 10>{});
    case 11:
      return by_kind(std::integral_constant<int, 11>{});
    case 12:
      return by_kind(std::integral_constant<int, 12>{});
    default:
      return cudaErrorInvalidValue;
  }
}

bool tall_rows_plans_on() noexcept {
  return env_switch_on("FFTCORE_TC_TALL_PASS") && runs_tall_rows(tall_pass::kMaxLogLength);
}

cudaError_t launch_tall_pass(PassParams const& pass, void const* src, void* dst,
                             float2 const* coarse, float2 const* fine, bool inverse,
                             cudaStream_t stream) noexcept {
  if (!tall_pass::eligible(pass) && !tall_pass::rows_eligible(pass)) return cudaErrorInvalidValue;
  switch (pass.log_length) {
    case 9:
      return launch_length<9>(pass, src, dst, coarse, fine, inverse, stream);
    case 10:
      return launch_length<10>(pass, src, dst, coarse, fine, inverse, stream);
    case 11:
      return launch_length<11>(pass, src, dst, coarse, fine, inverse, stream);
    case 12:
      return launch_length<12>(pass, src, dst, coarse, fine, inverse, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace fftcore::detail::tc
