// SPDX-License-Identifier: MIT
// Element-wise kernels of the GPU chain: grid-stride loops, one launch each, the per-element
// math shared with the CPU through sample_convert.hpp and filter_response.hpp.
// Memory-bound by design: a grid of a few blocks per multiprocessor, each thread loading
// kUnroll elements (a grid stride apart, so a warp's accesses stay contiguous) into registers
// in their stored width before it computes and stores any, to keep bytes in flight; the kernels
// that read raw samples are instantiated per dtype; element places come from a LineCursor
// (no 64-bit division per element).
#include "gpu/chain_kernels.hpp"

#include <tcfft/core/cuda.hpp>
#include <tcfft/core/frame.hpp>
#include <tcfft/gpu/line_cursor.hpp>

#include <cuda_fp16.h>

#include <algorithm>

namespace tcfft::gpu::detail {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 8;       // loads in flight per thread
constexpr int kBlocksPerSm = 8;  // 2048 threads: a full multiprocessor

unsigned grid_for(std::int64_t total) {
  int device = 0;
  int sms = 0;
  TCFFT_CUDA_CHECK(cudaGetDevice(&device));
  TCFFT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  std::int64_t const blocks = (total + kThreads * kUnroll - 1) / (kThreads * kUnroll);
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, kBlocksPerSm * sms));
}

__device__ inline std::int64_t grid_stride() {
  return static_cast<std::int64_t>(gridDim.x) * blockDim.x;
}

__device__ inline std::int64_t first_element() {
  return blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
}

/// Element i of a working buffer (WorkView): complex __half2 / float2, or real __half / float
/// (as (x, 0)), widened to float2.
__device__ inline float2 load_view(void const* work, bool half, bool real, std::int64_t i) {
  if (real) {
    return make_float2(half ? __half2float(static_cast<__half const*>(work)[i])
                            : static_cast<float const*>(work)[i],
                       0.f);
  }
  return half ? __half22float2(static_cast<__half2 const*>(work)[i])
              : static_cast<float2 const*>(work)[i];
}

__device__ inline void store_view(void* work, bool half, bool real, std::int64_t i, float2 v) {
  if (real && half) {
    static_cast<__half*>(work)[i] = __float2half_rn(v.x);
  } else if (real) {
    static_cast<float*>(work)[i] = v.x;
  } else if (half) {
    static_cast<__half2*>(work)[i] = __float22half2_rn(v);
  } else {
    static_cast<float2*>(work)[i] = v;
  }
}

/// The raw sample type of a dtype, loaded as stored and widened by load_raw's rules.
template <RawDtype T> struct Raw;
template <> struct Raw<RawDtype::kInt16> { using type = std::int16_t; };
template <> struct Raw<RawDtype::kUint16> { using type = std::uint16_t; };
template <> struct Raw<RawDtype::kInt32> { using type = std::int32_t; };
template <> struct Raw<RawDtype::kFloat32> { using type = float; };
template <> struct Raw<RawDtype::kFloat64> { using type = double; };
template <> struct Raw<RawDtype::kComplex64> { using type = float2; };
template <> struct Raw<RawDtype::kComplex128> { using type = double2; };

template <RawDtype T>
__device__ inline Complex widen(typename Raw<T>::type v) {
  return load_raw(T, &v, 0);
}

__device__ inline double frame_max(StatusWords const* status) {
  return __longlong_as_double(static_cast<long long>(status->max_abs_bits));
}

__global__ void reset_status_kernel(StatusWords* status) {
  status->max_abs_bits = 0;
  status->first_bad = kNoBadSample;
  status->replaced = 0;
}

template <RawDtype T>
__global__ void scan_kernel(void const* raw_void, std::int64_t count, StatusWords* status) {
  auto const* raw = static_cast<typename Raw<T>::type const*>(raw_void);
  double local = 0.0;
  unsigned long long bad = kNoBadSample;
  std::int64_t const stride = grid_stride();
  for (std::int64_t base = first_element(); base < count; base += kUnroll * stride) {
    typename Raw<T>::type v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      if (base + k * stride < count) v[k] = raw[base + k * stride];
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      auto const i = static_cast<unsigned long long>(base + k * stride);
      if (base + k * stride >= count) break;
      Complex const c = widen<T>(v[k]);
      if (is_finite(c)) {
        local = fmax(local, fmax(fabs(c.re), fabs(c.im)));
      } else if (i < bad) {
        bad = i;
      }
    }
  }
  // The block's max and first bad index, then one atomic each per block (one per warp
  // serialised ~10^5 atomics on one address per frame).
  for (int offset = 16; offset > 0; offset /= 2) {
    local = fmax(local, __shfl_down_sync(0xffffffffu, local, offset));
    unsigned long long const other = __shfl_down_sync(0xffffffffu, bad, offset);
    bad = other < bad ? other : bad;
  }
  __shared__ double warp_max[kThreads / 32];
  __shared__ unsigned long long warp_bad[kThreads / 32];
  int const warp = static_cast<int>(threadIdx.x / 32);
  if ((threadIdx.x & 31) == 0) {
    warp_max[warp] = local;
    warp_bad[warp] = bad;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < static_cast<int>(blockDim.x / 32); ++w) {
      local = fmax(local, warp_max[w]);
      bad = warp_bad[w] < bad ? warp_bad[w] : bad;
    }
    // Non-negative doubles order as their bit patterns do.
    atomicMax(&status->max_abs_bits, static_cast<unsigned long long>(__double_as_longlong(local)));
    if (bad != kNoBadSample) atomicMin(&status->first_bad, bad);
  }
}

