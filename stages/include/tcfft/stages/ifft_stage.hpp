// SPDX-License-Identifier: MIT
// The inverse FFT stage: frequency-domain complex items -> time-domain items.
#pragma once

#include <tcfft/stages/fft_engine.hpp>
#include <tcfft/stages/params.hpp>
#include <tcfft/stages/stage.hpp>

#include <complex>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::stages {

/// Inverse DFT of every item, x[j] = scale * sum_k X[k] exp(+2 pi i j k / n).
///
/// - One-sided input (spec.onesided) is taken as the non-negative half of a Hermitian spectrum
///   and gives real items of time_length samples (a c2r transform); a full spectrum gives
///   complex items (c2c).
/// - 2-D items with time_rows > 0 get a 2-D inverse (n = time_rows * time_length); 2-D items
///   with time_rows == 0 (the fft stage ran with axes "last") a 1-D inverse along every row
///   (n = time_length); 1-D items a 1-D inverse (n = time_length).
/// - scale follows numpy's norm: backward 1/n, ortho 1/sqrt(n), forward 1.
///
/// Output spec: time domain, onesided false, last extent time_length; valid_length is restored
/// from series_length for 1-D series (the final segment's real samples; of its core, without
/// the context, for overlap-save items), else time_length. context passes through.
/// Time-domain or real input is a ConfigError naming the stage.
/// The spec an inverse transform emits for a checked frequency-domain `in`: time items of
/// time_length samples, real when `in` is one-sided, with valid_length restored for the final
/// item of a series (the core of an overlap-save item, see frame.hpp). Shared by IfftStage and
/// the GPU chain.
[[nodiscard]] FrameSpec ifft_output_spec(FrameSpec const& in);

class IfftStage final : public Stage {
 public:
  IfftStage(IfftParams params, FftEngineParams engine, int index);

  [[nodiscard]] std::string const& name() const noexcept override { return name_; }
  FrameSpec configure(FrameSpec const& in) override;
  bool process(Frame const& in, Frame& out) override;

 private:
  IfftParams params_;
  FftEngineParams engine_params_;
  std::string name_;
  FrameSpec in_spec_;
  FrameSpec out_spec_;
  std::int64_t rows_per_item_ = 1;  // engine rows per item (ny for row-wise inverses)
  double scale_ = 1.0;
  std::unique_ptr<FftEngine> engine_;
};

}  // namespace tcfft::stages
