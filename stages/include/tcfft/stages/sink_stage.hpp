// SPDX-License-Identifier: MIT
// The sink stage: writes every frame it receives into one dataset of the run's output file and
// passes the frame on unchanged, so a chain may hold several sinks (e.g. the filtered series
// and, after a spectrum stage, its power spectrum).
#pragma once

#include <tcfft/io/h5_sink.hpp>
#include <tcfft/stages/params.hpp>
#include <tcfft/stages/stage.hpp>

#include <string>

namespace tcfft::stages {

class SinkStage final : public Stage {
 public:
  /// `output` must outlive the stage. `index` is the stage's position in the YAML list.
  SinkStage(SinkParams params, int index, io::OutputFile& output);

  /// "stages[3] (sink)".
  [[nodiscard]] std::string const& name() const noexcept override { return name_; }
  /// Creates the dataset (shape, dtype, attributes; see io::OutputFile::add_dataset) and
  /// returns `in` unchanged. Throws ConfigError for a dtype that cannot hold the data.
  FrameSpec configure(FrameSpec const& in) override;
  /// Writes `in` at its rows and copies it to `out`; always returns true.
  bool process(Frame const& in, Frame& out) override;
  /// Nothing is held back: returns false.
  bool finish(Frame& out) override;

 private:
  SinkParams params_;
  std::string name_;
  io::OutputFile& output_;
  int dataset_id_ = -1;
};

}  // namespace tcfft::stages
