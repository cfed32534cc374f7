// SPDX-License-Identifier: MIT
// The Welch stage against scipy.signal.welch, the authority for what a Welch PSD is:
// - THE acceptance test: the LIGO H1 strain of GW150914 (4096 Hz, 32 s) with segment 16384,
//   Hann, overlap 8192, one-sided density, detrend constant, mean and median, against
//   tests/data/welch_h1_*reference.txt (scripts/make_welch_reference.py), fed in several item
//   sizes to prove that segments spanning items give the same answer;
// - small cases whose scipy values are pasted below (every branch: two-sided, complex input,
//   odd segment, spectrum scaling, no detrend, median of an even count, rows input);
// - the density level of white noise.
#include <tcfft/stages/welch_stage.hpp>

#include <tcfft/core/error.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tcfft::stages {
namespace {

std::string const kStrainFile =
    std::string(TCFFT_SHARED_DATA_DIR) + "/gw150914/H-H1_LOSC_4_V2-1126259446-32.hdf5";

// Reads /strain/Strain and its sample rate (1 / Xspacing) with the HDF5 C API.
bool read_strain(std::vector<double>& strain, double& fs) {
  hid_t const file = H5Fopen(kStrainFile.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return false;
  hid_t const set = H5Dopen2(file, "/strain/Strain", H5P_DEFAULT);
  hid_t const space = H5Dget_space(set);
  strain.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
  herr_t status = H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, strain.data());
  double spacing = 0.0;
  hid_t const attr = H5Aopen(set, "Xspacing", H5P_DEFAULT);
  status = std::min(status, H5Aread(attr, H5T_NATIVE_DOUBLE, &spacing));
  H5Aclose(attr);
  H5Sclose(space);
  H5Dclose(set);
  H5Fclose(file);
  fs = 1.0 / spacing;
  return status >= 0;
}

// One value per line after '#' comment lines.
std::vector<double> read_reference(std::string const& name) {
  std::ifstream in(std::string(TCFFT_SOURCE_DIR) + "/tests/data/" + name);
  std::vector<double> values;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    values.push_back(std::stod(line));
  }
  return values;
}

double max_relative_error(std::vector<double> const& psd, std::vector<double> const& ref) {
  double worst = 0.0;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    worst = std::max(worst, std::abs(psd[k] - ref[k]) / std::abs(ref[k]));
  }
  return worst;
}

// Runs a Welch stage over `x`, cut as a 1-D series source cuts it: items of `item` samples (the
// last zero-padded), `rows_per_frame` items per frame. Returns the frame finish() emits.
template <class T>
Frame run_series(WelchParams const& params, std::vector<T> const& x, std::int64_t item,
                 std::int64_t rows_per_frame, double fs, FrameSpec* out_spec = nullptr) {
  auto const n = static_cast<std::int64_t>(x.size());
  FrameSpec spec;
  spec.type = std::is_same_v<T, double> ? SampleType::kReal : SampleType::kComplex;
  spec.shape = {item};
  spec.rows_per_frame = rows_per_frame;
  spec.total_rows = (n + item - 1) / item;
  spec.sample_rate = fs;
  spec.units = "strain";
  spec.time_length = item;
  spec.series_length = n;
  spec.valid_length = n - (spec.total_rows - 1) * item;
  WelchStage stage(params, FftEngineParams{}, 1);
  auto const out = stage.configure(spec);
  if (out_spec != nullptr) *out_spec = out;
  Frame frame, unused;
  for (std::int64_t first = 0; first < spec.total_rows; first += rows_per_frame) {
    frame.first_row = first;
    frame.resize_for(spec, std::min(rows_per_frame, spec.total_rows - first));
    auto& samples = [&]() -> std::vector<T>& {
      if constexpr (std::is_same_v<T, double>) {
        return frame.real;
      } else {
        return frame.complex;
      }
    }();
    std::fill(samples.begin(), samples.end(), T{});
    auto const begin = first * item;
    auto const end = std::min(n, begin + frame.rows * item);
    std::copy(x.begin() + begin, x.begin() + end, samples.begin());
    EXPECT_FALSE(stage.process(frame, unused));
  }
  Frame result;
  EXPECT_TRUE(stage.finish(result));
  return result;
}

