// SPDX-License-Identifier: MIT
// StreamExecutor: slot buffers, the three callbacks of run_slots, and the --profile timeline.
#include <tcfft/gpu/stream_executor.hpp>

#include <tcfft/core/cuda.hpp>
#include <tcfft/core/error.hpp>
#include <tcfft/gpu/sample_convert.hpp>
#include <tcfft/gpu/slot_pipeline.hpp>
#include <tcfft/gpu/timeline.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/io/h5_source.hpp>

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace tcfft::gpu {
namespace {

using Clock = std::chrono::steady_clock;

/// An NVTX range "<what> frame <k>" (formatted without allocating).
class NvtxRange {
 public:
  NvtxRange(char const* what, std::int64_t frame) {
    char name[64];
    std::snprintf(name, sizeof name, "%s frame %lld", what, static_cast<long long>(frame));
    nvtxRangePushA(name);
  }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(NvtxRange const&) = delete;
  NvtxRange& operator=(NvtxRange const&) = delete;
};

struct Slot {
  Stream stream;
  PinnedBuffer raw_host;
  DeviceBuffer raw_device;
  DeviceBuffer work;
  DeviceBuffer workspace;
  DeviceBuffer status_device;
  PinnedBuffer status_host;
  std::vector<DeviceBuffer> out_device;
  std::vector<PinnedBuffer> out_host;
  Event done;
  std::vector<Event> timing;  // profile: start, after H2D, after each op, after D2H
  SlotDeviceView view;
  double read_begin = 0.0;    // host clock (s since run start) of this frame's read
  double read_end = 0.0;
};

}  // namespace

std::int64_t fail_at_frame_from_env() noexcept {
  char const* text = std::getenv("TCFFT_FAIL_AT_FRAME");
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  long long const value = std::strtoll(text, &end, 10);
  return end != nullptr && *end == '\0' && value >= 0 ? value : -1;
}

struct StreamExecutor::Impl {
  GpuChain& chain;
  io::H5Source& source;
  io::OutputFile& output;
  std::vector<int> dataset_ids;
  ExecutorOptions options;
  std::int64_t fail_at = -1;
  std::vector<Slot> slots;
  std::size_t pinned = 0;
  std::size_t device = 0;
  std::int64_t allocations = 0;
  RawDtype dtype = RawDtype::kFloat32;
  double prepare_seconds = 0.0;
  double allocate_seconds = 0.0;

  // Run state.
  Clock::time_point start;
  Event reference{true};
  double reference_host = 0.0;  // host clock when `reference` completed
  std::vector<std::string> phase_names;
  std::vector<Interval> intervals;
  std::int64_t frames = 0;
  std::int64_t rows = 0;
  std::int64_t replaced = 0;

  Impl(GpuChain& c, io::H5Source& s, io::OutputFile& o, std::vector<int> ids, ExecutorOptions opt)
      : chain(c), source(s), output(o), dataset_ids(std::move(ids)), options(std::move(opt)) {}

  double now() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
  double gpu_time(Event const& e) const {
    return reference_host + Event::elapsed_ms(reference, e) / 1000.0;
  }

  template <class Buffer>
  Buffer allocate(std::size_t bytes, std::size_t& counter) {
    Buffer buffer(bytes);
    counter += bytes;
    allocations += bytes > 0 ? 1 : 0;
    return buffer;
  }

  void allocate_slot(Slot& slot);
  bool read(SlotTicket& ticket);
  void submit(SlotTicket const& ticket);
  void complete(SlotTicket const& ticket);
  void record_profile(Slot& slot, double write_begin, double write_end);
  void synchronize_all() noexcept;
};

void StreamExecutor::Impl::allocate_slot(Slot& slot) {
  std::size_t const raw = chain.raw_frame_bytes();
  slot.raw_host = allocate<PinnedBuffer>(raw, pinned);
  slot.raw_device = allocate<DeviceBuffer>(raw, device);
  slot.work = allocate<DeviceBuffer>(chain.work_frame_bytes(), device);
  slot.workspace = allocate<DeviceBuffer>(chain.workspace_bytes(), device);
  slot.status_device = allocate<DeviceBuffer>(GpuChain::status_bytes(), device);
  slot.status_host = allocate<PinnedBuffer>(GpuChain::status_bytes(), pinned);
  for (std::size_t k = 0; k < chain.sinks().size(); ++k) {
    slot.out_device.push_back(allocate<DeviceBuffer>(chain.sink_bytes(k), device));
    slot.out_host.push_back(allocate<PinnedBuffer>(chain.sink_bytes(k), pinned));
    slot.view.sink_out.push_back(slot.out_device.back().data());
  }
  slot.view.raw = slot.raw_device.data();
  slot.view.work = slot.work.data();
  slot.view.workspace = slot.workspace.data();
  slot.view.workspace_bytes = slot.workspace.size();
  slot.view.status = slot.status_device.data();
  if (options.profile) {
    for (std::size_t i = 0; i < chain.op_names().size() + 3; ++i) slot.timing.emplace_back(true);
  }
}

bool StreamExecutor::Impl::read(SlotTicket& ticket) {
  auto& slot = slots[static_cast<std::size_t>(ticket.slot)];
  NvtxRange const range("read", ticket.frame);
  slot.read_begin = now();
  Frame frame;
  if (!source.read_raw(frame, slot.raw_host.data(), slot.raw_host.size())) return false;
  slot.read_end = now();
  ticket.frame = frame.index;
  ticket.first_row = frame.first_row;
  ticket.rows = frame.rows;
  return true;
}

void StreamExecutor::Impl::submit(SlotTicket const& ticket) {
  auto& slot = slots[static_cast<std::size_t>(ticket.slot)];
  NvtxRange const range("enqueue", ticket.frame);
  cudaStream_t const stream = slot.stream.get();
  bool const profile = options.profile;
  if (profile) slot.timing[0].record(stream);
  auto const raw_bytes = chain.raw_frame_bytes() /
                         static_cast<std::size_t>(source.spec().rows_per_frame) *
                         static_cast<std::size_t>(ticket.rows);
  TCFFT_CUDA_CHECK(cudaMemcpyAsync(slot.raw_device.data(), slot.raw_host.data(), raw_bytes,
                                   cudaMemcpyHostToDevice, stream));
  if (profile) slot.timing[1].record(stream);
  cudaEvent_t op_events[64];
  std::size_t const ops = chain.op_names().size();
  TCFFT_EXPECTS(ops <= 64, "too many chain steps for the profile events");
  if (profile) {
    for (std::size_t i = 0; i < ops; ++i) op_events[i] = slot.timing[2 + i].get();
  }
  chain.enqueue(slot.view, ticket.rows, stream, profile ? op_events : nullptr);
  TCFFT_CUDA_CHECK(cudaMemcpyAsync(slot.status_host.data(), slot.status_device.data(),
                                   GpuChain::status_bytes(), cudaMemcpyDeviceToHost, stream));
  for (std::size_t k = 0; k < chain.sinks().size(); ++k) {
    TCFFT_CUDA_CHECK(cudaMemcpyAsync(slot.out_host[k].data(), slot.out_device[k].data(),
                                     chain.sink_bytes(k, ticket.rows), cudaMemcpyDeviceToHost,
                                     stream));
  }
  if (profile) slot.timing[2 + ops].record(stream);
  slot.done.record(stream);
}

void StreamExecutor::Impl::complete(SlotTicket const& ticket) {
  auto& slot = slots[static_cast<std::size_t>(ticket.slot)];
  {
    NvtxRange const range("wait", ticket.frame);
    slot.done.synchronize();
  }
  NvtxRange const range("write", ticket.frame);
  double const write_begin = now();
  auto const status = GpuChain::read_status(slot.status_host.data());
  // With on_nonfinite: zero the kernels count replacements; with error they count none.
  if (status.first_nonfinite >= 0 && status.replaced == 0) {
    Complex const v = load_raw(dtype, slot.raw_host.data(), status.first_nonfinite);
    source.throw_nonfinite(ticket.first_row, status.first_nonfinite, v.re, v.im);
  }
  replaced += status.replaced;
  if (ticket.frame == fail_at) {
    throw IoError("injected failure writing frame " + std::to_string(ticket.frame) +
                  " (TCFFT_FAIL_AT_FRAME, a test-only hook)");
  }
  for (std::size_t k = 0; k < chain.sinks().size(); ++k) {
    output.write_raw(dataset_ids[k], ticket.frame, ticket.first_row, ticket.rows,
                     slot.out_host[k].data());
  }
  ++frames;
  rows += ticket.rows;
  if (options.profile) record_profile(slot, write_begin, now());
  if (options.progress) options.progress(frames, rows);
}

void StreamExecutor::Impl::record_profile(Slot& slot, double write_begin, double write_end) {
  int const ops = static_cast<int>(chain.op_names().size());
  intervals.push_back({0, slot.read_begin, slot.read_end});
  double previous = gpu_time(slot.timing[0]);
  for (int i = 1; i < ops + 3; ++i) {
    double const t = gpu_time(slot.timing[static_cast<std::size_t>(i)]);
    intervals.push_back({i, previous, t});  // 1: H2D, 2..ops+1: steps, ops+2: D2H
    previous = t;
  }
  intervals.push_back({ops + 3, write_begin, write_end});
}

void StreamExecutor::Impl::synchronize_all() noexcept {
  for (auto& slot : slots) TCFFT_CUDA_CHECK_NO_THROW(cudaStreamSynchronize(slot.stream.get()));
}

StreamExecutor::StreamExecutor(GpuChain& chain, io::H5Source& source, io::OutputFile& output,
                               std::vector<int> dataset_ids, ExecutorOptions options)
    : impl_(std::make_unique<Impl>(chain, source, output, std::move(dataset_ids),
                                   std::move(options))) {
  auto& s = *impl_;
  TCFFT_EXPECTS(s.options.slots >= 1, "slots must be at least 1");
  TCFFT_EXPECTS(s.dataset_ids.size() == chain.sinks().size(), "one dataset id per sink");
  auto const dtype = parse_raw_dtype(source.dtype_name());
  TCFFT_EXPECTS(dtype.has_value(), "GPU chain built for an unsupported input dtype");
  s.dtype = *dtype;
  s.fail_at = fail_at_frame_from_env();
  std::vector<std::string> dtypes;
  for (int id : s.dataset_ids) dtypes.push_back(output.dataset_dtype(id));
  auto const prepare_start = Clock::now();
  chain.prepare(dtypes);
  auto const allocate_start = Clock::now();
  s.prepare_seconds = std::chrono::duration<double>(allocate_start - prepare_start).count();
  s.device += chain.table_bytes();
  s.slots.resize(static_cast<std::size_t>(s.options.slots));
  for (auto& slot : s.slots) s.allocate_slot(slot);
  s.allocate_seconds = std::chrono::duration<double>(Clock::now() - allocate_start).count();
  s.phase_names.push_back("read");
  s.phase_names.push_back("H2D");
  for (auto const& name : chain.op_names()) s.phase_names.push_back(name);
  s.phase_names.push_back("D2H");
  s.phase_names.push_back("write");
}

StreamExecutor::~StreamExecutor() {
  if (impl_) impl_->synchronize_all();
}

ExecutorReport StreamExecutor::run() {
  auto& s = *impl_;
  s.start = Clock::now();
  if (s.options.profile) {
    s.reference.record(s.slots.front().stream.get());
    s.reference.synchronize();
    s.reference_host = s.now();
  }
  SlotCallbacks callbacks;
  callbacks.read = [&s](SlotTicket& t) { return s.read(t); };
  callbacks.submit = [&s](SlotTicket const& t) { s.submit(t); };
  callbacks.complete = [&s](SlotTicket const& t) { s.complete(t); };
  callbacks.should_stop = s.options.should_stop;
  SlotRunStats stats;
  try {
    stats = run_slots(s.options.slots, callbacks);
  } catch (...) {
    s.synchronize_all();
    throw;
  }
  s.synchronize_all();
  ExecutorReport report;
  report.seconds = s.now();
  report.frames = s.frames;
  report.rows = s.rows;
  report.replaced = s.replaced;
  report.slots = s.options.slots;
  report.peak_slots_in_use = stats.peak_in_use;
  report.pinned_bytes = s.pinned;
  report.device_bytes = s.device;
  report.allocations = s.allocations;
  if (s.options.profile) {
    report.profile = format_timeline(summarize_timeline(s.phase_names, s.intervals),
                                     report.seconds);
  }
  return report;
}

std::size_t StreamExecutor::pinned_bytes() const noexcept { return impl_->pinned; }
std::size_t StreamExecutor::device_bytes() const noexcept { return impl_->device; }
double StreamExecutor::prepare_seconds() const noexcept { return impl_->prepare_seconds; }
double StreamExecutor::allocate_seconds() const noexcept { return impl_->allocate_seconds; }

}  // namespace tcfft::gpu
