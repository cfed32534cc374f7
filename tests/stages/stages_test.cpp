// SPDX-License-Identifier: MIT
// The fft, ifft, spectrum and filter stages on the CPU engine: round trips, known spectra,
// numpy's norm words, and the chains configure must refuse (naming the stage).
#include <tcfft/stages/fft_stage.hpp>
#include <tcfft/stages/filter_stage.hpp>
#include <tcfft/stages/ifft_stage.hpp>
#include <tcfft/stages/spectrum_stage.hpp>
#include <tcfft/stages/stage_factory.hpp>

#include <tcfft/core/error.hpp>

#include <common/reference_dft.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

namespace tcfft::stages {
namespace {

using cd = std::complex<double>;

FrameSpec time_spec(SampleType type, std::vector<std::int64_t> shape, std::int64_t rows,
                    double fs = 1.0) {
  FrameSpec s;
  s.type = type;
  s.shape = std::move(shape);
  s.rows_per_frame = rows;
  s.total_rows = rows;
  s.sample_rate = fs;
  s.time_length = s.shape.back();
  s.time_rows = s.shape.size() == 2 ? s.shape[0] : 0;
  s.valid_length = s.shape.back();
  return s;
}

Frame random_frame(FrameSpec const& spec, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Frame f;
  f.resize_for(spec, spec.rows_per_frame);
  for (auto& v : f.real) v = u(rng);
  for (auto& v : f.complex) v = {u(rng), u(rng)};
  return f;
}

// The first stage's output fed through the second; returns the second's output.
Frame run_chain(Stage& first, Stage& second, FrameSpec const& spec, Frame const& in) {
  auto const mid_spec = first.configure(spec);
  (void)second.configure(mid_spec);
  Frame mid, out;
  EXPECT_TRUE(first.process(in, mid));
  EXPECT_TRUE(second.process(mid, out));
  return out;
}

struct RoundTrip {
  SampleType type;
  std::vector<std::int64_t> shape;
  std::string axes;
  Norm norm;
};

TEST(FftStage, RoundTripReturnsTheInput) {
  std::vector<RoundTrip> const cases = {
      {SampleType::kReal, {64}, "all", Norm::kBackward},
      {SampleType::kReal, {45}, "all", Norm::kOrtho},
      {SampleType::kComplex, {50}, "all", Norm::kForward},
      {SampleType::kComplex, {33}, "all", Norm::kBackward},
      {SampleType::kReal, {12, 10}, "all", Norm::kBackward},
      {SampleType::kReal, {9, 15}, "all", Norm::kOrtho},
      {SampleType::kComplex, {7, 6}, "all", Norm::kForward},
      {SampleType::kReal, {5, 21}, "last", Norm::kBackward},
      {SampleType::kComplex, {4, 9}, "last", Norm::kOrtho},
  };
  unsigned seed = 1;
  for (auto const& c : cases) {
    auto const spec = time_spec(c.type, c.shape, 3);
    auto const in = random_frame(spec, seed++);
    FftParams fp;
    fp.axes = c.axes;
    fp.norm = c.norm;
    IfftParams ip;
    ip.norm = c.norm;
    FftStage fft(fp, FftEngineParams{}, 0);
    IfftStage ifft(ip, FftEngineParams{}, 1);
    auto const out = run_chain(fft, ifft, spec, in);
    double const error = c.type == SampleType::kReal
                             ? testing::relative_l2_error(out.real, in.real)
                             : testing::relative_l2_error(out.complex, in.complex);
    EXPECT_LT(error, 1e-12) << "shape " << c.shape.back() << " axes " << c.axes;
    EXPECT_EQ(out.rows, 3);
  }
}

TEST(FftStage, RealOnesidedSpec) {
  FftStage fft(FftParams{}, FftEngineParams{}, 2);
  auto const out = fft.configure(time_spec(SampleType::kReal, {9, 15}, 2));
  EXPECT_EQ(out.type, SampleType::kComplex);
  EXPECT_EQ(out.domain, Domain::kFrequency);
  EXPECT_EQ(out.shape, (std::vector<std::int64_t>{9, 8}));
  EXPECT_TRUE(out.onesided);
  EXPECT_EQ(out.time_length, 15);
  EXPECT_EQ(out.time_rows, 9);
  EXPECT_EQ(fft.name(), "stages[2] (fft)");
}

TEST(FftStage, IfftRestoresTheValidLengthOfASeries) {
  // A 100-sample series cut into 2 items of 64: the final item holds 36 real samples.
  auto spec = time_spec(SampleType::kReal, {64}, 2);
  spec.series_length = 100;
  spec.valid_length = 36;
  FftStage fft(FftParams{}, FftEngineParams{}, 0);
  auto const freq = fft.configure(spec);
  EXPECT_EQ(freq.valid_length, 33);
  IfftStage ifft(IfftParams{}, FftEngineParams{}, 1);
  auto const time = ifft.configure(freq);
  EXPECT_EQ(time.valid_length, 36);
  EXPECT_EQ(time.type, SampleType::kReal);
  EXPECT_EQ(time.shape, std::vector<std::int64_t>{64});
}

TEST(FftStage, MatchesTheReferenceDft) {
  auto const spec = time_spec(SampleType::kComplex, {30}, 1);
  auto const in = random_frame(spec, 42);
  FftStage fft(FftParams{}, FftEngineParams{}, 0);
  fft.configure(spec);
  Frame out;
  fft.process(in, out);
  std::vector<testing::cld> x(in.complex.begin(), in.complex.end());
  EXPECT_LT(testing::relative_l2_error(out.complex, testing::reference_dft(x, -1)), 1e-14);
}

TEST(FftStage, ToneLandsInItsBin) {
  std::int64_t const n = 64;
  auto const spec = time_spec(SampleType::kReal, {n}, 1, 64.0);
  Frame in;
  in.resize_for(spec, 1);
  for (std::int64_t j = 0; j < n; ++j)
    in.real[static_cast<std::size_t>(j)] = std::cos(2 * M_PI * 5 * j / 64.0);
  FftStage fft(FftParams{}, FftEngineParams{}, 0);
  fft.configure(spec);
  Frame out;
  fft.process(in, out);
  ASSERT_EQ(out.complex.size(), 33u);
  for (std::size_t k = 0; k < 33; ++k) {
    EXPECT_NEAR(std::abs(out.complex[k]), k == 5 ? 32.0 : 0.0, 1e-12) << k;
  }
  // A complex tone exp(2 pi i 7 j / n) puts all of n into bin 7 of the full spectrum.
  auto const cspec = time_spec(SampleType::kComplex, {n}, 1);
  Frame cin;
  cin.resize_for(cspec, 1);
  for (std::int64_t j = 0; j < n; ++j)
    cin.complex[static_cast<std::size_t>(j)] = std::polar(1.0, 2 * M_PI * 7 * j / 64.0);
  FftStage cfft(FftParams{}, FftEngineParams{}, 0);
  EXPECT_FALSE(cfft.configure(cspec).onesided);
  cfft.process(cin, out);
  ASSERT_EQ(out.complex.size(), 64u);
  for (std::size_t k = 0; k < 64; ++k) {
    EXPECT_NEAR(std::abs(out.complex[k]), k == 7 ? 64.0 : 0.0, 1e-12) << k;
  }
}

TEST(FftStage, NormWordsScaleLikeNumpy) {
  // A unit DC input of 16 samples: numpy.fft.fft gives 16 (backward), 4 (ortho), 1 (forward);
  // numpy.fft.ifft of a DC bin of 16 gives 1, 4, 16 per sample.
  auto const spec = time_spec(SampleType::kComplex, {16}, 1);
  Frame in;
  in.resize_for(spec, 1);
  std::fill(in.complex.begin(), in.complex.end(), cd(1.0, 0.0));
  std::pair<Norm, double> const cases[] = {
      {Norm::kBackward, 16.0}, {Norm::kOrtho, 4.0}, {Norm::kForward, 1.0}};
  for (auto [norm, expected] : cases) {
    FftParams fp;
    fp.norm = norm;
    FftStage fft(fp, FftEngineParams{}, 0);
    auto const fspec = fft.configure(spec);
    Frame out;
    fft.process(in, out);
    EXPECT_NEAR(out.complex[0].real(), expected, 1e-12);
    Frame dc;
    dc.resize_for(fspec, 1);
    dc.complex[0] = 16.0;
    IfftParams ip;
    ip.norm = norm;
    IfftStage ifft(ip, FftEngineParams{}, 1);
    ifft.configure(fspec);
    ifft.process(dc, out);
    EXPECT_NEAR(out.complex[3].real(), 16.0 / expected, 1e-12);
  }
}

TEST(FftStage, WindowIsAppliedAlongTheLastAxis) {
  // The DC bin of a windowed constant is the window's sum: n/2 for the periodic Hann window.
  auto const spec = time_spec(SampleType::kReal, {3, 32}, 1);
  Frame in;
  in.resize_for(spec, 1);
  std::fill(in.real.begin(), in.real.end(), 1.0);
  FftParams fp;
  fp.window = "hann";
  fp.axes = "last";
  FftStage fft(fp, FftEngineParams{}, 0);
  EXPECT_EQ(fft.configure(spec).time_rows, 0);
  Frame out;
  fft.process(in, out);
  for (int row = 0; row < 3; ++row)
    EXPECT_NEAR(out.complex[static_cast<std::size_t>(row * 17)].real(), 16.0, 1e-12);
}

TEST(SpectrumStage, MagnitudePowerDb) {
  FrameSpec spec = time_spec(SampleType::kComplex, {4}, 1);
  spec.domain = Domain::kFrequency;
  spec.units = "V";
  Frame in;
  in.resize_for(spec, 1);
  in.complex = {cd(3, 4), cd(0, 0), cd(-1, 0), cd(0, 10)};
  std::pair<std::string, std::vector<double>> const cases[] = {
      {"magnitude", {5, 0, 1, 10}},
      {"power", {25, 0, 1, 100}},
      {"db", {10 * std::log10(25.0), -3000, 0, 20}}};
  for (auto const& [word, expected] : cases) {
    SpectrumParams p;
    p.output = word;
    SpectrumStage stage(p, 3);
    auto const out_spec = stage.configure(spec);
    EXPECT_EQ(out_spec.type, SampleType::kReal);
    Frame out;
    stage.process(in, out);
    ASSERT_EQ(out.real.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(out.real[i], expected[i], 1e-12) << word << i;
  }
  SpectrumParams bad;
  bad.output = "phase";
  EXPECT_THROW(SpectrumStage(bad, 3).configure(spec), ConfigError);
}

TEST(FilterStage, ZerosTheStopband) {
  // 256 samples at 256 Hz: tones at 10 Hz and 50 Hz; the Butterworth bandstop 40..62.5 Hz has
  // its zero at sqrt(40 * 62.5) = 50 Hz, which is bin 50.
  auto const spec = time_spec(SampleType::kReal, {256}, 1, 256.0);
  Frame in;
  in.resize_for(spec, 1);
  std::vector<double> low_tone(256);
  for (int j = 0; j < 256; ++j) {
    low_tone[static_cast<std::size_t>(j)] = std::sin(2 * M_PI * 10 * j / 256.0);
    in.real[static_cast<std::size_t>(j)] =
        low_tone[static_cast<std::size_t>(j)] + std::sin(2 * M_PI * 50 * j / 256.0);
  }
  FftStage fft(FftParams{}, FftEngineParams{}, 0);
  FilterParams fp;
  fp.type = "bandstop";
  fp.low = 40.0;
  fp.high = 62.5;
  FilterStage filter(fp, 1);
  IfftStage ifft(IfftParams{}, FftEngineParams{}, 2);
  auto const freq = fft.configure(spec);
  filter.configure(freq);
  ifft.configure(freq);
  Frame spectrum, filtered, out;
  fft.process(in, spectrum);
  filter.process(spectrum, filtered);
  EXPECT_EQ(std::abs(filtered.complex[50]), 0.0);
  EXPECT_NEAR(std::abs(filtered.complex[10]), 128.0, 1e-3);
  ifft.process(filtered, out);
  EXPECT_LT(testing::relative_l2_error(out.real, low_tone), 1e-5);

  // A highpass removes DC exactly; a steep lowpass leaves next to nothing far above it.
  fp = FilterParams{};
  fp.type = "highpass";
  fp.cutoff = 5.0;
  FilterStage highpass(fp, 1);
  highpass.configure(freq);
  EXPECT_EQ(highpass.response()[0], cd(0.0, 0.0));
  fp.type = "lowpass";
  fp.cutoff = 20.0;
  fp.order = 8;
  FilterStage lowpass(fp, 1);
  lowpass.configure(freq);
  EXPECT_LT(std::abs(lowpass.response()[100]), 3e-6);  // (20/100)^8
  EXPECT_NEAR(std::abs(lowpass.response()[20]), 1.0 / std::sqrt(2.0), 1e-15);
}

template <class F>
void expect_config_error(F&& configure, std::string const& stage_name, std::string const& words) {
  try {
    configure();
    FAIL() << "no ConfigError for " << stage_name;
  } catch (ConfigError const& e) {
    std::string const what = e.what();
    EXPECT_NE(what.find(stage_name), std::string::npos) << what;
    EXPECT_NE(what.find(words), std::string::npos) << what;
  }
}

TEST(StageChains, IncompatibleChainsAreRejectedAtConfigure) {
  auto const time = time_spec(SampleType::kReal, {64}, 1);
  FftStage first(FftParams{}, FftEngineParams{}, 0);
  auto const freq = first.configure(time);
  expect_config_error([&] { FftStage(FftParams{}, FftEngineParams{}, 1).configure(freq); },
                      "stages[1] (fft)", "input is already in the frequency domain");
  expect_config_error([&] { SpectrumStage(SpectrumParams{}, 1).configure(time); },
                      "stages[1] (spectrum)", "time domain");
  expect_config_error([&] { IfftStage(IfftParams{}, FftEngineParams{}, 1).configure(time); },
                      "stages[1] (ifft)", "time domain");
  expect_config_error([&] { FilterStage(FilterParams{}, 1).configure(time); }, "stages[1] (filter)",
                      "time domain");
  FftParams bad_window;
  bad_window.window = "kaiser";
  expect_config_error([&] { FftStage(bad_window, FftEngineParams{}, 4).configure(time); },
                      "stages[4] (fft)", "'kaiser'");
  FilterParams above;
  above.cutoff = 0.75;  // sample_rate 1: Nyquist 0.5
  expect_config_error([&] { FilterStage(above, 2).configure(freq); }, "stages[2] (filter)",
                      "cutoff 0.75");
  SpectrumStage power(SpectrumParams{}, 2);
  auto const real_freq = power.configure(freq);
  expect_config_error([&] { IfftStage(IfftParams{}, FftEngineParams{}, 3).configure(real_freq); },
                      "stages[3] (ifft)", "real");
}

TEST(StageFactory, BuildsEveryProcessingKind) {
  FftEngineParams const engine;
  EXPECT_EQ(make_processing_stage({"fft", 0, FftParams{}}, engine)->name(), "stages[0] (fft)");
  EXPECT_EQ(make_processing_stage({"ifft", 1, IfftParams{}}, engine)->name(), "stages[1] (ifft)");
  EXPECT_EQ(make_processing_stage({"spectrum", 2, SpectrumParams{}}, engine)->name(),
            "stages[2] (spectrum)");
  EXPECT_EQ(make_processing_stage({"welch", 3, WelchParams{}}, engine)->name(),
            "stages[3] (welch)");
  EXPECT_EQ(make_processing_stage({"filter", 4, FilterParams{}}, engine)->name(),
            "stages[4] (filter)");
  expect_config_error(
      [&] {
        (void)make_processing_stage({"wavelet", 5, FftParams{}}, engine);
      },
      "stages[5] (wavelet)", "unknown stage kind 'wavelet'");
  expect_config_error(
      [&] {
        (void)make_processing_stage({"sink", 6, SinkParams{}}, engine);
      },
      "stages[6] (sink)", "not a processing stage");
  expect_config_error(
      [&] {
        (void)make_processing_stage({"fft", 7, IfftParams{}}, engine);
      },
      "stages[7] (fft)", "parameters");
}

}  // namespace
}  // namespace tcfft::stages
