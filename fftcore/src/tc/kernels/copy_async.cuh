// SPDX-License-Identifier: MIT
// Asynchronous global -> shared copies (sm_80's cp.async): loads that stay in flight while a
// block computes, without holding registers. Completion is per thread: after
// copy_async_wait_all a thread sees its own copies; other threads' need a barrier as well.
#pragma once

#include <cstdint>

namespace fftcore::detail::tc {

/// Copies `bytes` (0..16) and fills the rest of the 16 with zeros (L2 only: .cg).
__device__ __forceinline__ void copy_async16(std::uint32_t smem_addr, void const* gmem, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr), "l"(gmem),
               "r"(bytes)
               : "memory");
}
/// Copies one 4-byte word (through L1: .ca, the only form at 4 bytes).
__device__ __forceinline__ void copy_async4(std::uint32_t smem_addr, void const* gmem) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_addr), "l"(gmem)
               : "memory");
}
__device__ __forceinline__ void copy_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void copy_async_wait_all() {
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

}  // namespace fftcore::detail::tc
