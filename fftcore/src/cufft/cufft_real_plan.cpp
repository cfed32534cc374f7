// SPDX-License-Identifier: MIT
// R2C / C2R plans of the cuFFT backend: one cufftXtMakePlanMany plan with a real type on one
// side (CUDA_R_16F / CUDA_R_32F) and the complex type on the other, execution type complex,
// cuFFT's half-spectrum layout (rank 1: n/2 + 1 values; rank 2: rows x (cols/2 + 1)).
//
// The workspace holds a copy of the input ahead of cuFFT's own work area:
// - R2C with a pre-scale (FP16, kByN / kBySqrtN): the input times the power of two p (the
//   overflow rule of cufft_plan.cpp) goes there; cuFFT reads the copy. Without a pre-scale
//   cuFFT reads the input directly (an out-of-place R2C does not write its input).
// - C2R: always (an out-of-place C2R overwrites its input in cuFFT, and ours is const).
// The rest of the scale is applied to the output afterwards.
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

constexpr std::size_t kAlign = 256;

std::size_t align_up(std::size_t bytes) noexcept { return (bytes + kAlign - 1) / kAlign * kAlign; }

class CufftRealPlan final : public BackendPlan {
 public:
  CufftRealPlan(cufftHandle handle, std::size_t work_area, PlanDesc const& desc) noexcept
      : handle_(handle),
        work_area_(work_area),
        r2c_(desc.kind == Transform::kR2C),
        precision_(desc.precision),
        real_count_(static_cast<std::size_t>(desc.batch * desc.elements())),
        complex_count_(static_cast<std::size_t>(desc.batch * desc.spectrum_elements())),
        scale_(split_scale(desc)) {
    bool const copy = !r2c_ || scale_.pre != 1.0f;
    copy_bytes_ = !copy  ? 0
                  : r2c_ ? align_up(real_count_ * real_element_bytes(precision_))
                         : align_up(complex_count_ * element_bytes(precision_));
  }

  ~CufftRealPlan() override { (void)cufftDestroy(handle_); }

  CufftRealPlan(CufftRealPlan const&) = delete;
  CufftRealPlan& operator=(CufftRealPlan const&) = delete;

  std::size_t workspace_bytes() const noexcept override { return copy_bytes_ + work_area_; }

  Status execute(void const* in, void* out, Direction, void* workspace,
                 cudaStream_t stream) const noexcept override {
    // The direction was checked against the kind by fftcore::execute.
    void* source = const_cast<void*>(in);  // read-only unless copied below
    if (copy_bytes_ > 0) {
      cudaError_t const e =
          r2c_
              ? launch_real_scale(precision_, in, workspace, real_count_, scale_.pre, stream)
              : launch_complex_scale(precision_, in, workspace, complex_count_, scale_.pre, stream);
      if (Status s = from_cuda(e); s != Status::kSuccess) return s;
      source = workspace;
    }
    void* work_area = workspace == nullptr ? nullptr : static_cast<char*>(workspace) + copy_bytes_;
    int const sign = r2c_ ? CUFFT_FORWARD : CUFFT_INVERSE;
    if (Status s = exec_locked(mutex_, handle_, work_area_, source, out, sign, work_area, stream);
        s != Status::kSuccess) {
      return s;
    }
    if (scale_.post == 1.0f) return Status::kSuccess;
    return from_cuda(
        r2c_ ? launch_complex_scale(precision_, out, out, complex_count_, scale_.post, stream)
             : launch_real_scale(precision_, out, out, real_count_, scale_.post, stream));
  }

 private:
  cufftHandle handle_;
  std::size_t work_area_;   // cuFFT's, after the copy
  std::size_t copy_bytes_;  // the input copy at the start of the workspace (0: none)
  bool r2c_;
  Precision precision_;
  std::size_t real_count_;     // reals of all transforms of one execute
  std::size_t complex_count_;  // half-spectrum values of all transforms
  ScaleSplit scale_;
  mutable std::mutex mutex_;  // guards the handle's stream and work area
};

}  // namespace

Status make_cufft_real_plan(PlanDesc const& desc, std::unique_ptr<BackendPlan>& out) noexcept {
  out.reset();
  // A [1][cols] item is the 1-D transform of its row (same half-spectrum layout); any other
  // extent stays, since the last axis is the halved one.
  long long dims[2] = {desc.dims[0], desc.rank == 2 ? desc.dims[1] : 1};
  int rank = desc.rank;
  if (rank == 2 && dims[0] == 1) {
    dims[0] = dims[1];
    rank = 1;
  }
  cufftHandle handle{};
  if (Status s = from_cufft(cufftCreate(&handle)); s != Status::kSuccess) return s;
  HandleGuard guard(handle);
  if (Status s = from_cufft(cufftSetAutoAllocation(handle, 0)); s != Status::kSuccess) return s;

  bool const half = desc.precision == Precision::kHalf;
  auto const real = half ? CUDA_R_16F : CUDA_R_32F;
  auto const cplx = half ? CUDA_C_16F : CUDA_C_32F;
  bool const r2c = desc.kind == Transform::kR2C;
  long long const real_dist = desc.elements();
  long long const cplx_dist = desc.spectrum_elements();
  std::size_t work_area = 0;
  // Null embeds select the natural layout (the distances are then cuFFT's defaults, the same
  // as given here).
  Status s = from_cufft(cufftXtMakePlanMany(
      handle, rank, dims, nullptr, 1, r2c ? real_dist : cplx_dist, r2c ? real : cplx, nullptr, 1,
      r2c ? cplx_dist : real_dist, r2c ? cplx : real, desc.batch, &work_area, cplx));
  if (s != Status::kSuccess) return s;

  return adopt_handle<CufftRealPlan>(guard, work_area, desc, out);
}

}  // namespace fftcore::detail
