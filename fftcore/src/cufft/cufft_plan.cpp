// SPDX-License-Identifier: MIT
// The cuFFT backend behind detail::BackendPlan: one cufftXtMakePlanMany plan (CUDA_C_16F or
// CUDA_C_32F, batched, rank 1 or 2, natural layout; R2C / C2R in cufft_real_plan.cpp) run on the caller's stream and workspace,
// with fftcore's scaling policy applied by a small kernel (scale.cu), since cuFFT never scales.
//
// FP16 and overflow: for kByN and kBySqrtN the input is first multiplied by an exact power of
// two p = 2^-floor(log2(n)/2) into `out`, cuFFT then runs in place on `out`, and the rest of the
// scale is applied afterwards. Inputs with |x| <= 1 then stay below 2^ceil(log2(n)/2) inside
// cuFFT (<= 16384 up to n = 2^27), far from FP16's 65504. kNone leaves overflow to the caller.
//
// Concurrency: a cuFFT handle carries mutable state (its stream and work area). The public
// contract is that one Plan may run on several streams at once, so execute holds a mutex from
// cufftSetStream through cufftXtExec: each exec is enqueued with its own stream and workspace,
// and the enqueue (not the GPU work) is serialised. The scaling kernels run outside the lock.
#include <fftcore/fftcore.hpp>

#include "cufft/cufft_support.hpp"
#include "cufft/scale.hpp"
#include "detail/backend_plan.hpp"

#include <cufft.h>
#include <cufftXt.h>

#include <cstdint>
#include <mutex>
#include <new>

namespace fftcore::detail {
namespace {

// A plan whose transforms are all 1 point: the DFT is the identity, only the scale applies.
// (cuFFT is not asked for 1-point transforms.)
class IdentityPlan final : public BackendPlan {
 public:
  explicit IdentityPlan(PlanDesc const& desc) noexcept
      : precision_(desc.precision), count_(static_cast<std::size_t>(desc.batch)) {}

  std::size_t workspace_bytes() const noexcept override { return 0; }

  Status execute(void const* in, void* out, Direction, void*,
                 cudaStream_t stream) const noexcept override {
    if (in == out) return Status::kSuccess;
    // n = 1: every scaling policy's factor is 1, so this is a copy.
    return from_cuda(launch_complex_scale(precision_, in, out, count_, 1.0f, stream));
  }

 private:
  Precision precision_;
  std::size_t count_;
};

class CufftPlan final : public BackendPlan {
 public:
  CufftPlan(cufftHandle handle, std::size_t workspace, PlanDesc const& desc) noexcept
      : handle_(handle),
        workspace_(workspace),
        precision_(desc.precision),
        count_(static_cast<std::size_t>(desc.batch * desc.elements())),
        scale_(split_scale(desc)) {}

  ~CufftPlan() override { (void)cufftDestroy(handle_); }

  CufftPlan(CufftPlan const&) = delete;
  CufftPlan& operator=(CufftPlan const&) = delete;

  std::size_t workspace_bytes() const noexcept override { return workspace_; }

  Status execute(void const* in, void* out, Direction direction, void* workspace,
                 cudaStream_t stream) const noexcept override {
    void* source = const_cast<void*>(in);  // cuFFT does not write the input of a C2C transform
    if (scale_.pre != 1.0f) {
      Status s = from_cuda(launch_complex_scale(precision_, in, out, count_, scale_.pre, stream));
      if (s != Status::kSuccess) return s;
      source = out;
    }
    int const sign = direction == Direction::kForward ? CUFFT_FORWARD : CUFFT_INVERSE;
    if (Status s = exec_locked(mutex_, handle_, workspace_, source, out, sign, workspace, stream);
        s != Status::kSuccess) {
      return s;
    }
    if (scale_.post != 1.0f) {
      return from_cuda(launch_complex_scale(precision_, out, out, count_, scale_.post, stream));
    }
    return Status::kSuccess;
  }

 private:
  cufftHandle handle_;
  std::size_t workspace_;
  Precision precision_;
  std::size_t count_;  // complex elements of all transforms of one execute
  ScaleSplit scale_;
  mutable std::mutex mutex_;  // guards the handle's stream and work area (see file comment)
};

}  // namespace

Status cufft_can_implement(PlanDesc const& desc) noexcept {
  if (desc.rank != 1 && desc.rank != 2) return Status::kInvalidArgument;
  for (int axis = 0; axis < desc.rank; ++axis) {
    if (desc.dims[axis] <= 0) return Status::kInvalidArgument;
  }
  if (desc.batch <= 0) return Status::kInvalidArgument;
  if (desc.kind != Transform::kC2C && desc.dims[desc.rank - 1] < 2) {
    return Status::kUnsupportedSize;  // a real transform halves its last axis
  }
  if (desc.precision == Precision::kHalf) {
    // cuFFT's rule for CUDA_C_16F: every dimension a power of two.
    for (int axis = 0; axis < desc.rank; ++axis) {
      if (!is_power_of_two(desc.dims[axis])) return Status::kUnsupportedSize;
    }
    return Status::kSuccess;
  }
  if (desc.precision == Precision::kSingle) return Status::kSuccess;
  return Status::kInvalidArgument;
}

Status make_cufft_plan(PlanDesc const& desc, std::unique_ptr<BackendPlan>& out) noexcept {
  out.reset();
  if (Status s = cufft_can_implement(desc); s != Status::kSuccess) return s;
  if (desc.kind != Transform::kC2C) return make_cufft_real_plan(desc, out);
  // cuFFT sees only the extents > 1: a [1][n] or [n][1] item is a 1-D transform of n contiguous
  // points, and a 1-point transform is the identity.
  long long dims[2] = {1, 1};
  int rank = 0;
  for (int axis = 0; axis < desc.rank; ++axis) {
    if (desc.dims[axis] > 1) dims[rank++] = desc.dims[axis];
  }
  if (rank == 0) {
    out.reset(new (std::nothrow) IdentityPlan(desc));
    return out ? Status::kSuccess : Status::kInternal;
  }
  cufftHandle handle{};
  if (Status s = from_cufft(cufftCreate(&handle)); s != Status::kSuccess) return s;
  HandleGuard guard(handle);
  // The caller owns the workspace: cuFFT must not allocate its own at plan time.
  if (Status s = from_cufft(cufftSetAutoAllocation(handle, 0)); s != Status::kSuccess) return s;

  auto const type = desc.precision == Precision::kHalf ? CUDA_C_16F : CUDA_C_32F;
  std::size_t workspace = 0;
  // Null embeds select the natural layout: unit stride, transforms `elements()` apart.
  Status s = from_cufft(cufftXtMakePlanMany(handle, rank, dims, nullptr, 1,
                                            desc.elements(), type, nullptr, 1, desc.elements(),
                                            type, desc.batch, &workspace, type));
  if (s != Status::kSuccess) return s;

  return adopt_handle<CufftPlan>(guard, workspace, desc, out);
}

}  // namespace fftcore::detail
