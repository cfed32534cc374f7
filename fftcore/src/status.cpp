// SPDX-License-Identifier: MIT
// Status and Backend names, and the thread-local record of the last CUDA error.
#include <fftcore/fftcore.hpp>

#include "detail/backend_plan.hpp"

namespace fftcore {
namespace {
thread_local cudaError_t g_last_cuda_error = cudaSuccess;
}  // namespace

char const* to_string(Status status) noexcept {
  switch (status) {
    case Status::kSuccess: return "success";
    case Status::kInvalidArgument: return "invalid argument";
    case Status::kUnsupportedSize: return "unsupported size";
    case Status::kMisaligned: return "misaligned pointer";
    case Status::kWorkspaceTooSmall: return "workspace too small";
    case Status::kArchMismatch: return "device architecture not supported by this build";
    case Status::kNoDevice: return "no CUDA device";
    case Status::kCudaError: return "CUDA runtime error";
    case Status::kBackendError: return "cuFFT error";
    case Status::kInvalidPlan: return "invalid plan";
    case Status::kInternal: return "internal error";
    case Status::kWrongDirection:
      return "direction not allowed by the plan (R2C is forward only, C2R inverse only)";
  }
  return "unknown status";
}

char const* to_string(Backend backend) noexcept {
  switch (backend) {
    case Backend::kAuto: return "auto";
    case Backend::kTensorCore: return "tensor-core";
    case Backend::kCufft: return "cufft";
  }
  return "unknown";
}

cudaError_t last_cuda_error() noexcept { return g_last_cuda_error; }

namespace detail {
Status from_cuda(cudaError_t error) noexcept {
  if (error == cudaSuccess) return Status::kSuccess;
  g_last_cuda_error = error;
  return Status::kCudaError;
}
}  // namespace detail
}  // namespace fftcore
