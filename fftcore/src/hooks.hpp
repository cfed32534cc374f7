// SPDX-License-Identifier: MIT
// The unfused form of ExecuteHooks (for backends that cannot apply them inside the transform):
// one element-wise complex multiply per hook. Host-compilable declaration; kernel in hooks.cu.
#pragma once

#include <fftcore/fftcore.hpp>

#include <cstddef>

namespace fftcore::detail {

/// Enqueues out[i] = in[i] * f[i mod n] (conj(f[...]) with `conjugate`) for `count` complex
/// elements of `precision`, computed in FP32; n is a power of two or any positive count
/// (`count` is a multiple of it). `in == out` is allowed; never synchronises.
[[nodiscard]] cudaError_t launch_multiply(Precision precision, void const* in, void* out,
                                          std::size_t count, float2 const* factors,
                                          std::size_t n, bool conjugate,
                                          cudaStream_t stream) noexcept;

}  // namespace fftcore::detail
