// placeholder: being written
#include "detail/backend_plan.hpp"
namespace fftcore::detail {
Status cufft_can_implement(PlanDesc const&) noexcept { return Status::kUnsupportedSize; }
Status make_cufft_plan(PlanDesc const&, std::unique_ptr<BackendPlan>&) noexcept {
  return Status::kUnsupportedSize;
}
}  // namespace fftcore::detail
