// SPDX-License-Identifier: MIT
// Item layout of the HDF5 source: validation, hyperslab blocks and coordinates.
#include "h5/source_layout.hpp"

#include <tcfft/core/error.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tcfft::h5 {
namespace {

using I64 = std::int64_t;

ItemKind parse_items(std::string const& items, std::size_t rank, std::string const& where) {
  if (items == "series") return ItemKind::kSeries;
  if (items == "rows") return ItemKind::kRows;
  if (items == "images") return ItemKind::kImages;
  if (items != "auto") {
    throw ConfigError("input.items '" + items + "' is not one of auto, series, rows, images (" +
                      where + ")");
  }
  return rank == 1 ? ItemKind::kSeries : rank == 2 ? ItemKind::kRows : ItemKind::kImages;
}

}  // namespace

char const* to_string(ItemKind kind) noexcept {
  switch (kind) {
    case ItemKind::kSeries: return "series";
    case ItemKind::kRows: return "rows";
    case ItemKind::kImages: return "images";
  }
  return "?";
}

std::string format_shape(std::vector<hsize_t> const& dims) {
  std::string text = "[";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    text += (d ? ", " : "") + std::to_string(dims[d]);
  }
  return text + "]";
}

SourceLayout make_layout(std::vector<hsize_t> const& dims, std::string const& items, I64 segment,
                         std::string const& where, I64 overlap) {
  auto const rank = dims.size();
  if (rank == 0) {
    throw InputError(where +
                     ": dataset is a scalar (rank 0); need a 1-D series, 2-D rows or a "
                     "3-D image stack");
  }
  if (rank > 3) {
    throw InputError(where + ": dataset has rank " + std::to_string(rank) + " " +
                     format_shape(dims) +
                     "; supported are rank 1 (series), 2 (rows) and 3 "
                     "(images or rows)");
  }
  if (std::any_of(dims.begin(), dims.end(), [](hsize_t d) { return d == 0; })) {
    throw InputError(where + ": dataset is empty (shape " + format_shape(dims) + ")");
  }
  if (segment < 0) {
    throw ConfigError("input.segment " + std::to_string(segment) + " is negative (" + where + ")");
  }
  SourceLayout layout;
  layout.kind = parse_items(items, rank, where);
  layout.dims = dims;
  auto const last = static_cast<I64>(dims.back());
  if (segment > 0 && layout.kind != ItemKind::kSeries) {
    throw ConfigError("input.segment " + std::to_string(segment) +
                      " applies to series items "
                      "only; " +
                      where + " " + format_shape(dims) + " is read as " + to_string(layout.kind));
  }
  if (overlap < 0) {
    throw ConfigError("input.overlap " + std::to_string(overlap) + " is negative (" + where + ")");
  }
  if (overlap > 0 && layout.kind != ItemKind::kSeries) {
    throw ConfigError("input.overlap " + std::to_string(overlap) +
                      " applies to series items only; " + where + " " + format_shape(dims) +
                      " is read as " + to_string(layout.kind));
  }
  switch (layout.kind) {
    case ItemKind::kSeries: {
      if (rank != 1) {
        throw InputError(where + ": items 'series' need a 1-D dataset, this one has shape " +
                         format_shape(dims) + " (use items: rows)");
      }
      if (segment > last) {
        throw InputError(where + ": input.segment " + std::to_string(segment) +
                         " is longer than the series (" + std::to_string(last) + " samples)");
      }
      layout.segment = segment > 0 ? segment : last;
      layout.context = overlap;
      layout.item_length = layout.segment + 2 * overlap;
      layout.total_rows = (last + layout.segment - 1) / layout.segment;
      layout.valid_length = last - (layout.total_rows - 1) * layout.segment;
      layout.item_shape = {layout.item_length};
      break;
    }
    case ItemKind::kRows:
      layout.item_length = last;
      layout.total_rows = 1;
      for (std::size_t d = 0; d + 1 < rank; ++d) layout.total_rows *= static_cast<I64>(dims[d]);
      layout.valid_length = last;
      layout.item_shape = {last};
      break;
    case ItemKind::kImages: {
      if (rank == 1) {
        throw InputError(where +
                         ": items 'images' need a 2-D or 3-D dataset, this one has "
                         "shape " +
                         format_shape(dims));
      }
      auto const ny = static_cast<I64>(dims[rank - 2]);
      layout.item_shape = {ny, last};
      layout.item_length = ny * last;
      layout.total_rows = rank == 3 ? static_cast<I64>(dims[0]) : 1;
      layout.valid_length = last;
      break;
    }
  }
  return layout;
}

