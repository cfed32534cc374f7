// SPDX-License-Identifier: MIT
// CPU tests of the register-chained pass's block constants (fftcore/src/tc/fast_constants.hpp):
// decoded lane by lane, the DFT-16 fragments are W_16^(m n) to the ~22 bits of an FP16 hi + lo
// pair, the B-pair images are the (0, 2, 1, 3) permutation of the A images, the step-A
// twiddles are W_256^(n1 k1) to FP32 accuracy, and the inverse set is the conjugate one.
#include "../../fftcore/src/tc/fast_constants.hpp"
#include "../../fftcore/src/tc/twiddle_tables.hpp"

#include <gtest/gtest.h>

#include "common/reference_dft.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using fftcore::detail::tc::FastConstants;
using cd = std::complex<double>;
cd w(double num, double den, bool inverse) {
  return tcfft::testing::root_of_unity(num, den, inverse);
}

/// IEEE binary16 bits to double, written out here (independent of cuda_fp16.h).
double half_value(std::uint32_t bits) {
  int const sign = (bits >> 15) & 1;
  int const exponent = (bits >> 10) & 31;
  int const mantissa = bits & 1023;
  EXPECT_NE(exponent, 31) << "Inf or NaN in a constant";
  double const v = exponent == 0 ? std::ldexp(mantissa, -24)
                                 : std::ldexp(1024 + mantissa, exponent - 25);
  return sign != 0 ? -v : v;
}

std::vector<FastConstants> sets() {
  std::vector<float2> const table =
      fftcore::detail::tc::make_fast_constants(fftcore::detail::tc::make_coarse_twiddles());
  EXPECT_EQ(table.size(), 2u * fftcore::detail::tc::kFastConstantsEntries);
  std::vector<FastConstants> out(2);
  std::memcpy(out.data(), table.data(), 2 * sizeof(FastConstants));
  return out;
}

std::uint32_t reg(uint4 v, int r) { return r == 0 ? v.x : r == 1 ? v.y : r == 2 ? v.z : v.w; }

TEST(FastConstants, DftFragmentsAreW16InHiPlusLo) {
  std::vector<FastConstants> const c = sets();
  for (int d = 0; d < 2; ++d) {
    bool const inverse = d == 1;
    double worst = 0;
    double largest_lo = 0;
    for (int lane = 0; lane < 32; ++lane) {
      for (int r = 0; r < 4; ++r) {
        for (int h = 0; h < 2; ++h) {
          int const row = (lane >> 2) + 8 * (r & 1);
          int const col = 2 * (lane & 3) + 8 * (r >> 1) + h;
          auto const part = [&](int k) { return reg(c[d].dft[k][lane], r) >> (16 * h) & 0xffffu; };
          double const re = half_value(part(0)) + half_value(part(1));
          double const im = half_value(part(2)) + half_value(part(3));
          worst = std::max(worst, std::abs(cd(re, im) - w(row * col, 16, inverse)));
          largest_lo = std::max({largest_lo, std::abs(half_value(part(1))),
                                 std::abs(half_value(part(3)))});
        }
      }
    }
    // hi + lo carries the FP32 table value to ~2^-22; the table value is W to 2^-24.
    EXPECT_LT(worst, 4e-7) << (inverse ? "inverse" : "forward");
    EXPECT_GT(largest_lo, 1e-5) << "the lo parts are not all zero";
  }
}

TEST(FastConstants, BPairsArePermutedDftRegisters) {
  std::vector<FastConstants> const c = sets();
  for (int d = 0; d < 2; ++d) {
    for (int k = 0; k < 4; ++k) {
      for (int lane = 0; lane < 32; ++lane) {
        uint4 const a = c[d].dft[k][lane];
        uint4 const b = c[d].dft_b[k][lane];
        EXPECT_EQ(b.x, a.x);
        EXPECT_EQ(b.y, a.z);
        EXPECT_EQ(b.z, a.y);
        EXPECT_EQ(b.w, a.w);
      }
    }
  }
}

TEST(FastConstants, StepATwiddlesAreW256) {
  std::vector<FastConstants> const c = sets();
  for (int d = 0; d < 2; ++d) {
    bool const inverse = d == 1;
    double worst = 0;
    for (int lane = 0; lane < 32; ++lane) {
      for (int j = 0; j < 2; ++j) {
        for (int a = 0; a < 2; ++a) {
          int const k1 = (lane >> 2) + 8 * a;
          int const n1 = 8 * j + 2 * (lane & 3);
          float4 const v = c[d].twiddle[2 * j + a][lane];
          worst = std::max(worst, std::abs(cd(v.x, v.y) - w(n1 * k1, 256, inverse)));
          worst = std::max(worst, std::abs(cd(v.z, v.w) - w((n1 + 1) * k1, 256, inverse)));
        }
      }
    }
    EXPECT_LT(worst, 2e-7) << (inverse ? "inverse" : "forward");
  }
}

TEST(FastConstants, InverseSetIsTheConjugate) {
  std::vector<FastConstants> const c = sets();
  for (int lane = 0; lane < 32; ++lane) {
    for (int k = 0; k < 4; ++k) {
      // Real parts equal, imaginary parts of opposite sign (FP16 sign bits, zeros aside).
      for (int r = 0; r < 4; ++r) {
        std::uint32_t const fwd = reg(c[0].dft[k][lane], r);
        std::uint32_t const inv = reg(c[1].dft[k][lane], r);
        if (k < 2) {
          EXPECT_EQ(fwd, inv);
        } else {
          for (int h = 0; h < 2; ++h) {
            EXPECT_EQ(half_value(fwd >> (16 * h) & 0xffffu), -half_value(inv >> (16 * h) & 0xffffu));
          }
        }
      }
      float4 const f = c[0].twiddle[k][lane];
      float4 const i = c[1].twiddle[k][lane];
      EXPECT_EQ(f.x, i.x);
      EXPECT_EQ(f.y, -i.y);
      EXPECT_EQ(f.z, i.z);
      EXPECT_EQ(f.w, -i.w);
    }
  }
}

}  // namespace
