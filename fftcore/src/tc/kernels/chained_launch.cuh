// SPDX-License-Identifier: MIT
// Programmatic dependent launch (sm_90) between the kernels of one execute: a kernel launched
// with launch_chained may be scheduled while the grid before it in the stream drains; it waits
// at its top (chain_prologue) until that grid has finished and its writes are visible, so the
// order and the results are those of plain stream order. What overlaps is the launch and block
// scheduling of the next grid with the tail of the previous one (1-2 us per pass boundary).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "tc/kernels/pass_launch.hpp"

namespace fftcore::detail::tc {

/// First statement of every chained kernel: wait for the grids this one depends on, then let
/// the next grid in the stream be scheduled. Both are no-ops where the kernel was launched
/// without the attribute, and below sm_90.
__device__ __forceinline__ void chain_prologue() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// Whether a grid of `blocks` blocks is launched chained: FFTCORE_TC_PDL is not "0" and the grid
/// has fewer blocks than the device has multiprocessors. Larger grids are launched plainly:
/// their blocks, scheduled early, took multiprocessors from the grid before them (512x512 in
/// batches of 1024, 7 % slower chained), and so did the persistent grids of one block per SM
/// (4096x4096 in batches of 16: 2.91-2.95 ms plain, 3.6-5.3 chained, H100); a full grid hides
/// its launch behind its own length.
inline bool chain_grid(unsigned blocks) noexcept {
  static bool const enabled = env_switch_on("FFTCORE_TC_PDL");
  if (!enabled) return false;
  int device = 0;
  int sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    return false;  // the launch itself reports the error
  }
  return blocks < static_cast<unsigned>(sms);
}

/// Launches `kernel` on `stream` like <<<grid, block, smem, stream>>>, with programmatic stream
/// serialization where chain_grid allows it. The kernel must begin with chain_prologue().
template <typename... Params, typename... Args>
cudaError_t launch_chained(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                           cudaStream_t stream, Args&&... args) noexcept {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  if (chain_grid(grid.x * grid.y * grid.z)) {
    config.attrs = &attribute;
    config.numAttrs = 1;
  }
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

/// Launches `kernel` on `stream` in clusters of `cluster` blocks along x, as many clusters as are
/// resident at once (cudaOccupancyMaxActiveClusters, kept in `cache`: -1 where none fits) and at
/// most `needed`, with programmatic stream serialization where chain_grid allows it. `launched`
/// says whether it did: where no such cluster fits it launches nothing and returns cudaSuccess.
/// The kernel must begin with chain_prologue().
template <typename... Params, typename... Args>
cudaError_t launch_clusters(void (*kernel)(Params...), unsigned cluster, std::int64_t needed,
                            dim3 block, std::size_t smem, cudaStream_t stream,
                            std::atomic<int>& cache, bool& launched, Args&&... args) noexcept {
  launched = false;
  cudaLaunchAttribute attributes[2] = {};
  attributes[0].id = cudaLaunchAttributeClusterDimension;
  attributes[0].val.clusterDim.x = cluster;
  attributes[0].val.clusterDim.y = 1;
  attributes[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = 1;
  int clusters = cache.load(std::memory_order_relaxed);
  if (clusters == 0) {
    config.gridDim = dim3(cluster);
    cudaError_t const e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
    if (e != cudaSuccess) return e;
    clusters = clusters > 0 ? clusters : -1;
    cache.store(clusters, std::memory_order_relaxed);
  }
  if (clusters < 0) return cudaSuccess;
  launched = true;
  config.gridDim = dim3(static_cast<unsigned>(std::min<std::int64_t>(needed, clusters)) * cluster);
  if (chain_grid(config.gridDim.x)) {
    attributes[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[1].val.programmaticStreamSerializationAllowed = 1;
    config.numAttrs = 2;
  }
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace fftcore::detail::tc
