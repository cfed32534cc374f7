// SPDX-License-Identifier: MIT
// SinkStage: the pass-through stage in front of io::OutputFile.
#include <tcfft/stages/sink_stage.hpp>

#include <tcfft/core/error.hpp>

#include <string>
#include <utility>

namespace tcfft::stages {

SinkStage::SinkStage(SinkParams params, int index, io::OutputFile& output)
    : params_(std::move(params)),
      name_("stages[" + std::to_string(index) + "] (sink)"),
      output_(output) {}

FrameSpec SinkStage::configure(FrameSpec const& in) {
  try {
    dataset_id_ = output_.add_dataset(params_, in);
  } catch (ConfigError const& e) {
    throw ConfigError(name_ + ": " + e.what());
  }
  return in;
}

bool SinkStage::process(Frame const& in, Frame& out) {
  TCFFT_EXPECTS(dataset_id_ >= 0, name_ + " processed a frame before configure");
  output_.write(dataset_id_, in);
  out = in;
  return true;
}

bool SinkStage::finish(Frame& /*out*/) {
  return false;
}

}  // namespace tcfft::stages
