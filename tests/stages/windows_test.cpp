// SPDX-License-Identifier: MIT
// Windows against scipy.signal.get_window. The reference values were printed once with
//   python3 -c "from scipy.signal import get_window; print(list(get_window(SPEC, N)))"
// (scipy 1.17.1; get_window's default fftbins=True gives the periodic form) and, for the
// symmetric form, scipy.signal.windows.hann(7, sym=True) / tukey(9, 0.5, sym=True).
#include <tcfft/stages/windows.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tcfft::stages {
namespace {

constexpr double kTolerance = 1e-15;

void expect_window(std::vector<double> const& w, std::vector<double> const& ref) {
  ASSERT_EQ(w.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NEAR(w[i], ref[i], kTolerance) << "sample " << i;
  }
}

TEST(Windows, HannMatchesScipy) {
  expect_window(make_window(WindowKind::kHann, 8),
                {0, 0.14644660940672627, 0.5, 0.85355339059327373, 1, 0.85355339059327373, 0.5,
                 0.14644660940672627});
  expect_window(make_window(WindowKind::kHann, 7),
                {0, 0.18825509907063326, 0.61126046697815717, 0.95048443395120952,
                 0.95048443395120952, 0.61126046697815717, 0.18825509907063326});
}

TEST(Windows, HammingMatchesScipy) {
  expect_window(
      make_window(WindowKind::kHamming, 8),
      {0.080000000000000071, 0.21473088065418822, 0.54000000000000004, 0.86526911934581197, 1,
       0.86526911934581197, 0.54000000000000004, 0.21473088065418822});
  expect_window(
      make_window(WindowKind::kHamming, 7),
      {0.080000000000000071, 0.25319469114498266, 0.64235962961990467, 0.95444567923511281,
       0.95444567923511281, 0.64235962961990467, 0.25319469114498266});
}

TEST(Windows, BlackmanMatchesScipy) {
  expect_window(
      make_window(WindowKind::kBlackman, 8),
      {-1.3877787807814457e-17, 0.06644660940672624, 0.34000000000000002, 0.77355339059327377,
       0.99999999999999989, 0.77355339059327377, 0.34000000000000002, 0.06644660940672624});
  expect_window(
      make_window(WindowKind::kBlackman, 7),
      {-1.3877787807814457e-17, 0.090453424354128079, 0.45918295754596367, 0.92036361809990819,
       0.92036361809990819, 0.45918295754596367, 0.090453424354128079});
}

TEST(Windows, TukeyMatchesScipy) {
  expect_window(make_window(WindowKind::kTukey, 8, 0.5), {0, 0.5, 1, 1, 1, 1, 1, 0.5});
  expect_window(make_window(WindowKind::kTukey, 7, 0.5),
                {0, 0.61126046697815717, 1, 1, 1, 1, 0.61126046697815761});
  expect_window(make_window(WindowKind::kTukey, 8, 0.25), {0, 1, 1, 1, 1, 1, 1, 1});
  // alpha >= 1 is the Hann window, alpha <= 0 the boxcar (scipy's convention).
  expect_window(make_window(WindowKind::kTukey, 8, 1.0), make_window(WindowKind::kHann, 8));
  expect_window(make_window(WindowKind::kTukey, 8, 0.0), std::vector<double>(8, 1.0));
}

TEST(Windows, SymmetricFormMatchesScipy) {
  expect_window(make_window(WindowKind::kHann, 7, 0.5, false),
                {0, 0.24999999999999989, 0.75, 1, 0.75000000000000022, 0.25000000000000033, 0});
  expect_window(make_window(WindowKind::kTukey, 9, 0.5, false), {0, 0.5, 1, 1, 1, 1, 1, 0.5, 0});
}

TEST(Windows, BoxcarAndLengthOne) {
  expect_window(make_window(WindowKind::kBoxcar, 5), std::vector<double>(5, 1.0));
  expect_window(make_window(WindowKind::kHann, 1), {1.0});
}

// A periodic window of length n is symmetric about n/2: w[j] == w[n - j] for 0 < j < n; the
// symmetric form about (n-1)/2: w[j] == w[n - 1 - j].
TEST(Windows, Symmetry) {
  for (auto kind :
       {WindowKind::kHann, WindowKind::kHamming, WindowKind::kBlackman, WindowKind::kTukey}) {
    for (std::int64_t n : {16, 17, 1000, 1001}) {
      auto const periodic = make_window(kind, n);
      auto const symmetric = make_window(kind, n, 0.5, false);
      for (std::int64_t j = 1; j < n; ++j) {
        EXPECT_NEAR(periodic[static_cast<std::size_t>(j)],
                    periodic[static_cast<std::size_t>(n - j)], 1e-14)
            << to_string(kind) << " n " << n << " j " << j;
      }
      for (std::int64_t j = 0; j < n; ++j) {
        EXPECT_NEAR(symmetric[static_cast<std::size_t>(j)],
                    symmetric[static_cast<std::size_t>(n - 1 - j)], 1e-14)
            << to_string(kind) << " n " << n << " j " << j;
      }
    }
  }
}

TEST(Windows, ParsesWords) {
  WindowKind kind = WindowKind::kBoxcar;
  EXPECT_TRUE(parse_window("hann", kind));
  EXPECT_EQ(kind, WindowKind::kHann);
  EXPECT_TRUE(parse_window("none", kind));
  EXPECT_EQ(kind, WindowKind::kBoxcar);
  EXPECT_FALSE(parse_window("hanning", kind));
  EXPECT_NE(window_words().find("tukey"), std::string::npos);
}

}  // namespace
}  // namespace tcfft::stages