template <RawDtype T>
__global__ void convert_kernel(ConvertArgs args) {
  auto const* raw = static_cast<typename Raw<T>::type const*>(args.raw);
  int const e = args.dynamic ? unit_exponent(frame_max(args.status)) : args.exponent;
  double const scale = ldexp(1.0, -e);
  std::int64_t const stride = grid_stride();
  LineCursor at(first_element(), stride, args.nx, 1);
  for (std::int64_t base = first_element(); base < args.total; base += kUnroll * stride) {
    typename Raw<T>::type v[kUnroll];
    float w[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k, at.advance()) {
      std::int64_t const i = base + k * stride;
      w[k] = 1.f;
      if (i < args.count) {
        v[k] = raw[i];
        if (args.window != nullptr) w[k] = args.window[at.x];
      }
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      std::int64_t const i = base + k * stride;
      if (i >= args.total) break;
      Complex c{};
      if (i < args.count) {
        c = widen<T>(v[k]);
        if (!is_finite(c)) {
          c = Complex{};
          if (args.zero_nonfinite) atomicAdd(&args.status->replaced, 1ull);
        }
      }
      double const s = static_cast<double>(w[k]) * scale;
      store_view(args.work, args.half, args.real, i,
                 make_float2(static_cast<float>(c.re * s), static_cast<float>(c.im * s)));
    }
  }
}

/// The parametric gain on the lines of args.view, once per chain (make_gain_table and the
/// fused factors read it back as a table): the response in double, per element.
__global__ void gain_formula_kernel(GainArgs args) {
  std::int64_t const stride = grid_stride();
  std::int64_t const pitch = args.view.line(args.nx);
  LineCursor at(first_element(), stride, pitch, args.ny);
  for (std::int64_t i = first_element(); i < args.total; i += stride, at.advance()) {
    double const fx = stages::bin_frequency(at.x, args.nx, args.sample_rate);
    double f = fx;
    if (args.time_rows > 0) {
      f = hypot(fx, stages::bin_frequency(at.y, args.time_rows, args.sample_rate));
    }
    auto const g = static_cast<float>(stages::response_gain(args.response, f));
    float2 const v = load_view(args.work, args.half, args.view.real, i);
    store_view(args.work, args.half, args.view.real, i, make_float2(v.x * g, v.y * g));
  }
}

/// The per-frame gain: element (y, x) of each item times table[y * table_pitch + x], FP32.
__global__ void gain_kernel(GainArgs args) {
  std::int64_t const stride = grid_stride();
  std::int64_t const pitch = args.view.line(args.nx);
  bool const complex_table = args.mode == GainMode::kComplexTable;
  LineCursor at(first_element(), stride, pitch, args.ny);
  for (std::int64_t base = first_element(); base < args.total; base += kUnroll * stride) {
    float2 v[kUnroll];
    float2 g[kUnroll];  // a real gain as (g, 0): the same products
#pragma unroll
    for (int k = 0; k < kUnroll; ++k, at.advance()) {
      if (base + k * stride >= args.total) break;
      v[k] = load_view(args.work, args.half, args.view.real, base + k * stride);
      std::int64_t const t = at.y * args.table_pitch + at.x;
      g[k] = complex_table ? static_cast<float2 const*>(args.table)[t]
                           : make_float2(static_cast<float const*>(args.table)[t], 0.f);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      std::int64_t const i = base + k * stride;
      if (i >= args.total) break;
      float2 const p{v[k].x * g[k].x - v[k].y * g[k].y, v[k].x * g[k].y + v[k].y * g[k].x};
      store_view(args.work, args.half, args.view.real, i, p);
    }
  }
}

__global__ void realify_kernel(void* work, bool half, std::int64_t total) {
  std::int64_t const stride = grid_stride();
  for (std::int64_t i = first_element(); i < total; i += stride) {
    float2 const v = load_view(work, half, false, i);
    store_view(work, half, false, i, make_float2(v.x, 0.f));
  }
}

__global__ void sink_kernel(SinkArgs args) {
  int const e = args.dynamic ? unit_exponent(frame_max(args.status)) : args.exponent;
  double const factor = args.factor * ldexp(1.0, e);
  std::int64_t const pitch = args.view.line(args.nx);
  // Stored values per line: the bins, or an overlap-save item's core (ny 1, bins = nx), which
  // is core_sample_index's arithmetic (frame.hpp).
  std::int64_t const stored = args.bins - 2 * args.context;
  std::int64_t const total = args.rows * args.ny * stored;
  std::int64_t const stride = grid_stride();
  LineCursor at(first_element(), stride, stored, 1);
  for (std::int64_t base = first_element(); base < total; base += kUnroll * stride) {
    float2 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k, at.advance()) {
      if (base + k * stride >= total) break;
      v[k] = load_view(args.work, args.half, args.view.real, at.line * pitch + args.context + at.x);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      std::int64_t const o = base + k * stride;
      if (o >= total) break;
      Complex const c{v[k].x * factor, v[k].y * factor};
      store_out(args.out, args.dst, o, apply_element_op(c, args.op, args.take_real));
    }
  }
}

