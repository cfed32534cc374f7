// SPDX-License-Identifier: MIT
// Overlap-save: a long series cut into items with context (input.overlap) and filtered with the
// FIR form of the filter (taps) through source -> fft -> filter -> ifft -> sink equals the same
// FIR applied to the whole series at once, except within (taps-1)/2 samples of the very start
// and end, where the whole-series transform wraps around. Also: the direct time-domain
// convolution with the FIR, the failure with too little overlap, and Welch on overlapped items.
#include "h5_test_support.hpp"

#include <tcfft/core/error.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/io/h5_source.hpp>
#include <tcfft/stages/fft_stage.hpp>
#include <tcfft/stages/filter_fir.hpp>
#include <tcfft/stages/filter_stage.hpp>
#include <tcfft/stages/ifft_stage.hpp>
#include <tcfft/stages/welch_stage.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace tcfft {
namespace {

using test::TempDir;

FftEngineParams cpu() {
  FftEngineParams e;
  e.device = Device::kCpu;
  return e;
}

FilterParams bandpass(std::int64_t taps) {
  FilterParams f;
  f.type = "bandpass";
  f.low = 0.03;
  f.high = 0.2;
  f.order = 4;
  f.taps = taps;
  return f;
}

std::vector<double> random_series(std::int64_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = normal(rng);
  return x;
}

struct Chain {
  std::vector<double> output;  // the stored series
  std::vector<double> fir;     // the filter's taps
};

/// source(segment, overlap) -> fft -> filter -> ifft -> sink, on the CPU; returns what the sink
/// stored.
Chain run_chain(TempDir const& dir, std::string const& input, FilterParams const& filter,
                std::int64_t segment, std::int64_t overlap, std::int64_t rows_per_frame = 0) {
  SourceParams sp;
  sp.path = input;
  sp.dataset = "/x";
  sp.segment = segment;
  sp.overlap = overlap;
  sp.rows_per_frame = rows_per_frame;
  io::H5Source source(sp);
  stages::FftStage fft(FftParams{}, cpu(), 0);
  stages::FilterStage filt(filter, 1);
  stages::IfftStage ifft(IfftParams{}, cpu(), 2);
  auto const out_spec = ifft.configure(filt.configure(fft.configure(source.spec())));
  EXPECT_EQ(out_spec.context, overlap);
  auto const path = dir.file("out-" + std::to_string(segment) + "-" + std::to_string(overlap) +
                             "-" + std::to_string(filter.taps) + ".h5");
  {
    io::OutputFile output(OutputParams{path, true}, "test");
    int const id = output.add_dataset(SinkParams{"/y", "auto"}, out_spec);
    Frame in, spectrum, filtered, series;
    while (source.read(in)) {
      fft.process(in, spectrum);
      filt.process(spectrum, filtered);
      ifft.process(filtered, series);
      output.write(id, series);
    }
    output.commit();
  }
  return {test::read_doubles(path, "/y"), filt.fir()};
}

/// y[i] = sum_m h[m] x[i - m] over lags |m| <= half, zeros outside x.
std::vector<double> direct_convolution(std::vector<double> const& x, std::vector<double> const& h) {
  auto const n = static_cast<std::int64_t>(x.size());
  auto const half = static_cast<std::int64_t>(h.size() - 1) / 2;
  std::vector<double> y(x.size(), 0.0);
  for (std::int64_t i = 0; i < n; ++i) {
    double sum = 0.0;
    for (std::int64_t m = -half; m <= half; ++m) {
      std::int64_t const j = i - m;
      if (j >= 0 && j < n) sum += h[static_cast<std::size_t>(half + m)] * x[static_cast<std::size_t>(j)];
    }
    y[static_cast<std::size_t>(i)] = sum;
  }
  return y;
}

/// max |a - b| over [begin, end) relative to max |b| there.
double max_relative(std::vector<double> const& a, std::vector<double> const& b, std::int64_t begin,
                    std::int64_t end) {
  double diff = 0.0;
  double scale = 0.0;
  for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  EXPECT_GT(scale, 0.0) << "reference is all zeros";
  return diff / scale;
}

class OverlapSave : public ::testing::Test {
 protected:
  static constexpr std::int64_t kLength = 100000;
  void SetUp() override {
    input_ = dir_.file("series.h5");
    x_ = random_series(kLength, 20240605);
    test::write_doubles(input_, "/x", {static_cast<hsize_t>(kLength)}, x_);
  }
  TempDir dir_;
  std::string input_;
  std::vector<double> x_;
};

struct Case {
  std::int64_t segment;
  std::int64_t overlap;
  std::int64_t taps;
  std::int64_t rows_per_frame;
};

TEST_F(OverlapSave, SegmentedEqualsWholeSeriesExceptTheEdge) {
  // fft sizes 4096 (power of two), 1200, 7809 and 65536; 100000 is no multiple of the segments
  // 3968, 7777 and 65280, so the final segment is partial there.
  for (Case const c : {Case{3968, 64, 129, 0}, Case{1000, 100, 129, 7},
                       Case{7777, 16, 33, 3}, Case{65280, 128, 257, 1}}) {
    SCOPED_TRACE("segment " + std::to_string(c.segment) + " overlap " +
                 std::to_string(c.overlap) + " taps " + std::to_string(c.taps));
    auto const whole = run_chain(dir_, input_, bandpass(c.taps), 0, 0);
    auto const parts = run_chain(dir_, input_, bandpass(c.taps), c.segment, c.overlap,
                                 c.rows_per_frame);
    ASSERT_EQ(whole.output.size(), static_cast<std::size_t>(kLength));
    ASSERT_EQ(parts.output.size(), static_cast<std::size_t>(kLength));
    ASSERT_EQ(whole.fir, parts.fir);
    std::int64_t const edge = (c.taps - 1) / 2;
    EXPECT_LT(max_relative(parts.output, whole.output, edge, kLength - edge), 1e-12);
    // Within the edge the whole-series transform wraps: there the two differ, and the
    // segmented output is the one that equals the linear convolution (zeros outside).
    EXPECT_GT(max_relative(parts.output, whole.output, 0, edge), 1e-6);
    auto const direct = direct_convolution(x_, parts.fir);
    EXPECT_LT(max_relative(parts.output, direct, 0, kLength), 1e-12);
  }
}

TEST_F(OverlapSave, TooLittleOverlapBreaksTheEquality) {
  auto const whole = run_chain(dir_, input_, bandpass(129), 0, 0);
  for (std::int64_t overlap : {0, 32, 63}) {
    SCOPED_TRACE("overlap " + std::to_string(overlap));
    auto const parts = run_chain(dir_, input_, bandpass(129), 4096 - 2 * overlap, overlap);
    ASSERT_EQ(parts.output.size(), static_cast<std::size_t>(kLength));
    // Even one wrapped tap (overlap 63: only the outermost, Kaiser-tapered ones) misses the
    // 1e-12 of the test above by orders of magnitude.
    EXPECT_GT(max_relative(parts.output, whole.output, 64, kLength - 64), 1e-9);
  }
}

TEST_F(OverlapSave, WithoutTapsItemsFilterCircularly) {
  // taps 0 (gains at the item's own bins): the items do not join, whatever the overlap.
  auto const whole = run_chain(dir_, input_, bandpass(0), 0, 0);
  auto const parts = run_chain(dir_, input_, bandpass(0), 3968, 64);
  ASSERT_EQ(parts.output.size(), static_cast<std::size_t>(kLength));
  EXPECT_GT(max_relative(parts.output, whole.output, 64, kLength - 64), 1e-6);
}

TEST(OverlapSaveSmall, EqualsDirectConvolution) {
  TempDir dir;
  auto const input = dir.file("small.h5");
  auto const x = random_series(300, 7);
  test::write_doubles(input, "/x", {300}, x);
  FilterParams lowpass;
  lowpass.type = "lowpass";
  lowpass.response = "gaussian";
  lowpass.cutoff = 0.1;
  lowpass.taps = 17;
  auto const result = run_chain(dir, input, lowpass, 50, 8, 2);
  ASSERT_EQ(result.fir.size(), 17u);
  auto const direct = direct_convolution(x, result.fir);
  ASSERT_EQ(result.output.size(), 300u);
  EXPECT_LT(max_relative(result.output, direct, 0, 300), 1e-12);
}

TEST(FirDesign, SymmetricAndFollowsTheResponse) {
  stages::ResponseParams p;
  p.band = stages::FilterBand::kLowpass;
  p.shape = stages::FilterShape::kGaussian;
  p.cutoff = 0.05;
  std::int64_t const n = 4096;
  auto const worst_error = [&](std::vector<double> const& h) {
    auto const gains = stages::fir_gains(h, n, n / 2 + 1);
    double worst = 0.0;
    for (std::int64_t k = 0; k <= n / 2; ++k) {
      double const f = static_cast<double>(k) / static_cast<double>(n);
      worst = std::max(worst, std::abs(gains[static_cast<std::size_t>(k)] -
                                       stages::response_gain(p, f)));
    }
    return worst;
  };
  auto const h = stages::design_fir(p, 1.0, 257);
  ASSERT_EQ(h.size(), 257u);
  for (std::size_t j = 0; j < h.size(); ++j) EXPECT_EQ(h[j], h[h.size() - 1 - j]);
  // The Kaiser window smooths the response over about 5.6 fs / taps: more taps, closer.
  double const error_257 = worst_error(h);
  double const error_1025 = worst_error(stages::design_fir(p, 1.0, 1025));
  std::printf("FIR design, Gaussian lowpass 0.05 fs: max |G - H| %.3g (257 taps), %.3g (1025)\n",
              error_257, error_1025);
  EXPECT_LT(error_257, 5e-3);
  EXPECT_LT(error_1025, error_257 / 8);
  auto const full = stages::fir_gains(h, n, n);
  for (std::int64_t k = 1; k < n / 2; ++k) {
    EXPECT_EQ(full[static_cast<std::size_t>(k)], full[static_cast<std::size_t>(n - k)]);
  }
}

TEST(FirDesign, RejectsBadTaps) {
  stages::ResponseParams p;
  p.cutoff = 0.1;
  EXPECT_TRUE(test::contains(test::error_of<ConfigError>([&] { (void)stages::design_fir(p, 1.0, 8); }),
                             "odd"));
  EXPECT_TRUE(test::contains(test::error_of<ConfigError>([&] { (void)stages::design_fir(p, 1.0, 1); }),
                             "at least 3"));
  auto const h = stages::design_fir(p, 1.0, 65);
  EXPECT_TRUE(test::contains(
      test::error_of<ConfigError>([&] { (void)stages::fir_gains(h, 64, 33); }), "64"));
}

TEST(OverlapSaveSource, ItemsCarryTheirNeighboursAndZerosOutside) {
  TempDir dir;
  auto const input = dir.file("ramp.h5");
  std::vector<double> x(23);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i + 1);
  test::write_doubles(input, "/x", {23}, x);
  SourceParams sp;
  sp.path = input;
  sp.dataset = "/x";
  sp.segment = 10;
  sp.overlap = 3;
  sp.rows_per_frame = 2;
  io::H5Source source(sp);
  auto const& spec = source.spec();
  EXPECT_EQ(spec.shape, std::vector<std::int64_t>{16});
  EXPECT_EQ(spec.context, 3);
  EXPECT_EQ(spec.total_rows, 3);
  EXPECT_EQ(spec.valid_length, 3);  // of the final item's core
  EXPECT_EQ(spec.series_length, 23);
  std::vector<double> items;
  Frame frame;
  while (source.read(frame)) items.insert(items.end(), frame.real.begin(), frame.real.end());
  ASSERT_EQ(items.size(), 48u);
  for (std::int64_t k = 0; k < 3; ++k) {
    for (std::int64_t j = 0; j < 16; ++j) {
      std::int64_t const sample = k * 10 - 3 + j;
      double const expected = sample >= 0 && sample < 23 ? static_cast<double>(sample + 1) : 0.0;
      EXPECT_EQ(items[static_cast<std::size_t>(k * 16 + j)], expected) << "item " << k << " " << j;
    }
  }
}

