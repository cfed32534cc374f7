// SPDX-License-Identifier: MIT
// Plan helpers shared by the CPU tests of the pass kernels (tc_small/warp/column/stockham
// _pass_test): descriptors of 1-D and 2-D transforms, their pass layouts, forced splits, the
// bank-conflict count of a warp's float2 shared-memory access, the direct DFT of a butterfly's
// inputs, the comparison of emulated rows with a direct DFT, and the run of an emulated row pass
// on random data checked that way.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../../fftcore/src/tc/plan_logic.hpp"
#include "common/reference_dft.hpp"

namespace tcfft::testing::plans {

/// rows > 1: a rows x cols 2-D transform; else 1-D of cols points. `batch` of them.
inline fftcore::PlanDesc desc(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  fftcore::PlanDesc d;
  d.rank = rows > 1 ? 2 : 1;
  d.dims[0] = rows > 1 ? rows : cols;
  d.dims[1] = rows > 1 ? cols : 0;
  d.batch = batch;
  return d;
}

inline fftcore::detail::tc::PassLayout layout_of(
    fftcore::PlanDesc const& d, fftcore::detail::tc::PlanOptions const& options = {}) {
  fftcore::detail::tc::PassLayout layout;
  EXPECT_EQ(fftcore::detail::tc::build_layout(d, options, layout), fftcore::Status::kSuccess);
  return layout;
}

/// Options forcing the pass lengths (log2) of every axis.
inline fftcore::detail::tc::PlanOptions split(std::vector<int> parts) {
  fftcore::detail::tc::PlanOptions o;
  o.split = std::move(parts);
  return o;
}

/// ceil(log2 v) for v >= 1.
inline int log2_of(std::int64_t v) {
  int k = 0;
  while ((std::int64_t{1} << k) < v) ++k;
  return k;
}

/// Shared-memory wavefronts of one warp instruction of 8-byte accesses (`slots`: the float2
/// slot of each of the 32 lanes): each half-warp is one wavefront when its 16 lanes touch 16
/// distinct float2 bank pairs (slot mod 16), else as many as the busiest pair serves.
template <typename Slots>
int float2_wavefronts(Slots const& slots) {
  int total = 0;
  for (int half = 0; half < 2; ++half) {
    int count[16] = {};
    int most = 0;
    for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
      most = std::max(most, ++count[slots[static_cast<std::size_t>(lane)] & 15]);
    }
    total += most;
  }
  return total;
}

/// Shared-memory wavefronts of one warp instruction of 4-byte accesses (the word of each lane):
/// as many as the busiest of the 32 banks serves (distinct words).
inline int word_wavefronts(std::array<int, 32> const& words) {
  int most = 0;
  for (int bank = 0; bank < 32; ++bank) {
    std::vector<int> distinct;
    for (int w : words) {
      if ((w & 31) == bank && std::find(distinct.begin(), distinct.end(), w) == distinct.end()) {
        distinct.push_back(w);
      }
    }
    most = std::max(most, static_cast<int>(distinct.size()));
  }
  return most;
}

/// Direct DFT of x[0..n) (a butterfly's n <= N inputs), sign -1: the emulations' radix-R step.
template <std::size_t N>
std::array<std::complex<double>, N> small_dft(std::array<std::complex<double>, N> const& x,
                                              int n) {
  std::array<std::complex<double>, N> y{};
  for (int k = 0; k < n; ++k) {
    std::complex<double> sum = 0;
    for (int j = 0; j < n; ++j) {
      sum += x[static_cast<std::size_t>(j)] * tcfft::testing::root_of_unity((j * k) % n, n, false);
    }
    y[static_cast<std::size_t>(k)] = sum;
  }
  return y;
}

/// The largest error of `out` (rows of `cols` points back to back) against scale times the
/// direct long-double DFT of the same rows of `x` (sign +1 for the inverse) times factor(i) for
/// output i, and the largest |x|: {max error, max |x|}. A NaN output counts as an infinite
/// error (outputs never written stay NaN).
template <typename Factor>
std::pair<double, double> row_dft_error(std::vector<std::complex<double>> const& x,
                                        std::vector<std::complex<double>> const& out,
                                        std::int64_t cols, bool inverse, double scale,
                                        Factor factor) {
  auto const c = static_cast<std::size_t>(cols);
  double max_err = 0, max_in = 0;
  for (std::size_t row = 0; row < x.size() / c; ++row) {
    std::vector<tcfft::testing::cld> seq(c);
    for (std::size_t n = 0; n < c; ++n) {
      std::complex<double> const v = x[row * c + n];
      seq[n] = {v.real(), v.imag()};
      max_in = std::max(max_in, std::abs(v));
    }
    auto const ref = tcfft::testing::reference_dft(seq, inverse ? +1 : -1);
    for (std::size_t k = 0; k < c; ++k) {
      std::complex<double> const want =
          std::complex<double>(static_cast<double>(ref[k].real()) * scale,
                               static_cast<double>(ref[k].imag()) * scale) *
          factor(row * c + k);
      double const err = std::abs(out[row * c + k] - want);
      max_err = std::isnan(err) ? std::numeric_limits<double>::infinity() : std::max(max_err, err);
    }
  }
  return {max_err, max_in};
}

/// Runs `run(src, dst, writes)` (a row pass emulated on the CPU as its kernel runs it: forward,
/// `writes` counting the stores to each element of dst) on `count` random values, forward or
/// inverse (conj(forward(conj x)), the kernels' way), in place (src = dst) or out of place, and
/// expects every element written once and every row of `cols` points to be `scale` times the
/// direct long-double DFT of the input row times factor(i) for output i.
template <typename Run, typename Factor>
void expect_emulated_rows_give_the_dft(std::size_t count, std::int64_t cols, bool inverse,
                                       bool in_place, double scale, Run run, Factor factor) {
  using cd = std::complex<double>;
  unsigned seed = 0;
  std::vector<cd> const x = tcfft::testing::random_complex(count, seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::vector<cd> in(count), out(count, cd(std::nan(""), 0));
  for (std::size_t i = 0; i < count; ++i) in[i] = inverse ? std::conj(x[i]) : x[i];
  std::vector<int> writes(count, 0);
  if (in_place) {
    out = in;
    run(out, out, writes);
  } else {
    run(in, out, writes);
  }
  if (inverse) {
    for (cd& v : out) v = std::conj(v);
  }
  for (std::size_t i = 0; i < count; ++i) {
    ASSERT_EQ(writes[i], 1) << "element " << i << " written " << writes[i] << " times";
  }
  auto const [max_err, max_in] = row_dft_error(x, out, cols, inverse, scale, factor);
  EXPECT_GT(max_in, 0.0);
  EXPECT_LT(max_err, 1e-9 * max_in);
}

/// The same without factors.
template <typename Run>
void expect_emulated_rows_give_the_dft(std::size_t count, std::int64_t cols, bool inverse,
                                       bool in_place, double scale, Run run) {
  expect_emulated_rows_give_the_dft(count, cols, inverse, in_place, scale, run,
                                    [](std::size_t) { return std::complex<double>(1, 0); });
}

}  // namespace tcfft::testing::plans
