// SPDX-License-Identifier: MIT
// Progress of a run: a one-line bar on a terminal (frames, MB/s, ETA), plain log lines at every
// tenth of the run otherwise, nothing with --quiet. Updates are rate-limited; the hot path only
// calls update(), which returns at once when nothing is due.
#pragma once

#include <chrono>
#include <cstdint>

namespace tcfft::app {

class Progress {
 public:
  enum class Mode { kBar, kLog, kOff };
  Progress(Mode mode, std::int64_t total_frames, std::int64_t total_bytes);
  /// Chooses kBar when stderr is a terminal, kLog otherwise, kOff when quiet.
  static Mode detect(bool quiet) noexcept;

  void update(std::int64_t frames_done, std::int64_t bytes_done);
  /// Ends the bar's line (if any).
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  Mode mode_;
  std::int64_t total_frames_;
  std::int64_t total_bytes_;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  int last_decile_ = -1;
  bool drawn_ = false;
};

}  // namespace tcfft::app
