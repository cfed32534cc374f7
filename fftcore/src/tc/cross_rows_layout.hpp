// SPDX-License-Identifier: MIT
// The cross-row first stage of a 2-D transform's column FFT (kernels/group_pass_kernel.cu,
// kCross; the executor in tc_plan.cpp): for H x W images with W = 2048 (rows the group pass's
// doubled form takes four to a block round) and H = 2048, the column transform of H = 4 x 512
// points starts with its radix-4 stage inside the row pass, and a 512-row column pass finishes
// it. Why: the 2048-row column pass (items of 16 columns: 64-byte runs) took 1.12 ms per 2^28
// elements where the 512-row one (items of 32 columns) takes 0.90 (H100, fftcore/NOTES.md
// session 36: 512x2048 1.67 ms against 2048x2048 1.88); the stage costs the row pass about 0.11
// ms (1.78 ms in all, by difference).
//
// With n = m + 512 g (m < 512, g < 4) and k = k1 + 4 k2, the column DFT is
//   X[k1 + 4 k2] = sum_m W_512^(m k2) [ W_2048^(m k1) sum_g W_4^(g k1) x[m + 512 g] ].
// The row pass's block takes, in each round, rows m + 512 g of one image on its four groups (the
// tile's sequences d0 = 4 m + g: the loads' digit is split, rows W / 4 words per d0 and
// cross_stride = 512 W words per g), stages their FFTs in shared memory and writes
// y_k1[m] = W_2048^(m k1) sum_g W_4^(g k1) row(m + 512 g) to row 4 m + k1 (sequence d0 = 4 m + k1
// of the output: the natural order). The column pass then takes, for each k1, the 512 rows
// 4 j + k1 (element stride 4 W, in place: an item reads and writes the same rows).
// Out of place only (the row pass writes rows other blocks read); the executor runs the plan's
// own two passes for in-place transforms, with hooks, or where a launch cannot. On by default
// (runs_cross_rows; FFTCORE_TC_CROSS_ROWS=0 turns it off). H100 (NOTES.md sessions 36 and 37),
// 2048x2048 1.768-1.785 ms against 1.871-1.889 (4.06-4.07x cuFFT FP16), at 0.196-0.199x cuFFT
// FP16's error against 0.174-0.175x; memcheck and racecheck clean. At 1024 x 1024 the same stage
// with R = 2 (branch cross-rows-1024b) measured no gain (1.757-1.770 against 1.772-1.774 ms) at
// 0.28-0.29x cuFFT FP16's error against 0.178x, so it is not built here.
#pragma once

#include <cmath>
#include <cstdint>

#include "group_pass_layout.hpp"
#include "pass_params.hpp"

