// SPDX-License-Identifier: MIT
// Element-wise scaling of interleaved complex (and real) arrays on a stream, used by the cuFFT backend for
// its scaling policy (cuFFT itself never scales). Host-compilable declaration; kernel in scale.cu.
#pragma once

#include <fftcore/fftcore.hpp>

#include <cstddef>

namespace fftcore::detail {

/// Enqueues out[i] = factor * in[i] for `count` complex elements of `precision` (`__half2` or
/// `float2`), computed in FP32 so that factors below FP16's range (1/2^27) stay exact.
/// `in == out` is allowed. Returns the launch error (cudaSuccess when count is 0); never
/// synchronises, so it may be captured in a CUDA graph.
[[nodiscard]] cudaError_t launch_complex_scale(Precision precision, void const* in, void* out,
                                               std::size_t count, float factor,
                                               cudaStream_t stream) noexcept;

/// The same for `count` real elements (`__half` or `float`), for the real-input transforms.
[[nodiscard]] cudaError_t launch_real_scale(Precision precision, void const* in, void* out,
                                            std::size_t count, float factor,
                                            cudaStream_t stream) noexcept;

}  // namespace fftcore::detail
