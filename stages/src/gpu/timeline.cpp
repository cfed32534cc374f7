// SPDX-License-Identifier: MIT
// Busy and hidden time per phase by sweeping sorted interval unions.
#include <tcfft/gpu/timeline.hpp>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace tcfft::gpu {
namespace {

using Span = std::pair<double, double>;

/// Sorted, disjoint union of `spans`.
std::vector<Span> merge(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<Span> merged;
  for (auto const& s : spans) {
    if (s.second <= s.first) continue;
    if (!merged.empty() && s.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, s.second);
    } else {
      merged.push_back(s);
    }
  }
  return merged;
}

double length(std::vector<Span> const& spans) {
  double sum = 0.0;
  for (auto const& s : spans) sum += s.second - s.first;
  return sum;
}

/// Length of the intersection of two sorted disjoint unions.
double overlap(std::vector<Span> const& a, std::vector<Span> const& b) {
  double sum = 0.0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    double const lo = std::max(a[i].first, b[j].first);
    double const hi = std::min(a[i].second, b[j].second);
    if (hi > lo) sum += hi - lo;
    if (a[i].second < b[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return sum;
}

}  // namespace

std::vector<PhaseSummary> summarize_timeline(std::vector<std::string> const& names,
                                             std::vector<Interval> const& intervals) {
  std::vector<std::vector<Span>> own(names.size());
  std::vector<PhaseSummary> phases(names.size());
  for (std::size_t p = 0; p < names.size(); ++p) phases[p].name = names[p];
  for (auto const& iv : intervals) {
    if (iv.phase < 0 || static_cast<std::size_t>(iv.phase) >= names.size()) continue;
    auto const p = static_cast<std::size_t>(iv.phase);
    own[p].emplace_back(iv.begin, iv.end);
    phases[p].count += 1;
    phases[p].total += std::max(0.0, iv.end - iv.begin);
  }
  std::vector<std::vector<Span>> unions(names.size());
  for (std::size_t p = 0; p < names.size(); ++p) unions[p] = merge(own[p]);
  for (std::size_t p = 0; p < names.size(); ++p) {
    std::vector<Span> others;
    for (std::size_t q = 0; q < names.size(); ++q) {
      if (q != p) others.insert(others.end(), unions[q].begin(), unions[q].end());
    }
    phases[p].busy = length(unions[p]);
    phases[p].hidden = overlap(unions[p], merge(std::move(others)));
  }
  return phases;
}

std::vector<std::string> format_timeline(std::vector<PhaseSummary> const& phases,
                                         double wall_seconds) {
  std::vector<std::string> lines;
  double sum = 0.0;
  PhaseSummary const* largest = nullptr;
  char text[256];
  for (auto const& p : phases) {
    sum += p.busy;
    if (largest == nullptr || p.busy > largest->busy) largest = &p;
    double const percent = p.busy > 0.0 ? 100.0 * p.hidden / p.busy : 0.0;
    std::snprintf(text, sizeof text, "%-28s %6lld x, busy %9.4f s, hidden %9.4f s (%5.1f%%)",
                  p.name.c_str(), static_cast<long long>(p.count), p.busy, p.hidden, percent);
    lines.emplace_back(text);
  }
  std::snprintf(text, sizeof text,
                "wall %.4f s; sum of busy times %.4f s (overlap gain %.2fx); largest phase %s "
                "%.4f s (wall / largest %.2fx)",
                wall_seconds, sum, wall_seconds > 0.0 ? sum / wall_seconds : 0.0,
                largest ? largest->name.c_str() : "-", largest ? largest->busy : 0.0,
                largest && largest->busy > 0.0 ? wall_seconds / largest->busy : 0.0);
  lines.emplace_back(text);
  return lines;
}

}  // namespace tcfft::gpu
