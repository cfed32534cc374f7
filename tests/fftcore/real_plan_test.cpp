// SPDX-License-Identifier: MIT
// CPU tests of the real-input transforms (R2C / C2R): what can_implement accepts, the
// half-spectrum sizes, and - by running the Tensor Core real layout on the CPU (the complex
// passes with the kernel's index maps in double, the split step with real_split.hpp in FP32) -
// that the layout computes cuFFT's R2C and C2R for 1-D and 2-D, batched, with every scaling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <fftcore/fftcore.hpp>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "../../fftcore/src/tc/column_pass_layout.hpp"
#include "../../fftcore/src/tc/fast_pass_layout.hpp"
#include "../../fftcore/src/tc/mirror_pass_layout.hpp"
#include "../../fftcore/src/tc/real_layout.hpp"
#include "../../fftcore/src/tc/real_split.hpp"
#include "../../fftcore/src/tc/stockham_pass_layout.hpp"
#include "../../fftcore/src/tc/tall_pass_layout.hpp"
#include "../../fftcore/src/tc/tall_real_layout.hpp"
#include "common/reference_dft.hpp"

namespace {

using fftcore::Backend;
using fftcore::Precision;
using fftcore::Scaling;
using fftcore::Status;
using fftcore::Transform;
using fftcore::detail::tc::Buffer;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using fftcore::detail::tc::RealBuffer;
using fftcore::detail::tc::RealLayout;
using cd = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

fftcore::PlanDesc real_desc(std::int64_t rows, std::int64_t cols, std::int64_t batch,
                            Transform kind, Scaling scaling = Scaling::kNone) {
  fftcore::PlanDesc d;
  d.rank = rows > 0 ? 2 : 1;
  d.dims[0] = rows > 0 ? rows : cols;
  d.dims[1] = rows > 0 ? cols : 0;
  d.batch = batch;
  d.kind = kind;
  d.scaling = scaling;
  return d;
}

/// Radix-2 FFT in double along `count` elements of stride `stride`, exponent sign `sign`.
void fft(cd* a, std::size_t count, std::size_t stride, int sign) {
  for (std::size_t i = 1, j = 0; i < count; ++i) {
    std::size_t bit = count >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i * stride], a[j * stride]);
  }
  for (std::size_t len = 2; len <= count; len <<= 1) {
    for (std::size_t k = 0; k < len / 2; ++k) {
      cd const w = std::polar(1.0, sign * 2 * kPi * static_cast<double>(k) / len);
      for (std::size_t i = 0; i < count; i += len) {
        cd const u = a[(i + k) * stride], v = a[(i + k + len / 2) * stride] * w;
        a[(i + k) * stride] = u + v;
        a[(i + k + len / 2) * stride] = u - v;
      }
    }
  }
}

/// Half spectrum of the forward transform of real x [batch][rows][cols] (rows = 1 for 1-D).
std::vector<cd> reference_r2c(std::vector<double> const& x, std::int64_t rows, std::int64_t cols,
                              std::int64_t batch) {
  auto const r = static_cast<std::size_t>(rows), c = static_cast<std::size_t>(cols);
  std::vector<cd> full(x.begin(), x.end());
  for (std::size_t b = 0; b < static_cast<std::size_t>(batch); ++b) {
    cd* item = full.data() + b * r * c;
    for (std::size_t i = 0; i < r; ++i) fft(item + i * c, c, 1, -1);
    for (std::size_t j = 0; j < c; ++j) fft(item + j, r, c, -1);
  }
  std::vector<cd> half;
  for (std::size_t line = 0; line < static_cast<std::size_t>(batch) * r; ++line) {
    for (std::size_t k = 0; k <= c / 2; ++k) half.push_back(full[line * c + k]);
  }
  return half;
}

/// The Tensor Core layout of a 1-D real transform of 2^log_n points in batches of `batch`.
Status layout_1d(int log_n, std::int64_t batch, Transform kind, RealLayout& layout,
                 bool fuse = true, bool small_512 = true) {
  return fftcore::detail::tc::build_real_layout(
      real_desc(0, std::int64_t{1} << log_n, batch, kind), layout, fuse, true,
      fftcore::detail::tc::kLogMinRowPairsColumns, false, false, small_512);
}

double scale_of(Scaling scaling, double n) {
  return scaling == Scaling::kByN ? 1 / n : scaling == Scaling::kBySqrtN ? 1 / std::sqrt(n) : 1;
}

cd to_cd(float2 v) { return {v.x, v.y}; }
float2 to_f2(cd v) { return {static_cast<float>(v.real()), static_cast<float>(v.imag())}; }

/// The paired R2C pass (PassParams::real_pairs) with the kernel's maps: each block's T sequences
/// (fast::pair_sequence) transformed and scaled, then its items' split (fast::pair_split).
void emulate_pairs_pass(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst) {
  namespace fast = fftcore::detail::tc::fast;
  namespace tc = fftcore::detail::tc;
  int const log_l = p.log_length, log_h = p.log_tile - 1, log_p = p.pair_log_sequences;
  std::int64_t const l = std::int64_t{1} << log_l, m = l << log_p;
  EXPECT_EQ(p.extent[0], std::int64_t{1} << log_p);
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    auto const o = tc::block_origin(p, b);
    int const g = static_cast<int>(o.d0 >> p.log_tile);
    std::vector<std::vector<cd>> seqs;
    for (int s = 0; s < (2 << log_h); ++s) {
      int const t = fast::pair_sequence(s, g, log_h, log_p);
      std::int64_t const row = o.in_base + (t & ((1 << p.pair_log_l0) - 1)) * p.pair_in_stride0 +
                               (t >> p.pair_log_l0) * p.pair_in_stride1;
      std::vector<cd> seq(src.begin() + row, src.begin() + row + l);
      fft(seq.data(), seq.size(), 1, -1);
      for (cd& v : seq) v *= static_cast<double>(p.scale);
      seqs.push_back(seq);
    }
    auto const put = [&](std::int64_t n, float2 v) {
      dst.at(static_cast<std::size_t>(o.out_base + n)) = to_cd(v);
    };
    for (int s = 0; s < (1 << log_h); ++s) {
      for (int k = 0; k < l; ++k) {
        fast::PairSplit const q = fast::pair_split(s, k, g, log_h, log_l, log_p);
        float2 const za = to_f2(seqs.at(static_cast<std::size_t>(q.sa)).at(static_cast<std::size_t>(q.ka)));
        float2 const zb = to_f2(seqs.at(static_cast<std::size_t>(q.sb)).at(static_cast<std::size_t>(q.kb)));
        float2 x0, xm;
        if (q.n == 0) {
          tc::split_forward_ends(za, 1.0f, x0, xm);
          put(0, x0);
          put(m, xm);
          put(m / 2, tc::split_forward_middle(zb, 1.0f));
        } else {
          tc::split_forward_pair(za, zb, tc::split_twiddle(static_cast<std::uint32_t>(q.n),
                                                           static_cast<int>(log_l + log_p)),
                                 1.0f, x0, xm);
          put(q.n, x0);
          put(m - q.n, xm);
        }
      }
    }
  }
}

/// The mirror pass (PassParams::real_mirror) with the kernel's maps: each block's two groups of
/// sequences (mirror_pass::sequence) transformed and scaled, then its pair slots' split
/// (mirror_pass::pair_slot), X[M - k] checked to be the partner's output.
void emulate_mirror_pass(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst) {
  namespace mp = fftcore::detail::tc::mirror_pass;
  namespace tc = fftcore::detail::tc;
  int const log_d0 = p.mirror_log_sequences;
  std::int64_t const d0 = std::int64_t{1} << log_d0, m = d0 * mp::kLength;
  std::int64_t const groups = std::int64_t{1} << mp::log_groups(log_d0);
  ASSERT_EQ(p.blocks, groups * p.extent[1]);
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    int const g = static_cast<int>(b % groups);
    std::int64_t const in = (b / groups) * p.in_stride[1], out = (b / groups) * p.out_stride[1];
    std::vector<cd> z[2][mp::kGroup];
    for (int h = 0; h < 2; ++h) {
      for (int t = 0; t < mp::kGroup; ++t) {
        std::int64_t const first = in + mp::sequence(g, h, t, log_d0) * std::int64_t{mp::kLength};
        std::vector<cd> seq(src.begin() + first, src.begin() + first + mp::kLength);
        fft(seq.data(), seq.size(), 1, -1);
        for (cd& v : seq) v *= static_cast<double>(p.scale);
        z[h][t] = seq;
      }
    }
    auto const put = [&](std::int64_t k, float2 v) {
      dst.at(static_cast<std::size_t>(out + k)) = to_cd(v);
    };
    for (int t = 0; t < mp::kGroup; ++t) {
      for (int r = 0; r < mp::kLength; ++r) {
        mp::PairSlot const ps = mp::pair_slot(g, t, r);
        float2 const za = to_f2(z[ps.h_a][t].at(static_cast<std::size_t>(ps.row_a)));
        std::int64_t const k = mp::sequence(g, ps.h_a, t, log_d0) + d0 * ps.row_a;
        float2 xk, xm;
        if (ps.ends) {
          tc::split_forward_ends(za, 1.0f, xk, xm);
          put(0, xk);
          put(m, xm);
          put(m / 2, tc::split_forward_middle(to_f2(z[0][0].at(mp::kLength / 2)), 1.0f));
          continue;
        }
        ASSERT_EQ(mp::sequence(g, ps.h_b, t, log_d0) + d0 * ps.row_b, m - k);
        float2 const zb = to_f2(z[ps.h_b][t].at(static_cast<std::size_t>(ps.row_b)));
        tc::split_forward_pair(za, zb,
                               tc::split_twiddle(static_cast<std::uint32_t>(k), log_d0 + 7), 1.0f,
                               xk, xm);
        put(k, xk);
        put(m - k, xm);
      }
    }
  }
}

/// The mirror pass backwards (the C2R's first pass) with the kernel's maps: Z of each block's
/// sequences from the pairs X[k], X[M - k] as the kernel's threads split them (once per pair;
/// group 0's lane 0 each of its own rows alone), then per sequence k_lo the 128-point inverse
/// DFT times W_M^(-n k_lo), to row k_lo of Y.
void emulate_mirror_c2r_pass(PassParams const& p, std::vector<cd> const& src,
                             std::vector<cd>& dst) {
  namespace mp = fftcore::detail::tc::mirror_pass;
  namespace tc = fftcore::detail::tc;
  int const log_d0 = p.mirror_log_sequences, log_m = log_d0 + mp::kLogLength;
  std::int64_t const d0 = std::int64_t{1} << log_d0, m = d0 * mp::kLength;
  std::int64_t const groups = std::int64_t{1} << mp::log_groups(log_d0);
  ASSERT_EQ(p.blocks, groups * p.extent[1]);
  float const f = p.scale;
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    int const g = static_cast<int>(b % groups);
    std::int64_t const in = (b / groups) * p.in_stride[1], out = (b / groups) * p.out_stride[1];
    auto const x = [&](std::int64_t k) { return to_f2(src.at(static_cast<std::size_t>(in + k))); };
    auto const w = [&](std::int64_t k) {
      return tc::split_twiddle(static_cast<std::uint32_t>(k), log_m);
    };
    std::vector<cd> z[2][mp::kGroup];
    std::vector<int> count(2 * mp::kGroup * mp::kLength, 0);
    for (auto& row : z) {
      for (auto& seq : row) seq.assign(mp::kLength, cd(std::nan(""), 0));
    }
    auto const put = [&](int h, int t, std::int64_t row, float2 v) {
      z[h][t].at(static_cast<std::size_t>(row)) = to_cd(v);
      ++count.at(static_cast<std::size_t>((h * mp::kGroup + t) * mp::kLength + row));
    };
    for (int t = 0; t < mp::kGroup; ++t) {
      for (std::int64_t r = 0; r < mp::kLength; ++r) {
        float2 zk, zm;
        if (g != 0 || t != 0) {
          std::int64_t const k = mp::sequence(g, 0, t, log_d0) + d0 * r;
          ASSERT_EQ(mp::sequence(g, 1, t, log_d0) + d0 * (mp::kLength - 1 - r), m - k);
          tc::split_inverse_pair(x(k), x(m - k), w(k), f, zk, zm);
          put(0, t, r, zk);
          put(1, t, mp::kLength - 1 - r, zm);
          continue;
        }
        if (r == 0) {
          put(0, 0, 0, tc::split_inverse_ends(x(0), x(m), f));
        } else if (r == mp::kLength / 2) {
          put(0, 0, r, tc::split_inverse_middle(x(m / 2), f));
        } else {
          tc::split_inverse_pair(x(d0 * r), x(m - d0 * r), w(d0 * r), f, zk, zm);
          put(0, 0, r, zk);
        }
        std::int64_t const k = d0 / 2 + d0 * r;
        tc::split_inverse_pair(x(k), x(m - k), w(k), f, zk, zm);
        put(1, 0, r, zk);
      }
    }
    EXPECT_EQ(std::count(count.begin(), count.end(), 1), static_cast<std::ptrdiff_t>(count.size()));
    for (int h = 0; h < 2; ++h) {
      for (int t = 0; t < mp::kGroup; ++t) {
        std::vector<cd> seq = z[h][t];
        for (cd& v : seq) v = std::conj(v);
        fft(seq.data(), seq.size(), 1, -1);
        std::int64_t const k_lo = mp::sequence(g, h, t, log_d0);
        for (std::int64_t n = 0; n < mp::kLength; ++n) {
          double const a = 2 * 3.14159265358979323846 * static_cast<double>(n * k_lo) /
                           static_cast<double>(m);
          dst.at(static_cast<std::size_t>(out + k_lo * mp::kLength + n)) =
              std::conj(seq[static_cast<std::size_t>(n)]) * cd(std::cos(a), std::sin(a));
        }
      }
    }
  }
}

