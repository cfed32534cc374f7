// SPDX-License-Identifier: MIT
// fftcore: batched complex FFTs on NVIDIA GPUs behind one plan / execute API.
//
// Backends: a Tensor Core FP16 FFT (the tcFFT design: radix-16 merges as FP16 matrix products,
// radix 2/4/8 on CUDA cores) and cuFFT (FP16 and FP32). The library depends on the CUDA runtime
// only: no logging, no exceptions across this header, every call returns a Status.
//
// Math convention (FFTW's):
//   X[k] = scale * sum_{j=0}^{n-1} x[j] * exp(sign * 2*pi*i * j*k / n)
//   sign = -1 for Direction::kForward, +1 for Direction::kInverse,
//   scale = 1 (kNone), 1/n (kByN) or 1/sqrt(n) (kBySqrtN), n = the product of all dims.
// For rank 2 the transform is taken along both axes of a row-major [dims[0], dims[1]] array
// (dims[1] contiguous), exactly as cuFFT's cufftPlan2d(nx = dims[0], ny = dims[1]).
//
// Data layout: interleaved complex (`__half2` for Precision::kHalf, `float2` for kSingle),
// `batch` transforms stored back to back (distance = product of dims), natural order in and out.
// `in == out` transforms in place.
//
// Lifecycle: can_implement (a question, no allocation) -> make_plan (allocates the plan's
// tables, synchronous) -> execute many times on any stream with a caller-owned workspace of
// workspace_bytes() -> the Plan's destructor. A plan is immutable after creation, so one plan
// may be executed concurrently on several streams, and execute never allocates nor synchronises
// the host (it may be captured in a CUDA graph).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace fftcore {

/// Every fftcore call returns a Status; none throws.
enum class Status : int {
  kSuccess = 0,
  kInvalidArgument,    ///< a descriptor field is out of range (rank, dims <= 0, batch <= 0, ...)
  kUnsupportedSize,    ///< a valid DFT that the chosen backend cannot do (e.g. n not 2^k)
  kMisaligned,         ///< a data pointer is not aligned to its element size
  kWorkspaceTooSmall,  ///< workspace_bytes() larger than the workspace passed to execute
  kArchMismatch,       ///< the device is older than the architectures this library was built for
  kNoDevice,           ///< no CUDA device is visible
  kCudaError,          ///< a CUDA runtime call failed (the code is in last_cuda_error())
  kBackendError,       ///< cuFFT returned an error
  kInvalidPlan,        ///< execute on an empty (moved-from or failed) plan
  kInternal,
};

/// A short English description of `status`, e.g. "unsupported size".
[[nodiscard]] char const* to_string(Status status) noexcept;

/// The CUDA error behind the last kCudaError returned on this thread.
[[nodiscard]] cudaError_t last_cuda_error() noexcept;

enum class Direction : int { kForward = -1, kInverse = +1 };
enum class Scaling : int { kNone, kByN, kBySqrtN };

/// Element type of input and output: interleaved complex FP16 (`__half2`) or FP32 (`float2`).
enum class Precision : int { kHalf, kSingle };

/// kAuto picks the Tensor Core backend when it can do the descriptor, cuFFT otherwise.
enum class Backend : int { kAuto, kTensorCore, kCufft };

[[nodiscard]] char const* to_string(Backend backend) noexcept;

struct PlanDesc {
  int rank = 1;                           ///< 1 or 2
  std::int64_t dims[2] = {0, 0};          ///< rank 1: dims[0] = n; rank 2: {rows, cols}, row-major
  std::int64_t batch = 1;                 ///< transforms stored back to back
  Precision precision = Precision::kHalf;
  Scaling scaling = Scaling::kNone;
  Backend backend = Backend::kAuto;

  /// Elements of one transform (the product of the dims in use).
  [[nodiscard]] std::int64_t elements() const noexcept {
    return rank == 2 ? dims[0] * dims[1] : dims[0];
  }
};

/// Bytes of one complex element of `precision` (4 for kHalf, 8 for kSingle).
[[nodiscard]] constexpr std::size_t element_bytes(Precision precision) noexcept {
  return precision == Precision::kHalf ? 4 : 8;
}

namespace detail {
class BackendPlan;  // src/detail/backend_plan.hpp
}

/// An immutable, move-only transform plan that owns its device tables.
class Plan {
 public:
  Plan() noexcept;
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;
  Plan(Plan const&) = delete;
  Plan& operator=(Plan const&) = delete;
  ~Plan();

  [[nodiscard]] bool valid() const noexcept;
  [[nodiscard]] PlanDesc const& desc() const noexcept;
  /// The backend that was chosen (never kAuto for a valid plan).
  [[nodiscard]] Backend backend() const noexcept;
  /// Scratch that execute needs; 0 when the plan works in registers/shared memory only.
  [[nodiscard]] std::size_t workspace_bytes() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  friend Status make_plan(PlanDesc const&, Plan&) noexcept;
  friend Status execute(Plan const&, void const*, void*, Direction, void*, std::size_t,
                        cudaStream_t) noexcept;
};

/// Pure check of a descriptor against a backend: no allocation, no kernel launch, no device
/// needed (so it also answers on a machine without a GPU). kAuto answers for the best backend.
[[nodiscard]] Status can_implement(PlanDesc const& desc) noexcept;

/// Builds a plan on the current device. On failure `plan` is left invalid.
[[nodiscard]] Status make_plan(PlanDesc const& desc, Plan& plan) noexcept;

/// Enqueues the transform on `stream`. `in`/`out` hold desc.batch * desc.elements() elements of
/// the plan's precision; `in == out` is in place. `workspace` may be null when
/// workspace_bytes() is 0.
[[nodiscard]] Status execute(Plan const& plan, void const* in, void* out, Direction direction,
                             void* workspace, std::size_t workspace_bytes,
                             cudaStream_t stream) noexcept;

/// Typed convenience overloads.
[[nodiscard]] inline Status execute(Plan const& plan, __half2 const* in, __half2* out,
                                    Direction direction, void* workspace,
                                    std::size_t workspace_bytes, cudaStream_t stream) noexcept {
  return execute(plan, static_cast<void const*>(in), static_cast<void*>(out), direction,
                 workspace, workspace_bytes, stream);
}
[[nodiscard]] inline Status execute(Plan const& plan, float2 const* in, float2* out,
                                    Direction direction, void* workspace,
                                    std::size_t workspace_bytes, cudaStream_t stream) noexcept {
  return execute(plan, static_cast<void const*>(in), static_cast<void*>(out), direction,
                 workspace, workspace_bytes, stream);
}

}  // namespace fftcore
