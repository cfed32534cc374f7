// SPDX-License-Identifier: MIT
// H5Source: dtype round trips (files written with the HDF5 C API), item layouts, frame bounds,
// sample rate / units / scale, every input error, non-finite handling, and the real LIGO and
// tomography files from shared/data.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <tcfft/core/error.hpp>
#include <tcfft/io/h5_source.hpp>
#include <vector>

#include "stages/h5_test_support.hpp"

namespace tcfft::io {
namespace {

using test::source_params;
using test::TempDir;

/// Reads every frame; checks the frame bookkeeping and returns the concatenated samples.
std::vector<double> read_all(H5Source& source, std::vector<std::int64_t>* frame_rows = nullptr) {
  std::vector<double> all;
  Frame frame;
  std::int64_t expected_first = 0;
  std::int64_t index = 0;
  while (source.read(frame)) {
    EXPECT_EQ(frame.index, index++);
    EXPECT_EQ(frame.first_row, expected_first);
    EXPECT_LE(frame.rows, source.spec().rows_per_frame);
    expected_first += frame.rows;
    if (frame_rows != nullptr) frame_rows->push_back(frame.rows);
    auto const n = static_cast<std::size_t>(frame.rows * source.spec().item_size());
    EXPECT_EQ(frame.real.size(), n);
    all.insert(all.end(), frame.real.begin(), frame.real.begin() + static_cast<long>(n));
  }
  EXPECT_EQ(expected_first, source.spec().total_rows);
  return all;
}

template <class T>
void check_integer_round_trip(hid_t file_type, hid_t memory_type, std::string const& name) {
  TempDir dir;
  auto const path = dir.file("ints.h5");
  std::vector<T> values = {std::numeric_limits<T>::min(),
                           std::numeric_limits<T>::max(),
                           0,
                           1,
                           static_cast<T>(42),
                           static_cast<T>(100)};
  if constexpr (sizeof(T) == 8) {  // doubles hold integers exactly up to 2^53
    values[0] = std::is_signed_v<T> ? static_cast<T>(-(std::int64_t{1} << 53)) : T{0};
    values[1] = static_cast<T>(std::int64_t{1} << 53);
  }
  test::write_dataset(path, "/x", file_type, {values.size()}, memory_type, values.data());
  H5Source source(source_params(path, "/x"));
  EXPECT_EQ(source.dtype_name(), name);
  EXPECT_EQ(source.spec().type, SampleType::kReal);
  auto const got = read_all(source);
  ASSERT_EQ(got.size(), values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    EXPECT_EQ(got[k], static_cast<double>(values[k])) << name << " [" << k << "]";
  }
  EXPECT_EQ(source.bytes_read(), static_cast<std::int64_t>(values.size() * sizeof(T)));
}

TEST(H5Source, IntegerDtypesRoundTripExactly) {
  check_integer_round_trip<std::int8_t>(H5T_STD_I8LE, H5T_NATIVE_INT8, "int8");
  check_integer_round_trip<std::int16_t>(H5T_STD_I16LE, H5T_NATIVE_INT16, "int16");
  check_integer_round_trip<std::int16_t>(H5T_STD_I16BE, H5T_NATIVE_INT16, "int16");
  check_integer_round_trip<std::int32_t>(H5T_STD_I32LE, H5T_NATIVE_INT32, "int32");
  check_integer_round_trip<std::int64_t>(H5T_STD_I64LE, H5T_NATIVE_INT64, "int64");
  check_integer_round_trip<std::uint8_t>(H5T_STD_U8LE, H5T_NATIVE_UINT8, "uint8");
  check_integer_round_trip<std::uint16_t>(H5T_STD_U16LE, H5T_NATIVE_UINT16, "uint16");
  check_integer_round_trip<std::uint32_t>(H5T_STD_U32LE, H5T_NATIVE_UINT32, "uint32");
  check_integer_round_trip<std::uint64_t>(H5T_STD_U64LE, H5T_NATIVE_UINT64, "uint64");
}

TEST(H5Source, FloatDtypesRoundTripExactly) {
  TempDir dir;
  auto const path = dir.file("floats.h5");
  std::vector<float> const f32 = {1.5f, -2.25f, 3.0e-30f, 3.4e38f, 0.1f};
  std::vector<double> const f64 = {1.5, -2.25, 1e-300, 1.7e308, 0.1};
  test::write_dataset(path, "/f32", H5T_IEEE_F32LE, {5}, H5T_NATIVE_FLOAT, f32.data());
  test::write_dataset(path, "/f64", H5T_IEEE_F64BE, {5}, H5T_NATIVE_DOUBLE, f64.data());
  H5Source s32(source_params(path, "/f32"));
  H5Source s64(source_params(path, "f64"));  // a leading '/' is optional
  EXPECT_EQ(s32.dtype_name(), "float32");
  EXPECT_EQ(s64.dtype_name(), "float64");
  auto const got32 = read_all(s32);
  auto const got64 = read_all(s64);
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(got32[k], static_cast<double>(f32[k]));
    EXPECT_EQ(got64[k], f64[k]);
  }
}

TEST(H5Source, ComplexCompoundAsH5pyWritesIt) {
  TempDir dir;
  auto const path = dir.file("complex.h5");
  std::vector<std::complex<float>> const c64 = {{1.f, -1.f}, {0.5f, 2.f}, {-3.f, 0.f}};
  std::vector<std::complex<double>> const c128 = {{1e-20, 3.0}, {-0.1, 0.2}, {7.0, -8.0}};
  test::TypeId const file64(test::make_h5py_complex(H5T_IEEE_F32LE));
  test::TypeId const mem64(test::make_h5py_complex(H5T_NATIVE_FLOAT));
  test::TypeId const file128(test::make_h5py_complex(H5T_IEEE_F64LE));
  test::TypeId const mem128(test::make_h5py_complex(H5T_NATIVE_DOUBLE));
  test::write_dataset(path, "/c64", file64, {3}, mem64, c64.data());
  test::write_dataset(path, "/c128", file128, {1, 3}, mem128, c128.data());

  H5Source s64(source_params(path, "/c64"));
  EXPECT_EQ(s64.dtype_name(), "complex64");
  EXPECT_EQ(s64.spec().type, SampleType::kComplex);
  Frame frame;
  ASSERT_TRUE(s64.read(frame));
  ASSERT_EQ(frame.complex.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(frame.complex[k], std::complex<double>(c64[k].real(), c64[k].imag()));
  }
  H5Source s128(source_params(path, "/c128"));
  EXPECT_EQ(s128.dtype_name(), "complex128");
  ASSERT_TRUE(s128.read(frame));
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(frame.complex[k], c128[k]);
  EXPECT_FALSE(s128.read(frame));
}

TEST(H5Source, SeriesSegmentsWithZeroPaddedFinalItem) {
  TempDir dir;
  auto const path = dir.file("series.h5");
  std::vector<double> data(10);
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = static_cast<double>(k + 1);
  test::write_doubles(path, "/s", {10}, data);
  auto p = source_params(path, "/s");
  p.segment = 4;
  p.rows_per_frame = 2;
  H5Source source(p);
  auto const& spec = source.spec();
  EXPECT_EQ(spec.shape, (std::vector<std::int64_t>{4}));
  EXPECT_EQ(spec.total_rows, 3);
  EXPECT_EQ(spec.rows_per_frame, 2);
  EXPECT_EQ(spec.valid_length, 2);
  EXPECT_EQ(spec.series_length, 10);
  EXPECT_EQ(spec.time_length, 4);
  EXPECT_EQ(spec.domain, Domain::kTime);
  std::vector<std::int64_t> rows;
  auto const got = read_all(source, &rows);
  EXPECT_EQ(rows, (std::vector<std::int64_t>{2, 1}));
  EXPECT_EQ(got, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0}));

  source.rewind();
  EXPECT_EQ(read_all(source), got);

  p.segment = 0;  // the whole series is one item
  H5Source whole(p);
  EXPECT_EQ(whole.spec().total_rows, 1);
  EXPECT_EQ(whole.spec().valid_length, 10);
  EXPECT_EQ(read_all(whole), data);
}

