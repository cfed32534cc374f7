// SPDX-License-Identifier: MIT
#include "pipeline.hpp"

#include "output_check.hpp"
#include "phase_clock.hpp"
#include "progress.hpp"
#include "streaming_run.hpp"

#include <tcfft/core/cuda.hpp>
#include <tcfft/core/error.hpp>
#include <tcfft/gpu/gpu_chain.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/io/h5_source.hpp>
#include <tcfft/stages/fft_engine.hpp>
#include <tcfft/stages/sink_stage.hpp>
#include <tcfft/stages/stage_factory.hpp>
#include <tcfft/version.hpp>

#include <cuda_runtime_api.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tcfft::app {
namespace {

std::atomic<bool> g_stop_requested{false};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Stands in for a sink while the chain is negotiated, before the output file exists.
class PendingSink final : public stages::Stage {
 public:
  explicit PendingSink(int index) : name_("stages[" + std::to_string(index) + "] (sink)") {}
  std::string const& name() const noexcept override { return name_; }
  FrameSpec configure(FrameSpec const& in) override { return in; }
  bool process(Frame const&, Frame&) override { return false; }

 private:
  std::string name_;
};

FftEngineParams resolve_engine(RunParams const& run, std::string& device_text) {
  FftEngineParams engine;
  engine.backend = run.backend;
  engine.precision = run.precision;
  engine.fuse = run.fuse;
  engine.real_transforms = run.real_transforms;
  bool const have_gpu = stages::gpu_available();
  if (run.device == Device::kGpu && !have_gpu) {
    throw CudaError("run.device is gpu but no CUDA device is visible (use --device cpu)");
  }
  engine.device = run.device == Device::kAuto ? (have_gpu ? Device::kGpu : Device::kCpu)
                                              : run.device;
  if (engine.device == Device::kGpu) {
    cudaDeviceProp prop{};
    int device = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
      device_text = std::string("gpu (") + prop.name + ", " + run.backend + " " + run.precision +
                    ")";
    } else {
      device_text = "gpu";
    }
  } else {
    device_text = "cpu (FFTW, double)";
  }
  return engine;
}

struct Chain {
  std::vector<std::unique_ptr<stages::Stage>> stages;
  std::vector<FrameSpec> input_specs;  // spec entering each stage
};

Chain negotiate(PipelineConfig const& config, FrameSpec const& source_spec,
                FftEngineParams const& engine) {
  Chain chain;
  FrameSpec spec = source_spec;
  for (auto const& stage_config : config.stages) {
    std::unique_ptr<stages::Stage> stage;
    if (std::holds_alternative<SinkParams>(stage_config.params)) {
      stage = std::make_unique<PendingSink>(stage_config.index);
    } else {
      stage = stages::make_processing_stage(stage_config, engine);
    }
    chain.input_specs.push_back(spec);
    spec = stage->configure(spec);
    spdlog::debug("{}: -> {} {} item shape [{}], {} rows", stage->name(), to_string(spec.type),
                  to_string(spec.domain), spec.shape.empty() ? 0 : spec.shape.back(),
                  spec.total_rows);
    chain.stages.push_back(std::move(stage));
  }
  return chain;
}

/// Replaces each PendingSink by a real SinkStage writing into `output`.
void attach_sinks(PipelineConfig const& config, Chain& chain, io::OutputFile& output) {
  for (std::size_t i = 0; i < chain.stages.size(); ++i) {
    auto const* sink = std::get_if<SinkParams>(&config.stages[i].params);
    if (sink == nullptr) continue;
    auto stage = std::make_unique<stages::SinkStage>(*sink, config.stages[i].index, output);
    (void)stage->configure(chain.input_specs[i]);
    chain.stages[i] = std::move(stage);
  }
}

/// Pushes `frame` through stages [first, end). Buffers are reused between frames.
void propagate(Chain& chain, std::size_t first, Frame const& frame, std::vector<Frame>& buffers,
               std::vector<double>& stage_seconds) {
  Frame const* current = &frame;
  for (std::size_t i = first; i < chain.stages.size(); ++i) {
    auto const start = Clock::now();
    bool const emitted = chain.stages[i]->process(*current, buffers[i]);
    stage_seconds[i] += seconds_since(start);
    if (!emitted) return;
    current = &buffers[i];
  }
}

