// SPDX-License-Identifier: MIT
// Tensor Core backend: placeholder until the kernels land (issue 3). It refuses every
// descriptor, so kAuto falls back to cuFFT.
#include "detail/backend_plan.hpp"

namespace fftcore::detail {

Status tensor_core_can_implement(PlanDesc const&) noexcept { return Status::kUnsupportedSize; }

Status make_tensor_core_plan(PlanDesc const&, std::unique_ptr<BackendPlan>&) noexcept {
  return Status::kUnsupportedSize;
}

}  // namespace fftcore::detail
