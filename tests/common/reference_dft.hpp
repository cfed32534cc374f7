// SPDX-License-Identifier: MIT
// Reference transforms and error metrics for the numerical tests: a direct DFT in long double
// (O(n^2), with the twiddles taken from an exactly reduced index so they do not lose accuracy
// at large n), and the relative L2 / max errors of DESIGN.md section 4.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace tcfft::testing {

using cld = std::complex<long double>;

/// exp(-+2 pi i num / den) in double (+ for the inverse direction): the twiddles and DFT-matrix
/// entries the CPU emulations and table checks compare against.
inline std::complex<double> root_of_unity(double num, double den, bool inverse) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  return std::polar(1.0, (inverse ? kTwoPi : -kTwoPi) * num / den);
}

/// In-place radix-2 FFT in double, sign -1, natural order in and out (n a power of two): the
/// reference of the CPU emulations, fast enough for every size they check.
inline void fft_radix2(std::vector<std::complex<double>>& a) {
  using cplx = std::complex<double>;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  std::size_t const n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  static std::vector<std::vector<cplx>> tables(40);  // tables[log len]: W_len^k, k < len / 2
  for (std::size_t len = 2, log_len = 1; len <= n; len <<= 1, ++log_len) {
    auto& w = tables[log_len];
    for (std::size_t k = w.size(); k < len / 2; ++k) {
      w.push_back(std::polar(1.0, -kTwoPi * static_cast<double>(k) / static_cast<double>(len)));
    }
    for (std::size_t i = 0; i < n; i += len) {
      for (std::size_t k = 0; k < len / 2; ++k) {
        cplx const u = a[i + k], v = a[i + k + len / 2] * w[k];
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
    }
  }
}

/// X[k] = sum_j x[j] exp(sign 2 pi i j k / n), unnormalised, in long double.
inline std::vector<cld> reference_dft(std::vector<cld> const& x, int sign) {
  auto const n = static_cast<std::int64_t>(x.size());
  std::vector<cld> twiddle(static_cast<std::size_t>(n));
  long double const two_pi = 6.283185307179586476925286766559L;
  for (std::int64_t m = 0; m < n; ++m) {
    long double const angle = sign * two_pi * static_cast<long double>(m) / n;
    twiddle[static_cast<std::size_t>(m)] = {std::cos(angle), std::sin(angle)};
  }
  std::vector<cld> y(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k) {
    cld sum = 0;
    std::int64_t index = 0;  // j*k mod n, advanced exactly
    for (std::int64_t j = 0; j < n; ++j) {
      sum += x[static_cast<std::size_t>(j)] * twiddle[static_cast<std::size_t>(index)];
      index += k;
      if (index >= n) index -= n;
    }
    y[static_cast<std::size_t>(k)] = sum;
  }
  return y;
}

/// Relative L2 error ||y - ref|| / ||ref||.
template <class A, class B>
double relative_l2_error(std::vector<A> const& y, std::vector<B> const& ref) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    auto const r = cld(static_cast<long double>(std::real(ref[i])),
                       static_cast<long double>(std::imag(ref[i])));
    auto const v = cld(static_cast<long double>(std::real(y[i])),
                       static_cast<long double>(std::imag(y[i])));
    num += std::norm(v - r);
    den += std::norm(r);
  }
  return static_cast<double>(std::sqrt(num / den));
}

/// max |y - ref| / max |ref|.
template <class A, class B>
double relative_max_error(std::vector<A> const& y, std::vector<B> const& ref) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    auto const r = cld(static_cast<long double>(std::real(ref[i])),
                       static_cast<long double>(std::imag(ref[i])));
    auto const v = cld(static_cast<long double>(std::real(y[i])),
                       static_cast<long double>(std::imag(y[i])));
    num = std::max(num, std::abs(v - r));
    den = std::max(den, std::abs(r));
  }
  return static_cast<double>(num / den);
}

/// Fresh random complex samples in [-1, 1]^2 (seeded from std::random_device; the seed is
/// returned so a failure can print it).
inline std::vector<std::complex<double>> random_complex(std::size_t n, unsigned& seed_out) {
  seed_out = std::random_device{}();
  std::mt19937_64 rng(seed_out);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<std::complex<double>> x(n);
  for (auto& v : x) v = {u(rng), u(rng)};
  return x;
}

}  // namespace tcfft::testing