void check_stop() {
  if (g_stop_requested.load(std::memory_order_relaxed)) throw Interrupted();
}

}  // namespace

void request_stop() noexcept { g_stop_requested.store(true); }

RunSummary run_pipeline(PipelineConfig const& config, RunOptions const& options) {
  auto const start = Clock::now();
  PhaseClock phases;
  RunSummary summary;
  io::H5Source source(config.input);
  spdlog::info("input: {}", source.describe());
  phases.mark("open input");
  FftEngineParams const engine = resolve_engine(config.run, summary.device);
  spdlog::info("device: {}", summary.device);
  phases.mark("CUDA driver init, device query");
  if (engine.device == Device::kGpu) {
    std::string reason;
    gpu::GpuSourceSpec const gpu_source{source.spec(), source.dtype_name(), config.input.scale,
                                        config.input.on_nonfinite == "zero"};
    if (auto chain = gpu::make_gpu_chain(config.stages, engine, gpu_source, reason)) {
      check_output_path(config.output);
      if (options.validate_only) {
        spdlog::info("configuration, input and GPU stage chain are valid ({})", chain->describe());
        return summary;
      }
      phases.mark("negotiate GPU chain, check output path");
      // The primary context would be created by the first allocation; created here, its cost
      // is a phase of its own in --profile.
      TCFFT_CUDA_CHECK(cudaFree(nullptr));
      phases.mark("CUDA context");
      auto result = run_streaming(config, options, source, *chain, std::move(summary),
                                  g_stop_requested, phases);
      chain.reset();
      phases.mark("release FFT plans and tables");
      if (options.profile) result.phases = phases.lines();
      result.seconds = seconds_since(start);  // the whole run, as on the host path
      return result;
    }
    spdlog::info("GPU streaming executor not used ({}); frames run one by one on the host",
                 reason);
  }
  summary.executor = "host frame loop";
  Chain chain = negotiate(config, source.spec(), engine);
  check_output_path(config.output);
  if (options.validate_only) {
    spdlog::info("configuration, input and stage chain are valid ({} stages, {} frames)",
                 chain.stages.size(), source.spec().frames());
    return summary;
  }

  io::OutputFile output(config.output, kVersion);
  stamp_output(output, config, summary.device);
  attach_sinks(config, chain, output);

  std::vector<Frame> buffers(chain.stages.size());
  std::vector<double> stage_seconds(chain.stages.size(), 0.0);
  auto const total_frames = source.spec().frames();
  std::int64_t const item_bytes = source.spec().item_size() *
                                  (source.spec().type == SampleType::kComplex ? 16 : 8);
  Progress progress(Progress::detect(options.quiet), total_frames,
                    source.spec().total_rows * item_bytes);
  Frame frame;
  while (true) {
    check_stop();
    auto const read_start = Clock::now();
    if (!source.read(frame)) break;
    summary.read_seconds += seconds_since(read_start);
    propagate(chain, 0, frame, buffers, stage_seconds);
    ++summary.frames;
    summary.rows += frame.rows;
    progress.update(summary.frames, summary.rows * item_bytes);
  }
  for (std::size_t i = 0; i < chain.stages.size(); ++i) {
    check_stop();
    auto const finish_start = Clock::now();
    bool const emitted = chain.stages[i]->finish(buffers[i]);
    stage_seconds[i] += seconds_since(finish_start);
    if (emitted) {
      Frame const final_frame = buffers[i];
      propagate(chain, i + 1, final_frame, buffers, stage_seconds);
    }
  }
  progress.finish();
  output.commit();

  summary.bytes_read = source.bytes_read();
  summary.bytes_written = output.bytes_written();
  summary.output_path = output.path();
  summary.seconds = seconds_since(start);
  for (std::size_t i = 0; i < chain.stages.size(); ++i) {
    summary.stages.push_back({chain.stages[i]->name(), stage_seconds[i]});
    if (auto report = chain.stages[i]->report(); !report.empty()) {
      summary.reports.push_back(chain.stages[i]->name() + ": " + report);
    }
  }
  if (source.nonfinite_replaced() > 0) {
    summary.reports.push_back("input: " + std::to_string(source.nonfinite_replaced()) +
                              " non-finite samples replaced by 0 (on_nonfinite: zero)");
  }
  return summary;
}

}  // namespace tcfft::app
