// SPDX-License-Identifier: MIT
// The Tensor Core backend behind detail::BackendPlan: plan-time checks, the twiddle tables on
// the device (uploaded once, immutable), and execute, which enqueues the passes of the layout
// with nothing but kernel launches (no allocation, no synchronisation: graph-capturable).
#include "detail/backend_plan.hpp"

#include "hooks.hpp"
#include "tc/cross_rows_layout.hpp"
#include "tc/device_table.hpp"
#include "tc/kernels/pass_launch.hpp"
#include "tc/plan_logic.hpp"
#include "tc/tall_pass_layout.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

namespace fftcore::detail {
namespace {

class TensorCorePlan final : public BackendPlan {
 public:
  TensorCorePlan(tc::PassLayout layout, std::int64_t elements, std::int64_t total)
      : layout_(std::move(layout)), elements_(elements), total_(total) {
    // The cross-row stage's two passes, derived once (tc::runs_cross_rows: the plan's pair).
    crosses_rows_ =
        layout_.passes.size() == 2 && tc::runs_cross_rows(layout_.passes[0], layout_.passes[1]);
    if (crosses_rows_) {
      cross_rows_pass_ = tc::cross_rows::row_pass(layout_.passes[0], layout_.passes[1]);
      cross_columns_pass_ = tc::cross_rows::column_pass(layout_.passes[1]);
    }
    // Whether a store hook rides in the last pass, derived once (run multiplies afterwards
    // otherwise). A register-chained last pass gathers its store factors per warp with the
    // output stride; where that stride is not 1 (multi-pass 1-D, 2-D columns) the gather cost
    // more than a separate multiply kernel (H200 fusion_bench: 0.95x), so those multiply
    // afterwards, unless the hooked pass runs on the tall pass's rows form (the transposing last
    // passes of 2048 and 4096 points of 1-D plans; it applies the factors in its store, session
    // 41: fused chain 2^19 4.07 -> 3.60 ms, 2^22 4.72 -> 4.27, 2^27 6.44 -> 5.78 on the H200).
    // The tall pass's column form (2-D column passes) applies them too since session 42
    // (measured 512x512 3.47 -> 2.95 ms, 2048x2048 3.86 -> 3.39 in session 41's call);
    // FFTCORE_TC_TALL_COLUMN_HOOK=0 multiplies afterwards there (ctest Hooks.TallColumnHookUnfused).
    // NOTES.md sessions 41 and 42.
    static bool const column_hook = tc::env_mode("FFTCORE_TC_TALL_COLUMN_HOOK") != 0;
    tc::PassParams const& final_pass = layout_.passes.back();
    if (tc::runs_fast_pass(final_pass) && final_pass.out_elem_stride != 1) {
      static float2 const any_factor{};  // the kernels' rules ask only whether there is a hook
      tc::PassParams hooked = final_pass;
      hooked.store_factors = &any_factor;
      store_hook_fused_ =
          (column_hook || tc::tall_pass::rows_eligible(hooked)) && tc::runs_tall_pass(hooked);
    }
  }

  Status upload_tables() noexcept { return tc::upload_twiddle_tables(coarse_, fine_); }

  [[nodiscard]] std::size_t workspace_bytes() const noexcept override {
    return layout_.workspace_bytes;
  }

  [[nodiscard]] int passes() const noexcept override {
    return static_cast<int>(layout_.passes.size());
  }

  [[nodiscard]] Status execute(void const* in, void* out, Direction direction, void* workspace,
                               cudaStream_t stream) const noexcept override {
    return run(in, out, direction, workspace, stream, nullptr);
  }

  [[nodiscard]] bool fuses_hooks() const noexcept override { return true; }

  [[nodiscard]] Status execute_fused(void const* in, void* out, Direction direction,
                                     void* workspace, cudaStream_t stream,
                                     ExecuteHooks const& hooks) const noexcept override {
    return run(in, out, direction, workspace, stream, &hooks);
  }

