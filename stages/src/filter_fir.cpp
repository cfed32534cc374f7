// SPDX-License-Identifier: MIT
// FIR design by frequency sampling and a Kaiser window, and the FIR's gains at an item's bins.
// Both transforms run on the CPU FFT engine (FFTW, double), once per configure.
#include <tcfft/stages/filter_fir.hpp>

#include <tcfft/core/error.hpp>
#include <tcfft/stages/fft_engine.hpp>

#include <cmath>
#include <complex>
#include <string>

namespace tcfft::stages {
namespace {

std::int64_t design_grid(std::int64_t taps) {
  std::int64_t length = 8192;
  while (length < 16 * taps) length *= 2;
  return length;
}

FftEngineParams cpu_engine() {
  FftEngineParams params;
  params.device = Device::kCpu;
  return params;
}

}  // namespace

std::vector<double> design_fir(ResponseParams const& p, double sample_rate, std::int64_t taps) {
  if (taps < 3 || taps % 2 == 0) {
    throw ConfigError("filter taps must be odd and at least 3, got " + std::to_string(taps));
  }
  if (!(sample_rate > 0.0)) {
    throw ConfigError("filter taps: sample_rate must be positive, got " +
                      std::to_string(sample_rate));
  }
  std::int64_t const length = design_grid(taps);
  std::int64_t const bins = length / 2 + 1;
  std::vector<std::complex<double>> response(static_cast<std::size_t>(bins));
  for (std::int64_t k = 0; k < bins; ++k) {
    response[static_cast<std::size_t>(k)] = response_gain(p, bin_frequency(k, length, sample_rate));
  }
  std::vector<double> grid(static_cast<std::size_t>(length));
  make_fft_engine(cpu_engine(), {length}, 1)->c2r(response.data(), grid.data(), 1);

  std::int64_t const half = (taps - 1) / 2;
  double const norm = std::cyl_bessel_i(0.0, kFirKaiserBeta);
  std::vector<double> h(static_cast<std::size_t>(taps));
  for (std::int64_t m = 0; m <= half; ++m) {
    double const r = static_cast<double>(m) / static_cast<double>(half);
    double const window = std::cyl_bessel_i(0.0, kFirKaiserBeta * std::sqrt(1.0 - r * r)) / norm;
    // grid[m] and grid[length - m] agree up to rounding; averaging makes h exactly symmetric.
    double const tap = m == 0 ? grid[0] : 0.5 * (grid[static_cast<std::size_t>(m)] +
                                                 grid[static_cast<std::size_t>(length - m)]);
    double const value = tap * window / static_cast<double>(length);
    h[static_cast<std::size_t>(half + m)] = value;
    h[static_cast<std::size_t>(half - m)] = value;
  }
  return h;
}

std::vector<double> fir_gains(std::vector<double> const& h, std::int64_t n, std::int64_t bins) {
  auto const taps = static_cast<std::int64_t>(h.size());
  if (n < taps) {
    throw ConfigError("filter taps " + std::to_string(taps) +
                      " do not fit in items of time_length " + std::to_string(n) +
                      " (need time_length >= taps)");
  }
  if (bins != n / 2 + 1 && bins != n) {
    throw ConfigError("filter taps: " + std::to_string(bins) +
                      " bins match neither a one-sided nor a full spectrum of time_length " +
                      std::to_string(n));
  }
  std::int64_t const half = (taps - 1) / 2;
  std::vector<double> placed(static_cast<std::size_t>(n), 0.0);  // h centred on sample 0
  placed[0] = h[static_cast<std::size_t>(half)];
  for (std::int64_t m = 1; m <= half; ++m) {
    placed[static_cast<std::size_t>(m)] = h[static_cast<std::size_t>(half + m)];
    placed[static_cast<std::size_t>(n - m)] = h[static_cast<std::size_t>(half - m)];
  }
  std::vector<std::complex<double>> spectrum(static_cast<std::size_t>(n / 2 + 1));
  make_fft_engine(cpu_engine(), {n}, 1)->r2c(placed.data(), spectrum.data(), 1);
  std::vector<double> gains(static_cast<std::size_t>(bins));
  for (std::int64_t k = 0; k < bins; ++k) {
    std::int64_t const mirrored = k <= n / 2 ? k : n - k;  // G is even in k
    gains[static_cast<std::size_t>(k)] = spectrum[static_cast<std::size_t>(mirrored)].real();
  }
  return gains;
}

}  // namespace tcfft::stages
