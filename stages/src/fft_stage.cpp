// SPDX-License-Identifier: MIT
// Forward FFT stage: checks the input at configure, builds the window and the engine once, then
// windows, transforms and scales every frame into buffers sized on the first frame.
#include <tcfft/stages/fft_stage.hpp>

#include <tcfft/core/error.hpp>

#include "stage_support.hpp"

#include <utility>

namespace tcfft::stages {

FftStage::FftStage(FftParams params, FftEngineParams engine, int index)
    : params_(std::move(params)),
      engine_params_(std::move(engine)),
      name_(detail::stage_name(index, "fft")) {}

FrameSpec FftStage::configure(FrameSpec const& in) {
  if (in.domain != Domain::kTime) {
    throw ConfigError(name_ + ": input is already in the frequency domain");
  }
  if (in.shape.empty() || in.shape.size() > 2) {
    throw ConfigError(name_ + ": items must be 1-D or 2-D, got shape " +
                      detail::shape_string(in.shape));
  }
  if (params_.axes != "all" && params_.axes != "last") {
    throw ConfigError(name_ + ": axes must be all or last, got '" + params_.axes + "'");
  }
  if (!parse_window(params_.window, window_)) {
    throw ConfigError(name_ + ": window must be one of " + window_words() + ", got '" +
                      params_.window + "'");
  }
  if (window_ == WindowKind::kTukey &&
      !(params_.tukey_alpha >= 0.0 && params_.tukey_alpha <= 1.0)) {
    throw ConfigError(name_ + ": tukey_alpha must be in [0, 1], got " +
                      std::to_string(params_.tukey_alpha));
  }
  in_spec_ = in;
  std::int64_t const nx = in.shape.back();
  bool const two_d = in.shape.size() == 2;
  last_axis_only_ = two_d && params_.axes == "last";
  rows_per_item_ = last_axis_only_ ? in.shape[0] : 1;
  auto const engine_shape = last_axis_only_ ? std::vector<std::int64_t>{nx} : in.shape;
  std::int64_t points = 1;
  for (auto extent : engine_shape) points *= extent;
  scale_ = detail::norm_factor(params_.norm, points, true);
  window_values_.clear();
  if (window_ != WindowKind::kBoxcar)
    window_values_ = make_window(window_, nx, params_.tukey_alpha);

  out_spec_ = fft_output_spec(in, params_.onesided, last_axis_only_);

  engine_ = detail::make_stage_engine(name_, engine_params_, engine_shape, in.rows_per_frame,
                                      rows_per_item_);
  return out_spec_;
}


FrameSpec fft_output_spec(FrameSpec const& in, bool onesided, bool last_axis_only) {
  std::int64_t const nx = in.shape.back();
  FrameSpec out = in;
  out.type = SampleType::kComplex;
  out.domain = Domain::kFrequency;
  out.onesided = in.type == SampleType::kReal && onesided;
  out.time_length = nx;
  out.time_rows = in.shape.size() == 2 && !last_axis_only ? in.shape[0] : 0;
  if (out.onesided) out.shape.back() = nx / 2 + 1;
  out.valid_length = out.shape.back();
  return out;
}
bool FftStage::process(Frame const& in, Frame& out) {
  TCFFT_EXPECTS(engine_ != nullptr, "fft stage used before configure");
  detail::prepare_output(in, out_spec_, out);
  if (in_spec_.type == SampleType::kReal) {
    transform_real(in, out);
  } else {
    transform_complex(in, out);
  }
  if (scale_ != 1.0) {
    for (auto& v : out.complex) v *= scale_;
  }
  return true;
}

void FftStage::transform_real(Frame const& in, Frame& out) {
  auto const count = static_cast<std::size_t>(in.rows * in_spec_.item_size());
  auto const nx = static_cast<std::size_t>(in_spec_.shape.back());
  std::int64_t const engine_rows = in.rows * rows_per_item_;
  if (out_spec_.onesided) {
    double const* src = in.real.data();
    if (!window_values_.empty()) {
      real_scratch_.resize(count);
      for (std::size_t i = 0; i < count; ++i)
        real_scratch_[i] = in.real[i] * window_values_[i % nx];
      src = real_scratch_.data();
    }
    engine_->r2c(src, out.complex.data(), engine_rows);
    return;
  }
  complex_scratch_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    complex_scratch_[i] = window_values_.empty() ? in.real[i] : in.real[i] * window_values_[i % nx];
  }
  engine_->c2c(complex_scratch_.data(), out.complex.data(), engine_rows, -1);
}

void FftStage::transform_complex(Frame const& in, Frame& out) {
  auto const count = static_cast<std::size_t>(in.rows * in_spec_.item_size());
  auto const nx = static_cast<std::size_t>(in_spec_.shape.back());
  std::complex<double> const* src = in.complex.data();
  if (!window_values_.empty()) {
    complex_scratch_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      complex_scratch_[i] = in.complex[i] * window_values_[i % nx];
    }
    src = complex_scratch_.data();
  }
  engine_->c2c(src, out.complex.data(), in.rows * rows_per_item_, -1);
}

}  // namespace tcfft::stages
