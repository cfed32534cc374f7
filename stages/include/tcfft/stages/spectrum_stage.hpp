// SPDX-License-Identifier: MIT
// The spectrum stage: complex spectra -> real magnitude, power or decibels, bin by bin.
#pragma once

#include <tcfft/stages/params.hpp>
#include <tcfft/stages/stage.hpp>

#include <string>

namespace tcfft::stages {

/// Per-bin real quantity of a complex spectrum X (shape, domain and frequency axis unchanged):
///   magnitude  |X|                      units: <units>
///   power      |X|^2                    units: <units>^2
///   db         10 log10(max(|X|^2, 1e-300))   units: dB (the floor keeps empty bins finite:
///              they read -3000 dB)
/// The input must be frequency-domain complex items; time-domain or real input is a
/// ConfigError naming the stage.
class SpectrumStage final : public Stage {
 public:
  /// Smallest power the db output takes the logarithm of.
  static constexpr double kPowerFloor = 1e-300;

  SpectrumStage(SpectrumParams params, int index);

  [[nodiscard]] std::string const& name() const noexcept override { return name_; }
  FrameSpec configure(FrameSpec const& in) override;
  bool process(Frame const& in, Frame& out) override;

 private:
  enum class Output { kMagnitude, kPower, kDb };

  SpectrumParams params_;
  std::string name_;
  Output output_ = Output::kPower;
  FrameSpec out_spec_;
};

}  // namespace tcfft::stages
