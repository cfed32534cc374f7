// SPDX-License-Identifier: MIT
// The output file seen from the app: the checks --validate makes on the output path without
// creating anything (the directory exists and is writable, an existing file is only accepted
// with output.overwrite), and the root attributes every run stamps on the file it writes.
#pragma once

#include "config.hpp"

#include <tcfft/io/h5_sink.hpp>
#include <tcfft/stages/params.hpp>

#include <string>

namespace tcfft::app {

/// Throws OutputError naming the path and what is wrong.
void check_output_path(OutputParams const& output);

/// Writes the root attributes program, version, config (the effective YAML), input and device.
void stamp_output(io::OutputFile& output, PipelineConfig const& config, std::string const& device);

}  // namespace tcfft::app
