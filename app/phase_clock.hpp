// SPDX-License-Identifier: MIT
// Wall-clock phases of a run, for --profile: where the time outside the frame loop goes
// (CUDA start-up, planning, allocation, file creation, commit, release). Each mark(name) closes
// the phase that ran since the previous mark (or construction); note(text) adds a detail line
// under the last phase without closing anything.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace tcfft::app {

class PhaseClock {
 public:
  using Clock = std::chrono::steady_clock;

  PhaseClock() : start_(Clock::now()), last_(start_) {}

  void mark(std::string const& name) {
    auto const now = Clock::now();
    lines_.push_back(format("%-44s %8.4f s", name.c_str(), seconds(last_, now)));
    last_ = now;
  }
  void note(std::string const& text) { lines_.push_back("  " + text); }

  /// The lines so far and a last line with the total of the phases.
  [[nodiscard]] std::vector<std::string> lines() const {
    auto result = lines_;
    result.push_back(format("%-44s %8.4f s", "total (phases above)", seconds(start_, last_)));
    return result;
  }

 private:
  static double seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  }
  static std::string format(char const* pattern, char const* name, double value) {
    char text[128];
    std::snprintf(text, sizeof text, pattern, name, value);
    return text;
  }

  Clock::time_point start_;
  Clock::time_point last_;
  std::vector<std::string> lines_;
};

}  // namespace tcfft::app
