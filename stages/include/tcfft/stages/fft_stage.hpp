// SPDX-License-Identifier: MIT
// The forward FFT stage: time-domain items (real or complex) -> frequency-domain complex items.
#pragma once

#include <tcfft/stages/fft_engine.hpp>
#include <tcfft/stages/params.hpp>
#include <tcfft/stages/stage.hpp>
#include <tcfft/stages/windows.hpp>

#include <complex>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::stages {

/// Forward DFT of every item, X[k] = scale * sum_j w[j] x[j] exp(-2 pi i j k / n).
///
/// - axes "all": 1-D items get a 1-D transform, 2-D items {ny, nx} a 2-D transform (n = ny*nx);
///   axes "last": a 1-D transform of length nx along the last axis of every row (n = nx).
/// - Real input with onesided: true keeps the non-negative half along the last axis
///   (shape [..., nx/2 + 1], spec.onesided = true); real input with onesided: false and complex
///   input give the full spectrum in numpy.fft order (0, positive, negative frequencies).
/// - The window w (none | hann | hamming | blackman | tukey, periodic as scipy's get_window
///   makes it, tukey with tukey_alpha) multiplies every row along the last axis.
/// - scale follows numpy's norm: backward 1, ortho 1/sqrt(n), forward 1/n.
///
/// Output spec: complex, frequency domain, time_length = nx, time_rows = ny for 2-D transforms
/// and 0 when only the last axis was transformed (axes "last"), valid_length = the last extent
/// (frequency items are never padded); series_length is passed through so that the ifft stage
/// can restore the valid length of a padded final segment. Frequency-domain input is a
/// ConfigError.
/// The spec a forward transform emits for `in` (time domain, 1-D or 2-D items): complex
/// frequency items, one-sided (n/2+1 bins along the last axis) when `onesided` and the input is
/// real; `last_axis_only` marks 2-D items transformed along their rows only (time_rows 0).
/// Shared by FftStage and the GPU chain so both paths describe their output alike.
[[nodiscard]] FrameSpec fft_output_spec(FrameSpec const& in, bool onesided, bool last_axis_only);

class FftStage final : public Stage {
 public:
  FftStage(FftParams params, FftEngineParams engine, int index);

  [[nodiscard]] std::string const& name() const noexcept override { return name_; }
  FrameSpec configure(FrameSpec const& in) override;
  bool process(Frame const& in, Frame& out) override;

 private:
  void transform_real(Frame const& in, Frame& out);
  void transform_complex(Frame const& in, Frame& out);

  FftParams params_;
  FftEngineParams engine_params_;
  std::string name_;
  FrameSpec in_spec_;
  FrameSpec out_spec_;
  WindowKind window_ = WindowKind::kBoxcar;
  std::vector<double> window_values_;  // (nx) empty for none
  bool last_axis_only_ = false;
  std::int64_t rows_per_item_ = 1;  // engine rows per item (ny for axes "last" on 2-D items)
  double scale_ = 1.0;
  std::unique_ptr<FftEngine> engine_;
  std::vector<double> real_scratch_;                   // windowed real input
  std::vector<std::complex<double>> complex_scratch_;  // windowed / promoted complex input
};

}  // namespace tcfft::stages
