// SPDX-License-Identifier: MIT
// What the probes (access_probe, cluster_probe, column_probe) share: CK(call), the check of a
// CUDA runtime call inside a function returning int (prints the call and the error, returns 1);
// best_ms, their timing; cluster_config, the launch set-up of a grid of thread-block clusters.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>

#define CK(x)                                             \
  do {                                                    \
    cudaError_t e = (x);                                  \
    if (e != cudaSuccess) {                               \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                           \
    }                                                     \
  } while (0)

/// The best of five timed calls of `call` (returning a cudaError_t) after two warm-ups, in ms,
/// into `best`; 1 on a CUDA error (printed), else 0.
template <class Call>
int best_ms(Call const& call, float& best) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  best = 1e30f;
  for (int i = 0; i < 7; ++i) {
    CK(cudaEventRecord(a));
    CK(call());
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0.f;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (i >= 2 && ms < best) best = ms;
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return 0;
}

/// `config` for blocks of `threads` threads and `smem` bytes of dynamic shared memory in
/// clusters of `blocks` along x (`attribute` holds the cluster dimension; the grid is one
/// cluster until the caller sets it, e.g. from cudaOccupancyMaxActiveClusters).
inline void cluster_config(cudaLaunchConfig_t& config, cudaLaunchAttribute& attribute,
                           unsigned blocks, unsigned threads, std::size_t smem) {
  attribute = cudaLaunchAttribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = blocks;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config = cudaLaunchConfig_t{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.attrs = &attribute;
  config.numAttrs = 1;
}
