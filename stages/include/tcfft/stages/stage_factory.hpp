// SPDX-License-Identifier: MIT
// Builds the processing stages (fft, ifft, spectrum, welch, filter) from their configuration.
// Sinks are built by the application, which owns the output file.
#pragma once

#include <tcfft/stages/params.hpp>
#include <tcfft/stages/stage.hpp>

#include <memory>

namespace tcfft::stages {

/// Returns the stage of `config.kind` built from `config.params` (which must hold the matching
/// parameter struct) with index `config.index`; fft, ifft and welch use `engine`.
/// Throws ConfigError naming the stage for an unknown kind, for "sink" (not a processing
/// stage) and for parameters of the wrong kind.
[[nodiscard]] std::unique_ptr<Stage> make_processing_stage(StageConfig const& config,
                                                           FftEngineParams const& engine);

}  // namespace tcfft::stages
