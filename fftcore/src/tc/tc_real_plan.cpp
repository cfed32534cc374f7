// SPDX-License-Identifier: MIT
// R2C / C2R plans of the Tensor Core backend (the steps are in real_layout.hpp): the complex
// sub-plans run the existing pass kernel with their buffers mapped into the caller's `in`,
// `out` and workspace, and the split kernel (real_transform.cu) sits between the row and
// column FFTs. Execute is kernel launches only (no allocation, no synchronisation).
#include "detail/backend_plan.hpp"

#include "tc/device_table.hpp"
#include "tc/kernels/pass_launch.hpp"
#include "tc/real_layout.hpp"
#include "tc/real_transform.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <new>
#include <utility>

namespace fftcore::detail {
namespace {

/// The caller's buffers of one execute, and the workspace regions of the layout.
struct Buffers {
  void const* in;
  void* out;
  char* workspace;
};

class TensorCoreRealPlan final : public BackendPlan {
 public:
  explicit TensorCoreRealPlan(tc::RealLayout layout) : layout_(std::move(layout)) {}

  Status upload_tables() noexcept { return tc::upload_twiddle_tables(coarse_, fine_); }

  [[nodiscard]] std::size_t workspace_bytes() const noexcept override {
    return layout_.workspace_bytes;
  }

  /// The row and column passes and the split kernel between them.
  [[nodiscard]] int passes() const noexcept override {
    return static_cast<int>(layout_.row.passes.size() + layout_.column.passes.size()) +
           (layout_.split_in_row_pass() ? 0 : 1);  // small: one kernel
  }

  [[nodiscard]] Status execute(void const* in, void* out, Direction, void* workspace,
                               cudaStream_t stream) const noexcept override {
    // The direction was checked against the kind by fftcore::execute.
    Buffers const b{in, out, static_cast<char*>(workspace)};
    bool const rank2 = !layout_.column.passes.empty();
    bool const has_rows = !layout_.row.passes.empty();
    tc::SplitArgs split;
    split.rows = layout_.rows;
    split.log_m = layout_.log_m;
    split.factor = layout_.split_factor;
    if (layout_.small && !rank2) {
      return from_cuda(tc::launch_small_real(split, layout_.r2c, in, out, stream));
    }
    if (layout_.small) {  // rank 2: the small real kernel between the data and Y (FP16, padded)
      split.pitch = layout_.y_pitch;
      void* const y = resolve(tc::RealBuffer::kY, b);
      if (layout_.r2c) {
        if (Status s = from_cuda(tc::launch_small_real(split, true, in, y, stream));
            s != Status::kSuccess) {
          return s;
        }
        return run(layout_.column, true, b, false, stream);
      }
      if (Status s = run(layout_.column, true, b, true, stream); s != Status::kSuccess) return s;
      return from_cuda(tc::launch_small_real(split, false, y, out, stream));
    }
    if (layout_.row_pairs) {  // rank 2, R2C: the column FFT (in -> Y), then the row pairs
      bool const inverse = !layout_.r2c;  // C2R: the row pairs (in -> Y), then the column FFT
      tc::PassLayout const& first = inverse ? layout_.row : layout_.column;
      tc::PassLayout const& second = inverse ? layout_.column : layout_.row;
      if (Status s = run(first, !inverse, b, inverse, stream); s != Status::kSuccess) return s;
      return run(second, inverse, b, inverse, stream);
    }
    if (layout_.r2c) {
      if (Status s = run(layout_.row, false, b, false, stream); s != Status::kSuccess) return s;
      // The split rode in the row pass's store (to out, or to Y in FP16), in the last row
      // pass's over sequence pairs or in the twin long pass (1-D, to out).
      if (layout_.split_in_row_pass()) {
        return run(layout_.column, true, b, false, stream);
      }
      split.in_fp32 = has_rows && !layout_.z_fp16;
      split.out_fp32 = rank2;
      void const* src = has_rows ? resolve(tc::RealBuffer::kZ, b) : in;
      void* dst = rank2 ? resolve(tc::RealBuffer::kY, b) : out;
      if (Status s = from_cuda(tc::launch_split_forward(split, src, dst, stream));
          s != Status::kSuccess) {
        return s;
      }
      return run(layout_.column, true, b, false, stream);
    }
    if (Status s = run(layout_.column, true, b, true, stream); s != Status::kSuccess) return s;
    // The split rides in the row pass's load, or in the first row pass's (1-D).
    if (layout_.split_in_row_pass()) return run(layout_.row, false, b, true, stream);
    split.in_fp32 = rank2;
    split.out_fp32 = has_rows && !layout_.z_fp16;
    void const* src = rank2 ? resolve(tc::RealBuffer::kY, b) : in;
    void* dst = has_rows ? resolve(tc::RealBuffer::kZ, b) : out;
    if (Status s = from_cuda(tc::launch_split_inverse(split, src, dst, stream));
        s != Status::kSuccess) {
      return s;
    }
    return run(layout_.row, false, b, true, stream);
  }

