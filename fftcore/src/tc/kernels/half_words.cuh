// SPDX-License-Identifier: MIT
// FP16 complex values as raw 32-bit words (real half low, imaginary half high), shared by the
// CUDA-core passes (short, warp and column): they load and store raw words, convert to FP32
// once, and conjugate by flipping a sign bit.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

namespace fftcore::detail::tc {

/// The sign bit of the imaginary (high) half of a __half2: XOR conjugates exactly.
inline constexpr std::uint32_t kConjugate = 0x80000000u;

__device__ __forceinline__ float2 unpack_word(std::uint32_t bits) {
  return __half22float2(*reinterpret_cast<__half2 const*>(&bits));
}

__device__ __forceinline__ std::uint32_t pack_word(float2 v) {
  __half2 const h = __float22half2_rn(v);
  return *reinterpret_cast<std::uint32_t const*>(&h);
}

/// `ptr` as the compiler cannot see through: the tile bases are formed once in registers, so
/// that each access costs a 32-bit offset and one wide multiply-add. Seen through, src +
/// in_base + offset was re-associated into a 64-bit add of in_base and the offset, a shift and
/// a reload of src per access (about 6 instructions per element instead of 2). The assumption
/// keeps the accesses in the global space (LDG/STG, not generic LD/ST).
template <typename T>
__device__ __forceinline__ T* opaque(T* ptr) {
  asm("" : "+l"(ptr));
  __builtin_assume(__isGlobal(ptr));
  return ptr;
}

}  // namespace fftcore::detail::tc
