// SPDX-License-Identifier: MIT
// The scaling kernels of the cuFFT backend: a grid-stride loop, one (complex or real) element per
// thread and iteration, arithmetic in FP32 whatever the storage precision.
#include "cufft/scale.hpp"

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

namespace fftcore::detail {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::size_t kMaxBlocks = std::size_t{1} << 20;  // grid-stride covers the rest

__device__ inline float2 load(__half2 v) { return __half22float2(v); }
__device__ inline float2 load(float2 v) { return v; }
__device__ inline void store(__half2* p, float2 v) { *p = __float22half2_rn(v); }
__device__ inline void store(float2* p, float2 v) { *p = v; }

__device__ inline float load_real(__half v) { return __half2float(v); }
__device__ inline float load_real(float v) { return v; }
__device__ inline void store_real(__half* p, float v) { *p = __float2half_rn(v); }
__device__ inline void store_real(float* p, float v) { *p = v; }

template <class T>
__global__ void complex_scale_kernel(T const* in, T* out, std::size_t count, float factor) {
  std::size_t const stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    float2 v = load(in[i]);
    v.x *= factor;
    v.y *= factor;
    store(out + i, v);
  }
}

template <class T>
__global__ void real_scale_kernel(T const* in, T* out, std::size_t count, float factor) {
  std::size_t const stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    store_real(out + i, load_real(in[i]) * factor);
  }
}

unsigned grid_for(std::size_t count) noexcept {
  return static_cast<unsigned>(std::min((count + kThreads - 1) / kThreads, kMaxBlocks));
}

}  // namespace

cudaError_t launch_real_scale(Precision precision, void const* in, void* out, std::size_t count,
                              float factor, cudaStream_t stream) noexcept {
  if (count == 0) return cudaSuccess;
  if (precision == Precision::kHalf) {
    real_scale_kernel<<<grid_for(count), kThreads, 0, stream>>>(
        static_cast<__half const*>(in), static_cast<__half*>(out), count, factor);
  } else {
    real_scale_kernel<<<grid_for(count), kThreads, 0, stream>>>(
        static_cast<float const*>(in), static_cast<float*>(out), count, factor);
  }
  return cudaGetLastError();
}

cudaError_t launch_complex_scale(Precision precision, void const* in, void* out,
                                 std::size_t count, float factor, cudaStream_t stream) noexcept {
  if (count == 0) return cudaSuccess;
  auto const blocks =
      static_cast<unsigned>(std::min((count + kThreads - 1) / kThreads, kMaxBlocks));
  if (precision == Precision::kHalf) {
    complex_scale_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<__half2 const*>(in),
                                                          static_cast<__half2*>(out), count,
                                                          factor);
  } else {
    complex_scale_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<float2 const*>(in),
                                                          static_cast<float2*>(out), count,
                                                          factor);
  }
  return cudaGetLastError();
}

}  // namespace fftcore::detail
