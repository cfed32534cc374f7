// SPDX-License-Identifier: MIT
// Descriptor validation, backend choice and argument checks of the public API. The backends
// behind detail::BackendPlan do the work.
#include <fftcore/fftcore.hpp>

#include "detail/backend_plan.hpp"
#include "hooks.hpp"

#include <cstdint>
#include <new>

namespace fftcore {

struct Plan::Impl {
  PlanDesc desc;
  Backend backend = Backend::kAuto;
  std::unique_ptr<detail::BackendPlan> backend_plan;
};

Plan::Plan() noexcept = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;
Plan::~Plan() = default;

bool Plan::valid() const noexcept { return impl_ && impl_->backend_plan; }

PlanDesc const& Plan::desc() const noexcept {
  static PlanDesc const empty{};
  return impl_ ? impl_->desc : empty;
}

Backend Plan::backend() const noexcept { return impl_ ? impl_->backend : Backend::kAuto; }

std::size_t Plan::workspace_bytes() const noexcept {
  return valid() ? impl_->backend_plan->workspace_bytes() : 0;
}

int Plan::passes() const noexcept { return valid() ? impl_->backend_plan->passes() : 0; }

namespace {

// The largest total element count any plan may address (batch * elements), so that byte
// offsets stay far from overflow in 64-bit arithmetic.
constexpr std::int64_t kMaxTotalElements = std::int64_t{1} << 40;

Status validate(PlanDesc const& desc) noexcept {
  if (desc.rank != 1 && desc.rank != 2) return Status::kInvalidArgument;
  for (int axis = 0; axis < desc.rank; ++axis) {
    if (desc.dims[axis] <= 0) return Status::kInvalidArgument;
  }
  if (desc.batch <= 0) return Status::kInvalidArgument;
  if (desc.elements() > kMaxTotalElements / desc.batch) return Status::kInvalidArgument;
  if (desc.precision != Precision::kHalf && desc.precision != Precision::kSingle) {
    return Status::kInvalidArgument;
  }
  if (desc.kind != Transform::kC2C && desc.kind != Transform::kR2C &&
      desc.kind != Transform::kC2R) {
    return Status::kInvalidArgument;
  }
  // A real transform halves its last axis: it needs at least 2 points there.
  if (desc.kind != Transform::kC2C && desc.dims[desc.rank - 1] < 2) {
    return Status::kUnsupportedSize;
  }
  return Status::kSuccess;
}

Backend choose(PlanDesc const& desc) noexcept {
  if (desc.backend != Backend::kAuto) return desc.backend;
  return detail::tensor_core_can_implement(desc) == Status::kSuccess ? Backend::kTensorCore
                                                                     : Backend::kCufft;
}

}  // namespace

Status can_implement(PlanDesc const& desc) noexcept {
  if (Status s = validate(desc); s != Status::kSuccess) return s;
  return choose(desc) == Backend::kTensorCore ? detail::tensor_core_can_implement(desc)
                                              : detail::cufft_can_implement(desc);
}

Status make_plan(PlanDesc const& desc, Plan& plan) noexcept {
  plan = Plan{};
  if (Status s = can_implement(desc); s != Status::kSuccess) return s;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    return Status::kNoDevice;
  }
  auto impl = std::unique_ptr<Plan::Impl>(new (std::nothrow) Plan::Impl{});
  if (!impl) return Status::kInternal;
  impl->desc = desc;
  impl->backend = choose(desc);
  Status s = impl->backend == Backend::kTensorCore
                 ? detail::make_tensor_core_plan(desc, impl->backend_plan)
                 : detail::make_cufft_plan(desc, impl->backend_plan);
  if (s != Status::kSuccess) return s;
  plan.impl_ = std::move(impl);
  return Status::kSuccess;
}

namespace {

/// The argument checks shared by both execute forms.
Status check_execute(Plan const& plan, void const* in, void const* out, Direction direction,
                     void const* workspace, std::size_t workspace_bytes) noexcept {
  if (!plan.valid()) return Status::kInvalidPlan;
  if (in == nullptr || out == nullptr) return Status::kInvalidArgument;
  if (direction != Direction::kForward && direction != Direction::kInverse) {
    return Status::kInvalidArgument;
  }
  Transform const kind = plan.desc().kind;
  if ((kind == Transform::kR2C && direction != Direction::kForward) ||
      (kind == Transform::kC2R && direction != Direction::kInverse)) {
    return Status::kWrongDirection;
  }
  if (kind != Transform::kC2C && in == out) return Status::kInvalidArgument;  // out-of-place only
  auto const align = element_bytes(plan.desc().precision);
  if (reinterpret_cast<std::uintptr_t>(in) % align != 0 ||
      reinterpret_cast<std::uintptr_t>(out) % align != 0) {
    return Status::kMisaligned;
  }
  std::size_t const needed = plan.workspace_bytes();
  if (needed > 0 && (workspace == nullptr || workspace_bytes < needed)) {
    return Status::kWorkspaceTooSmall;
  }
  return Status::kSuccess;
}

}  // namespace

Status execute(Plan const& plan, void const* in, void* out, Direction direction,
               void* workspace, std::size_t workspace_bytes, cudaStream_t stream) noexcept {
  if (Status s = check_execute(plan, in, out, direction, workspace, workspace_bytes);
      s != Status::kSuccess) {
    return s;
  }
  return plan.impl_->backend_plan->execute(in, out, direction, workspace, stream);
}

Status execute(Plan const& plan, void const* in, void* out, Direction direction,
               void* workspace, std::size_t workspace_bytes, cudaStream_t stream,
               ExecuteHooks const& hooks) noexcept {
  if (Status s = check_execute(plan, in, out, direction, workspace, workspace_bytes);
      s != Status::kSuccess) {
    return s;
  }
  detail::BackendPlan const& backend = *plan.impl_->backend_plan;
  if (!hooks.any()) return backend.execute(in, out, direction, workspace, stream);
  if (plan.desc().kind != Transform::kC2C) return Status::kInvalidArgument;
  auto const misaligned = [](float2 const* p) {
    return reinterpret_cast<std::uintptr_t>(p) % alignof(float2) != 0;
  };
  if (misaligned(hooks.load_factors) || misaligned(hooks.store_factors)) {
    return Status::kMisaligned;
  }
  if (backend.fuses_hooks()) {
    return backend.execute_fused(in, out, direction, workspace, stream, hooks);
  }
  // Unfused: the input times its factors into `out`, the transform in place there, then the
  // output times its factors.
  PlanDesc const& desc = plan.desc();
  auto const n = static_cast<std::size_t>(desc.elements());
  auto const count = n * static_cast<std::size_t>(desc.batch);
  void const* source = in;
  if (hooks.load_factors != nullptr) {
    if (Status s = detail::from_cuda(detail::launch_multiply(
            desc.precision, in, out, count, hooks.load_factors, n, false, stream));
        s != Status::kSuccess) {
      return s;
    }
    source = out;
  }
  if (Status s = backend.execute(source, out, direction, workspace, stream);
      s != Status::kSuccess) {
    return s;
  }
  if (hooks.store_factors == nullptr) return Status::kSuccess;
  return detail::from_cuda(detail::launch_multiply(desc.precision, out, out, count,
                                                   hooks.store_factors, n,
                                                   hooks.conjugate_store, stream));
}

}  // namespace fftcore
