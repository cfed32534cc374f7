// SPDX-License-Identifier: MIT
#include "progress.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace tcfft::app {

Progress::Progress(Mode mode, std::int64_t total_frames, std::int64_t total_bytes)
    : mode_(mode),
      total_frames_(std::max<std::int64_t>(total_frames, 1)),
      total_bytes_(total_bytes),
      start_(Clock::now()),
      last_draw_(start_) {}

Progress::Mode Progress::detect(bool quiet) noexcept {
  if (quiet) return Mode::kOff;
  return isatty(STDERR_FILENO) ? Mode::kBar : Mode::kLog;
}

void Progress::update(std::int64_t frames_done, std::int64_t bytes_done) {
  if (mode_ == Mode::kOff) return;
  auto const now = Clock::now();
  double const fraction = static_cast<double>(frames_done) / static_cast<double>(total_frames_);
  double const elapsed = std::chrono::duration<double>(now - start_).count();
  double const mb_per_s = elapsed > 0 ? static_cast<double>(bytes_done) / 1e6 / elapsed : 0.0;
  double const eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  if (mode_ == Mode::kLog) {
    int const decile = static_cast<int>(fraction * 10.0);
    if (decile == last_decile_ || frames_done == 0) return;
    last_decile_ = decile;
    spdlog::info("progress: {}/{} frames ({:.0f}%), {:.1f} MB/s, ETA {:.1f} s", frames_done,
                 total_frames_, fraction * 100.0, mb_per_s, eta);
    return;
  }
  bool const last = frames_done >= total_frames_;
  if (!last && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  constexpr int kWidth = 30;
  int const filled = std::clamp(static_cast<int>(fraction * kWidth), 0, kWidth);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(kWidth, ' ');
  std::fprintf(stderr, "\r[%s] %lld/%lld frames  %.1f MB/s  ETA %.1f s ", bar.c_str(),
               static_cast<long long>(frames_done), static_cast<long long>(total_frames_),
               mb_per_s, eta);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish() {
  if (mode_ == Mode::kBar && drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace tcfft::app
