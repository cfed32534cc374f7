// SPDX-License-Identifier: MIT
// H5Source failure modes (each message names the file, dataset and value), non-finite samples
// (position of the first one, or replacement with on_nonfinite: zero), and the real files of
// shared/data (LIGO strain, Data Exchange tomography).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <fstream>
#include <limits>
#include <string>
#include <tcfft/core/error.hpp>
#include <tcfft/io/h5_source.hpp>
#include <vector>

#include "stages/h5_test_support.hpp"

namespace tcfft::io {
namespace {

using test::contains;
using test::error_of;
using test::source_params;
using test::TempDir;

std::string input_error(SourceParams const& p) {
  return error_of<InputError>([&] { H5Source source(p); });
}

/// Reads every frame (for the non-finite checks that happen while reading).
void drain(H5Source& source) {
  Frame frame;
  while (source.read(frame)) {
  }
}

TEST(H5SourceErrors, MissingFileAndNotHdf5) {
  TempDir dir;
  auto const missing = dir.file("missing.h5");
  EXPECT_TRUE(
      contains(input_error(source_params(missing, "/x")), "'" + missing + "' does not exist"));
  auto const text = dir.file("notes.h5");
  std::ofstream(text) << "not hdf5\n";
  EXPECT_TRUE(
      contains(input_error(source_params(text, "/x")), "'" + text + "' is not an HDF5 file"));
  EXPECT_TRUE(contains(input_error(source_params(dir.path().string(), "/x")), "is a directory"));
}

TEST(H5SourceErrors, MissingDatasetListsWhatIsThere) {
  TempDir dir;
  auto const path = dir.file("f.h5");
  test::write_doubles(path, "/strain/Strain", {4}, {1, 2, 3, 4});
  auto const message = input_error(source_params(path, "/strain/Stran"));
  EXPECT_TRUE(contains(message, path + ":/strain/Stran: dataset not found"));
  EXPECT_TRUE(contains(message, "/strain/Strain"));
  EXPECT_TRUE(contains(input_error(source_params(path, "/nothere/x")), "dataset not found"));
  auto const group = input_error(source_params(path, "/strain"));
  EXPECT_TRUE(contains(group, path + ":/strain: is a group, not a dataset"));
  EXPECT_TRUE(contains(group, "/Strain"));
}

TEST(H5SourceErrors, UnsupportedDtypesRankAndShape) {
  TempDir dir;
  auto const path = dir.file("f.h5");
  {
    test::TypeId const str(H5Tcopy(H5T_C_S1));
    H5Tset_size(str, 8);
    char const text[16] = "abcdefghabcdefg";
    test::write_dataset(path, "/text", str, {2}, str, text);
  }
  auto const message = input_error(source_params(path, "/text"));
  EXPECT_TRUE(contains(message, path + ":/text: unsupported dtype string"));
  {
    test::TypeId const odd(H5Tcreate(H5T_COMPOUND, 16));
    H5Tinsert(odd, "a", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(odd, "b", 8, H5T_NATIVE_DOUBLE);
    test::write_dataset(path, "/odd", odd, {2}, odd, nullptr);
  }
  EXPECT_TRUE(
      contains(input_error(source_params(path, "/odd")), "unsupported dtype compound {a, b}"));

  test::write_doubles(path, "/rank4", {2, 2, 2, 2}, std::vector<double>(16, 1.0));
  EXPECT_TRUE(contains(input_error(source_params(path, "/rank4")),
                       path + ":/rank4: dataset has rank 4 [2, 2, 2, 2]"));
  {
    test::FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    test::SpaceId const scalar(H5Screate(H5S_SCALAR));
    test::DatasetId const ds(
        H5Dcreate2(file, "/scalar", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  }
  EXPECT_TRUE(contains(input_error(source_params(path, "/scalar")), "is a scalar (rank 0)"));
  test::write_doubles(path, "/empty", {0}, {});
  EXPECT_TRUE(contains(input_error(source_params(path, "/empty")), ":/empty: dataset is empty"));

  test::write_doubles(path, "/short", {100}, std::vector<double>(100, 1.0));
  auto p = source_params(path, "/short");
  p.segment = 128;
  EXPECT_TRUE(
      contains(input_error(p), "input.segment 128 is longer than the series (100 samples)"));
  p.segment = 0;
  p.items = "images";
  EXPECT_TRUE(contains(input_error(p), "items 'images' need a 2-D or 3-D dataset"));
  p.items = "pixels";
  EXPECT_TRUE(contains(error_of<ConfigError>([&] { H5Source s(p); }), "input.items 'pixels'"));
  p.items = "auto";
  p.on_nonfinite = "skip";
  EXPECT_TRUE(contains(error_of<ConfigError>([&] { H5Source s(p); }), "input.on_nonfinite 'skip'"));
}

TEST(H5SourceErrors, FirstNonFiniteSampleIsReportedWithItsPosition) {
  TempDir dir;
  auto const path = dir.file("nan.h5");
  std::vector<double> series(20000, 0.25);
  series[12345] = std::numeric_limits<double>::quiet_NaN();
  series[15000] = std::numeric_limits<double>::infinity();
  test::write_doubles(path, "/strain/Strain", {20000}, series);
  std::vector<double> rows(4 * 6, 1.0);
  rows[2 * 6 + 3] = std::numeric_limits<double>::infinity();
  rows[3 * 6 + 0] = -std::numeric_limits<double>::infinity();
  test::write_doubles(path, "/rows", {4, 6}, rows);
  std::vector<std::complex<double>> values(3, {1.0, 1.0});
  values[1] = {2.0, -std::numeric_limits<double>::infinity()};
  test::TypeId const ctype(test::make_h5py_complex(H5T_NATIVE_DOUBLE));
  test::write_dataset(path, "/c", ctype, {3}, ctype, values.data());
  auto p = source_params(path, "/strain/Strain");
  p.segment = 4096;
  p.rows_per_frame = 1;
  H5Source source(p);
  auto const message = error_of<InputError>([&] { drain(source); });
  EXPECT_EQ(message, path +
                         ":/strain/Strain: sample [12345] is NaN (first non-finite value; set "
                         "input.on_nonfinite: zero to replace such samples)");

  H5Source row_source(source_params(path, "/rows"));
  EXPECT_TRUE(contains(error_of<InputError>([&] { drain(row_source); }),
                       ":/rows: sample [2, 3] is +Inf (first non-finite value"));

  H5Source complex_source(source_params(path, "/c"));
  EXPECT_TRUE(contains(error_of<InputError>([&] { drain(complex_source); }),
                       "sample [1] has imaginary part -Inf"));
}

TEST(H5SourceErrors, NonFiniteSamplesReplacedByZeroAndCounted) {
  TempDir dir;
  auto const path = dir.file("nan.h5");
  std::vector<float> data(10, 2.0f);
  data[3] = std::numeric_limits<float>::quiet_NaN();
  data[7] = std::numeric_limits<float>::infinity();
  data[9] = -std::numeric_limits<float>::infinity();
  test::write_dataset(path, "/x", H5T_IEEE_F32LE, {10}, H5T_NATIVE_FLOAT, data.data());
  auto p = source_params(path, "/x");
  p.on_nonfinite = "zero";
  p.segment = 4;
  H5Source source(p);
  std::vector<double> all;
  Frame frame;
  while (source.read(frame)) all.insert(all.end(), frame.real.begin(), frame.real.end());
  EXPECT_EQ(source.nonfinite_replaced(), 3);
  EXPECT_EQ(all, (std::vector<double>{2, 2, 2, 0, 2, 2, 2, 0, 2, 0, 0, 0}));
}

TEST(H5SourceRealData, LigoStrainFromGwosc) {
  auto const path = test::shared_data("gw150914/H-H1_LOSC_4_V2-1126259446-32.hdf5");
  if (path.empty()) GTEST_SKIP() << "shared/data/gw150914 not present (TCFFT_SHARED_DATA_DIR)";
  auto p = source_params(path, "/strain/Strain");
  p.segment = 16384;
  H5Source source(p);
  EXPECT_EQ(source.dtype_name(), "float64");
  EXPECT_EQ(source.dataset_shape(), (std::vector<std::int64_t>{131072}));
  EXPECT_DOUBLE_EQ(source.spec().sample_rate, 4096.0);  // 1 / Xspacing
  EXPECT_EQ(source.spec().units, "Strain");             // Ylabel (Yunits is empty)
  EXPECT_EQ(source.spec().total_rows, 8);
  EXPECT_EQ(source.spec().series_length, 131072);
  Frame frame;
  std::vector<double> all;
  while (source.read(frame)) all.insert(all.end(), frame.real.begin(), frame.real.end());
  ASSERT_EQ(all.size(), 131072u);
  // Values as h5py gives them: f['/strain/Strain'][0], [1], [131071].
  EXPECT_EQ(all[0], 2.177040281449375e-19);
  EXPECT_EQ(all[1], 2.087638998830647e-19);
  EXPECT_EQ(all[131071], 7.5812119511653e-20);
  EXPECT_EQ(source.bytes_read(), 131072 * 8);
  EXPECT_NE(source.describe().find("8 series items of 16384, 4096 Hz"), std::string::npos)
      << source.describe();
}

TEST(H5SourceRealData, ToothProjectionsAsImagesAndRows) {
  auto const path = test::shared_data("medical/tooth.h5");
  if (path.empty()) GTEST_SKIP() << "shared/data/medical/tooth.h5 not present";
  H5Source images(source_params(path, "/exchange/data"));
  EXPECT_EQ(images.dtype_name(), "float32");
  EXPECT_EQ(images.spec().shape, (std::vector<std::int64_t>{2, 640}));
  EXPECT_EQ(images.spec().total_rows, 181);
  EXPECT_EQ(images.spec().units, "counts");
  Frame frame;
  ASSERT_TRUE(images.read(frame));
  EXPECT_EQ(frame.real[0], 26963.25);  // h5py: data[0, 0, 0]

  auto p = source_params(path, "/exchange/data");
  p.items = "rows";
  p.rows_per_frame = 100;
  H5Source rows(p);
  EXPECT_EQ(rows.spec().shape, (std::vector<std::int64_t>{640}));
  EXPECT_EQ(rows.spec().total_rows, 362);
  double last = 0.0;
  while (rows.read(frame)) last = frame.real[static_cast<std::size_t>(frame.rows * 640 - 1)];
  EXPECT_EQ(last, 27192.0);  // h5py: data[180, 1, 639]
}

}  // namespace
}  // namespace tcfft::io
