// SPDX-License-Identifier: MIT
// OutputFile and SinkStage: destination checks, temporary file and atomic commit, dtypes
// (read back with the HDF5 C API), dataset shapes (rows, images, trimmed 1-D series),
// chunking, attributes, and the pass-through sink stage.
#include <tcfft/io/h5_sink.hpp>

#include <tcfft/core/error.hpp>
#include <tcfft/io/h5_source.hpp>
#include <tcfft/stages/sink_stage.hpp>

#include "stages/h5_test_support.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tcfft::io {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::error_of;
using test::TempDir;

OutputParams output_at(std::string const& path, bool overwrite = false) {
  OutputParams p;
  p.path = path;
  p.overwrite = overwrite;
  return p;
}

SinkParams sink(std::string const& dataset, std::string const& dtype = "auto") {
  SinkParams p;
  p.dataset = dataset;
  p.dtype = dtype;
  return p;
}

FrameSpec real_rows(std::int64_t rows, std::int64_t n, std::int64_t per_frame) {
  FrameSpec spec;
  spec.shape = {n};
  spec.total_rows = rows;
  spec.rows_per_frame = per_frame;
  spec.sample_rate = 100.0;
  spec.time_length = n;
  spec.valid_length = n;
  spec.units = "counts";
  return spec;
}

/// A frame of `spec` holding rows [first, first + rows) with sample value = flat index.
Frame frame_of(FrameSpec const& spec, std::int64_t index, std::int64_t first, std::int64_t rows) {
  Frame frame;
  frame.index = index;
  frame.first_row = first;
  frame.resize_for(spec, rows);
  for (std::size_t k = 0; k < frame.real.size(); ++k) {
    frame.real[k] = static_cast<double>(first * spec.item_size()) + static_cast<double>(k);
  }
  for (std::size_t k = 0; k < frame.complex.size(); ++k) {
    frame.complex[k] = {static_cast<double>(k), -0.5 * static_cast<double>(k)};
  }
  return frame;
}

TEST(OutputFile, RefusesExistingFileUnlessOverwrite) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  std::ofstream(path) << "old";
  auto const message = error_of<OutputError>([&] { OutputFile out(output_at(path), "0.1"); });
  EXPECT_EQ(message,
            "output file '" + path + "' exists; set output.overwrite: true or choose another path");
  EXPECT_EQ(fs::file_size(path), 3u);
}

TEST(OutputFile, OverwriteReplacesTheOldFileOnlyAtCommit) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  test::write_doubles(path, "/old", {2}, {1.0, 2.0});
  auto const spec = real_rows(2, 3, 2);
  {
    OutputFile out(output_at(path, true), "0.1");
    out.write(out.add_dataset(sink("/new"), spec), frame_of(spec, 0, 0, 2));
    EXPECT_EQ(test::read_doubles(path, "/old"), (std::vector<double>{1.0, 2.0}));
    EXPECT_TRUE(fs::exists(out.temporary_path()));
    EXPECT_EQ(out.temporary_path(), path + ".partial-" + std::to_string(getpid()));
    out.commit();
    EXPECT_FALSE(fs::exists(out.temporary_path()));
  }
  EXPECT_EQ(test::read_doubles(path, "/new"), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  {
    OutputFile failed(output_at(path, true), "0.1");  // a run that fails before commit
    failed.add_dataset(sink("/other"), spec);
  }
  EXPECT_EQ(test::read_doubles(path, "/new"), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1);
}

TEST(OutputFile, RefusesMissingOrUnwritableDirectory) {
  TempDir dir;
  auto const missing = dir.file("no/such/dir/x.h5");
  EXPECT_TRUE(contains(error_of<OutputError>([&] { OutputFile out(output_at(missing), "0"); }),
                       "'" + dir.file("no/such/dir") + "' of '" + missing + "' does not exist"));
  if (geteuid() == 0) GTEST_SKIP() << "running as root: a chmod 0500 directory stays writable";
  auto const locked = dir.path() / "locked";
  fs::create_directory(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  auto const path = (locked / "x.h5").string();
  EXPECT_TRUE(contains(error_of<OutputError>([&] { OutputFile out(output_at(path), "0"); }),
                       "'" + path + "' is not writable"));
}

TEST(OutputFile, DestructorRemovesTheTemporaryFile) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  std::string temporary;
  {
    OutputFile out(output_at(path), "0.1");
    temporary = out.temporary_path();
    EXPECT_TRUE(fs::exists(temporary));
    EXPECT_FALSE(fs::exists(path));
  }
  EXPECT_FALSE(fs::exists(temporary));
  EXPECT_FALSE(fs::exists(path));
}