WelchParams ligo_params(std::string const& average) {
  WelchParams p;
  p.segment = 16384;
  p.overlap = 8192;
  p.window = "hann";
  p.average = average;
  p.scaling = "density";
  p.detrend = "constant";
  return p;
}

TEST(WelchAcceptance, LigoStrainMatchesScipyMeanAtEveryFrequency) {
  std::vector<double> strain;
  double fs = 0.0;
  if (!std::filesystem::exists(kStrainFile)) GTEST_SKIP() << "no " << kStrainFile;
  ASSERT_TRUE(read_strain(strain, fs));
  ASSERT_EQ(strain.size(), 131072u);
  ASSERT_EQ(fs, 4096.0);
  auto const ref = read_reference("welch_h1_reference.txt");
  ASSERT_EQ(ref.size(), 8193u);
  struct Cut {
    std::int64_t item, rows_per_frame;
  };
  for (auto cut :
       {Cut{131072, 1}, Cut{10000, 1}, Cut{10000, 3}, Cut{16384, 1}, Cut{16384, 5}, Cut{4096, 7}}) {
    FrameSpec spec;
    auto const psd =
        run_series(ligo_params("mean"), strain, cut.item, cut.rows_per_frame, fs, &spec);
    ASSERT_EQ(psd.rows, 1);
    ASSERT_EQ(psd.real.size(), 8193u);
    double const error = max_relative_error(psd.real, ref);
    std::cout << "[ welch   ] items of " << cut.item << ", " << cut.rows_per_frame
              << " per frame: max relative error vs scipy " << error << "\n";
    EXPECT_LT(error, 1e-6) << "item " << cut.item;
    EXPECT_EQ(spec.shape, std::vector<std::int64_t>{8193});
    EXPECT_TRUE(spec.onesided);
    EXPECT_EQ(spec.domain, Domain::kFrequency);
    EXPECT_EQ(spec.time_length, 16384);
    EXPECT_EQ(spec.total_rows, 1);
    EXPECT_EQ(spec.units, "strain^2/Hz");
  }
}

TEST(WelchAcceptance, LigoStrainMatchesScipyMedian) {
  std::vector<double> strain;
  double fs = 0.0;
  if (!std::filesystem::exists(kStrainFile)) GTEST_SKIP() << "no " << kStrainFile;
  ASSERT_TRUE(read_strain(strain, fs));
  auto const ref = read_reference("welch_h1_median_reference.txt");
  ASSERT_EQ(ref.size(), 8193u);
  for (std::int64_t item : {131072, 10000}) {
    auto const psd = run_series(ligo_params("median"), strain, item, 2, fs);
    double const error = max_relative_error(psd.real, ref);
    std::cout << "[ welch   ] median, items of " << item << ": max relative error " << error
              << "\n";
    EXPECT_LT(error, 1e-6);
  }
}

// x[j] = cos(2 pi 0.1 j) + 0.5 (j mod 7) + 0.001 j^2, j < 64, fs = 10; the expected values are
// scipy.signal.welch(x, fs=10.0, ...) with the arguments named in each case (scipy 1.17.1).
std::vector<double> small_signal() {
  std::vector<double> x(64);
  for (int j = 0; j < 64; ++j) {
    x[static_cast<std::size_t>(j)] = std::cos(2 * M_PI * 0.1 * j) + 0.5 * (j % 7) + 0.001 * j * j;
  }
  return x;
}

void expect_close(std::vector<double> const& psd, std::vector<double> const& ref) {
  ASSERT_EQ(psd.size(), ref.size());
  EXPECT_LT(max_relative_error(psd, ref), 1e-12);
}

WelchParams small_params(std::int64_t segment, std::int64_t overlap) {
  WelchParams p;
  p.segment = segment;
  p.overlap = overlap;
  return p;
}

TEST(WelchSmall, MeanHann) {  // nperseg=16, noverlap=8
  expect_close(run_series(small_params(16, 8), small_signal(), 64, 1, 10.0).real,
               {3.34175126551799970e-02, 5.08660432511879423e-01, 1.01485150365951071e+00,
                3.81014822654932139e-01, 1.44812888916950627e-01, 1.72576308818434970e-01,
                6.10181031973222737e-02, 1.37001780324730177e-01, 2.18203688338560152e-02});
  // The default overlap (-1) is segment / 2, and items of 5 samples change nothing.
  expect_close(run_series(small_params(16, -1), small_signal(), 5, 2, 10.0).real,
               run_series(small_params(16, 8), small_signal(), 64, 1, 10.0).real);
}

