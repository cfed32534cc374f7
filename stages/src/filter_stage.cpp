// SPDX-License-Identifier: MIT
// Filter stage: word parsing and checks at configure, then one multiply per bin per frame.
#include <tcfft/stages/filter_stage.hpp>

#include <tcfft/core/error.hpp>
#include <tcfft/stages/filter_fir.hpp>

#include "stage_support.hpp"

#include <utility>

namespace tcfft::stages {

FilterStage::FilterStage(FilterParams params, int index)
    : params_(std::move(params)), name_(detail::stage_name(index, "filter")) {}

ResponseParams FilterStage::parse_params() const {
  ResponseParams p;
  if (params_.type == "lowpass") {
    p.band = FilterBand::kLowpass;
  } else if (params_.type == "highpass") {
    p.band = FilterBand::kHighpass;
  } else if (params_.type == "bandpass") {
    p.band = FilterBand::kBandpass;
  } else if (params_.type == "bandstop") {
    p.band = FilterBand::kBandstop;
  } else {
    throw ConfigError(name_ + ": type must be lowpass, highpass, bandpass or bandstop, got '" +
                      params_.type + "'");
  }
  if (params_.response == "butterworth") {
    p.shape = FilterShape::kButterworth;
  } else if (params_.response == "gaussian") {
    p.shape = FilterShape::kGaussian;
  } else {
    throw ConfigError(name_ + ": response must be butterworth, gaussian or file, got '" +
                      params_.response + "'");
  }
  p.cutoff = params_.cutoff;
  p.low = params_.low;
  p.high = params_.high;
  p.order = params_.order;
  return p;
}

std::vector<double> FilterStage::fir_item_gains(ResponseParams const& p, FrameSpec const& in) {
  if (in.shape.empty() || in.shape.size() > 2 || (in.shape.size() == 2 && in.time_rows > 0)) {
    throw ConfigError(name_ + ": taps " + std::to_string(params_.taps) +
                      " filter along the last axis only; items of shape " +
                      detail::shape_string(in.shape) +
                      " were transformed in 2-D (use fft axes: last, or taps: 0)");
  }
  try {
    fir_ = design_fir(p, in.sample_rate, params_.taps);
    auto const row = fir_gains(fir_, in.time_length, in.shape.back());
    std::vector<double> gains(static_cast<std::size_t>(in.item_size()));
    for (std::size_t i = 0; i < gains.size(); ++i) gains[i] = row[i % row.size()];
    return gains;
  } catch (ConfigError const& e) {
    throw ConfigError(name_ + ": " + e.what());
  }
}

FrameSpec FilterStage::configure(FrameSpec const& in) {
  if (in.domain != Domain::kFrequency) {
    throw ConfigError(name_ + ": input is in the time domain (put an fft stage before it)");
  }
  if (in.type != SampleType::kComplex) {
    throw ConfigError(name_ +
                      ": input is a real frequency-domain quantity; filter needs "
                      "complex spectra");
  }
  spec_ = in;
  fir_.clear();
  if (params_.response == "file") {
    if (params_.taps != 0) {
      throw ConfigError(name_ + ": taps " + std::to_string(params_.taps) +
                        " apply to butterworth and gaussian responses, not to response file");
    }
    if (params_.file.empty() || params_.dataset.empty()) {
      throw ConfigError(name_ + ": response file needs both file and dataset, got file '" +
                        params_.file + "' dataset '" + params_.dataset + "'");
    }
    response_ = fit_response_to_item(read_response_file(params_.file, params_.dataset, name_), in,
                                     params_.file, params_.dataset, name_);
    real_gains_ = true;
    for (auto const& v : response_) real_gains_ = real_gains_ && v.imag() == 0.0;
    gains_.clear();
    if (real_gains_) {
      for (auto const& v : response_) gains_.push_back(v.real());
    }
    return spec_;
  }
  auto const p = parse_params();
  check_response(p, in.sample_rate, name_);
  gains_ = params_.taps == 0 ? response_gains(p, in, name_) : fir_item_gains(p, in);
  real_gains_ = true;
  response_.assign(gains_.begin(), gains_.end());
  return spec_;
}

bool FilterStage::process(Frame const& in, Frame& out) {
  TCFFT_EXPECTS(!response_.empty(), "filter stage used before configure");
  detail::prepare_output(in, spec_, out);
  auto const item = response_.size();
  auto const count = out.complex.size();
  if (real_gains_) {
    for (std::size_t i = 0; i < count; ++i) out.complex[i] = in.complex[i] * gains_[i % item];
  } else {
    for (std::size_t i = 0; i < count; ++i) out.complex[i] = in.complex[i] * response_[i % item];
  }
  return true;
}

}  // namespace tcfft::stages
