// SPDX-License-Identifier: MIT
// LineCursor: the line / position of the elements of a grid-stride loop, for the GPU chain's
// element-wise kernels (chain_kernels.cu); TCFFT_HD so the CPU tests check it against division.
#pragma once

#include <tcfft/core/host_device.hpp>

#include <cstdint>

namespace tcfft::gpu {

/// The place of element i = first, first + step, ... of a grid-stride loop over lines of `width`
/// elements: its line, its position x in the line and the line's row y in items of `ny` lines,
/// advanced without a division per element (64-bit divisions cost ~70 instructions each, more
/// than an element's arithmetic; step >= width or not, one carry at most per advance).
struct LineCursor {
  std::int64_t line = 0, x = 0, y = 0;
  std::int64_t dline = 0, dx = 0, dy = 0;
  std::int64_t width = 1, ny = 1;
  TCFFT_HD LineCursor(std::int64_t first, std::int64_t step, std::int64_t w, std::int64_t n)
      : line(first / w), x(first % w), y(line % n), dline(step / w), dx(step % w),
        dy(dline % n), width(w), ny(n) {}
  TCFFT_HD void advance() {
    line += dline;
    x += dx;
    y += dy;
    if (x >= width) {
      x -= width;
      ++line;
      ++y;
    }
    if (y >= ny) y -= ny;  // y < ny and dy + 1 <= ny before: y < 2 ny here
  }
};

}  // namespace tcfft::gpu
