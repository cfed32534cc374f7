// SPDX-License-Identifier: MIT
// Fusion of a chain's gain op (a filter or window applied to the spectrum) into the transform
// before it (fftcore::ExecuteHooks::store_factors): the factors of one item are made on the
// device by the gain kernel itself, applied to ones, so the fused and unfused chains multiply
// by the same FP32 values and no gain formula is written twice. The same way, a gain kernel
// that stays its own step gets its parametric response as a table (make_gain_table).
#pragma once

#include <tcfft/core/cuda.hpp>

#include "gpu/chain_kernels.hpp"

#include <cstdint>

namespace tcfft::gpu::detail {

/// A device table of `item` float2 factors: gain(j) for j < item, as launch_gain would multiply
/// element j of an item by (its table pointer, if any, already set). Synchronises `stream`.
[[nodiscard]] DeviceBuffer make_gain_factors(GainArgs const& gain, std::int64_t item,
                                             cudaStream_t stream);

/// A device table of ny * pitch float gains of a parametric gain (GainMode::kParametric) on the
/// lines of `gain.view` (pitch nx/2 + 1 for a half spectrum), made by the gain kernel applied to
/// ones, so that every frame reads gains instead of evaluating the response in double per
/// element. Synchronises `stream`.
[[nodiscard]] DeviceBuffer make_gain_table(GainArgs const& gain, cudaStream_t stream);

}  // namespace tcfft::gpu::detail