 private:
  /// The passes in order; hooks go to a copy of the first pass (load, it reads `in`) and of the
  /// last one (store, it writes `out`). Store hooks run in the last pass of the general or the
  /// register-chained kernel (but see fuse_store). A load hook runs in the first pass of the
  /// general kernel; where that pass takes the register-chained kernel (which has no load
  /// hook), the input is multiplied into `out` by a separate kernel first and the passes read
  /// from there, rather than moving the pass to the slower general kernel. A pass of L <= 8
  /// that carries a hook leaves the short kernel (small::eligible excludes hooks) for the
  /// general one (launch_pass decides on the hooked copy), so nothing here needs to know.
  Status run(void const* in, void* out, Direction direction, void* workspace,
             cudaStream_t stream, ExecuteHooks const* hooks) const noexcept {
    bool const inverse = direction == Direction::kInverse;
    std::size_t const last = layout_.passes.size() - 1;
    if (hooks == nullptr && crosses_rows_ && apart(in, out)) {
      // 2048 x 2048 images with the column transform's radix-4 first stage in the row pass and
      // a 512-row column pass (cross_rows_layout.hpp); where the pointers do not allow it
      // (cudaErrorNotSupported), the plan's own two passes below.
      cudaError_t const e =
          tc::launch_cross_rows(cross_rows_pass_, in, out, coarse_.get(), inverse, stream);
      if (e == cudaSuccess) {
        return from_cuda(tc::launch_pass(cross_columns_pass_, out, out, coarse_.get(), fine_.get(),
                                         inverse, stream));
      }
      if (e != cudaErrorNotSupported) return from_cuda(e);
    }
    bool fuse_load = hooks != nullptr && hooks->load_factors != nullptr;
    if (fuse_load && tc::runs_fast_pass(layout_.passes.front())) {
      if (Status s = from_cuda(launch_multiply(Precision::kHalf, in, out,
                                               static_cast<std::size_t>(total_),
                                               hooks->load_factors,
                                               static_cast<std::size_t>(elements_), false, stream));
          s != Status::kSuccess) {
        return s;
      }
      in = out;
      fuse_load = false;
    }
    bool const fuse_store =
        hooks != nullptr && hooks->store_factors != nullptr && store_hook_fused_;
    for (std::size_t i = 0; i <= last; ++i) {
      tc::PassParams pass = layout_.passes[i];
      if (hooks != nullptr) {
        pass.factor_mask = static_cast<std::uint32_t>(elements_ - 1);
        if (i == 0 && fuse_load) pass.load_factors = hooks->load_factors;
        if (i == last && fuse_store) {
          pass.store_factors = hooks->store_factors;
          pass.conjugate_store = hooks->conjugate_store ? 1 : 0;
        }
      }
      void const* src = pass.src == tc::Buffer::kIn          ? in
                        : pass.src == tc::Buffer::kWorkspace ? workspace
                                                             : out;
      void* dst = pass.dst == tc::Buffer::kWorkspace ? workspace : out;
      Status s = from_cuda(
          tc::launch_pass(pass, src, dst, coarse_.get(), fine_.get(), inverse, stream));
      if (s != Status::kSuccess) return s;
    }
    if (hooks != nullptr && hooks->store_factors != nullptr && !fuse_store) {
      return from_cuda(launch_multiply(Precision::kHalf, out, out, static_cast<std::size_t>(total_),
                                       hooks->store_factors, static_cast<std::size_t>(elements_),
                                       hooks->conjugate_store, stream));
    }
    return Status::kSuccess;
  }

  /// Whether the batch's input and output do not overlap (the cross-row stage's row pass writes
  /// rows other blocks read).
  [[nodiscard]] bool apart(void const* in, void const* out) const noexcept {
    auto const a = reinterpret_cast<std::uintptr_t>(in);
    auto const b = reinterpret_cast<std::uintptr_t>(out);
    std::uintptr_t const bytes = static_cast<std::uintptr_t>(total_) * 4u;
    return a + bytes <= b || b + bytes <= a;
  }

