// SPDX-License-Identifier: MIT
// Helpers of the HDF5 source/sink tests: a per-test temporary directory and small writers and
// readers built directly on the HDF5 C API, so the tests do not trust the code under test.
#pragma once

#include <tcfft/stages/params.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <atomic>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tcfft::test {

/// Source parameters reading `dataset` of `path`, every other key at its default.
inline SourceParams source_params(std::string const& path, std::string const& dataset) {
  SourceParams p;
  p.path = path;
  p.dataset = dataset;
  return p;
}

/// A fresh directory under the system temporary directory, removed with its contents.
class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("tcfft-io-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(TempDir const&) = delete;
  TempDir& operator=(TempDir const&) = delete;

  [[nodiscard]] std::string file(std::string const& name) const { return (path_ / name).string(); }
  [[nodiscard]] std::filesystem::path const& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// The message of the `E` that `f` throws ("" and a test failure when it throws none).
template <class E, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (E const& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected exception not thrown";
  return {};
}

/// Success when `text` contains `part`; the failure message shows both.
inline ::testing::AssertionResult contains(std::string const& text, std::string const& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

/// Closes an hid_t with `close` at scope exit (tests only).
template <herr_t (*Close)(hid_t)>
struct Id {
  hid_t id;
  explicit Id(hid_t i) : id(i) {
    if (i < 0) throw std::runtime_error("HDF5 call failed in test helper");
  }
  ~Id() { Close(id); }
  Id(Id const&) = delete;
  Id& operator=(Id const&) = delete;
  operator hid_t() const { return id; }  // NOLINT(google-explicit-constructor)
};
using FileId = Id<&H5Fclose>;
using DatasetId = Id<&H5Dclose>;
using SpaceId = Id<&H5Sclose>;
using TypeId = Id<&H5Tclose>;
using AttrId = Id<&H5Aclose>;

/// Compound {r, i} of `member` as h5py writes complex numbers.
inline hid_t make_h5py_complex(hid_t member) {
  auto const bytes = H5Tget_size(member);
  hid_t type = H5Tcreate(H5T_COMPOUND, 2 * bytes);
  H5Tinsert(type, "r", 0, member);
  H5Tinsert(type, "i", bytes, member);
  return type;
}

/// Creates (or opens for append) `path` and writes dataset `name` of `file_type` with `dims`
/// from `data` given in memory type `memory_type`; optional Xspacing and units attributes.
inline void write_dataset(std::string const& path, std::string const& name, hid_t file_type,
                          std::vector<hsize_t> const& dims, hid_t memory_type, void const* data,
                          double xspacing = 0.0, std::string const& units = "") {
  hid_t const raw_file = std::filesystem::exists(path)
                             ? H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                             : H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  FileId const file(raw_file);
  SpaceId const space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  hid_t const lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  DatasetId const dataset(
      H5Dcreate2(file, name.c_str(), file_type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT));
  H5Pclose(lcpl);
  if (data != nullptr) H5Dwrite(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  SpaceId const scalar(H5Screate(H5S_SCALAR));
  if (xspacing > 0.0) {
    AttrId const attr(
        H5Acreate2(dataset, "Xspacing", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT));
    H5Awrite(attr, H5T_NATIVE_DOUBLE, &xspacing);
  }
  if (!units.empty()) {
    TypeId const str(H5Tcopy(H5T_C_S1));
    H5Tset_size(str, H5T_VARIABLE);
    AttrId const attr(H5Acreate2(dataset, "units", str, scalar, H5P_DEFAULT, H5P_DEFAULT));
    char const* text = units.c_str();
    H5Awrite(attr, str, &text);
  }
}

/// Convenience: a float64 dataset from doubles.
inline void write_doubles(std::string const& path, std::string const& name,
                          std::vector<hsize_t> const& dims, std::vector<double> const& data,
                          double xspacing = 0.0) {
  write_dataset(path, name, H5T_IEEE_F64LE, dims, H5T_NATIVE_DOUBLE, data.data(), xspacing);
}

/// Shape of a dataset.
inline std::vector<hsize_t> read_shape(std::string const& path, std::string const& name) {
  FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  DatasetId const dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  SpaceId const space(H5Dget_space(dataset));
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return dims;
}

/// All samples of a real dataset as double.
inline std::vector<double> read_doubles(std::string const& path, std::string const& name) {
  FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  DatasetId const dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  SpaceId const space(H5Dget_space(dataset));
  std::vector<double> data(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
  return data;
}

/// All samples of a complex {r, i} dataset.
inline std::vector<std::complex<double>> read_complex(std::string const& path,
                                                      std::string const& name) {
  FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  DatasetId const dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT));
  SpaceId const space(H5Dget_space(dataset));
  TypeId const memory(make_h5py_complex(H5T_NATIVE_DOUBLE));
  std::vector<std::complex<double>> data(
      static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  H5Dread(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
  return data;
}

/// A numeric attribute of `object` ("/" for the root) as double, if present.
inline std::optional<double> read_number(std::string const& path, std::string const& object,
                                         std::string const& attr_name) {
  FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (H5Aexists_by_name(file, object.c_str(), attr_name.c_str(), H5P_DEFAULT) <= 0) {
    return std::nullopt;
  }
  AttrId const attr(
      H5Aopen_by_name(file, object.c_str(), attr_name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  double value = 0.0;
  H5Aread(attr, H5T_NATIVE_DOUBLE, &value);
  return value;
}

/// A variable-length string attribute, if present.
inline std::optional<std::string> read_text(std::string const& path, std::string const& object,
                                            std::string const& attr_name) {
  FileId const file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (H5Aexists_by_name(file, object.c_str(), attr_name.c_str(), H5P_DEFAULT) <= 0) {
    return std::nullopt;
  }
  AttrId const attr(
      H5Aopen_by_name(file, object.c_str(), attr_name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  TypeId const stored(H5Aget_type(attr));
  TypeId const memory(H5Tcopy(H5T_C_S1));
  H5Tset_size(memory, H5T_VARIABLE);
  H5Tset_cset(memory, H5Tget_cset(stored));  // HDF5 converts no ASCII <-> UTF-8
  char* raw = nullptr;
  if (H5Aread(attr, memory, &raw) < 0 || raw == nullptr) return std::nullopt;
  std::string value(raw);
  H5free_memory(raw);
  return value;
}

/// The shared real-data directory, or "" when it is not present.
inline std::string shared_data(std::string const& relative) {
#ifdef TCFFT_SHARED_DATA_DIR
  auto const path = std::filesystem::path(TCFFT_SHARED_DATA_DIR) / relative;
  if (std::filesystem::exists(path)) return path.string();
#endif
  static_cast<void>(relative);
  return {};
}

}  // namespace tcfft::test