/// Calls fn(q, R - q, in_image, out_image) for every sequence q of a row-pair pass
/// (PassParams::real_row_pairs), in the kernel's blocks and tiles.
template <class Fn>
void for_each_row_pair(PassParams const& p, Fn fn) {
  namespace st = fftcore::detail::tc::stockham;
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    auto const o = fftcore::detail::tc::block_origin(p, b);
    std::int64_t const in_image = o.in_base - o.d0 * p.in_stride[0];
    std::int64_t const out_image = o.out_base - o.d0 * p.out_stride[0];
    for (std::int64_t t = 0; t < (std::int64_t{1} << p.log_tile) && o.d0 + t < p.extent[0]; ++t) {
      auto const q = static_cast<std::uint32_t>(o.d0 + t);
      fn(std::int64_t{q}, std::int64_t{st::row_pairs_mirror(q, p.row_pairs_log_rows)}, in_image,
         out_image);
    }
  }
}

/// The 2-D row-pair pass with the kernel's maps. R2C: sequence q of each image from rows q and
/// R - q of Y (stockham::row_pairs_value, as the lane that holds value n computes it), its DFT
/// scaled, the outputs placed by stockham::row_pairs_targets. C2R (inverse): sequence q from row
/// q of the half spectrum and the mirror of row R - q (stockham::row_pairs_reads_mirror), its
/// inverse DFT scaled, the words of Y's rows q and R - q joined as the lane pairs do
/// (stockham::row_pairs_join).
void emulate_row_pairs_pass(PassParams const& p, std::vector<cd> const& src, std::vector<cd>& dst) {
  namespace st = fftcore::detail::tc::stockham;
  bool const c2r = st::row_pairs_c2r(p);
  std::int64_t const l = std::int64_t{1} << p.log_length, m = l / 2;
  std::int64_t const y_row = m, x_row = m + 1;  // Y's rows, the half spectrum's
  EXPECT_EQ(p.in_stride[0], c2r ? x_row : y_row);
  EXPECT_EQ(p.out_stride[0], c2r ? y_row : x_row);
  auto const at = [](std::vector<cd> const& v, std::int64_t i) {
    return v.at(static_cast<std::size_t>(i));
  };
  for_each_row_pair(p, [&](std::int64_t q, std::int64_t qm, std::int64_t in, std::int64_t out) {
    bool const self = q == qm;
    std::vector<cd> seq(static_cast<std::size_t>(l));
    for (std::int64_t n = 0; n < l; ++n) {
      bool const odd = (n & 1) != 0;
      if (c2r) {
        seq[static_cast<std::size_t>(n)] =
            st::row_pairs_reads_mirror(static_cast<int>(n), p.log_length)
                ? std::conj(at(src, in + qm * x_row + l - n))
                : at(src, in + q * x_row + n);
      } else {
        float2 const y = to_f2(at(src, in + q * y_row + n / 2));
        float2 const z = to_f2(at(src, in + qm * y_row + n / 2));
        seq[static_cast<std::size_t>(n)] =
            to_cd(st::row_pairs_value(odd, odd ? z : y, odd ? y : z));
      }
    }
    fft(seq.data(), seq.size(), 1, c2r ? +1 : -1);
    for (cd& v : seq) v *= static_cast<double>(p.scale);
    if (c2r) {
      for (std::int64_t c = 0; c < m; ++c) {
        float2 const a0 = to_f2(seq[static_cast<std::size_t>(2 * c)]);
        float2 const a1 = to_f2(seq[static_cast<std::size_t>(2 * c + 1)]);
        dst.at(static_cast<std::size_t>(out + q * y_row + c)) =
            to_cd(st::row_pairs_join(false, self, a0, a1));
        if (!self) {
          dst.at(static_cast<std::size_t>(out + qm * y_row + c)) =
              to_cd(st::row_pairs_join(true, false, a1, a0));
        }
      }
      return;
    }
    for (std::int64_t n = 0; n < l; ++n) {
      cd const v = seq[static_cast<std::size_t>(n)];
      auto const where = st::row_pairs_targets(static_cast<int>(n), p.log_length, self);
      if (where.own) dst.at(static_cast<std::size_t>(out + q * x_row + n)) = v;
      if (where.mirror)
        dst.at(static_cast<std::size_t>(out + qm * x_row + ((l - n) & (l - 1)))) = std::conj(v);
    }
  });
}

/// Runs one complex sub-plan's passes with the kernel's index maps (as tc_plan_logic_test).
void emulate_passes(PassLayout const& sub, RealLayout const& layout, bool column, bool inverse,
                    std::map<RealBuffer, std::vector<cd>>& buffers) {
  for (PassParams const& p : sub.passes) {
    RealBuffer const src_id = fftcore::detail::tc::real_buffer(layout, column, p.src);
    RealBuffer const dst_id = fftcore::detail::tc::real_buffer(layout, column, p.dst);
    ASSERT_NE(dst_id, RealBuffer::kIn) << "a pass writes the input";
    // Z is FP32, Y too unless the split is fused (real_layout.hpp).
    bool const fp16_y = layout.fused || layout.small || layout.row_pairs;
    bool const fp32_src = (src_id == RealBuffer::kZ && !layout.z_fp16) ||
                          (src_id == RealBuffer::kY && !fp16_y);
    bool const fp32_dst = (dst_id == RealBuffer::kZ && !layout.z_fp16) ||
                          (dst_id == RealBuffer::kY && !fp16_y);
    EXPECT_TRUE(fp32_src || !p.in_fp32) << "FP16 buffer read as FP32";
    EXPECT_TRUE(fp32_dst || !p.out_fp32) << "FP16 buffer written as FP32";
    EXPECT_TRUE(!fp32_src || p.in_fp32) << "FP32 buffer read as FP16";
    EXPECT_TRUE(!fp32_dst || p.out_fp32) << "FP32 buffer written as FP16";
    if (src_id == RealBuffer::kIn || dst_id == RealBuffer::kOut) {
      EXPECT_FALSE(src_id == RealBuffer::kIn && p.in_fp32) << "the FP16 input read as FP32";
      EXPECT_FALSE(dst_id == RealBuffer::kOut && p.out_fp32) << "the FP16 output written as FP32";
    }
    std::vector<cd> const src = buffers[src_id];  // blocks read before they write
    std::vector<cd>& dst = buffers[dst_id];
    if (p.real_pairs != 0) {
      EXPECT_EQ(dst_id, RealBuffer::kOut);
      emulate_pairs_pass(p, src, dst);
      continue;
    }
    if (p.real_mirror != 0) {
      EXPECT_EQ(fftcore::detail::tc::mirror_pass::c2r(p), inverse);
      if (inverse) {
        EXPECT_EQ(src_id, RealBuffer::kIn);
        EXPECT_EQ(dst_id, RealBuffer::kRowWorkspace);
        emulate_mirror_c2r_pass(p, src, dst);
      } else {
        EXPECT_EQ(src_id, RealBuffer::kRowWorkspace);
        EXPECT_EQ(dst_id, RealBuffer::kOut);
        emulate_mirror_pass(p, src, dst);
      }
      continue;
    }
    if (p.real_row_pairs != 0) {
      EXPECT_EQ(src_id, layout.r2c ? RealBuffer::kY : RealBuffer::kIn);
      EXPECT_EQ(dst_id, layout.r2c ? RealBuffer::kOut : RealBuffer::kY);
      EXPECT_EQ(inverse, !layout.r2c);
      emulate_row_pairs_pass(p, src, dst);
      continue;
    }
    std::int64_t const l = std::int64_t{1} << p.log_length;
    for (std::int64_t b = 0; b < p.blocks; ++b) {
      auto const o = fftcore::detail::tc::block_origin(p, b);
      for (std::int64_t t = 0; t < (std::int64_t{1} << p.log_tile) && o.d0 + t < p.extent[0]; ++t) {
        std::vector<cd> seq(static_cast<std::size_t>(l));
        for (std::int64_t n = 0; n < l; ++n) {
          seq[static_cast<std::size_t>(n)] = src.at(
              static_cast<std::size_t>(o.in_base + t * p.in_stride[0] + n * p.in_elem_stride));
        }
        if (p.real_in != 0) {  // the fused C2R: Z[n] / 4 of X[n] and X[M - n], as the kernel
          EXPECT_EQ(p.in_elem_stride, 1);
          std::int64_t const row = o.in_base + t * p.in_stride[0];
          for (std::int64_t n = 0; n < l; ++n) {
            float2 xa = to_f2(src.at(static_cast<std::size_t>(row + n)));
            float2 xb = to_f2(src.at(static_cast<std::size_t>(row + l - n)));
            if (n == 0) xa.y = xb.y = 0.0f;
            float2 zn, zm;
            fftcore::detail::tc::split_inverse_pair(
                xa, xb,
                fftcore::detail::tc::split_twiddle(static_cast<std::uint32_t>(n), p.log_length),
                0.25f, zn, zm);
            seq[static_cast<std::size_t>(n)] = to_cd(zn);
          }
        }
        if (p.real_in_columns != 0) {  // the C2R split in the first row pass's load
          // Column c = d0 + t of a transform whose row starts at in_base - d0; element n is Z[j],
          // j = c + D0 n, of X[j] and X[M - j], the latter where the kernel finds it.
          std::int64_t const inner = p.in_elem_stride;
          std::int64_t const m = inner << p.log_length;
          std::int64_t const c = o.d0 + t;
          std::int64_t const row = o.in_base - o.d0;
          ASSERT_EQ(row % (m + 1), 0);
          int log_m = 0;
          while ((std::int64_t{1} << log_m) < m) ++log_m;
          for (std::int64_t n = 0; n < l; ++n) {
            std::int64_t const j = c + inner * n;
            std::int64_t const mirror =
                o.in_base + fftcore::detail::tc::real_mirror_offset(
                                static_cast<int>(o.d0), static_cast<int>(t), static_cast<int>(n),
                                static_cast<int>(inner), p.log_length);
            ASSERT_EQ(mirror, row + m - j) << "c " << c << " n " << n;
            float2 xa = to_f2(src.at(static_cast<std::size_t>(row + j)));
            float2 xb = to_f2(src.at(static_cast<std::size_t>(mirror)));
            if (j == 0) xa.y = xb.y = 0.0f;
            float2 zn, zm;
            fftcore::detail::tc::split_inverse_pair(
                xa, xb,
                fftcore::detail::tc::split_twiddle(static_cast<std::uint32_t>(j), log_m),
                0.25f, zn, zm);
            seq[static_cast<std::size_t>(n)] = to_cd(zn);
          }
        }
        fft(seq.data(), seq.size(), 1, inverse ? 1 : -1);
        if (p.real_out != 0) {  // the fused R2C: the split on the scaled outputs, as the kernel
          EXPECT_EQ(p.log_twiddle_n, 0);
          EXPECT_EQ(p.out_elem_stride, 1);
          std::int64_t const row = o.out_base + t * p.out_stride[0];
          auto const z = [&](std::int64_t k) {
            return to_f2(seq[static_cast<std::size_t>(k)] * static_cast<double>(p.scale));
          };
          auto const put = [&](std::int64_t k, float2 v) {
            dst.at(static_cast<std::size_t>(row + k)) = to_cd(v);
          };
          for (std::int64_t j = 0; j < l / 2; ++j) {
            float2 xa, xb;
            if (j == 0) {
              fftcore::detail::tc::split_forward_ends(z(0), 1.0f, xa, xb);
              put(0, xa);
              put(l, xb);
              put(l / 2, fftcore::detail::tc::split_forward_middle(z(l / 2), 1.0f));
            } else {
              fftcore::detail::tc::split_forward_pair(
                  z(j), z(l - j),
                  fftcore::detail::tc::split_twiddle(static_cast<std::uint32_t>(j), p.log_length),
                  1.0f, xa, xb);
              put(j, xa);
              put(l - j, xb);
            }
          }
          continue;
        }
        for (std::int64_t k = 0; k < l; ++k) {
          cd v = seq[static_cast<std::size_t>(k)] * static_cast<double>(p.scale);
          if (p.log_twiddle_n > 0) {
            std::int64_t const e = ((o.twiddle_base + t * p.twiddle_stride[0]) * k) &
                                   ((std::int64_t{1} << p.log_twiddle_n) - 1);
            v *= std::polar(1.0, (inverse ? 2 : -2) * kPi * static_cast<double>(e) /
                                     std::ldexp(1.0, p.log_twiddle_n));
          }
          dst.at(static_cast<std::size_t>(o.out_base + t * p.out_stride[0] +
                                          k * p.out_elem_stride)) = v;
        }
      }
    }
  }
}


