// SPDX-License-Identifier: MIT
// fusion_bench: the pipeline's fft -> filter -> ifft chain three ways, in the same run (issue 4,
// "Fusion"): the Tensor Core backend with the filter response fused into the forward
// transform's last pass (ExecuteHooks::store_factors), the same backend with a separate
// multiply kernel, and cuFFT FP16 with the same separate multiply kernel (cuFFT has no FP16
// callbacks). ~2^28 complex FP16 elements per chain; the D2D copy bandwidth is the floor.
//   fusion_bench [--quick]
#include "bench_support.hpp"

#include <cmath>
#include <cstring>
#include <string>

namespace {

using bench::Buffer;
using bench::Case;
using bench::case_name;
using bench::tc_desc;
using bench::check;
using bench::time_ms;

__global__ void fill(__half2* h, float2* response, std::size_t count, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    auto hash = static_cast<unsigned>(i * 2654435761u) ^ 0x9e3779b9u;
    hash ^= hash >> 13;
    hash *= 0x85ebca6bu;
    h[i] = __floats2half2_rn(static_cast<float>(hash & 0xffff) / 32768.f - 0.999f,
                             static_cast<float>(hash >> 16) / 32768.f - 0.999f);
    if (i < n) {  // a smooth band-pass-like gain, real
      float const f = static_cast<float>(i) / static_cast<float>(n);
      response[i] = make_float2(1.f / (1.f + 100.f * (f - 0.25f) * (f - 0.25f)), 0.f);
    }
  }
}

/// The separate element-wise multiply of the unfused chains (FP16 in and out, FP32 product).
__global__ void multiply(__half2* data, float2 const* response, std::size_t count,
                         std::size_t mask) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i < count; i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float2 const x = __half22float2(data[i]);
    float2 const f = __ldg(response + (i & mask));
    data[i] = __floats2half2_rn(x.x * f.x - x.y * f.y, x.x * f.y + x.y * f.x);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool const quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  int const repeats = quick ? 5 : 11;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "properties");
  std::size_t const total = std::size_t{1} << 28;
  Buffer in(total * 4), data(total * 4), ws(total * 4), response(sizeof(float2) << 27);
  fill<<<1024, 256>>>(static_cast<__half2*>(in.get()), static_cast<float2*>(response.get()),
                      total, std::size_t{1} << 27);
  check(cudaGetLastError(), "fill");
  float const copy_ms = time_ms([&] {
    check(cudaMemcpyAsync(data.get(), in.get(), total * 4, cudaMemcpyDeviceToDevice), "copy");
  }, repeats);
  std::printf("# fusion_bench on %s (sm_%d%d)\n\n", prop.name, prop.major, prop.minor);
  std::printf("D2D copy of %zu MiB (read + write counted): %.3f ms, %.0f GB/s. Chain = forward "
              "FFT, multiply by a per-frequency response, inverse FFT, 2^28 complex FP16 "
              "elements, out of place then in place.\n\n",
              (total * 4) >> 20, copy_ms, 2.0 * total * 4 / (copy_ms * 1e6));
  std::printf("| transform | batch | TC fused ms | TC + multiply kernel ms | cuFFT16 + multiply "
              "kernel ms | fused vs TC unfused | fused vs cuFFT16 chain |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  // 2^19, 2^22, 2^24 and 2^27: last passes on the tall pass's rows form (with the store hook
  // since session 41); 2^20's (12 + 8 on fast-DRAM devices) on the register-chained pass.
  for (Case c : {Case{1, 1 << 10}, Case{1, 1 << 14}, Case{1, 1 << 15}, Case{1, 1 << 16},
                 Case{1, 1 << 19}, Case{1, 1 << 20}, Case{1, 1 << 22}, Case{1, 1 << 24},
                 Case{1, 1 << 27}, Case{512, 512}, Case{2048, 2048}}) {
    long long const n = c.rows * c.cols;
    long long const batch = static_cast<long long>(total) / n;
    fftcore::Plan plan;
    check(fftcore::make_plan(tc_desc(c, batch), plan), "make_plan");
    auto const* resp = static_cast<float2 const*>(response.get());
    auto const grid = static_cast<unsigned>(4 * prop.multiProcessorCount);
    auto const mul = [&] {
      multiply<<<grid, 512>>>(static_cast<__half2*>(data.get()), resp, total,
                              static_cast<std::size_t>(n - 1));
      check(cudaGetLastError(), "multiply");
    };
    fftcore::ExecuteHooks hooks;
    hooks.store_factors = resp;
    float const fused = time_ms([&] {
      check(fftcore::execute(plan, in.get(), data.get(), fftcore::Direction::kForward, ws.get(),
                             total * 4, nullptr, hooks), "fused forward");
      check(fftcore::execute(plan, data.get(), data.get(), fftcore::Direction::kInverse,
                             ws.get(), total * 4, nullptr), "inverse");
    }, repeats);
    float const unfused = time_ms([&] {
      check(fftcore::execute(plan, in.get(), data.get(), fftcore::Direction::kForward, ws.get(),
                             total * 4, nullptr), "forward");
      mul();
      check(fftcore::execute(plan, data.get(), data.get(), fftcore::Direction::kInverse,
                             ws.get(), total * 4, nullptr), "inverse");
    }, repeats);
    cufftHandle handle = 0;
    check(cufftCreate(&handle), "create");
    long long dims[2] = {c.rows, c.cols};
    int const rank = c.rows > 1 ? 2 : 1;
    std::size_t cufft_ws = 0;
    check(cufftXtMakePlanMany(handle, rank, rank == 2 ? dims : dims + 1, nullptr, 1, 0,
                              CUDA_C_16F, nullptr, 1, 0, CUDA_C_16F, batch, &cufft_ws,
                              CUDA_C_16F), "cuFFT plan");
    float const cufft = time_ms([&] {
      check(cufftXtExec(handle, in.get(), data.get(), CUFFT_FORWARD), "cuFFT forward");
      mul();
      check(cufftXtExec(handle, data.get(), data.get(), CUFFT_INVERSE), "cuFFT inverse");
    }, repeats);
    (void)cufftDestroy(handle);
    std::string const name = case_name(c);
    std::printf("| %s | %lld | %.3f | %.3f | %.3f | %.2fx | %.2fx |\n", name.c_str(), batch, fused,
                unfused, cufft, unfused / fused, cufft / fused);
    std::fflush(stdout);
  }
  return 0;
}