  tc::PassLayout layout_;
  std::int64_t elements_;  ///< of one transform, a power of two
  std::int64_t total_;     ///< of the whole batch
  bool crosses_rows_ = false;          ///< out of place, the cross-row stage's two passes
  bool store_hook_fused_ = true;       ///< a store hook rides in the last pass (constructor)
  tc::PassParams cross_rows_pass_;     ///< cross_rows::row_pass of the plan's pair
  tc::PassParams cross_columns_pass_;  ///< cross_rows::column_pass of it
  tc::DeviceTable coarse_;
  tc::DeviceTable fine_;
};

}  // namespace

Status check_tensor_core_device() noexcept {
  int device = 0;
  if (Status s = from_cuda(cudaGetDevice(&device)); s != Status::kSuccess) return s;
  int major = 0;
  if (Status s = from_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                                                  device));
      s != Status::kSuccess) {
    return s;
  }
  if (major < 8) return Status::kArchMismatch;
  cudaError_t const prepared = tc::prepare_pass_kernels();
  if (prepared == cudaErrorInvalidDeviceFunction || prepared == cudaErrorNoKernelImageForDevice) {
    (void)cudaGetLastError();
    return Status::kArchMismatch;
  }
  return from_cuda(prepared);
}

Status tensor_core_can_implement(PlanDesc const& desc) noexcept {
  return tc::check_descriptor(desc);
}

Status make_tensor_core_plan(PlanDesc const& desc, std::unique_ptr<BackendPlan>& out) noexcept {
  if (desc.kind != Transform::kC2C) return make_tensor_core_real_plan(desc, out);
  tc::PassLayout layout;
  tc::PlanOptions options;
  try {
    // FFTCORE_TC_SPLIT="a,b[,c]": the pass lengths of every axis of 2^(a+b+c) points, for A/B
    // measurements of the planner's split in one build (unset: the planner decides).
    options.split = tc::split_override(std::getenv("FFTCORE_TC_SPLIT"));
    // 2^21..2^23 in two passes on the tall pass, unless it is switched off.
    options.tall_two_pass = tc::env_switch_on("FFTCORE_TC_TALL_PASS");
    // 2^24 so too, with its last pass on the tall pass's rows form, unless that is off.
    options.tall_rows = tc::tall_rows_plans_on();
    // Fast-DRAM devices (the H200) take other splits at some 1-D sizes (fast_dram_split).
    options.fast_dram = tc::fast_dram_device();
    // FFTCORE_TC_COLUMNS="c,e": strided passes over 2^c adjacent columns while tiles stay
    // within 2^e elements (PlanOptions), parsed like the split; unset: the defaults.
    std::vector<int> const columns = tc::split_override(std::getenv("FFTCORE_TC_COLUMNS"));
    if (columns.size() == 2) {
      options.strided_log_columns = columns[0];
      options.strided_log_elements = columns[1];
    }
    // FFTCORE_TC_STRIDED_TILE="t": at most 2^t sequences per strided register-chained tile.
    if (char const* tile = std::getenv("FFTCORE_TC_STRIDED_TILE"); tile != nullptr) {
      char* end = nullptr;
      long const t = std::strtol(tile, &end, 10);
      if (end != tile && *end == '\0' && t >= 0 && t <= tc::kLogMaxBlockElements) {
        options.strided_max_log_tile = static_cast<int>(t);
      }
    }
  } catch (std::bad_alloc const&) {
    return Status::kInternal;
  }
  if (Status s = tc::build_layout(desc, options, layout); s != Status::kSuccess) return s;
  if (Status s = check_tensor_core_device(); s != Status::kSuccess) return s;
  auto plan = std::unique_ptr<TensorCorePlan>(new (std::nothrow) TensorCorePlan(
      std::move(layout), desc.elements(), desc.batch * desc.elements()));
  if (!plan) return Status::kInternal;
  if (Status s = plan->upload_tables(); s != Status::kSuccess) return s;
  out = std::move(plan);
  return Status::kSuccess;
}

}  // namespace fftcore::detail