std::vector<Block> blocks_for(SourceLayout const& layout, I64 first_row, I64 rows) {
  auto const rank = layout.dims.size();
  auto const n = static_cast<hsize_t>(layout.item_length);
  auto const first = static_cast<hsize_t>(first_row);
  auto const count = static_cast<hsize_t>(rows);
  std::vector<Block> blocks;
  if (layout.kind == ItemKind::kSeries && layout.context > 0) {
    I64 const length = static_cast<I64>(layout.dims[0]);
    for (I64 r = 0; r < rows; ++r) {
      I64 const item_start = (first_row + r) * layout.segment - layout.context;
      I64 const begin = std::max<I64>(item_start, 0);
      I64 const end = std::min(item_start + layout.item_length, length);
      if (end <= begin) continue;
      blocks.push_back({{static_cast<hsize_t>(begin)},
                        {static_cast<hsize_t>(end - begin)},
                        r * layout.item_length + (begin - item_start),
                        end - begin});
    }
  } else if (layout.kind == ItemKind::kSeries) {
    auto const end = std::min<hsize_t>(layout.dims[0], (first + count) * n);
    auto const begin = first * n;
    blocks.push_back({{begin}, {end - begin}, 0, static_cast<I64>(end - begin)});
  } else if (rank == 1 || (rank == 2 && layout.kind == ItemKind::kImages)) {
    blocks.push_back({std::vector<hsize_t>(rank, 0), layout.dims, 0, layout.item_length});
  } else if (rank == 2 || layout.kind == ItemKind::kImages) {
    std::vector<hsize_t> start(rank, 0);
    auto extent = layout.dims;
    start[0] = first;
    extent[0] = count;
    blocks.push_back({start, extent, 0, rows * layout.item_length});
  } else {
    // rows of a 3-D dataset [a, b, n]: items are (a, b) pairs; a frame may start and end
    // inside an `a` plane, so it is read as up to three blocks (head, whole planes, tail).
    auto const planes = layout.dims[1];
    hsize_t item = first;
    while (item < first + count) {
      hsize_t const a = item / planes;
      hsize_t const b = item % planes;
      hsize_t const left = first + count - item;
      Block block;
      if (b == 0 && left >= planes) {
        hsize_t const whole = left / planes;
        block.start = {a, 0, 0};
        block.count = {whole, planes, n};
      } else {
        block.start = {a, b, 0};
        block.count = {1, std::min(planes - b, left), n};
      }
      block.offset = static_cast<I64>((item - first) * n);
      block.samples = static_cast<I64>(block.count[0] * block.count[1] * n);
      item += block.count[0] * block.count[1];
      blocks.push_back(std::move(block));
    }
  }
  return blocks;
}

std::string coordinates(SourceLayout const& layout, I64 first_row, I64 index) {
  if (layout.kind == ItemKind::kSeries && layout.context > 0) {
    I64 const item = first_row + index / layout.item_length;
    I64 const sample = item * layout.segment - layout.context + index % layout.item_length;
    return format_shape({static_cast<hsize_t>(sample)});
  }
  auto flat = static_cast<hsize_t>(first_row * layout.item_length + index);
  std::vector<hsize_t> coords(layout.dims.size());
  for (std::size_t d = layout.dims.size(); d-- > 0;) {
    coords[d] = flat % layout.dims[d];
    flat /= layout.dims[d];
  }
  return format_shape(coords);
}

}  // namespace tcfft::h5
