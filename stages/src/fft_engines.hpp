// SPDX-License-Identifier: MIT
// The concrete FFT engines behind make_fft_engine (private to stages/src). Both take an item
// shape of rank 1 or 2 and the most items one call may pass; both throw FftError naming the
// shape when they cannot plan it.
#pragma once

#include <tcfft/stages/fft_engine.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::stages::detail {

/// FFTW in double precision; any extents (odd, prime), rank 1 or 2.
[[nodiscard]] std::unique_ptr<FftEngine> make_cpu_fft_engine(
    std::vector<std::int64_t> const& shape, std::int64_t max_rows);

/// fftcore on the current CUDA device; `params.backend` and `params.precision` select the plan.
[[nodiscard]] std::unique_ptr<FftEngine> make_gpu_fft_engine(
    FftEngineParams const& params, std::vector<std::int64_t> const& shape, std::int64_t max_rows);

/// Throws FftError unless `shape` has rank 1 or 2 with positive extents and max_rows > 0.
/// `who` names the engine in the message ("cpu FFT engine").
void check_engine_shape(std::vector<std::int64_t> const& shape, std::int64_t max_rows,
                        std::string const& who);

/// "4096" or "64x128", as FFT sizes are usually written in messages.
[[nodiscard]] std::string size_string(std::vector<std::int64_t> const& shape);

}  // namespace tcfft::stages::detail
