// SPDX-License-Identifier: MIT
// The checks --validate makes on the output path without creating anything: the directory
// exists and is writable, and an existing file is only accepted with output.overwrite.
#pragma once

#include <tcfft/stages/params.hpp>

namespace tcfft::app {

/// Throws OutputError naming the path and what is wrong.
void check_output_path(OutputParams const& output);

}  // namespace tcfft::app
