// SPDX-License-Identifier: MIT
// The seam between the public Plan and the backends. Each backend provides a can_implement
// (host-only, no device needed) and a factory returning a BackendPlan. A BackendPlan is
// immutable after construction; execute is const and may run on several streams at once.
#pragma once

#include <fftcore/fftcore.hpp>

#include <cstddef>
#include <memory>

namespace fftcore::detail {

class BackendPlan {
 public:
  virtual ~BackendPlan() = default;
  [[nodiscard]] virtual std::size_t workspace_bytes() const noexcept = 0;
  /// Kernel passes over global memory that execute makes; 0 where the backend does not say.
  [[nodiscard]] virtual int passes() const noexcept { return 0; }
  /// Arguments already validated by fftcore::execute (non-null, aligned, workspace large enough).
  [[nodiscard]] virtual Status execute(void const* in, void* out, Direction direction,
                                       void* workspace, cudaStream_t stream) const noexcept = 0;
  /// Whether execute_fused applies ExecuteHooks inside the transform; otherwise fftcore::execute
  /// applies them with separate kernels (src/hooks.cu) around execute.
  [[nodiscard]] virtual bool fuses_hooks() const noexcept { return false; }
  [[nodiscard]] virtual Status execute_fused(void const* /*in*/, void* /*out*/,
                                             Direction /*direction*/, void* /*workspace*/,
                                             cudaStream_t /*stream*/,
                                             ExecuteHooks const& /*hooks*/) const noexcept {
    return Status::kInternal;
  }
};

/// cuFFT backend (src/cufft/): FP16 needs power-of-two dims, FP32 takes any size.
[[nodiscard]] Status cufft_can_implement(PlanDesc const& desc) noexcept;
[[nodiscard]] Status make_cufft_plan(PlanDesc const& desc,
                                     std::unique_ptr<BackendPlan>& out) noexcept;

/// Tensor Core backend (src/tc/): FP16, power-of-two dims.
[[nodiscard]] Status tensor_core_can_implement(PlanDesc const& desc) noexcept;
[[nodiscard]] Status make_tensor_core_plan(PlanDesc const& desc,
                                           std::unique_ptr<BackendPlan>& out) noexcept;
/// Its R2C / C2R plans (src/tc/tc_real_plan.cpp), called by make_tensor_core_plan.
[[nodiscard]] Status make_tensor_core_real_plan(PlanDesc const& desc,
                                                std::unique_ptr<BackendPlan>& out) noexcept;
/// Plan-time device check of the Tensor Core backend: sm_80+, kernel images present, shared
/// memory limits raised (kArchMismatch, or kCudaError).
[[nodiscard]] Status check_tensor_core_device() noexcept;

/// Records `error` as last_cuda_error() and returns kCudaError, or kSuccess for cudaSuccess.
Status from_cuda(cudaError_t error) noexcept;

}  // namespace fftcore::detail
