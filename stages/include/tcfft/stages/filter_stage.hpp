// SPDX-License-Identifier: MIT
// The frequency-domain filter stage: multiplies every bin of a complex spectrum by a response
// computed once at configure time.
#pragma once

#include <tcfft/stages/filter_response.hpp>
#include <tcfft/stages/params.hpp>
#include <tcfft/stages/stage.hpp>

#include <complex>
#include <string>
#include <vector>

namespace tcfft::stages {

/// Y[k] = H(f_k) X[k] for every bin k of every item; the spec passes through unchanged.
///
/// - type lowpass | highpass | bandpass | bandstop, response butterworth | gaussian: the real,
///   zero-phase gains of filter_response.hpp evaluated at each bin's frequency (cutoff / low /
///   high in the unit of sample_rate: Hz for series, cycles/pixel for images). Along the last
///   axis f_k = k fs / time_length (negative for the upper half of a full spectrum); 2-D items
///   transformed in 2-D (time_rows > 0) use the radial frequency sqrt(fx^2 + fy^2).
/// - taps > 0 (odd, >= 3; butterworth and gaussian only): the FIR form of filter_fir.hpp. The
///   response is designed once as a zero-phase FIR h of `taps` samples and each bin's gain is
///   the DFT of h placed circularly at the item's time_length, so the stage computes the linear
///   convolution with h except within (taps-1)/2 samples of each item's ends (where it wraps).
///   For 1-D items and 2-D items transformed along the last axis only (time_rows == 0).
/// - response file: an HDF5 dataset of real or complex (compound {r, i}) values, either one per
///   bin of the last axis (applied to every row) or one per bin of the whole item.
///
/// ConfigError (naming the stage, key and value) for time-domain or real input, unknown type
/// or response words, corners not in (0, Nyquist] or low >= high, order < 1, a response file
/// whose length fits neither, taps even or 1, taps with response file or radial 2-D items, or
/// taps longer than time_length; InputError for a missing response file or dataset.
class FilterStage final : public Stage {
 public:
  FilterStage(FilterParams params, int index);

  [[nodiscard]] std::string const& name() const noexcept override { return name_; }
  FrameSpec configure(FrameSpec const& in) override;
  bool process(Frame const& in, Frame& out) override;

  /// The per-bin response of one item (after configure); real gains have zero imaginary part.
  [[nodiscard]] std::vector<std::complex<double>> const& response() const noexcept {
    return response_;
  }
  /// The FIR taps h (after configure with taps > 0; empty otherwise), see filter_fir.hpp.
  [[nodiscard]] std::vector<double> const& fir() const noexcept { return fir_; }

 private:
  ResponseParams parse_params() const;
  std::vector<double> fir_item_gains(ResponseParams const& p, FrameSpec const& in);

  FilterParams params_;
  std::string name_;
  FrameSpec spec_;
  bool real_gains_ = true;
  std::vector<double> gains_;                   // (item_size) real gains
  std::vector<std::complex<double>> response_;  // (item_size) the same, or the file's values
  std::vector<double> fir_;                     // (taps) FIR form, empty without taps
};

}  // namespace tcfft::stages