/// The split step of real_split.hpp over all rows, as the kernel's items do it; the half
/// spectrum in rows of y_pitch where the layout pads them (the small kernels in rank 2), else
/// of M + 1.
void emulate_split(RealLayout const& layout, std::vector<cd> const& src, std::vector<cd>& dst) {
  std::size_t const m = std::size_t{1} << layout.log_m;
  std::size_t const pitch = layout.y_pitch > 0 ? static_cast<std::size_t>(layout.y_pitch) : m + 1;
  float const f = layout.split_factor;
  namespace tc = fftcore::detail::tc;
  for (std::size_t row = 0; row < static_cast<std::size_t>(layout.rows); ++row) {
    std::size_t const zi = row * m, xi = row * pitch;
    for (std::size_t j = 0; j < std::max<std::size_t>(m / 2, 1); ++j) {
      if (layout.r2c) {
        float2 a, b;
        if (j == 0) {
          tc::split_forward_ends(to_f2(src.at(zi)), f, a, b);
          dst.at(xi) = to_cd(a);
          dst.at(xi + m) = to_cd(b);
          if (m >= 2)
            dst.at(xi + m / 2) = to_cd(tc::split_forward_middle(to_f2(src.at(zi + m / 2)), f));
        } else {
          tc::split_forward_pair(to_f2(src.at(zi + j)), to_f2(src.at(zi + m - j)),
                                 tc::split_twiddle(static_cast<std::uint32_t>(j), layout.log_m), f,
                                 a, b);
          dst.at(xi + j) = to_cd(a);
          dst.at(xi + m - j) = to_cd(b);
        }
      } else {
        if (j == 0) {
          dst.at(zi) = to_cd(tc::split_inverse_ends(to_f2(src.at(xi)), to_f2(src.at(xi + m)), f));
          if (m >= 2)
            dst.at(zi + m / 2) = to_cd(tc::split_inverse_middle(to_f2(src.at(xi + m / 2)), f));
        } else {
          float2 a, b;
          tc::split_inverse_pair(to_f2(src.at(xi + j)), to_f2(src.at(xi + m - j)),
                                 tc::split_twiddle(static_cast<std::uint32_t>(j), layout.log_m), f,
                                 a, b);
          dst.at(zi + j) = to_cd(a);
          dst.at(zi + m - j) = to_cd(b);
        }
      }
    }
  }
}

/// Emulates the Tensor Core real plan of `d` on `in` (complex view of the data) into `out`.
/// `mirror`: the mirror pass's fewest sequences (log2, 0: none), build_real_layout's
/// mirror_log_sequences; `c2r_split`: its c2r_split_log_m.
void emulate_real_plan(fftcore::PlanDesc const& d, std::vector<cd> const& in, std::vector<cd>& out,
                       int row_pairs = fftcore::detail::tc::kLogMinRowPairsColumns,
                       int mirror = 0, int c2r_split = 0) {
  RealLayout layout;
  ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, layout, true, true, row_pairs, false, false,
                                                   true, false, mirror, c2r_split),
            Status::kSuccess);
  std::size_t const m = std::size_t{1} << layout.log_m;
  auto const rows = static_cast<std::size_t>(layout.rows);
  cd const nan(std::nan(""), 0);
  std::map<RealBuffer, std::vector<cd>> buf;
  buf[RealBuffer::kIn] = in;
  buf[RealBuffer::kOut].assign(layout.r2c ? rows * (m + 1) : rows * m, nan);
  buf[RealBuffer::kZ].assign(rows * m, nan);
  std::size_t const y_pitch = layout.y_pitch > 0 ? static_cast<std::size_t>(layout.y_pitch) : m + 1;
  buf[RealBuffer::kY].assign(rows * y_pitch, nan);
  buf[RealBuffer::kRowWorkspace].assign(rows * m, nan);
  buf[RealBuffer::kColumnWorkspace].assign(rows * (m + 1), nan);
  bool const rank2 = d.rank == 2, has_rows = m > 1;
  if (layout.small) {  // the small real kernel: the M-point FFT and the split per row
    EXPECT_TRUE(layout.row.passes.empty());
    EXPECT_EQ(layout.workspace_bytes == 0, !rank2);
    std::vector<cd> z(rows * m);
    // Per row, Z = DFT_M(z) (R2C after the load, C2R as conj DFT conj after the split).
    auto const dft_rows = [&](std::vector<cd>& v, bool inverse) {
      for (std::size_t r = 0; r < rows; ++r) {
        std::vector<cd> row(v.begin() + static_cast<std::ptrdiff_t>(r * m),
                            v.begin() + static_cast<std::ptrdiff_t>((r + 1) * m));
        for (cd& e : row) e = inverse ? std::conj(e) : e;
        tcfft::testing::fft_radix2(row);
        for (std::size_t n = 0; n < m; ++n) v[r * m + n] = inverse ? std::conj(row[n]) : row[n];
      }
    };
    // Rank 2: the kernel writes (R2C) or reads (C2R) Y in padded rows, the column FFT meets it.
    if (layout.r2c) {
      z = in;
      dft_rows(z, false);
      emulate_split(layout, z, buf[rank2 ? RealBuffer::kY : RealBuffer::kOut]);
      if (rank2) {
        ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.column, layout, true, false, buf));
      }
    } else {
      if (rank2) {
        ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.column, layout, true, true, buf));
      }
      emulate_split(layout, rank2 ? buf[RealBuffer::kY] : in, z);
      dft_rows(z, true);
      buf[RealBuffer::kOut] = z;
    }
    out = buf[RealBuffer::kOut];
    return;
  }
  if (layout.row_pairs && layout.r2c) {  // the column FFT into Y, then the row pairs
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.column, layout, true, false, buf));
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.row, layout, false, false, buf));
    out = buf[RealBuffer::kOut];
    return;
  }
  if (layout.row_pairs) {  // C2R: the row pairs into Y, then the column FFT
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.row, layout, false, true, buf));
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.column, layout, true, true, buf));
    out = buf[RealBuffer::kOut];
    return;
  }
  if (layout.r2c) {
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.row, layout, false, false, buf));
    if (layout.fused || layout.paired || layout.mirror) {  // the row passes wrote X
      ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.column, layout, true, false, buf));
      out = buf[RealBuffer::kOut];
      return;
    }
    std::vector<cd>& dst = rank2 ? buf[RealBuffer::kY] : buf[RealBuffer::kOut];
    emulate_split(layout, has_rows ? buf[RealBuffer::kZ] : buf[RealBuffer::kIn], dst);
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.column, layout, true, false, buf));
  } else {
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.column, layout, true, true, buf));
    if (layout.fused || layout.mirror) {  // the row passes read the half spectrum (in, or Y)
      ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.row, layout, false, true, buf));
      out = buf[RealBuffer::kOut];
      return;
    }
    std::vector<cd>& dst = has_rows ? buf[RealBuffer::kZ] : buf[RealBuffer::kOut];
    emulate_split(layout, rank2 ? buf[RealBuffer::kY] : buf[RealBuffer::kIn], dst);
    ASSERT_NO_FATAL_FAILURE(emulate_passes(layout.row, layout, false, true, buf));
  }
  out = buf[RealBuffer::kOut];
}

std::vector<double> random_real(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& v : x) v = u(rng);
  return x;
}

/// R2C then C2R of one shape (rows = 0: 1-D), emulated, against the double reference.
/// `row_pairs`: the row pairs' fewest columns (log2), 0 for the fused 2-D layout.
void check_shape(std::int64_t rows, std::int64_t cols, std::int64_t batch, Scaling scaling,
                 int row_pairs = fftcore::detail::tc::kLogMinRowPairsColumns,
                 int c2r_split = 0) {
  std::int64_t const r = rows > 0 ? rows : 1;
  auto const n = static_cast<std::size_t>(r * cols);
  unsigned const seed = static_cast<unsigned>(rows * 7919 + cols * 31 + batch);
  auto const x = random_real(n * static_cast<std::size_t>(batch), seed);
  std::vector<cd> packed(x.size() / 2);
  for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = {x[2 * i], x[2 * i + 1]};
  auto ref = reference_r2c(x, r, cols, batch);
  double const s = scale_of(scaling, static_cast<double>(n));
  for (auto& v : ref) v *= s;
  std::vector<cd> spectrum;
  ASSERT_NO_FATAL_FAILURE(emulate_real_plan(real_desc(rows, cols, batch, Transform::kR2C, scaling),
                                            packed, spectrum, row_pairs));
  ASSERT_EQ(spectrum.size(), ref.size());
  EXPECT_LT(tcfft::testing::relative_l2_error(spectrum, ref), 2e-6) << "R2C";
  // C2R of the exact spectrum (before scaling) returns n x, scaled.
  auto exact = reference_r2c(x, r, cols, batch);
  std::vector<cd> back;
  ASSERT_NO_FATAL_FAILURE(emulate_real_plan(real_desc(rows, cols, batch, Transform::kC2R, scaling),
                                            exact, back, row_pairs, 0, c2r_split));
  std::vector<cd> expect(packed);
  for (auto& v : expect) v *= static_cast<double>(n) * s;
  EXPECT_LT(tcfft::testing::relative_l2_error(back, expect), 2e-6) << "C2R";
}

TEST(RealPlan, TallRowFftsTakeTheTwoPassSplits) {
  // `tall`: the R2C's 1-D row FFTs of M = 2^21..2^24 complex points (2^24 in all and more) in
  // the complex plans' two passes, a 4096-point column pass first, with FP16 Z and the split
  // kernel; three passes without it, for fewer elements and for the C2R.
  for (Transform kind : {Transform::kR2C, Transform::kC2R}) {
    bool const r2c = kind == Transform::kR2C;
    for (int k : {22, 23, 24, 25}) {
      auto const d =
          real_desc(0, std::int64_t{1} << k, std::int64_t{1} << std::max(0, 25 - k), kind);
      RealLayout tall, plain;
      ASSERT_EQ(fftcore::detail::tc::build_real_layout(
                    d, tall, true, true, fftcore::detail::tc::kLogMinRowPairsColumns, true),
                Status::kSuccess);
      ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, plain), Status::kSuccess);
      EXPECT_EQ(plain.row.passes.size(), 3u) << k;
      if (!r2c) {
        EXPECT_EQ(tall.row.passes.size(), 3u) << k;
        continue;
      }
      ASSERT_EQ(tall.row.passes.size(), 2u) << k;
      EXPECT_EQ(tall.row.passes.front().log_length, 12) << k;
      EXPECT_EQ(tall.row.passes.back().log_length, k - 13) << k;
      EXPECT_TRUE(tall.z_fp16) << k;
      EXPECT_FALSE(tall.split_in_row_pass()) << k;
    }
    RealLayout small;
    ASSERT_EQ(fftcore::detail::tc::build_real_layout(
                  real_desc(0, std::int64_t{1} << 22, 1, kind), small, true, true,
                  fftcore::detail::tc::kLogMinRowPairsColumns, true),
              Status::kSuccess);
    EXPECT_EQ(small.row.passes.size(), 3u);
  }
}

