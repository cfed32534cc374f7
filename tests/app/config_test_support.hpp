// SPDX-License-Identifier: MIT
// Shared by the configuration tests: a small valid configuration whose line numbers the tests
// rely on, a text substitution that keeps those lines, and the message of the expected error.
#pragma once

#include "config.hpp"

#include <tcfft/core/error.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <initializer_list>
#include <string>
#include <vector>

namespace tcfft::testing {

/// A valid configuration; the comments give the line numbers the error tests expect.
inline std::string const kBaseConfig =
    "input:\n"              // 1
    "  path: in.h5\n"       // 2
    "  dataset: /x\n"       // 3
    "output:\n"             // 4
    "  path: out.h5\n"      // 5
    "stages:\n"             // 6
    "  - fft: {}\n"         // 7
    "  - filter:\n"         // 8
    "      cutoff: 100\n"   // 9
    "  - sink:\n"           // 10
    "      dataset: /y\n";  // 11

/// `text` with the first `from` replaced by `to` (a test failure when `from` is absent).
inline std::string with(std::string text, std::string const& from, std::string const& to) {
  auto const pos = text.find(from);
  if (pos == std::string::npos) {
    ADD_FAILURE() << "'" << from << "' not in the configuration";
    return text;
  }
  return text.replace(pos, from.size(), to);
}

/// The message of the ConfigError that parsing `text` as "cfg.yaml" throws; "" (and a test
/// failure) when it parses or throws anything else.
inline std::string error_of(std::string const& text,
                            std::vector<std::string> const& overrides = {}) {
  try {
    (void)app::parse_config(text, "cfg.yaml", overrides);
  } catch (ConfigError const& e) {
    return e.what();
  } catch (std::exception const& e) {
    ADD_FAILURE() << "expected a ConfigError, got: " << e.what();
    return "";
  }
  ADD_FAILURE() << "expected a ConfigError, but this parsed:\n" << text;
  return "";
}

/// Checks that `message` contains every one of `parts`.
inline void expect_contains(std::string const& message, std::initializer_list<char const*> parts) {
  for (char const* part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "expected \"" << part << "\" in the message:\n  " << message;
  }
}

}  // namespace tcfft::testing
