// SPDX-License-Identifier: MIT
// Wires a validated configuration into a run: the HDF5 source, the stage chain (negotiated once
// with configure), the output file and the frame loop with progress, per-stage timing and a
// summary. Frames run one after another on this thread; the FFT engines put the transforms on
// the GPU when the device is gpu.
#pragma once

#include "config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tcfft::app {

struct StageTiming {
  std::string name;
  double seconds = 0.0;
};

struct RunSummary {
  std::int64_t frames = 0;
  std::int64_t rows = 0;
  std::int64_t bytes_read = 0;
  std::int64_t bytes_written = 0;
  double seconds = 0.0;
  double read_seconds = 0.0;
  std::vector<StageTiming> stages;
  std::vector<std::string> reports;   ///< one line per stage that reported something
  std::string output_path;
  std::string device;                 ///< "cpu" or "gpu (<name>)"
};

struct RunOptions {
  bool validate_only = false;  ///< check config, input, stage chain and output path; write nothing
  bool quiet = false;
};

/// Runs (or validates) the pipeline. Throws tcfft::Error subclasses; a failed run leaves no file
/// at the output path (and keeps a file that was there before).
RunSummary run_pipeline(PipelineConfig const& config, RunOptions const& options);

/// Sets the flag that makes a running pipeline stop at the next frame with Interrupted.
void request_stop() noexcept;

}  // namespace tcfft::app