TEST(OutputFile, DtypesRoundTrip) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  auto real = real_rows(2, 4, 2);
  auto complex = real;
  complex.type = SampleType::kComplex;
  OutputFile out(output_at(path), "0.1");
  auto const real_frame = frame_of(real, 0, 0, 2);
  auto const complex_frame = frame_of(complex, 0, 0, 2);
  out.write(out.add_dataset(sink("/auto_real"), real), real_frame);
  out.write(out.add_dataset(sink("/f32", "float32"), real), real_frame);
  out.write(out.add_dataset(sink("/widened", "complex64"), real), real_frame);
  out.write(out.add_dataset(sink("/auto_complex"), complex), complex_frame);
  out.write(out.add_dataset(sink("/c64", "complex64"), complex), complex_frame);
  EXPECT_TRUE(
      contains(error_of<ConfigError>([&] { out.add_dataset(sink("/bad", "float32"), complex); }),
               "sink dataset '/bad': dtype 'float32' cannot hold complex data"));
  EXPECT_TRUE(contains(error_of<ConfigError>([&] { out.add_dataset(sink("/bad", "int16"), real); }),
                       "sink dataset '/bad': dtype 'int16' is not one of"));
  EXPECT_TRUE(contains(error_of<ConfigError>([&] { out.add_dataset(sink("/f32"), real); }),
                       "'/f32' is written by two sinks"));
  EXPECT_EQ(out.bytes_written(), 8 * (8 + 4 + 8 + 16 + 8));
  out.commit();

  // The source reads what the sink wrote: dtype names as numpy/h5py know them.
  for (auto const& [name, dtype] :
       std::vector<std::pair<std::string, std::string>>{{"/auto_real", "float64"},
                                                        {"/f32", "float32"},
                                                        {"/widened", "complex64"},
                                                        {"/auto_complex", "complex128"},
                                                        {"/c64", "complex64"}}) {
    SourceParams p;
    p.path = path;
    p.dataset = name;
    EXPECT_EQ(H5Source(p).dtype_name(), dtype) << name;
  }
  EXPECT_EQ(test::read_doubles(path, "/auto_real"), real_frame.real);
  EXPECT_EQ(test::read_doubles(path, "/f32"), real_frame.real);  // small integers: exact
  auto const widened = test::read_complex(path, "/widened");
  for (std::size_t k = 0; k < widened.size(); ++k) {
    EXPECT_EQ(widened[k], std::complex<double>(real_frame.real[k], 0.0));
  }
  EXPECT_EQ(test::read_complex(path, "/auto_complex"), complex_frame.complex);
  EXPECT_EQ(test::read_complex(path, "/c64"), complex_frame.complex);  // halves: exact in f32
}

TEST(OutputFile, StoredDtypeNameIsWhatAddDatasetStores) {
  TempDir dir;
  auto const real = real_rows(2, 4, 2);
  auto complex = real;
  complex.type = SampleType::kComplex;
  OutputFile out(output_at(dir.file("x.h5")), "0.1");
  int count = 0;
  for (FrameSpec const* spec : std::vector<FrameSpec const*>{&real, &complex}) {
    for (std::string const dtype : {"auto", "complex64", "complex128"}) {
      auto const params = sink("/d" + std::to_string(count++), dtype);
      EXPECT_EQ(stored_dtype_name(params, *spec), out.dataset_dtype(out.add_dataset(params, *spec)))
          << dtype;
    }
  }
  EXPECT_EQ(stored_dtype_name(sink("/y", "float32"), real), "float32");
  EXPECT_EQ(stored_dtype_name(sink("/y"), real), "float64");
  EXPECT_TRUE(contains(
      error_of<ConfigError>([&] { (void)stored_dtype_name(sink("/y", "float32"), complex); }),
      "sink dataset '/y': dtype 'float32' cannot hold complex data"));
}

TEST(OutputFile, ShapesGroupsAndAttributes) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  auto rows = real_rows(5, 8, 2);
  auto images = rows;
  images.shape = {3, 4};
  images.time_rows = 3;
  images.time_length = 4;
  auto spectrum = rows;
  spectrum.domain = Domain::kFrequency;
  spectrum.onesided = true;
  spectrum.shape = {5};
  spectrum.time_length = 8;
  {
    OutputFile out(output_at(path), "0.1");
    out.set_attribute("config", "stages: []\n");
    auto const r = out.add_dataset(sink("/rows"), rows);
    for (std::int64_t first = 0, index = 0; first < 5; first += 2, ++index) {
      out.write(r, frame_of(rows, index, first, std::min<std::int64_t>(2, 5 - first)));
    }
    out.add_dataset(sink("/images"), images);
    out.add_dataset(sink("spectra/psd"), spectrum);  // intermediate group created
    out.commit();
  }
  EXPECT_EQ(test::read_shape(path, "/rows"), (std::vector<hsize_t>{5, 8}));
  auto expected = std::vector<double>(40);
  for (std::size_t k = 0; k < 40; ++k) expected[k] = static_cast<double>(k);
  EXPECT_EQ(test::read_doubles(path, "/rows"), expected);
  EXPECT_EQ(test::read_shape(path, "/images"), (std::vector<hsize_t>{5, 3, 4}));
  EXPECT_EQ(test::read_shape(path, "/spectra/psd"), (std::vector<hsize_t>{5, 5}));

  EXPECT_EQ(test::read_text(path, "/", "program"), "tcfft-pipeline");
  EXPECT_EQ(test::read_text(path, "/", "version"), "0.1");
  EXPECT_EQ(test::read_text(path, "/", "config"), "stages: []\n");
  EXPECT_EQ(test::read_text(path, "/", "created").value_or("").size(), 20u);  // ...T..:..:..Z
  EXPECT_EQ(test::read_text(path, "/rows", "domain"), "time");
  EXPECT_EQ(test::read_number(path, "/rows", "sample_rate"), 100.0);
  EXPECT_EQ(test::read_text(path, "/rows", "units"), "counts");
  EXPECT_EQ(test::read_number(path, "/rows", "time_length"), 8.0);
  EXPECT_EQ(test::read_number(path, "/rows", "valid_length"), 8.0);
  EXPECT_EQ(test::read_number(path, "/rows", "onesided"), 0.0);
  EXPECT_EQ(test::read_number(path, "/rows", "frequency_step"), std::nullopt);
  EXPECT_EQ(test::read_text(path, "/spectra/psd", "domain"), "frequency");
  EXPECT_EQ(test::read_number(path, "/spectra/psd", "frequency_step"), 100.0 / 8);
  EXPECT_EQ(test::read_number(path, "/spectra/psd", "frequency_start"), 0.0);
  EXPECT_EQ(test::read_number(path, "/spectra/psd", "onesided"), 1.0);
  EXPECT_EQ(test::read_number(path, "/images", "time_rows"), 3.0);
}