/// The sink of whole lines without a spectrum quantity (time-domain results, half spectra,
/// full items): out[o] = factor * 2^e * work[o], store_out folded per stored dtype; the general
/// sink_kernel's per-element gather and quantity switch cost ~70 instructions per element
/// (ncu, H200), several times what the bytes need.
template <OutDtype Out>
__global__ void sink_plain_kernel(SinkArgs args, std::int64_t total) {
  int const e = args.dynamic ? unit_exponent(frame_max(args.status)) : args.exponent;
  double const factor = args.factor * ldexp(1.0, e);
  std::int64_t const stride = grid_stride();
  for (std::int64_t base = first_element(); base < total; base += kUnroll * stride) {
    float2 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      if (base + k * stride < total) {
        v[k] = load_view(args.work, args.half, args.view.real, base + k * stride);
      }
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      std::int64_t const o = base + k * stride;
      if (o >= total) break;
      Complex const c{v[k].x * factor, v[k].y * factor};
      store_out(Out, args.dst, o, apply_element_op(c, ElementOp::kNone, args.take_real));
    }
  }
}

/// Launch<dtype>::run(args...): the kernel instantiated for the dtype.
template <template <RawDtype> class Launch, class... Args>
void dispatch(RawDtype dtype, Args&&... args) {
  switch (dtype) {
    case RawDtype::kInt16: Launch<RawDtype::kInt16>::run(args...); return;
    case RawDtype::kUint16: Launch<RawDtype::kUint16>::run(args...); return;
    case RawDtype::kInt32: Launch<RawDtype::kInt32>::run(args...); return;
    case RawDtype::kFloat32: Launch<RawDtype::kFloat32>::run(args...); return;
    case RawDtype::kFloat64: Launch<RawDtype::kFloat64>::run(args...); return;
    case RawDtype::kComplex64: Launch<RawDtype::kComplex64>::run(args...); return;
    case RawDtype::kComplex128: Launch<RawDtype::kComplex128>::run(args...); return;
  }
}

template <RawDtype T> struct ScanLaunch {
  static void run(void const* raw, std::int64_t count, StatusWords* status, cudaStream_t stream) {
    scan_kernel<T><<<grid_for(count), kThreads, 0, stream>>>(raw, count, status);
  }
};

template <RawDtype T> struct ConvertLaunch {
  static void run(ConvertArgs const& args, cudaStream_t stream) {
    convert_kernel<T><<<grid_for(args.total), kThreads, 0, stream>>>(args);
  }
};

}  // namespace

void launch_reset_status(StatusWords* status, cudaStream_t stream) {
  reset_status_kernel<<<1, 1, 0, stream>>>(status);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_scan(RawDtype dtype, void const* raw, std::int64_t count, StatusWords* status,
                 cudaStream_t stream) {
  if (count <= 0) return;
  dispatch<ScanLaunch>(dtype, raw, count, status, stream);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_convert(ConvertArgs const& args, cudaStream_t stream) {
  if (args.total <= 0) return;
  dispatch<ConvertLaunch>(args.dtype, args, stream);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

void launch_gain(GainArgs const& args, cudaStream_t stream) {
  if (args.total <= 0) return;
  if (args.mode == GainMode::kParametric) {
    gain_formula_kernel<<<grid_for(args.total), kThreads, 0, stream>>>(args);
  } else {
    gain_kernel<<<grid_for(args.total), kThreads, 0, stream>>>(args);
  }
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
  std::int64_t const pitch = args.view.line(args.nx);
  if (args.op == ElementOp::kNone && args.context == 0 && args.bins == pitch) {
    switch (args.out) {
      case OutDtype::kFloat32:
        sink_plain_kernel<OutDtype::kFloat32>
            <<<grid_for(total), kThreads, 0, stream>>>(args, total);
        break;
      case OutDtype::kFloat64:
        sink_plain_kernel<OutDtype::kFloat64>
            <<<grid_for(total), kThreads, 0, stream>>>(args, total);
        break;
      case OutDtype::kComplex64:
        sink_plain_kernel<OutDtype::kComplex64>
            <<<grid_for(total), kThreads, 0, stream>>>(args, total);
        break;
      case OutDtype::kComplex128:
        sink_plain_kernel<OutDtype::kComplex128>
            <<<grid_for(total), kThreads, 0, stream>>>(args, total);
        break;
    }
  } else {
    sink_kernel<<<grid_for(total), kThreads, 0, stream>>>(args);
  }
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace tcfft::gpu::detail
