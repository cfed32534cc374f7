// SPDX-License-Identifier: MIT
// The Welch power-spectral-density stage: a reducer that averages the periodograms of
// overlapping, windowed segments, exactly as scipy.signal.welch defines them.
#pragma once

#include <tcfft/stages/fft_engine.hpp>
#include <tcfft/stages/params.hpp>
#include <tcfft/stages/stage.hpp>
#include <tcfft/stages/windows.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::stages {

/// Welch PSD estimate, matching scipy.signal.welch(x, fs, window, nperseg=segment,
/// noverlap=overlap, detrend, return_onesided, scaling, average):
///
///   segments  s = x[m*step : m*step + segment], step = segment - overlap, for every m whose
///             segment lies wholly inside the series (trailing samples are dropped, as scipy's
///             default padded=False, boundary=None does)
///   P_m[k]  = scale * |sum_j w[j] (s[j] - d) exp(-2 pi i j k / segment)|^2,
///             d = mean(s) for detrend "constant", 0 for "none"
///   scale   = 1 / (fs * sum w^2) for scaling "density" (units^2/Hz),
///             1 / (sum w)^2 for "spectrum" (units^2)
///   one-sided (real input, onesided: true): bins 0..segment/2, every bin but DC and (even
///             segment) Nyquist doubled; complex input or onesided: false: all segment bins in
///             numpy.fft order
///   average "mean": mean_m P_m[k]; "median": median_m P_m[k] / b(M), with scipy's median bias
///             b(M) = 1 + sum_{i=1}^{(M-1)//2} (1/(2i+1) - 1/(2i)) for M segments.
///
/// What a series is: for 1-D series input (spec.series_length > 0) consecutive items are
/// consecutive pieces of one series (the final item holds spec.valid_length real samples); a
/// carry buffer lets segments span item and frame boundaries, so the result does not depend on
/// how the source cut the series. Overlap-save items (spec.context > 0) are read correctly: only
/// each item's core (samples [context, context + segment)) enters the series, so the context
/// is neither counted twice nor mistaken for data. For rows / images input (series_length == 0) each row of each
/// item is a series of its own, and each item yields one PSD (averaging the segments of all its
/// rows, for 2-D items). process() never emits; finish() emits all PSDs as one frame.
///
/// Segments are windowed into a batch and transformed kBatch at a time by the engine's r2c (or
/// c2c). The median needs every periodogram until the end: it keeps M x bins doubles per series.
///
/// Output spec: real, frequency domain, shape {bins}, onesided as above, time_length = segment,
/// sample_rate = the input's, one row per series (total_rows 1 for a 1-D series), units
/// "<units>^2/Hz" (density) or "<units>^2" (spectrum).
/// Errors: ConfigError for bad words or sizes (0 <= overlap < segment); InputError naming the
/// segment and the series length when a series is shorter than one segment.
class WelchStage final : public Stage {
 public:
  /// Segments transformed per engine call.
  static constexpr std::int64_t kBatch = 64;

  WelchStage(WelchParams params, FftEngineParams engine, int index);

  [[nodiscard]] std::string const& name() const noexcept override { return name_; }
  FrameSpec configure(FrameSpec const& in) override;
  bool process(Frame const& in, Frame& out) override;
  bool finish(Frame& out) override;
  /// "strongest lines: 60.00 Hz (1.2e-01), ..." when report_peaks > 0 (from the first PSD).
  [[nodiscard]] std::string report() const override;

  /// Segments averaged into the most recent PSD.
  [[nodiscard]] std::int64_t segments_in_last_psd() const noexcept { return last_segments_; }

 private:
  void check_params(FrameSpec const& in);
  template <class T>
  void consume_series(T const* samples, std::int64_t count, std::vector<T>& pending);
  template <class T>
  void consume_row(T const* row, std::int64_t count);
  template <class T>
  void add_segment(T const* start);
  void flush_batch();
  void finish_series(std::int64_t length);
  [[nodiscard]] double median_of_bin(std::int64_t k);

  WelchParams params_;
  FftEngineParams engine_params_;
  std::string name_;
  FrameSpec in_spec_;
  FrameSpec out_spec_;
  std::int64_t segment_ = 0;
  std::int64_t step_ = 0;
  std::int64_t fft_bins_ = 0;  // bins per periodogram from the engine (r2c: segment/2+1)
  std::int64_t out_bins_ = 0;
  bool use_r2c_ = true;  // real input and one-sided output
  bool median_ = false;
  bool detrend_ = true;
  bool series_mode_ = false;
  double scale_ = 1.0;
  std::vector<double> window_;
  std::unique_ptr<FftEngine> engine_;

  std::vector<double> pending_real_;  // carry buffer of a 1-D series
  std::vector<std::complex<double>> pending_complex_;
  std::int64_t series_samples_ = 0;                  // samples of the series seen so far
  std::vector<double> batch_real_;                   // (kBatch, segment)
  std::vector<std::complex<double>> batch_complex_;  // (kBatch, segment)
  std::vector<std::complex<double>> batch_out_;      // (kBatch, fft_bins)
  std::int64_t batch_count_ = 0;
  std::vector<double> sum_;           // (fft_bins) sum of |X|^2
  std::vector<double> periodograms_;  // (segments, fft_bins) for the median
  std::vector<double> column_;        // (segments) median scratch
  std::int64_t segments_ = 0;
  std::int64_t last_segments_ = 0;
  std::vector<double> results_;  // (rows, out_bins) finished PSDs
};

}  // namespace tcfft::stages
