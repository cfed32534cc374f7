// SPDX-License-Identifier: MIT
#include "output_check.hpp"

#include <tcfft/core/error.hpp>
#include <tcfft/version.hpp>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace tcfft::app {

void check_output_path(OutputParams const& output) {
  namespace fs = std::filesystem;
  fs::path const path(output.path);
  fs::path const dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw OutputError("output.path: directory '" + dir.string() + "' of '" + output.path +
                      "' does not exist");
  }
  if (access(dir.c_str(), W_OK) != 0) {
    throw OutputError("output.path: directory '" + dir.string() + "' is not writable");
  }
  if (fs::exists(path, ec) && !output.overwrite) {
    throw OutputError("output file '" + output.path +
                      "' exists; set output.overwrite: true (or --set output.overwrite=true) "
                      "or choose another path");
  }
  if (fs::is_directory(path, ec)) {
    throw OutputError("output.path: '" + output.path + "' is a directory");
  }
}

void stamp_output(io::OutputFile& output, PipelineConfig const& config, std::string const& device) {
  output.set_attribute("program", "tcfft-pipeline");
  output.set_attribute("version", kVersion);
  output.set_attribute("config", config.effective_yaml);
  output.set_attribute("input", config.input.path + ":" + config.input.dataset);
  output.set_attribute("device", device);
}

}  // namespace tcfft::app