TEST(RealPlan, FastDramRowFftsTakeFastDramSplits) {
  // `fast_dram` (with `tall`): the R2C's row FFTs in fast_dram_split's splits from 2^24 elements,
  // as the complex plans on fast-DRAM devices; split_length's without it, below 2^24 elements
  // and for the C2R. M = 2^22 x 4 (2^23 reals), 2^25 (2^26 reals), 2^26 (2^27 reals).
  namespace tc = fftcore::detail::tc;
  // The production layout (tall, halves, small_512) as a fast- and as a slow-DRAM device.
  auto const both_kinds = [](fftcore::PlanDesc const& d, RealLayout& fast, RealLayout& plain) {
    for (bool const fast_dram : {true, false}) {
      ASSERT_EQ(tc::build_real_layout(d, fast_dram ? fast : plain, true, true,
                                      tc::kLogMinRowPairsColumns, true, true, true, fast_dram),
                Status::kSuccess);
    }
  };
  for (auto const& [log_m, batch] :
       {std::pair<int, std::int64_t>{22, 4}, {25, 1}, {26, 1}, {22, 2}}) {
    for (Transform kind : {Transform::kR2C, Transform::kC2R}) {
      auto const d = real_desc(0, std::int64_t{1} << (log_m + 1), batch, kind);
      RealLayout fast, plain;
      ASSERT_NO_FATAL_FAILURE(both_kinds(d, fast, plain));
      std::vector<int> fast_lengths, plain_lengths;
      for (auto const& p : fast.row.passes) fast_lengths.push_back(p.log_length);
      for (auto const& p : plain.row.passes) plain_lengths.push_back(p.log_length);
      std::int64_t const elements = (std::int64_t{1} << log_m) * batch;
      std::vector<int> const expect =
          kind == Transform::kR2C && elements >= (std::int64_t{1} << 24)
              ? tc::fast_dram_split(log_m, 1, elements, false, true, true)
              : plain_lengths;
      ASSERT_FALSE(fast_lengths.empty()) << log_m;
      EXPECT_EQ(fast_lengths, expect) << log_m << " batch " << batch;
      if (kind == Transform::kR2C && elements >= (std::int64_t{1} << 24)) {
        EXPECT_NE(fast_lengths, plain_lengths) << log_m;
      }
      EXPECT_EQ(fast.z_fp16, plain.z_fp16) << log_m;
    }
  }
  // The R2C of 2^19 reals: the halves on slow-DRAM devices only (r2c_halves_on_fast_dram); the
  // C2R's halves on both.
  for (Transform kind : {Transform::kR2C, Transform::kC2R}) {
    for (int log_n : {19, 20, 21, 22}) {
      auto const d = real_desc(0, std::int64_t{1} << log_n, std::int64_t{1} << (27 - log_n), kind);
      RealLayout fast, plain;
      ASSERT_NO_FATAL_FAILURE(both_kinds(d, fast, plain));
      bool const r2c = kind == Transform::kR2C;
      EXPECT_EQ(plain.halves, r2c || log_n >= 20) << log_n;
      EXPECT_EQ(fast.halves, r2c ? log_n != 19 : log_n >= 20) << log_n;
      if (!fast.halves && log_n == 19) {
        EXPECT_FALSE(fast.row.passes.empty());
      }
    }
  }
}

TEST(RealPlan, CanImplementRealKinds) {
  for (int k = 1; k <= 27; ++k) {
    auto const d = real_desc(0, std::int64_t{1} << k, 1, Transform::kR2C);
    EXPECT_EQ(fftcore::can_implement(d), Status::kSuccess) << k;
    auto tc = d;
    tc.backend = Backend::kTensorCore;
    tc.kind = Transform::kC2R;
    EXPECT_EQ(fftcore::can_implement(tc), Status::kSuccess) << k;
  }
  auto one = real_desc(0, 1, 4, Transform::kR2C);
  EXPECT_EQ(fftcore::can_implement(one), Status::kUnsupportedSize);
  auto column = real_desc(16, 1, 1, Transform::kC2R);
  column.backend = Backend::kCufft;
  column.precision = Precision::kSingle;
  EXPECT_EQ(fftcore::can_implement(column), Status::kUnsupportedSize);
  auto bad = real_desc(0, 64, 1, Transform::kR2C);
  bad.kind = static_cast<Transform>(9);
  EXPECT_EQ(fftcore::can_implement(bad), Status::kInvalidArgument);
  auto odd = real_desc(0, 1000, 2, Transform::kR2C);
  odd.precision = Precision::kSingle;
  EXPECT_EQ(fftcore::can_implement(odd), Status::kSuccess);  // cuFFT FP32, any size
  odd.precision = Precision::kHalf;
  EXPECT_EQ(fftcore::can_implement(odd), Status::kUnsupportedSize);
  EXPECT_EQ(fftcore::can_implement(real_desc(1 << 14, 1 << 13, 1, Transform::kR2C)),
            Status::kSuccess);
}

TEST(RealPlan, HalfSpectrumSizesAndBytes) {
  auto d1 = real_desc(0, 1024, 3, Transform::kR2C);
  EXPECT_EQ(d1.elements(), 1024);
  EXPECT_EQ(d1.spectrum_elements(), 513);
  EXPECT_EQ(fftcore::buffer_bytes(d1, true), 3u * 1024 * 2);
  EXPECT_EQ(fftcore::buffer_bytes(d1, false), 3u * 513 * 4);
  auto d2 = real_desc(64, 32, 2, Transform::kC2R);
  d2.precision = Precision::kSingle;
  EXPECT_EQ(d2.spectrum_elements(), 64 * 17);
  EXPECT_EQ(fftcore::buffer_bytes(d2, true), 2u * 64 * 17 * 8);
  EXPECT_EQ(fftcore::buffer_bytes(d2, false), 2u * 64 * 32 * 4);
  auto c = real_desc(0, 1000, 1, Transform::kC2C);
  EXPECT_EQ(c.spectrum_elements(), 1000);
  EXPECT_EQ(fftcore::buffer_bytes(c, true), fftcore::buffer_bytes(c, false));
  fftcore::PlanDesc legacy{1, {256, 0}, 4, Precision::kHalf, Scaling::kByN, Backend::kAuto};
  EXPECT_EQ(legacy.kind, Transform::kC2C);  // older aggregate initialisers still compile
}

TEST(RealPlan, WrongDirectionHasAName) {
  std::string const name = fftcore::to_string(Status::kWrongDirection);
  EXPECT_NE(name, "unknown status");
  EXPECT_NE(name, fftcore::to_string(Status::kInvalidArgument));
}

TEST(RealPlan, WorkspaceRegionsDoNotOverlapWhileLive) {
  for (auto [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 2},
                                                                              {0, 4},
                                                                              {0, 1 << 15},
                                                                              {0, 1 << 24},
                                                                              {2, 2},
                                                                              {64, 512},
                                                                              {1 << 14, 4},
                                                                              {4096, 4096},
                                                                              {256, 256},
                                                                              {64, 128},
                                                                              {2, 1 << 14}}) {
    for (Transform kind : {Transform::kR2C, Transform::kC2R}) {
      RealLayout l;
      ASSERT_EQ(fftcore::detail::tc::build_real_layout(real_desc(rows, cols, 3, kind), l),
                Status::kSuccess);
      auto const r = static_cast<std::size_t>(l.rows), m = std::size_t{1} << l.log_m;
      std::size_t const z =
          m > 1 && !l.small && !l.split_in_row_pass() ? r * m * (l.z_fp16 ? 4 : 8) : 0;
      // Y: FP16 rows of y_pitch (M + 1 rounded up to 8) when fused or small, of M words for the
      // row pairs, else FP32 rows of M + 1.
      bool const fp16_y = l.fused || l.small || l.row_pairs;
      std::size_t const y = rows == 0 ? 0
                            : fp16_y  ? r * static_cast<std::size_t>(l.y_pitch) * 4
                                      : r * (m + 1) * 8;
      if (rows > 0 && fp16_y) {
        EXPECT_EQ(l.y_pitch % 8, 0);
        EXPECT_GE(l.y_pitch, static_cast<std::int64_t>(l.row_pairs ? m : m + 1));
      }
      SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
      EXPECT_GE(l.z_offset, l.y_offset + y);                 // Y and Z are live together
      EXPECT_GE(l.row_workspace_offset, l.z_offset + z);     // Z and the row FFT's workspace too
      EXPECT_GE(l.column_workspace_offset, l.y_offset + y);  // Y and the column FFT's
      EXPECT_LE(l.row_workspace_offset + l.row.workspace_bytes, l.workspace_bytes);
      EXPECT_LE(l.column_workspace_offset + l.column.workspace_bytes, l.workspace_bytes);
      EXPECT_LE(l.z_offset + z, l.workspace_bytes);
      EXPECT_EQ(l.row.passes.empty(), m == 1 || l.small);
      EXPECT_EQ(l.column.passes.empty(), rows == 0);
    }
  }
}

TEST(RealPlan, SplitTwiddleIsAccurateForLargeIndices) {
  for (int log_m : {1, 5, 14, 24, 26}) {
    std::uint32_t const m = 1u << log_m;
    for (std::uint32_t k : {0u, 1u, m / 2, m - 1, (m / 3) | 1u, m - (1u << 20) + 7u}) {
      if (k >= m) continue;
      float2 const w = fftcore::detail::tc::split_twiddle(k, log_m);
      long double const a = -3.14159265358979323846264338327950288L * k / m;
      EXPECT_NEAR(w.x, static_cast<double>(std::cos(a)), 3e-7) << k << " / " << m;
      EXPECT_NEAR(w.y, static_cast<double>(std::sin(a)), 3e-7) << k << " / " << m;
    }
  }
}

TEST(RealPlan, EmulatedLayoutGivesR2cAndC2r1d) {
  for (int k = 1; k <= 16; ++k) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    check_shape(0, std::int64_t{1} << k, k <= 12 ? 3 : 1, Scaling::kNone);
  }
  for (int k = 1; k <= 9; ++k) {  // the small real kernels carry the whole scale
    SCOPED_TRACE("scaled, n = 2^" + std::to_string(k));
    check_shape(0, std::int64_t{1} << k, 33, Scaling::kByN);
    check_shape(0, std::int64_t{1} << k, 33, Scaling::kBySqrtN);
  }
  check_shape(0, 1 << 10, 2, Scaling::kByN);
  check_shape(0, 1 << 16, 1, Scaling::kBySqrtN);
}

TEST(RealPlan, FusesTheSplitWhereTheRowFftIsOnePass) {
  for (int k = 1; k <= 20; ++k) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    RealLayout l;
    ASSERT_EQ(layout_1d(k, 5, Transform::kR2C, l), Status::kSuccess);
    bool const one_pass = k >= 10 && k <= 15;  // M = 512 .. 16384: the register-chained pass
    EXPECT_EQ(l.fused, one_pass);
    EXPECT_EQ(l.small, k <= 9);  // n <= 512: the small real kernels, no passes
    if (l.small) {
      EXPECT_TRUE(l.row.passes.empty());
      EXPECT_EQ(l.workspace_bytes, 0u);
    }
    if (one_pass) {
      ASSERT_EQ(l.row.passes.size(), 1u);
      EXPECT_EQ(l.row.passes[0].real_out, 1);
      EXPECT_EQ(l.row.passes[0].out_stride[0], (std::int64_t{1} << (k - 1)) + 1);
      EXPECT_EQ(l.workspace_bytes, 0u);
    }
    // FP16 Z and the split kernel: two or three row passes (k >= 16); up to 256 points the
    // small real kernels, no Z.
    // (Batch 5: no last row pass of 512 or 1024 points over 128 sequences, so none paired.)
    bool const z_fp16 = k >= 16;
    EXPECT_EQ(l.z_fp16, z_fp16);
    EXPECT_FALSE(l.paired);
    for (PassParams const& p : l.row.passes) {  // FP16 throughout where fused or z_fp16
      EXPECT_EQ(p.in_fp32 != 0 || p.out_fp32 != 0, k <= 4);
    }
    ASSERT_EQ(layout_1d(k, 5, Transform::kR2C, l, /*fuse=*/false), Status::kSuccess);
    EXPECT_FALSE(l.fused);
    EXPECT_FALSE(l.z_fp16);
    EXPECT_FALSE(l.small);
    ASSERT_EQ(layout_1d(k, 5, Transform::kC2R, l), Status::kSuccess);
    EXPECT_EQ(l.fused, one_pass);  // C2R: the split in the load
    EXPECT_EQ(l.small, k <= 9);
    EXPECT_FALSE(l.paired);
    // C2R above 2^15 reals: the split in the first row pass's load where that runs down
    // adjacent columns on the column pass or the register-chained pass (batch 5: 256, 256, 128
    // and 512 points at 2^17..2^20); 2^16 starts with an 8-point pass and keeps the split kernel.
    EXPECT_EQ(l.column_split, k >= 17);
    EXPECT_EQ(l.z_fp16, k == 16);
    if (one_pass) {
      ASSERT_EQ(l.row.passes.size(), 1u);
      EXPECT_EQ(l.row.passes[0].real_in, 1);
      EXPECT_EQ(l.row.passes[0].real_out, 0);
      EXPECT_EQ(l.row.passes[0].in_stride[0], (std::int64_t{1} << (k - 1)) + 1);
      EXPECT_EQ(l.workspace_bytes, 0u);
    }
  }
  // 512 reals with the medium real kernel switched off (FFTCORE_TC_SMALL_512=0): the split in
  // the register-chained pass's store (R2C) or load (C2R), as before.
  for (Transform kind : {Transform::kR2C, Transform::kC2R}) {
    RealLayout l;
    ASSERT_EQ(layout_1d(9, 5, kind, l, true, /*small_512=*/false), Status::kSuccess);
    EXPECT_FALSE(l.small);
    EXPECT_TRUE(l.fused);
    ASSERT_EQ(l.row.passes.size(), 1u);
    EXPECT_EQ(kind == Transform::kR2C ? l.row.passes[0].real_out : l.row.passes[0].real_in, 1);
  }
  for (Transform kind : {Transform::kR2C, Transform::kC2R}) {
    RealLayout l;
    ASSERT_EQ(fftcore::detail::tc::build_real_layout(real_desc(64, 1024, 2, kind), l),
              Status::kSuccess);
    EXPECT_TRUE(l.row_pairs);  // 2-D from 512 columns: the row pairs (FP16 Y of M words)
    EXPECT_FALSE(l.fused);
    for (PassParams const& p : l.column.passes) {
      EXPECT_EQ(p.in_fp32, 0);
      EXPECT_EQ(p.out_fp32, 0);
    }
    // With the row pairs off (FFTCORE_TC_ROW_PAIRS=0): the half spectrum Y in FP16 between the
    // row and column passes.
    ASSERT_EQ(fftcore::detail::tc::build_real_layout(real_desc(64, 512, 2, kind), l, true, true, 0),
              Status::kSuccess);
    EXPECT_TRUE(l.fused);
    EXPECT_TRUE(l.rank2);
    for (PassParams const& p : l.column.passes) {
      EXPECT_EQ(p.in_fp32, 0);
      EXPECT_EQ(p.out_fp32, 0);
    }
    ASSERT_EQ(fftcore::detail::tc::build_real_layout(real_desc(8, 512, 2, kind), l),
              Status::kSuccess);
    EXPECT_FALSE(l.fused);  // 4096 elements: the FP32 half spectrum, for accuracy
    // 128 and 256 columns above 4096 elements: the medium real kernel into / from FP16 Y.
    for (auto [r, c, pitch] : std::vector<std::array<std::int64_t, 3>>{{256, 256, 136},
                                                                         {64, 128, 72}}) {
      ASSERT_EQ(fftcore::detail::tc::build_real_layout(real_desc(r, c, 2, kind), l),
                Status::kSuccess);
      EXPECT_TRUE(l.small) << r << " x " << c;
      EXPECT_FALSE(l.fused);
      EXPECT_TRUE(l.row.passes.empty());
      EXPECT_EQ(l.y_pitch, pitch);
      for (PassParams const& p : l.column.passes) {
        EXPECT_EQ(p.in_fp32, 0);
        EXPECT_EQ(p.out_fp32, 0);
      }
    }
    for (auto [r, c] : std::vector<std::pair<std::int64_t, std::int64_t>>{{32, 128}, {128, 64}}) {
      ASSERT_EQ(fftcore::detail::tc::build_real_layout(real_desc(r, c, 2, kind), l),
                Status::kSuccess);
      EXPECT_FALSE(l.small) << r << " x " << c << ": 4096 elements, or 64 columns";
    }
  }
  check_shape(64, 1024, 2, Scaling::kNone);
  check_shape(64, 512, 2, Scaling::kNone);
  check_shape(512, 512, 1, Scaling::kByN);
  check_shape(16, 2048, 3, Scaling::kBySqrtN);
  check_shape(8192, 512, 1, Scaling::kByN);
  // The fused 2-D layout (the row pairs off, for A/B).
  check_shape(64, 1024, 2, Scaling::kNone, 0);
  check_shape(512, 512, 1, Scaling::kByN, 0);
  check_shape(16, 2048, 3, Scaling::kBySqrtN, 0);
  check_shape(8192, 512, 1, Scaling::kByN, 0);  // two column passes, the first and last repitched
  RealLayout two;
  ASSERT_EQ(fftcore::detail::tc::build_real_layout(real_desc(8192, 512, 1, Transform::kR2C), two,
                                                   true, true, 0),
            Status::kSuccess);
  EXPECT_EQ(two.column.passes.size(), 2u);
  EXPECT_EQ(two.y_pitch, 264);
  check_shape(0, 1 << 12, 3, Scaling::kBySqrtN);
  check_shape(0, 1 << 15, 2, Scaling::kByN);
}

