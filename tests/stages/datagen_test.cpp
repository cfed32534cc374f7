// SPDX-License-Identifier: MIT
// tcfft-datagen's files read back through H5Source: the default input (tones), image stacks,
// series of every dtype, the injected NaN, and the refusal to overwrite without --force.
#include <tcfft/io/h5_source.hpp>

#include <tcfft/core/error.hpp>

#include "stages/h5_test_support.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace tcfft::io {
namespace {

using test::contains;
using test::TempDir;

/// Runs tcfft-datagen with `args`; its exit status (skips the test when it is not built).
int datagen(std::string const& args) {
  std::string const command =
      std::string("'") + TCFFT_DATAGEN_PATH + "' " + args + " >/dev/null 2>&1";
  int const status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class Datagen : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(TCFFT_DATAGEN_PATH)) {
      GTEST_SKIP() << "tcfft-datagen not built (" << TCFFT_DATAGEN_PATH << ")";
    }
  }
  TempDir dir_;
};

TEST_F(Datagen, TonesIsTheDefaultInputLayout) {
  auto const path = dir_.file("tones.h5");
  ASSERT_EQ(datagen("tones --seconds 2 --out " + path), 0);
  {
    SourceParams p;
    p.path = path;
    p.dataset = "/signal";
    H5Source source(p);
    EXPECT_EQ(source.dtype_name(), "float32");
    EXPECT_EQ(source.dataset_shape(), (std::vector<std::int64_t>{8192}));
    EXPECT_DOUBLE_EQ(source.spec().sample_rate, 4096.0);
  }
  EXPECT_EQ(test::read_text(path, "/", "kind"), "tones");
  EXPECT_EQ(test::read_number(path, "/", "seed"), 1.0);
  EXPECT_NE(datagen("tones --seconds 2 --out " + path), 0);  // exists, no --force
  EXPECT_EQ(datagen("tones --seconds 2 --force --seed 7 --out " + path), 0);
  EXPECT_EQ(test::read_number(path, "/", "seed"), 7.0);
}

TEST_F(Datagen, ImagesAndSeriesOfEveryDtype) {
  auto const images = dir_.file("images.h5");
  ASSERT_EQ(datagen("images --count 3 --ny 16 --nx 32 --out " + images), 0);
  SourceParams p;
  p.path = images;
  p.dataset = "/images";
  EXPECT_EQ(H5Source(p).spec().shape, (std::vector<std::int64_t>{16, 32}));
  for (char const* dtype : {"int16", "uint16", "float32", "float64", "complex64", "complex128"}) {
    auto const path = dir_.file(std::string(dtype) + ".h5");
    ASSERT_EQ(datagen(std::string("series --n 50 --dtype ") + dtype + " --out " + path), 0);
    p.path = path;
    p.dataset = "/series";
    H5Source source(p);
    EXPECT_EQ(source.dtype_name(), dtype);
    Frame frame;
    EXPECT_TRUE(source.read(frame));
  }
  auto const nan = dir_.file("nan.h5");
  ASSERT_EQ(datagen("series --n 50 --dtype float32 --nan-at 17 --out " + nan), 0);
  p.path = nan;
  H5Source source(p);
  Frame frame;
  EXPECT_TRUE(
      contains(test::error_of<InputError>([&] { source.read(frame); }), "sample [17] is NaN"));
}

}  // namespace
}  // namespace tcfft::io
