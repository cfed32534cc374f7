// SPDX-License-Identifier: MIT
// tcfft-gpu-work-bench: the "GPU work alone on device-resident data" floor of the streaming
// benchmark (issue 5, scripts/bench_streaming.py). For CONFIG it builds the device chain that
// tcfft-pipeline builds (gpu::make_gpu_chain: convert, every stage, the sinks' conversions),
// uploads the input's first frame once, then enqueues as many frames as the job has
// (spec.frames(), the last one as short as in the run) back to back on one stream over that
// device-resident frame: no host copies, no HDF5, no slots. After --warmup frames it times
// --repeat such passes with CUDA events and prints the best, then the CUDA start-up of this
// process, one line each:
//   gpu work: 0.254812 s for 128 frames of 64 MiB raw (8.590 GB raw in, 33.71 GB/s), best of 3;
//     chain: fp16 tensor-core: convert -> stages[0] (fft) -> ...
//   steps of one full frame (ms, best of 3): convert 0.061, stages[0] (fft) 0.140, ...
//   cuda start-up: device query 0.012 s, context 0.180 s
// Exit codes as tcfft-pipeline's (5 when the configuration has no GPU chain).
#include "config.hpp"
#include "exit_status.hpp"

#include <tcfft/core/cuda.hpp>
#include <tcfft/core/error.hpp>
#include <tcfft/gpu/gpu_chain.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/io/h5_source.hpp>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Options {
  std::string config_path;
  std::vector<std::string> overrides;
  int warmup = 3;
  int repeat = 3;
};

/// One slot's device buffers, as StreamExecutor allocates them.
struct DeviceSlot {
  tcfft::DeviceBuffer raw, work, workspace, status;
  std::vector<tcfft::DeviceBuffer> sink_out;
  tcfft::gpu::SlotDeviceView view;

  explicit DeviceSlot(tcfft::gpu::GpuChain const& chain)
      : raw(chain.raw_frame_bytes()),
        work(chain.work_frame_bytes()),
        workspace(chain.workspace_bytes()),
        status(tcfft::gpu::GpuChain::status_bytes()) {
    for (std::size_t k = 0; k < chain.sinks().size(); ++k) {
      sink_out.emplace_back(chain.sink_bytes(k));
      view.sink_out.push_back(sink_out.back().data());
    }
    view.raw = raw.data();
    view.work = work.data();
    view.workspace = workspace.data();
    view.workspace_bytes = workspace.size();
    view.status = status.data();
  }
};

