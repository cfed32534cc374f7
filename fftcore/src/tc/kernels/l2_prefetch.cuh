// SPDX-License-Identifier: MIT
// L2 fetches beyond the loads themselves. The bulk prefetch of a contiguous range into L2
// (sm_90's cp.async.bulk.prefetch.L2): one instruction from one thread starts the DRAM reads of
// a whole work item ahead of the loads that will take it, so that the read stream no longer
// waits on the warps' registers to hold loads in flight. A hint only: L2 is the point of
// coherence for global memory, so a prefetched line is never stale, and nothing waits for it.
// And a load whose L2 miss fetches the whole 128-byte line (load_fetching_line).
#pragma once

#include <cstdint>

namespace fftcore::detail::tc {

/// Prefetches the 16-byte chunks that hold [ptr, ptr + bytes) (global memory, bytes < 2^32 -
/// 32) into L2: the range widened to whole chunks, which lie in the pages of the range's own
/// bytes. A no-op below sm_90.
__device__ __forceinline__ void prefetch_l2(void const* ptr, std::uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  auto const at = reinterpret_cast<std::uintptr_t>(ptr);
  std::uintptr_t const first = at & ~std::uintptr_t{15};
  auto const size = static_cast<std::uint32_t>(((at + bytes + 15) & ~std::uintptr_t{15}) - first);
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(first), "r"(size) : "memory");
#else
  (void)ptr;
  (void)bytes;
#endif
}

/// A 4-byte global load that asks L2 to fetch the whole 128-byte line around it from DRAM
/// (the prefetch-size hint .L2::128B): the neighbouring runs of a column pass's 32-byte runs,
/// read by the neighbouring blocks at about the same time, then hit L2. A plain load below
/// sm_90.
__device__ __forceinline__ std::uint32_t load_fetching_line(std::uint32_t const* ptr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  std::uint32_t v;
  asm volatile("ld.global.L2::128B.u32 %0, [%1];" : "=r"(v) : "l"(ptr));
  return v;
#else
  return *ptr;
#endif
}

/// A 4- / 8-byte global load that asks L2 to fetch the 256 bytes around it from DRAM (the
/// prefetch-size hint .L2::256B): the neighbouring warps' parts of a row that the loading warp
/// covers half of. A plain load below sm_90.
__device__ __forceinline__ std::uint32_t load_fetching_256(std::uint32_t const* ptr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  std::uint32_t v;
  asm volatile("ld.global.L2::256B.u32 %0, [%1];" : "=r"(v) : "l"(ptr));
  return v;
#else
  return *ptr;
#endif
}
__device__ __forceinline__ uint2 load_fetching_256(uint2 const* ptr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  uint2 v;
  asm volatile("ld.global.L2::256B.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(ptr));
  return v;
#else
  return *ptr;
#endif
}

}  // namespace fftcore::detail::tc
