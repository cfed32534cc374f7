// SPDX-License-Identifier: MIT
// The twiddle tables of a Tensor Core plan, computed in double on the host and rounded once to
// FP32: coarse[i] = W_{2^14}^i and fine[i] = W_{2^28}^i for i < 2^14, W_M = exp(-2 pi i / M).
// Any W_M^e with M | 2^28 is coarse[E >> 14] * fine[E & (2^14 - 1)], E = e 2^28 / M.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

namespace fftcore::detail::tc {

/// Entries of each table.
inline constexpr int kTwiddleTableSize = 1 << 14;

[[nodiscard]] std::vector<float2> make_coarse_twiddles();
[[nodiscard]] std::vector<float2> make_fine_twiddles();

}  // namespace fftcore::detail::tc
