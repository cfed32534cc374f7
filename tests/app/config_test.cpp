// SPDX-License-Identifier: MIT
// The configuration parser on valid input: every key read into its struct, defaults filled in,
// the effective YAML reading back to the same configuration, closest_key, load_config, and
// every file of configs/ parsing.
#include "app/config_test_support.hpp"

#include <filesystem>
#include <fstream>
#include <tuple>
#include <variant>

namespace tcfft::testing {
namespace {

using app::closest_key;
using app::parse_config;
using app::PipelineConfig;

std::string const kFullConfig = R"(# every key of the schema
input:
  path: data/in.h5
  dataset: /strain/Strain
  items: series
  segment: 65536
  rows_per_frame: 8
  frame_mb: 32.5
  on_nonfinite: zero
  sample_rate: 4096
  scale: 1e21
output:
  path: out/result.h5
  overwrite: true
run:
  device: gpu
  backend: tensor-core
  precision: fp16
  fuse: false
stages:
  - fft:
      axes: last
      window: tukey
      tukey_alpha: 0.25
      onesided: false
      norm: ortho
  - filter:
      type: bandpass
      response: butterworth
      low: 20
      high: 500.5
      order: 8
  - ifft: {norm: forward}
  - spectrum: {output: db}
  - sink: {dataset: /spectrum_db, dtype: float32}
  - welch:
      segment: 1024
      overlap: 25%
      window: blackman
      average: median
      scaling: spectrum
      detrend: none
      onesided: false
      report_peaks: 3
  - filter: {type: highpass, response: gaussian, cutoff: 30}
  - filter: {response: file, file: responses.h5, dataset: /gain}
  - sink:
      dataset: psd
      dtype: complex128
)";

template <typename T>
T const& params_at(PipelineConfig const& c, std::size_t i) {
  EXPECT_LT(i, c.stages.size());
  return std::get<T>(c.stages.at(i).params);
}

// Field-by-field equality of two configurations (the structs have no operator==).
void expect_same(PipelineConfig const& a, PipelineConfig const& b) {
  auto const& ia = a.input;
  auto const& ib = b.input;
  EXPECT_EQ(std::tie(ia.path, ia.dataset, ia.items, ia.segment, ia.rows_per_frame, ia.frame_mb,
                     ia.on_nonfinite, ia.sample_rate, ia.scale),
            std::tie(ib.path, ib.dataset, ib.items, ib.segment, ib.rows_per_frame, ib.frame_mb,
                     ib.on_nonfinite, ib.sample_rate, ib.scale));
  EXPECT_EQ(std::tie(a.output.path, a.output.overwrite),
            std::tie(b.output.path, b.output.overwrite));
  EXPECT_EQ(std::tie(a.run.device, a.run.backend, a.run.precision, a.run.fuse),
            std::tie(b.run.device, b.run.backend, b.run.precision, b.run.fuse));
  ASSERT_EQ(a.stages.size(), b.stages.size());
  for (std::size_t i = 0; i < a.stages.size(); ++i) {
    SCOPED_TRACE("stage " + std::to_string(i));
    EXPECT_EQ(a.stages[i].kind, b.stages[i].kind);
    EXPECT_EQ(a.stages[i].index, b.stages[i].index);
    ASSERT_EQ(a.stages[i].params.index(), b.stages[i].params.index());
    std::visit(
        [&](auto const& pa) {
          using T = std::decay_t<decltype(pa)>;
          auto const& pb = std::get<T>(b.stages[i].params);
          if constexpr (std::is_same_v<T, FftParams>) {
            EXPECT_EQ(std::tie(pa.axes, pa.window, pa.tukey_alpha, pa.onesided, pa.norm),
                      std::tie(pb.axes, pb.window, pb.tukey_alpha, pb.onesided, pb.norm));
          } else if constexpr (std::is_same_v<T, IfftParams>) {
            EXPECT_EQ(pa.norm, pb.norm);
          } else if constexpr (std::is_same_v<T, SpectrumParams>) {
            EXPECT_EQ(pa.output, pb.output);
          } else if constexpr (std::is_same_v<T, WelchParams>) {
            EXPECT_EQ(std::tie(pa.segment, pa.overlap, pa.window, pa.average, pa.scaling,
                               pa.detrend, pa.onesided, pa.report_peaks),
                      std::tie(pb.segment, pb.overlap, pb.window, pb.average, pb.scaling,
                               pb.detrend, pb.onesided, pb.report_peaks));
          } else if constexpr (std::is_same_v<T, FilterParams>) {
            EXPECT_EQ(std::tie(pa.type, pa.response, pa.cutoff, pa.low, pa.high, pa.order, pa.file,
                               pa.dataset),
                      std::tie(pb.type, pb.response, pb.cutoff, pb.low, pb.high, pb.order, pb.file,
                               pb.dataset));
          } else {
            EXPECT_EQ(std::tie(pa.dataset, pa.dtype), std::tie(pb.dataset, pb.dtype));
          }
        },
        a.stages[i].params);
  }
}

TEST(Config, FullConfigFillsEveryStruct) {
  auto const c = parse_config(kFullConfig, "full.yaml");
  EXPECT_EQ(c.source_file, "full.yaml");
  EXPECT_EQ(c.input.path, "data/in.h5");  // relative paths are kept: they resolve against the cwd
  EXPECT_EQ(c.input.dataset, "/strain/Strain");
  EXPECT_EQ(c.input.items, "series");
  EXPECT_EQ(c.input.segment, 65536);
  EXPECT_EQ(c.input.rows_per_frame, 8);
  EXPECT_DOUBLE_EQ(c.input.frame_mb, 32.5);
  EXPECT_EQ(c.input.on_nonfinite, "zero");
  EXPECT_DOUBLE_EQ(c.input.sample_rate, 4096.0);
  EXPECT_DOUBLE_EQ(c.input.scale, 1e21);
  EXPECT_EQ(c.output.path, "out/result.h5");
  EXPECT_TRUE(c.output.overwrite);
  EXPECT_EQ(c.run.device, Device::kGpu);
  EXPECT_EQ(c.run.backend, "tensor-core");
  EXPECT_EQ(c.run.precision, "fp16");
  EXPECT_FALSE(c.run.fuse);
  ASSERT_EQ(c.stages.size(), 9u);
  for (std::size_t i = 0; i < c.stages.size(); ++i) EXPECT_EQ(c.stages[i].index, int(i));

  auto const& fft = params_at<FftParams>(c, 0);
  EXPECT_EQ(c.stages[0].kind, "fft");
  EXPECT_EQ(std::tie(fft.axes, fft.window, fft.onesided, fft.norm),
            std::make_tuple("last", "tukey", false, Norm::kOrtho));
  EXPECT_DOUBLE_EQ(fft.tukey_alpha, 0.25);
  auto const& band = params_at<FilterParams>(c, 1);
  EXPECT_EQ(std::tie(band.type, band.response, band.order),
            std::make_tuple("bandpass", "butterworth", 8));
  EXPECT_DOUBLE_EQ(band.low, 20.0);
  EXPECT_DOUBLE_EQ(band.high, 500.5);
  EXPECT_EQ(params_at<IfftParams>(c, 2).norm, Norm::kForward);
  EXPECT_EQ(params_at<SpectrumParams>(c, 3).output, "db");
  auto const& sink = params_at<SinkParams>(c, 4);
  EXPECT_EQ(std::tie(sink.dataset, sink.dtype), std::make_tuple("/spectrum_db", "float32"));
  auto const& welch = params_at<WelchParams>(c, 5);
  EXPECT_EQ(std::tie(welch.segment, welch.overlap, welch.window, welch.average, welch.scaling,
                     welch.detrend, welch.onesided, welch.report_peaks),
            std::make_tuple(1024, 256, "blackman", "median", "spectrum", "none", false, 3));
  auto const& gauss = params_at<FilterParams>(c, 6);
  EXPECT_EQ(std::tie(gauss.type, gauss.response), std::make_tuple("highpass", "gaussian"));
  EXPECT_DOUBLE_EQ(gauss.cutoff, 30.0);
  auto const& file = params_at<FilterParams>(c, 7);
  EXPECT_EQ(std::tie(file.response, file.file, file.dataset),
            std::make_tuple("file", "responses.h5", "/gain"));
  EXPECT_EQ(params_at<SinkParams>(c, 8).dtype, "complex128");
}

TEST(Config, DefaultsAreFilledIn) {
  auto const c = parse_config(with(kBaseConfig, "  - fft: {}\n", "  - welch:\n"), "cfg.yaml");
  EXPECT_EQ(c.input.items, "auto");
  EXPECT_EQ(c.input.segment, 0);
  EXPECT_EQ(c.input.rows_per_frame, 0);
  EXPECT_DOUBLE_EQ(c.input.frame_mb, 64.0);
  EXPECT_EQ(c.input.on_nonfinite, "error");
  EXPECT_DOUBLE_EQ(c.input.sample_rate, 0.0);
  EXPECT_DOUBLE_EQ(c.input.scale, 1.0);
  EXPECT_FALSE(c.output.overwrite);
  EXPECT_EQ(c.run.device, Device::kAuto);
  EXPECT_EQ(c.run.backend, "auto");
  EXPECT_EQ(c.run.precision, "fp32");
  EXPECT_TRUE(c.run.fuse);
  auto const& welch = params_at<WelchParams>(c, 0);  // options null: all defaults
  EXPECT_EQ(welch.segment, 256);
  EXPECT_EQ(welch.overlap, 128);  // -1 (segment / 2) is resolved
  EXPECT_EQ(std::tie(welch.window, welch.average, welch.scaling, welch.detrend, welch.onesided,
                     welch.report_peaks),
            std::make_tuple("hann", "mean", "density", "constant", true, 0));
  auto const& filter = params_at<FilterParams>(c, 1);
  EXPECT_EQ(std::tie(filter.type, filter.response, filter.order),
            std::make_tuple("lowpass", "butterworth", 4));
  EXPECT_EQ(params_at<SinkParams>(c, 2).dtype, "auto");
  for (char const* line : {"frame_mb: 64", "overwrite: false", "device: auto", "overlap: 128",
                           "window: hann", "order: 4", "dtype: auto", "precision: fp32",
                           "fuse: true"}) {
    EXPECT_NE(c.effective_yaml.find(line), std::string::npos) << line << " in\n"
                                                              << c.effective_yaml;
  }
}

TEST(Config, StageDefaultsFromNullOrEmptyMaps) {
  auto const c =
      parse_config(with(kBaseConfig, "  - fft: {}\n", "  - fft:\n  - ifft: {}\n"), "cfg.yaml");
  auto const& fft = params_at<FftParams>(c, 0);
  EXPECT_EQ(std::tie(fft.axes, fft.window, fft.onesided, fft.norm),
            std::make_tuple("all", "none", true, Norm::kBackward));
  EXPECT_DOUBLE_EQ(fft.tukey_alpha, 0.5);
  EXPECT_EQ(params_at<IfftParams>(c, 1).norm, Norm::kBackward);
}

TEST(Config, OverlapForms) {
  auto overlap_of = [](std::string const& value) {
    auto const c = parse_config(
        with(kBaseConfig, "  - fft: {}\n", "  - welch: {segment: 1000, overlap: " + value + "}\n"),
        "cfg.yaml");
    return std::get<WelchParams>(c.stages[0].params).overlap;
  };
  EXPECT_EQ(overlap_of("0"), 0);
  EXPECT_EQ(overlap_of("999"), 999);
  EXPECT_EQ(overlap_of("-1"), 500);
  EXPECT_EQ(overlap_of("50%"), 500);
  EXPECT_EQ(overlap_of("'75%'"), 750);
  EXPECT_EQ(overlap_of("0%"), 0);
}

TEST(Config, EffectiveYamlReadsBackToTheSameConfig) {
  for (auto const& text : {kFullConfig, kBaseConfig}) {
    auto const first = parse_config(text, "a.yaml");
    auto const second = parse_config(first.effective_yaml, "effective.yaml");
    expect_same(first, second);
    EXPECT_EQ(first.effective_yaml, second.effective_yaml);
  }
}

TEST(Config, EffectiveYamlKeepsSchemaOrderAndQuotesNullLikeStrings) {
  auto const c = parse_config(with(kBaseConfig, "dataset: /y", "dataset: 'null'"), "cfg.yaml");
  auto const& y = c.effective_yaml;
  auto const input = y.find("input:");
  auto const output = y.find("output:");
  auto const run = y.find("run:");
  auto const stages = y.find("stages:");
  EXPECT_TRUE(input < output && output < run && run < stages) << y;
  EXPECT_LT(y.find("path: in.h5"), y.find("dataset: /x"));
  auto const again = parse_config(y, "effective.yaml");
  EXPECT_EQ(std::get<SinkParams>(again.stages[2].params).dataset, "null");
}

TEST(ClosestKey, SuggestsNearWordsOnly) {
  std::vector<std::string> const keys{"type", "response", "cutoff", "low", "high", "order"};
  EXPECT_EQ(closest_key("cuttoff", keys), "cutoff");
  EXPECT_EQ(closest_key("cutof", keys), "cutoff");
  EXPECT_EQ(closest_key("responce", keys), "response");
  EXPECT_EQ(closest_key("hihg", keys), "high");  // a transposition is two edits
  EXPECT_EQ(closest_key("order", keys), "order");
  EXPECT_EQ(closest_key("frequency", keys), "");
  EXPECT_EQ(closest_key("x", {"db"}), "");  // nothing in common is no suggestion
  EXPECT_EQ(closest_key("anything", {}), "");
  EXPECT_EQ(closest_key("fliter", {"fft", "ifft", "filter", "sink"}), "filter");
  EXPECT_EQ(closest_key("iff", {"fft", "ifft"}), "ifft");
  EXPECT_EQ(closest_key("ab", {"ac", "ad"}), "ac");  // ties: the first candidate
  // Longer words allow len/3 edits: 12 letters -> 4.
  EXPECT_EQ(closest_key("rowsperframe", {"rows_per_frame"}), "rows_per_frame");
}

class ConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() /
        ("tcfft_config_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(std::string const& name, std::string const& text) {
    auto const path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(ConfigFile, LoadsAndNamesTheFileInMessages) {
  auto const good = write("good.yaml", kBaseConfig);
  EXPECT_EQ(app::load_config(good).source_file, good);
  auto const bad = write("bad.yaml", with(kBaseConfig, "cutoff: 100", "cutoff: abc"));
  try {
    (void)app::load_config(bad);
    ADD_FAILURE() << "no error";
  } catch (ConfigError const& e) {
    expect_contains(e.what(),
                    {"bad.yaml:9: stages[1].filter.cutoff: expected a number, got 'abc'"});
  }
}

TEST_F(ConfigFile, MissingFileAndDirectoryAreConfigErrors) {
  auto const missing = (dir_ / "missing.yaml").string();
  try {
    (void)app::load_config(missing);
    ADD_FAILURE() << "no error";
  } catch (ConfigError const& e) {
    expect_contains(e.what(), {"missing.yaml", "cannot open"});
  }
  EXPECT_THROW((void)app::load_config(dir_.string()), ConfigError);
}

TEST(ConfigsDirectory, EveryExampleConfigParses) {
  auto const dir = std::filesystem::path(TCFFT_SOURCE_DIR) / "configs";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no directory " << dir;
  int count = 0;
  for (auto const& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().string());
    ++count;
    EXPECT_NO_THROW({
      try {
        auto const c = app::load_config(entry.path().string());
        (void)parse_config(c.effective_yaml, "effective.yaml");
      } catch (ConfigError const& e) {
        ADD_FAILURE() << e.what();
      }
    });
  }
  if (count == 0) GTEST_SKIP() << "no configs found in " << dir;
}

}  // namespace
}  // namespace tcfft::testing
