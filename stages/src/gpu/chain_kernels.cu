// SPDX-License-Identifier: MIT
// Element-wise kernels of the GPU chain: grid-stride loops, one launch each, the per-element
// math shared with the CPU through sample_convert.hpp and filter_response.hpp.
#include "gpu/chain_kernels.hpp"

#include <tcfft/core/cuda.hpp>
#include <tcfft/core/frame.hpp>
#include <tcfft/gpu/line_cursor.hpp>

#include <cuda_fp16.h>

#include <algorithm>

namespace tcfft::gpu::detail {
namespace {

constexpr int kThreads = 256;

unsigned grid_for(std::int64_t total) {
  std::int64_t const blocks = (total + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, 16384));
}

__device__ inline Complex load_work(void const* work, bool half, std::int64_t i) {
  if (half) {
    float2 const f = __half22float2(static_cast<__half2 const*>(work)[i]);
    return {f.x, f.y};
  }
  float2 const f = static_cast<float2 const*>(work)[i];
  return {f.x, f.y};
}

__device__ inline void store_work(void* work, bool half, std::int64_t i, Complex v) {
  if (half) {
    static_cast<__half2*>(work)[i] =
        __floats2half2_rn(static_cast<float>(v.re), static_cast<float>(v.im));
  } else {
    static_cast<float2*>(work)[i] = make_float2(static_cast<float>(v.re), static_cast<float>(v.im));
  }
}

/// load_work / store_work of a layout that may be real (a real element loads as (x, 0)).
__device__ inline Complex load_view(void const* work, bool half, bool real, std::int64_t i) {
  if (!real) return load_work(work, half, i);
  float const x = half ? __half2float(static_cast<__half const*>(work)[i])
                       : static_cast<float const*>(work)[i];
  return {x, 0.0};
}

__device__ inline void store_view(void* work, bool half, bool real, std::int64_t i, Complex v) {
  if (!real) {
    store_work(work, half, i, v);
  } else if (half) {
    static_cast<__half*>(work)[i] = __float2half_rn(static_cast<float>(v.re));
  } else {
    static_cast<float*>(work)[i] = static_cast<float>(v.re);
  }
}

__device__ inline double frame_max(StatusWords const* status) {
  return __longlong_as_double(static_cast<long long>(status->max_abs_bits));
}

__global__ void reset_status_kernel(StatusWords* status) {
  status->max_abs_bits = 0;
  status->first_bad = kNoBadSample;
  status->replaced = 0;
}

__global__ void scan_kernel(RawDtype dtype, void const* raw, std::int64_t count,
                            StatusWords* status) {
  double local = 0.0;
  unsigned long long bad = kNoBadSample;
  std::int64_t const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       i < count; i += stride) {
    Complex const v = load_raw(dtype, raw, i);
    if (is_finite(v)) {
      local = fmax(local, fmax(fabs(v.re), fabs(v.im)));
    } else if (static_cast<unsigned long long>(i) < bad) {
      bad = static_cast<unsigned long long>(i);
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    local = fmax(local, __shfl_down_sync(0xffffffffu, local, offset));
    unsigned long long const other = __shfl_down_sync(0xffffffffu, bad, offset);
    bad = other < bad ? other : bad;
  }
  if ((threadIdx.x & 31) == 0) {
    // Non-negative doubles order as their bit patterns do.
    atomicMax(&status->max_abs_bits, static_cast<unsigned long long>(__double_as_longlong(local)));
    if (bad != kNoBadSample) atomicMin(&status->first_bad, bad);
  }
}

__global__ void convert_kernel(ConvertArgs args) {
  int const e = args.dynamic ? unit_exponent(frame_max(args.status)) : args.exponent;
  double const scale = ldexp(1.0, -e);
  std::int64_t const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t const first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  LineCursor at(first, stride, args.nx, 1);
  for (std::int64_t i = first; i < args.total; i += stride, at.advance()) {
    Complex v{};
    if (i < args.count) {
      v = load_raw(args.dtype, args.raw, i);
      if (!is_finite(v)) {
        v = Complex{};
        if (args.zero_nonfinite) atomicAdd(&args.status->replaced, 1ull);
      }
      double const w = args.window != nullptr ? args.window[at.x] * scale : scale;
      v.re *= w;
      v.im *= w;
    }
    store_view(args.work, args.half, args.real, i, v);
  }
}

__global__ void gain_kernel(GainArgs args) {
  std::int64_t const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t const pitch = args.view.pitch > 0 ? args.view.pitch : args.nx;
  std::int64_t const first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  LineCursor at(first, stride, pitch, args.ny);
  for (std::int64_t i = first; i < args.total; i += stride, at.advance()) {
    Complex v = load_view(args.work, args.half, args.view.real, i);
    std::int64_t const x = at.x;
    std::int64_t const y = at.y;
    std::int64_t const t = y * args.table_pitch + x;
    if (args.mode == GainMode::kComplexTable) {
      float2 const g = static_cast<float2 const*>(args.table)[t];
      v = Complex{v.re * g.x - v.im * g.y, v.re * g.y + v.im * g.x};
    } else {
      double g = 0.0;
      if (args.mode == GainMode::kRealTable) {
        g = static_cast<float const*>(args.table)[t];
      } else {
        double const fx = stages::bin_frequency(x, args.nx, args.sample_rate);
        double f = fx;
        if (args.time_rows > 0) {
          f = hypot(fx, stages::bin_frequency(y, args.time_rows, args.sample_rate));
        }
        g = stages::response_gain(args.response, f);
      }
      v.re *= g;
      v.im *= g;
    }
    store_view(args.work, args.half, args.view.real, i, v);
  }
}

__global__ void realify_kernel(void* work, bool half, std::int64_t total) {
  std::int64_t const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       i < total; i += stride) {
    Complex const v = load_work(work, half, i);
    store_work(work, half, i, Complex{v.re, 0.0});
  }
}

