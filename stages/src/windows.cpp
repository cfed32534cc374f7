// SPDX-License-Identifier: MIT
// Window formulas, written from scipy.signal.windows' documented definitions (general_cosine
// with fac = linspace(-pi, pi, M) and tukey's three pieces).
#include <tcfft/stages/windows.hpp>

#include <tcfft/core/error.hpp>

#include <cmath>
#include <numbers>

namespace tcfft::stages {
namespace {

struct WindowWord {
  char const* word;
  WindowKind kind;
};

constexpr WindowWord kWords[] = {
    {"none", WindowKind::kBoxcar},       {"boxcar", WindowKind::kBoxcar},
    {"hann", WindowKind::kHann},         {"hamming", WindowKind::kHamming},
    {"blackman", WindowKind::kBlackman}, {"tukey", WindowKind::kTukey},
};

// sum_k a[k] cos(k * fac), fac running from -pi to pi over m points (scipy general_cosine).
std::vector<double> general_cosine(std::int64_t m, std::vector<double> const& a) {
  std::vector<double> w(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < m; ++j) {
    double const fac = -std::numbers::pi +
                       2.0 * std::numbers::pi * static_cast<double>(j) / static_cast<double>(m - 1);
    double sum = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) sum += a[k] * std::cos(static_cast<double>(k) * fac);
    w[static_cast<std::size_t>(j)] = sum;
  }
  return w;
}

std::vector<double> tukey(std::int64_t m, double alpha) {
  std::vector<double> w(static_cast<std::size_t>(m), 1.0);
  auto const width =
      static_cast<std::int64_t>(std::floor(alpha * static_cast<double>(m - 1) / 2.0));
  double const span = alpha * static_cast<double>(m - 1);
  for (std::int64_t j = 0; j <= width && j < m; ++j) {
    w[static_cast<std::size_t>(j)] =
        0.5 * (1.0 + std::cos(std::numbers::pi * (-1.0 + 2.0 * static_cast<double>(j) / span)));
  }
  for (std::int64_t j = std::max<std::int64_t>(m - width - 1, 0); j < m; ++j) {
    w[static_cast<std::size_t>(j)] =
        0.5 * (1.0 + std::cos(std::numbers::pi *
                              (-2.0 / alpha + 1.0 + 2.0 * static_cast<double>(j) / span)));
  }
  return w;
}

}  // namespace

bool parse_window(std::string_view word, WindowKind& kind) noexcept {
  for (auto const& entry : kWords) {
    if (word == entry.word) {
      kind = entry.kind;
      return true;
    }
  }
  return false;
}

char const* to_string(WindowKind kind) noexcept {
  switch (kind) {
    case WindowKind::kBoxcar: return "none";
    case WindowKind::kHann: return "hann";
    case WindowKind::kHamming: return "hamming";
    case WindowKind::kBlackman: return "blackman";
    case WindowKind::kTukey: return "tukey";
  }
  return "?";
}

std::string window_words() {
  std::string words;
  for (auto const& entry : kWords) {
    if (!words.empty()) words += ", ";
    words += entry.word;
  }
  return words;
}

std::vector<double> make_window(WindowKind kind, std::int64_t n, double tukey_alpha,
                                bool periodic) {
  TCFFT_EXPECTS(n >= 1, "window length must be positive");
  if (n == 1 || kind == WindowKind::kBoxcar)
    return std::vector<double>(static_cast<std::size_t>(n), 1.0);
  if (kind == WindowKind::kTukey && tukey_alpha >= 1.0) kind = WindowKind::kHann;
  if (kind == WindowKind::kTukey && tukey_alpha <= 0.0)
    return std::vector<double>(static_cast<std::size_t>(n), 1.0);

  std::int64_t const m = periodic ? n + 1 : n;  // scipy's _extend / _truncate
  std::vector<double> w;
  switch (kind) {
    case WindowKind::kHann: w = general_cosine(m, {0.5, 0.5}); break;
    case WindowKind::kHamming: w = general_cosine(m, {0.54, 0.46}); break;
    case WindowKind::kBlackman: w = general_cosine(m, {0.42, 0.50, 0.08}); break;
    case WindowKind::kTukey: w = tukey(m, tukey_alpha); break;
    case WindowKind::kBoxcar: break;
  }
  w.resize(static_cast<std::size_t>(n));
  return w;
}

}  // namespace tcfft::stages
