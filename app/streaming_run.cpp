// SPDX-License-Identifier: MIT
#include "streaming_run.hpp"

#include "output_check.hpp"
#include "progress.hpp"

#include <tcfft/core/error.hpp>
#include <tcfft/gpu/stream_executor.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/version.hpp>

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tcfft::app {

RunSummary run_streaming(PipelineConfig const& config, RunOptions const& options,
                         io::H5Source& source, gpu::GpuChain& chain, RunSummary summary,
                         std::atomic<bool> const& stop_requested, PhaseClock& phases) {
  auto const start = std::chrono::steady_clock::now();
  io::OutputFile output(config.output, kVersion);
  stamp_output(output, config, summary.device);
  std::vector<int> dataset_ids;
  for (auto const& sink : chain.sinks()) {
    try {
      dataset_ids.push_back(output.add_dataset(sink.params, sink.spec));
    } catch (ConfigError const& e) {
      throw ConfigError("stages[" + std::to_string(sink.stage_index) + "] (sink): " + e.what());
    }
  }
  phases.mark("create output file and datasets");

  auto const& spec = source.spec();
  std::int64_t const item_bytes =
      spec.item_size() * static_cast<std::int64_t>(source.raw_element_bytes());
  Progress progress(Progress::detect(options.quiet), spec.frames(), spec.total_rows * item_bytes);
  gpu::ExecutorOptions executor_options;
  executor_options.slots = config.run.slots;
  executor_options.profile = options.profile;
  executor_options.should_stop = [&stop_requested] { return stop_requested.load(); };
  executor_options.progress = [&progress, item_bytes](std::int64_t frames, std::int64_t rows) {
    progress.update(frames, rows * item_bytes);
  };
  // In an optional so that releasing the slots (stream syncs, cudaFree/cudaFreeHost) is timed.
  std::optional<gpu::StreamExecutor> executor;
  executor.emplace(chain, source, output, dataset_ids, executor_options);
  summary.executor = "gpu streaming, " + std::to_string(config.run.slots) + " slot(s)";
  double const pinned_mb = static_cast<double>(executor->pinned_bytes()) / 1e6;
  double const device_mb = static_cast<double>(executor->device_bytes()) / 1e6;
  spdlog::info("{}: {}; {:.1f} MB pinned, {:.1f} MB device", summary.executor, chain.describe(),
               pinned_mb, device_mb);
  phases.mark("executor setup (FFT plans, tables, slots)");
  char detail[160];
  std::snprintf(detail, sizeof detail,
                "plans and tables %.4f s; slots %.4f s (%.1f MB pinned, %.1f MB device)",
                executor->prepare_seconds(), executor->allocate_seconds(), pinned_mb, device_mb);
  phases.note(detail);
  auto const report = executor->run();
  progress.finish();
  phases.mark("frame loop");
  std::error_code ec;
  bool const replaces = std::filesystem::exists(config.output.path, ec);
  output.commit();
  phases.mark(replaces ? "commit (close, rename over the old file)" : "commit (close, rename)");
  executor.reset();
  phases.mark("release slots (stream syncs, frees)");

  summary.frames = report.frames;
  summary.rows = report.rows;
  summary.bytes_read = source.bytes_read();
  summary.bytes_written = output.bytes_written();
  summary.output_path = output.path();
  summary.profile = report.profile;
  summary.pinned_bytes = static_cast<std::int64_t>(report.pinned_bytes);
  summary.device_bytes = static_cast<std::int64_t>(report.device_bytes);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.stages.push_back({"gpu streaming (read, copies, stages, write overlapped)",
                            report.seconds});
  if (report.replaced > 0) {
    summary.reports.push_back("input: " + std::to_string(report.replaced) +
                              " non-finite samples replaced by 0 (on_nonfinite: zero)");
  }
  return summary;
}

}  // namespace tcfft::app
