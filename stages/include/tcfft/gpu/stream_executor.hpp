// SPDX-License-Identifier: MIT
// The streaming executor: runs a GpuChain over every frame of an H5Source into an OutputFile
// with `slots` frames in flight (run_slots schedules them, see slot_pipeline.hpp).
//
// Each slot owns, allocated once at construction: pinned host memory for the raw input frame,
// the frame's status words and every sink's converted output; device memory for the raw frame,
// the working frame, the FFT workspace, the status words and every sink's output; a stream;
// events. Per frame:
//   reader thread  H5Source::read_raw into the slot's pinned input (file dtype bytes)
//   this thread    H2D of the raw bytes, GpuChain::enqueue, D2H of the status and the sink
//                  outputs, a `done` event; no allocation, no host synchronisation
//   writer thread  waits for `done` (frames in input order), checks the status (a non-finite
//                  sample fails the run with the host path's message), OutputFile::write_raw
// So while frame i computes, frame i+1 uploads and frame i-1 downloads, and HDF5 reads and
// writes (serialised with each other by the HDF5 lock) overlap the GPU work. Memory is
// slots x frame whatever the input size. The first error stops every thread; the executor
// waits for the streams before its buffers go, and the caller never commits the output.
//
// Test-only hook: the environment variable TCFFT_FAIL_AT_FRAME=k, read once at construction,
// makes the writer fail frame k with an IoError (to test that failed runs leave no output).
#pragma once

#include <tcfft/gpu/gpu_chain.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::io {
class H5Source;
class OutputFile;
}  // namespace tcfft::io

namespace tcfft::gpu {

struct ExecutorOptions {
  int slots = 3;                      ///< frames in flight (>= 1)
  bool profile = false;               ///< timing events per step and a timeline summary
  std::function<bool()> should_stop;  ///< polled before each frame (Ctrl-C)
  /// Called by the writer thread after each frame: frames done, items done.
  std::function<void(std::int64_t, std::int64_t)> progress;
};

struct ExecutorReport {
  std::int64_t frames = 0;
  std::int64_t rows = 0;
  std::int64_t replaced = 0;         ///< non-finite samples replaced by 0
  int slots = 0;
  int peak_slots_in_use = 0;
  std::size_t pinned_bytes = 0;      ///< allocated at construction, never during the run
  std::size_t device_bytes = 0;      ///< slot buffers + chain tables (FFT plans not counted)
  std::int64_t allocations = 0;      ///< buffers allocated (all at construction)
  double seconds = 0.0;              ///< wall time of run()
  std::vector<std::string> profile;  ///< timeline summary lines (options.profile)
};

class StreamExecutor {
 public:
  /// Prepares `chain` (plans, tables) with the sinks' stored dtypes and allocates every slot.
  /// `dataset_ids[k]` is the OutputFile dataset of chain.sinks()[k]. All references must
  /// outlive the executor. Throws CudaError/FftError.
  StreamExecutor(GpuChain& chain, io::H5Source& source, io::OutputFile& output,
                 std::vector<int> dataset_ids, ExecutorOptions options);
  /// Waits for every stream (never throws) before the buffers are released.
  ~StreamExecutor();
  StreamExecutor(StreamExecutor const&) = delete;
  StreamExecutor& operator=(StreamExecutor const&) = delete;

  /// Streams every remaining frame of the source. Throws the first error (see run_slots);
  /// the output file is then incomplete and must not be committed.
  ExecutorReport run();

  [[nodiscard]] std::size_t pinned_bytes() const noexcept;
  [[nodiscard]] std::size_t device_bytes() const noexcept;
  /// Wall time the constructor spent in GpuChain::prepare (FFT plans, tables) and allocating
  /// the slots (buffers, streams, events), for --profile.
  [[nodiscard]] double prepare_seconds() const noexcept;
  [[nodiscard]] double allocate_seconds() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The frame index of TCFFT_FAIL_AT_FRAME (test only), or -1 when unset or not a number.
[[nodiscard]] std::int64_t fail_at_frame_from_env() noexcept;

}  // namespace tcfft::gpu
