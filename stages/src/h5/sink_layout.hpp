// SPDX-License-Identifier: MIT
// Shape and chunking of an output dataset. Frames are stored as [total_rows, ...item shape],
// except 1-D items cut from a source series, which are stored as the series itself: one 1-D
// dataset with the items concatenated and the zero padding of the final item trimmed (for a
// single item, also for frequency-domain data: a lone spectrum is stored as [n]). Time-domain
// overlap-save items (FrameSpec::context > 0) contribute their cores only, so the stored
// series has series_length samples.
#pragma once

#include <tcfft/core/frame.hpp>

#include <hdf5.h>

#include <cstdint>
#include <vector>

namespace tcfft::h5 {

struct SinkLayout {
  bool series = false;         ///< stored 1-D, items concatenated and trimmed
  std::int64_t context = 0;    ///< series: samples dropped at both ends of each item
  std::int64_t length = 0;     ///< series: samples stored
  std::vector<hsize_t> dims;   ///< dataset shape
  std::vector<hsize_t> chunk;  ///< chunk shape (every extent >= 1, <= the dataset's)
};

/// The layout of a dataset receiving frames of `spec`, with `element_bytes` per stored sample.
/// Chunks hold about 1 MiB or one frame, whichever is smaller.
[[nodiscard]] SinkLayout make_sink_layout(FrameSpec const& spec, std::size_t element_bytes);

/// The part of the frame with rows [first_row, first_row + rows) that lands in the dataset:
/// file start/count and the number of leading buffer samples it takes.
struct SinkSlab {
  std::vector<hsize_t> start;
  std::vector<hsize_t> count;
  std::int64_t samples = 0;  ///< 0: nothing to write (only padding)
};

[[nodiscard]] SinkSlab sink_slab(SinkLayout const& layout, FrameSpec const& spec,
                                 std::int64_t first_row, std::int64_t rows);

/// The first `samples` stored samples of a frame of `item_length` items: `data` itself, or for
/// a series with context, the items' cores (context dropped at both ends) gathered in `scratch`.
template <typename T>
[[nodiscard]] T const* series_cores(SinkLayout const& layout, std::int64_t item_length,
                                    T const* data, std::int64_t samples, std::vector<T>& scratch) {
  if (!layout.series || layout.context == 0) return data;
  scratch.resize(static_cast<std::size_t>(samples));
  for (std::int64_t i = 0; i < samples; ++i) {
    scratch[static_cast<std::size_t>(i)] = data[core_sample_index(i, item_length, layout.context)];
  }
  return scratch.data();
}

}  // namespace tcfft::h5
