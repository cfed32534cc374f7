// SPDX-License-Identifier: MIT
// Small helpers shared by the processing stages (private to stages/src): stage names, shape
// strings for messages and numpy's normalisation factors.
#pragma once

#include <tcfft/core/error.hpp>
#include <tcfft/core/frame.hpp>
#include <tcfft/stages/fft_engine.hpp>
#include <tcfft/stages/params.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::stages::detail {

/// "stages[2] (filter)".
inline std::string stage_name(int index, char const* kind) {
  return "stages[" + std::to_string(index) + "] (" + kind + ")";
}

/// "[4096]" or "[64, 128]".
inline std::string shape_string(std::vector<std::int64_t> const& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

/// Factor applied to an unnormalised transform of n points, as numpy.fft defines `norm`.
inline double norm_factor(Norm norm, std::int64_t n, bool forward) {
  auto const dn = static_cast<double>(n);
  switch (norm) {
    case Norm::kBackward: return forward ? 1.0 : 1.0 / dn;
    case Norm::kOrtho: return 1.0 / std::sqrt(dn);
    case Norm::kForward: return forward ? 1.0 / dn : 1.0;
  }
  return 1.0;
}

/// Sizes `out` for `rows` items of `spec` and copies the frame bookkeeping from `in`.
inline void prepare_output(Frame const& in, FrameSpec const& spec, Frame& out) {
  out.index = in.index;
  out.first_row = in.first_row;
  out.resize_for(spec, in.rows);
}

/// make_fft_engine for `rows_per_frame` frames of `rows_per_item` engine rows each, with the
/// stage's name in front of an FftError (e.g. an FP16 size the backend cannot do).
inline std::unique_ptr<FftEngine> make_stage_engine(std::string const& stage,
                                                    FftEngineParams const& params,
                                                    std::vector<std::int64_t> const& shape,
                                                    std::int64_t rows_per_frame,
                                                    std::int64_t rows_per_item) {
  try {
    return make_fft_engine(params, shape, std::max<std::int64_t>(rows_per_frame, 1) * rows_per_item);
  } catch (FftError const& e) {
    throw FftError(stage + ": " + e.what());
  }
}

}  // namespace tcfft::stages::detail
