// SPDX-License-Identifier: MIT
// Wires a validated configuration into a run: the HDF5 source, the stage chain (negotiated once
// with configure), the output file and the frame loop with progress, per-stage timing and a
// summary. On a GPU whose every stage has a device form (gpu::make_gpu_chain) the frames stream
// through the slot executor (gpu/stream_executor.hpp: copies, kernels and HDF5 I/O overlapped);
// otherwise they run one after another on this thread in double precision, the FFT engines
// putting the transforms on the GPU when the device is gpu.
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
  std::string executor;               ///< "host frame loop" or "gpu streaming, 3 slots"
  std::vector<std::string> profile;   ///< --profile timeline summary (GPU streaming only)
  std::vector<std::string> phases;    ///< --profile, GPU streaming: wall time of each phase of
                                      ///< the run (CUDA start-up ... release), phase_clock.hpp
  std::int64_t pinned_bytes = 0;      ///< GPU streaming: pinned host memory of the slots
  std::int64_t device_bytes = 0;      ///< GPU streaming: device memory of the slots and tables
};

struct RunOptions {
  bool validate_only = false;  ///< check config, input, stage chain and output path; write nothing
  bool quiet = false;
  bool profile = false;        ///< per-step timeline (CUDA events) and NVTX ranges summary
};

/// Runs (or validates) the pipeline. Throws tcfft::Error subclasses; a failed run leaves no file
/// at the output path (and keeps a file that was there before).
RunSummary run_pipeline(PipelineConfig const& config, RunOptions const& options);

/// Sets the flag that makes a running pipeline stop at the next frame with Interrupted.
void request_stop() noexcept;

}  // namespace tcfft::app
