// SPDX-License-Identifier: MIT
// How a dataset of the source is cut into items and frames: the item kind chosen from
// `input.items` and the rank, the item shape, and the hyperslab blocks that make up the items
// [first_row, first_row + rows). Items always enumerate the dataset in row-major order, so
// item j of a rows/images layout holds flat elements [j * item_size, (j + 1) * item_size).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tcfft::h5 {

enum class ItemKind { kSeries, kRows, kImages };

[[nodiscard]] char const* to_string(ItemKind kind) noexcept;

struct SourceLayout {
  ItemKind kind = ItemKind::kSeries;
  std::vector<hsize_t> dims;             ///< dataset shape
  std::vector<std::int64_t> item_shape;  ///< {n} or {ny, nx}
  std::int64_t item_length = 0;          ///< samples per item (segment + 2 context for series)
  std::int64_t segment = 0;              ///< series: samples of the series per item (the core)
  std::int64_t context = 0;              ///< series: overlap-save context on each side
  std::int64_t total_rows = 0;           ///< items in the dataset
  std::int64_t valid_length = 0;         ///< samples of real data in the final item
};

/// One hyperslab of the dataset, read into the frame buffer at `offset` (in samples).
struct Block {
  std::vector<hsize_t> start;
  std::vector<hsize_t> count;
  std::int64_t offset = 0;
  std::int64_t samples = 0;
};

/// Chooses the layout. `where` ("file.h5:/data") prefixes messages. Throws ConfigError for a
/// bad `items` word, a negative segment or overlap, or an overlap on non-series items;
/// InputError for a rank or segment the dataset cannot satisfy and for an empty dataset.
/// Series items with overlap (context) c: item k covers series samples
/// [k*segment - c, (k+1)*segment + c) (see FrameSpec::context).
[[nodiscard]] SourceLayout make_layout(std::vector<hsize_t> const& dims, std::string const& items,
                                       std::int64_t segment, std::string const& where,
                                       std::int64_t overlap = 0);

/// The hyperslabs holding items [first_row, first_row + rows), in buffer order. Series items
/// with context: one block per item, holding only the part inside the series; the buffer
/// samples no block covers (before the series start, after its end) must be zeroed by the
/// caller.
[[nodiscard]] std::vector<Block> blocks_for(SourceLayout const& layout, std::int64_t first_row,
                                            std::int64_t rows);

/// Dataset coordinates of sample `index` of the frame starting at `first_row`, as "[i, j]".
[[nodiscard]] std::string coordinates(SourceLayout const& layout, std::int64_t first_row,
                                      std::int64_t index);

/// "[181, 2, 640]".
[[nodiscard]] std::string format_shape(std::vector<hsize_t> const& dims);

}  // namespace tcfft::h5