TEST(H5Source, RowsOf2DAnd3DDatasets) {
  TempDir dir;
  auto const path = dir.file("rows.h5");
  std::vector<double> data(3 * 4 * 5);
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = static_cast<double>(k);
  test::write_doubles(path, "/two", {12, 5}, data);
  test::write_doubles(path, "/three", {3, 4, 5}, data);
  for (char const* name : {"/two", "/three"}) {
    auto p = source_params(path, name);
    p.items = "rows";      // auto would read the 3-D dataset as images
    p.rows_per_frame = 5;  // frames start and end inside a plane of the 3-D dataset
    H5Source source(p);
    EXPECT_EQ(source.spec().shape, (std::vector<std::int64_t>{5})) << name;
    EXPECT_EQ(source.spec().total_rows, 12) << name;
    EXPECT_EQ(source.spec().time_rows, 0) << name;
    std::vector<std::int64_t> rows;
    EXPECT_EQ(read_all(source, &rows), data) << name;
    EXPECT_EQ(rows, (std::vector<std::int64_t>{5, 5, 2})) << name;
  }
}

TEST(H5Source, ImagesOf3DAnd2DDatasets) {
  TempDir dir;
  auto const path = dir.file("images.h5");
  std::vector<double> data(4 * 3 * 5);
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = 0.5 * static_cast<double>(k);
  test::write_doubles(path, "/stack", {4, 3, 5}, data);
  test::write_doubles(path, "/one", {12, 5}, data);
  auto p = source_params(path, "/stack");
  p.rows_per_frame = 3;
  H5Source stack(p);
  EXPECT_EQ(stack.spec().shape, (std::vector<std::int64_t>{3, 5}));
  EXPECT_EQ(stack.spec().total_rows, 4);
  EXPECT_EQ(stack.spec().time_length, 5);
  EXPECT_EQ(stack.spec().time_rows, 3);
  EXPECT_EQ(stack.spec().series_length, 0);
  std::vector<std::int64_t> rows;
  EXPECT_EQ(read_all(stack, &rows), data);
  EXPECT_EQ(rows, (std::vector<std::int64_t>{3, 1}));

  auto q = source_params(path, "/one");
  q.items = "images";
  H5Source one(q);
  EXPECT_EQ(one.spec().shape, (std::vector<std::int64_t>{12, 5}));
  EXPECT_EQ(one.spec().total_rows, 1);
  EXPECT_EQ(read_all(one), data);
}

