// SPDX-License-Identifier: MIT
// Helpers for the end-to-end tests: a scratch directory per test, running tcfft-pipeline as a
// child process (exit code + combined output), and small HDF5 files written with the C API.
#pragma once

#include <hdf5.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace tcfft::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  ///< stdout and stderr together
};

inline CommandResult run_command(std::string const& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
    result.output += buffer.data();
  }
  int const status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/// Runs the application with `args` (already quoted as needed) from `cwd`.
inline CommandResult run_app(std::string const& args, std::filesystem::path const& cwd = ".") {
  return run_command("cd '" + cwd.string() + "' && '" + std::string(TCFFT_APP_PATH) + "' " + args);
}

/// A fresh directory under the system temp dir, removed with its contents at the end.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("tcfft-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(ScratchDir const&) = delete;
  ScratchDir& operator=(ScratchDir const&) = delete;
  [[nodiscard]] std::filesystem::path const& path() const { return path_; }
  [[nodiscard]] std::string file(std::string const& name) const { return (path_ / name).string(); }
  /// Names of every entry in the directory (to prove nothing was left behind).
  [[nodiscard]] std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (auto const& e : std::filesystem::directory_iterator(path_)) {
      names.push_back(e.path().filename().string());
    }
    return names;
  }
  void write_text(std::string const& name, std::string const& text) const {
    std::ofstream(path_ / name) << text;
  }

 private:
  std::filesystem::path path_;
};

/// Writes a float64 dataset of `dims` with `values` (and optional Xspacing attribute).
inline void write_h5_doubles(std::string const& file, std::string const& dataset,
                             std::vector<hsize_t> const& dims, std::vector<double> const& values,
                             double xspacing = 0.0) {
  hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(f, 0) << file;
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hid_t d = H5Dcreate2(f, dataset.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                       H5P_DEFAULT);
  ASSERT_GE(d, 0) << dataset;
  ASSERT_GE(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  if (xspacing > 0) {
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(d, "Xspacing", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, &xspacing);
    H5Aclose(a);
    H5Sclose(s);
  }
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
}

/// Reads a whole numeric dataset as doubles (empty if it cannot be opened).
inline std::vector<double> read_h5_doubles(std::string const& file, std::string const& dataset,
                                           std::vector<hsize_t>* dims_out = nullptr) {
  std::vector<double> values;
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) return values;
  hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  if (d >= 0) {
    hid_t space = H5Dget_space(d);
    int const rank = H5Sget_simple_extent_ndims(space);
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    hsize_t count = 1;
    for (auto v : dims) count *= v;
    values.resize(count);
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    if (dims_out) *dims_out = dims;
    H5Sclose(space);
    H5Dclose(d);
  }
  H5Fclose(f);
  return values;
}

/// Random samples in [-1, 1] from a fresh seed.
inline std::vector<double> random_samples(std::size_t n) {
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& v : x) v = u(rng);
  return x;
}

}  // namespace tcfft::testing
