// SPDX-License-Identifier: MIT
// Kind word -> stage object.
#include <tcfft/stages/stage_factory.hpp>

#include <tcfft/core/error.hpp>
#include <tcfft/stages/fft_stage.hpp>
#include <tcfft/stages/filter_stage.hpp>
#include <tcfft/stages/ifft_stage.hpp>
#include <tcfft/stages/spectrum_stage.hpp>
#include <tcfft/stages/welch_stage.hpp>

#include "stage_support.hpp"

#include <string>

namespace tcfft::stages {
namespace {

template <class P>
P const& params_of(StageConfig const& config) {
  auto const* params = std::get_if<P>(&config.params);
  if (params == nullptr) {
    throw ConfigError(detail::stage_name(config.index, config.kind.c_str()) +
                      ": parameters do not belong to a " + config.kind + " stage");
  }
  return *params;
}

}  // namespace

std::unique_ptr<Stage> make_processing_stage(StageConfig const& config,
                                             FftEngineParams const& engine) {
  auto const& kind = config.kind;
  if (kind == "fft") {
    return std::make_unique<FftStage>(params_of<FftParams>(config), engine, config.index);
  }
  if (kind == "ifft") {
    return std::make_unique<IfftStage>(params_of<IfftParams>(config), engine, config.index);
  }
  if (kind == "spectrum") {
    return std::make_unique<SpectrumStage>(params_of<SpectrumParams>(config), config.index);
  }
  if (kind == "welch") {
    return std::make_unique<WelchStage>(params_of<WelchParams>(config), engine, config.index);
  }
  if (kind == "filter") {
    return std::make_unique<FilterStage>(params_of<FilterParams>(config), config.index);
  }
  auto const name = detail::stage_name(config.index, kind.c_str());
  if (kind == "sink") {
    throw ConfigError(name + ": sink is not a processing stage (the application builds it)");
  }
  throw ConfigError(name + ": unknown stage kind '" + kind +
                    "' (expected fft, ifft, spectrum, welch, filter or sink)");
}

}  // namespace tcfft::stages