void run(Options const& options) {
  using namespace tcfft;
  auto const config = app::load_config(options.config_path, options.overrides);
  auto const query_start = Clock::now();
  int devices = 0;
  TCFFT_CUDA_CHECK(cudaGetDeviceCount(&devices));
  double const query_seconds = seconds_since(query_start);
  auto const context_start = Clock::now();
  TCFFT_CUDA_CHECK(cudaFree(nullptr));  // creates the primary context
  double const context_seconds = seconds_since(context_start);

  io::H5Source source(config.input);
  auto const& spec = source.spec();
  FftEngineParams engine;
  engine.device = Device::kGpu;
  engine.backend = config.run.backend;
  engine.precision = config.run.precision;
  engine.fuse = config.run.fuse;
  engine.real_transforms = config.run.real_transforms;
  gpu::GpuSourceSpec const gpu_source{spec, source.dtype_name(), config.input.scale,
                                      config.input.on_nonfinite == "zero"};
  std::string reason;
  auto chain = gpu::make_gpu_chain(config.stages, engine, gpu_source, reason);
  if (!chain) throw CudaError("no GPU stage chain for " + options.config_path + ": " + reason);
  std::vector<std::string> dtypes;
  for (auto const& sink : chain->sinks()) {
    dtypes.push_back(io::stored_dtype_name(sink.params, sink.spec));
  }
  chain->prepare(dtypes);

  DeviceSlot slot(*chain);
  {
    std::vector<unsigned char> host(chain->raw_frame_bytes());
    Frame first;
    TCFFT_EXPECTS(source.read_raw(first, host.data(), host.size()), "the input has no frame");
    TCFFT_CUDA_CHECK(cudaMemcpy(slot.raw.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  }

  std::int64_t const frames = spec.frames();
  std::int64_t const last_rows = spec.total_rows - (frames - 1) * spec.rows_per_frame;
  Stream stream;
  auto const enqueue_job = [&] {
    for (std::int64_t f = 0; f < frames; ++f) {
      chain->enqueue(slot.view, f + 1 == frames ? last_rows : spec.rows_per_frame, stream.get(),
                     nullptr);
    }
  };
  for (int i = 0; i < options.warmup; ++i) {
    chain->enqueue(slot.view, spec.rows_per_frame, stream.get(), nullptr);
  }
  stream.synchronize();
  Event start(true);
  Event stop(true);
  double best = 0.0;
  for (int r = 0; r < options.repeat; ++r) {
    start.record(stream.get());
    enqueue_job();
    stop.record(stream.get());
    stop.synchronize();
    double const seconds = Event::elapsed_ms(start, stop) / 1000.0;
    best = r == 0 ? seconds : std::min(best, seconds);
  }
  TCFFT_CUDA_CHECK(cudaGetLastError());

  double const frame_raw = static_cast<double>(chain->raw_frame_bytes());
  double const raw_total =
      frame_raw / static_cast<double>(spec.rows_per_frame) * static_cast<double>(spec.total_rows);
  std::printf(
      "gpu work: %.6f s for %lld frames of %.0f MiB raw (%.3f GB raw in, %.2f GB/s), "
      "best of %d; chain: %s\n",
      best, static_cast<long long>(frames), frame_raw / (1 << 20), raw_total / 1e9,
      raw_total / 1e9 / best, options.repeat, chain->describe().c_str());
  // Where the time goes: one full frame with an event after each step, best of --repeat.
  auto const& names = chain->op_names();
  std::vector<Event> marks;
  marks.emplace_back(true);
  for (std::size_t k = 0; k < names.size(); ++k) marks.emplace_back(true);
  std::vector<cudaEvent_t> done;
  for (std::size_t k = 1; k < marks.size(); ++k) done.push_back(marks[k].get());
  std::vector<double> step_ms(names.size(), 0.0);
  for (int r = 0; r < options.repeat; ++r) {
    marks[0].record(stream.get());
    chain->enqueue(slot.view, spec.rows_per_frame, stream.get(), done.data());
    marks.back().synchronize();
    for (std::size_t k = 0; k < names.size(); ++k) {
      double const ms = Event::elapsed_ms(marks[k], marks[k + 1]);
      step_ms[k] = r == 0 ? ms : std::min(step_ms[k], ms);
    }
  }
  std::printf("steps of one full frame (ms, best of %d):", options.repeat);
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::printf("%s %s %.3f", k ? "," : "", names[k].c_str(), step_ms[k]);
  }
  std::printf("\n");
  std::printf("cuda start-up: device query %.3f s, context %.3f s\n", query_seconds,
              context_seconds);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "tcfft-gpu-work-bench: the GPU work of a tcfft-pipeline job alone, on one "
      "device-resident frame enqueued once per frame of the job"};
  Options options;
  cli.add_option("config", options.config_path, "YAML configuration file")->required();
  cli.add_option("--set", options.overrides, "override a key, as tcfft-pipeline --set");
  cli.add_option("--warmup", options.warmup, "frames enqueued before timing")
      ->check(CLI::Range(0, 1000));
  cli.add_option("--repeat", options.repeat, "timed passes over the job's frames (best printed)")
      ->check(CLI::Range(1, 100));
  try {
    cli.parse(argc, argv);
  } catch (CLI::ParseError const& e) {
    int const code = cli.exit(e);
    return code == 0 ? 0 : static_cast<int>(tcfft::ExitCode::kUsage);
  }
  spdlog::set_level(spdlog::level::warn);
  return tcfft::app::exit_status_of([&] {
    run(options);
    return 0;
  });
}