TEST(RealPlan, EmulatedLayoutGivesR2cAndC2rMultiPass) {
  // M = 2^16: two passes (three start at M = 2^23, ~40 s here: left to the GPU test).
  check_shape(0, 1 << 17, 2, Scaling::kByN);
  // 2^20 complex points in all: 128 + 512, the R2C paired (its last pass takes the split), the
  // C2R's split in its first pass's load.
  check_shape(0, 1 << 17, 16, Scaling::kNone);
  check_shape(0, 1 << 16, 33, Scaling::kBySqrtN);  // 128 + 256
  check_shape(0, 1 << 18, 1, Scaling::kByN);       // 512 + 256 (the register-chained pass)
}

/// The C2R's split kernel (build_real_layout's c2r_split_log_m, kLogMinC2rSplitKernelM): from
/// that M the 1-D C2R runs the split kernel into FP16 Z and the complex plan's row passes (the
/// R2C's, two-pass splits included), not the column split; below it, and switched off, the
/// column split as before. Emulated at M = 2^16 and 2^17 (the switch's =16) against the
/// reference, scaled or not.
TEST(RealPlan, C2rSplitKernelTakesTheComplexRowPasses) {
  namespace tc = fftcore::detail::tc;
  for (int log_n : {25, 26, 27}) {
    for (int c2r_split : {0, tc::kLogMinC2rSplitKernelM}) {
      auto const d = real_desc(0, std::int64_t{1} << log_n, 1, Transform::kC2R);
      auto const r = real_desc(0, std::int64_t{1} << log_n, 1, Transform::kR2C);
      RealLayout c2r, r2c;
      for (auto [desc, layout] : {std::pair{&d, &c2r}, std::pair{&r, &r2c}}) {
        ASSERT_EQ(tc::build_real_layout(*desc, *layout, true, true, tc::kLogMinRowPairsColumns,
                                        true, true, true, true, tc::kLogMinMirrorSequences,
                                        c2r_split),
                  Status::kSuccess);
      }
      SCOPED_TRACE("2^" + std::to_string(log_n) + " reals, c2r_split " +
                   std::to_string(c2r_split));
      bool const kernel = c2r_split > 0;
      EXPECT_EQ(c2r.column_split, !kernel);
      EXPECT_EQ(c2r.split_in_row_pass(), !kernel);
      EXPECT_EQ(c2r.z_fp16, kernel);
      std::vector<int> c2r_lengths, r2c_lengths;
      for (auto const& p : c2r.row.passes) c2r_lengths.push_back(p.log_length);
      for (auto const& p : r2c.row.passes) r2c_lengths.push_back(p.log_length);
      if (kernel) {
        EXPECT_EQ(c2r_lengths, r2c_lengths);
        EXPECT_EQ(c2r.row.passes.front().real_in_columns, 0);
      } else {
        EXPECT_EQ(c2r.row.passes.front().real_in_columns, 1);
      }
    }
  }
  // Below the switch's M: unchanged (the halves at 2^24 reals in a large batch).
  RealLayout below;
  ASSERT_EQ(tc::build_real_layout(real_desc(0, 1 << 24, 16, Transform::kC2R), below, true, true,
                                  tc::kLogMinRowPairsColumns, true, true, true, true,
                                  tc::kLogMinMirrorSequences, tc::kLogMinC2rSplitKernelM),
            Status::kSuccess);
  EXPECT_TRUE(below.halves);
  // The emulated plans: M = 2^16 (two passes) and 2^17, the split kernel from M = 2^16.
  check_shape(0, 1 << 17, 2, Scaling::kNone, tc::kLogMinRowPairsColumns, 16);
  check_shape(0, 1 << 17, 1, Scaling::kByN, tc::kLogMinRowPairsColumns, 16);
  check_shape(0, 1 << 18, 1, Scaling::kBySqrtN, tc::kLogMinRowPairsColumns, 16);
}

/// The mirror pass (RealLayout::mirror, mirror_pass_layout.hpp): where the planner takes it (the
/// 1-D R2C and C2R of 2^17..2^20 reals from D0 = 2^mirror_log_sequences, the D0-point pass with
/// 128 items, ahead of the halves, the paired split and the column split, as a fast- or
/// slow-DRAM device), its two passes each way, and the R2C and C2R emulated in double with the
/// kernels' maps against the reference, scaled or not; where it is not: too few items, D0 above
/// 4096 or below the switch's, switched off.
TEST(RealPlan, MirrorPassEmulatedWithTheKernelMaps) {
  namespace mp = fftcore::detail::tc::mirror_pass;
  namespace tc = fftcore::detail::tc;
  struct Case {
    int log_n;
    std::int64_t batch;
    Scaling scaling;
  };
  auto const planned = [](int log_n, std::int64_t batch, Transform kind, Scaling scaling,
                          bool fast_dram, int mirror, RealLayout& l) {
    return tc::build_real_layout(real_desc(0, std::int64_t{1} << log_n, batch, kind, scaling), l,
                                 true, true, tc::kLogMinRowPairsColumns, true, true, true,
                                 fast_dram, mirror);
  };
  for (Case const c : {Case{17, 33, Scaling::kNone}, Case{18, 33, Scaling::kByN},
                       Case{19, 17, Scaling::kBySqrtN}, Case{20, 9, Scaling::kNone}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(c.log_n) + " batch " + std::to_string(c.batch));
    std::int64_t const n = std::int64_t{1} << c.log_n, m = n / 2;
    for (bool const fast_dram : {false, true}) {
      RealLayout l;
      // The C2R: the mirror pass backwards (in -> the row workspace), then the untwiddled
      // inverse column FFT of D0 points over the 128 columns (-> out).
      ASSERT_EQ(planned(c.log_n, c.batch, Transform::kC2R, c.scaling, fast_dram,
                        mp::kMinLogSequences, l),
                Status::kSuccess);
      ASSERT_TRUE(l.mirror);
      EXPECT_FALSE(l.halves || l.column_split || l.z_fp16 || l.fused);
      ASSERT_EQ(l.row.passes.size(), 2u);
      EXPECT_EQ(l.row.passes.front().real_mirror, 1);
      EXPECT_TRUE(mp::c2r(l.row.passes.front()));
      EXPECT_TRUE(mp::eligible(l.row.passes.front()));
      EXPECT_EQ(l.row.passes.front().src, Buffer::kIn);
      EXPECT_EQ(l.row.passes.front().dst, Buffer::kWorkspace);
      EXPECT_EQ(l.row.passes.back().log_length, c.log_n - 8);
      EXPECT_EQ(l.row.passes.back().log_twiddle_n, 0);
      EXPECT_EQ(l.row.passes.back().extent[0], mp::kLength);
      EXPECT_EQ(l.row.passes.back().src, Buffer::kWorkspace);
      EXPECT_EQ(l.row.passes.back().dst, Buffer::kOut);
      ASSERT_EQ(planned(c.log_n, c.batch, Transform::kR2C, c.scaling, fast_dram,
                        mp::kMinLogSequences, l),
                Status::kSuccess);
      ASSERT_TRUE(l.mirror);
      EXPECT_FALSE(l.halves || l.paired || l.z_fp16 || l.fused);
      EXPECT_TRUE(l.split_in_row_pass());
      ASSERT_EQ(l.row.passes.size(), 2u);
      PassParams const& first = l.row.passes.front();
      PassParams const& last = l.row.passes.back();
      EXPECT_EQ(first.log_length, c.log_n - 8);
      EXPECT_EQ(first.log_twiddle_n, c.log_n - 1);
      EXPECT_EQ(first.src, Buffer::kIn);
      EXPECT_EQ(first.dst, Buffer::kWorkspace);
      EXPECT_EQ(last.real_mirror, 1);
      EXPECT_EQ(last.mirror_log_sequences, c.log_n - 8);
      EXPECT_EQ(last.dst, Buffer::kOut);
      EXPECT_TRUE(mp::eligible(last));
      EXPECT_GE(l.workspace_bytes, static_cast<std::size_t>(c.batch * m * 4));
    }
    unsigned const seed = static_cast<unsigned>(c.log_n * 131 + c.batch);
    auto const x = random_real(static_cast<std::size_t>(n * c.batch), seed);
    std::vector<cd> packed(x.size() / 2);
    for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = {x[2 * i], x[2 * i + 1]};
    auto ref = reference_r2c(x, 1, n, c.batch);
    double const s = scale_of(c.scaling, static_cast<double>(n));
    for (auto& v : ref) v *= s;
    std::vector<cd> spectrum;
    ASSERT_NO_FATAL_FAILURE(
        emulate_real_plan(real_desc(0, n, c.batch, Transform::kR2C, c.scaling), packed, spectrum,
                          tc::kLogMinRowPairsColumns, mp::kMinLogSequences));
    ASSERT_EQ(spectrum.size(), ref.size());
    EXPECT_LT(tcfft::testing::relative_l2_error(spectrum, ref), 2e-6) << "R2C";
    // The C2R of the exact spectrum (before scaling) returns n x, scaled.
    auto const exact = reference_r2c(x, 1, n, c.batch);
    std::vector<cd> back;
    ASSERT_NO_FATAL_FAILURE(
        emulate_real_plan(real_desc(0, n, c.batch, Transform::kC2R, c.scaling), exact, back,
                          tc::kLogMinRowPairsColumns, mp::kMinLogSequences));
    std::vector<cd> expect(packed);
    for (auto& v : expect) v *= static_cast<double>(n) * s;
    EXPECT_LT(tcfft::testing::relative_l2_error(back, expect), 2e-6) << "C2R";
  }
  // The default switch starts at D0 = 512 (2^17 reals); from D0 = 1024 with 10; 2^21 reals
  // (D0 = 8192), too few items for the D0-point pass (2^18 x 31: 124) and the switch off keep
  // the other layouts.
  RealLayout l;
  ASSERT_EQ(planned(17, 33, Transform::kR2C, Scaling::kNone, true, tc::kLogMinMirrorSequences, l),
            Status::kSuccess);
  EXPECT_TRUE(l.mirror);
  ASSERT_EQ(planned(17, 33, Transform::kR2C, Scaling::kNone, true, 10, l), Status::kSuccess);
  EXPECT_FALSE(l.mirror);
  ASSERT_EQ(planned(18, 33, Transform::kC2R, Scaling::kNone, true, 10, l), Status::kSuccess);
  EXPECT_TRUE(l.mirror);
  for (auto const& [log_n, batch, kind, mirror] :
       std::vector<std::tuple<int, std::int64_t, Transform, int>>{
           {21, 64, Transform::kC2R, 9},
           {18, 31, Transform::kC2R, 9},
           {21, 64, Transform::kR2C, 9},
           {18, 31, Transform::kR2C, 9},
           {20, 7, Transform::kR2C, 9},
           {19, 64, Transform::kR2C, 0}}) {
    SCOPED_TRACE("not taken: n = 2^" + std::to_string(log_n) + " batch " + std::to_string(batch));
    ASSERT_EQ(planned(log_n, batch, kind, Scaling::kNone, true, mirror, l), Status::kSuccess);
    EXPECT_FALSE(l.mirror);
    for (PassParams const& p : l.row.passes) EXPECT_EQ(p.real_mirror, 0);
  }
}