TEST(OverlapSaveSource, RefusesOverlapOnRowsAndNegativeOverlap) {
  TempDir dir;
  auto const input = dir.file("rows.h5");
  test::write_doubles(input, "/x", {4, 8}, std::vector<double>(32, 1.0));
  SourceParams sp;
  sp.path = input;
  sp.dataset = "/x";
  sp.overlap = 2;
  EXPECT_TRUE(test::contains(test::error_of<ConfigError>([&] { io::H5Source s(sp); }),
                             "input.overlap 2 applies to series items only"));
  sp.overlap = -1;
  EXPECT_TRUE(test::contains(test::error_of<ConfigError>([&] { io::H5Source s(sp); }),
                             "input.overlap -1 is negative"));
}

TEST(OverlapSaveWelch, UsesOnlyTheCoresOfOverlappedItems) {
  TempDir dir;
  auto const input = dir.file("welch.h5");
  auto const x = random_series(20000, 3);
  test::write_doubles(input, "/x", {20000}, x);
  auto const psd = [&](std::int64_t segment, std::int64_t overlap) {
    SourceParams sp;
    sp.path = input;
    sp.dataset = "/x";
    sp.segment = segment;
    sp.overlap = overlap;
    sp.rows_per_frame = 3;
    io::H5Source source(sp);
    WelchParams wp;
    wp.segment = 512;
    wp.overlap = 256;
    stages::WelchStage welch(wp, cpu(), 0);
    (void)welch.configure(source.spec());
    Frame in, out;
    while (source.read(in)) (void)welch.process(in, out);
    EXPECT_TRUE(welch.finish(out));
    return out.real;
  };
  auto const plain = psd(0, 0);
  auto const overlapped = psd(3000, 200);
  ASSERT_EQ(plain.size(), overlapped.size());
  EXPECT_LT(max_relative(overlapped, plain, 0, static_cast<std::int64_t>(plain.size())), 1e-12);
}

TEST(OverlapSaveFilter, RejectsTapsWhereTheyCannotApply) {
  FrameSpec spec;
  spec.type = SampleType::kComplex;
  spec.domain = Domain::kFrequency;
  spec.shape = {33};
  spec.time_length = 64;
  spec.onesided = true;
  spec.sample_rate = 1.0;
  stages::FilterStage too_long(bandpass(65), 1);
  EXPECT_TRUE(test::contains(test::error_of<ConfigError>([&] { (void)too_long.configure(spec); }),
                             "time_length 64"));
  stages::FilterStage even(bandpass(64), 1);
  EXPECT_TRUE(test::contains(test::error_of<ConfigError>([&] { (void)even.configure(spec); }),
                             "odd"));
  FrameSpec image = spec;
  image.shape = {64, 33};
  image.time_rows = 64;
  stages::FilterStage radial(bandpass(9), 1);
  EXPECT_TRUE(test::contains(test::error_of<ConfigError>([&] { (void)radial.configure(image); }),
                             "last axis only"));
}

}  // namespace
}  // namespace tcfft
