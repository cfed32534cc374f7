// SPDX-License-Identifier: MIT
// Helpers of the Tensor Core GPU tests: device buffers, FP16 conversion, a fast double-precision
// reference FFT (1-D and 2-D, batched), and cuFFT FP16 run on the same input for comparison.
#pragma once

#include <fftcore/fftcore.hpp>

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <cufftXt.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <thread>
#include <algorithm>
#include <cstdint>
#include <vector>

namespace tcfft::testing {

using cd = std::complex<double>;

#define TC_CUDA_OK(expr) ASSERT_EQ((expr), cudaSuccess) << #expr
#define TC_STATUS_OK(expr) ASSERT_EQ((expr), fftcore::Status::kSuccess) << #expr

/// Owner of device memory (move-only, never throws on release).
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes > 0 && cudaMalloc(&ptr_, bytes) != cudaSuccess) ptr_ = nullptr;
  }
  DeviceBuffer(DeviceBuffer const&) = delete;
  DeviceBuffer& operator=(DeviceBuffer const&) = delete;
  ~DeviceBuffer() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
  }
  [[nodiscard]] void* get() const { return ptr_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Runs fn(begin, end) over [0, count) on all hardware threads.
template <class Fn>
void parallel_for(std::size_t count, Fn const& fn) {
  std::size_t const workers = std::max(1u, std::thread::hardware_concurrency());
  if (count < 2 * workers || count < 4096) {
    fn(std::size_t{0}, count);
    return;
  }
  std::vector<std::thread> pool;
  std::size_t const chunk = (count + workers - 1) / workers;
  for (std::size_t b = 0; b < count; b += chunk) {
    pool.emplace_back([&fn, b, chunk, count] { fn(b, std::min(count, b + chunk)); });
  }
  for (auto& t : pool) t.join();
}

inline std::vector<__half2> to_half(std::vector<cd> const& x) {
  std::vector<__half2> h(x.size());
  parallel_for(x.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      h[i] = __halves2half2(__double2half(x[i].real()), __double2half(x[i].imag()));
    }
  });
  return h;
}

inline std::vector<cd> to_double(std::vector<__half2> const& h) {
  std::vector<cd> x(h.size());
  parallel_for(h.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      x[i] = {static_cast<double>(__low2float(h[i])), static_cast<double>(__high2float(h[i]))};
    }
  });
  return x;
}

/// Rounds to FP16 and back: the input every transform actually sees.
inline std::vector<cd> round_to_half(std::vector<cd> const& x) { return to_double(to_half(x)); }

/// In-place iterative radix-2 FFT in double, X[k] = sum x[j] exp(sign 2 pi i j k / n);
/// `roots` from unit_roots(m) for some m >= n. Threads inside when `parallel`.
inline void fft_inplace(cd* a, std::size_t n, std::size_t stride, int sign,
                        std::vector<cd> const& roots, bool parallel = false) {
  int log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  auto const run = [&](std::size_t count, auto const& body) {
    if (parallel) {
      parallel_for(count, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) body(i);
      });
    } else {
      for (std::size_t i = 0; i < count; ++i) body(i);
    }
  };
  run(n, [&](std::size_t i) {
    std::size_t j = 0;
    for (int b = 0; b < log_n; ++b) j |= ((i >> b) & 1) << (log_n - 1 - b);
    if (i < j) std::swap(a[i * stride], a[j * stride]);
  });
  std::size_t const big = roots.size() * 2;  // roots[k] = exp(-2 pi i k / big), k < big/2
  for (std::size_t len = 2; len <= n; len <<= 1) {
    std::size_t const step = big / len, half = len / 2;
    run(n / 2, [&](std::size_t butterfly) {
      std::size_t const i = (butterfly / half) * len, k = butterfly % half;
      cd w = roots[k * step];
      if (sign > 0) w = std::conj(w);
      cd const u = a[(i + k) * stride];
      cd const v = a[(i + k + half) * stride] * w;
      a[(i + k) * stride] = u + v;
      a[(i + k + half) * stride] = u - v;
    });
  }
}

inline std::vector<cd> unit_roots(std::size_t n) {
  std::vector<cd> r(std::max<std::size_t>(n / 2, 1));
  long double const two_pi = 6.283185307179586476925286766559L;
  for (std::size_t k = 0; k < r.size(); ++k) {
    long double const a = -two_pi * static_cast<long double>(k) / static_cast<long double>(n);
    r[k] = {static_cast<double>(std::cos(a)), static_cast<double>(std::sin(a))};
  }
  return r;
}

