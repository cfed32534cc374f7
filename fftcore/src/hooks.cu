// SPDX-License-Identifier: MIT
#include "hooks.hpp"

#include <cuda_fp16.h>

#include <algorithm>

namespace fftcore::detail {
namespace {

__device__ __forceinline__ float2 load_element(float2 v) { return v; }
__device__ __forceinline__ float2 load_element(__half2 v) { return __half22float2(v); }
__device__ __forceinline__ void store_element(float2* p, float2 v) { *p = v; }
__device__ __forceinline__ void store_element(__half2* p, float2 v) { *p = __float22half2_rn(v); }

template <typename T>
__global__ void multiply_kernel(T const* in, T* out, std::size_t count, float2 const* factors,
                                std::size_t n, bool pow2, bool conjugate) {
  std::size_t const stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i < count; i += stride) {
    float2 const x = load_element(in[i]);
    float2 f = __ldg(factors + (pow2 ? (i & (n - 1)) : i % n));
    if (conjugate) f.y = -f.y;
    store_element(out + i, make_float2(x.x * f.x - x.y * f.y, x.x * f.y + x.y * f.x));
  }
}

}  // namespace

cudaError_t launch_multiply(Precision precision, void const* in, void* out, std::size_t count,
                            float2 const* factors, std::size_t n, bool conjugate,
                            cudaStream_t stream) noexcept {
  if (count == 0) return cudaSuccess;
  constexpr unsigned kThreads = 256;
  bool const pow2 = (n & (n - 1)) == 0;
  auto const blocks =
      static_cast<unsigned>(std::min<std::size_t>((count + kThreads - 1) / kThreads, 1u << 16));
  if (precision == Precision::kHalf) {
    multiply_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<__half2 const*>(in),
                                                     static_cast<__half2*>(out), count, factors,
                                                     n, pow2, conjugate);
  } else {
    multiply_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<float2 const*>(in),
                                                     static_cast<float2*>(out), count, factors,
                                                     n, pow2, conjugate);
  }
  return cudaGetLastError();
}

}  // namespace fftcore::detail
