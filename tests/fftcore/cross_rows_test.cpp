// SPDX-License-Identifier: MIT
// The 2-D cross-row stage's plans on the CPU (cross_rows_layout.hpp): which plans it takes, and
// its two passes emulated in double through the same PassParams the kernels get (the row pass's
// split input digit and the stage's formula; the column pass's digits, strides and items, read
// with block_origin as the tall pass reads them) against the 2-D DFT of a fresh random image.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "../../fftcore/src/tc/cross_rows_layout.hpp"
#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/tall_pass_layout.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace cr = fftcore::detail::tc::cross_rows;
using fftcore::detail::tc::PassParams;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::layout_of;

TEST(CrossRows, TakesTheTwoPassesOf2048x2048ImagesOnly) {
  for (std::int64_t const batch : {1, 2, 5}) {
    auto const layout = layout_of(desc(2048, 2048, batch));
    ASSERT_EQ(layout.passes.size(), 2u);
    PassParams const& rows = layout.passes[0];
    PassParams const& cols = layout.passes[1];
    EXPECT_TRUE(cr::eligible(rows, cols)) << batch << " images";
    PassParams const r = cr::row_pass(rows, cols);
    PassParams const c = cr::column_pass(cols);
    // The row pass: H sequences an image in tiles of whole rounds of four, images as digit 1;
    // the column pass: a pass the tall pass takes (512 rows, whole items), every image.
    EXPECT_EQ(r.extent[0], 2048);
    EXPECT_EQ(r.extent[1], batch);
    EXPECT_EQ(r.blocks, r.tiles0 * batch);
    EXPECT_EQ(r.cross_stride, 512 * 2048);
    EXPECT_EQ(c.log_length, 9);
    EXPECT_TRUE(fftcore::detail::tc::tall_pass::eligible(c)) << batch << " images";
    EXPECT_EQ(c.blocks, c.tiles0 * 4 * batch);
  }
  for (auto const& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{1024, 1024},
                                   {4096, 4096},
                                   {2048, 1024},
                                   {1024, 2048},
                                   {4096, 2048},
                                   {2048, 4096}}) {
    auto const layout = layout_of(desc(rows, cols, 2));
    ASSERT_EQ(layout.passes.size(), 2u);
    EXPECT_FALSE(cr::eligible(layout.passes[0], layout.passes[1])) << rows << "x" << cols;
  }
}

TEST(CrossRows, ScalesSplitBetweenTheStageAndTheColumnPass) {
  // 1 / H: 1 / 4 and 1 / 512; 1 / sqrt(H): 1 / 2 and 1 / sqrt(512); none: 1 and 1.
  for (auto const& [scale, cross, column] :
       {std::tuple<double, double, double>{1.0 / 2048, 0.25, 1.0 / 512},
        {1.0 / std::sqrt(2048.0), 0.5, 1.0 / std::sqrt(512.0)},
        {1.0, 1.0, 1.0}}) {
    PassParams cols = layout_of(desc(2048, 2048, 1)).passes[1];
    cols.scale = static_cast<float>(scale);
    EXPECT_NEAR(cr::cross_scale(cols.scale), cross, 1e-7 * cross);
    EXPECT_NEAR(cr::column_pass(cols).scale, column, 1e-7 * column);
  }
}

