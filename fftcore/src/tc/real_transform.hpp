// SPDX-License-Identifier: MIT
// Host entry points of the split kernels of the Tensor Core backend's real transforms
// (real_transform.cu; the math is in real_split.hpp). Callable from g++ code.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace fftcore::detail::tc {

/// One split launch over `rows` independent transforms of n = 2 M points, M = 2^log_m.
/// The complex side is either FP16 (`__half2`) or FP32 (`float2`), as the flags say.
struct SplitArgs {
  std::int64_t rows = 1;
  int log_m = 0;
  float factor = 1.0f;    ///< scale folded into the split (see real_layout.hpp)
  bool in_fp32 = false;   ///< source values are float2, else __half2
  bool out_fp32 = false;  ///< destination values are float2, else __half2
  /// FP16 on both sides and M >= 2^11 (the R2C: Z 16-byte aligned) run the staged kernels
  /// unless this is false or FFTCORE_TC_SPLIT_STAGED=0 (the plain ones, as the tests'
  /// comparison).
  bool staged = true;
  /// launch_small_real: the half spectrum's row pitch in words, 0 for M + 1 (1-D); M + 8 (Y's
  /// padded rows, RealLayout::y_pitch) at M = 64 and 128 only.
  std::int64_t pitch = 0;
};

/// R2C post-step: Z [rows][M] -> X [rows][M + 1]. No allocation, no synchronisation.
[[nodiscard]] cudaError_t launch_split_forward(SplitArgs const& args, void const* z, void* x,
                                               cudaStream_t stream) noexcept;

/// C2R pre-step: X [rows][M + 1] -> Z [rows][M].
[[nodiscard]] cudaError_t launch_split_inverse(SplitArgs const& args, void const* x, void* z,
                                               cudaStream_t stream) noexcept;

/// The fused real transforms of n = 2 M <= 512 points (RealLayout::small): R2C from the rows
/// of n FP16 reals in `in` to the rows of M + 1 half-spectrum values in `out`, or C2R back;
/// `args.factor` is the whole transform's scale (in_fp32 / out_fp32 unused: FP16 on both
/// sides). n <= 64 one thread per row (kernels/small_real_kernel.cu), n = 128, 256 and 512 on
/// launch_medium_real.
[[nodiscard]] cudaError_t launch_small_real(SplitArgs const& args, bool r2c, void const* in,
                                            void* out, cudaStream_t stream) noexcept;

/// The same for n = 128, 256 and 512 (log_m 6, 7, 8; 8 in 1-D only): a row on M / 16 lanes of a
/// warp (kernels/medium_real_kernel.cu, medium_real_layout.hpp).
[[nodiscard]] cudaError_t launch_medium_real(SplitArgs const& args, bool r2c, void const* in,
                                             void* out, cudaStream_t stream) noexcept;

}  // namespace fftcore::detail::tc
