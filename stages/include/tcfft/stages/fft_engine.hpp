// SPDX-License-Identifier: MIT
// FFT engines used by the stages: unnormalised transforms (FFTW's convention) on host arrays in
// double precision, computed either on the CPU (FFTW, double) or on the GPU through fftcore
// (FP16 or FP32, the engine scales internally so FP16 never overflows and undoes that scale).
// Stages apply windows and normalisation themselves.
#pragma once

#include <tcfft/stages/params.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::stages {

class FftEngine {
 public:
  virtual ~FftEngine() = default;
  /// "cpu (FFTW double)", "gpu (tensor-core fp16)", "gpu (cufft fp32)"...
  [[nodiscard]] virtual std::string describe() const = 0;
  /// Item shape the engine was planned for: {n} or {ny, nx}.
  [[nodiscard]] virtual std::vector<std::int64_t> const& shape() const noexcept = 0;

  /// Complex-to-complex over `rows` items; sign -1 forward, +1 inverse; unnormalised.
  virtual void c2c(std::complex<double> const* in, std::complex<double>* out, std::int64_t rows,
                   int sign) = 0;
  /// Real-to-complex forward over `rows` items: out holds shape with the last axis n/2+1.
  virtual void r2c(double const* in, std::complex<double>* out, std::int64_t rows) = 0;
  /// Complex-to-real inverse (Hermitian input, last axis n/2+1) over `rows` items; unnormalised.
  virtual void c2r(std::complex<double> const* in, double* out, std::int64_t rows) = 0;
};

/// Builds an engine for items of `shape` (rank 1 or 2) and at most `max_rows` items per call.
/// Throws FftError naming the size when the backend cannot do it (e.g. FP16 needs 2^k).
[[nodiscard]] std::unique_ptr<FftEngine> make_fft_engine(FftEngineParams const& params,
                                                         std::vector<std::int64_t> const& shape,
                                                         std::int64_t max_rows);

/// True when a CUDA device is usable (used to resolve Device::kAuto).
[[nodiscard]] bool gpu_available() noexcept;

}  // namespace tcfft::stages
