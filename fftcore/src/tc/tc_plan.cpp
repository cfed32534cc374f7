// SPDX-License-Identifier: MIT
// The Tensor Core backend behind detail::BackendPlan: plan-time checks, the twiddle tables on
// the device (uploaded once, immutable), and execute, which enqueues the passes of the layout
// with nothing but kernel launches (no allocation, no synchronisation: graph-capturable).
#include "detail/backend_plan.hpp"

#include "tc/kernels/pass_launch.hpp"
#include "tc/plan_logic.hpp"
#include "tc/twiddle_tables.hpp"

#include <cuda_runtime_api.h>

#include <new>
#include <utility>
#include <vector>

namespace fftcore::detail {
namespace {

/// Owner of a device array of float2; move-only, frees without throwing.
class DeviceTable {
 public:
  DeviceTable() = default;
  DeviceTable(DeviceTable const&) = delete;
  DeviceTable& operator=(DeviceTable const&) = delete;
  ~DeviceTable() {
    if (data_ != nullptr) (void)cudaFree(data_);
  }

  /// Allocates and uploads `values` (synchronous: plan time only).
  Status upload(std::vector<float2> const& values) noexcept {
    std::size_t const bytes = values.size() * sizeof(float2);
    void* raw = nullptr;
    if (Status s = from_cuda(cudaMalloc(&raw, bytes)); s != Status::kSuccess) return s;
    data_ = static_cast<float2*>(raw);
    return from_cuda(cudaMemcpy(data_, values.data(), bytes, cudaMemcpyHostToDevice));
  }
  [[nodiscard]] float2 const* get() const noexcept { return data_; }

 private:
  float2* data_ = nullptr;
};

class TensorCorePlan final : public BackendPlan {
 public:
  explicit TensorCorePlan(tc::PassLayout layout) : layout_(std::move(layout)) {}

  Status upload_tables() noexcept {
    try {
      if (Status s = coarse_.upload(tc::make_coarse_twiddles()); s != Status::kSuccess) {
        return s;
      }
      return fine_.upload(tc::make_fine_twiddles());
    } catch (std::bad_alloc const&) {
      return Status::kInternal;
    }
  }

  [[nodiscard]] std::size_t workspace_bytes() const noexcept override {
    return layout_.workspace_bytes;
  }

  [[nodiscard]] Status execute(void const* in, void* out, Direction direction, void* workspace,
                               cudaStream_t stream) const noexcept override {
    bool const inverse = direction == Direction::kInverse;
    for (tc::PassParams const& pass : layout_.passes) {
      void const* src = pass.src == tc::Buffer::kIn          ? in
                        : pass.src == tc::Buffer::kWorkspace ? workspace
                                                             : out;
      void* dst = pass.dst == tc::Buffer::kWorkspace ? workspace : out;
      Status s = from_cuda(
          tc::launch_pass(pass, src, dst, coarse_.get(), fine_.get(), inverse, stream));
      if (s != Status::kSuccess) return s;
    }
    return Status::kSuccess;
  }

 private:
  tc::PassLayout layout_;
  DeviceTable coarse_;
  DeviceTable fine_;
};

/// kArchMismatch unless the current device has mma.sync m16n8k16 (sm_80+).
Status check_device() noexcept {
  int device = 0;
  if (Status s = from_cuda(cudaGetDevice(&device)); s != Status::kSuccess) return s;
  int major = 0;
  if (Status s = from_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                                  device));
      s != Status::kSuccess) {
    return s;
  }
  return major >= 8 ? Status::kSuccess : Status::kArchMismatch;
}

}  // namespace

Status tensor_core_can_implement(PlanDesc const& desc) noexcept {
  return tc::check_descriptor(desc);
}

Status make_tensor_core_plan(PlanDesc const& desc, std::unique_ptr<BackendPlan>& out) noexcept {
  tc::PassLayout layout;
  if (Status s = tc::build_layout(desc, tc::PlanOptions{}, layout); s != Status::kSuccess) {
    return s;
  }
  if (Status s = check_device(); s != Status::kSuccess) return s;
  cudaError_t const prepared = tc::prepare_pass_kernels();
  if (prepared == cudaErrorInvalidDeviceFunction || prepared == cudaErrorNoKernelImageForDevice) {
    (void)cudaGetLastError();
    return Status::kArchMismatch;
  }
  if (Status s = from_cuda(prepared); s != Status::kSuccess) return s;
  auto plan = std::unique_ptr<TensorCorePlan>(new (std::nothrow) TensorCorePlan(
      std::move(layout)));
  if (!plan) return Status::kInternal;
  if (Status s = plan->upload_tables(); s != Status::kSuccess) return s;
  out = std::move(plan);
  return Status::kSuccess;
}

}  // namespace fftcore::detail
