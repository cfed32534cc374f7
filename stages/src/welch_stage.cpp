// SPDX-License-Identifier: MIT
// Welch stage: segments are cut from a carry buffer (series) or from each row (rows/images),
// detrended and windowed into a batch, transformed kBatch at a time, and their |X|^2 summed
// (mean) or kept (median) until the series ends.
#include <tcfft/stages/welch_stage.hpp>

#include <tcfft/core/error.hpp>

#include "stage_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>

namespace tcfft::stages {
namespace {

// scipy.signal._spectral_py._median_bias: 1 + sum_{i=1}^{(n-1)//2} (1/(2i+1) - 1/(2i)).
double median_bias(std::int64_t n) {
  double bias = 1.0;
  for (std::int64_t i = 1; i <= (n - 1) / 2; ++i) {
    auto const two_i = 2.0 * static_cast<double>(i);
    bias += 1.0 / (two_i + 1.0) - 1.0 / two_i;
  }
  return bias;
}

std::string format_number(char const* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

WelchStage::WelchStage(WelchParams params, FftEngineParams engine, int index)
    : params_(std::move(params)),
      engine_params_(std::move(engine)),
      name_(detail::stage_name(index, "welch")) {}

void WelchStage::check_params(FrameSpec const& in) {
  if (in.domain != Domain::kTime) {
    throw ConfigError(name_ + ": input is in the frequency domain (welch needs a time series)");
  }
  if (in.shape.empty() || in.shape.size() > 2) {
    throw ConfigError(name_ + ": items must be 1-D or 2-D, got shape " +
                      detail::shape_string(in.shape));
  }
  if (params_.segment < 2) {
    throw ConfigError(name_ + ": segment must be at least 2, got " +
                      std::to_string(params_.segment));
  }
  auto const overlap = params_.overlap < 0 ? params_.segment / 2 : params_.overlap;
  if (overlap >= params_.segment) {
    throw ConfigError(name_ + ": overlap " + std::to_string(overlap) + " must be below segment " +
                      std::to_string(params_.segment));
  }
  if (params_.average != "mean" && params_.average != "median") {
    throw ConfigError(name_ + ": average must be mean or median, got '" + params_.average + "'");
  }
  if (params_.scaling != "density" && params_.scaling != "spectrum") {
    throw ConfigError(name_ + ": scaling must be density or spectrum, got '" + params_.scaling +
                      "'");
  }
  if (params_.detrend != "constant" && params_.detrend != "none") {
    throw ConfigError(name_ + ": detrend must be constant or none, got '" + params_.detrend + "'");
  }
  if (!(in.sample_rate > 0.0)) {
    throw ConfigError(name_ + ": sample_rate must be positive, got " +
                      std::to_string(in.sample_rate));
  }
  if (params_.report_peaks < 0) {
    throw ConfigError(name_ + ": report_peaks must be >= 0, got " +
                      std::to_string(params_.report_peaks));
  }
  step_ = params_.segment - overlap;
}

FrameSpec WelchStage::configure(FrameSpec const& in) {
  check_params(in);
  WindowKind kind{};
  if (!parse_window(params_.window, kind)) {
    throw ConfigError(name_ + ": window must be one of " + window_words() + ", got '" +
                      params_.window + "'");
  }
  in_spec_ = in;
  segment_ = params_.segment;
  series_mode_ = in.shape.size() == 1 && in.series_length > 0;
  std::int64_t const series = series_mode_ ? in.series_length : in.shape.back();
  if (series < segment_) {
    throw InputError(name_ + ": segment " + std::to_string(segment_) +
                     " is longer than the series (" + std::to_string(series) + " samples)");
  }
  window_ = make_window(kind, segment_);
  double const sum_w = std::accumulate(window_.begin(), window_.end(), 0.0);
  double sum_w2 = 0.0;
  for (double w : window_) sum_w2 += w * w;
  scale_ = params_.scaling == "density" ? 1.0 / (in.sample_rate * sum_w2) : 1.0 / (sum_w * sum_w);
  median_ = params_.average == "median";
  detrend_ = params_.detrend == "constant";
  use_r2c_ = in.type == SampleType::kReal && params_.onesided;
  fft_bins_ = use_r2c_ ? segment_ / 2 + 1 : segment_;
  out_bins_ = fft_bins_;

  batch_real_.assign(use_r2c_ ? static_cast<std::size_t>(kBatch * segment_) : 0, 0.0);
  batch_complex_.assign(use_r2c_ ? 0 : static_cast<std::size_t>(kBatch * segment_), 0.0);
  batch_out_.assign(static_cast<std::size_t>(kBatch * fft_bins_), 0.0);
  sum_.assign(static_cast<std::size_t>(fft_bins_), 0.0);
  auto const carry = static_cast<std::size_t>(segment_ + in.rows_per_frame * in.item_size());
  pending_real_.clear();
  pending_complex_.clear();
  if (series_mode_ && in.type == SampleType::kReal) pending_real_.reserve(carry);
  if (series_mode_ && in.type == SampleType::kComplex) pending_complex_.reserve(carry);
  series_samples_ = 0;
  batch_count_ = 0;
  segments_ = 0;
  periodograms_.clear();
  results_.clear();

  std::int64_t const psds = series_mode_ ? 1 : in.total_rows;
  out_spec_ = FrameSpec{};
  out_spec_.type = SampleType::kReal;
  out_spec_.domain = Domain::kFrequency;
  out_spec_.shape = {out_bins_};
  out_spec_.rows_per_frame = std::max<std::int64_t>(psds, 1);
  out_spec_.total_rows = psds;
  out_spec_.sample_rate = in.sample_rate;
  auto const squared = in.units.empty() ? std::string() : in.units + "^2";
  if (params_.scaling == "density") {
    out_spec_.units = squared.empty() ? "1/Hz" : squared + "/Hz";
  } else {
    out_spec_.units = squared;
  }
  out_spec_.time_length = segment_;
  out_spec_.onesided = use_r2c_;
  out_spec_.valid_length = out_bins_;
  results_.reserve(static_cast<std::size_t>(std::max<std::int64_t>(psds, 1) * out_bins_));
  try {
    engine_ = make_fft_engine(engine_params_, {segment_}, kBatch);
  } catch (FftError const& e) {
    throw FftError(name_ + ": " + e.what());
  }
  return out_spec_;
}

bool WelchStage::process(Frame const& in, Frame& /*out*/) {
  TCFFT_EXPECTS(engine_ != nullptr, "welch stage used before configure");
  std::int64_t const item = in_spec_.item_size();
  std::int64_t const nx = in_spec_.shape.back();
  bool const complex_in = in_spec_.type == SampleType::kComplex;
  for (std::int64_t r = 0; r < in.rows; ++r) {
    std::int64_t const row = in.first_row + r;
    bool const final_item = in_spec_.total_rows > 0 && row == in_spec_.total_rows - 1;
    // Overlap-save items (context > 0): only the core is the item's own share of the series.
    std::int64_t const core = nx - 2 * in_spec_.context;
    std::int64_t const valid = final_item && in_spec_.valid_length > 0 && in_spec_.shape.size() == 1
                                   ? std::min(in_spec_.valid_length, core)
                                   : core;
    auto const offset = static_cast<std::size_t>(r * item + in_spec_.context);
    if (series_mode_) {
      if (complex_in) {
        consume_series(in.complex.data() + offset, valid, pending_complex_);
      } else {
        consume_series(in.real.data() + offset, valid, pending_real_);
      }
      continue;
    }
    for (std::int64_t y = 0; y < item / nx; ++y) {
      auto const start = offset + static_cast<std::size_t>(y * nx);
      if (complex_in) {
        consume_row(in.complex.data() + start, valid);
      } else {
        consume_row(in.real.data() + start, valid);
      }
    }
    finish_series(valid);
  }
  return false;
}

template <class T>
void WelchStage::consume_series(T const* samples, std::int64_t count, std::vector<T>& pending) {
  pending.insert(pending.end(), samples, samples + count);
  series_samples_ += count;
  std::int64_t start = 0;
  auto const available = static_cast<std::int64_t>(pending.size());
  for (; start + segment_ <= available; start += step_) add_segment(pending.data() + start);
  // Keep what later segments still need: everything from the next segment start on.
  auto const keep_from = std::min(start, available);
  pending.erase(pending.begin(), pending.begin() + keep_from);
}

template <class T>
void WelchStage::consume_row(T const* row, std::int64_t count) {
  for (std::int64_t start = 0; start + segment_ <= count; start += step_) add_segment(row + start);
}

template <class T>
void WelchStage::add_segment(T const* start) {
  T mean{};
  if (detrend_) {
    for (std::int64_t j = 0; j < segment_; ++j) mean += start[j];
    mean /= static_cast<double>(segment_);
  }
  auto const slot = static_cast<std::size_t>(batch_count_ * segment_);
  for (std::int64_t j = 0; j < segment_; ++j) {
    auto const value = (start[j] - mean) * window_[static_cast<std::size_t>(j)];
    if constexpr (std::is_same_v<T, double>) {
      if (use_r2c_) {
        batch_real_[slot + static_cast<std::size_t>(j)] = value;
        continue;
      }
    }
    batch_complex_[slot + static_cast<std::size_t>(j)] = value;
  }
  if (++batch_count_ == kBatch) flush_batch();
}

void WelchStage::flush_batch() {
  if (batch_count_ == 0) return;
  if (use_r2c_) {
    engine_->r2c(batch_real_.data(), batch_out_.data(), batch_count_);
  } else {
    engine_->c2c(batch_complex_.data(), batch_out_.data(), batch_count_, -1);
  }
  for (std::int64_t s = 0; s < batch_count_; ++s) {
    auto const* x = batch_out_.data() + s * fft_bins_;
    if (median_) {
      for (std::int64_t k = 0; k < fft_bins_; ++k) periodograms_.push_back(std::norm(x[k]));
    } else {
      for (std::int64_t k = 0; k < fft_bins_; ++k)
        sum_[static_cast<std::size_t>(k)] += std::norm(x[k]);
    }
  }
  segments_ += batch_count_;
  batch_count_ = 0;
}

double WelchStage::median_of_bin(std::int64_t k) {
  column_.resize(static_cast<std::size_t>(segments_));
  for (std::int64_t m = 0; m < segments_; ++m) {
    column_[static_cast<std::size_t>(m)] =
        periodograms_[static_cast<std::size_t>(m * fft_bins_ + k)];
  }
  auto const middle = column_.begin() + segments_ / 2;
  std::nth_element(column_.begin(), middle, column_.end());
  double value = *middle;
  if (segments_ % 2 == 0) value = 0.5 * (value + *std::max_element(column_.begin(), middle));
  return value;
}

void WelchStage::finish_series(std::int64_t length) {
  flush_batch();
  if (segments_ == 0) {
    throw InputError(name_ + ": segment " + std::to_string(segment_) +
                     " is longer than the series (" + std::to_string(length) + " samples)");
  }
  double const bias = median_ ? median_bias(segments_) : 1.0;
  bool const even = segment_ % 2 == 0;
  for (std::int64_t k = 0; k < out_bins_; ++k) {
    double value = median_ ? median_of_bin(k) / bias
                           : sum_[static_cast<std::size_t>(k)] / static_cast<double>(segments_);
    value *= scale_;
    bool const doubled = use_r2c_ && k > 0 && !(even && k == out_bins_ - 1);
    results_.push_back(doubled ? 2.0 * value : value);
  }
  last_segments_ = segments_;
  std::fill(sum_.begin(), sum_.end(), 0.0);
  periodograms_.clear();
  segments_ = 0;
}

bool WelchStage::finish(Frame& out) {
  if (series_mode_) {
    finish_series(series_samples_);
    pending_real_.clear();
    pending_complex_.clear();
    series_samples_ = 0;
  }
  auto const rows = static_cast<std::int64_t>(results_.size()) / out_bins_;
  if (rows == 0) return false;
  out.index = 0;
  out.first_row = 0;
  out.resize_for(out_spec_, rows);
  std::copy(results_.begin(), results_.end(), out.real.begin());
  return true;
}

std::string WelchStage::report() const {
  if (params_.report_peaks <= 0 || results_.size() < static_cast<std::size_t>(out_bins_)) return {};
  // Lines are local maxima ranked by prominence: their power over the median of the bins
  // around them. Ranking by power alone lists the steep low-frequency wall of recorded strain
  // (or any coloured noise) instead of its narrow lines.
  constexpr std::int64_t kHalfWindow = 16;
  auto const power = [this](std::int64_t k) { return results_[static_cast<std::size_t>(k)]; };
  std::vector<std::pair<double, std::int64_t>> peaks;  // (prominence, bin)
  std::vector<double> window;
  for (std::int64_t k = 1; k + 1 < out_bins_; ++k) {
    if (!(power(k) > power(k - 1) && power(k) >= power(k + 1))) continue;
    auto const lo = std::max<std::int64_t>(0, k - kHalfWindow);
    auto const hi = std::min<std::int64_t>(out_bins_ - 1, k + kHalfWindow);
    window.assign(results_.begin() + lo, results_.begin() + hi + 1);
    auto const mid = window.begin() + static_cast<std::ptrdiff_t>(window.size() / 2);
    std::nth_element(window.begin(), mid, window.end());
    double const median = *mid > 0 ? *mid : std::numeric_limits<double>::min();
    peaks.emplace_back(power(k) / median, k);
  }
  auto const count =
      std::min<std::size_t>(peaks.size(), static_cast<std::size_t>(params_.report_peaks));
  std::partial_sort(peaks.begin(), peaks.begin() + static_cast<std::ptrdiff_t>(count), peaks.end(),
                    std::greater<>());
  std::string text = "most prominent lines:";
  for (std::size_t i = 0; i < count; ++i) {
    auto const k = peaks[i].second;
    double const f =
        use_r2c_ ? static_cast<double>(k) * in_spec_.sample_rate / static_cast<double>(segment_)
                 : static_cast<double>(k <= segment_ / 2 ? k : k - segment_) *
                       in_spec_.sample_rate / static_cast<double>(segment_);
    text += (i == 0 ? " " : ", ") + format_number("%.2f", f) + " Hz (" +
            format_number("%.1e", power(k)) + ", " + format_number("%.0f", peaks[i].first) +
            "x local median)";
  }
  return count == 0 ? std::string() : text;
}

}  // namespace tcfft::stages
