// SPDX-License-Identifier: MIT
// The device-resident stage chain of the streaming executor: what the fft, filter, ifft,
// spectrum and sink stages do to one frame, as kernels and fftcore transforms enqueued on one
// stream, on data that stays on the GPU from upload to download.
//
// Per frame, on the slot's stream (GpuChain::enqueue):
//   1. convert   raw file samples (int16, uint16, int32, float32, float64, complex64/128, as
//                uploaded) -> working complex (__half2 for fp16, float2 for fp32), real x as
//                (x, 0), times 2^-e (see sample_convert.hpp: floats by a power of two from a
//                device-side max-abs reduction, integers by their range), times the fft's
//                window when the fft is the first stage; non-finite samples are found (first
//                index, atomicMin) and become 0.
//   2. stages    fft / ifft: fftcore transforms over the whole frame (fp16: Scaling::kBySqrtN
//                so nothing overflows); filter: the Hermitian-symmetric gain of
//                filter_response.hpp on the spectrum (one kernel, or inside the transform
//                before it); spectrum: folded into the sinks after it.
//   3. sinks     a conversion kernel per sink: undo every scale (2^e, the FFTs' 1/sqrt(n), the
//                numpy norm factors) so results equal the host path's, gather the n/2 + 1 bins
//                of a one-sided spectrum, take the real part of an inverse of a one-sided
//                spectrum, apply the spectrum quantity, convert to the stored dtype; of
//                time-domain overlap-save items keep only the cores (FrameSpec::
//                stored_context), so the writer stores each item's valid part at its place.
// Overlap-save series (FrameSpec::context > 0): the reader fills a slot with whole items,
// context included (H5Source::read_raw, the host path's arithmetic), and the fft, filter and
// ifft run on those whole items; a filter with `taps` multiplies by the FIR's gains at the item
// length (filter_fir.hpp, computed once in double, stored as a float table).
// Working format (FftEngineParams::real_transforms, run.real_transforms): real input stays real
// where every fft of it is one-sided: the conversion writes real samples, the fft is an R2C into
// the half spectrum (n/2 + 1 bins per line, in a second region of the work buffer), filters
// multiply those bins, and the ifft is a C2R back to real samples; about half the bytes of the
// complex form per step. Otherwise (complex input, a two-sided spectrum of real input, a size
// the real transforms cannot do, run.real_transforms false) the working format is the full
// complex item: an fft is a C2C in place, a one-sided spectrum exists only in the sinks' output,
// and an ifft of it is a C2C inverse whose real part is kept. The fused gain (run.fuse) is a
// complex-transform hook, so a real chain runs its filter as its own kernel.
//
// make_gpu_chain negotiates on the host only (no device needed, so CPU tests cover it); prepare
// builds the plans and uploads the tables; enqueue neither allocates nor synchronises.
#pragma once

#include <tcfft/core/frame.hpp>
#include <tcfft/stages/params.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::gpu {

/// What the chain needs to know of the input.
struct GpuSourceSpec {
  FrameSpec frame;              ///< H5Source::spec()
  std::string dtype;            ///< H5Source::dtype_name(): int16, float32, complex64, ...
  double scale = 1.0;           ///< input.scale
  bool zero_nonfinite = false;  ///< input.on_nonfinite: zero
};

/// A sink of the chain: its YAML position, its parameters and the spec of what reaches it
/// (the spec the host path's SinkStage would be configured with).
struct GpuSinkSpec {
  int stage_index = 0;
  SinkParams params;
  FrameSpec spec;
};

/// Device memory of one slot that the chain works in (owned by the executor).
struct SlotDeviceView {
  void const* raw = nullptr;         ///< raw_frame_bytes(), uploaded file samples
  void* work = nullptr;              ///< work_frame_bytes()
  void* workspace = nullptr;         ///< workspace_bytes()
  std::size_t workspace_bytes = 0;
  void* status = nullptr;            ///< status_bytes(): what the kernels report for the frame
  std::vector<void*> sink_out;       ///< one per sink, sink_frame_bytes(k)
};

/// What the kernels report for one frame (download status_bytes() from SlotDeviceView::status).
struct FrameStatus {
  double max_abs = 0.0;             ///< largest finite |re|, |im| of the raw samples (floats)
  std::int64_t first_nonfinite = -1; ///< index of the first NaN/Inf sample in the frame, or -1
  std::int64_t replaced = 0;        ///< non-finite samples replaced by 0
};

class GpuChain {
 public:
  struct Impl;
  explicit GpuChain(std::unique_ptr<Impl> impl);
  ~GpuChain();
  GpuChain(GpuChain const&) = delete;
  GpuChain& operator=(GpuChain const&) = delete;

  [[nodiscard]] std::vector<GpuSinkSpec> const& sinks() const noexcept;
  /// Names of the device steps in enqueue order: "convert", then one per stage that has
  /// device work ("stages[0] (fft)", ..., "stages[3] (sink)").
  [[nodiscard]] std::vector<std::string> const& op_names() const noexcept;
  /// "fp16 tensor-core: convert -> stages[0] (fft) -> ...".
  [[nodiscard]] std::string describe() const;

  /// True when real input stays real (R2C / C2R and half spectra; see the file comment).
  [[nodiscard]] bool real_transforms() const noexcept;

  [[nodiscard]] std::size_t raw_frame_bytes() const noexcept;
  [[nodiscard]] std::size_t work_frame_bytes() const noexcept;
  [[nodiscard]] static std::size_t status_bytes() noexcept;
  /// Bytes of sink `k`'s output for `rows` items (rows_per_frame when rows < 0); of the items'
  /// cores only for overlap-save series items in the time domain.
  [[nodiscard]] std::size_t sink_bytes(std::size_t k, std::int64_t rows = -1) const;

  /// Builds the fftcore plans and uploads the constant tables on the current device; the
  /// stored dtype of every sink (OutputFile::dataset_dtype) in sinks() order. Throws FftError
  /// naming the stage, CudaError.
  void prepare(std::vector<std::string> const& sink_dtypes);
  /// After prepare: scratch per slot for the FFTs.
  [[nodiscard]] std::size_t workspace_bytes() const noexcept;
  /// After prepare: device memory the chain holds itself (tables; plans not counted).
  [[nodiscard]] std::size_t table_bytes() const noexcept;

  /// Enqueues one frame of `rows` items on `stream`. `op_done`, when not null, holds one event
  /// per op_names() entry, recorded after that step. Throws CudaError/FftError naming the stage.
  void enqueue(SlotDeviceView const& slot, std::int64_t rows, cudaStream_t stream,
               cudaEvent_t const* op_done) const;

  /// Decodes a status block downloaded from SlotDeviceView::status.
  [[nodiscard]] static FrameStatus read_status(void const* host_status) noexcept;

 private:
  std::unique_ptr<Impl> impl_;
};

/// The device chain for `stages` on input `source`, or nullptr when some part has no GPU form
/// (welch, a response the GPU does not evaluate, an input dtype the kernels do not read, a
/// configuration error the host path reports): `reason` then says which stage or what, e.g.
/// "stages[2] (welch) has no GPU form". Needs no device.
[[nodiscard]] std::unique_ptr<GpuChain> make_gpu_chain(std::vector<StageConfig> const& stages,
                                                       FftEngineParams const& engine,
                                                       GpuSourceSpec const& source,
                                                       std::string& reason);

}  // namespace tcfft::gpu
