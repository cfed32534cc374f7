// SPDX-License-Identifier: MIT
// --set overrides: applied to the YAML tree before validation, so that they are checked like
// the file, with messages that say which --set a bad value came from.
#include "app/config_test_support.hpp"

#include <variant>

namespace tcfft::testing {
namespace {

using app::parse_config;

FilterParams filter_of(app::PipelineConfig const& c) {
  return std::get<FilterParams>(c.stages.at(1).params);
}

TEST(ConfigOverrides, ChangeAValueInBothPathForms) {
  auto const dotted = parse_config(kBaseConfig, "cfg.yaml", {"stages.1.filter.cutoff=200"});
  EXPECT_DOUBLE_EQ(filter_of(dotted).cutoff, 200.0);
  auto const bracketed = parse_config(kBaseConfig, "cfg.yaml", {"stages[1].filter.cutoff=250"});
  EXPECT_DOUBLE_EQ(filter_of(bracketed).cutoff, 250.0);
  auto const later_wins =
      parse_config(kBaseConfig, "cfg.yaml", {"input.path=a.h5", "input.path=b.h5"});
  EXPECT_EQ(later_wins.input.path, "b.h5");
  EXPECT_NE(later_wins.effective_yaml.find("path: b.h5"), std::string::npos);
}

TEST(ConfigOverrides, AddMissingOptionalKeysAndSections) {
  auto const c = parse_config(kBaseConfig, "cfg.yaml",
                              {"output.overwrite=true", "run.device=cpu", "stages.0.fft.norm=ortho",
                               "stages.1.filter.order=2"});
  EXPECT_TRUE(c.output.overwrite);
  EXPECT_EQ(c.run.device, Device::kCpu);
  EXPECT_EQ(std::get<FftParams>(c.stages[0].params).norm, Norm::kOrtho);
  EXPECT_EQ(filter_of(c).order, 2);
}

TEST(ConfigOverrides, IntoNullStageOptions) {
  auto const c = parse_config(with(kBaseConfig, "  - fft: {}", "  - fft:"), "cfg.yaml",
                              {"stages.0.fft.window=hann"});
  EXPECT_EQ(std::get<FftParams>(c.stages[0].params).window, "hann");
}

TEST(ConfigOverrides, FlowValuesReplaceWholeSubtrees) {
  auto const c = parse_config(kBaseConfig, "cfg.yaml",
                              {"stages.2={sink: {dataset: /z, dtype: float32}}",
                               "stages[1].filter={type: bandpass, low: 1, high: 2}"});
  auto const& sink = std::get<SinkParams>(c.stages[2].params);
  EXPECT_EQ(sink.dataset, "/z");
  EXPECT_EQ(sink.dtype, "float32");
  EXPECT_EQ(filter_of(c).type, "bandpass");
  EXPECT_DOUBLE_EQ(filter_of(c).high, 2.0);
}

TEST(ConfigOverrides, BadPathSuggestsTheClosestKey) {
  expect_contains(error_of(kBaseConfig, {"stages.1.filter.cuttoff=3"}),
                  {"cfg.yaml: --set stages.1.filter.cuttoff: stages[1].filter.cuttoff: "
                   "unknown key 'cuttoff'; did you mean 'cutoff'?"});
  expect_contains(error_of(kBaseConfig, {"outptu.overwrite=true"}),
                  {"--set outptu.overwrite: outptu: unknown key 'outptu'; did you mean 'output'?"});
  expect_contains(error_of(kBaseConfig, {"stages.1.fliter.cutoff=3"}),
                  {"--set stages.1.fliter.cutoff: stages[1].fliter: unknown stage kind 'fliter'; "
                   "did you mean 'filter'?"});
  expect_contains(error_of(kBaseConfig, {"stages[1].filter={cuttoff: 3}"}),
                  {"--set stages[1].filter: stages[1].filter.cuttoff: unknown key 'cuttoff'"});
}

TEST(ConfigOverrides, BadValueNamesTheSetNotTheFileLine) {
  std::string const message = error_of(kBaseConfig, {"stages.1.filter.cutoff=abc"});
  expect_contains(message, {"cfg.yaml: --set stages.1.filter.cutoff: stages[1].filter.cutoff: "
                            "expected a number, got 'abc'"});
  EXPECT_EQ(message.find("cfg.yaml:9"), std::string::npos) << message;
  expect_contains(
      error_of(kBaseConfig, {"output.overwrite=maybe"}),
      {"--set output.overwrite: output.overwrite: expected true or false, got 'maybe'"});
  expect_contains(error_of(kBaseConfig, {"stages.0.fft.window=han"}),
                  {"--set stages.0.fft.window", "'han' is not one of", "did you mean 'hann'?"});
  expect_contains(error_of(kBaseConfig, {"input.path="}),
                  {"--set input.path: input.path: expected a string, got nothing"});
  expect_contains(error_of(kBaseConfig, {"stages.1.filter.cutoff=[1"}),
                  {"--set stages.1.filter.cutoff: cannot read the value '[1'"});
}

TEST(ConfigOverrides, FileErrorsKeepTheirLinesBesideOverrides) {
  expect_contains(error_of(with(kBaseConfig, "dataset: /y", "dataset: /y\n      dtype: int8"),
                           {"stages.1.filter.cutoff=20"}),
                  {"cfg.yaml:12: stages[2].sink.dtype"});
}

TEST(ConfigOverrides, ListIndexOutOfRange) {
  expect_contains(error_of(kBaseConfig, {"stages.5.sink.dataset=/z"}),
                  {"cfg.yaml: --set stages.5.sink.dataset: index 5 is out of range: 'stages' has 3 "
                   "entries (0..2)"});
  expect_contains(error_of(kBaseConfig, {"stages[3]={sink: {dataset: /z}}"}),
                  {"index 3 is out of range"});
}

TEST(ConfigOverrides, MalformedOverrides) {
  expect_contains(error_of(kBaseConfig, {"output.overwrite"}),
                  {"--set 'output.overwrite': expected key.path=value"});
  expect_contains(error_of(kBaseConfig, {"=3"}), {"expected key.path=value"});
  expect_contains(error_of(kBaseConfig, {"input..path=a"}), {"--set input..path: empty key"});
  expect_contains(error_of(kBaseConfig, {"stages[x].fft=1"}), {"malformed list index"});
  expect_contains(error_of(kBaseConfig, {"stages.first.fft={}"}),
                  {"'stages' is a list: expected an index, got 'first'"});
  expect_contains(error_of(kBaseConfig, {"input[0]=a"}), {"'input' is not a list"});
  expect_contains(
      error_of(kBaseConfig, {"input.path.name=a"}),
      {"--set input.path.name: 'input.path' is the value 'in.h5', not a map or a list"});
}

TEST(ConfigOverrides, BandCornersBlameTheOverriddenOne) {
  std::string const band = with(kBaseConfig, "cutoff: 100",
                                "type: bandpass\n      low: 40\n"
                                "      high: 600");
  expect_contains(error_of(band, {"stages.1.filter.low=700"}),
                  {"--set stages.1.filter.low: stages[1].filter.low: 700 is out of range: must be "
                   "less than high (600)"});
  expect_contains(error_of(band, {"stages.1.filter.high=7"}),
                  {"--set stages.1.filter.high: stages[1].filter.high: 7 is out of range: must be "
                   "greater than low (40)"});
}

TEST(ConfigOverrides, CrossFieldChecksSeeOverriddenValues) {
  expect_contains(error_of(kBaseConfig, {"output.path=in.h5"}),
                  {"cfg.yaml: --set output.path: output.path: 'in.h5' is also input.path"});
}

}  // namespace
}  // namespace tcfft::testing
