// SPDX-License-Identifier: MIT
// The CUDA RAII owners of tcfft/core/cuda.hpp and the error reporting behind the check macros.
#include <tcfft/core/cuda.hpp>

#include <spdlog/spdlog.h>

#include <string>

namespace tcfft {
namespace detail {
namespace {

std::string describe(cudaError_t error, char const* call, char const* file, int line) {
  return std::string(call) + " failed: " + cudaGetErrorString(error) + " (" +
         cudaGetErrorName(error) + ") at " + file + ":" + std::to_string(line);
}

}  // namespace

void throw_cuda_error(cudaError_t error, char const* call, char const* file, int line) {
  throw CudaError(describe(error, call, file, line));
}

void log_cuda_error(cudaError_t error, char const* call, char const* file, int line) noexcept {
  try {
    spdlog::error("{}", describe(error, call, file, line));
  } catch (...) {
    // Logging must not turn a cleanup failure into a termination.
  }
}

}  // namespace detail

Stream::Stream() { TCFFT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }

Stream::~Stream() {
  if (stream_ != nullptr) TCFFT_CUDA_CHECK_NO_THROW(cudaStreamDestroy(stream_));
}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    if (stream_ != nullptr) TCFFT_CUDA_CHECK_NO_THROW(cudaStreamDestroy(stream_));
    stream_ = std::exchange(other.stream_, nullptr);
  }
  return *this;
}

void Stream::synchronize() const { TCFFT_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

Event::Event(bool timing) {
  unsigned const flags = timing ? cudaEventDefault : cudaEventDisableTiming;
  TCFFT_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
}

Event::~Event() {
  if (event_ != nullptr) TCFFT_CUDA_CHECK_NO_THROW(cudaEventDestroy(event_));
}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    if (event_ != nullptr) TCFFT_CUDA_CHECK_NO_THROW(cudaEventDestroy(event_));
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

void Event::record(cudaStream_t stream) { TCFFT_CUDA_CHECK(cudaEventRecord(event_, stream)); }

void Event::wait_on(cudaStream_t stream) const {
  TCFFT_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0));
}

void Event::synchronize() const { TCFFT_CUDA_CHECK(cudaEventSynchronize(event_)); }

bool Event::ready() const {
  cudaError_t const status = cudaEventQuery(event_);
  if (status == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  TCFFT_CUDA_CHECK(status);
  return true;
}

float Event::elapsed_ms(Event const& start, Event const& stop) {
  float ms = 0.0f;
  TCFFT_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, stop.event_));
  return ms;
}

namespace {

template <MemoryKind kKind>
cudaError_t allocate(void** data, std::size_t bytes) {
  return kKind == MemoryKind::kDevice ? cudaMalloc(data, bytes) : cudaMallocHost(data, bytes);
}

template <MemoryKind kKind>
void release(void* data) noexcept {
  if (data == nullptr) return;
  if constexpr (kKind == MemoryKind::kDevice) {
    TCFFT_CUDA_CHECK_NO_THROW(cudaFree(data));
  } else {
    TCFFT_CUDA_CHECK_NO_THROW(cudaFreeHost(data));
  }
}

}  // namespace

template <MemoryKind kKind>
CudaMemory<kKind>::CudaMemory(std::size_t bytes) {
  if (bytes == 0) return;
  cudaError_t const status = allocate<kKind>(&data_, bytes);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    data_ = nullptr;
    throw CudaError("cannot allocate " + std::to_string(bytes) + " bytes of " +
                    (kKind == MemoryKind::kDevice ? "device memory" : "pinned host memory") +
                    ": " + cudaGetErrorString(status));
  }
  size_ = bytes;
}

template <MemoryKind kKind>
CudaMemory<kKind>::~CudaMemory() {
  release<kKind>(data_);
}

template <MemoryKind kKind>
CudaMemory<kKind>& CudaMemory<kKind>::operator=(CudaMemory&& other) noexcept {
  if (this != &other) {
    release<kKind>(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

template class CudaMemory<MemoryKind::kDevice>;
template class CudaMemory<MemoryKind::kPinned>;

}  // namespace tcfft