TEST(CrossRows, EmulatedPassesGiveThe2dDft) {
  constexpr std::int64_t kW = 2048;
  constexpr std::int64_t kH = 2048;
  constexpr std::int64_t kImages = 2;
  auto const layout = layout_of(desc(kH, kW, kImages));
  ASSERT_EQ(layout.passes.size(), 2u);
  ASSERT_TRUE(cr::eligible(layout.passes[0], layout.passes[1]));
  PassParams const r = cr::row_pass(layout.passes[0], layout.passes[1]);
  PassParams const c = cr::column_pass(layout.passes[1]);
  unsigned seed = 0;
  std::vector<cd> const x = tcfft::testing::random_complex(kImages * kH * kW, seed);
  SCOPED_TRACE(testing::Message() << "seed " << seed);

  // The row pass as the kernel runs it: the tile's sequences d0 = 4 m + g read at
  // d0 / 4 * (4 in_stride[0]) + g cross_stride past the image (in_stride[1]); the four FFTs
  // combined into output sequence 4 m + k1 (out_stride[0] apart).
  std::vector<cd> y(x.size(), cd{0.0, 0.0});
  std::vector<int> writes(x.size(), 0);
  for (std::int64_t image = 0; image < kImages; ++image) {
    for (std::int64_t m = 0; m < kH / 4; ++m) {
      std::vector<std::vector<cd>> row(4);
      for (int g = 0; g < 4; ++g) {
        std::int64_t const d0 = 4 * m + g;
        std::int64_t const at =
            image * r.in_stride[1] + (d0 >> 2) * (r.in_stride[0] << 2) + g * r.cross_stride;
        row[g].assign(x.begin() + at, x.begin() + at + kW);
        tcfft::testing::fft_radix2(row[g]);
      }
      for (int k1 = 0; k1 < 4; ++k1) {
        cd const tw = tcfft::testing::root_of_unity(static_cast<double>((m * k1) % kH),
                                                    static_cast<double>(kH), false);
        std::int64_t const out = image * r.out_stride[1] + (4 * m + k1) * r.out_stride[0];
        for (std::int64_t col = 0; col < kW; ++col) {
          cd sum{0.0, 0.0};
          for (int g = 0; g < 4; ++g) {
            sum += row[g][col] * tcfft::testing::root_of_unity(g * k1, 4.0, false);
          }
          y[out + col] = sum * tw;
          ++writes[out + col];
        }
      }
    }
  }
  for (int const n : writes) ASSERT_EQ(n, 1);

  // The column pass in place, item by item as block_origin gives them: sequence d0 of a tile
  // at origin + i in_stride[0], points in_elem_stride apart, outputs out_elem_stride apart.
  std::int64_t const length = std::int64_t{1} << c.log_length;
  std::vector<int> column_writes(x.size(), 0);
  std::vector<cd> z = y;
  for (std::int64_t b = 0; b < c.blocks; ++b) {
    auto const o = fftcore::detail::tc::block_origin(c, b);
    for (std::int64_t i = 0; i < (std::int64_t{1} << c.log_tile); ++i) {
      std::vector<cd> seq(static_cast<std::size_t>(length));
      for (std::int64_t n = 0; n < length; ++n) {
        seq[n] = y[o.in_base + i * c.in_stride[0] + n * c.in_elem_stride];
      }
      tcfft::testing::fft_radix2(seq);
      for (std::int64_t k = 0; k < length; ++k) {
        std::int64_t const at = o.out_base + i * c.out_stride[0] + k * c.out_elem_stride;
        z[at] = seq[k];
        ++column_writes[at];
      }
    }
  }
  for (int const n : column_writes) ASSERT_EQ(n, 1);

  // The reference: each image's row FFTs, then its column FFTs.
  std::vector<cd> want = x;
  for (std::int64_t image = 0; image < kImages; ++image) {
    cd* const im = want.data() + image * kH * kW;
    for (std::int64_t row = 0; row < kH; ++row) {
      std::vector<cd> v(im + row * kW, im + (row + 1) * kW);
      tcfft::testing::fft_radix2(v);
      std::copy(v.begin(), v.end(), im + row * kW);
    }
    for (std::int64_t col = 0; col < kW; ++col) {
      std::vector<cd> v(static_cast<std::size_t>(kH));
      for (std::int64_t row = 0; row < kH; ++row) v[row] = im[row * kW + col];
      tcfft::testing::fft_radix2(v);
      for (std::int64_t row = 0; row < kH; ++row) im[row * kW + col] = v[row];
    }
  }
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    num = std::max(num, std::abs(z[i] - want[i]));
    den = std::max(den, std::abs(want[i]));
  }
  ASSERT_GT(den, 1.0);  // not an all-zero result
  EXPECT_LT(num / den, 1e-12);
}

}  // namespace