TEST(H5Source, FramesBoundedByFrameMb) {
  TempDir dir;
  auto const path = dir.file("big.h5");
  std::vector<double> data(1000 * 256);
  for (std::size_t k = 0; k < data.size(); ++k) data[k] = std::sin(0.001 * static_cast<double>(k));
  test::write_doubles(path, "/rows", {1000, 256}, data);  // 2 MB
  auto p = source_params(path, "/rows");
  p.frame_mb = 0.5;  // 0.5 MiB / (256 * 8 B) = 256 rows per frame
  H5Source source(p);
  EXPECT_EQ(source.spec().rows_per_frame, 256);
  EXPECT_EQ(source.spec().frames(), 4);
  std::vector<std::int64_t> rows;
  EXPECT_EQ(read_all(source, &rows), data);
  EXPECT_EQ(rows, (std::vector<std::int64_t>{256, 256, 256, 232}));

  p.frame_mb = 1e-6;  // smaller than one item: still one item per frame
  H5Source tiny(p);
  EXPECT_EQ(tiny.spec().rows_per_frame, 1);
  p.frame_mb = 1e6;  // never more than the whole dataset
  H5Source huge(p);
  EXPECT_EQ(huge.spec().rows_per_frame, 1000);
}

TEST(H5Source, SampleRateUnitsAndScale) {
  TempDir dir;
  auto const path = dir.file("rate.h5");
  std::vector<float> const data = {1.f, 2.f, -3.f, 4.f};
  test::write_dataset(path, "/with", H5T_IEEE_F32LE, {4}, H5T_NATIVE_FLOAT, data.data(), 1.0 / 4096,
                      "strain");
  test::write_dataset(path, "/without", H5T_IEEE_F32LE, {4}, H5T_NATIVE_FLOAT, data.data());
  auto p = source_params(path, "/with");
  p.scale = 0.5;
  H5Source with(p);
  EXPECT_DOUBLE_EQ(with.spec().sample_rate, 4096.0);
  EXPECT_EQ(with.spec().units, "strain");
  EXPECT_EQ(read_all(with), (std::vector<double>{0.5, 1.0, -1.5, 2.0}));
  EXPECT_NE(with.describe().find("4096 Hz"), std::string::npos) << with.describe();
  p.sample_rate = 100.0;  // the configuration wins over the file
  EXPECT_DOUBLE_EQ(H5Source(p).spec().sample_rate, 100.0);
  H5Source without(source_params(path, "/without"));
  EXPECT_DOUBLE_EQ(without.spec().sample_rate, 1.0);
  EXPECT_EQ(without.spec().units, "");
}

}  // namespace
}  // namespace tcfft::io
