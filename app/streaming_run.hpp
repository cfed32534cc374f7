// SPDX-License-Identifier: MIT
// The GPU streaming branch of run_pipeline: the output file, the sinks' datasets, the
// StreamExecutor over every frame, the commit and the summary.
#pragma once

#include "phase_clock.hpp"
#include "pipeline.hpp"

#include <tcfft/gpu/gpu_chain.hpp>
#include <tcfft/io/h5_source.hpp>

#include <atomic>

namespace tcfft::app {

/// Runs `chain` over `source` into config.output with config.run.slots frames in flight.
/// `summary` arrives with the device text filled in. A failed run leaves no output file.
/// Marks its phases on `phases` (output creation, executor setup, frame loop, commit, release).
RunSummary run_streaming(PipelineConfig const& config, RunOptions const& options,
                         io::H5Source& source, gpu::GpuChain& chain, RunSummary summary,
                         std::atomic<bool> const& stop_requested, PhaseClock& phases);

}  // namespace tcfft::app
