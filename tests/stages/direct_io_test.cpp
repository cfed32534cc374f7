// SPDX-License-Identifier: MIT
// The direct data path of the HDF5 source and sink (pread/pwrite beside HDF5, see
// h5_source.hpp / h5_sink.hpp): read_raw through it equals read_raw through HDF5 byte for byte
// for contiguous and chunked storage, every item kind, padding and overlap-save context; it
// falls back where HDF5 does not store the bytes raw (filters, big-endian, unallocated); and
// files written by write_raw read back exactly with the HDF5 C API and h5dump, also while
// another thread reads.
#include <tcfft/core/error.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/io/h5_source.hpp>

#include "stages/h5_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <complex>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tcfft::io {
namespace {

using I64 = std::int64_t;
using test::DatasetId;
using test::FileId;
using test::SpaceId;
using test::TempDir;
using test::TypeId;

/// How a test input dataset is stored.
struct Storage {
  std::vector<hsize_t> chunk;  ///< empty: contiguous
  bool fletcher32 = false;     ///< a filter: forces read_raw through HDF5
  bool latest = false;         ///< latest file format (fixed/extensible array, implicit index)
  bool early = false;          ///< H5D_ALLOC_TIME_EARLY
  bool unlimited = false;      ///< first axis extendible
  hsize_t userblock = 0;
  bool write = true;           ///< false: create the dataset only (nothing allocated)
};

Storage chunked(std::vector<hsize_t> chunk, bool fletcher32 = false) {
  Storage storage;
  storage.chunk = std::move(chunk);
  storage.fletcher32 = fletcher32;
  return storage;
}

Storage unwritten(std::vector<hsize_t> chunk = {}) {
  Storage storage;
  storage.chunk = std::move(chunk);
  storage.write = false;
  return storage;
}

/// Creates (or opens) `path` and writes dataset `name` of `file_type` from `data` in
/// `memory_type`, stored as `storage` says.
void make_input(std::string const& path, std::string const& name, hid_t file_type,
                std::vector<hsize_t> const& dims, hid_t memory_type, void const* data,
                Storage const& storage = {}) {
  hid_t const access = H5Pcreate(H5P_FILE_ACCESS);
  if (storage.latest) H5Pset_libver_bounds(access, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  hid_t const create_file = H5Pcreate(H5P_FILE_CREATE);
  if (storage.userblock > 0) H5Pset_userblock(create_file, storage.userblock);
  hid_t const raw_file = std::filesystem::exists(path)
                             ? H5Fopen(path.c_str(), H5F_ACC_RDWR, access)
                             : H5Fcreate(path.c_str(), H5F_ACC_EXCL, create_file, access);
  H5Pclose(access);
  H5Pclose(create_file);
  FileId const file(raw_file);
  auto maxdims = dims;
  if (storage.unlimited) maxdims[0] = H5S_UNLIMITED;
  SpaceId const space(
      H5Screate_simple(static_cast<int>(dims.size()), dims.data(), maxdims.data()));
  hid_t const create = H5Pcreate(H5P_DATASET_CREATE);
  if (!storage.chunk.empty()) {
    H5Pset_chunk(create, static_cast<int>(storage.chunk.size()), storage.chunk.data());
  }
  if (storage.fletcher32) H5Pset_fletcher32(create);
  if (storage.early) H5Pset_alloc_time(create, H5D_ALLOC_TIME_EARLY);
  hid_t const links = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(links, 1);
  DatasetId const dataset(
      H5Dcreate2(file, name.c_str(), file_type, space, links, create, H5P_DEFAULT));
  H5Pclose(links);
  H5Pclose(create);
  if (storage.write) {
    ASSERT_GE(H5Dwrite(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
  }
}

/// Everything read_raw returns for a dataset, frame by frame.
struct RawRead {
  std::vector<char> bytes;
  std::vector<std::array<I64, 3>> frames;  // index, first_row, rows
  bool direct = false;
  I64 bytes_read = 0;
};

RawRead read_all(SourceParams const& params) {
  H5Source source(params);
  RawRead result;
  result.direct = source.direct_io();
  auto const& spec = source.spec();
  auto const item_bytes =
      static_cast<std::size_t>(spec.item_size()) * source.raw_element_bytes();
  std::vector<char> buffer(static_cast<std::size_t>(spec.rows_per_frame) * item_bytes);
  Frame frame;
  while (true) {
    // Garbage first: every byte of the frame must be data or zero padding afterwards.
    std::fill(buffer.begin(), buffer.end(), char{0x5a});
    if (!source.read_raw(frame, buffer.data(), buffer.size())) break;
    result.frames.push_back({frame.index, frame.first_row, frame.rows});
    auto const used = static_cast<std::size_t>(frame.rows) * item_bytes;
    result.bytes.insert(result.bytes.end(), buffer.begin(), buffer.begin() + used);
  }
  result.bytes_read = source.bytes_read();
  EXPECT_EQ(source.direct_io(), result.direct);
  return result;
}

SourceParams params_for(std::string const& path, std::string const& dataset,
                        std::string const& items, I64 rows_per_frame, I64 segment = 0,
                        I64 overlap = 0) {
  SourceParams p = test::source_params(path, dataset);
  p.items = items;
  p.rows_per_frame = rows_per_frame;
  p.segment = segment;
  p.overlap = overlap;
  return p;
}

bool any_nonzero(std::vector<char> const& bytes) {
  return std::any_of(bytes.begin(), bytes.end(), [](char c) { return c != 0; });
}

/// Reads `params` directly and its fletcher32 twin "<dataset>_hdf5" (same values, read
/// through HDF5) and expects identical bytes, frames and byte counts.
void expect_same_as_hdf5(SourceParams const& params, bool direct = true) {
  auto twin = params;
  twin.dataset += "_hdf5";
  auto const fast = read_all(params);
  auto const slow = read_all(twin);
  EXPECT_EQ(fast.direct, direct) << params.dataset;
  EXPECT_FALSE(slow.direct) << twin.dataset;
  EXPECT_EQ(fast.frames, slow.frames);
  EXPECT_EQ(fast.bytes_read, slow.bytes_read);
  ASSERT_EQ(fast.bytes.size(), slow.bytes.size());
  EXPECT_TRUE(fast.bytes == slow.bytes) << params.dataset << ": direct bytes differ from HDF5's";
  EXPECT_TRUE(any_nonzero(fast.bytes));
}

/// Writes `data` as `name` stored as `storage` and as its HDF5-only twin `name`_hdf5.
void make_pair(std::string const& path, std::string const& name, hid_t file_type,
               std::vector<hsize_t> const& dims, hid_t memory_type, void const* data,
               Storage const& storage) {
  make_input(path, name, file_type, dims, memory_type, data, storage);
  Storage twin;
  twin.chunk = storage.chunk.empty() ? dims : storage.chunk;
  twin.fletcher32 = true;
  make_input(path, name + "_hdf5", file_type, dims, memory_type, data, twin);
}

std::vector<float> ramp_f32(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 9973) * 0.5f - 1000.0f;
  return v;
}

std::vector<std::int16_t> ramp_i16(std::size_t n) {
  std::vector<std::int16_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int16_t>((i * 37) % 65536 - 32768);
  return v;
}

std::vector<std::complex<float>> ramp_c64(std::size_t n) {
  std::vector<std::complex<float>> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = {static_cast<float>(i % 1013), -static_cast<float>(i % 577) - 0.25f};
  }
  return v;
}

// ---- source: direct path equals the HDF5 path ----------------------------------------------

TEST(DirectRead, SeriesFloat32ContiguousAndChunkedWithPaddingAndShortLastFrame) {
  TempDir dir;
  auto const path = dir.file("series.h5");
  auto const data = ramp_f32(100003);
  std::vector<hsize_t> const dims{data.size()};
  make_pair(path, "/contiguous", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(), {});
  auto const in_chunks = chunked({10000});  // edge chunk, chunks not aligned with items or frames
  make_pair(path, "/chunked", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(), in_chunks);
  for (char const* name : {"/contiguous", "/chunked"}) {
    // 25 items of 4096 (the last one 1699 samples + padding), frames of 5, 4 + 1 frames...
    expect_same_as_hdf5(params_for(path, name, "series", 5, 4096));
    expect_same_as_hdf5(params_for(path, name, "series", 7, 4096));
    // ... and overlap-save items: context outside the series must come back as zeros.
    expect_same_as_hdf5(params_for(path, name, "series", 3, 4096, 300));
    expect_same_as_hdf5(params_for(path, name, "series", 1, 0));  // one item: the series
  }
  // Not trusting HDF5 either: the bytes are the samples, then zero padding.
  auto const got = read_all(params_for(path, "/chunked", "series", 5, 4096));
  ASSERT_TRUE(got.direct);
  ASSERT_EQ(got.bytes.size(), 25u * 4096u * 4u);
  EXPECT_EQ(std::memcmp(got.bytes.data(), data.data(), data.size() * 4), 0);
  EXPECT_TRUE(std::all_of(got.bytes.begin() + static_cast<long>(data.size() * 4), got.bytes.end(),
                          [](char c) { return c == 0; }));
}

TEST(DirectRead, SeriesInt16OverlapContext) {
  TempDir dir;
  auto const path = dir.file("i16.h5");
  auto const data = ramp_i16(50000);
  auto const in_chunks = chunked({8192});
  make_pair(path, "/s", H5T_STD_I16LE, {data.size()}, H5T_NATIVE_SHORT, data.data(), in_chunks);
  expect_same_as_hdf5(params_for(path, "/s", "series", 4, 2048, 512));
  expect_same_as_hdf5(params_for(path, "/s", "series", 2, 0, 0));
}

TEST(DirectRead, RowsInt16AndFloat32WithEdgeChunksInBothAxes) {
  TempDir dir;
  auto const path = dir.file("rows.h5");
  auto const i16 = ramp_i16(40 * 2500);
  auto const f32 = ramp_f32(40 * 2500);
  std::vector<hsize_t> const dims{40, 2500};
  make_pair(path, "/i16_contiguous", H5T_STD_I16LE, dims, H5T_NATIVE_SHORT, i16.data(), {});
  auto const in_chunks = chunked({7, 2500});
  make_pair(path, "/i16_chunked", H5T_STD_I16LE, dims, H5T_NATIVE_SHORT, i16.data(), in_chunks);
  Storage split;
  split.chunk = {7, 1100};  // rows split across chunks, edge chunks on both axes
  make_pair(path, "/f32_split", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, f32.data(), split);
  for (char const* name : {"/i16_contiguous", "/i16_chunked", "/f32_split"}) {
    expect_same_as_hdf5(params_for(path, name, "rows", 6));
    expect_same_as_hdf5(params_for(path, name, "rows", 40));
    expect_same_as_hdf5(params_for(path, name, "images", 1));  // a 2-D dataset: one image
  }
}

TEST(DirectRead, RowsOfA3dDatasetAcrossPlanes) {
  TempDir dir;
  auto const path = dir.file("rows3.h5");
  auto const data = ramp_f32(5 * 7 * 1024);
  std::vector<hsize_t> const dims{5, 7, 1024};
  make_pair(path, "/contiguous", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(), {});
  auto const in_chunks = chunked({2, 3, 1024});
  make_pair(path, "/chunked", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(), in_chunks);
  for (char const* name : {"/contiguous", "/chunked"}) {
    // Frames of 4 or 10 rows start and end inside planes of 7 (head, whole planes, tail).
    expect_same_as_hdf5(params_for(path, name, "rows", 4));
    expect_same_as_hdf5(params_for(path, name, "rows", 10));
  }
}

TEST(DirectRead, ImagesComplex64) {
  TempDir dir;
  auto const path = dir.file("images.h5");
  auto const data = ramp_c64(6 * 50 * 64);
  std::vector<hsize_t> const dims{6, 50, 64};
  TypeId const file_type(test::make_h5py_complex(H5T_IEEE_F32LE));
  TypeId const memory_type(test::make_h5py_complex(H5T_NATIVE_FLOAT));
  make_pair(path, "/contiguous", file_type, dims, memory_type, data.data(), {});
  auto const in_chunks = chunked({2, 20, 64});
  make_pair(path, "/chunked", file_type, dims, memory_type, data.data(), in_chunks);
  for (char const* name : {"/contiguous", "/chunked"}) {
    expect_same_as_hdf5(params_for(path, name, "images", 4));
    expect_same_as_hdf5(params_for(path, name, "rows", 77));  // 300 rows of 64
  }
}

TEST(DirectRead, OtherChunkIndexesAndFileLayouts) {
  TempDir dir;
  auto const data = ramp_f32(30 * 4096);
  std::vector<hsize_t> const dims{30, 4096};
  Storage fixed_array;  // latest format, allocated at write: fixed array index
  fixed_array.chunk = {4, 4096};
  fixed_array.latest = true;
  Storage implicit = fixed_array;  // latest format, early allocation: implicit index
  implicit.early = true;
  Storage extensible = fixed_array;  // latest format, unlimited axis: extensible array index
  extensible.unlimited = true;
  Storage btree = extensible;  // earliest format, unlimited axis: v1 B-tree
  btree.latest = false;
  Storage single;  // one chunk: single chunk index
  single.chunk = dims;
  single.latest = true;
  int k = 0;
  for (auto const& storage : {fixed_array, implicit, extensible, btree, single}) {
    auto const path = dir.file("index" + std::to_string(k++) + ".h5");
    make_pair(path, "/d", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(), storage);
    expect_same_as_hdf5(params_for(path, "/d", "rows", 7));
  }
  // A userblock: contiguous data is still read directly (H5Dget_offset counts it), chunked
  // data goes through HDF5 (chunk addresses are relative to the superblock).
  Storage contiguous_ub;
  contiguous_ub.userblock = 4096;
  auto const ub = dir.file("userblock.h5");
  make_pair(ub, "/contiguous", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(),
            contiguous_ub);
  Storage chunked_ub = contiguous_ub;
  chunked_ub.chunk = {4, 4096};
  make_input(ub, "/chunked", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(), chunked_ub);
  make_input(ub, "/chunked_hdf5", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, data.data(),
             chunked({4, 4096}, true));
  expect_same_as_hdf5(params_for(ub, "/contiguous", "rows", 7));
  expect_same_as_hdf5(params_for(ub, "/chunked", "rows", 7), false);
}

// ---- source: fallbacks ---------------------------------------------------------------------

TEST(DirectRead, BigEndianFallsBackAndReadsNativeBytes) {
  TempDir dir;
  auto const path = dir.file("be.h5");
  auto const data = ramp_f32(20000);
  auto const i16 = ramp_i16(20000);
  make_input(path, "/le", H5T_IEEE_F32LE, {data.size()}, H5T_NATIVE_FLOAT, data.data());
  make_input(path, "/be", H5T_IEEE_F32BE, {data.size()}, H5T_NATIVE_FLOAT, data.data());
  make_input(path, "/be16", H5T_STD_I16BE, {i16.size()}, H5T_NATIVE_SHORT, i16.data(),
             chunked({4096}));
  auto const le = read_all(params_for(path, "/le", "series", 2, 3000));
  auto const be = read_all(params_for(path, "/be", "series", 2, 3000));
  EXPECT_TRUE(le.direct);
  EXPECT_FALSE(be.direct);
  EXPECT_TRUE(le.bytes == be.bytes);
  auto const be16 = read_all(params_for(path, "/be16", "series", 1));
  EXPECT_FALSE(be16.direct);
  ASSERT_EQ(be16.bytes.size(), i16.size() * 2);
  EXPECT_EQ(std::memcmp(be16.bytes.data(), i16.data(), be16.bytes.size()), 0);
}

TEST(DirectRead, UnallocatedOrPartlyWrittenDataFallsBack) {
  TempDir dir;
  auto const path = dir.file("holes.h5");
  std::vector<hsize_t> const dims{64, 1024};
  make_input(path, "/unwritten", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, nullptr,
             unwritten());
  make_input(path, "/partial", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, nullptr,
             unwritten({8, 1024}));
  {
    FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    DatasetId const dataset(H5Dopen2(file, "/partial", H5P_DEFAULT));
    SpaceId const space(H5Dget_space(dataset));
    hsize_t const start[2] = {0, 0};
    hsize_t const count[2] = {16, 1024};  // chunks 0 and 1 of 8
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
    SpaceId const memory(H5Screate_simple(2, count, nullptr));
    auto const data = ramp_f32(16 * 1024);
    ASSERT_GE(H5Dwrite(dataset, H5T_NATIVE_FLOAT, memory, space, H5P_DEFAULT, data.data()), 0);
  }
  auto const unwritten = read_all(params_for(path, "/unwritten", "rows", 10));
  EXPECT_FALSE(unwritten.direct);
  EXPECT_FALSE(any_nonzero(unwritten.bytes));  // the fill value
  auto const partial = read_all(params_for(path, "/partial", "rows", 10));
  EXPECT_FALSE(partial.direct);
  auto const head = ramp_f32(16 * 1024);
  EXPECT_EQ(std::memcmp(partial.bytes.data(), head.data(), head.size() * 4), 0);
}

TEST(DirectRead, GzipLigoStrainFallsBack) {
  auto const path = test::shared_data("gw150914/H-H1_LOSC_4_V2-1126259446-32.hdf5");
  if (path.empty()) GTEST_SKIP() << "shared/data/gw150914 not present (TCFFT_SHARED_DATA_DIR)";
  auto const params = params_for(path, "/strain/Strain", "series", 8, 4096);
  auto const raw = read_all(params);
  EXPECT_FALSE(raw.direct);
  H5Source source(params);
  Frame frame;
  std::vector<double> values;
  while (source.read(frame)) values.insert(values.end(), frame.real.begin(), frame.real.end());
  ASSERT_EQ(raw.bytes.size(), values.size() * sizeof(double));
  EXPECT_EQ(std::memcmp(raw.bytes.data(), values.data(), raw.bytes.size()), 0);
}

// ---- sink: write_raw directly --------------------------------------------------------------

FrameSpec series_spec(I64 segment, I64 length, I64 rows_per_frame) {
  FrameSpec spec;
  spec.shape = {segment};
  spec.total_rows = (length + segment - 1) / segment;
  spec.rows_per_frame = rows_per_frame;
  spec.time_length = segment;
  spec.valid_length = length - (spec.total_rows - 1) * segment;
  spec.series_length = length;
  return spec;
}

FrameSpec items_spec(std::vector<I64> shape, I64 total_rows, I64 rows_per_frame,
                     SampleType type = SampleType::kReal) {
  FrameSpec spec;
  spec.type = type;
  spec.shape = std::move(shape);
  spec.total_rows = total_rows;
  spec.rows_per_frame = rows_per_frame;
  spec.time_length = spec.shape.back();
  spec.valid_length = spec.shape.back();
  return spec;
}

/// write_raw of `data` (total_rows items) in frames of spec.rows_per_frame (last one short).
template <typename T>
void write_frames(OutputFile& out, int id, FrameSpec const& spec, std::vector<T> const& data) {
  auto const item = static_cast<std::size_t>(spec.item_size());
  std::vector<T> frame;
  I64 index = 0;
  for (I64 row = 0; row < spec.total_rows; row += spec.rows_per_frame, ++index) {
    I64 const rows = std::min(spec.rows_per_frame, spec.total_rows - row);
    // A frame buffer of full size, garbage after the frame's rows (the short last frame).
    frame.assign(static_cast<std::size_t>(spec.rows_per_frame) * item, T(-7));
    auto const begin = data.begin() + static_cast<long>(static_cast<std::size_t>(row) * item);
    std::copy(begin, begin + static_cast<long>(static_cast<std::size_t>(rows) * item),
              frame.begin());
    out.write_raw(id, index, row, rows, frame.data());
  }
}

/// All bytes of `name` read with the HDF5 C API in `memory_type`.
std::vector<char> read_bytes(std::string const& path, std::string const& name, hid_t memory_type) {
  FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  DatasetId const dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  SpaceId const space(H5Dget_space(dataset));
  std::vector<char> bytes(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)) *
                          H5Tget_size(memory_type));
  EXPECT_GE(H5Dread(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()), 0);
  return bytes;
}

