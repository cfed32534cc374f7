// SPDX-License-Identifier: MIT
// Filter stage: word parsing and checks at configure, then one multiply per bin per frame.
#include <tcfft/stages/filter_stage.hpp>

#include <tcfft/core/error.hpp>

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
  if (params_.response == "file") {
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
  gains_ = response_gains(p, in, name_);
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
