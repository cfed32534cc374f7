// SPDX-License-Identifier: MIT
// Tapering windows shared by the fft and welch stages, defined exactly as scipy.signal.windows
// defines them so that our spectra can be checked against scipy's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcfft::stages {

/// The windows a stage can apply (YAML words in brackets).
enum class WindowKind {
  kBoxcar,    ///< "none" or "boxcar": w[j] = 1
  kHann,      ///< "hann": 0.5 - 0.5 cos(2 pi j / M)
  kHamming,   ///< "hamming": 0.54 - 0.46 cos(2 pi j / M)
  kBlackman,  ///< "blackman": 0.42 - 0.5 cos(2 pi j / M) + 0.08 cos(4 pi j / M)
  kTukey,     ///< "tukey": cosine tapers over alpha*M/2 samples at each end, flat between
};

/// Parses a window word ("none", "boxcar", "hann", "hamming", "blackman", "tukey").
/// Returns false (and leaves `kind` alone) for any other word; stages turn that into a
/// ConfigError naming their key.
[[nodiscard]] bool parse_window(std::string_view word, WindowKind& kind) noexcept;

/// The YAML word of a window ("none" for kBoxcar).
[[nodiscard]] char const* to_string(WindowKind kind) noexcept;

/// The words parse_window accepts, for error messages: "none, boxcar, hann, ...".
[[nodiscard]] std::string window_words();

/// Returns the n samples of a window.
///
/// `periodic` (scipy's fftbins=True, the default of scipy.signal.get_window and of
/// scipy.signal.welch) computes the symmetric window of length n + 1 and drops its last sample,
/// so that M above is n; the symmetric form (sym=True) uses M = n - 1. Tukey follows
/// scipy.signal.windows.tukey: alpha <= 0 is the boxcar, alpha >= 1 the Hann window.
/// n == 1 gives {1}; n must be >= 1.
[[nodiscard]] std::vector<double> make_window(WindowKind kind, std::int64_t n,
                                              double tukey_alpha = 0.5, bool periodic = true);

}  // namespace tcfft::stages