/// The paired R2C (PassParams::real_pairs): where the planner takes it, every block's sequences
/// are the transform's sequences once, and its items write each X[n] of every row once, from
/// the outputs Z[n] and Z[M - n] (Z[0] and Z[M / 2] for X[0], X[M], X[M / 2]).
TEST(RealPlan, PairedSplitCoversEveryPairOnce) {
  namespace fast = fftcore::detail::tc::fast;
  struct Case {
    int log_n;
    std::int64_t batch;
    std::size_t passes;
  };
  // Large totals: two passes of 128 + 512 and 128 + 1024 points.
  for (Case const c : {Case{17, 16, 2}, Case{17, 33, 2}, Case{18, 8, 2}, Case{18, 9, 2}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(c.log_n) + " batch " + std::to_string(c.batch));
    RealLayout l;
    ASSERT_EQ(layout_1d(c.log_n, c.batch, Transform::kR2C, l), Status::kSuccess);
    ASSERT_TRUE(l.paired);
    EXPECT_FALSE(l.z_fp16);
    ASSERT_EQ(l.row.passes.size(), c.passes);
    PassParams const& p = l.row.passes.back();
    EXPECT_EQ(p.real_pairs, 1);
    EXPECT_EQ(p.log_tile, fast::pairs_log_tile(p.log_length));
    EXPECT_EQ(p.threads, 1 << (p.log_length + p.log_tile - 4));
    int const log_h = p.log_tile - 1, log_p = p.pair_log_sequences;
    std::int64_t const m = std::int64_t{1} << (c.log_n - 1);
    ASSERT_EQ(std::int64_t{1} << (p.log_length + log_p), m);
    std::vector<int> seen(static_cast<std::size_t>(c.batch << log_p), 0);
    std::vector<int> written(static_cast<std::size_t>(c.batch * (m + 1)), 0);
    std::int64_t const l_len = std::int64_t{1} << p.log_length;
    for (std::int64_t b = 0; b < p.blocks; ++b) {
      auto const o = fftcore::detail::tc::block_origin(p, b);
      ASSERT_EQ(o.in_base % m, 0);
      std::int64_t const row = o.in_base / m;
      ASSERT_EQ(o.out_base, row * (m + 1));
      int const g = static_cast<int>(o.d0 >> p.log_tile);
      std::vector<int> t(static_cast<std::size_t>(2 << log_h));
      for (int s = 0; s < (2 << log_h); ++s) {
        t[static_cast<std::size_t>(s)] = fast::pair_sequence(s, g, log_h, log_p);
        ++seen.at(static_cast<std::size_t>((row << log_p) + t[static_cast<std::size_t>(s)]));
      }
      for (int s = 0; s < (1 << log_h); ++s) {
        for (int k = 0; k < l_len; ++k) {
          fast::PairSplit const q = fast::pair_split(s, k, g, log_h, p.log_length, log_p);
          std::int64_t const a = t[static_cast<std::size_t>(q.sa)] + (std::int64_t{q.ka} << log_p);
          std::int64_t const z = t[static_cast<std::size_t>(q.sb)] + (std::int64_t{q.kb} << log_p);
          if (q.n == 0) {
            EXPECT_EQ(a, 0);
            EXPECT_EQ(z, m / 2);
            ++written.at(static_cast<std::size_t>(o.out_base + m / 2));
          } else {
            EXPECT_EQ(a, q.n);
            EXPECT_EQ(z, m - q.n);
          }
          ++written.at(static_cast<std::size_t>(o.out_base + q.n));
          ++written.at(static_cast<std::size_t>(o.out_base + m - q.n));
        }
      }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(seen.size()));
    EXPECT_EQ(std::count(written.begin(), written.end(), 1),
              static_cast<std::ptrdiff_t>(written.size()));
  }
  // The C2R, and the R2C where the last pass is of 256, 2048 or 4096 points or spans more than
  // 128 sequences (measured slower paired, fast_pass_layout.hpp): the split kernel.
  RealLayout l;
  ASSERT_EQ(layout_1d(18, 8, Transform::kC2R, l), Status::kSuccess);
  EXPECT_FALSE(l.paired);
  for (Case const c : {Case{16, 1, 2}, Case{16, 32, 2}, Case{17, 3, 2}, Case{19, 4, 2},
                       Case{20, 2, 2}, Case{21, 1, 2}, Case{22, 1, 3}, Case{27, 1, 3}}) {
    SCOPED_TRACE("split kernel: n = 2^" + std::to_string(c.log_n));
    ASSERT_EQ(layout_1d(c.log_n, c.batch, Transform::kR2C, l), Status::kSuccess);
    EXPECT_FALSE(l.paired);
    EXPECT_TRUE(l.z_fp16);
    EXPECT_EQ(l.row.passes.size(), c.passes);
  }
}

/// The layout of a 1-D real transform of 2^log_n reals as make_plan builds it, the halves on or
/// off.
Status planned_layout(int log_n, std::int64_t batch, Transform kind, bool halves, RealLayout& l) {
  return fftcore::detail::tc::build_real_layout(
      real_desc(0, std::int64_t{1} << log_n, batch, kind), l, true, true,
      fftcore::detail::tc::kLogMinRowPairsColumns, true, halves);
}

/// That the planner leaves the halves out for each (log_n, batch, halves switch) case.
void expect_no_halves(std::vector<std::tuple<int, std::int64_t, bool>> const& cases,
                      Transform kind) {
  for (auto const& [log_n, batch, on] : cases) {
    RealLayout l;
    ASSERT_EQ(planned_layout(log_n, batch, kind, on, l), Status::kSuccess);
    EXPECT_FALSE(l.halves) << log_n << " " << batch << (on ? "" : " (switched off)");
  }
}

/// The layout of the halves (RealLayout::halves) of a 1-D R2C or C2R of 2^log_n reals, with the
/// halves on: two passes of N = 2^log_n points together, `in` -> the row workspace -> `out`,
/// each of 128 items or more and eligible for its own kernel only.
void halves_layout(int log_n, std::int64_t batch, Transform kind, RealLayout& l) {
  namespace tr = fftcore::detail::tc::tall_real;
  ASSERT_EQ(planned_layout(log_n, batch, kind, true, l), Status::kSuccess);
  ASSERT_TRUE(l.halves);
  ASSERT_TRUE(l.split_in_row_pass());
  ASSERT_EQ(l.row.passes.size(), 2u);
  PassParams const& a = l.row.passes[0];
  PassParams const& b = l.row.passes[1];
  bool const r2c = kind == Transform::kR2C;
  ASSERT_EQ(tr::columns_eligible(a), r2c);
  ASSERT_EQ(tr::rows_eligible(b), r2c);
  ASSERT_EQ(tr::c2r_columns_eligible(a), !r2c);
  ASSERT_EQ(tr::c2r_rows_eligible(b), !r2c);
  EXPECT_FALSE(tr::rows_eligible(a) || tr::c2r_rows_eligible(a) || tr::columns_eligible(b) ||
               tr::c2r_columns_eligible(b));
  EXPECT_EQ(a.log_length + b.log_length, log_n);
  EXPECT_EQ(a.src, Buffer::kIn);
  EXPECT_EQ(a.dst, Buffer::kWorkspace);
  EXPECT_EQ(b.src, Buffer::kWorkspace);
  EXPECT_EQ(b.dst, Buffer::kOut);
  EXPECT_EQ(fftcore::detail::tc::real_buffer(l, false, a.src), RealBuffer::kIn);
  EXPECT_EQ(fftcore::detail::tc::real_buffer(l, false, b.dst), RealBuffer::kOut);
  EXPECT_GE(a.blocks, 128);
  EXPECT_GE(b.blocks, 128);
}