TEST(WelchSmall, MedianOddAndEvenCounts) {
  auto p = small_params(16, 4);  // 5 segments
  p.average = "median";
  expect_close(run_series(p, small_signal(), 64, 1, 10.0).real,
               {2.67624086224531148e-02, 5.40367645224447912e-01, 1.07397247935682216e+00,
                4.65960614152806818e-01, 1.87202401426232123e-01, 2.21182465475879747e-01,
                8.63778607671088078e-02, 1.74764568514015922e-01, 3.24611237127986896e-02});
  p.overlap = 0;  // 4 segments: mean of the middle two, bias 1 + 1/3 - 1/2
  expect_close(run_series(p, small_signal(), 7, 3, 10.0).real,
               {5.80723787993031176e-02, 5.76166973780739000e-01, 8.19358619233271468e-01,
                4.56952791738224562e-01, 1.78398328162110126e-01, 2.09859600990352030e-01,
                8.26846774558880476e-02, 1.63194313475297836e-01, 3.07415983363758250e-02});
}

TEST(WelchSmall, OddSegmentSpectrumScalingNoDetrend) {
  // window='hamming', nperseg=15, noverlap=5, detrend=False, scaling='spectrum'
  auto p = small_params(15, 5);
  p.window = "hamming";
  p.detrend = "none";
  p.scaling = "spectrum";
  FrameSpec spec;
  expect_close(run_series(p, small_signal(), 64, 1, 10.0, &spec).real,
               {6.73870482483634436e+00, 3.02714638004653969e+00, 9.11613855333339607e-01,
                2.08191302422401664e-01, 1.80090091666603502e-01, 9.56546633966761928e-02,
                9.95755677614102719e-02, 7.99992316026190420e-02});
  EXPECT_EQ(spec.units, "strain^2");
}

TEST(WelchSmall, TwoSidedRealAndComplexInput) {
  auto p = small_params(16, 8);  // return_onesided=False
  p.onesided = false;
  FrameSpec spec;
  expect_close(run_series(p, small_signal(), 64, 1, 10.0, &spec).real,
               {3.34175126551799970e-02, 2.54330216255939712e-01, 5.07425751829755356e-01,
                1.90507411327466070e-01, 7.24064444584753136e-02, 8.62881544092174851e-02,
                3.05090515986611369e-02, 6.85008901623650884e-02, 2.18203688338560152e-02,
                6.85008901623650884e-02, 3.05090515986611369e-02, 8.62881544092174851e-02,
                7.24064444584753136e-02, 1.90507411327466070e-01, 5.07425751829755356e-01,
                2.54330216255939712e-01});
  EXPECT_FALSE(spec.onesided);
  // z = x + i sin(0.7 j): window='blackman', nperseg=8, noverlap=2 (complex -> two-sided)
  auto const x = small_signal();
  std::vector<std::complex<double>> z(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) z[j] = {x[j], std::sin(0.7 * static_cast<double>(j))};
  auto q = small_params(8, 2);
  q.window = "blackman";
  expect_close(run_series(q, z, 10, 2, 10.0).real,
               {1.99241788752338056e-01, 2.74961780823643309e-01, 1.10274895460576408e-01,
                3.79104870618893197e-02, 3.35572732126859022e-02, 4.16285478281697291e-02,
                1.61486967627393979e-01, 3.80679768220205716e-01});
}

