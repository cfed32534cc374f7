// SPDX-License-Identifier: MIT
// What the tall pass's two kernels share (tall_pass_kernel.cu: FP32 stages 1 and 2;
// tall_mma_kernel.cu: Tensor Core stages 1 and 2): the shared-memory size, stage 2's twiddle
// table, and stage 3 (radix L / 256 on CUDA cores, to global memory, with the pass twiddles or
// the store hook). kWords picks the words' layout (Words).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "tc/kernels/complex_math.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/kernels/pass_launch.hpp"
#include "tc/tall_mma_layout.hpp"
#include "tc/tall_pass_layout.hpp"
#include "tc/tall_real_layout.hpp"

namespace fftcore::detail::tc::tall_pass {

/// The item's shared memory: the words (the padded layout's slots(), which the swizzled one
/// fits in), then stage 2's table W_(L/16)^(b0 k2) (L / 16 float2).
template <int kLogL>
constexpr std::size_t kSmemBytes =
    static_cast<std::size_t>(slots(kLogL)) * sizeof(std::uint32_t) +
    (std::size_t{1} << log_column_butterflies(kLogL)) * sizeof(float2);

template <int kLogL>
__device__ __forceinline__ float2* stage2_table(std::uint32_t* words) {
  return reinterpret_cast<float2*>(words + slots(kLogL));
}

/// Stage 2's table W_(L/16)^(b0 k2) s3, entry k2 R3 + b0.
template <int kLogL>
__device__ __forceinline__ void fill_table(float2* table, float2 const* coarse, float s3, int j) {
  constexpr int kLogR3 = log_last_radix(kLogL);
  constexpr int kEntries = 1 << log_column_butterflies(kLogL);
  for (int e = j; e < kEntries; e += threads(kLogL)) {
    int const k2 = e >> kLogR3, b0 = e & ((1 << kLogR3) - 1);
    int const exponent = (b0 * k2) & (kEntries - 1);
    table[e] =
        cscale(__ldg(coarse + (exponent << (kLogCoarse - log_column_butterflies(kLogL)))), s3);
  }
}

/// The words' layouts: slot (the padded layout), mma::mma_slot (the Tensor Core stages),
/// rows_slot (the rows form, whose stage 1 reads rows).
enum Words : int { kPadded = 0, kMma = 1, kRows = 2 };

/// The word of position a of column c in the layout kWords.
template <int kLogL, int kWords>
__device__ __forceinline__ int word_of(int c, int a) {
  if constexpr (kWords == kMma) {
    return mma::mma_slot(c, a, kLogL);
  } else if constexpr (kWords == kRows) {
    return rows_slot(c, a, kLogL);
  } else {
    return slot(c, a, kLogL);
  }
}

/// Butterfly w of column c of stage kStage: its 2^kLogR inputs from the words, then their DFT,
/// a[bit_reverse(k)] = DFT[k].
template <int kLogL, int kStage, int kLogR, int kWords>
__device__ __forceinline__ void butterfly_dft(std::uint32_t const* words, int c, int w,
                                              float2 (&a)[1 << kLogR]) {
  if constexpr (kWords == kPadded) {
    // Input 0's word and a constant step (input_step): one address, immediate offsets.
    std::uint32_t const* const first = words + slot(c, position(kStage, w, 0, kLogL), kLogL);
#pragma unroll
    for (int m = 0; m < (1 << kLogR); ++m) {
      a[m] = unpack_word(first[m * input_step(kStage, kLogL)]);
    }
  } else if constexpr (kWords == kRows) {
    // Input 0's word, a constant XOR per input and a constant step (rows_input_xor).
    int const first = rows_slot(c, position(kStage, w, 0, kLogL), kLogL);
#pragma unroll
    for (int m = 0; m < (1 << kLogR); ++m) {
      a[m] = unpack_word(
          words[(first ^ rows_input_xor(kStage, m, kLogL)) + m * input_step(kStage, kLogL)]);
    }
  } else {
#pragma unroll
    for (int m = 0; m < (1 << kLogR); ++m) {
      a[m] = unpack_word(words[word_of<kLogL, kWords>(c, position(kStage, w, m, kLogL))]);
    }
  }
  dft_pow2<kLogR>(a);
}

/// What stage 3 writes to: the item's output words of column c (element n at seq + n *
/// out_es), their index for the store hook, and the twiddle index of column c.
struct LastStageTarget {
  std::uint32_t* seq;
  std::uint32_t seq_at;
  std::uint32_t seq_tw;
};

/// Stage 3: butterfly w = k1 + 16 k2 (G of them a round, w = w0 + round_step (G u + g)) reads
/// position m + R3 k2 + (L / 16) k1 of column c and writes X[w + 256 k3] = s3 DFT[k3] (times the
/// pass twiddle W_N^(tw n) of output n, or the store hook's factor) to global memory.
template <int kLogL, bool kInverse, bool kHooked, bool kTwiddled, int kWords, int kLogOutStride = 0>
__device__ __forceinline__ void last_stage(PassParams const& p, std::uint32_t const* words, int c,
                                           int w0, LastStageTarget const& o, float s3,
                                           float2 const* coarse, float2 const* fine) {
  constexpr int kLogR3 = log_last_radix(kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kLogG = log_last_group(kLogL);
  constexpr int kStep = 1 << log_round_step(kLogL);
  constexpr std::uint32_t conj = kInverse ? kConjugate : 0u;
  // kLogOutStride (the tall MMA kernel's constant strides): 0, or log2 of out_elem_stride,
  // each store then the row pointer plus an immediate offset.
  auto const out_es =
      kLogOutStride != 0 ? (1u << kLogOutStride) : static_cast<std::uint32_t>(p.out_elem_stride);
  bool const store_hook = kHooked && p.store_factors != nullptr;
  bool const flip_factor = (p.conjugate_store != 0) != kInverse;
  // Output n = w + 256 k3 of the pass's twiddled form times W_N^(tw n) = W_N^(tw w) s3, then
  // by W_N^(256 tw) from one output to the next (FP32 products, at most 15 deep).
  float2 tw_step = make_float2(1.f, 0.f);
  if constexpr (kTwiddled) {
    tw_step = pass_twiddle(
        coarse, fine,
        pass_twiddle_exponent32(o.seq_tw, 1u << kLogLastButterflies, p.log_twiddle_n), false);
  }
  // The swizzled words: the thread's part, one XOR per round and four bases (bank groups), then
  // an immediate offset per input (tall_mma_layout.hpp: stage3_*).
  int thread_part = 0;
  if constexpr (kWords == kMma) thread_part = mma::stage3_thread(c, w0, kLogL);
#pragma unroll 1
  for (int u = 0; u < kRounds; ++u) {
    int base[4] = {0, 0, 0, 0};
    if constexpr (kWords == kMma) {
      int const round = thread_part ^ mma::stage3_round(u, kLogL);
#pragma unroll
      for (int q = 0; q < 4; ++q) base[q] = round ^ (q << 3);
    }
#pragma unroll
    for (int g = 0; g < (1 << kLogG); ++g) {
      int const w = w0 + ((u << kLogG) + g) * kStep;
      float2 a[kR3];
      if constexpr (kWords == kMma) {
#pragma unroll
        for (int m = 0; m < kR3; ++m) {
          int const k = mma::stage3_constant(g, m, kLogL);
          a[m] = unpack_word(
              words[base[(k & mma::kBankGroupBits) >> 3] + (k & ~mma::kBankGroupBits)]);
        }
        dft_pow2<kLogR3>(a);
      } else {
        butterfly_dft<kLogL, 2, kLogR3, kWords>(words, c, w, a);
      }
      std::uint32_t* at = opaque(o.seq + static_cast<std::uint32_t>(w) * out_es);
      float2 f = make_float2(s3, 0.f);
      if constexpr (kTwiddled) {
        f = cscale(pass_twiddle(coarse, fine,
                                pass_twiddle_exponent32(o.seq_tw, static_cast<std::uint32_t>(w),
                                                        p.log_twiddle_n),
                                false),
                   s3);
      }
#pragma unroll
      for (int k = 0; k < kR3; ++k) {
        float2 y;
        if constexpr (kTwiddled) {
          y = cmul(a[bit_reverse<kLogR3>(k)], f);
          if (k + 1 < kR3) f = cmul(f, tw_step);
        } else {
          y = cscale(a[bit_reverse<kLogR3>(k)], s3);
        }
        if (store_hook) {
          // ExecuteHooks::store_factors: y is the conjugate of the output for the inverse,
          // so the factor is conjugated once more there.
          auto const n = static_cast<std::uint32_t>(output_index(w, k));
          y = cmul(y, hook_factor(p.store_factors, (o.seq_at + n * out_es) & p.factor_mask,
                                  flip_factor));
        }
        if constexpr (kLogOutStride != 0) {
          at[static_cast<std::uint32_t>(k) << (kLogLastButterflies + kLogOutStride)] =
              pack_word(y) ^ conj;
        } else {
          *at = pack_word(y) ^ conj;
          at = opaque(at + (out_es << kLogLastButterflies));
        }
      }
    }
  }
}

/// Stage 3 of the two-pass real R2C's pass 1 (tall_real_layout.hpp): the thread of column c
/// (global complex column `column`, the real columns n = 2 column and 2 column + 1) takes 2 G
/// iterations: pairs of butterflies w and 256 - w (their outputs k3 < R3 / 2 give rows
/// r = w + 256 k3, the others rows r = (256 - w) + 256 k', k' = R3 - 1 - k3), or for w0 = 0 in
/// its first the two self butterflies 0 (rows 256 k3, k3 <= R3 / 2) and 128 (rows 128 + 256 k3,
/// k3 < R3 / 2). Each row: the two real columns' spectra A, B separated, times W_N^(n r)
/// (N = 2^log_n: a table product at each run's first row, then W_N^(256 n) steps), to
/// out + r row_stride (both words).
template <int kLogL>
__device__ __forceinline__ void last_stage_real_columns(std::uint32_t const* words, int c, int w0,
                                                        std::uint32_t* out, std::uint32_t column,
                                                        int log_n, std::uint32_t row_stride,
                                                        float s3, float2 const* coarse,
                                                        float2 const* fine) {
  constexpr int kLogR3 = log_last_radix(kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kHalf = kR3 / 2;
  __builtin_assume(__isGlobal(out));  // lost across the item loop: generic ST without it
  std::uint32_t const even = 2 * column, odd = 2 * column + 1;
  auto const twiddle = [&](std::uint32_t n, std::uint32_t r) {
    return pass_twiddle(coarse, fine, pass_twiddle_exponent32(n, r, log_n), false);
  };
  // W_N^(256 n): one row run's step (kHalf > 1 only).
  float2 step_even = make_float2(1.f, 0.f), step_odd = step_even;
  if constexpr (kHalf > 1) {
    step_even = twiddle(even, 1u << kLogLastButterflies);
    step_odd = twiddle(odd, 1u << kLogLastButterflies);
  }
  // Writes row r from Z[r] = zr and Z[L - r] = zm with the twiddles te, to (s3 included).
  auto const put = [&](std::uint32_t r, float2 zr, float2 zm, float2 te, float2 to) {
    // A = (Z[r] + conj Z[L - r]) / 2, B = -i (Z[r] - conj Z[L - r]) / 2.
    float2 const ea = make_float2(0.5f * (zr.x + zm.x), 0.5f * (zr.y - zm.y));
    float2 const eb = make_float2(0.5f * (zr.y + zm.y), -0.5f * (zr.x - zm.x));
    *reinterpret_cast<uint2*>(out + r * row_stride) =
        make_uint2(pack_word(cmul(ea, te)), pack_word(cmul(eb, to)));
  };
  // Rows base + 256 k' for k' < kHalf, values by k' (compile-time indices into a, b).
  auto const run = [&](std::uint32_t base, auto value_of) {
    float2 te = cscale(twiddle(even, base), s3), to = cscale(twiddle(odd, base), s3);
#pragma unroll
    for (int k = 0; k < kHalf; ++k) {
      float2 zr, zm;
      value_of(k, zr, zm);
      put(base + (static_cast<std::uint32_t>(k) << kLogLastButterflies), zr, zm, te, to);
      if (k + 1 < kHalf) {
        te = cmul(te, step_even);
        to = cmul(to, step_odd);
      }
    }
  };
#pragma unroll 1
  for (int v = 0; v < tall_real::columns_steps(kLogL); ++v) {
    tall_real::ColumnsStep const q = tall_real::columns_step(w0, v, kLogL);
    int const w = q.w, pw = q.pw;
    float2 a[kR3], b[kR3];
    butterfly_dft<kLogL, 2, kLogR3, kPadded>(words, c, w, a);
    butterfly_dft<kLogL, 2, kLogR3, kPadded>(words, c, pw, b);
    if (q.selves) {
      // Butterfly 0: rows 256 k3 (k3 < R3 / 2) from outputs k3, R3 - k3 (mod R3), and row
      // L / 2 = 256 R3 / 2 from output R3 / 2 alone; butterfly 128: rows 128 + 256 k3 from
      // outputs k3, R3 - 1 - k3.
      run(0, [&](int k, float2& zr, float2& zm) {
        zr = a[bit_reverse<kLogR3>(k)];
        zm = a[bit_reverse<kLogR3>((kR3 - k) & (kR3 - 1))];
      });
      float2 const mid = a[bit_reverse<kLogR3>(kHalf)];
      std::uint32_t const r_mid = static_cast<std::uint32_t>(kHalf) << kLogLastButterflies;
      put(r_mid, mid, mid, cscale(twiddle(even, r_mid), s3), cscale(twiddle(odd, r_mid), s3));
      run(128, [&](int k, float2& zr, float2& zm) {
        zr = b[bit_reverse<kLogR3>(k)];
        zm = b[bit_reverse<kLogR3>(kR3 - 1 - k)];
      });
    } else {
      // Outputs k3 < R3 / 2 of w: rows w + 256 k3, partners output R3 - 1 - k3 of pw; outputs
      // k3 >= R3 / 2 of w: rows pw + 256 k', k' = R3 - 1 - k3, from output k' of pw.
      run(static_cast<std::uint32_t>(w), [&](int k, float2& zr, float2& zm) {
        zr = a[bit_reverse<kLogR3>(k)];
        zm = b[bit_reverse<kLogR3>(kR3 - 1 - k)];
      });
      run(static_cast<std::uint32_t>(pw), [&](int k, float2& zr, float2& zm) {
        zr = b[bit_reverse<kLogR3>(k)];
        zm = a[bit_reverse<kLogR3>(kR3 - 1 - k)];
      });
    }
  }
}

/// Stage 3 of the two-pass real R2C's pass 2 (tall_real_layout.hpp): the column form's deal
/// over row k2 of Y (column c of the item); output k1 goes to the half spectrum `out` where
/// half_target says (conjugated for the mirrored half); padding rows (k2 > N2 / 2) write none.
template <int kLogL>
__device__ __forceinline__ void last_stage_half_rows(std::uint32_t const* words, int c, int w0,
                                                     std::uint32_t* out, std::uint32_t k2,
                                                     int log_n, int log_n2, float s3) {
  constexpr int kLogR3 = log_last_radix(kLogL);
  constexpr int kR3 = 1 << kLogR3;
  constexpr int kLogG = log_last_group(kLogL);
  constexpr int kStep = 1 << log_round_step(kLogL);
  __builtin_assume(__isGlobal(out));  // lost across the item loop: generic ST without it
  if (k2 > (1u << (log_n2 - 1))) return;
#pragma unroll 1
  for (int v = 0; v < (kRounds << kLogG); ++v) {
    int const w = w0 + v * kStep;
    float2 a[kR3];
    butterfly_dft<kLogL, 2, kLogR3, kRows>(words, c, w, a);
#pragma unroll
    for (int k = 0; k < kR3; ++k) {
      tall_real::HalfTarget const t = tall_real::half_target(
          k2, static_cast<std::uint32_t>(output_index(w, k)), log_n, log_n2);
      if (!t.write) continue;
      float2 y = cscale(a[bit_reverse<kLogR3>(k)], s3);
      if (t.mirror) y.y = -y.y;
      out[t.index] = pack_word(y);
    }
  }
}

}  // namespace fftcore::detail::tc::tall_pass
