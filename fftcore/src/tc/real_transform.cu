// SPDX-License-Identifier: MIT
// The split kernels of the real transforms: a grid-stride loop over items (row, j), j < M/2
// (or 1 when M = 1), each item one mirrored pair (k = j, M - j) of real_split.hpp; item 0
// does the ends (k = 0, M) and the middle (k = M/2). Arithmetic in FP32.
#include "tc/real_transform.hpp"

#include "tc/kernels/chained_launch.cuh"
#include "tc/real_split.hpp"

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

namespace fftcore::detail::tc {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 20;  // grid-stride covers the rest

__device__ inline float2 load(__half2 const* p) { return __half22float2(*p); }
__device__ inline float2 load(float2 const* p) { return *p; }
__device__ inline void store(__half2* p, float2 v) { *p = __float22half2_rn(v); }
__device__ inline void store(float2* p, float2 v) { *p = v; }

/// Items per row: M/2 (a pair each; item 0 has the ends and the middle), 1 when M = 1.
__device__ inline int log_items(int log_m) { return log_m > 0 ? log_m - 1 : 0; }

/// Row and pair index of item i (2^log_i items per row).
struct Item {
  std::int64_t row;
  std::uint32_t j;
};
__device__ inline Item item_of(std::int64_t i, int log_i) {
  return {i >> log_i, static_cast<std::uint32_t>(i & ((std::int64_t{1} << log_i) - 1))};
}

/// W^k = exp(-i pi k / M) by the MUFU sine and cosine: ~4e-7 absolute for every k < M <= 2^26
/// (the argument's rounding included), far below the FP16 rounding of the outputs, and ~10
/// instructions instead of sincospif's ~40 (the split kernel runs at the memory's pace then).
__device__ inline float2 fast_twiddle(std::uint32_t k, int log_m) {
  float2 w;
  __sincosf(static_cast<float>(k) * (-3.14159265358979323846f / static_cast<float>(1u << log_m)),
            &w.y, &w.x);
  return w;
}

template <class In, class Out>
__global__ void split_forward_kernel(In const* z, Out* x, std::int64_t rows, int log_m, float f) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  int const log_i = log_items(log_m);
  std::uint32_t const m = 1u << log_m;
  std::int64_t const items = rows << log_i;
  std::int64_t const stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < items;
       i += stride) {
    auto const [row, j] = item_of(i, log_i);
    In const* zr = z + row * m;
    Out* xr = x + row * (m + 1);
    if (j == 0) {
      float2 x0, xm;
      split_forward_ends(load(zr), f, x0, xm);
      store(xr, x0);
      store(xr + m, xm);
      if (m >= 2) store(xr + m / 2, split_forward_middle(load(zr + m / 2), f));
    } else {
      float2 xk, xmk;
      split_forward_pair(load(zr + j), load(zr + (m - j)), fast_twiddle(j, log_m), f, xk, xmk);
      store(xr + j, xk);
      store(xr + (m - j), xmk);
    }
  }
}

template <class In, class Out>
__global__ void split_inverse_kernel(In const* x, Out* z, std::int64_t rows, int log_m, float f) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  int const log_i = log_items(log_m);
  std::uint32_t const m = 1u << log_m;
  std::int64_t const items = rows << log_i;
  std::int64_t const stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < items;
       i += stride) {
    auto const [row, j] = item_of(i, log_i);
    In const* xr = x + row * (m + 1);
    Out* zr = z + row * m;
    if (j == 0) {
      store(zr, split_inverse_ends(load(xr), load(xr + m), f));
      if (m >= 2) store(zr + m / 2, split_inverse_middle(load(xr + m / 2), f));
    } else {
      float2 zk, zmk;
      split_inverse_pair(load(xr + j), load(xr + (m - j)), fast_twiddle(j, log_m), f, zk, zmk);
      store(zr + j, zk);
      store(zr + (m - j), zmk);
    }
  }
}

unsigned grid_for(SplitArgs const& a) noexcept {
  std::int64_t const items = a.rows << (a.log_m > 0 ? a.log_m - 1 : 0);
  return static_cast<unsigned>(std::min((items + kThreads - 1) / kThreads, kMaxBlocks));
}

template <template <class, class> class Launch>
cudaError_t dispatch(SplitArgs const& a, void const* src, void* dst, cudaStream_t stream) {
  if (a.rows <= 0) return cudaSuccess;
  unsigned const grid = grid_for(a);
  if (a.in_fp32 && a.out_fp32) {
    return Launch<float2, float2>::run(grid, stream, src, dst, a);
  }
  if (a.in_fp32) return Launch<float2, __half2>::run(grid, stream, src, dst, a);
  if (a.out_fp32) return Launch<__half2, float2>::run(grid, stream, src, dst, a);
  return Launch<__half2, __half2>::run(grid, stream, src, dst, a);
}

template <class In, class Out>
struct Forward {
  static cudaError_t run(unsigned grid, cudaStream_t stream, void const* src, void* dst,
                         SplitArgs const& a) {
    return launch_chained(split_forward_kernel<In, Out>, grid, kThreads, 0, stream,
                          static_cast<In const*>(src), static_cast<Out*>(dst), a.rows, a.log_m,
                          a.factor);
  }
};

template <class In, class Out>
struct Inverse {
  static cudaError_t run(unsigned grid, cudaStream_t stream, void const* src, void* dst,
                         SplitArgs const& a) {
    return launch_chained(split_inverse_kernel<In, Out>, grid, kThreads, 0, stream,
                          static_cast<In const*>(src), static_cast<Out*>(dst), a.rows, a.log_m,
                          a.factor);
  }
};

}  // namespace

cudaError_t launch_split_forward(SplitArgs const& args, void const* z, void* x,
                                 cudaStream_t stream) noexcept {
  return dispatch<Forward>(args, z, x, stream);
}

cudaError_t launch_split_inverse(SplitArgs const& args, void const* x, void* z,
                                 cudaStream_t stream) noexcept {
  return dispatch<Inverse>(args, x, z, stream);
}

}  // namespace fftcore::detail::tc