__global__ void sink_kernel(SinkArgs args) {
  int const e = args.dynamic ? unit_exponent(frame_max(args.status)) : args.exponent;
  double const factor = args.factor * ldexp(1.0, e);
  std::int64_t const pitch = args.view.pitch > 0 ? args.view.pitch : args.nx;
  // Stored values per line: the bins, or an overlap-save item's core (ny 1, bins = nx), which
  // is core_sample_index's arithmetic (frame.hpp).
  std::int64_t const stored = args.bins - 2 * args.context;
  std::int64_t const total = args.rows * args.ny * stored;
  std::int64_t const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t const first = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  LineCursor at(first, stride, stored, 1);
  for (std::int64_t o = first; o < total; o += stride, at.advance()) {
    std::int64_t const src = at.line * pitch + args.context + at.x;
    Complex v = load_view(args.work, args.half, args.view.real, src);
    v.re *= factor;
    v.im *= factor;
    store_out(args.out, args.dst, o, apply_element_op(v, args.op, args.take_real));
  }
}

}  // namespace

void launch_reset_status(StatusWords* status, cudaStream_t stream) {
  reset_status_kernel<<<1, 1, 0, stream>>>(status);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_scan(RawDtype dtype, void const* raw, std::int64_t count, StatusWords* status,
                 cudaStream_t stream) {
  if (count <= 0) return;
  scan_kernel<<<grid_for(count), kThreads, 0, stream>>>(dtype, raw, count, status);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_convert(ConvertArgs const& args, cudaStream_t stream) {
  if (args.total <= 0) return;
  convert_kernel<<<grid_for(args.total), kThreads, 0, stream>>>(args);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_gain(GainArgs const& args, cudaStream_t stream) {
  if (args.total <= 0) return;
  gain_kernel<<<grid_for(args.total), kThreads, 0, stream>>>(args);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_realify(void* work, bool half, std::int64_t total, cudaStream_t stream) {
  if (total <= 0) return;
  realify_kernel<<<grid_for(total), kThreads, 0, stream>>>(work, half, total);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_sink(SinkArgs const& args, cudaStream_t stream) {
  std::int64_t const total = args.rows * args.ny * (args.bins - 2 * args.context);
  if (total <= 0) return;
  sink_kernel<<<grid_for(total), kThreads, 0, stream>>>(args);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tcfft::gpu::detail
