// SPDX-License-Identifier: MIT
#include "tc/fast_constants.hpp"

#include "tc/twiddle_tables.hpp"

#include <cuda_fp16.h>

#include <cstring>

namespace fftcore::detail::tc {
namespace {

std::uint32_t bits_of(__half h) {
  unsigned short bits = 0;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

/// x = hi + lo, both FP16 (as the device's split_half).
void split(float x, std::uint32_t& hi, std::uint32_t& lo) {
  __half const h = __float2half_rn(x);
  hi = bits_of(h);
  lo = bits_of(__float2half_rn(x - __half2float(h)));
}

FastConstants make_set(std::vector<float2> const& coarse, bool inverse) {
  auto const w = [&](int exponent, int log_m) {  // W_M^exponent, M = 2^log_m <= 2^14
    float2 v = coarse[static_cast<std::size_t>((exponent & ((1 << log_m) - 1)) << (14 - log_m))];
    if (inverse) v.y = -v.y;
    return v;
  };
  FastConstants c{};
  for (int lane = 0; lane < 32; ++lane) {
    int const group = lane >> 2;
    int const quad = lane & 3;
    std::uint32_t part[4][4];  // [re_hi, re_lo, im_hi, im_lo][register]
    for (int r = 0; r < 4; ++r) {
      int const row = group + 8 * (r & 1);
      int const col = 2 * quad + 8 * (r >> 1);
      float2 const w0 = w(row * col, 4);
      float2 const w1 = w(row * (col + 1), 4);
      std::uint32_t rh0, rl0, rh1, rl1, ih0, il0, ih1, il1;
      split(w0.x, rh0, rl0);
      split(w1.x, rh1, rl1);
      split(w0.y, ih0, il0);
      split(w1.y, ih1, il1);
      part[0][r] = rh0 | rh1 << 16;
      part[1][r] = rl0 | rl1 << 16;
      part[2][r] = ih0 | ih1 << 16;
      part[3][r] = il0 | il1 << 16;
    }
    for (int k = 0; k < 4; ++k) {
      c.dft[k][lane] = make_uint4(part[k][0], part[k][1], part[k][2], part[k][3]);
      c.dft_b[k][lane] = make_uint4(part[k][0], part[k][2], part[k][1], part[k][3]);
    }
    for (int j = 0; j < 2; ++j) {
      for (int a = 0; a < 2; ++a) {
        int const k1 = group + 8 * a;
        int const n1 = 8 * j + 2 * quad;
        float2 const w0 = w(n1 * k1, 8);
        float2 const w1 = w((n1 + 1) * k1, 8);
        c.twiddle[2 * j + a][lane] = make_float4(w0.x, w0.y, w1.x, w1.y);
      }
    }
  }
  return c;
}

}  // namespace

std::vector<float2> make_fast_constants(std::vector<float2> const& coarse) {
  static_assert(sizeof(FastConstants) % sizeof(float2) == 0);
  static_assert(kFastConstantsOffset == kTwiddleTableSize, "the constants follow the coarse table");
  std::vector<float2> out(2 * static_cast<std::size_t>(kFastConstantsEntries));
  for (int d = 0; d < 2; ++d) {
    FastConstants const c = make_set(coarse, d == 1);
    std::memcpy(out.data() + d * kFastConstantsEntries, &c, sizeof c);
  }
  return out;
}

}  // namespace fftcore::detail::tc
