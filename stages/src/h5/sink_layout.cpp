// SPDX-License-Identifier: MIT
// Output dataset shapes, chunk shapes and per-frame hyperslabs.
#include "h5/sink_layout.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tcfft::h5 {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

/// Shrinks `chunk` from its first axis on until it holds at most `budget` elements.
void fit_chunk(std::vector<hsize_t>& chunk, hsize_t budget) {
  for (std::size_t d = 0; d < chunk.size(); ++d) {
    hsize_t rest = 1;
    for (std::size_t e = d + 1; e < chunk.size(); ++e) rest *= chunk[e];
    if (chunk[d] * rest <= budget) return;
    if (rest <= budget) {
      chunk[d] = std::max<hsize_t>(1, budget / rest);
      return;
    }
    chunk[d] = 1;
  }
}

}  // namespace

SinkLayout make_sink_layout(FrameSpec const& spec, std::size_t element_bytes) {
  SinkLayout layout;
  auto const n = spec.shape.empty() ? std::int64_t{0} : spec.shape.back();
  auto const rows = std::max<std::int64_t>(spec.total_rows, 1);
  auto const frame_rows = std::clamp<std::int64_t>(spec.rows_per_frame, 1, rows);
  hsize_t const budget =
      std::max<hsize_t>(1, kChunkBytes / std::max<std::size_t>(element_bytes, 1));
  bool const one_dim = spec.shape.size() == 1 && spec.series_length > 0;
  bool const time = spec.domain == Domain::kTime;
  layout.series = one_dim && (spec.total_rows == 1 || time);
  if (layout.series) {
    layout.context = spec.stored_context();
    auto const core = n - 2 * layout.context;
    auto const valid =
        spec.valid_length > 0 && spec.valid_length <= core ? spec.valid_length : core;
    layout.length = time ? (rows - 1) * core + valid : n;
    layout.dims = {static_cast<hsize_t>(layout.length)};
    auto const frame = static_cast<hsize_t>(frame_rows * core);
    layout.chunk = {std::max<hsize_t>(1, std::min({layout.dims[0], frame, budget}))};
    return layout;
  }
  layout.dims.push_back(static_cast<hsize_t>(rows));
  for (auto extent : spec.shape) layout.dims.push_back(static_cast<hsize_t>(extent));
  layout.chunk = layout.dims;
  layout.chunk[0] = static_cast<hsize_t>(frame_rows);
  fit_chunk(layout.chunk, budget);
  for (std::size_t d = 0; d < layout.chunk.size(); ++d) {
    layout.chunk[d] = std::clamp<hsize_t>(layout.chunk[d], 1, std::max<hsize_t>(layout.dims[d], 1));
  }
  return layout;
}

SinkSlab sink_slab(SinkLayout const& layout, FrameSpec const& spec, std::int64_t first_row,
                   std::int64_t rows) {
  SinkSlab slab;
  if (layout.series) {
    auto const n = spec.shape.back() - 2 * layout.context;
    auto const begin = std::min(first_row * n, layout.length);
    auto const end = std::min((first_row + rows) * n, layout.length);
    slab.start = {static_cast<hsize_t>(begin)};
    slab.count = {static_cast<hsize_t>(end - begin)};
    slab.samples = end - begin;
    return slab;
  }
  slab.start.assign(layout.dims.size(), 0);
  slab.count = layout.dims;
  slab.start[0] = static_cast<hsize_t>(first_row);
  slab.count[0] = static_cast<hsize_t>(rows);
  slab.samples = rows * spec.item_size();
  return slab;
}

}  // namespace tcfft::h5
