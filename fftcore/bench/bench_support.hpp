// SPDX-License-Identifier: MIT
// Helpers of the fftcore benchmarks: checked CUDA/cuFFT/fftcore calls (exit on failure), a
// device buffer, random FP16/FP32 fill and the event timer (median after two warm-ups).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cufftXt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fftcore/fftcore.hpp>
#include <functional>
#include <string>
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

/// A benchmarked shape: rows = 1 for 1-D transforms of `cols` points.
struct Case {
  long long rows, cols;
};

/// "2^12" or "512x512", the row names that --only selects.
inline std::string case_name(Case c) {
  return c.rows > 1
             ? std::to_string(c.rows) + "x" + std::to_string(c.cols)
             : "2^" + std::to_string(__builtin_ctzll(static_cast<unsigned long long>(c.cols)));
}

/// The Tensor Core descriptor of `batch` transforms of `c`.
inline fftcore::PlanDesc tc_desc(Case c, long long batch,
                                 fftcore::Transform kind = fftcore::Transform::kC2C) {
  fftcore::PlanDesc d;
  d.rank = c.rows > 1 ? 2 : 1;
  d.dims[0] = c.rows > 1 ? c.rows : c.cols;
  d.dims[1] = c.rows > 1 ? c.cols : 0;
  d.batch = batch;
  d.backend = fftcore::Backend::kTensorCore;
  d.kind = kind;
  return d;
}

}  // namespace bench
