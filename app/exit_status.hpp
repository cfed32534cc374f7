// SPDX-License-Identifier: MIT
// The one place where the command-line programs turn what a run throws into the exit codes the
// README documents: a tcfft::Error logs its message and returns its code, anything else is an
// internal error (runtime, 5).
#pragma once

#include <tcfft/core/error.hpp>

#include <spdlog/spdlog.h>

#include <exception>
#include <utility>

namespace tcfft::app {

/// Runs `body` (returning the exit status on success) and maps its exceptions to exit codes.
template <class Body>
int exit_status_of(Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (tcfft::Error const& e) {
    spdlog::error("{}", e.what());
    return static_cast<int>(e.code());
  } catch (std::exception const& e) {
    spdlog::error("internal error: {}", e.what());
    return static_cast<int>(tcfft::ExitCode::kRuntime);
  }
}

}  // namespace tcfft::app
