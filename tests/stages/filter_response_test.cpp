// SPDX-License-Identifier: MIT
// The filter stage's response math: corner values, monotonicity, order, band shapes, the 2-D
// radial frequency, and the errors a configuration can hit.
#include <tcfft/stages/filter_response.hpp>

#include <tcfft/core/error.hpp>

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace tcfft::stages {
namespace {

ResponseParams butterworth(FilterBand band, double cutoff, int order = 4) {
  ResponseParams p;
  p.band = band;
  p.cutoff = cutoff;
  p.order = order;
  return p;
}

TEST(FilterResponse, ButterworthIsMinus3dBAtTheCorner) {
  for (int order : {1, 2, 4, 8}) {
    EXPECT_NEAR(butterworth_lowpass(100.0, 100.0, order), 1.0 / std::sqrt(2.0), 1e-15);
    EXPECT_NEAR(butterworth_highpass(100.0, 100.0, order), 1.0 / std::sqrt(2.0), 1e-15);
    EXPECT_NEAR(20.0 * std::log10(butterworth_lowpass(-100.0, 100.0, order)), -3.0103, 1e-4);
  }
  EXPECT_DOUBLE_EQ(butterworth_lowpass(0.0, 100.0, 4), 1.0);
  EXPECT_DOUBLE_EQ(butterworth_highpass(0.0, 100.0, 4), 0.0);
}

TEST(FilterResponse, ButterworthIsMonotonic) {
  double previous_low = 2.0, previous_high = -1.0;
  for (int i = 0; i <= 2048; ++i) {
    double const f = i * 1.0;
    double const low = butterworth_lowpass(f, 300.0, 4);
    double const high = butterworth_highpass(f, 300.0, 4);
    EXPECT_LE(low, previous_low) << f;
    EXPECT_GE(high, previous_high) << f;
    EXPECT_NEAR(low * low + high * high, 1.0, 1e-12) << f;  // power complementary
    previous_low = low;
    previous_high = high;
  }
}

TEST(FilterResponse, HigherOrderIsSteeper) {
  // Beyond the corner a higher order attenuates more; below it it passes more.
  EXPECT_LT(butterworth_lowpass(200.0, 100.0, 8), butterworth_lowpass(200.0, 100.0, 2));
  EXPECT_GT(butterworth_lowpass(50.0, 100.0, 8), butterworth_lowpass(50.0, 100.0, 2));
  // An octave above the corner: 1/sqrt(1 + 2^(2n)), about -6n dB.
  EXPECT_NEAR(20 * std::log10(butterworth_lowpass(200.0, 100.0, 4)), -10 * std::log10(257.0),
              1e-12);
}

TEST(FilterResponse, GaussianAtTheCorner) {
  EXPECT_NEAR(gaussian_lowpass(10.0, 10.0), std::exp(-0.5), 1e-15);
  EXPECT_NEAR(gaussian_highpass(10.0, 10.0), 1.0 - std::exp(-0.5), 1e-15);
  EXPECT_DOUBLE_EQ(gaussian_highpass(0.0, 10.0), 0.0);
  ResponseParams p;
  p.shape = FilterShape::kGaussian;
  p.cutoff = 10.0;
  EXPECT_NEAR(response_gain(p, -10.0), std::exp(-0.5), 1e-15);
}

TEST(FilterResponse, BandpassPeaksInTheBand) {
  ResponseParams p;
  p.band = FilterBand::kBandpass;
  p.low = 35.0;
  p.high = 350.0;
  double const centre = std::sqrt(35.0 * 350.0);
  EXPECT_GT(response_gain(p, centre), 0.99);
  EXPECT_NEAR(response_gain(p, 35.0), 1.0 / std::sqrt(2.0), 1e-3);
  EXPECT_NEAR(response_gain(p, 350.0), 1.0 / std::sqrt(2.0), 1e-3);
  EXPECT_LT(response_gain(p, 5.0), 1e-3);
  EXPECT_LT(response_gain(p, 2000.0), 1e-3);
  EXPECT_EQ(response_gain(p, 0.0), 0.0);

  p.band = FilterBand::kBandstop;
  p.low = 55.0;
  p.high = 65.0;
  EXPECT_LT(response_gain(p, 60.0), 1e-5);
  EXPECT_EQ(response_gain(p, std::sqrt(55.0 * 65.0)), 0.0);
  EXPECT_NEAR(response_gain(p, 55.0), 1.0 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(response_gain(p, 65.0), 1.0 / std::sqrt(2.0), 1e-12);
  EXPECT_DOUBLE_EQ(response_gain(p, 0.0), 1.0);
  EXPECT_GT(response_gain(p, 1000.0), 0.999);
  p.shape = FilterShape::kGaussian;
  EXPECT_NEAR(response_gain(p, 60.0),
              1.0 - gaussian_lowpass(60.0, 65.0) * gaussian_highpass(60.0, 55.0), 1e-15);
}

TEST(FilterResponse, BinFrequenciesFollowFftfreq) {
  EXPECT_DOUBLE_EQ(bin_frequency(0, 8, 8.0), 0.0);
  EXPECT_DOUBLE_EQ(bin_frequency(3, 8, 8.0), 3.0);
  EXPECT_DOUBLE_EQ(bin_frequency(4, 8, 8.0), 4.0);
  EXPECT_DOUBLE_EQ(bin_frequency(5, 8, 8.0), -3.0);
  EXPECT_DOUBLE_EQ(bin_frequency(4, 7, 7.0), -3.0);
}

FrameSpec frequency_spec(std::vector<std::int64_t> shape, std::int64_t time_length,
                         std::int64_t time_rows, bool onesided, double fs) {
  FrameSpec s;
  s.type = SampleType::kComplex;
  s.domain = Domain::kFrequency;
  s.shape = std::move(shape);
  s.time_length = time_length;
  s.time_rows = time_rows;
  s.onesided = onesided;
  s.sample_rate = fs;
  return s;
}

TEST(FilterResponse, RadialFrequencyIn2D) {
  // 16 x 16 image, one-sided along x: bins {16, 9}; cycles/pixel (fs = 1).
  auto const spec = frequency_spec({16, 9}, 16, 16, true, 1.0);
  auto const p = butterworth(FilterBand::kLowpass, 0.25, 4);
  auto const gains = response_gains(p, spec, "test");
  ASSERT_EQ(gains.size(), 16u * 9u);
  auto const at = [&](int y, int x) { return gains[static_cast<std::size_t>(y * 9 + x)]; };
  EXPECT_DOUBLE_EQ(at(0, 0), 1.0);
  EXPECT_NEAR(at(0, 4), 1.0 / std::sqrt(2.0), 1e-15);   // fx = 0.25
  EXPECT_NEAR(at(4, 0), 1.0 / std::sqrt(2.0), 1e-15);   // fy = 0.25
  EXPECT_NEAR(at(12, 0), 1.0 / std::sqrt(2.0), 1e-15);  // fy = -0.25
  EXPECT_NEAR(at(3, 3), butterworth_lowpass(std::hypot(3.0 / 16, 3.0 / 16), 0.25, 4), 1e-15);
  // Rows transformed alone (time_rows 0): every row has the same 1-D gains.
  auto const rows = response_gains(p, frequency_spec({16, 9}, 16, 0, true, 1.0), "test");
  EXPECT_DOUBLE_EQ(rows[5 * 9 + 4], rows[4]);
  EXPECT_NEAR(rows[5 * 9 + 4], 1.0 / std::sqrt(2.0), 1e-15);
}

TEST(FilterResponse, CornerAboveNyquistIsRejected) {
  auto const p = butterworth(FilterBand::kLowpass, 3000.0);
  try {
    check_response(p, 4096.0, "stages[2] (filter)");
    FAIL() << "no error";
  } catch (ConfigError const& e) {
    std::string const what = e.what();
    EXPECT_NE(what.find("stages[2] (filter)"), std::string::npos) << what;
    EXPECT_NE(what.find("cutoff 3000"), std::string::npos) << what;
    EXPECT_NE(what.find("Nyquist frequency 2048"), std::string::npos) << what;
  }
  ResponseParams band;
  band.band = FilterBand::kBandpass;
  band.low = 100.0;
  band.high = 2100.0;
  EXPECT_THROW(check_response(band, 4096.0, "f"), ConfigError);
  band.high = 50.0;  // low above high
  EXPECT_THROW(check_response(band, 4096.0, "f"), ConfigError);
  EXPECT_THROW(check_response(butterworth(FilterBand::kHighpass, 0.0), 4096.0, "f"), ConfigError);
  EXPECT_THROW(check_response(butterworth(FilterBand::kHighpass, 10.0, 0), 4096.0, "f"),
               ConfigError);
  EXPECT_NO_THROW(check_response(butterworth(FilterBand::kLowpass, 2048.0), 4096.0, "f"));
}

// Writes a float64 dataset of `n` values to a fresh file and returns its path.
std::string write_gains_file(std::size_t n) {
  auto const path = (std::filesystem::temp_directory_path() /
                     ("tcfft_filter_response_" + std::to_string(::getpid()) + ".h5"))
                        .string();
  hid_t const file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t const dims[1] = {n};
  hid_t const space = H5Screate_simple(1, dims, nullptr);
  hid_t const set =
      H5Dcreate2(file, "gains", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = 0.5 * static_cast<double>(i);
  H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(set);
  H5Sclose(space);
  H5Fclose(file);
  return path;
}

TEST(FilterResponse, ResponseFileLengths) {
  auto const path = write_gains_file(9);
  auto const values = read_response_file(path, "gains", "stages[1] (filter)");
  ASSERT_EQ(values.size(), 9u);
  EXPECT_DOUBLE_EQ(values[4].real(), 2.0);
  // 9 values: one per bin of the last axis of a one-sided 16-point spectrum, repeated per row.
  auto const fitted =
      fit_response_to_item(values, frequency_spec({4, 9}, 16, 4, true, 1.0), path, "gains", "f");
  ASSERT_EQ(fitted.size(), 36u);
  EXPECT_DOUBLE_EQ(fitted[9 + 4].real(), 2.0);
  // ... but not for a 32-point spectrum (17 bins).
  try {
    (void)fit_response_to_item(values, frequency_spec({17}, 32, 0, true, 1.0), path, "gains",
                               "stages[1] (filter)");
    FAIL() << "no error";
  } catch (ConfigError const& e) {
    std::string const what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("gains"), std::string::npos) << what;
    EXPECT_NE(what.find(" 9 "), std::string::npos) << what;
    EXPECT_NE(what.find("17"), std::string::npos) << what;
  }
  EXPECT_THROW((void)read_response_file(path, "missing", "f"), InputError);
  EXPECT_THROW((void)read_response_file(path + ".absent", "gains", "f"), InputError);
  std::filesystem::remove(path);
}

TEST(FilterResponse, ComplexResponseFile) {
  // Complex values as h5py writes them: compound {r, i} of float64.
  auto const path = (std::filesystem::temp_directory_path() /
                     ("tcfft_filter_complex_" + std::to_string(::getpid()) + ".h5"))
                        .string();
  hid_t const file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t const type = H5Tcreate(H5T_COMPOUND, 16);
  H5Tinsert(type, "r", 0, H5T_NATIVE_DOUBLE);
  H5Tinsert(type, "i", 8, H5T_NATIVE_DOUBLE);
  hsize_t const dims[1] = {3};
  hid_t const space = H5Screate_simple(1, dims, nullptr);
  hid_t const set =
      H5Dcreate2(file, "/response", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  double const values[6] = {1.0, 0.0, 0.5, -0.5, 0.0, 2.0};
  H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  H5Dclose(set);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
  auto const response = read_response_file(path, "/response", "f");
  ASSERT_EQ(response.size(), 3u);
  EXPECT_EQ(response[1], std::complex<double>(0.5, -0.5));
  EXPECT_EQ(response[2], std::complex<double>(0.0, 2.0));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tcfft::stages
