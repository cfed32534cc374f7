// SPDX-License-Identifier: MIT
// End-to-end runs of tcfft-pipeline on the CPU path: results checked in the output file, and
// every kind of bad input giving its message, its exit code and no output file.
#include "app/cli_harness.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

namespace tcfft::testing {
namespace {

std::string config_text(std::string const& input, std::string const& dataset,
                        std::string const& output, std::string const& stages,
                        std::string const& extra_input = "") {
  return "input:\n  path: " + input + "\n  dataset: " + dataset + "\n" + extra_input +
         "output:\n  path: " + output + "\nrun:\n  device: cpu\nstages:\n" + stages;
}

constexpr char kRoundTripStages[] =
    "  - fft: {}\n  - ifft: {}\n  - sink:\n      dataset: y\n      dtype: float64\n";

bool no_output_left(ScratchDir const& dir, std::string const& output_name) {
  for (auto const& name : dir.entries()) {
    if (name == output_name || name.find(".partial-") != std::string::npos) return false;
  }
  return true;
}

TEST(Cli, FftIfftRoundTripReturnsTheInput) {
  ScratchDir dir;
  auto const x = random_samples(5000);  // not a power of two: FFTW path
  write_h5_doubles(dir.file("in.h5"), "/x", {x.size()}, x, 1.0 / 1000.0);
  dir.write_text("c.yaml", config_text("in.h5", "/x", "out.h5", kRoundTripStages));
  auto const r = run_app("c.yaml --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<hsize_t> dims;
  auto const y = read_h5_doubles(dir.file("out.h5"), "/y", &dims);
  ASSERT_EQ(dims, std::vector<hsize_t>{x.size()});
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    err += (y[i] - x[i]) * (y[i] - x[i]);
    norm += x[i] * x[i];
  }
  ASSERT_GT(norm, 0.0);
  EXPECT_LT(std::sqrt(err / norm), 1e-13);
  EXPECT_NE(r.output.find("output: out.h5"), std::string::npos) << r.output;
}

TEST(Cli, WelchFindsTheTonesAndStoresTheFrequencyAxis) {
  ScratchDir dir;
  double const fs = 1024.0;
  auto x = random_samples(1 << 15);
  for (std::size_t i = 0; i < x.size(); ++i) {
    double const t = static_cast<double>(i) / fs;
    x[i] = 0.1 * x[i] + std::sin(2 * std::numbers::pi * 50.0 * t) +
           0.5 * std::sin(2 * std::numbers::pi * 200.0 * t);
  }
  write_h5_doubles(dir.file("in.h5"), "/strain", {x.size()}, x, 1.0 / fs);
  dir.write_text("c.yaml", config_text("in.h5", "/strain", "psd.h5",
                                       "  - welch:\n      segment: 1024\n      report_peaks: 2\n"
                                       "  - sink: {dataset: psd}\n"));
  auto const r = run_app("c.yaml", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto const psd = read_h5_doubles(dir.file("psd.h5"), "/psd");
  ASSERT_EQ(psd.size(), 513u);
  std::size_t peak = 0;
  for (std::size_t k = 1; k < psd.size(); ++k) {
    if (psd[k] > psd[peak]) peak = k;
  }
  EXPECT_EQ(peak, 50u);  // 1 Hz bins
  EXPECT_NE(r.output.find("50.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("200.0"), std::string::npos) << r.output;
  auto const r2 = run_command("h5dump -A '" + dir.file("psd.h5") + "' 2>&1");
  if (r2.exit_code == 0) {  // h5dump is optional; when present the attributes must be there
    EXPECT_NE(r2.output.find("frequency_step"), std::string::npos) << r2.output;
    EXPECT_NE(r2.output.find("config"), std::string::npos);
  }
}

struct BadCase {
  char const* name;
  int exit_code;
  char const* expected_text;
};

class CliBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    auto const x = random_samples(4096);
    write_h5_doubles(dir_.file("in.h5"), "/x", {x.size()}, x, 1.0 / 4096);
    auto bad = x;
    bad[1234] = std::nan("");
    write_h5_doubles(dir_.file("nan.h5"), "/x", {bad.size()}, bad);
    write_h5_doubles(dir_.file("rank4.h5"), "/x", {2, 2, 2, 512}, x);
  }
  CommandResult run(std::string const& yaml, std::string const& args = "") {
    dir_.write_text("c.yaml", yaml);
    return run_app("c.yaml " + args, dir_.path());
  }
  void expect_failure(CommandResult const& r, int code, std::string const& text) {
    EXPECT_EQ(r.exit_code, code) << r.output;
    EXPECT_NE(r.output.find(text), std::string::npos) << "expected '" << text << "' in:\n"
                                                      << r.output;
    EXPECT_TRUE(no_output_left(dir_, "out.h5")) << "an output file was left behind";
  }
  ScratchDir dir_;
};

TEST_F(CliBadInput, MalformedYaml) {
  expect_failure(run("input: [unclosed\n"), 2, "c.yaml");
}

TEST_F(CliBadInput, UnknownKeySuggestsTheClosest) {
  auto const yaml = config_text("in.h5", "/x", "out.h5", kRoundTripStages) + "outptu: 1\n";
  expect_failure(run(yaml), 2, "output");
}

TEST_F(CliBadInput, WrongType) {
  expect_failure(run(config_text("in.h5", "/x", "out.h5",
                                 "  - welch: {segment: long}\n  - sink: {dataset: p}\n")),
                 2, "segment");
}

TEST_F(CliBadInput, MissingInputFile) {
  expect_failure(run(config_text("nope.h5", "/x", "out.h5", kRoundTripStages)), 3, "nope.h5");
}

TEST_F(CliBadInput, MissingDataset) {
  expect_failure(run(config_text("in.h5", "/missing", "out.h5", kRoundTripStages)), 3,
                 "/missing");
}

TEST_F(CliBadInput, WrongRank) {
  expect_failure(run(config_text("rank4.h5", "/x", "out.h5", kRoundTripStages)), 3, "rank");
}

TEST_F(CliBadInput, NanReportsThePosition) {
  expect_failure(run(config_text("nan.h5", "/x", "out.h5", kRoundTripStages)), 3, "1234");
}

TEST_F(CliBadInput, NanReplacedWhenConfigured) {
  auto const r = run(config_text("nan.h5", "/x", "out.h5", kRoundTripStages,
                                 "  on_nonfinite: zero\n"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 non-finite"), std::string::npos) << r.output;
  auto const y = read_h5_doubles(dir_.file("out.h5"), "/y");
  ASSERT_EQ(y.size(), 4096u);
  EXPECT_NEAR(y[1234], 0.0, 1e-12);
}

TEST_F(CliBadInput, UnwritableOutputDirectory) {
  expect_failure(run(config_text("in.h5", "/x", "no/such/dir/out.h5", kRoundTripStages)), 4,
                 "no/such/dir");
}

TEST_F(CliBadInput, ExistingOutputIsKeptUnlessOverwrite) {
  dir_.write_text("out.h5", "precious");
  auto const r = run(config_text("in.h5", "/x", "out.h5", kRoundTripStages));
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_NE(r.output.find("exists"), std::string::npos) << r.output;
  std::ifstream in(dir_.file("out.h5"));
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "precious");
  auto const again = run_app("c.yaml --set output.overwrite=true --quiet", dir_.path());
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_h5_doubles(dir_.file("out.h5"), "/y").size(), 4096u);
}

TEST_F(CliBadInput, IncompatibleStagesNameTheStage) {
  expect_failure(run(config_text("in.h5", "/x", "out.h5",
                                 "  - ifft: {}\n  - sink: {dataset: y}\n")),
                 2, "stages[0]");
}

TEST_F(CliBadInput, ValidateWritesNothing) {
  auto const r = run(config_text("in.h5", "/x", "out.h5", kRoundTripStages), "--validate");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("valid"), std::string::npos);
  EXPECT_TRUE(no_output_left(dir_, "out.h5"));
}

TEST_F(CliBadInput, SetOverrideIsValidated) {
  expect_failure(run(config_text("in.h5", "/x", "out.h5", kRoundTripStages),
                     "--set stages.0.fft.windw=hann"),
                 2, "window");
}

TEST(CliFlags, VersionHelpAndBadFlag) {
  EXPECT_EQ(run_app("--version").exit_code, 0);
  auto const help = run_app("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--validate"), std::string::npos);
  EXPECT_EQ(run_app("x.yaml --no-such-flag").exit_code, 2);
  EXPECT_EQ(run_app("").exit_code, 2);
  EXPECT_EQ(run_app("x.yaml --device tpu").exit_code, 2);
}

}  // namespace
}  // namespace tcfft::testing
