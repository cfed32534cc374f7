// SPDX-License-Identifier: MIT
// Pieces shared by the complex (cufft_plan.cpp) and real (cufft_real_plan.cpp) cuFFT plans:
// cufftResult -> Status, the split of the scaling policy around the cuFFT execution (see
// cufft_plan.cpp for why FP16 is pre-scaled by a power of two), a handle guard and the
// mutex-guarded enqueue of one cufftXtExec.
#pragma once

#include <fftcore/fftcore.hpp>

#include "detail/backend_plan.hpp"

#include <cufft.h>
#include <cufftXt.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>

namespace fftcore::detail {

inline bool is_power_of_two(std::int64_t v) noexcept { return v > 0 && (v & (v - 1)) == 0; }

inline int log2_exact(std::int64_t v) noexcept {
  int bits = 0;
  while ((std::int64_t{1} << bits) < v) ++bits;
  return bits;
}

inline Status from_cufft(cufftResult result) noexcept {
  switch (result) {
    case CUFFT_SUCCESS:
      return Status::kSuccess;
    case CUFFT_INVALID_SIZE:
      return Status::kUnsupportedSize;
    case CUFFT_ALLOC_FAILED:
      return from_cuda(cudaErrorMemoryAllocation);
    case CUFFT_INVALID_DEVICE:
      return Status::kArchMismatch;
    default:
      return Status::kBackendError;
  }
}

/// The factors applied before (into a buffer cuFFT then reads) and after the cuFFT execution.
struct ScaleSplit {
  float pre = 1.0f;
  float post = 1.0f;
};

/// n = desc.elements() (the real points of a real transform). FP16: n is a power of two
/// (cufft_can_implement), so both factors are exact for kByN.
inline ScaleSplit split_scale(PlanDesc const& desc) noexcept {
  if (desc.scaling == Scaling::kNone) return {};
  auto const n = static_cast<double>(desc.elements());
  double const total = desc.scaling == Scaling::kByN ? 1.0 / n : 1.0 / std::sqrt(n);
  if (desc.precision == Precision::kSingle) return {1.0f, static_cast<float>(total)};
  double const pre = std::ldexp(1.0, -(log2_exact(desc.elements()) / 2));
  return {static_cast<float>(pre), static_cast<float>(total / pre)};
}

/// Owns a cufftHandle until it is released to a plan object.
class HandleGuard {
 public:
  explicit HandleGuard(cufftHandle handle) noexcept : handle_(handle) {}
  ~HandleGuard() {
    if (owned_) (void)cufftDestroy(handle_);
  }
  HandleGuard(HandleGuard const&) = delete;
  HandleGuard& operator=(HandleGuard const&) = delete;
  [[nodiscard]] cufftHandle get() const noexcept { return handle_; }
  cufftHandle release() noexcept {
    owned_ = false;
    return handle_;
  }

 private:
  cufftHandle handle_;
  bool owned_ = true;
};

/// Hands a planned handle with its work-area size to a new plan object P(handle, work_area,
/// desc) in `out`; if that allocation fails the guard still destroys the handle.
template <class P>
[[nodiscard]] Status adopt_handle(HandleGuard& guard, std::size_t work_area, PlanDesc const& desc,
                                  std::unique_ptr<BackendPlan>& out) noexcept {
  auto* plan = new (std::nothrow) P(guard.get(), work_area, desc);
  if (plan == nullptr) return Status::kInternal;
  guard.release();
  out.reset(plan);
  return Status::kSuccess;
}

/// cufftSetStream + cufftSetWorkArea (when `work_area_bytes` > 0) + cufftXtExec under `mutex`
/// (a handle's stream and work area are mutable state; see cufft_plan.cpp).
inline Status exec_locked(std::mutex& mutex, cufftHandle handle, std::size_t work_area_bytes,
                          void* in, void* out, int sign, void* work_area,
                          cudaStream_t stream) noexcept {
  try {
    std::lock_guard<std::mutex> lock(mutex);
    if (Status s = from_cufft(cufftSetStream(handle, stream)); s != Status::kSuccess) return s;
    if (work_area_bytes > 0) {
      if (Status s = from_cufft(cufftSetWorkArea(handle, work_area)); s != Status::kSuccess) {
        return s;
      }
    }
    return from_cufft(cufftXtExec(handle, in, out, sign));
  } catch (...) {  // std::mutex::lock may throw std::system_error
    return Status::kInternal;
  }
}

/// Real-input plans (R2C / C2R) of the cuFFT backend (cufft_real_plan.cpp); `desc` already
/// passed cufft_can_implement.
[[nodiscard]] Status make_cufft_real_plan(PlanDesc const& desc,
                                          std::unique_ptr<BackendPlan>& out) noexcept;

}  // namespace fftcore::detail