template <typename T>
std::vector<char> bytes_of(std::vector<T> const& v, std::size_t count) {
  auto const* p = reinterpret_cast<char const*>(v.data());
  return {p, p + count * sizeof(T)};
}

/// `h5dump -d name -b LE -o file` of the dataset, or nullopt when h5dump is not installed.
std::optional<std::vector<char>> h5dump_bytes(TempDir const& dir, std::string const& path,
                                              std::string const& name) {
  if (std::system("command -v h5dump > /dev/null 2>&1") != 0) return std::nullopt;
  auto const bin = dir.file("dump.bin");
  std::filesystem::remove(bin);
  auto const command = "h5dump -d '" + name + "' -b LE -o '" + bin + "' '" + path + "' > /dev/null";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(bin, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

TEST(DirectWrite, SeveralDatasetsShortLastFrameEdgeChunksReadBackExactly) {
  TempDir dir;
  auto const path = dir.file("out.h5");
  OutputParams op;
  op.path = path;
  OutputFile out(op, "test");
  // A trimmed float32 series: 25 items of 4096, the last 1699 samples, frames of 4 (short last).
  auto const series_data = ramp_f32(25 * 4096);
  auto const series = series_spec(4096, 100003, 4);
  // float64 rows longer than a chunk (1 MiB = 131072 doubles): chunks split rows, edge chunk.
  std::vector<double> rows_data(5 * 200000);
  for (std::size_t i = 0; i < rows_data.size(); ++i) rows_data[i] = 1e-3 * static_cast<double>(i);
  auto const rows = items_spec({200000}, 5, 2);
  // complex64 images of 300x500 (1.2 MB): chunks of [1, 262, 500], edge chunk on the y axis.
  auto const image_data = ramp_c64(7 * 300 * 500);
  auto const images = items_spec({300, 500}, 7, 3, SampleType::kComplex);
  // complex128 rows, several per chunk.
  std::vector<std::complex<double>> spectra_data(33 * 1000);
  for (std::size_t i = 0; i < spectra_data.size(); ++i) spectra_data[i] = {double(i), -0.5};
  auto const spectra = items_spec({1000}, 33, 10, SampleType::kComplex);

  int const a = out.add_dataset({"/series", "float32"}, series);
  int const b = out.add_dataset({"/group/rows", "float64"}, rows);
  int const c = out.add_dataset({"/images", "complex64"}, images);
  int const d = out.add_dataset({"/spectra", "complex128"}, spectra);
  EXPECT_FALSE(out.direct_io(a));  // decided at the first write_raw
  write_frames(out, a, series, series_data);
  write_frames(out, b, rows, rows_data);
  write_frames(out, c, images, image_data);
  write_frames(out, d, spectra, spectra_data);
  for (int id : {a, b, c, d}) EXPECT_TRUE(out.direct_io(id)) << id;
  EXPECT_EQ(out.bytes_written(), I64{100003 * 4 + 5 * 200000 * 8 + 7 * 300 * 500 * 8 +
                                     33 * 1000 * 16});
  out.commit();

  TypeId const c64(test::make_h5py_complex(H5T_NATIVE_FLOAT));
  TypeId const c128(test::make_h5py_complex(H5T_NATIVE_DOUBLE));
  EXPECT_EQ(test::read_shape(path, "/series"), (std::vector<hsize_t>{100003}));
  EXPECT_EQ(test::read_shape(path, "/images"), (std::vector<hsize_t>{7, 300, 500}));
  EXPECT_TRUE(read_bytes(path, "/series", H5T_NATIVE_FLOAT) == bytes_of(series_data, 100003));
  EXPECT_TRUE(read_bytes(path, "/group/rows", H5T_NATIVE_DOUBLE) ==
              bytes_of(rows_data, rows_data.size()));
  EXPECT_TRUE(read_bytes(path, "/images", c64) == bytes_of(image_data, image_data.size()));
  EXPECT_TRUE(read_bytes(path, "/spectra", c128) == bytes_of(spectra_data, spectra_data.size()));
  EXPECT_EQ(test::read_number(path, "/series", "valid_length"), 1699.0);  // metadata intact
  if (auto dumped = h5dump_bytes(dir, path, "/series")) {
    EXPECT_TRUE(*dumped == bytes_of(series_data, 100003));
  }
  // (h5dump 1.10 writes no binary output for compound datasets, so none for /images.)
  if (auto dumped = h5dump_bytes(dir, path, "/group/rows")) {
    EXPECT_TRUE(*dumped == bytes_of(rows_data, rows_data.size()));
  }
}

TEST(DirectWrite, DatasetsAreChunkedUnfilteredAndAllocatedAtCreation) {
  TempDir dir;
  auto const path = dir.file("props.h5");
  OutputParams op;
  op.path = path;
  OutputFile out(op, "test");
  static_cast<void>(out.add_dataset({"/d", "float32"}, items_spec({4096}, 300, 64)));
  out.commit();
  FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  DatasetId const dataset(H5Dopen2(file, "/d", H5P_DEFAULT));
  hid_t const create = H5Dget_create_plist(dataset);
  H5D_alloc_time_t alloc = H5D_ALLOC_TIME_DEFAULT;
  H5D_fill_time_t fill = H5D_FILL_TIME_ALLOC;
  H5Pget_alloc_time(create, &alloc);
  H5Pget_fill_time(create, &fill);
  EXPECT_EQ(H5Pget_layout(create), H5D_CHUNKED);
  EXPECT_EQ(H5Pget_nfilters(create), 0);
  EXPECT_EQ(alloc, H5D_ALLOC_TIME_EARLY);
  EXPECT_EQ(fill, H5D_FILL_TIME_NEVER);  // allocation writes no fill values
  H5Pclose(create);
  hsize_t chunks = 0;
  SpaceId const space(H5Dget_space(dataset));
  H5Dget_num_chunks(dataset, space, &chunks);
  EXPECT_EQ(chunks, 5u);  // 300 rows in chunks of 64, all allocated though none was written
}

TEST(DirectWrite, MixingWriteAndWriteRawOnOneDataset) {
  TempDir dir;
  auto const path = dir.file("mixed.h5");
  OutputParams op;
  op.path = path;
  OutputFile out(op, "test");
  auto const spec = items_spec({1024}, 8, 4);
  int const host = out.add_dataset({"/host_first", "float64"}, spec);
  int const raw = out.add_dataset({"/raw_first", "float64"}, spec);
  std::vector<double> data(8 * 1024);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i) + 0.5;
  Frame frame;
  frame.index = 0;
  frame.first_row = 0;
  frame.rows = 4;
  frame.real.assign(data.begin(), data.begin() + 4 * 1024);
  out.write(host, frame);  // through HDF5: write_raw then stays with HDF5 for this dataset
  out.write_raw(host, 1, 4, 4, data.data() + 4 * 1024);
  EXPECT_FALSE(out.direct_io(host));
  out.write_raw(raw, 0, 0, 4, data.data());
  EXPECT_TRUE(out.direct_io(raw));
  EXPECT_THROW(out.write(raw, frame), Error);  // HDF5 would cache a stale chunk
  out.write_raw(raw, 1, 4, 4, data.data() + 4 * 1024);
  out.commit();
  EXPECT_EQ(test::read_doubles(path, "/host_first"), data);
  EXPECT_EQ(test::read_doubles(path, "/raw_first"), data);
}

TEST(DirectWrite, FailedRunLeavesNoFile) {
  TempDir dir;
  auto const path = dir.file("failed.h5");
  std::string temporary;
  {
    OutputParams op;
    op.path = path;
    OutputFile out(op, "test");
    temporary = out.temporary_path();
    auto const spec = items_spec({1024}, 8, 4);
    int const id = out.add_dataset({"/d", "float32"}, spec);
    auto const data = ramp_f32(8 * 1024);
    out.write_raw(id, 0, 0, 4, data.data());
    EXPECT_TRUE(out.direct_io(id));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(temporary));
}

// ---- a reader thread and a writer thread ---------------------------------------------------

/// Streams `params` through read_raw on one thread into write_raw (float32 or complex64 by
/// the source dtype) on another, as the GPU executor does, and returns the output path.
std::string stream_copy(TempDir const& dir, SourceParams const& params, bool expect_direct) {
  H5Source source(params);
  EXPECT_EQ(source.direct_io(), expect_direct);
  auto const path = dir.file("copy.h5");
  std::filesystem::remove(path);
  OutputParams op;
  op.path = path;
  OutputFile out(op, "test");
  auto spec = source.spec();
  bool const complex = spec.type == SampleType::kComplex;
  int const id = out.add_dataset({"/copy", complex ? "complex64" : "float32"}, spec);
  auto const frame_bytes = static_cast<std::size_t>(spec.rows_per_frame * spec.item_size()) *
                           source.raw_element_bytes();
  struct Item {
    Frame frame;
    std::vector<char> bytes;
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Item> queue;
  bool done = false;
  std::exception_ptr failure;
  std::thread reader([&] {
    try {
      while (true) {
        Item item;
        item.bytes.resize(frame_bytes);
        bool const more = source.read_raw(item.frame, item.bytes.data(), item.bytes.size());
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return queue.size() < 3 || failure; });
        if (!more || failure) break;
        queue.push_back(std::move(item));
        changed.notify_all();
      }
    } catch (...) {
      std::lock_guard const lock(mutex);
      failure = std::current_exception();
    }
    std::lock_guard const lock(mutex);  // the writer drains the queue, then stops
    done = true;
    changed.notify_all();
  });
  std::thread writer([&] {
    while (true) {
      Item item;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return !queue.empty() || done; });
        if (queue.empty()) return;
        item = std::move(queue.front());
        queue.pop_front();
        changed.notify_all();
      }
      try {
        out.write_raw(id, item.frame.index, item.frame.first_row, item.frame.rows,
                      item.bytes.data());
      } catch (...) {
        std::lock_guard const lock(mutex);
        failure = std::current_exception();
        done = true;
        changed.notify_all();
        return;
      }
    }
  });
  reader.join();
  writer.join();
  if (failure) std::rethrow_exception(failure);
  EXPECT_TRUE(out.direct_io(id));
  out.commit();
  return path;
}