 private:
  [[nodiscard]] void* resolve(tc::RealBuffer which, Buffers const& b) const noexcept {
    switch (which) {
      case tc::RealBuffer::kIn:
        return const_cast<void*>(b.in);  // only ever read
      case tc::RealBuffer::kOut:
        return b.out;
      case tc::RealBuffer::kZ:
        return b.workspace + layout_.z_offset;
      case tc::RealBuffer::kY:
        return b.workspace + layout_.y_offset;
      case tc::RealBuffer::kRowWorkspace:
        return b.workspace + layout_.row_workspace_offset;
      case tc::RealBuffer::kColumnWorkspace:
        return b.workspace + layout_.column_workspace_offset;
    }
    return nullptr;
  }

  /// Enqueues the passes of one complex sub-plan (none when it is empty).
  Status run(tc::PassLayout const& sub, bool column, Buffers const& b, bool inverse,
             cudaStream_t stream) const noexcept {
    for (tc::PassParams const& pass : sub.passes) {
      void const* src = resolve(tc::real_buffer(layout_, column, pass.src), b);
      void* dst = resolve(tc::real_buffer(layout_, column, pass.dst), b);
      Status s =
          from_cuda(tc::launch_pass(pass, src, dst, coarse_.get(), fine_.get(), inverse, stream));
      if (s != Status::kSuccess) return s;
    }
    return Status::kSuccess;
  }

