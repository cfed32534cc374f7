// SPDX-License-Identifier: MIT
// The one Tensor Core instruction the backend uses: mma.sync.aligned.m16n8k16 with FP16
// operands and FP32 accumulators (sm_80 and newer), and the register layout of its fragments
// as the PTX ISA defines it (lane = 4 * group + thread_in_group):
//   A (16x16, row):  reg r holds A[row][col], A[row][col + 1] with
//                    row = group + 8 * (r & 1), col = 2 * thread_in_group + 8 * (r >> 1)
//   B (16x8, col):   reg r holds B[k][group], B[k + 1][group], k = 2 * thread_in_group + 8 r
//   C, D (16x8):     float i holds D[group + 8 * (i >> 1)][2 * thread_in_group + (i & 1)]
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

namespace fftcore::detail::tc {

/// d += a * b for one 16x16 by 16x8 tile (warp-wide; every lane passes its fragments).
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], std::uint32_t const (&a)[4],
                                            std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap();  // the host refuses devices older than sm_80 (kArchMismatch)
#endif
}

/// d = a * b for one tile: the accumulators start from zero (an immediate operand, so no
/// registers are cleared first); the same sums as zeroing d and calling mma_16x8x16.
__device__ __forceinline__ void mma_16x8x16_first(float (&d)[4], std::uint32_t const (&a)[4],
                                                  std::uint32_t b0, std::uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %10, %10, %10};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(0.0f));
#else
  __trap();
#endif
}

/// Packs two halves into one operand register, `low` in the lower 16 bits.
__device__ __forceinline__ std::uint32_t pack_halves(__half low, __half high) {
  return static_cast<std::uint32_t>(__half_as_ushort(low)) |
         (static_cast<std::uint32_t>(__half_as_ushort(high)) << 16);
}

/// Flips the sign of both halves of an operand register.
__device__ __forceinline__ std::uint32_t negate_halves(std::uint32_t v) { return v ^ 0x80008000u; }

/// x = hi + lo with hi, lo FP16: together they carry about 22 significant bits of x when
/// |x| is well inside the FP16 range (the kernel scales blocks so that it is).
struct HalfSplit {
  __half hi;
  __half lo;
};
__device__ __forceinline__ HalfSplit split_half(float x) {
  __half const hi = __float2half_rn(x);
  return {hi, __float2half_rn(x - __half2float(hi))};
}

}  // namespace fftcore::detail::tc
