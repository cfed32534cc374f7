// SPDX-License-Identifier: MIT
// The stage interface. A stage negotiates once (configure: input spec -> output spec, plans
// built, buffers sized, incompatibilities reported as ConfigError naming the stage), then
// processes many frames. Reducers (Welch PSD) return false from process and emit their result
// from finish.
#pragma once

#include <tcfft/core/frame.hpp>

#include <string>

namespace tcfft::stages {

class Stage {
 public:
  virtual ~Stage() = default;
  /// "fft", "filter", ... as in the YAML, plus the index: "stages[2] (filter)".
  [[nodiscard]] virtual std::string const& name() const noexcept = 0;
  /// Checks `in` and returns the spec of what process emits. Throws ConfigError.
  virtual FrameSpec configure(FrameSpec const& in) = 0;
  /// Processes one frame. Returns true when `out` holds a frame to pass downstream.
  virtual bool process(Frame const& in, Frame& out) = 0;
  /// After the last frame: returns true when `out` holds a final frame (reducers).
  virtual bool finish(Frame& /*out*/) { return false; }
  /// One-line human summary printed at the end of a run ("" for none), e.g. peaks found.
  [[nodiscard]] virtual std::string report() const { return {}; }
};

}  // namespace tcfft::stages
