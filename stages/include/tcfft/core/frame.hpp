// SPDX-License-Identifier: MIT
// What flows between stages. A run is a sequence of frames; a frame holds `rows` items
// ("rows": segments of a 1-D series, rows of a 2-D dataset, or images of a stack) of one shape.
// FrameSpec describes the items (fixed for the whole run); Frame holds the samples of one frame
// on the host, in double precision (real or complex).
//
// Glossary:
//   item shape   {n} for 1-D items, {ny, nx} for 2-D items (nx contiguous).
//   time_length  the length of the time-domain item along the last axis; a one-sided spectrum
//                of a real item holds time_length/2 + 1 bins there.
//   valid_length samples of the final item of the run that are real data (the source pads a
//                short final segment of a 1-D series with zeros up to the item length); with
//                context > 0, samples of the final item's core (see context) that are data.
//   context      overlap-save context of 1-D series items (input.overlap), 0 otherwise: item k
//                covers series samples [k*segment - context, (k+1)*segment + context), zeros
//                outside the series, so items are segment + 2*context long (time_length in the
//                frequency domain) and consecutive items share 2*context samples. The core of
//                an item, samples [context, context + segment), is its own share of the series;
//                the sink joining a time-domain series keeps only the cores. Stages that do not
//                care pass it through unchanged.
#pragma once

#include <tcfft/core/host_device.hpp>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace tcfft {

enum class SampleType { kReal, kComplex };
enum class Domain { kTime, kFrequency };

[[nodiscard]] inline char const* to_string(SampleType t) noexcept {
  return t == SampleType::kReal ? "real" : "complex";
}
[[nodiscard]] inline char const* to_string(Domain d) noexcept {
  return d == Domain::kTime ? "time" : "frequency";
}

struct FrameSpec {
  SampleType type = SampleType::kReal;
  Domain domain = Domain::kTime;
  std::vector<std::int64_t> shape;     ///< item shape: {n} or {ny, nx}
  std::int64_t rows_per_frame = 1;     ///< items in every frame but possibly the last
  std::int64_t total_rows = 0;         ///< items in the whole run
  double sample_rate = 1.0;            ///< samples per unit along the last axis (Hz for series)
  std::string units = "";              ///< physical unit of the samples ("strain", "counts", "")
  std::int64_t time_length = 0;        ///< time-domain length of the last axis (see glossary)
  std::int64_t time_rows = 0;          ///< time-domain length of the first axis of 2-D items
  bool onesided = false;               ///< frequency items hold the non-negative half only
  std::int64_t valid_length = 0;       ///< see glossary; equals shape.back() when nothing is padded
  std::int64_t series_length = 0;      ///< 1-D series: samples in the source dataset, else 0
  std::int64_t context = 0;            ///< see glossary; 1-D series items only

  [[nodiscard]] std::int64_t item_size() const noexcept {
    std::int64_t size = 1;
    for (auto extent : shape) size *= extent;
    return size;
  }
  [[nodiscard]] std::int64_t frames() const noexcept {
    return rows_per_frame > 0 ? (total_rows + rows_per_frame - 1) / rows_per_frame : 0;
  }
  /// Samples of an item along the last axis that are its own share of the series (see
  /// glossary): the time-domain length minus the context at both ends.
  [[nodiscard]] std::int64_t core_length() const noexcept {
    return (domain == Domain::kTime && !shape.empty() ? shape.back() : time_length) - 2 * context;
  }
  /// Samples a sink drops at both ends of each item when it joins the items into the stored
  /// series: `context` for time-domain items of a 1-D series, else 0 (frequency items and
  /// rows / images are stored whole).
  [[nodiscard]] std::int64_t stored_context() const noexcept {
    bool const series_items = shape.size() == 1 && series_length > 0;
    return domain == Domain::kTime && series_items ? context : 0;
  }
};

/// Where sample `i` of the joined cores of consecutive items lies in a buffer of those items
/// (overlap-save, see the glossary): items of `item_length` samples whose first and last
/// `context` samples are dropped, so core sample i is item i / core, position
/// context + i % core (core = item_length - 2 context). `context` 0 gives i. The host sink
/// calls it; the GPU sink kernel walks the same places line by line (chain_kernels.cu).
[[nodiscard]] TCFFT_HD inline std::int64_t core_sample_index(std::int64_t i,
                                                             std::int64_t item_length,
                                                             std::int64_t context) noexcept {
  std::int64_t const core = item_length - 2 * context;
  return (i / core) * item_length + context + i % core;
}

struct Frame {
  std::int64_t index = 0;      ///< frame number in the run, from 0
  std::int64_t first_row = 0;  ///< run-wide index of the first item
  std::int64_t rows = 0;       ///< items in this frame
  std::vector<double> real;                  ///< rows * item_size samples when type is real
  std::vector<std::complex<double>> complex; ///< rows * item_size samples when type is complex

  /// Sizes the buffer matching `spec.type` for `rows` items (keeps capacity; no shrink).
  void resize_for(FrameSpec const& spec, std::int64_t n_rows) {
    rows = n_rows;
    auto const count = static_cast<std::size_t>(n_rows * spec.item_size());
    if (spec.type == SampleType::kReal) {
      real.resize(count);
    } else {
      complex.resize(count);
    }
  }
};

}  // namespace tcfft
