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
// Real-input transforms (PlanDesc::kind, cuFFT's R2C / C2R conventions):
//   kR2C: x real (`__half` for kHalf, `float` for kSingle), X = the forward transform above,
//         of which only the non-redundant half is stored (X[n-k] = conj(X[k]) for real x):
//         rank 1: n/2 + 1 complex outputs X[0..n/2] per transform;
//         rank 2: rows x (cols/2 + 1) complex outputs, row-major (the last axis is halved).
//   kC2R: the inverse: that half spectrum in, the real inverse transform out (the missing half
//         taken as the conjugate mirror; the imaginary parts of X[0] and, for even n, X[n/2]
//         are ignored, as cuFFT does).
//   Batches are back to back on each side: elements() reals apart on the real side,
//   spectrum_elements() complex values apart on the complex side. n in the scale is elements()
//   (the real points), so R2C then C2R with kByN on one of them returns the input.
//   Direction rule: a kR2C plan runs Direction::kForward only, a kC2R plan kInverse only;
//   execute answers kWrongDirection otherwise. Real transforms are out-of-place only
//   (`in == out` is kInvalidArgument), the input is never written, and both pointers must be
//   aligned to element_bytes(precision) (the Tensor Core backend reads the reals in pairs).
//   The last dimension must be >= 2 (a real transform of 1 point is kUnsupportedSize).
//   Workspace: larger than the complex plan's (workspace_bytes() says how much): the Tensor
//   Core backend computes a real transform of n points as a complex one of n/2 points whose
//   result it keeps in FP32 in the workspace (8 bytes per complex value, plus the 2-D column
//   stage's input in FP32); the cuFFT backend keeps a copy of the (pre-scaled) input there.
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
  kWrongDirection,     ///< execute direction not allowed by the plan (R2C forward, C2R inverse)
};

/// A short English description of `status`, e.g. "unsupported size".
[[nodiscard]] char const* to_string(Status status) noexcept;

/// The CUDA error behind the last kCudaError returned on this thread.
[[nodiscard]] cudaError_t last_cuda_error() noexcept;

enum class Direction : int { kForward = -1, kInverse = +1 };
enum class Scaling : int { kNone, kByN, kBySqrtN };

/// Element type of input and output: interleaved complex FP16 (`__half2`) or FP32 (`float2`).
enum class Precision : int { kHalf, kSingle };

/// What is transformed: complex to complex (the default), real to half-spectrum complex
/// (forward only), or half-spectrum complex to real (inverse only). See the file comment.
enum class Transform : int { kC2C = 0, kR2C, kC2R };

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
  Transform kind = Transform::kC2C;       ///< last, so that older initialisers keep working

  /// Elements of one transform (the product of the dims in use); the real points for R2C/C2R.
  [[nodiscard]] std::int64_t elements() const noexcept {
    return rank == 2 ? dims[0] * dims[1] : dims[0];
  }
  /// Complex values of one transform on its complex side: elements() for kC2C, the half
  /// spectrum for kR2C / kC2R (rank 1: n/2 + 1; rank 2: rows * (cols/2 + 1)).
  [[nodiscard]] std::int64_t spectrum_elements() const noexcept {
    if (kind == Transform::kC2C) return elements();
    return rank == 2 ? dims[0] * (dims[1] / 2 + 1) : dims[0] / 2 + 1;
  }
};

/// Bytes of one complex element of `precision` (4 for kHalf, 8 for kSingle).
[[nodiscard]] constexpr std::size_t element_bytes(Precision precision) noexcept {
  return precision == Precision::kHalf ? 4 : 8;
}

/// Bytes of one real element of `precision` (2 for kHalf, 4 for kSingle).
[[nodiscard]] constexpr std::size_t real_element_bytes(Precision precision) noexcept {
  return precision == Precision::kHalf ? 2 : 4;
}

/// Bytes of the `batch` inputs (`input` = true) or outputs (false) of execute for `desc`.
[[nodiscard]] inline std::size_t buffer_bytes(PlanDesc const& desc, bool input) noexcept {
  bool const real_side = (desc.kind == Transform::kR2C && input) ||
                         (desc.kind == Transform::kC2R && !input);
  auto const count = static_cast<std::size_t>(
      desc.batch * (real_side ? desc.elements() : desc.spectrum_elements()));
  return count * (real_side ? real_element_bytes(desc.precision) : element_bytes(desc.precision));
}

/// Element-wise operations fused into a complex (C2C) transform: the input element x[i] is
/// multiplied by load_factors[i mod n] before the transform, and the output element y[k] by
/// store_factors[k mod n] (or its conjugate: a matched filter's conj(template)) after it and
/// after the plan's scaling, where n = desc.elements() and i, k count elements within the
/// batch. Factors are FP32 complex on the device, n of each. Windows, per-frequency filter
/// responses and templates are such factors; a real scale is a constant one.
/// The Tensor Core backend applies them inside its first and last pass, before its FP16
/// rounding, at the cost of reading the factors; the cuFFT backend (no FP16 callbacks)
/// applies them with separate element-wise kernels on `out`. Null pointers mean no hook.
struct ExecuteHooks {
  float2 const* load_factors = nullptr;
  float2 const* store_factors = nullptr;
  bool conjugate_store = false;
  [[nodiscard]] bool any() const noexcept {
    return load_factors != nullptr || store_factors != nullptr;
  }
};

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
  /// Kernel passes over global memory that execute makes (each reads and writes the data
  /// once); 0 where the backend does not say (cuFFT).
  [[nodiscard]] int passes() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  friend Status make_plan(PlanDesc const&, Plan&) noexcept;
  friend Status execute(Plan const&, void const*, void*, Direction, void*, std::size_t,
                        cudaStream_t) noexcept;
  friend Status execute(Plan const&, void const*, void*, Direction, void*, std::size_t,
                        cudaStream_t, ExecuteHooks const&) noexcept;
};

/// Pure check of a descriptor against a backend: no allocation, no kernel launch, no device
/// needed (so it also answers on a machine without a GPU). kAuto answers for the best backend.
[[nodiscard]] Status can_implement(PlanDesc const& desc) noexcept;

/// Builds a plan on the current device. On failure `plan` is left invalid.
[[nodiscard]] Status make_plan(PlanDesc const& desc, Plan& plan) noexcept;

/// Enqueues the transform on `stream`. `in`/`out` hold desc.batch * desc.elements() elements of
/// the plan's precision (real transforms: buffer_bytes(desc, true / false) bytes, see the
/// file comment); `in == out` is in place (complex transforms only). `workspace` may be null when
/// workspace_bytes() is 0.
[[nodiscard]] Status execute(Plan const& plan, void const* in, void* out, Direction direction,
                             void* workspace, std::size_t workspace_bytes,
                             cudaStream_t stream) noexcept;

/// execute with hooks (complex transforms only: kInvalidArgument for R2C/C2R plans with a
/// hook). Without hooks it is the plain execute.
[[nodiscard]] Status execute(Plan const& plan, void const* in, void* out, Direction direction,
                             void* workspace, std::size_t workspace_bytes, cudaStream_t stream,
                             ExecuteHooks const& hooks) noexcept;

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
