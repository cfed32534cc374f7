// SPDX-License-Identifier: MIT
// CUDA runtime RAII for the stages and the pipeline: Stream, Event, DeviceBuffer, PinnedBuffer,
// and the checking macros. Every owner is move-only; a moved-from owner holds nothing and its
// destructor does nothing. Destructors never throw: a failure to release is logged.
// Host-compilable (.hpp): include it from g++-compiled .cpp files as well as from .cu files.
#pragma once

#include <tcfft/core/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

namespace tcfft::detail {

/// Throws CudaError("<call> failed: <cudaGetErrorString> (<error name>) at <file>:<line>").
[[noreturn]] void throw_cuda_error(cudaError_t error, char const* call, char const* file,
                                   int line);

/// Logs (spdlog error level) what throw_cuda_error would throw; for destructors.
void log_cuda_error(cudaError_t error, char const* call, char const* file, int line) noexcept;

}  // namespace tcfft::detail

/// Evaluates `call` (a cudaError_t expression) once; on failure clears the sticky last error
/// (cudaGetLastError) and throws tcfft::CudaError naming the call, the CUDA error and file:line.
/// Use as a statement: `TCFFT_CUDA_CHECK(cudaMemsetAsync(p, 0, n, s));`
#define TCFFT_CUDA_CHECK(call)                                                       \
  do {                                                                               \
    cudaError_t const tcfft_cuda_check_error_ = (call);                              \
    if (tcfft_cuda_check_error_ != cudaSuccess) {                                    \
      (void)cudaGetLastError();                                                      \
      ::tcfft::detail::throw_cuda_error(tcfft_cuda_check_error_, #call, __FILE__, __LINE__); \
    }                                                                                \
  } while (0)

/// As TCFFT_CUDA_CHECK but logs instead of throwing: for destructors and cleanup paths.
#define TCFFT_CUDA_CHECK_NO_THROW(call)                                              \
  do {                                                                               \
    cudaError_t const tcfft_cuda_check_error_ = (call);                              \
    if (tcfft_cuda_check_error_ != cudaSuccess) {                                    \
      (void)cudaGetLastError();                                                      \
      ::tcfft::detail::log_cuda_error(tcfft_cuda_check_error_, #call, __FILE__, __LINE__); \
    }                                                                                \
  } while (0)

namespace tcfft {

/// An owned non-blocking CUDA stream (cudaStreamNonBlocking: it does not synchronise with the
/// legacy default stream). A moved-from Stream holds no stream; get() then returns nullptr,
/// which CUDA reads as the default stream, so do not use a moved-from Stream.
class Stream {
 public:
  /// Creates the stream on the current device. Throws CudaError.
  Stream();
  ~Stream();
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept;
  Stream(Stream const&) = delete;
  Stream& operator=(Stream const&) = delete;

  [[nodiscard]] cudaStream_t get() const noexcept { return stream_; }
  /// Blocks the host until all work enqueued so far has completed. Throws CudaError, which
  /// also reports errors of earlier asynchronous work on this stream.
  void synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
};

/// An owned CUDA event. By default created with cudaEventDisableTiming (cheapest, for
/// dependencies); pass `timing = true` to measure elapsed time between two events.
class Event {
 public:
  /// Throws CudaError.
  explicit Event(bool timing = false);
  ~Event();
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept;
  Event(Event const&) = delete;
  Event& operator=(Event const&) = delete;

  [[nodiscard]] cudaEvent_t get() const noexcept { return event_; }
  /// Records the event on `stream` (cudaEventRecord).
  void record(cudaStream_t stream);
  /// Makes `stream` wait for the last record of this event (cudaStreamWaitEvent).
  void wait_on(cudaStream_t stream) const;
  /// Blocks the host until the recorded work is done.
  void synchronize() const;
  /// True when the recorded work is done (cudaEventQuery); throws on errors other than
  /// cudaErrorNotReady.
  [[nodiscard]] bool ready() const;
  /// Milliseconds between `start` and `stop` (both recorded, both created with timing = true).
  [[nodiscard]] static float elapsed_ms(Event const& start, Event const& stop);

 private:
  cudaEvent_t event_ = nullptr;
};

/// Where a CudaMemory lives: device memory (cudaMalloc) or page-locked host memory
/// (cudaMallocHost, so that cudaMemcpyAsync from/to it is truly asynchronous).
enum class MemoryKind { kDevice, kPinned };

/// Untyped owned CUDA memory of `size()` bytes. A zero-byte buffer allocates nothing and data()
/// returns nullptr. Move-only; freed on destruction.
template <MemoryKind kKind>
class CudaMemory {
 public:
  CudaMemory() noexcept = default;
  /// Allocates `bytes` (device memory on the current device, or pinned host memory). Throws
  /// CudaError naming the size on failure.
  explicit CudaMemory(std::size_t bytes);
  ~CudaMemory();
  CudaMemory(CudaMemory&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  CudaMemory& operator=(CudaMemory&& other) noexcept;
  CudaMemory(CudaMemory const&) = delete;
  CudaMemory& operator=(CudaMemory const&) = delete;

  [[nodiscard]] void* data() noexcept { return data_; }
  [[nodiscard]] void const* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// The memory viewed as `T` (both allocators align to at least 256 bytes).
  template <class T>
  [[nodiscard]] T* as() noexcept {
    return static_cast<T*>(data_);
  }
  template <class T>
  [[nodiscard]] T const* as() const noexcept {
    return static_cast<T const*>(data_);
  }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

using DeviceBuffer = CudaMemory<MemoryKind::kDevice>;
using PinnedBuffer = CudaMemory<MemoryKind::kPinned>;
extern template class CudaMemory<MemoryKind::kDevice>;
extern template class CudaMemory<MemoryKind::kPinned>;

}  // namespace tcfft