namespace fftcore::detail::tc::cross_rows {

inline constexpr int kLogWidth = 11;   ///< W = 2048 points a row
inline constexpr int kLogHeight = 11;  ///< H = 2048 rows
inline constexpr int kLogRadix = 2;    ///< the doubled form's four groups a block at 2048
inline constexpr int kLogSubLength = kLogHeight - kLogRadix;  ///< the column pass: 512 rows

/// Whether `rows` then `cols` (a plan's two passes) are the row and column passes of FP16
/// 2048 x 2048 images: `rows` a plain pass over every row from the input to the output, `cols`
/// a plain in-place column pass of the output (no twiddles, no hooks).
FFTCORE_HD inline bool eligible(PassParams const& rows, PassParams const& cols) {
  std::int64_t const w = std::int64_t{1} << kLogWidth;
  std::int64_t const h = std::int64_t{1} << kLogHeight;
  std::int64_t const images = cols.extent[1];
  bool const row_pass = rows.log_length == kLogWidth && group_pass::eligible(rows) &&
                        rows.in_stride[0] == w && rows.out_stride[0] == w &&
                        rows.extent[0] == h * images && rows.extent[1] == 1 &&
                        rows.extent[2] == 1 && rows.src == Buffer::kIn && rows.dst == Buffer::kOut;
  bool const column_pass =
      cols.log_length == kLogHeight && cols.in_fp32 == 0 && cols.out_fp32 == 0 &&
      cols.in_stride[0] == 1 && cols.out_stride[0] == 1 && cols.in_elem_stride == w &&
      cols.out_elem_stride == w && cols.extent[0] == w && cols.in_stride[1] == h * w &&
      cols.out_stride[1] == h * w && cols.extent[2] == 1 && cols.log_twiddle_n == 0 &&
      cols.load_factors == nullptr && cols.store_factors == nullptr && cols.real_in == 0 &&
      cols.real_out == 0 && cols.real_in_columns == 0 && cols.real_halves == 0 &&
      cols.src == Buffer::kOut && cols.dst == Buffer::kOut;
  return row_pass && column_pass && images >= 1;
}

/// The share of the column transform's scale s (1 / H, 1 / sqrt(H) or 1) that a part of 2^log_part
/// of its H points takes: s^(log_part / log H), so that the stage's (R) and the column pass's
/// (H / R) give s.
inline float scale_share(float column_scale, int log_part) {
  return static_cast<float>(
      std::pow(static_cast<double>(column_scale), static_cast<double>(log_part) / kLogHeight));
}
/// The cross stage's share.
inline float cross_scale(float column_scale) { return scale_share(column_scale, kLogRadix); }

/// The row pass with the cross stage, from the plan's row pass and column pass: digit 0 the
/// H sequences d0 = 4 m + g of an image (loads W / 4 words per d0 plus cross_stride per g,
/// stores W per d0), digit 1 the images.
inline PassParams row_pass(PassParams const& rows, PassParams const& cols) {
  std::int64_t const w = std::int64_t{1} << kLogWidth;
  std::int64_t const h = std::int64_t{1} << kLogHeight;
  PassParams r = rows;
  std::int64_t const images = cols.extent[1];
  r.extent[0] = h;
  r.extent[1] = images;
  r.extent[2] = 1;
  r.in_stride[0] = w >> kLogRadix;
  r.out_stride[0] = w;
  r.in_stride[1] = h * w;
  r.out_stride[1] = h * w;
  r.in_stride[2] = r.out_stride[2] = r.in_stride[3] = r.out_stride[3] = 0;
  r.cross_stride = (h >> kLogRadix) * w;
  r.cross_scale = cross_scale(cols.scale);
  r.tiles0 = (r.extent[0] + (std::int64_t{1} << r.log_tile) - 1) >> r.log_tile;
  r.blocks = r.tiles0 * images;
  set_origin_shortcuts(r);
  return r;
}

/// The column pass after the cross stage: for each image and k1 < 4, the 512 rows 4 j + k1
/// (element stride 4 W), columns as digit 0, k1 as digit 1 (W words), images as digit 2.
inline PassParams column_pass(PassParams const& cols) {
  std::int64_t const w = std::int64_t{1} << kLogWidth;
  std::int64_t const h = std::int64_t{1} << kLogHeight;
  PassParams c = cols;
  std::int64_t const images = cols.extent[1];
  c.log_length = kLogSubLength;
  c.in_elem_stride = c.out_elem_stride = w << kLogRadix;
  c.extent[0] = w;
  c.extent[1] = std::int64_t{1} << kLogRadix;
  c.extent[2] = images;
  c.in_stride[0] = c.out_stride[0] = 1;
  c.in_stride[1] = c.out_stride[1] = w;
  c.in_stride[2] = c.out_stride[2] = h * w;
  c.in_stride[3] = c.out_stride[3] = 0;
  c.scale = scale_share(cols.scale, kLogSubLength);
  c.tiles0 = (c.extent[0] + (std::int64_t{1} << c.log_tile) - 1) >> c.log_tile;
  c.blocks = c.tiles0 * c.extent[1] * images;
  set_origin_shortcuts(c);
  return c;
}

}  // namespace fftcore::detail::tc::cross_rows