  tc::RealLayout layout_;
  tc::DeviceTable coarse_;
  tc::DeviceTable fine_;
};

/// A "from 2^k" switch: 0 where `name` is "0" (off), its value k where lo <= k <= hi (for A/B),
/// else `fallback` (unset or any other value: the default).
int env_log_from(char const* name, int lo, int hi, int fallback) noexcept {
  if (!tc::env_switch_on(name)) return 0;
  char const* v = std::getenv(name);
  int const k = v != nullptr ? std::atoi(v) : 0;
  return k >= lo && k <= hi ? k : fallback;
}

/// The row pairs' fewest columns (log2) from FFTCORE_TC_ROW_PAIRS (see below), 0 for none.
int row_pairs_log_columns() noexcept {
  if (!tc::env_switch_on("FFTCORE_TC_STOCKHAM_PASS")) return 0;
  return env_log_from("FFTCORE_TC_ROW_PAIRS", 9, 14, tc::kLogMinRowPairsColumns);
}

/// The mirror pass's fewest sequences (log2 D0) from FFTCORE_TC_REAL_MIRROR, 0 for none: unset,
/// tc::kLogMinMirrorSequences (the 1-D R2C and C2R of 2^17..2^20 reals); =0 off (the R2C's
/// paired split, split kernel or halves, the C2R's column split or halves, as before); =k
/// (9..12) from D0 = 2^k (2^(k + 8) reals), for A/B. FFTCORE_TC_C2R_MIRROR=0 turns it off for
/// the C2R alone. Read once per direction, as the other switches.
int mirror_log_sequences(bool c2r) noexcept {
  if (c2r && !tc::env_switch_on("FFTCORE_TC_C2R_MIRROR")) return 0;
  return env_log_from("FFTCORE_TC_REAL_MIRROR", 9, 12, tc::kLogMinMirrorSequences);
}

/// The C2R split kernel's fewest complex points (log2 M) from FFTCORE_TC_C2R_SPLIT_KERNEL, 0 for
/// none: unset, tc::kLogMinC2rSplitKernelM; =0 off (the split in the first row pass's load, as
/// before session 47); =k (12..26) from M = 2^k, for A/B.
int c2r_split_log_m() noexcept {
  return env_log_from("FFTCORE_TC_C2R_SPLIT_KERNEL", 12, 26, tc::kLogMinC2rSplitKernelM);
}

}  // namespace

Status make_tensor_core_real_plan(PlanDesc const& desc,
                                  std::unique_ptr<BackendPlan>& out) noexcept {
  // FFTCORE_TC_FUSED_SPLIT=0 (or the register-chained pass switched off) keeps the split in its
  // own kernel: for A/B measurements in one build.
  static bool const fuse =
      tc::env_switch_on("FFTCORE_TC_FUSED_SPLIT") && tc::env_switch_on("FFTCORE_TC_FAST_PASS");
  // FFTCORE_TC_TWIN_R2C=0 keeps the 2^15-real R2C on the fused Stockham pass (A/B).
  static bool const twin = tc::env_switch_on("FFTCORE_TC_TWIN_R2C");
  // FFTCORE_TC_ROW_PAIRS=0 keeps the 2-D R2C and C2R of 512 columns and more in the fused
  // order (R2C: the row pass, then the column FFT writing the half spectrum; C2R backwards),
  // =k (9..14) takes the row pairs from 2^k columns, for A/B; the row pairs run on the
  // Stockham pass, so its switch turns them off too.
  static int const row_pairs = row_pairs_log_columns();
  // FFTCORE_TC_REAL_TWO_PASS=0 keeps the 1-D R2C's row FFTs of 2^21..2^24 complex points in
  // three passes (A/B); else they take the complex plans' two-pass splits where those are on.
  static bool const tall =
      tc::env_switch_on("FFTCORE_TC_REAL_TWO_PASS") && tc::tall_rows_plans_on();
  // FFTCORE_TC_REAL_HALVES=0 keeps the 1-D R2C of 2^19..2^22 reals on the complex FFT of half
  // the points and the split, and the C2R of 2^20..2^24 on the column split (A/B); else two
  // tall passes over half the data where they apply (tall_real_layout.hpp). H100, ms per 2^28
  // reals, two runs each in one call: R2C (NOTES.md, session 25), against the complex FFT and
  // the split kernel, 2^19 1.25-1.27 against 1.32-1.33, 2^20 1.19-1.20 against 1.46, 2^21 1.22
  // against 1.46, 2^22 1.28 against 1.44-1.46; C2R (session 26), against the column split,
  // 2^20 1.16 against 1.22-1.23, 2^21 1.16 against 1.32-1.33, 2^22 1.17-1.18 against 1.37,
  // 2^23 1.16-1.17 against 1.40-1.41, 2^24 1.21 against 1.53.
  static bool const halves =
      tc::env_switch_on("FFTCORE_TC_REAL_HALVES") && tc::env_switch_on("FFTCORE_TC_TALL_PASS");
  // FFTCORE_TC_SMALL_512=0 keeps the 1-D R2C and C2R of 512 reals on the register-chained pass
  // with the split in its store or load (A/B); else the medium real kernel's shared split.
  static bool const small_512 = tc::env_switch_on("FFTCORE_TC_SMALL_512");
  // FFTCORE_TC_REAL_FAST_DRAM=0 keeps the slow-DRAM device's real choices on fast-DRAM devices
  // (A/B); else the R2C's row FFTs take fast_dram_split's splits where the complex plans do and
  // the R2C of 2^19 reals no halves (build_real_layout, session 41).
  bool const fast_dram =
      tc::env_switch_on("FFTCORE_TC_REAL_FAST_DRAM") && tc::fast_dram_device();
  static int const mirror_r2c = mirror_log_sequences(false);
  static int const mirror_c2r = mirror_log_sequences(true);
  int const mirror = desc.kind == Transform::kC2R ? mirror_c2r : mirror_r2c;
  static int const c2r_split = c2r_split_log_m();
  tc::RealLayout layout;
  if (Status s = tc::build_real_layout(desc, layout, fuse, twin, row_pairs, tall, halves,
                                       small_512, fast_dram, mirror, c2r_split);
      s != Status::kSuccess) {
    return s;
  }
  if (Status s = check_tensor_core_device(); s != Status::kSuccess) return s;
  auto plan =
      std::unique_ptr<TensorCoreRealPlan>(new (std::nothrow) TensorCoreRealPlan(std::move(layout)));
  if (!plan) return Status::kInternal;
  if (Status s = plan->upload_tables(); s != Status::kSuccess) return s;
  out = std::move(plan);
  return Status::kSuccess;
}

}  // namespace fftcore::detail