/// The halves (RealLayout::halves, tall_real_layout.hpp), emulated in double with the kernels'
/// maps on the first and last transform of each batch: pass 1's column FFTs, its stage-3 pair
/// deal (each butterfly once, as own or partner; partner outputs the mirrors N2 - k2), the
/// separation and twiddles into the rows k2 <= N2 / 2 of Y (each word once); pass 2's row FFTs
/// and half_target (each X[k], k <= N / 2, once). The result is the R2C to double precision.
/// Where the planner takes the halves: 2^19..2^22 reals with 128 items a pass; not at 2^17,
/// 2^18, 2^23..2^25, small batches, or switched off.
TEST(RealPlan, HalvesEmulatedWithTheKernelMaps) {
  namespace tp = fftcore::detail::tc::tall_pass;
  namespace tr = fftcore::detail::tc::tall_real;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::set<std::pair<int, int>> lengths;  // (pass 1, pass 2) lengths seen
  for (auto const& [log_n, batch] :
       std::vector<std::pair<int, std::int64_t>>{{19, 17}, {20, 8}, {21, 4}, {22, 3}, {22, 2}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(log_n) + " batch " + std::to_string(batch));
    RealLayout l;
    ASSERT_NO_FATAL_FAILURE(halves_layout(log_n, batch, Transform::kR2C, l));
    PassParams const& a = l.row.passes[0];
    PassParams const& b = l.row.passes[1];
    int const log_n2 = a.log_length, log_n1 = b.log_length;
    lengths.insert({log_n2, log_n1});
    std::int64_t const n = std::int64_t{1} << log_n, n1 = std::int64_t{1} << log_n1,
                       n2 = std::int64_t{1} << log_n2;
    EXPECT_GE(l.row.workspace_bytes, static_cast<std::size_t>(b.in_stride[1] * batch * 4));
    int const c1 = 1 << tp::log_columns(log_n2), c2 = 1 << tp::log_columns(log_n1);
    int const step2 = 1 << tp::log_round_step(log_n1);
    int const r3a = 1 << tp::log_last_radix(log_n2), r3b = 1 << tp::log_last_radix(log_n1);
    int const rounds2 = tp::kRounds << tp::log_last_group(log_n1);
    for (std::int64_t t : {std::int64_t{0}, batch - 1}) {
      if (t == batch - 1 && batch == 1) break;
      std::vector<double> x(static_cast<std::size_t>(n));
      for (double& v : x) v = dist(rng);
      // Pass 1, complex column j (the items' columns g C1 + c): Z_j = DFT_N2(z_j).
      std::vector<cd> y(static_cast<std::size_t>((n2 / 2 + 1) * n1), cd(std::nan(""), 0));
      std::vector<int> y_writes(y.size(), 0);
      std::vector<cd> z(static_cast<std::size_t>(n2));
      for (std::int64_t j = 0; j < n1 / 2; ++j) {
        for (std::int64_t k = 0; k < n2; ++k) {
          z[static_cast<std::size_t>(k)] = {x[static_cast<std::size_t>(2 * j + n1 * k)],
                                            x[static_cast<std::size_t>(2 * j + 1 + n1 * k)]};
        }
        tcfft::testing::fft_radix2(z);
        int const c = static_cast<int>(j % c1);
        std::vector<int> taken(256, 0);
        // Row r of column j from Z[r] and Z[L - r] (the kernel's put).
        auto const put = [&](std::int64_t r, cd zr, cd zm) {
          ASSERT_LE(r, n2 / 2);
          cd const ea = 0.5 * (zr + std::conj(zm));
          cd const eb = cd(0, -0.5) * (zr - std::conj(zm));
          auto const twiddle = [&](std::int64_t col) {
            return std::polar(
                1.0, -2 * kPi * static_cast<double>((col * r) % n) / static_cast<double>(n));
          };
          std::size_t const at = static_cast<std::size_t>(r * n1 + 2 * j);
          y[at] = ea * twiddle(2 * j);
          y[at + 1] = eb * twiddle(2 * j + 1);
          ++y_writes[at];
          ++y_writes[at + 1];
        };
        // Butterfly w's output k (tall_pass::output_index), and its index's mirror's check.
        auto const zo = [&](int w, int k) {
          return z[static_cast<std::size_t>(tp::output_index(w, k))];
        };
        int const half = r3a / 2;
        for (int thread = c; thread < tp::threads(log_n2); thread += c1) {
          ASSERT_EQ(tp::column_of(thread, log_n2), c);
          int const w0 = tp::column_butterfly(thread, log_n2);
          for (int v = 0; v < tr::columns_steps(log_n2); ++v) {
            tr::ColumnsStep const q = tr::columns_step(w0, v, log_n2);
            ++taken.at(static_cast<std::size_t>(q.w));
            ++taken.at(static_cast<std::size_t>(q.pw));
            if (q.selves) {
              ASSERT_EQ(q.w, 0);
              ASSERT_EQ(q.pw, 128);
              for (int k = 0; k < half; ++k) {
                put(256 * k, zo(0, k), zo(0, (r3a - k) % r3a));
                put(128 + 256 * k, zo(128, k), zo(128, r3a - 1 - k));
              }
              put(n2 / 2, zo(0, half), zo(0, half));
              continue;
            }
            ASSERT_EQ(q.pw, 256 - q.w);
            for (int k = 0; k < half; ++k) {
              ASSERT_EQ(tp::output_index(q.pw, r3a - 1 - k), n2 - tp::output_index(q.w, k));
              put(q.w + 256 * k, zo(q.w, k), zo(q.pw, r3a - 1 - k));
              put(q.pw + 256 * k, zo(q.pw, k), zo(q.w, r3a - 1 - k));
            }
          }
        }
        ASSERT_EQ(std::count(taken.begin(), taken.end(), 1), 256) << "column " << j;
      }
      ASSERT_EQ(std::count(y_writes.begin(), y_writes.end(), 1),
                static_cast<std::ptrdiff_t>(y_writes.size()));
      // Pass 2, row k2 of Y (column c = k2 mod C2 of its item): F = DFT_N1, then half_target.
      std::vector<cd> out(static_cast<std::size_t>(n / 2 + 1), cd(std::nan(""), 0));
      std::vector<int> out_writes(out.size(), 0);
      std::vector<cd> f(static_cast<std::size_t>(n1));
      for (std::int64_t k2 = 0; k2 < b.extent[0]; ++k2) {
        bool const pad = k2 > n2 / 2;
        if (!pad) {
          std::copy(y.begin() + k2 * n1, y.begin() + (k2 + 1) * n1, f.begin());
          tcfft::testing::fft_radix2(f);
        }
        int const c = static_cast<int>(k2 % c2);
        for (int thread = c; thread < tp::threads(log_n1); thread += c2) {
          int const w0 = tp::column_butterfly(thread, log_n1);
          for (int v = 0; v < rounds2; ++v) {
            int const w = w0 + v * step2;
            for (int k = 0; k < r3b; ++k) {
              auto const k1 = static_cast<std::uint32_t>(tp::output_index(w, k));
              tr::HalfTarget const tg =
                  tr::half_target(static_cast<std::uint32_t>(k2), k1, log_n, log_n2);
              if (!tg.write) continue;
              ASSERT_FALSE(pad);
              ASSERT_LE(tg.index, static_cast<std::uint32_t>(n / 2));
              cd const v1 = f[k1];
              out[tg.index] = tg.mirror ? std::conj(v1) : v1;
              ++out_writes[tg.index];
            }
          }
        }
      }
      ASSERT_EQ(std::count(out_writes.begin(), out_writes.end(), 1),
                static_cast<std::ptrdiff_t>(out_writes.size()));
      // The reference: the R2C of x in double.
      std::vector<cd> ref(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i)
        ref[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)];
      tcfft::testing::fft_radix2(ref);
      ref.resize(static_cast<std::size_t>(n / 2 + 1));
      double const err = tcfft::testing::relative_l2_error(out, ref);
      EXPECT_LT(err, 1e-12) << "transform " << t;
    }
  }
  EXPECT_EQ(lengths, (std::set<std::pair<int, int>>{{10, 9}, {11, 9}, {12, 9}, {12, 10}}));
  // Not: 2^17, 2^18 (pass 1 under 1024 points), 2^23..2^25 (pass 2 over 1024), a batch of too
  // few items, switched off.
  expect_no_halves({{17, 2048, true},
                    {18, 1024, true},
                    {23, 32, true},
                    {24, 16, true},
                    {25, 8, true},
                    {19, 8, true},
                    {22, 1, true},
                    {22, 64, false}},
                   Transform::kR2C);
}

/// The C2R's halves (tall_real_layout.hpp), emulated in double with the kernels' maps on the
/// first and last transform of each batch, from a half spectrum whose X[0] and X[N / 2] carry
/// imaginary parts (dropped, as irfft does): pass A's stage-1 deal over the P columns
/// (spectrum_source: each point of the columns k2 <= N2 / 2 once, from X or conjugated from its
/// mirror), the column FFTs and the twiddles W_N^(-n1 k2) into Y; pass B's rows-form deal over
/// the row pairs (row_source: each point k2 < N2 once), Z = A + i B, the row FFTs into the
/// output's words. The result is the C2R (unscaled) to double precision. Where the planner takes
/// them: 2^20..2^24 reals with 128 items a pass.
TEST(RealPlan, C2rHalvesEmulatedWithTheKernelMaps) {
  namespace tp = fftcore::detail::tc::tall_pass;
  namespace tr = fftcore::detail::tc::tall_real;
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::set<std::pair<int, int>> lengths;  // (pass A, pass B) lengths seen
  for (auto const& [log_n, batch] :
       std::vector<std::pair<int, std::int64_t>>{{20, 9}, {21, 4}, {22, 3}, {23, 2}, {24, 1}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(log_n) + " batch " + std::to_string(batch));
    RealLayout l;
    ASSERT_NO_FATAL_FAILURE(halves_layout(log_n, batch, Transform::kC2R, l));
    PassParams const& a = l.row.passes[0];
    PassParams const& b = l.row.passes[1];
    int const log_n1 = a.log_length, log_n2 = b.log_length;
    lengths.insert({log_n1, log_n2});
    std::int64_t const n = std::int64_t{1} << log_n, n1 = std::int64_t{1} << log_n1,
                       n2 = std::int64_t{1} << log_n2;
    std::int64_t const pitch = tr::c2r_pitch(log_n, log_n2);
    ASSERT_GT(pitch, n2 / 2);
    EXPECT_GE(l.row.workspace_bytes, static_cast<std::size_t>(pitch * n1 * batch * 4));
    EXPECT_EQ(a.out_stride[1], pitch * n1);
    EXPECT_EQ(b.in_stride[1], pitch * n1);
    int const ca = 1 << tp::log_columns(log_n1), cb = 1 << tp::log_columns(log_n2);
    ASSERT_EQ(pitch % ca, 0);
    int const step_a = 1 << tp::log_round_step(log_n1);
    for (std::int64_t t : {std::int64_t{0}, batch - 1}) {
      if (t == batch - 1 && batch == 1) break;
      // A real signal's half spectrum in double, X[0] and X[N / 2] with imaginary parts.
      std::vector<double> x(static_cast<std::size_t>(n));
      for (double& v : x) v = dist(rng);
      std::vector<cd> full(x.begin(), x.end());
      tcfft::testing::fft_radix2(full);
      std::vector<cd> spectrum(full.begin(), full.begin() + n / 2 + 1);
      spectrum.front() += cd(0, 3.0);
      spectrum.back() += cd(0, -2.0);
      // Pass A: column k2 (thread column c = k2 mod C of its item), stage 1's points b + (L /
      // 16) m, then the inverse DFT over n1 and the twiddle, to Y[k2 + P n1].
      std::vector<cd> y(static_cast<std::size_t>(pitch * n1), cd(std::nan(""), 0));
      std::vector<cd> f(static_cast<std::size_t>(n1));
      std::vector<int> seen(static_cast<std::size_t>(n1));
      for (std::int64_t k2 = 0; k2 < pitch; ++k2) {
        std::fill(seen.begin(), seen.end(), 0);
        int const c = static_cast<int>(k2 % ca);
        for (int thread = c; thread < tp::threads(log_n1); thread += ca) {
          int const w0 = tp::column_butterfly(thread, log_n1);
          for (int u = 0; u < tp::kRounds; ++u) {
            int const bu = w0 + u * step_a;
            for (int m = 0; m < tp::kRadix; ++m) {
              std::int64_t const at = tp::position(0, bu, m, log_n1);
              tr::Source const src =
                  tr::spectrum_source(static_cast<std::uint32_t>(k2), bu, m, log_n, log_n2);
              ASSERT_LE(src.index, static_cast<std::uint32_t>(n / 2));
              std::int64_t const index = k2 + n2 * at;
              if (k2 <= n2 / 2) {  // the columns the output needs: the spectrum's map
                EXPECT_EQ(src.index, index <= n / 2 ? index : n - index) << k2 << " " << at;
                EXPECT_EQ(src.real_only, k2 == 0 && (at == 0 || at == n1 / 2));
              }
              cd v = spectrum[src.index];
              if (src.conj) v = std::conj(v);
              if (src.real_only) v = v.real();
              f[static_cast<std::size_t>(at)] = v;
              ++seen[static_cast<std::size_t>(at)];
            }
          }
        }
        ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), n1) << "column " << k2;
        fft(f.data(), f.size(), 1, +1);
        for (std::int64_t i = 0; i < n1; ++i) {
          cd const tw =
              std::polar(1.0, 2 * kPi * static_cast<double>((i * k2) % n) / static_cast<double>(n));
          y[static_cast<std::size_t>(k2 + pitch * i)] = f[static_cast<std::size_t>(i)] * tw;
        }
      }
      // Pass B: sequence j (rows 2j, 2j + 1 of Y), thread deal of the rows form's stage 1.
      std::vector<double> out(static_cast<std::size_t>(n), std::nan(""));
      std::vector<cd> z(static_cast<std::size_t>(n2));
      std::vector<int> z_seen(static_cast<std::size_t>(n2));
      for (std::int64_t j = 0; j < n1 / 2; ++j) {
        std::fill(z_seen.begin(), z_seen.end(), 0);
        int const cj = static_cast<int>(j % cb);
        for (int thread = 0; thread < tp::threads(log_n2); ++thread) {
          for (int u = 0; u < tp::kRounds; ++u) {
            if (tp::rows_column(thread, u, log_n2) != cj) continue;
            int const b1 = tp::rows_butterfly(thread, log_n2);
            for (int m = 0; m < tp::kRadix; ++m) {
              std::int64_t const k2 = tp::position(0, b1, m, log_n2);
              tr::Source const src = tr::row_source(b1, m, log_n2);
              ASSERT_LE(src.index, static_cast<std::uint32_t>(n2 / 2));
              EXPECT_EQ(src.index, k2 <= n2 / 2 ? k2 : n2 - k2);
              EXPECT_EQ(src.real_only, k2 == 0 || k2 == n2 / 2);
              if (!src.real_only) {
                EXPECT_EQ(src.conj, k2 > n2 / 2);
              }
              cd ra = y[static_cast<std::size_t>(2 * j * pitch + src.index)];
              cd rb = y[static_cast<std::size_t>((2 * j + 1) * pitch + src.index)];
              if (src.conj) {
                ra = std::conj(ra);
                rb = std::conj(rb);
              }
              if (src.real_only) {
                ra = ra.real();
                rb = rb.real();
              }
              z[static_cast<std::size_t>(k2)] = ra + cd(0, 1) * rb;
              ++z_seen[static_cast<std::size_t>(k2)];
            }
          }
        }
        ASSERT_EQ(std::count(z_seen.begin(), z_seen.end(), 1), n2) << "sequence " << j;
        fft(z.data(), z.size(), 1, +1);
        for (std::int64_t i = 0; i < n2; ++i) {
          out[static_cast<std::size_t>(2 * j + n1 * i)] = z[static_cast<std::size_t>(i)].real();
          out[static_cast<std::size_t>(2 * j + 1 + n1 * i)] = z[static_cast<std::size_t>(i)].imag();
        }
      }
      double err = 0, norm = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        double const want = static_cast<double>(n) * x[static_cast<std::size_t>(i)];
        err += std::pow(out[static_cast<std::size_t>(i)] - want, 2);
        norm += want * want;
      }
      ASSERT_GT(norm, 0.0);
      EXPECT_LT(std::sqrt(err / norm), 1e-12) << "transform " << t;
    }
  }
  EXPECT_EQ(lengths,
            (std::set<std::pair<int, int>>{{10, 10}, {10, 11}, {10, 12}, {11, 12}, {12, 12}}));
  // Not: 2^19 (pass A under 1024 points), 2^25 (over 4096), a batch of too few items, switched
  // off.
  expect_no_halves({{19, 512, true}, {25, 8, true}, {20, 4, true}, {22, 1, true}, {22, 64, false}},
                   Transform::kC2R);
}

