// SPDX-License-Identifier: MIT
#include "gpu/fused_gain.hpp"

#include <algorithm>

namespace tcfft::gpu::detail {
namespace {

__global__ void fill_ones(float2* table, std::int64_t count) {
  std::int64_t const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       i < count; i += stride) {
    table[i] = make_float2(1.f, 0.f);
  }
}

}  // namespace

DeviceBuffer make_gain_factors(GainArgs const& gain, std::int64_t item, cudaStream_t stream) {
  DeviceBuffer table(static_cast<std::size_t>(item) * sizeof(float2));
  constexpr int kThreads = 256;
  auto const blocks =
      static_cast<unsigned>(std::clamp<std::int64_t>((item + kThreads - 1) / kThreads, 1, 4096));
  fill_ones<<<blocks, kThreads, 0, stream>>>(table.as<float2>(), item);
  TCFFT_CUDA_CHECK(cudaGetLastError());
  GainArgs args = gain;
  args.work = table.data();
  args.half = false;  // FP32 factors, whatever the chain's precision
  args.total = item;
  launch_gain(args, stream);
  TCFFT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return table;
}

}  // namespace tcfft::gpu::detail