TEST(DirectConcurrency, ReaderAndWriterThreadsCopyASeries) {
  TempDir dir;
  auto const input = dir.file("in.h5");
  auto const data = ramp_f32(1000003);
  auto const in_chunks = chunked({65536});
  make_input(input, "/direct", H5T_IEEE_F32LE, {data.size()}, H5T_NATIVE_FLOAT, data.data(),
             in_chunks);
  make_input(input, "/hdf5", H5T_IEEE_F32LE, {data.size()}, H5T_NATIVE_FLOAT, data.data(),
             chunked({65536}, true));
  for (bool const direct : {true, false}) {
    auto const copy = stream_copy(dir, params_for(input, direct ? "/direct" : "/hdf5", "series",
                                                  8, 8192),
                                  direct);
    EXPECT_TRUE(read_bytes(copy, "/copy", H5T_NATIVE_FLOAT) == bytes_of(data, data.size()))
        << (direct ? "direct" : "hdf5") << " source";
  }
}

TEST(DirectConcurrency, ReaderAndWriterThreadsCopyImages) {
  TempDir dir;
  auto const input = dir.file("in.h5");
  auto const data = ramp_c64(20 * 128 * 256);
  TypeId const file_type(test::make_h5py_complex(H5T_IEEE_F32LE));
  TypeId const memory_type(test::make_h5py_complex(H5T_NATIVE_FLOAT));
  make_input(input, "/images", file_type, {20, 128, 256}, memory_type, data.data());
  auto const copy = stream_copy(dir, params_for(input, "/images", "images", 3), true);
  EXPECT_TRUE(read_bytes(copy, "/copy", memory_type) == bytes_of(data, data.size()));
}

}  // namespace
}  // namespace tcfft::io