/// The C2R column split (PassParams::real_in_columns): where the planner takes it, its first
/// row pass reads the half spectrum's rows and computes every Z[j] of every row once, from X[j]
/// and X[M - j] in that row (real_mirror_offset); elsewhere the split kernel and Z.
TEST(RealPlan, ColumnSplitComputesEveryZOnce) {
  namespace column = fftcore::detail::tc::column;
  namespace fast = fftcore::detail::tc::fast;
  struct Case {
    int log_n;
    std::int64_t batch;
    std::size_t passes;
    int log_first;  // the first pass's length
    int log_tile;
  };
  // The column pass (128 points; batches of 2^20 complex points or more, or three passes) and
  // the register-chained pass at 256, 512 and 1024 points on its three tile instantiations
  // (T L = 2^11: any T; 2^12, 2^13).
  for (Case const c : {Case{16, 33, 2, 7, 5}, Case{17, 33, 2, 7, 6}, Case{22, 1, 3, 7, 6},
                       Case{17, 1, 2, 8, 3}, Case{18, 1, 2, 9, 3}, Case{20, 5, 2, 9, 4},
                       Case{21, 1, 2, 10, 3}}) {
    SCOPED_TRACE("n = 2^" + std::to_string(c.log_n) + " batch " + std::to_string(c.batch));
    RealLayout l;
    ASSERT_EQ(layout_1d(c.log_n, c.batch, Transform::kC2R, l), Status::kSuccess);
    ASSERT_TRUE(l.column_split);
    EXPECT_FALSE(l.z_fp16);
    EXPECT_EQ(l.row_workspace_offset, l.z_offset);  // no Z
    ASSERT_EQ(l.row.passes.size(), c.passes);
    PassParams const& p = l.row.passes.front();
    EXPECT_EQ(p.real_in_columns, 1);
    EXPECT_EQ(p.log_length, c.log_first);
    EXPECT_EQ(p.log_tile, c.log_tile);
    EXPECT_EQ(column::eligible(p), c.log_first == column::kMaxLogLength);
    EXPECT_EQ(fast::real_columns_eligible(p), c.log_first != column::kMaxLogLength);
    PassParams partial = p;  // the register-chained pass's split load takes whole tiles only
    partial.extent[0] -= 1;
    EXPECT_FALSE(fast::real_columns_eligible(partial));
    EXPECT_EQ(p.scatter, 1);
    EXPECT_EQ(fftcore::detail::tc::real_buffer(l, false, p.src), RealBuffer::kIn);
    EXPECT_EQ(fftcore::detail::tc::real_buffer(l, false, l.row.passes.back().dst),
              RealBuffer::kOut);
    for (std::size_t i = 1; i < l.row.passes.size(); ++i) {
      EXPECT_EQ(l.row.passes[i].real_in_columns, 0);
    }
    std::int64_t const m = std::int64_t{1} << (c.log_n - 1);
    std::int64_t const inner = p.in_elem_stride;
    ASSERT_EQ(inner << p.log_length, m);
    std::vector<std::uint8_t> computed(static_cast<std::size_t>(c.batch * m), 0);
    for (std::int64_t b = 0; b < p.blocks; ++b) {
      auto const o = fftcore::detail::tc::block_origin(p, b);
      std::int64_t const row = (o.in_base - o.d0) / (m + 1);
      ASSERT_EQ(o.in_base - o.d0, row * (m + 1));
      for (int t = 0; t < (1 << p.log_tile); ++t) {
        for (int n = 0; n < (1 << p.log_length); ++n) {
          std::int64_t const j = o.d0 + t + inner * n;
          ASSERT_LT(j, m);
          std::int64_t const mirror =
              fftcore::detail::tc::real_mirror_offset(static_cast<int>(o.d0), t, n,
                                                      static_cast<int>(inner), p.log_length);
          ASSERT_EQ(o.d0 + mirror, m - j);  // X[M - j] of the same row
          ++computed.at(static_cast<std::size_t>(row * m + j));
        }
      }
    }
    EXPECT_EQ(std::count(computed.begin(), computed.end(), 1),
              static_cast<std::ptrdiff_t>(computed.size()));
  }
  // An 8-point first pass (2^16 reals in batches below 2^20 complex points), and every R2C: no
  // column split.
  for (Case const c : {Case{16, 1, 2, 3, 0}, Case{16, 17, 2, 3, 0}}) {
    SCOPED_TRACE("split kernel: n = 2^" + std::to_string(c.log_n));
    RealLayout l;
    ASSERT_EQ(layout_1d(c.log_n, c.batch, Transform::kC2R, l), Status::kSuccess);
    EXPECT_FALSE(l.column_split);
    EXPECT_TRUE(l.z_fp16);
    EXPECT_EQ(l.row.passes.size(), c.passes);
  }
  for (int log_n : {16, 17, 22, 27}) {
    RealLayout l;
    ASSERT_EQ(layout_1d(log_n, 64, Transform::kR2C, l), Status::kSuccess);
    EXPECT_FALSE(l.column_split) << log_n;
  }
}

TEST(RealPlan, EmulatedLayoutGivesR2cAndC2r2d) {
  std::vector<std::pair<std::int64_t, std::int64_t>> const shapes = {
      {2, 2},       {2, 4},       {4, 8},     {16, 2},    {8, 64},   {64, 16},  {2, 1 << 14},
      {1 << 13, 4}, {1 << 14, 2}, {256, 256}, {1024, 32}, {64, 128}, {32, 256}, {2, 4096},
      {4, 4096},    {8, 2048},    {16, 8192}, {64, 2048}, {8, 1024}};
  for (auto [r, c] : shapes) {
    SCOPED_TRACE(std::to_string(r) + " x " + std::to_string(c));
    check_shape(r, c, r * c <= 4096 ? 2 : 1, Scaling::kNone);
  }
  check_shape(32, 64, 3, Scaling::kByN);
  check_shape(128, 8, 2, Scaling::kBySqrtN);
  // The row pairs (512 columns and more): odd batches, both scalings.
  check_shape(4, 2048, 3, Scaling::kByN);
  check_shape(8, 4096, 3, Scaling::kBySqrtN);
}

/// Which shapes take the row pairs (real_layout.hpp): the 2-D R2C and C2R of 512 .. 16384
/// columns above 4096 elements, not 1-D, not below 512 columns, nor with the switch off; the R2C's
/// passes: the column FFT over the M complex columns of `in` into Y, then one row-pair pass of 2M
/// points over the R / 2 + 1 pairs of each image, Stockham-eligible, carrying 1/2 and the row share
/// of the scale; the C2R's the row-pair pass (in -> Y, the row share) and the column FFT (Y ->
/// out).
TEST(RealPlan, RowPairsTakeThe2dRealTransformsFrom512Columns) {
  namespace tc = fftcore::detail::tc;
  for (auto [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{{2, 2048},
                                                                              {2, 4096},
                                                                              {4096, 2048},
                                                                              {2048, 2048},
                                                                              {4096, 4096},
                                                                              {8, 16384},
                                                                              {16, 8192},
                                                                              {2, 1024},
                                                                              {4, 1024},
                                                                              {1024, 1024},
                                                                              {512, 512},
                                                                              {4096, 512},
                                                                              {8, 512},
                                                                              {64, 256},
                                                                              {0, 4096},
                                                                              {0, 1 << 20}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    // Not at 4096 elements and fewer, which keep the FP32 half spectrum (real_layout.cpp).
    bool const expected =
        rows > 0 && cols >= (1 << tc::kLogMinRowPairsColumns) && rows * cols > 4096;
    for (Scaling scaling : {Scaling::kNone, Scaling::kByN, Scaling::kBySqrtN}) {
      RealLayout l;
      ASSERT_EQ(tc::build_real_layout(real_desc(rows, cols, 3, Transform::kR2C, scaling), l),
                Status::kSuccess);
      EXPECT_EQ(l.row_pairs, expected);
      RealLayout c2r;
      ASSERT_EQ(tc::build_real_layout(real_desc(rows, cols, 3, Transform::kC2R, scaling), c2r),
                Status::kSuccess);
      EXPECT_EQ(c2r.row_pairs, expected);
      if (expected) {
        ASSERT_EQ(c2r.row.passes.size(), 1u);
        PassParams const& p = c2r.row.passes.front();
        EXPECT_TRUE(tc::stockham::eligible(p));
        EXPECT_TRUE(tc::stockham::row_pairs_c2r(p));
        EXPECT_EQ(p.in_stride[0], cols / 2 + 1);
        EXPECT_EQ(p.out_stride[0], cols / 2);
        EXPECT_EQ(tc::real_buffer(c2r, false, p.src), RealBuffer::kIn);
        EXPECT_EQ(tc::real_buffer(c2r, false, p.dst), RealBuffer::kY);
        EXPECT_EQ(tc::real_buffer(c2r, true, c2r.column.passes.front().src), RealBuffer::kY);
        EXPECT_EQ(tc::real_buffer(c2r, true, c2r.column.passes.back().dst), RealBuffer::kOut);
        double const row_share = scale_of(scaling, static_cast<double>(cols));
        EXPECT_NEAR(p.scale, row_share, 1e-6 * row_share);
      }
      RealLayout off;
      ASSERT_EQ(tc::build_real_layout(real_desc(rows, cols, 3, Transform::kR2C, scaling), off, true,
                                      true, false),
                Status::kSuccess);
      EXPECT_FALSE(off.row_pairs);
      if (!expected) continue;
      std::int64_t const m = cols / 2;
      EXPECT_TRUE(l.split_in_row_pass());
      EXPECT_FALSE(l.fused);
      EXPECT_EQ(l.y_pitch, m);
      ASSERT_EQ(l.row.passes.size(), 1u);
      PassParams const& p = l.row.passes.front();
      EXPECT_EQ(p.real_row_pairs, 1);
      EXPECT_EQ(std::int64_t{1} << p.log_length, cols);
      EXPECT_EQ(std::int64_t{1} << p.row_pairs_log_rows, rows);
      EXPECT_EQ(p.extent[0], rows / 2 + 1);
      EXPECT_EQ(p.extent[1], 3);
      EXPECT_EQ(p.tiles0 << p.log_tile >= p.extent[0], true);
      EXPECT_EQ(p.blocks, p.tiles0 * 3);
      EXPECT_TRUE(tc::stockham::eligible(p));
      EXPECT_FALSE(tc::stockham::row_pairs_c2r(p));
      EXPECT_EQ(tc::real_buffer(l, false, p.src), RealBuffer::kY);
      EXPECT_EQ(tc::real_buffer(l, false, p.dst), RealBuffer::kOut);
      double const row_share = scale_of(scaling, static_cast<double>(cols));
      EXPECT_NEAR(p.scale, 0.5 * row_share, 1e-6 * row_share);
      ASSERT_FALSE(l.column.passes.empty());
      EXPECT_EQ(tc::real_buffer(l, true, l.column.passes.front().src), RealBuffer::kIn);
      EXPECT_EQ(tc::real_buffer(l, true, l.column.passes.back().dst), RealBuffer::kY);
      double column_scale = 1;
      for (PassParams const& c : l.column.passes) {
        column_scale *= c.scale;
        EXPECT_EQ(c.in_fp32 + c.out_fp32, 0);
        EXPECT_EQ(c.real_row_pairs, 0);
      }
      EXPECT_NEAR(column_scale, scale_of(scaling, static_cast<double>(rows)),
                  1e-6 * scale_of(scaling, static_cast<double>(rows)));
      EXPECT_GE(l.workspace_bytes, static_cast<std::size_t>(3 * rows * m * 4));
      // A pass that breaks a condition of the kernel is refused.
      PassParams bad = p;
      bad.extent[0] = rows / 2;
      EXPECT_FALSE(tc::stockham::eligible(bad));
      bad = p;
      bad.out_stride[0] = m;
      EXPECT_FALSE(tc::stockham::eligible(bad));
      bad = p;  // 256 points, strides to match: below the kernel's lengths
      bad.log_length = tc::stockham::kMinLogLengthRowPairs - 1;
      bad.in_stride[0] = std::int64_t{1} << (bad.log_length - 1);
      bad.out_stride[0] = bad.in_stride[0] + 1;
      bad.in_stride[1] = rows * bad.in_stride[0];
      bad.out_stride[1] = rows * bad.out_stride[0];
      EXPECT_FALSE(tc::stockham::eligible(bad));
      bad.log_length += 1;  // the same at 512 points is taken
      bad.in_stride[0] *= 2;
      bad.out_stride[0] = bad.in_stride[0] + 1;
      bad.in_stride[1] = rows * bad.in_stride[0];
      bad.out_stride[1] = rows * bad.out_stride[0];
      EXPECT_TRUE(tc::stockham::eligible(bad));
    }
  }
}

}  // namespace
