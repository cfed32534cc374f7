// SPDX-License-Identifier: MIT
// GpuChain: plans and tables (prepare), and the per-frame enqueue of the device steps.
#include <tcfft/gpu/gpu_chain.hpp>

#include <tcfft/core/error.hpp>

#include "gpu/chain_impl.hpp"
#include "gpu/fused_gain.hpp"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace tcfft::gpu {
namespace {

/// Uploads `values` into a new device buffer (setup only: synchronous).
template <class T>
DeviceBuffer upload(std::vector<T> const& values) {
  DeviceBuffer buffer(values.size() * sizeof(T));
  if (!values.empty()) {
    TCFFT_CUDA_CHECK(cudaMemcpy(buffer.data(), values.data(), buffer.size(),
                                cudaMemcpyHostToDevice));
  }
  return buffer;
}

/// NVTX range for the enqueue of one step, so Nsight Systems names it.
class NvtxRange {
 public:
  explicit NvtxRange(char const* name) { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(NvtxRange const&) = delete;
  NvtxRange& operator=(NvtxRange const&) = delete;
};

}  // namespace

GpuChain::GpuChain(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GpuChain::~GpuChain() = default;

std::vector<GpuSinkSpec> const& GpuChain::sinks() const noexcept { return impl_->sinks; }
std::vector<std::string> const& GpuChain::op_names() const noexcept { return impl_->op_names; }

std::string GpuChain::describe() const {
  std::string text = impl_->precision + " " + impl_->backend +
                     (impl_->real ? " (real input: R2C / C2R)" : "") + ": ";
  for (std::size_t i = 0; i < impl_->op_names.size(); ++i) {
    text += (i ? " -> " : "") + impl_->op_names[i];
  }
  return text;
}

std::size_t GpuChain::raw_frame_bytes() const noexcept {
  return static_cast<std::size_t>(impl_->rows_per_frame * impl_->item()) * raw_bytes(impl_->dtype);
}

std::size_t GpuChain::work_frame_bytes() const noexcept { return impl_->work_bytes(); }

bool GpuChain::real_transforms() const noexcept { return impl_->real; }

std::size_t GpuChain::status_bytes() noexcept { return sizeof(detail::StatusWords); }

std::size_t GpuChain::sink_bytes(std::size_t k, std::int64_t rows) const {
  TCFFT_EXPECTS(k < impl_->sinks.size(), "sink index out of range");
  if (rows < 0) rows = impl_->rows_per_frame;
  for (auto const& op : impl_->ops) {
    if (op.kind != ChainOp::Kind::kSink || op.sink_index != k) continue;
    std::int64_t const stored = op.sink.bins - 2 * op.sink.context;  // overlap-save: cores
    return static_cast<std::size_t>(rows * op.sink.ny * stored) * out_bytes(op.sink.out);
  }
  return 0;
}

namespace {

/// A gain op right after a Tensor Core transform of whole items is applied inside that
/// transform's last pass (fftcore::ExecuteHooks::store_factors, FP32 factors made by the gain
/// kernel itself), which saves the gain kernel's read and write of the frame.
void fuse_gains(GpuChain::Impl& c) {
  for (std::size_t i = 0; i + 1 < c.ops.size(); ++i) {
    ChainOp& fft = c.ops[i];
    ChainOp& gain = c.ops[i + 1];
    if (fft.kind != ChainOp::Kind::kFft || gain.kind != ChainOp::Kind::kGain) continue;
    if (c.plans[fft.plan].backend() != fftcore::Backend::kTensorCore ||
        fft.plan_desc.kind != fftcore::Transform::kC2C || fft.plan_desc.elements() != c.item()) {
      continue;
    }
    c.tables.push_back(detail::make_gain_factors(gain.gain, c.item(), nullptr));
    fft.store_factors = c.tables.back().as<float2>();
    gain.fused = true;
  }
}

}  // namespace

void GpuChain::prepare(std::vector<std::string> const& sink_dtypes) {
  auto& c = *impl_;
  TCFFT_EXPECTS(!c.prepared, "GpuChain::prepare called twice");
  TCFFT_EXPECTS(sink_dtypes.size() == c.sinks.size(), "one stored dtype per sink");
  if (!c.convert_window.empty()) {
    c.tables.push_back(upload(c.convert_window));
    c.window_device = c.tables.back().as<float>();
  }
  for (auto& op : c.ops) {
    if (op.kind == ChainOp::Kind::kFft) {
      fftcore::Plan plan;
      if (auto const s = fftcore::make_plan(op.plan_desc, plan); s != fftcore::Status::kSuccess) {
        std::string message = op.name + ": cannot plan " + std::to_string(op.plan_desc.batch) +
                              " transforms: " + fftcore::to_string(s);
        if (s == fftcore::Status::kCudaError) {
          message += std::string(" (") + cudaGetErrorString(fftcore::last_cuda_error()) + ")";
        }
        throw FftError(message);
      }
      c.workspace = std::max(c.workspace, plan.workspace_bytes());
      op.plan = c.plans.size();
      c.plans.push_back(std::move(plan));
    } else if (op.kind == ChainOp::Kind::kGain && !op.real_table.empty()) {
      c.tables.push_back(upload(op.real_table));
      op.gain.table = c.tables.back().data();
    } else if (op.kind == ChainOp::Kind::kGain && !op.complex_table.empty()) {
      c.tables.push_back(upload(op.complex_table));
      op.gain.table = c.tables.back().data();
    } else if (op.kind == ChainOp::Kind::kSink) {
      auto const& word = sink_dtypes[op.sink_index];
      auto const out = parse_out_dtype(word);
      if (!out) throw ConfigError(op.name + ": stored dtype '" + word + "' has no GPU form");
      op.sink.out = *out;
    }
  }
  if (c.fuse) fuse_gains(c);
  // What stays a gain kernel reads its parametric response from a table made once here.
  for (auto& op : c.ops) {
    if (op.kind != ChainOp::Kind::kGain || op.fused || op.gain.mode != detail::GainMode::kParametric) {
      continue;
    }
    c.tables.push_back(detail::make_gain_table(op.gain, nullptr));
    op.gain.mode = detail::GainMode::kRealTable;
    op.gain.table = c.tables.back().data();
    op.gain.table_pitch = op.gain.view.line(op.gain.nx);
  }
  for (auto const& table : c.tables) c.table_bytes += table.size();
  c.prepared = true;
}

std::size_t GpuChain::workspace_bytes() const noexcept { return impl_->workspace; }
std::size_t GpuChain::table_bytes() const noexcept { return impl_->table_bytes; }

void GpuChain::enqueue(SlotDeviceView const& slot, std::int64_t rows, cudaStream_t stream,
                       cudaEvent_t const* op_done) const {
  auto const& c = *impl_;
  TCFFT_EXPECTS(c.prepared, "GpuChain::enqueue before prepare");
  TCFFT_EXPECTS(rows >= 0 && rows <= c.rows_per_frame, "frame rows out of range");
  auto* status = static_cast<detail::StatusWords*>(slot.status);
  auto const data = [&](WorkPlace const& place) -> void* {
    return static_cast<char*>(slot.work) + (place.region == 1 ? c.spectrum_offset() : 0);
  };
  std::size_t event = 0;
  auto const done = [&] {
    if (op_done != nullptr) TCFFT_CUDA_CHECK(cudaEventRecord(op_done[event], stream));
    ++event;
  };
  std::int64_t const count = rows * c.item();
  {
    NvtxRange const range("convert");
    detail::launch_reset_status(status, stream);
    if (c.convert.dynamic || c.convert.zero_nonfinite || is_floating(c.dtype)) {
      detail::launch_scan(c.dtype, slot.raw, count, status, stream);
    }
    detail::ConvertArgs args = c.convert;
    args.raw = slot.raw;
    args.count = count;
    args.total = c.rows_per_frame * c.item();
    args.work = slot.work;
    args.window = c.window_device;
    args.status = status;
    detail::launch_convert(args, stream);
    done();
  }
  for (auto const& op : c.ops) {
    NvtxRange const range(op.name.c_str());
    switch (op.kind) {
      case ChainOp::Kind::kFft: {
        fftcore::ExecuteHooks hooks;
        hooks.store_factors = op.store_factors;
        auto const s = fftcore::execute(c.plans[op.plan], data(op.at), data(op.to), op.direction,
                                        slot.workspace, slot.workspace_bytes, stream, hooks);
        if (s != fftcore::Status::kSuccess) {
          std::string message = op.name + ": fftcore execute failed: " + fftcore::to_string(s);
          if (s == fftcore::Status::kCudaError) {
            message += std::string(" (") + cudaGetErrorString(fftcore::last_cuda_error()) + ")";
          }
          throw FftError(message);
        }
        break;
      }
      case ChainOp::Kind::kGain: {
        if (op.fused) break;  // applied by the transform before it
        detail::GainArgs args = op.gain;
        args.work = data(op.at);
        args.half = c.half;
        args.total = rows * c.ny * args.view.line(c.nx);
        detail::launch_gain(args, stream);
        break;
      }
      case ChainOp::Kind::kRealify: detail::launch_realify(data(op.at), c.half, count, stream); break;
      case ChainOp::Kind::kSink: {
        detail::SinkArgs args = op.sink;
        args.work = data(op.at);
        args.rows = rows;
        args.dst = slot.sink_out[op.sink_index];
        args.status = status;
        detail::launch_sink(args, stream);
        break;
      }
    }
    done();
  }
}

FrameStatus GpuChain::read_status(void const* host_status) noexcept {
  detail::StatusWords words;
  std::memcpy(&words, host_status, sizeof words);
  FrameStatus status;
  std::memcpy(&status.max_abs, &words.max_abs_bits, sizeof status.max_abs);
  status.first_nonfinite =
      words.first_bad == detail::kNoBadSample ? -1 : static_cast<std::int64_t>(words.first_bad);
  status.replaced = static_cast<std::int64_t>(words.replaced);
  return status;
}

}  // namespace tcfft::gpu
