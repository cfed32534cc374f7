// SPDX-License-Identifier: MIT
// The CPU FFT engine (FFTW, double) against long double references: the direct DFT of
// tests/common/reference_dft.hpp for n <= 4096, a long double radix-2 FFT for larger powers of
// two, and the direct DFT at sampled bins for larger other sizes (O(n) per bin). Fresh random
// inputs every run; the seed is in the failure message.
//
// Tolerance: FFTW in double measures a relative L2 error of about 1e-16 * sqrt(log2 n); the
// worst seen over all sizes below (several runs) was 6.7e-16 for c2c (n = 65521), 5.2e-16 for
// r2c and 7.8e-16 for the c2r round trip. kTolerance = 1e-14 leaves a >10x margin and still
// catches any wrong twiddle, index or scale (those give errors of order 1).
#include <tcfft/core/error.hpp>
#include <tcfft/stages/fft_engine.hpp>

#include "common/reference_dft.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

namespace tcfft::stages {
namespace {

using testing::cld;
using cd = std::complex<double>;

constexpr double kTolerance = 1e-14;

std::unique_ptr<FftEngine> cpu_engine(std::vector<std::int64_t> shape, std::int64_t max_rows) {
  FftEngineParams params;
  params.device = Device::kCpu;
  return make_fft_engine(params, shape, max_rows);
}

std::vector<cld> to_ld(cd const* x, std::size_t n) {
  std::vector<cld> y(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = cld(x[i].real(), x[i].imag());
  return y;
}

// Iterative radix-2 FFT in long double (n a power of two), twiddles from an exact index.
std::vector<cld> radix2_fft(std::vector<cld> x, int sign) {
  std::size_t const n = x.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {  // bit reversal
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  long double const two_pi = 6.283185307179586476925286766559L;
  std::vector<cld> w(n / 2 + 1);
  for (std::size_t k = 0; k < w.size(); ++k) {
    long double const a = sign * two_pi * static_cast<long double>(k) / static_cast<long double>(n);
    w[k] = {std::cos(a), std::sin(a)};
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    std::size_t const step = n / len;
    for (std::size_t start = 0; start < n; start += len) {
      for (std::size_t k = 0; k < len / 2; ++k) {
        cld const t = w[k * step] * x[start + k + len / 2];
        x[start + k + len / 2] = x[start + k] - t;
        x[start + k] += t;
      }
    }
  }
  return x;
}

// The DFT of x at bin k only, O(n), with exactly reduced twiddle indices.
cld dft_bin(std::vector<cld> const& x, std::int64_t k, int sign) {
  auto const n = static_cast<std::int64_t>(x.size());
  long double const two_pi = 6.283185307179586476925286766559L;
  cld sum = 0;
  std::int64_t index = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    long double const a = sign * two_pi * static_cast<long double>(index) / n;
    sum += x[static_cast<std::size_t>(j)] * cld(std::cos(a), std::sin(a));
    index = (index + k) % n;
  }
  return sum;
}

bool is_power_of_two(std::size_t n) { return n > 0 && (n & (n - 1)) == 0; }

// Relative L2 error of y (length n) against the best long double reference for n.
double c2c_error(std::vector<cld> const& x, std::vector<cd> const& y, int sign) {
  std::size_t const n = x.size();
  if (n <= 4096) return testing::relative_l2_error(y, testing::reference_dft(x, sign));
  if (is_power_of_two(n)) return testing::relative_l2_error(y, radix2_fft(x, sign));
  std::vector<cld> ref;
  std::vector<cd> got;
  for (std::size_t k = 0; k < n; k += n / 61) {  // ~61 bins spread over the spectrum, and the last
    ref.push_back(dft_bin(x, static_cast<std::int64_t>(k), sign));
    got.push_back(y[k]);
  }
  ref.push_back(dft_bin(x, static_cast<std::int64_t>(n - 1), sign));
  got.push_back(y[n - 1]);
  return testing::relative_l2_error(got, ref);
}

double norm2(std::vector<cd> const& y) {
  double s = 0;
  for (auto const& v : y) s += std::norm(v);
  return s;
}

std::vector<std::int64_t> test_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 1; n <= 64; ++n) sizes.push_back(n);
  for (std::int64_t n : {97, 251, 1009, 4093, 65521}) sizes.push_back(n);          // primes
  for (std::int64_t n : {75, 105, 225, 945, 3375, 10395}) sizes.push_back(n);      // odd composites
  for (std::int64_t n = 128; n <= 65536; n *= 2) sizes.push_back(n);               // 2^7 .. 2^16
  for (std::int64_t n : {100, 1000, 2310, 3 * 4096}) sizes.push_back(n);           // others
  return sizes;
}

TEST(CpuFftEngine, C2cMatchesReferenceForAllSizesAndBothSigns) {
  double worst = 0;
  std::int64_t worst_n = 0;
  for (std::int64_t n : test_sizes()) {
    auto engine = cpu_engine({n}, 1);
    for (int sign : {-1, +1}) {
      unsigned seed = 0;
      auto const x = testing::random_complex(static_cast<std::size_t>(n), seed);
      SCOPED_TRACE("n = " + std::to_string(n) + ", sign = " + std::to_string(sign) +
                   ", seed = " + std::to_string(seed));
      std::vector<cd> y(x.size());
      engine->c2c(x.data(), y.data(), 1, sign);
      ASSERT_GT(norm2(y), 0.0) << "all-zero output";
      double const err = c2c_error(to_ld(x.data(), x.size()), y, sign);
      EXPECT_LT(err, kTolerance);
      if (err > worst) {
        worst = err;
        worst_n = n;
      }
    }
  }
  std::cout << "[ measured ] c2c worst relative L2 error " << worst << " at n = " << worst_n
            << '\n';
}

TEST(CpuFftEngine, KnownAnswers) {
  auto engine = cpu_engine({8}, 1);
  std::vector<cd> impulse(8, 0.0), y(8);
  impulse[0] = 1.0;
  engine->c2c(impulse.data(), y.data(), 1, -1);
  for (auto const& v : y) EXPECT_NEAR(std::abs(v - cd(1.0)), 0.0, 1e-15);
  std::vector<cd> dc(8, cd(1.0, 0.0));
  engine->c2c(dc.data(), y.data(), 1, +1);  // unnormalised: DC bin holds n
  EXPECT_NEAR(std::abs(y[0] - cd(8.0)), 0.0, 1e-14);
  for (std::size_t k = 1; k < 8; ++k) EXPECT_NEAR(std::abs(y[k]), 0.0, 1e-14);
}

TEST(CpuFftEngine, BatchesAreIndependentAndShortCallsWork) {
  constexpr std::int64_t kN = 12, kMaxRows = 7;
  auto engine = cpu_engine({kN}, kMaxRows);
  for (std::int64_t rows : {kMaxRows, std::int64_t{3}, kMaxRows, std::int64_t{1}}) {
    unsigned seed = 0;
    auto const x = testing::random_complex(static_cast<std::size_t>(rows * kN), seed);
    SCOPED_TRACE("rows = " + std::to_string(rows) + ", seed = " + std::to_string(seed));
    std::vector<cd> y(x.size());
    engine->c2c(x.data(), y.data(), rows, -1);
    for (std::int64_t r = 0; r < rows; ++r) {
      auto const ref = testing::reference_dft(to_ld(x.data() + r * kN, kN), -1);
      std::vector<cd> row(y.begin() + r * kN, y.begin() + (r + 1) * kN);
      EXPECT_LT(testing::relative_l2_error(row, ref), kTolerance) << "row " << r;
    }
  }
  engine->c2c(nullptr, nullptr, 0, -1);  // zero rows: nothing to do
}

TEST(CpuFftEngine, InPlaceC2cEqualsOutOfPlace) {
  auto engine = cpu_engine({30}, 2);
  unsigned seed = 0;
  auto x = testing::random_complex(60, seed);
  std::vector<cd> y(60);
  engine->c2c(x.data(), y.data(), 2, -1);
  engine->c2c(x.data(), x.data(), 2, -1);
  EXPECT_EQ(x, y) << "seed " << seed;
}

std::vector<double> random_real(std::size_t n, unsigned& seed) {
  auto const z = testing::random_complex(n, seed);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = z[i].real();
  return x;
}

TEST(CpuFftEngine, R2cMatchesReferenceAndC2rRoundTrips) {
  double worst_r2c = 0, worst_trip = 0;
  for (std::int64_t n : {1, 2, 3, 4, 5, 8, 15, 16, 17, 64, 97, 100, 1000, 1009, 4093, 4096}) {
    constexpr std::int64_t kRows = 3;
    auto engine = cpu_engine({n}, kRows);
    unsigned seed = 0;
    auto const x = random_real(static_cast<std::size_t>(kRows * n), seed);
    SCOPED_TRACE("n = " + std::to_string(n) + ", seed = " + std::to_string(seed));
    std::int64_t const bins = n / 2 + 1;
    std::vector<cd> spectrum(static_cast<std::size_t>(kRows * bins));
    engine->r2c(x.data(), spectrum.data(), kRows);
    for (std::int64_t r = 0; r < kRows; ++r) {
      std::vector<cld> xr(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) xr[static_cast<std::size_t>(i)] = x[r * n + i];
      auto ref = testing::reference_dft(xr, -1);
      ref.resize(static_cast<std::size_t>(bins));
      std::vector<cd> got(spectrum.begin() + r * bins, spectrum.begin() + (r + 1) * bins);
      double const err = testing::relative_l2_error(got, ref);
      EXPECT_LT(err, kTolerance) << "r2c row " << r;
      worst_r2c = std::max(worst_r2c, err);
    }
    auto const spectrum_copy = spectrum;
    std::vector<double> back(x.size());
    engine->c2r(spectrum.data(), back.data(), kRows);
    EXPECT_EQ(spectrum, spectrum_copy) << "c2r modified its const input";
    for (auto& v : back) v /= static_cast<double>(n);
    double const err = testing::relative_l2_error(back, x);
    EXPECT_LT(err, kTolerance) << "c2r(r2c(x)) / n != x";
    worst_trip = std::max(worst_trip, err);
  }
  std::cout << "[ measured ] r2c worst " << worst_r2c << ", c2r round trip worst " << worst_trip
            << '\n';
}

// Long double 2-D DFT of a row-major [ny][nx] item: 1-D DFTs along x, then along y.
std::vector<cld> reference_dft_2d(std::vector<cld> x, std::int64_t ny, std::int64_t nx,
                                  int sign) {
  for (std::int64_t y = 0; y < ny; ++y) {
    std::vector<cld> row(x.begin() + y * nx, x.begin() + (y + 1) * nx);
    row = testing::reference_dft(row, sign);
    std::copy(row.begin(), row.end(), x.begin() + y * nx);
  }
  for (std::int64_t c = 0; c < nx; ++c) {
    std::vector<cld> col(static_cast<std::size_t>(ny));
    for (std::int64_t y = 0; y < ny; ++y) col[static_cast<std::size_t>(y)] = x[y * nx + c];
    col = testing::reference_dft(col, sign);
    for (std::int64_t y = 0; y < ny; ++y) x[y * nx + c] = col[static_cast<std::size_t>(y)];
  }
  return x;
}

TEST(CpuFftEngine, Rank2C2cR2cC2r) {
  struct Shape { std::int64_t ny, nx; };
  for (Shape s : {Shape{6, 10}, Shape{32, 16}, Shape{7, 9}, Shape{1, 8}, Shape{8, 1},
                  Shape{5, 5}}) {
    constexpr std::int64_t kRows = 2;
    std::int64_t const item = s.ny * s.nx, bins = s.nx / 2 + 1;
    auto engine = cpu_engine({s.ny, s.nx}, kRows);
    unsigned seed = 0;
    auto const x = testing::random_complex(static_cast<std::size_t>(kRows * item), seed);
    SCOPED_TRACE(std::to_string(s.ny) + "x" + std::to_string(s.nx) +
                 ", seed = " + std::to_string(seed));
    std::vector<cd> y(x.size());
    std::vector<double> real(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) real[i] = x[i].real();
    std::vector<cd> half(static_cast<std::size_t>(kRows * s.ny * bins));
    for (int sign : {-1, +1}) {
      engine->c2c(x.data(), y.data(), kRows, sign);
      for (std::int64_t r = 0; r < kRows; ++r) {
        auto const ref = reference_dft_2d(to_ld(x.data() + r * item, item), s.ny, s.nx, sign);
        std::vector<cd> got(y.begin() + r * item, y.begin() + (r + 1) * item);
        EXPECT_LT(testing::relative_l2_error(got, ref), kTolerance) << "c2c sign " << sign;
      }
    }
    engine->r2c(real.data(), half.data(), kRows);
    for (std::int64_t r = 0; r < kRows; ++r) {
      std::vector<cld> xr(static_cast<std::size_t>(item));
      for (std::int64_t i = 0; i < item; ++i) xr[static_cast<std::size_t>(i)] = real[r * item + i];
      auto const full = reference_dft_2d(xr, s.ny, s.nx, -1);
      std::vector<cld> ref;
      for (std::int64_t yy = 0; yy < s.ny; ++yy) {
        for (std::int64_t xx = 0; xx < bins; ++xx) ref.push_back(full[yy * s.nx + xx]);
      }
      std::vector<cd> got(half.begin() + r * s.ny * bins, half.begin() + (r + 1) * s.ny * bins);
      EXPECT_LT(testing::relative_l2_error(got, ref), kTolerance) << "r2c row " << r;
    }
    std::vector<double> back(real.size());
    engine->c2r(half.data(), back.data(), kRows);
    for (auto& v : back) v /= static_cast<double>(item);
    EXPECT_LT(testing::relative_l2_error(back, real), kTolerance) << "c2r round trip";
  }
}

TEST(CpuFftEngine, RejectsBadArguments) {
  EXPECT_THROW((void)cpu_engine({4, 4, 4}, 1), FftError);
  EXPECT_THROW((void)cpu_engine({0}, 1), FftError);
  EXPECT_THROW((void)cpu_engine({16}, 0), FftError);
  auto engine = cpu_engine({16}, 2);
  std::vector<cd> x(48), y(48);
  EXPECT_THROW(engine->c2c(x.data(), y.data(), 3, -1), FftError);
  EXPECT_THROW(engine->c2c(x.data(), y.data(), 1, 0), FftError);
  EXPECT_EQ(engine->describe(), "cpu (FFTW double)");
  EXPECT_EQ(engine->shape(), (std::vector<std::int64_t>{16}));
}

// The GPU engine refuses sizes its backend cannot do before touching the device, so this runs
// on CPU-only machines too.
TEST(GpuFftEngineSizeCheck, Fp16NonPowerOfTwoIsRefusedWithTheSizeInTheMessage) {
  FftEngineParams params;
  params.device = Device::kGpu;
  params.backend = "cufft";
  params.precision = "fp16";
  try {
    (void)make_fft_engine(params, {1000}, 4);
    FAIL() << "expected FftError";
  } catch (FftError const& e) {
    std::string const what = e.what();
    EXPECT_NE(what.find("1000"), std::string::npos) << what;
    EXPECT_NE(what.find("fp16"), std::string::npos) << what;
    EXPECT_NE(what.find("cufft"), std::string::npos) << what;
    EXPECT_NE(what.find("power-of-two"), std::string::npos) << what;
  }
  params.backend = "auto";
  EXPECT_THROW((void)make_fft_engine(params, {48, 64}, 1), FftError);
}

}  // namespace
}  // namespace tcfft::stages
