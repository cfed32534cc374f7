// SPDX-License-Identifier: MIT
// tcfft-pipeline: the command line. The only place that turns exceptions into exit codes
// (README.md lists them): 0 ok, 2 usage/config, 3 input/data, 4 output, 5 runtime/device,
// 130 interrupted.
#include "config.hpp"
#include "exit_status.hpp"
#include "pipeline.hpp"

#include <tcfft/core/error.hpp>
#include <tcfft/version.hpp>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

namespace {

void on_signal(int signal_number) {
  tcfft::app::request_stop();
  std::signal(signal_number, SIG_DFL);  // a second Ctrl-C ends the process at once
}

void setup_logging(std::string const& level, bool quiet) {
  auto logger = spdlog::stderr_color_mt("tcfft");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  auto parsed = spdlog::level::from_str(level);
  if (quiet && parsed < spdlog::level::warn) parsed = spdlog::level::warn;
  spdlog::set_level(parsed);
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// `config_seconds`: time load_config took; `main_start`: when main() began (--profile phases).
void print_summary(tcfft::app::RunSummary const& s, double config_seconds,
                   Clock::time_point main_start) {
  double const seconds = s.seconds > 0 ? s.seconds : 1e-9;
  std::printf("tcfft-pipeline %s finished in %.3f s on %s\n", tcfft::kVersion, s.seconds,
              s.device.c_str());
  std::printf("  frames %lld, items %lld, read %.1f MB, wrote %.1f MB\n",
              static_cast<long long>(s.frames), static_cast<long long>(s.rows),
              static_cast<double>(s.bytes_read) / 1e6, static_cast<double>(s.bytes_written) / 1e6);
  std::printf("  throughput %.1f frames/s, %.3f GB/s read\n", static_cast<double>(s.frames) / seconds,
              static_cast<double>(s.bytes_read) / 1e9 / seconds);
  std::printf("  time per stage: read %.3f s", s.read_seconds);
  for (auto const& stage : s.stages) std::printf(", %s %.3f s", stage.name.c_str(), stage.seconds);
  std::printf("\n");
  for (auto const& line : s.reports) std::printf("  %s\n", line.c_str());
  if (!s.profile.empty()) std::printf("  profile (%s):\n", s.executor.c_str());
  for (auto const& line : s.profile) std::printf("    %s\n", line.c_str());
  if (!s.phases.empty()) {
    std::printf("  phases (wall clock; loading the configuration took %.4f s before them):\n",
                config_seconds);
    for (auto const& line : s.phases) std::printf("    %s\n", line.c_str());
    std::printf("    %-44s %8.4f s\n", "main() start to this line", seconds_since(main_start));
  }
  std::printf("  output: %s\n", s.output_path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  auto const main_start = Clock::now();
  CLI::App cli{"tcfft-pipeline: a YAML-configured HDF5 -> FFT -> filter -> HDF5 pipeline "
               "with a Tensor Core FP16 FFT"};
  std::string config_path;
  std::vector<std::string> overrides;
  std::string device;
  std::string log_level = "info";
  bool validate = false;
  bool quiet = false;
  bool profile = false;
  cli.add_option("config", config_path, "YAML configuration file")->required();
  cli.add_flag("--validate", validate,
               "check the configuration, the input file and shapes and the output path; "
               "process nothing");
  cli.add_option("--set", overrides, "override a key: --set stages.1.filter.cutoff=30 (repeatable)");
  cli.add_option("--device", device, "where the FFTs run: auto, gpu or cpu (overrides run.device)")
      ->check(CLI::IsMember({"auto", "gpu", "cpu"}));
  cli.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  cli.add_flag("-q,--quiet", quiet, "only warnings and errors; no progress bar");
  cli.add_flag("--profile", profile,
               "GPU streaming: print a timeline summary per step (read, H2D, stages, D2H, "
               "write) and how much of each was hidden behind the others");
  cli.set_version_flag("--version", std::string("tcfft-pipeline ") + tcfft::kVersion);
  try {
    cli.parse(argc, argv);
  } catch (CLI::ParseError const& e) {
    int const code = cli.exit(e);
    return code == 0 ? 0 : static_cast<int>(tcfft::ExitCode::kUsage);
  }

  setup_logging(log_level, quiet);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  return tcfft::app::exit_status_of([&] {
    if (!device.empty()) overrides.push_back("run.device=" + device);
    auto const config_start = Clock::now();
    auto const config = tcfft::app::load_config(config_path, overrides);
    double const config_seconds = seconds_since(config_start);
    spdlog::info("tcfft-pipeline {}: effective configuration of {}:\n{}", tcfft::kVersion,
                 config_path, config.effective_yaml);
    auto const summary = tcfft::app::run_pipeline(config, {validate, quiet, profile});
    if (validate) {
      std::printf("%s: valid\n", config_path.c_str());
    } else {
      print_summary(summary, config_seconds, main_start);
    }
    return 0;
  });
}