TEST(OutputFile, SeriesItemsAreJoinedAndTrimmed) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  auto series = real_rows(3, 4, 2);  // a 10-sample series in items of 4
  series.series_length = 10;
  series.valid_length = 2;
  auto single = series;  // one spectrum of the whole series
  single.total_rows = 1;
  single.rows_per_frame = 1;
  single.domain = Domain::kFrequency;
  single.shape = {6};
  single.valid_length = 6;
  {
    OutputFile out(output_at(path), "0.1");
    auto const s = out.add_dataset(sink("/filtered"), series);
    out.write(s, frame_of(series, 0, 0, 2));
    out.write(s, frame_of(series, 1, 2, 1));  // samples 8..11: 10 and 11 are padding
    out.write(out.add_dataset(sink("/spectrum"), single), frame_of(single, 0, 0, 1));
    EXPECT_EQ(out.bytes_written(), 8 * (10 + 6));
    out.commit();
  }
  EXPECT_EQ(test::read_shape(path, "/filtered"), (std::vector<hsize_t>{10}));
  EXPECT_EQ(test::read_doubles(path, "/filtered"),
            (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(test::read_shape(path, "/spectrum"), (std::vector<hsize_t>{6}));
  EXPECT_EQ(test::read_number(path, "/filtered", "series_length"), 10.0);
}

TEST(OutputFile, ChunksHoldAtMostOneMebibyteOrOneFrame) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  auto const small = real_rows(100, 16, 10);    // one frame = 10 rows of 128 B
  auto const large = real_rows(4, 1 << 20, 2);  // one item = 8 MiB
  {
    OutputFile out(output_at(path), "0.1");
    out.add_dataset(sink("/small"), small);
    out.add_dataset(sink("/large"), large);
    out.commit();
  }
  auto chunk_of = [&](char const* name) {
    test::FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    test::DatasetId const ds(H5Dopen2(file, name, H5P_DEFAULT));
    hid_t const plist = H5Dget_create_plist(ds);
    std::vector<hsize_t> chunk(2);
    EXPECT_EQ(H5Pget_layout(plist), H5D_CHUNKED);
    H5Pget_chunk(plist, 2, chunk.data());
    H5Pclose(plist);
    return chunk;
  };
  EXPECT_EQ(chunk_of("/small"), (std::vector<hsize_t>{10, 16}));
  EXPECT_EQ(chunk_of("/large"), (std::vector<hsize_t>{1, 131072}));
}

TEST(SinkStage, WritesAndPassesFramesThrough) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  auto const spec = real_rows(3, 4, 3);
  OutputFile out(output_at(path), "0.1");
  stages::SinkStage stage(sink("/out"), 4, out);
  EXPECT_EQ(stage.name(), "stages[4] (sink)");
  auto const passed = stage.configure(spec);
  EXPECT_EQ(passed.shape, spec.shape);
  EXPECT_EQ(passed.total_rows, spec.total_rows);
  auto const frame = frame_of(spec, 0, 0, 3);
  Frame copy;
  EXPECT_TRUE(stage.process(frame, copy));
  EXPECT_EQ(copy.real, frame.real);
  EXPECT_FALSE(stage.finish(copy));
  stages::SinkStage bad(sink("/bad", "float16"), 5, out);
  EXPECT_TRUE(contains(error_of<ConfigError>([&] { bad.configure(spec); }),
                       "stages[5] (sink): sink dataset '/bad': dtype 'float16'"));
  out.commit();
  EXPECT_EQ(test::read_doubles(path, "/out"), frame.real);
}

}  // namespace
}  // namespace tcfft::io
