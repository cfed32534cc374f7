// SPDX-License-Identifier: MIT
// Thread-block cluster helpers (sm_90): the cluster barrier in two halves and 16-byte access to
// another block's shared memory (distributed shared memory). The block's rank, the cluster's
// index and count and its size come from the toolkit (__clusterRelativeBlockRank, __clusterIdx,
// __clusterGridDimInClusters, __clusterSizeInBlocks). Used by the long pass's split (two blocks
// per sequence), the tall pass's clusters in step, and bench/cluster_probe.cu and column_probe.cu.
#pragma once

#include <cstdint>

namespace fftcore::detail::tc {

/// The cluster barrier in two halves: every thread of every block of the cluster arrives
/// (release: its earlier writes, shared memory included, become visible) and later waits
/// (acquire) for all the others' arrivals.
__device__ __forceinline__ void cluster_arrive() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/// The shared::cluster address of the shared::cta address `local` in block `rank`.
__device__ __forceinline__ std::uint32_t cluster_address(std::uint32_t local, unsigned rank) {
  std::uint32_t v = 0;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(v) : "r"(local), "r"(rank));
  return v;
}
/// 16-byte load from and store to a shared::cluster address.
__device__ __forceinline__ uint4 load_cluster(std::uint32_t at) {
  uint4 v;
  asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(at)
               : "memory");
  return v;
}
__device__ __forceinline__ void store_cluster(std::uint32_t at, uint4 v) {
  asm volatile("st.shared::cluster.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(at), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w)
               : "memory");
}

}  // namespace fftcore::detail::tc
