// SPDX-License-Identifier: MIT
// Spectrum stage: one pass over the bins; the output buffer is sized on the first frame.
#include <tcfft/stages/spectrum_stage.hpp>

#include <tcfft/core/error.hpp>

#include "stage_support.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tcfft::stages {

SpectrumStage::SpectrumStage(SpectrumParams params, int index)
    : params_(std::move(params)), name_(detail::stage_name(index, "spectrum")) {}

FrameSpec SpectrumStage::configure(FrameSpec const& in) {
  if (params_.output == "magnitude") {
    output_ = Output::kMagnitude;
  } else if (params_.output == "power") {
    output_ = Output::kPower;
  } else if (params_.output == "db") {
    output_ = Output::kDb;
  } else {
    throw ConfigError(name_ + ": output must be magnitude, power or db, got '" + params_.output +
                      "'");
  }
  if (in.domain != Domain::kFrequency) {
    throw ConfigError(name_ + ": input is in the time domain (put an fft stage before it)");
  }
  if (in.type != SampleType::kComplex) {
    throw ConfigError(name_ + ": input is already real (" + in.units +
                      "); spectrum needs complex spectra");
  }
  out_spec_ = in;
  out_spec_.type = SampleType::kReal;
  switch (output_) {
    case Output::kMagnitude: break;
    case Output::kPower: out_spec_.units = in.units.empty() ? "" : in.units + "^2"; break;
    case Output::kDb: out_spec_.units = "dB"; break;
  }
  return out_spec_;
}

bool SpectrumStage::process(Frame const& in, Frame& out) {
  detail::prepare_output(in, out_spec_, out);
  auto const count = out.real.size();
  switch (output_) {
    case Output::kMagnitude:
      for (std::size_t i = 0; i < count; ++i) out.real[i] = std::abs(in.complex[i]);
      break;
    case Output::kPower:
      for (std::size_t i = 0; i < count; ++i) out.real[i] = std::norm(in.complex[i]);
      break;
    case Output::kDb:
      for (std::size_t i = 0; i < count; ++i) {
        out.real[i] = 10.0 * std::log10(std::max(std::norm(in.complex[i]), kPowerFloor));
      }
      break;
  }
  return true;
}

}  // namespace tcfft::stages
