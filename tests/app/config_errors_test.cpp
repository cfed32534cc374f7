// SPDX-License-Identifier: MIT
// Every kind of bad configuration gives a ConfigError naming the file, the line, the key path,
// the offending value and, where there is one, the suggestion. Line numbers refer to
// kBaseConfig (config_test_support.hpp), edited in place so that they do not move.
#include "app/config_test_support.hpp"

namespace tcfft::testing {
namespace {

std::string base_with(std::string const& from, std::string const& to) {
  return with(kBaseConfig, from, to);
}

TEST(ConfigErrors, UnknownKeySuggestsTheClosest) {
  expect_contains(error_of(base_with("cutoff: 100", "cuttoff: 100")),
                  {"cfg.yaml:9: stages[1].filter.cuttoff: unknown key 'cuttoff'; "
                   "did you mean 'cutoff'?"});
}

TEST(ConfigErrors, UnknownKeyWithoutCloseMatchListsTheValidKeys) {
  expect_contains(error_of(base_with("  dataset: /x\n", "  dataset: /x\n  compression: 3\n")),
                  {"cfg.yaml:4: input.compression: unknown key 'compression'; valid keys: path, "
                   "dataset, items, segment"});
  expect_contains(error_of("logging: {level: info}\n" + kBaseConfig),
                  {"cfg.yaml:1: logging: unknown key 'logging'; valid keys: input, output, run, "
                   "stages"});
}

TEST(ConfigErrors, UnknownStageKindSuggestsTheClosest) {
  expect_contains(error_of(base_with("  - filter:\n", "  - fliter:\n")),
                  {"cfg.yaml:8: stages[1].fliter: unknown stage kind 'fliter'; "
                   "did you mean 'filter'?"});
  expect_contains(error_of(base_with("  - fft: {}", "  - histogram: {}")),
                  {"cfg.yaml:7: stages[0].histogram: unknown stage kind 'histogram'; stage "
                   "kinds: fft, ifft, spectrum, welch, filter, sink"});
}

TEST(ConfigErrors, WrongTypes) {
  expect_contains(error_of(base_with("cutoff: 100", "cutoff: abc")),
                  {"cfg.yaml:9: stages[1].filter.cutoff: expected a number, got 'abc'"});
  expect_contains(error_of(base_with("cutoff: 100", "cutoff: [1, 2]")),
                  {"cfg.yaml:9: stages[1].filter.cutoff: expected a number, got a list"});
  expect_contains(error_of(base_with("cutoff: 100", "cutoff: .inf")),
                  {"cfg.yaml:9: stages[1].filter.cutoff: expected a finite number, got '.inf'"});
  expect_contains(error_of(base_with("  path: out.h5\n", "  path: out.h5\n  overwrite: yes\n")),
                  {"cfg.yaml:6: output.overwrite: expected true or false, got 'yes'"});
  expect_contains(error_of(base_with("  - fft: {}", "  - welch: {segment: 2.5}")),
                  {"cfg.yaml:7: stages[0].welch.segment: expected an integer, got '2.5'"});
  expect_contains(error_of(base_with("  path: in.h5\n  dataset: /x\n", "  - in.h5\n  - /x\n")),
                  {"cfg.yaml:2: input: expected a map, got a list"});
  expect_contains(error_of(base_with("  - fft: {}", "  - fft: hann")),
                  {"cfg.yaml:7: stages[0].fft: expected a map, got 'hann'"});
  expect_contains(error_of(base_with("  path: in.h5", "  path: {file: in.h5}")),
                  {"cfg.yaml:2: input.path: expected a string, got a map"});
}

TEST(ConfigErrors, StagesMustBeAList) {
  std::string const text =
      "input: {path: in.h5, dataset: /x}\n"
      "output: {path: out.h5}\n"
      "stages:\n"
      "  sink: {dataset: /y}\n";
  expect_contains(error_of(text), {"cfg.yaml:4: stages: expected a list, got a map"});
  expect_contains(error_of(with(text, "  sink: {dataset: /y}\n", "  []\n")),
                  {"cfg.yaml:4: stages: the list is empty"});
}

TEST(ConfigErrors, OutOfRangeNamesTheValueAndTheRange) {
  expect_contains(error_of(base_with("cutoff: 100", "cutoff: 100\n      order: 17")),
                  {"cfg.yaml:10: stages[1].filter.order: 17 is out of range: must be 1..16"});
  expect_contains(error_of(base_with("cutoff: 100", "cutoff: -3")),
                  {"cfg.yaml:9: stages[1].filter.cutoff: -3 is out of range: must be > 0"});
  expect_contains(
      error_of(base_with("  - fft: {}", "  - fft: {window: tukey, tukey_alpha: 1.5}")),
      {"cfg.yaml:7: stages[0].fft.tukey_alpha: 1.5 is out of range: must be in (0, 1]"});
  expect_contains(error_of(base_with("  - fft: {}", "  - welch: {segment: 1}")),
                  {"cfg.yaml:7: stages[0].welch.segment: 1 is out of range: must be >= 2"});
  expect_contains(error_of(base_with("  - fft: {}", "  - welch: {segment: 256, overlap: 256}")),
                  {"cfg.yaml:7: stages[0].welch.overlap: 256 is out of range: must be 0..255"});
  expect_contains(error_of(base_with("  - fft: {}", "  - welch: {overlap: 100%}")),
                  {"cfg.yaml:7: stages[0].welch.overlap: 100% is out of range"});
  expect_contains(error_of(base_with("  - fft: {}", "  - welch: {overlap: half%}")),
                  {"stages[0].welch.overlap: expected samples or a percentage such as '50%', got "
                   "'half%'"});
  expect_contains(error_of(base_with("  - fft: {}", "  - welch: {report_peaks: -1}")),
                  {"stages[0].welch.report_peaks: -1 is out of range: must be 0..", "cfg.yaml:7"});
  expect_contains(error_of(base_with("  dataset: /x", "  dataset: /x\n  frame_mb: 0")),
                  {"cfg.yaml:4: input.frame_mb: 0 is out of range: must be > 0"});
  expect_contains(error_of(base_with("  dataset: /x", "  dataset: /x\n  scale: 0")),
                  {"cfg.yaml:4: input.scale: 0 would turn every sample into zero"});
}

TEST(ConfigErrors, EnumWordListsTheAllowedWordsAndSuggests) {
  expect_contains(error_of(base_with("  - fft: {}", "  - fft: {window: han}")),
                  {"cfg.yaml:7: stages[0].fft.window: 'han' is not one of none, hann, hamming, "
                   "blackman, tukey; did you mean 'hann'?"});
  expect_contains(error_of(base_with("      dataset: /y", "      dataset: /y\n      dtype: int8")),
                  {"cfg.yaml:12: stages[2].sink.dtype: 'int8' is not one of auto, float32, "
                   "float64, complex64, complex128"});
  expect_contains(error_of("run: {device: gpu0}\n" + kBaseConfig),
                  {"cfg.yaml:1: run.device: 'gpu0' is not one of auto, cpu, gpu; "
                   "did you mean 'gpu'?"});
}

TEST(ConfigErrors, MissingRequiredKeys) {
  expect_contains(error_of(base_with("  dataset: /x\n", "")),
                  {"cfg.yaml:2: input.dataset: required key is missing"});
  expect_contains(error_of(base_with("output:\n  path: out.h5\n", "")),
                  {"cfg.yaml:1: output: required key is missing"});
  expect_contains(error_of(base_with("      dataset: /y\n", "      dtype: float32\n")),
                  {"cfg.yaml:11: stages[2].sink.dataset: required key is missing"});
  expect_contains(error_of(base_with("      cutoff: 100\n", "      order: 2\n")),
                  {"cfg.yaml:9: stages[1].filter.cutoff: required key is missing"});
  expect_contains(error_of(base_with("cutoff: 100", "type: bandstop\n      low: 5")),
                  {"cfg.yaml:9: stages[1].filter.high: required key is missing"});
  expect_contains(error_of(base_with("cutoff: 100", "response: file\n      dataset: /g")),
                  {"cfg.yaml:9: stages[1].filter.file: required key is missing"});
  expect_contains(error_of(base_with("  path: in.h5", "  path:")),
                  {"cfg.yaml:2: input.path: expected a string, got nothing"});
}

TEST(ConfigErrors, FilterKeysThatTheFilterDoesNotUse) {
  expect_contains(error_of(base_with("cutoff: 100", "type: bandpass\n      cutoff: 100")),
                  {"cfg.yaml:10: stages[1].filter.cutoff: has no effect with type: bandpass"});
  expect_contains(error_of(base_with("cutoff: 100",
                                     "cutoff: 100\n      response: gaussian\n"
                                     "      order: 2")),
                  {"cfg.yaml:11: stages[1].filter.order: has no effect with response: gaussian"});
  expect_contains(error_of(base_with("cutoff: 100", "cutoff: 100\n      file: g.h5")),
                  {"cfg.yaml:10: stages[1].filter.file: has no effect unless response: file"});
  expect_contains(error_of(base_with("cutoff: 100",
                                     "type: bandpass\n      low: 50\n"
                                     "      high: 50")),
                  {"cfg.yaml:11: stages[1].filter.high: 50 is out of range: must be greater than "
                   "low (50)"});
  expect_contains(error_of(base_with("  dataset: /x", "  dataset: /x\n  sample_rate: 150")),
                  {"cfg.yaml:10: stages[1].filter.cutoff: 100 is at or above the Nyquist "
                   "frequency 75"});
}

TEST(ConfigErrors, MalformedYamlGivesLineAndColumn) {
  expect_contains(error_of(base_with("cutoff: 100", "cutoff: [100")),
                  {"cfg.yaml:", "malformed YAML"});
  expect_contains(error_of("input:\n  path: a\n   dataset: b\n"),
                  {"cfg.yaml:3:", "malformed YAML"});
}

TEST(ConfigErrors, EmptyFileAndTopLevelNotAMap) {
  expect_contains(error_of(""), {"cfg.yaml: the configuration is empty"});
  expect_contains(error_of("# nothing but a comment\n"), {"cfg.yaml: the configuration is empty"});
  expect_contains(error_of("- input\n- output\n"),
                  {"cfg.yaml:1: expected a map with the keys input, output, run, stages at the top "
                   "level, got a list"});
  expect_contains(error_of("just words\n"), {"got 'just words'"});
}

TEST(ConfigErrors, StageEntriesNeedExactlyOneKey) {
  expect_contains(error_of(base_with("  - fft: {}", "  - {}")),
                  {"cfg.yaml:7: stages[0]: empty stage"});
  expect_contains(error_of(base_with("  - fft: {}", "  - fft")),
                  {"cfg.yaml:7: stages[0]: expected a map with one key, the stage kind "
                   "(e.g. '- fft: {}'), got 'fft'"});
  expect_contains(error_of(base_with("  - fft: {}", "  - {fft: {}, ifft: {}}")),
                  {"cfg.yaml:7: stages[0]: one stage per entry, got 2: fft, ifft"});
  // Options not indented below their kind land in the entry itself.
  expect_contains(error_of(base_with("      cutoff: 100", "    cutoff: 100")),
                  {"cfg.yaml:9: stages[1].cutoff: 'cutoff' is not a stage kind; if it is an option "
                   "of 'filter', indent it below 'filter:'"});
}

TEST(ConfigErrors, RepeatedKey) {
  expect_contains(
      error_of(base_with("      cutoff: 100\n", "      cutoff: 100\n      cutoff: 200\n")),
      {"cfg.yaml:10: stages[1].filter.cutoff: key repeated (first given at line 9)"});
}

TEST(ConfigErrors, CrossFieldChecks) {
  expect_contains(error_of(base_with("  path: out.h5", "  path: ./in.h5")),
                  {"cfg.yaml:5: output.path: './in.h5' is also input.path"});
  expect_contains(error_of(base_with("  - fft: {}", "  - sink: {dataset: y}")),
                  {"cfg.yaml:11: stages[2].sink.dataset: '/y' is already written by stages[0]"});
  expect_contains(error_of(base_with("  - sink:\n      dataset: /y\n", "  - ifft: {}\n")),
                  {"cfg.yaml:7: stages: the pipeline writes nothing: add a "
                   "'- sink: {dataset: ...}' stage"});
}

TEST(ConfigErrors, OnlyConfigErrorsEscape) {
  // Strange but well-formed YAML: tags, complex keys.
  for (std::string const& text :
       {std::string("? [a, b]\n: 1\n"), std::string("!!binary aGVsbG8=\n"),
        base_with("cutoff: 100", "cutoff: !!str 100\n      ? {a: 1}\n      : 2")}) {
    SCOPED_TRACE(text);
    std::string const message = error_of(text);
    EXPECT_EQ(message.rfind("cfg.yaml", 0), 0u) << message;
  }
}

}  // namespace
}  // namespace tcfft::testing
