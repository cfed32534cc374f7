// SPDX-License-Identifier: MIT
// The --profile summary of a streaming run: every phase of every frame (read, H2D, each stage,
// D2H, write) is an interval on one clock (host phases from steady_clock, device phases from
// CUDA events placed on the same clock). For each phase the summary gives its busy time (the
// union of its intervals) and how much of that was hidden, i.e. overlapped by some other phase
// running at the same time. A run whose largest phase is fully hidden behind nothing else and
// all other phases hidden behind it runs at the speed of its slowest phase.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tcfft::gpu {

struct Interval {
  int phase = 0;       ///< index into the phase names
  double begin = 0.0;  ///< seconds on the run's clock
  double end = 0.0;
};

struct PhaseSummary {
  std::string name;
  std::int64_t count = 0;  ///< intervals
  double total = 0.0;      ///< sum of durations (s)
  double busy = 0.0;       ///< length of the union of the phase's intervals (s)
  double hidden = 0.0;     ///< part of busy during which another phase was busy too (s)
};

/// Summaries in the order of `names`; intervals with a phase outside names are ignored.
[[nodiscard]] std::vector<PhaseSummary> summarize_timeline(std::vector<std::string> const& names,
                                                           std::vector<Interval> const& intervals);

/// Human-readable lines: one per phase ("H2D  0.412 s busy, 97% hidden"), then the wall time
/// of the timeline, the sum of the busy times and the largest phase (the floor).
[[nodiscard]] std::vector<std::string> format_timeline(std::vector<PhaseSummary> const& phases,
                                                       double wall_seconds);

}  // namespace tcfft::gpu
