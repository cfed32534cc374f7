// SPDX-License-Identifier: MIT
// make_fft_engine: picks the CPU (FFTW) or GPU (fftcore) engine from FftEngineParams::device,
// and the shape checks and size strings both engines share.
#include "fft_engines.hpp"

#include <tcfft/core/error.hpp>

#include <cuda_runtime_api.h>

namespace tcfft::stages {

namespace detail {

std::string size_string(std::vector<std::int64_t> const& shape) {
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += "x";
    s += std::to_string(shape[i]);
  }
  return s.empty() ? "(empty shape)" : s;
}

void check_engine_shape(std::vector<std::int64_t> const& shape, std::int64_t max_rows,
                        std::string const& who) {
  if (shape.size() != 1 && shape.size() != 2) {
    throw FftError(who + ": item shape " + size_string(shape) + " has rank " +
                   std::to_string(shape.size()) + ", expected 1 or 2");
  }
  for (auto extent : shape) {
    if (extent <= 0) {
      throw FftError(who + ": FFT size " + size_string(shape) + " has a non-positive extent");
    }
  }
  if (max_rows <= 0) {
    throw FftError(who + ": items per call must be positive, got " + std::to_string(max_rows));
  }
}

}  // namespace detail

std::unique_ptr<FftEngine> make_fft_engine(FftEngineParams const& params,
                                           std::vector<std::int64_t> const& shape,
                                           std::int64_t max_rows) {
  switch (params.device) {
    case Device::kCpu: return detail::make_cpu_fft_engine(shape, max_rows);
    case Device::kGpu: return detail::make_gpu_fft_engine(params, shape, max_rows);
    case Device::kAuto:
      return gpu_available() ? detail::make_gpu_fft_engine(params, shape, max_rows)
                             : detail::make_cpu_fft_engine(shape, max_rows);
  }
  throw FftError("unknown FFT device value " + std::to_string(static_cast<int>(params.device)));
}

bool gpu_available() noexcept {
  int count = 0;
  bool const ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  (void)cudaGetLastError();  // a failed query (no driver, no device) must not stay sticky
  return ok;
}

}  // namespace tcfft::stages