/// Batched 1-D (rows = 1) or 2-D reference, unscaled.
inline std::vector<cd> reference_fft(std::vector<cd> x, std::int64_t rows, std::int64_t cols,
                                     std::int64_t batch, int sign) {
  auto const c = static_cast<std::size_t>(cols), r = static_cast<std::size_t>(rows);
  auto const roots_c = unit_roots(c);
  std::size_t const lines = static_cast<std::size_t>(batch) * r;
  if (lines == 1) {
    fft_inplace(x.data(), c, 1, sign, roots_c, true);
  } else {
    parallel_for(lines, [&](std::size_t b, std::size_t e) {
      for (; b < e; ++b) fft_inplace(x.data() + b * c, c, 1, sign, roots_c);
    });
  }
  if (rows > 1) {
    auto const roots_r = unit_roots(r);
    parallel_for(static_cast<std::size_t>(batch) * c, [&](std::size_t b, std::size_t e) {
      std::vector<cd> column(r);
      for (; b < e; ++b) {
        cd* base = x.data() + (b / c) * r * c + b % c;
        for (std::size_t i = 0; i < r; ++i) column[i] = base[i * c];
        fft_inplace(column.data(), r, 1, sign, roots_r);
        for (std::size_t i = 0; i < r; ++i) base[i * c] = column[i];
      }
    });
  }
  return x;
}

/// Runs a Tensor Core plan on `x` (already FP16-representable); returns the output.
inline void run_tc(fftcore::PlanDesc desc, std::vector<cd> const& x, fftcore::Direction dir,
                   bool in_place, std::vector<cd>& y) {
  desc.backend = fftcore::Backend::kTensorCore;
  fftcore::Plan plan;
  TC_STATUS_OK(fftcore::make_plan(desc, plan));
  auto const h = to_half(x);
  std::size_t const bytes = h.size() * sizeof(__half2);
  DeviceBuffer in(bytes), out(in_place ? 0 : bytes), ws(plan.workspace_bytes());
  ASSERT_NE(in.get(), nullptr);
  void* dst = in_place ? in.get() : out.get();
  TC_CUDA_OK(cudaMemcpy(in.get(), h.data(), bytes, cudaMemcpyHostToDevice));
  TC_STATUS_OK(fftcore::execute(plan, in.get(), dst, dir, ws.get(), ws.bytes(), nullptr));
  TC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<__half2> r(h.size());
  TC_CUDA_OK(cudaMemcpy(r.data(), dst, bytes, cudaMemcpyDeviceToHost));
  y = to_double(r);
}

/// cuFFT FP16 (cufftXtMakePlanMany, CUDA_C_16F) on the same input, unscaled.
inline void run_cufft_half(std::int64_t rows, std::int64_t cols, std::int64_t batch,
                           std::vector<cd> const& x, int sign, std::vector<cd>& y) {
  cufftHandle handle = 0;
  ASSERT_EQ(cufftCreate(&handle), CUFFT_SUCCESS);
  long long dims[2] = {rows, cols};
  int const rank = rows > 1 ? 2 : 1;
  std::size_t ws = 0;
  auto const h = to_half(x);
  std::size_t const bytes = h.size() * sizeof(__half2);
  DeviceBuffer buf(bytes);
  cufftResult res = cufftXtMakePlanMany(handle, rank, rank == 2 ? dims : dims + 1, nullptr, 1,
                                        0, CUDA_C_16F, nullptr, 1, 0, CUDA_C_16F, batch, &ws,
                                        CUDA_C_16F);
  if (res == CUFFT_SUCCESS) {
    EXPECT_EQ(cudaMemcpy(buf.get(), h.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
    res = cufftXtExec(handle, buf.get(), buf.get(), sign < 0 ? CUFFT_FORWARD : CUFFT_INVERSE);
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  (void)cufftDestroy(handle);
  ASSERT_EQ(res, CUFFT_SUCCESS) << "cuFFT FP16";
  std::vector<__half2> r(h.size());
  TC_CUDA_OK(cudaMemcpy(r.data(), buf.get(), bytes, cudaMemcpyDeviceToHost));
  y = to_double(r);
}

}  // namespace tcfft::testing
