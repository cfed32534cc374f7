// SPDX-License-Identifier: MIT
// Inverse FFT stage: the output shape is rebuilt from time_length / time_rows recorded by the
// forward stage; the engine is planned once for that time-domain shape.
#include <tcfft/stages/ifft_stage.hpp>

#include <tcfft/core/error.hpp>

#include "stage_support.hpp"

#include <algorithm>
#include <utility>

namespace tcfft::stages {

IfftStage::IfftStage(IfftParams params, FftEngineParams engine, int index)
    : params_(std::move(params)),
      engine_params_(std::move(engine)),
      name_(detail::stage_name(index, "ifft")) {}

FrameSpec IfftStage::configure(FrameSpec const& in) {
  if (in.domain != Domain::kFrequency) {
    throw ConfigError(name_ + ": input is in the time domain (an ifft needs a spectrum)");
  }
  if (in.type != SampleType::kComplex) {
    throw ConfigError(name_ +
                      ": input is a real frequency-domain quantity (a power or "
                      "magnitude spectrum?); an ifft needs complex spectra");
  }
  if (in.shape.empty() || in.shape.size() > 2) {
    throw ConfigError(name_ + ": items must be 1-D or 2-D, got shape " +
                      detail::shape_string(in.shape));
  }
  std::int64_t const nx = in.time_length;
  std::int64_t const bins = in.onesided ? nx / 2 + 1 : nx;
  if (nx <= 0 || in.shape.back() != bins) {
    throw ConfigError(name_ + ": last extent " + std::to_string(in.shape.back()) +
                      " does not match time_length " + std::to_string(nx) +
                      (in.onesided ? " (one-sided)" : " (full)"));
  }
  bool const two_d = in.shape.size() == 2;
  bool const rows_only = two_d && in.time_rows == 0;
  if (two_d && !rows_only && in.shape[0] != in.time_rows) {
    throw ConfigError(name_ + ": first extent " + std::to_string(in.shape[0]) +
                      " does not match time_rows " + std::to_string(in.time_rows));
  }
  in_spec_ = in;
  rows_per_item_ = rows_only ? in.shape[0] : 1;
  std::vector<std::int64_t> engine_shape = rows_only || !two_d
                                               ? std::vector<std::int64_t>{nx}
                                               : std::vector<std::int64_t>{in.shape[0], nx};
  std::int64_t points = 1;
  for (auto extent : engine_shape) points *= extent;
  scale_ = detail::norm_factor(params_.norm, points, false);

  out_spec_ = ifft_output_spec(in);
  engine_ = detail::make_stage_engine(name_, engine_params_, engine_shape, in.rows_per_frame,
                                      rows_per_item_);
  return out_spec_;
}


FrameSpec ifft_output_spec(FrameSpec const& in) {
  std::int64_t const nx = in.time_length;
  FrameSpec out = in;
  out.domain = Domain::kTime;
  out.type = in.onesided ? SampleType::kReal : SampleType::kComplex;
  out.onesided = false;
  out.shape.back() = nx;
  out.valid_length = nx;
  if (in.shape.size() == 1 && in.series_length > 0 && in.total_rows > 0) {
    auto const core = nx - 2 * in.context;  // the series' share of an item (see frame.hpp)
    auto const last = in.series_length - (in.total_rows - 1) * core;
    if (last > 0 && last <= core) out.valid_length = last;
  }
  return out;
}
bool IfftStage::process(Frame const& in, Frame& out) {
  TCFFT_EXPECTS(engine_ != nullptr, "ifft stage used before configure");
  detail::prepare_output(in, out_spec_, out);
  std::int64_t const engine_rows = in.rows * rows_per_item_;
  if (in_spec_.onesided) {
    engine_->c2r(in.complex.data(), out.real.data(), engine_rows);
    if (scale_ != 1.0) {
      for (auto& v : out.real) v *= scale_;
    }
  } else {
    engine_->c2c(in.complex.data(), out.complex.data(), engine_rows, +1);
    if (scale_ != 1.0) {
      for (auto& v : out.complex) v *= scale_;
    }
  }
  return true;
}

}  // namespace tcfft::stages
