// SPDX-License-Identifier: MIT
// Helpers of the fftcore benchmarks: checked CUDA/cuFFT/fftcore calls (exit on failure), a
// device buffer, random FP16/FP32 fill and the event timer (median after two warm-ups).
#pragma once

#include <fftcore/fftcore.hpp>

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cufftXt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace bench {

inline void check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
inline void check(cufftResult r, char const* what) {
  if (r != CUFFT_SUCCESS) {
    std::fprintf(stderr, "cuFFT error %s: %d\n", what, static_cast<int>(r));
    std::exit(1);
  }
}
inline void check(fftcore::Status s, char const* what) {
  if (s != fftcore::Status::kSuccess) {
    std::fprintf(stderr, "fftcore error %s: %s\n", what, fftcore::to_string(s));
    std::exit(1);
  }
}

class Buffer {
 public:
  explicit Buffer(std::size_t bytes) {
    if (bytes > 0) check(cudaMalloc(&ptr_, bytes), "cudaMalloc");
  }
  Buffer(Buffer const&) = delete;
  Buffer& operator=(Buffer const&) = delete;
  ~Buffer() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
  }
  [[nodiscard]] void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

/// Median time in ms of `call` on the default stream (2 warm-ups, `repeats` timed calls).
inline float time_ms(std::function<void()> const& call, int repeats) {
  cudaEvent_t start = nullptr, stop = nullptr;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  call();
  call();
  std::vector<float> times;
  for (int i = 0; i < repeats; ++i) {
    check(cudaEventRecord(start), "record");
    call();
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    times.push_back(ms);
  }
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace bench
