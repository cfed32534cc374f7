// SPDX-License-Identifier: MIT
// PhaseClock (--profile phases): one line per mark in order, notes indented under the last
// phase, and a total line equal to the time from construction to the last mark.
#include "phase_clock.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

namespace tcfft::app {
namespace {

double seconds_of(std::string const& line) {
  auto const end = line.rfind(" s");
  auto const begin = line.rfind(' ', end - 1);
  return std::strtod(line.substr(begin + 1, end - begin - 1).c_str(), nullptr);
}

TEST(PhaseClock, LinesInOrderWithNotesAndTotal) {
  PhaseClock clock;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  clock.mark("first");
  clock.note("detail of first");
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  clock.mark("second");
  auto const lines = clock.lines();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].rfind("first ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], "  detail of first");
  EXPECT_EQ(lines[2].rfind("second ", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("total (phases above) ", 0), 0u) << lines[3];
  EXPECT_GE(seconds_of(lines[0]), 0.019);
  EXPECT_GE(seconds_of(lines[2]), 0.009);
  EXPECT_NEAR(seconds_of(lines[3]), seconds_of(lines[0]) + seconds_of(lines[2]), 2e-4);
}

}  // namespace
}  // namespace tcfft::app
