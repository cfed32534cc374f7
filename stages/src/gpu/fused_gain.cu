// SPDX-License-Identifier: MIT
#include "gpu/fused_gain.hpp"

#include <tcfft/core/error.hpp>

#include <algorithm>

namespace tcfft::gpu::detail {
namespace {

template <class T>
__global__ void fill(T* table, std::int64_t count, T value) {
  std::int64_t const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
       i < count; i += stride) {
    table[i] = value;
  }
}

template <class T>
void launch_fill(T* table, std::int64_t count, T value, cudaStream_t stream) {
  constexpr int kThreads = 256;
  auto const blocks =
      static_cast<unsigned>(std::clamp<std::int64_t>((count + kThreads - 1) / kThreads, 1, 4096));
  fill<<<blocks, kThreads, 0, stream>>>(table, count, value);
  TCFFT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

DeviceBuffer make_gain_factors(GainArgs const& gain, std::int64_t item, cudaStream_t stream) {
  DeviceBuffer table(static_cast<std::size_t>(item) * sizeof(float2));
  launch_fill(table.as<float2>(), item, make_float2(1.f, 0.f), stream);
  GainArgs args = gain;
  args.work = table.data();
  args.half = false;  // FP32 factors, whatever the chain's precision
  args.total = item;
  launch_gain(args, stream);
  TCFFT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return table;
}

DeviceBuffer make_gain_table(GainArgs const& gain, cudaStream_t stream) {
  TCFFT_EXPECTS(gain.mode == GainMode::kParametric, "make_gain_table: a parametric gain");
  std::int64_t const pitch = gain.view.line(gain.nx);
  std::int64_t const count = gain.ny * pitch;
  DeviceBuffer table(static_cast<std::size_t>(count) * sizeof(float));
  launch_fill(table.as<float>(), count, 1.f, stream);
  GainArgs args = gain;
  args.work = table.data();
  args.half = false;  // FP32 gains, whatever the chain's precision
  args.view = {true, pitch};
  args.total = count;
  launch_gain(args, stream);
  TCFFT_CUDA_CHECK(cudaStreamSynchronize(stream));
  return table;
}

}  // namespace tcfft::gpu::detail
