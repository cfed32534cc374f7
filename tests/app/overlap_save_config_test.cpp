// SPDX-License-Identifier: MIT
// input.overlap and filter.taps in the configuration (auto, the overlap >= (taps-1)/2 check, the
// effective YAML), and one end-to-end run: segmented overlap-save filtering through the CLI
// equals whole-series filtering except within the edge.
#include "cli_harness.hpp"
#include "config_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace tcfft::testing {
namespace {

std::string with_taps(std::string const& input_extra, std::string const& taps) {
  return with(with(kBaseConfig, "  dataset: /x\n", "  dataset: /x\n" + input_extra),
              "      cutoff: 100\n", "      cutoff: 100\n      taps: " + taps + "\n");
}

TEST(OverlapConfig, OverlapBelowHalfTheTapsIsRefusedNamingBoth) {
  auto const message = error_of(with_taps("  segment: 4000\n  overlap: 10\n", "129"));
  expect_contains(message, {"input.overlap", "10 is less than (taps - 1) / 2 = 64",
                            "stages[1].filter.taps 129"});
  // Absent overlap is 0: refused too once the series is cut into segments.
  expect_contains(error_of(with_taps("  segment: 4000\n", "33")),
                  {"input.overlap: 0 is less than (taps - 1) / 2 = 16"});
  // The override is checked like the file.
  expect_contains(error_of(with_taps("  segment: 4000\n  overlap: 64\n", "129"),
                           {"input.overlap=63"}),
                  {"63 is less than (taps - 1) / 2 = 64"});
}

TEST(OverlapConfig, EnoughOverlapAutoAndWholeSeriesParse) {
  auto const enough = app::parse_config(with_taps("  segment: 4000\n  overlap: 64\n", "129"),
                                        "cfg.yaml");
  EXPECT_EQ(enough.input.overlap, 64);
  auto const automatic = app::parse_config(
      with_taps("  segment: 4000\n  overlap: auto\n", "129"), "cfg.yaml");
  EXPECT_EQ(automatic.input.overlap, 64);
  EXPECT_NE(automatic.effective_yaml.find("overlap: 64"), std::string::npos)
      << automatic.effective_yaml;
  EXPECT_NE(automatic.effective_yaml.find("taps: 129"), std::string::npos);
  // The effective YAML reads back to the same values.
  auto const again = app::parse_config(automatic.effective_yaml, "effective.yaml");
  EXPECT_EQ(again.input.overlap, 64);
  EXPECT_EQ(std::get<FilterParams>(again.stages[1].params).taps, 129);
  // One whole-series item needs no overlap (it wraps only at the series' ends: the edge).
  EXPECT_EQ(app::parse_config(with_taps("", "129"), "cfg.yaml").input.overlap, 0);
  // auto without taps is 0.
  EXPECT_EQ(app::parse_config(with(kBaseConfig, "  dataset: /x\n",
                                   "  dataset: /x\n  overlap: auto\n"),
                              "cfg.yaml")
                .input.overlap,
            0);
}

TEST(OverlapConfig, BadTapsAndOverlapWords) {
  expect_contains(error_of(with_taps("", "64")),
                  {"stages[1].filter.taps", "64 is out of range", "odd and >= 3"});
  expect_contains(error_of(with_taps("", "1")), {"1 is out of range"});
  expect_contains(error_of(with_taps("  overlap: -3\n", "0")), {"input.overlap"});
  expect_contains(error_of(with_taps("  overlap: some\n", "0")), {"input.overlap"});
}

TEST(OverlapCli, SegmentedRunEqualsWholeSeriesExceptTheEdge) {
  ScratchDir dir;
  std::size_t const n = 30011;  // no multiple of the segment: the final segment is partial
  auto const x = random_samples(n);
  write_h5_doubles(dir.file("in.h5"), "/x", {n}, x, 1.0 / 1000.0);
  auto const config = [](std::string const& input_extra, std::string const& output) {
    return "input: {path: in.h5, dataset: /x" + input_extra + "}\n"
           "output: {path: " + output + "}\n"
           "stages:\n"
           "  - fft: {}\n"
           "  - filter: {type: bandpass, low: 40, high: 200, taps: 129}\n"
           "  - ifft: {}\n"
           "  - sink: {dataset: /y}\n";
  };
  dir.write_text("whole.yaml", config("", "whole.h5"));
  dir.write_text("parts.yaml", config(", segment: 1920, overlap: auto", "parts.h5"));
  auto const whole = run_app("whole.yaml --quiet --device cpu", dir.path());
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  auto const parts = run_app("parts.yaml --quiet --device cpu", dir.path());
  ASSERT_EQ(parts.exit_code, 0) << parts.output;
  auto const a = read_h5_doubles(dir.file("whole.h5"), "/y");
  auto const b = read_h5_doubles(dir.file("parts.h5"), "/y");
  ASSERT_EQ(a.size(), n);
  ASSERT_EQ(b.size(), n);
  double diff = 0.0;
  double scale = 0.0;
  for (std::size_t i = 64; i < n - 64; ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(a[i]));
  }
  ASSERT_GT(scale, 0.0);
  EXPECT_LT(diff / scale, 1e-12);

  dir.write_text("short.yaml", config(", segment: 1920, overlap: 32", "short.h5"));
  auto const refused = run_app("short.yaml --quiet --device cpu", dir.path());
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("32 is less than (taps - 1) / 2 = 64"), std::string::npos)
      << refused.output;
}

}  // namespace
}  // namespace tcfft::testing
