// SPDX-License-Identifier: MIT
// The pure math of the filter stage: zero-phase gain curves as functions of frequency, the
// frequency of every bin of a frequency-domain item, and the response-file loader. The gain
// functions are small inline TCFFT_HD functions of plain doubles: the CPU FilterStage and the
// GPU filter kernel (stages/src/gpu) evaluate the same code.
//
// Conventions (all frequencies in units of the sample rate's unit, e.g. Hz, or cycles/pixel for
// images whose sample_rate is 1; negative frequencies enter through |f|):
//   Butterworth lowpass   H(f) = 1 / sqrt(1 + (f/fc)^(2n))          (H(fc) = 1/sqrt(2), -3 dB)
//   Butterworth highpass  H(f) = 1 / sqrt(1 + (fc/f)^(2n)), H(0) = 0
//   Gaussian lowpass      H(f) = exp(-f^2 / (2 fc^2))               (H(fc) = exp(-1/2))
//   Gaussian highpass     H(f) = 1 - exp(-f^2 / (2 fc^2))
//   bandpass(low, high)   H(f) = lowpass_high(f) * highpass_low(f)
//   Butterworth bandstop  H(f) = 1 / sqrt(1 + (B f / (f0^2 - f^2))^(2n)), B = high - low,
//                         f0^2 = low * high: the analog lowpass-to-bandstop transform of the
//                         Butterworth prototype; H = 0 at f0, exactly -3 dB at low and high
//   Gaussian bandstop     H(f) = 1 - Gaussian bandpass(f)
// Products and sums of a lowpass and a highpass make poor notches (a 55-65 Hz order-4 product
// or sum stop band attenuates 60 Hz by less than 10 dB); the transformed prototype does not.
#pragma once

#include <tcfft/core/frame.hpp>
#include <tcfft/core/host_device.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace tcfft::stages {

enum class FilterBand { kLowpass, kHighpass, kBandpass, kBandstop };
enum class FilterShape { kButterworth, kGaussian };

/// A parametric response; corners in units of the sample rate (see the conventions above).
struct ResponseParams {
  FilterBand band = FilterBand::kLowpass;
  FilterShape shape = FilterShape::kButterworth;
  double cutoff = 0.0;  ///< lowpass / highpass corner
  double low = 0.0;     ///< bandpass / bandstop lower corner
  double high = 0.0;    ///< bandpass / bandstop upper corner
  int order = 4;        ///< Butterworth order n (>= 1)
};

[[nodiscard]] TCFFT_HD inline double butterworth_lowpass(double f, double fc, int order) noexcept {
  return 1.0 / std::sqrt(1.0 + std::pow(std::abs(f) / fc, 2.0 * order));
}

[[nodiscard]] TCFFT_HD inline double butterworth_highpass(double f, double fc,
                                                          int order) noexcept {
  if (f == 0.0) return 0.0;
  return 1.0 / std::sqrt(1.0 + std::pow(fc / std::abs(f), 2.0 * order));
}

/// Butterworth bandstop between low and high (see the conventions above).
[[nodiscard]] TCFFT_HD inline double butterworth_bandstop(double f, double low, double high,
                                                 int order) noexcept {
  double const distance = low * high - f * f;  // f0^2 - f^2
  if (distance == 0.0) return 0.0;
  return 1.0 / std::sqrt(1.0 + std::pow((high - low) * std::abs(f) / distance, 2.0 * order));
}

[[nodiscard]] TCFFT_HD inline double gaussian_lowpass(double f, double fc) noexcept {
  return std::exp(-(f * f) / (2.0 * fc * fc));
}

[[nodiscard]] TCFFT_HD inline double gaussian_highpass(double f, double fc) noexcept {
  return 1.0 - gaussian_lowpass(f, fc);
}

[[nodiscard]] TCFFT_HD inline double lowpass_gain(FilterShape shape, double f, double fc,
                                         int order) noexcept {
  return shape == FilterShape::kButterworth ? butterworth_lowpass(f, fc, order)
                                            : gaussian_lowpass(f, fc);
}

[[nodiscard]] TCFFT_HD inline double highpass_gain(FilterShape shape, double f, double fc,
                                          int order) noexcept {
  return shape == FilterShape::kButterworth ? butterworth_highpass(f, fc, order)
                                            : gaussian_highpass(f, fc);
}

/// The gain of `p` at frequency f (any sign).
[[nodiscard]] TCFFT_HD inline double response_gain(ResponseParams const& p, double f) noexcept {
  switch (p.band) {
    case FilterBand::kLowpass: return lowpass_gain(p.shape, f, p.cutoff, p.order);
    case FilterBand::kHighpass: return highpass_gain(p.shape, f, p.cutoff, p.order);
    case FilterBand::kBandpass:
      return lowpass_gain(p.shape, f, p.high, p.order) * highpass_gain(p.shape, f, p.low, p.order);
    case FilterBand::kBandstop:
      if (p.shape == FilterShape::kGaussian) {
        return 1.0 - gaussian_lowpass(f, p.high) * gaussian_highpass(f, p.low);
      }
      return butterworth_bandstop(f, p.low, p.high, p.order);
  }
  return 0.0;
}

/// Frequency of bin k of an axis whose time-domain length is n: k * fs / n for k <= n/2 and
/// (k - n) * fs / n above (the negative half of a full spectrum, numpy.fft.fftfreq's order).
[[nodiscard]] TCFFT_HD inline double bin_frequency(std::int64_t k, std::int64_t n,
                                                   double fs) noexcept {
  auto const signed_k = k <= n / 2 ? k : k - n;
  return static_cast<double>(signed_k) * fs / static_cast<double>(n);
}

/// Checks a parametric response against the Nyquist frequency fs/2: corners positive and at
/// most Nyquist, low < high, order >= 1. Throws ConfigError starting with `context` (the stage
/// name) and naming the key, its value and Nyquist.
void check_response(ResponseParams const& p, double sample_rate, std::string const& context);

/// Gains of every bin of one frequency-domain item of `spec` (item_size values, row-major).
/// 1-D items, or 2-D items with time_rows == 0 (only the last axis transformed): f along the
/// last axis. 2-D items with time_rows > 0: the radial frequency sqrt(fx^2 + fy^2), fy from
/// the first axis (always a full spectrum of time_rows bins). Throws ConfigError (with
/// `context`) when the spec's shape does not match time_length / onesided.
[[nodiscard]] std::vector<double> response_gains(ResponseParams const& p, FrameSpec const& spec,
                                                 std::string const& context);

/// Reads a response dataset: float or integer (real gains) or complex compound {r, i} as h5py
/// writes it, flattened to one vector. Throws InputError (with `context`) naming the file and
/// dataset when either is missing or the dtype is unsupported.
[[nodiscard]] std::vector<std::complex<double>> read_response_file(std::string const& file,
                                                                   std::string const& dataset,
                                                                   std::string const& context);

/// Expands a response read from a file to one item of `spec`: a length equal to the bins along
/// the last axis is repeated for every row, a length equal to item_size is used as it is.
/// Otherwise throws ConfigError naming the file, dataset and both lengths.
[[nodiscard]] std::vector<std::complex<double>> fit_response_to_item(
    std::vector<std::complex<double>> response, FrameSpec const& spec, std::string const& file,
    std::string const& dataset, std::string const& context);

}  // namespace tcfft::stages