TEST(WelchSmall, RowsAreSeparateSeries) {
  // Two rows items: x and 2x; each gives its own PSD (the second 4 times the first).
  auto const x = small_signal();
  FrameSpec spec;
  spec.shape = {64};
  spec.rows_per_frame = 1;
  spec.total_rows = 2;
  spec.sample_rate = 10.0;
  spec.time_length = 64;
  spec.valid_length = 64;
  WelchStage stage(small_params(16, 8), FftEngineParams{}, 3);
  auto const out_spec = stage.configure(spec);
  EXPECT_EQ(out_spec.total_rows, 2);
  EXPECT_EQ(out_spec.units, "1/Hz");
  Frame frame, result;
  for (int row = 0; row < 2; ++row) {
    frame.first_row = row;
    frame.resize_for(spec, 1);
    for (std::size_t j = 0; j < 64; ++j) frame.real[j] = (row + 1) * x[j];
    EXPECT_FALSE(stage.process(frame, result));
  }
  ASSERT_TRUE(stage.finish(result));
  ASSERT_EQ(result.rows, 2);
  EXPECT_NEAR(result.real[2], 1.01485150365951071e+00, 1e-12);
  EXPECT_NEAR(result.real[9 + 2], 4 * 1.01485150365951071e+00, 1e-12);
}

TEST(WelchNoise, WhiteNoiseDensityLevel) {
  // One-sided density of white noise of variance sigma^2 is 2 sigma^2 / fs.
  double const sigma = 2.0, fs = 1000.0;
  std::mt19937_64 rng(20150914);
  std::normal_distribution<double> normal(0.0, sigma);
  std::vector<double> x(1 << 18);
  for (auto& v : x) v = normal(rng);
  auto const psd = run_series(small_params(1024, 512), x, 50000, 2, fs).real;
  double mean = 0.0;
  for (std::size_t k = 1; k + 1 < psd.size(); ++k) mean += psd[k];
  mean /= static_cast<double>(psd.size() - 2);
  EXPECT_NEAR(mean / (2 * sigma * sigma / fs), 1.0, 0.02);
}

TEST(WelchErrors, ShortSeriesAndBadWords) {
  FrameSpec spec;
  spec.shape = {1000};
  spec.total_rows = 10;
  spec.series_length = 10000;
  spec.sample_rate = 4096.0;
  spec.valid_length = 1000;
  try {
    WelchStage(small_params(16384, 8192), FftEngineParams{}, 1).configure(spec);
    FAIL() << "no error";
  } catch (InputError const& e) {
    std::string const what = e.what();
    EXPECT_NE(what.find("stages[1] (welch)"), std::string::npos) << what;
    EXPECT_NE(what.find("16384"), std::string::npos) << what;
    EXPECT_NE(what.find("10000"), std::string::npos) << what;
  }
  EXPECT_THROW(WelchStage(small_params(256, 256), FftEngineParams{}, 1).configure(spec),
               ConfigError);
  auto p = small_params(256, 128);
  p.average = "mode";
  EXPECT_THROW(WelchStage(p, FftEngineParams{}, 1).configure(spec), ConfigError);
  p = small_params(256, 128);
  p.window = "kaiser";
  EXPECT_THROW(WelchStage(p, FftEngineParams{}, 1).configure(spec), ConfigError);
  spec.domain = Domain::kFrequency;
  EXPECT_THROW(WelchStage(small_params(256, 128), FftEngineParams{}, 1).configure(spec),
               ConfigError);
}

TEST(WelchReport, StrongestLines) {
  // Two tones, 60 Hz strong and 120 Hz weaker, on faint noise.
  double const fs = 1024.0;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 1e-3);
  std::vector<double> x(1 << 14);
  for (std::size_t j = 0; j < x.size(); ++j) {
    double const t = static_cast<double>(j) / fs;
    x[j] = std::sin(2 * M_PI * 60 * t) + 0.1 * std::sin(2 * M_PI * 120 * t) + normal(rng);
  }
  auto p = small_params(1024, 512);
  p.report_peaks = 2;
  FrameSpec spec;
  spec.shape = {static_cast<std::int64_t>(x.size())};
  spec.total_rows = 1;
  spec.series_length = spec.shape[0];
  spec.valid_length = spec.shape[0];
  spec.sample_rate = fs;
  WelchStage stage(p, FftEngineParams{}, 4);
  stage.configure(spec);
  Frame frame, out;
  frame.resize_for(spec, 1);
  frame.real = x;
  stage.process(frame, out);
  ASSERT_TRUE(stage.finish(out));
  auto const report = stage.report();
  EXPECT_EQ(report.rfind("most prominent lines: 60.00 Hz (", 0), 0u) << report;
  EXPECT_NE(report.find(", 120.00 Hz ("), std::string::npos) << report;
}

}  // namespace
}  // namespace tcfft::stages
