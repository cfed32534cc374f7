// SPDX-License-Identifier: MIT
// Every file in configs/ passes --validate (with its input made by tcfft-datagen when it lives in
// data/, skipped with the reason when it needs ../shared/data and that is absent), and the main
// job (configs/default.yaml) runs on the CPU path and finds the tones of the default input.
#include "app/cli_harness.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace tcfft::testing {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> config_files() {
  std::vector<fs::path> files;
  for (auto const& e : fs::directory_iterator(fs::path(TCFFT_SOURCE_DIR) / "configs")) {
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Input file a config reads, as written in it ("" if not found).
std::string input_path_of(fs::path const& config) {
  std::ifstream in(config);
  std::string line;
  bool in_input = false;
  while (std::getline(in, line)) {
    if (line.rfind("input:", 0) == 0) in_input = true;
    auto const pos = line.find("path:");
    if (in_input && pos != std::string::npos) {
      auto value = line.substr(pos + 5);
      value.erase(0, value.find_first_not_of(' '));
      return value.substr(0, value.find_first_of(" #"));
    }
  }
  return {};
}

std::string datagen(std::string const& args) {
  return "'" + std::string(TCFFT_DATAGEN_PATH) + "' " + args;
}

TEST(Configs, EveryConfigValidates) {
  auto const files = config_files();
  ASSERT_FALSE(files.empty()) << "no configs/*.yaml found";
  ScratchDir dir;
  for (auto const& config : files) {
    SCOPED_TRACE(config.string());
    std::string const input = input_path_of(config);
    ASSERT_FALSE(input.empty()) << "no input.path in " << config;
    std::string args = "'" + config.string() + "' --validate --device cpu --set output.path=" +
                       dir.file(config.stem().string() + ".h5");
    if (input.rfind("../shared/", 0) == 0) {
      if (!fs::exists(fs::path(TCFFT_SOURCE_DIR) / input)) {
        std::cout << "[ SKIPPED  ] " << config.filename() << ": needs " << input << "\n";
        continue;
      }
    } else if (input == "data/default_input.h5") {
      auto const made = run_command(datagen("tones --force --seconds 4 --out " +
                                            dir.file("tones.h5")));
      ASSERT_EQ(made.exit_code, 0) << made.output;
      args += " --set input.path=" + dir.file("tones.h5");
    } else if (input == "data/images.h5") {
      auto const made = run_command(datagen("images --force --count 3 --ny 32 --nx 64 --out " +
                                            dir.file("images.h5")));
      ASSERT_EQ(made.exit_code, 0) << made.output;
      args += " --set input.path=" + dir.file("images.h5");
    } else {
      FAIL() << "test does not know how to make input " << input << " of " << config;
    }
    auto const r = run_app(args, TCFFT_SOURCE_DIR);
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
}

TEST(Configs, MainJobFindsTheTonesInTheDefaultInput) {
  ScratchDir dir;
  auto const made = run_command(datagen("tones --out " + dir.file("tones.h5")));
  ASSERT_EQ(made.exit_code, 0) << made.output;
  auto const r = run_app(std::string("configs/default.yaml --device cpu --set input.path=") +
                             dir.file("tones.h5") + " --set output.path=" + dir.file("r.h5"),
                         TCFFT_SOURCE_DIR);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (char const* line : {"60.0", "120.0", "440.0"}) {
    EXPECT_NE(r.output.find(line), std::string::npos) << line << " Hz not reported:\n"
                                                      << r.output;
  }
  EXPECT_EQ(r.output.find("1234.5 Hz"), std::string::npos) << "out-of-band tone reported";
  std::vector<hsize_t> dims;
  auto const filtered = read_h5_doubles(dir.file("r.h5"), "/filtered", &dims);
  ASSERT_EQ(dims.size(), 1u);
  EXPECT_EQ(dims[0], 64u * 4096u);
  auto const psd = read_h5_doubles(dir.file("r.h5"), "/psd");
  EXPECT_EQ(psd.size(), 2049u);
}

}  // namespace
}  // namespace tcfft::testing
