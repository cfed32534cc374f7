// SPDX-License-Identifier: MIT
// The application's error types. Each carries the exit code the CLI returns for it; only
// app/main.cpp turns them into an exit status. Messages name the file, key or dataset and the
// offending value.
#pragma once

#include <stdexcept>
#include <string>

namespace tcfft {

/// Exit codes of tcfft-pipeline (documented in README.md).
enum class ExitCode : int {
  kOk = 0,
  kUsage = 2,     ///< bad command line or configuration (YAML, keys, types, ranges)
  kInput = 3,     ///< input files, datasets, shapes, dtypes, non-finite samples
  kOutput = 4,    ///< output path not writable, output exists and overwrite is false
  kRuntime = 5,   ///< CUDA / cuFFT / HDF5 failures during the run, unsupported transform sizes
  kInterrupted = 130,
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, std::string const& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

/// Malformed YAML, unknown key, wrong type, value out of range, incompatible stages.
struct ConfigError : Error {
  explicit ConfigError(std::string const& m) : Error(ExitCode::kUsage, m) {}
};
/// Missing file or dataset, wrong rank or dtype, NaN/Inf in the data.
struct InputError : Error {
  explicit InputError(std::string const& m) : Error(ExitCode::kInput, m) {}
};
/// Output cannot be created, or exists and may not be overwritten.
struct OutputError : Error {
  explicit OutputError(std::string const& m) : Error(ExitCode::kOutput, m) {}
};
/// HDF5 read/write failure during the run.
struct IoError : Error {
  explicit IoError(std::string const& m) : Error(ExitCode::kRuntime, m) {}
};
/// CUDA runtime failure.
struct CudaError : Error {
  explicit CudaError(std::string const& m) : Error(ExitCode::kRuntime, m) {}
};
/// FFT planning/execution failure (including a size the chosen backend cannot do).
struct FftError : Error {
  explicit FftError(std::string const& m) : Error(ExitCode::kRuntime, m) {}
};
/// The run was interrupted (SIGINT/SIGTERM).
struct Interrupted : Error {
  Interrupted() : Error(ExitCode::kInterrupted, "interrupted") {}
};

}  // namespace tcfft

/// Precondition that is never compiled out; throws tcfft::Error(kRuntime) naming the check.
#define TCFFT_EXPECTS(cond, msg)                                                             \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      throw ::tcfft::Error(::tcfft::ExitCode::kRuntime,                                      \
                           std::string("internal check failed: ") + (msg) + " (" #cond ") at " \
                               __FILE__ ":" + std::to_string(__LINE__));                     \
    }                                                                                        \
  } while (0)
