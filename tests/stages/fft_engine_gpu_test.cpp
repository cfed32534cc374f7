// SPDX-License-Identifier: MIT
// The GPU FFT engine (fftcore, FP32 and FP16, cufft and auto backends) against the CPU engine
// (FFTW, double): c2c both signs, r2c, c2r, rank 2, short final calls, unsupported sizes, and
// FP16 inputs far outside FP16's range (the engine's per-item power-of-two normalisation); r2c
// and c2r (fftcore's R2C / C2R) also with short calls, far ranges and a last axis of 1 point.
//
// Tolerances (relative L2 against double): FP32 1e-6 (single rounding ~6e-8, a few per pass);
// FP16 1e-3 * (1 + log2(n) / 8) (inputs rounded to FP16 alone give ~3e-4, 2^-11 / sqrt(3)).
// Measured values are printed as "[ measured ]"; on an H200 (CUDA 13.0): cuFFT FP16 4.5e-4
// (n = 8) to 1.8e-3 (n = 65536), tensor-core FP16 2.8e-4 to 3.8e-4, FP32 6e-8 to 2.5e-7, and
// 1.5e-3 for FP16 items of amplitude 1e6 and 1e-8.
#include <tcfft/core/error.hpp>
#include <tcfft/stages/fft_engine.hpp>

#include "common/gpu_test.hpp"
#include "common/reference_dft.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

namespace tcfft::stages {
namespace {

using cd = std::complex<double>;

struct EngineCase {
  std::string backend;
  std::string precision;
  std::vector<std::int64_t> shape;
};

std::string case_name(::testing::TestParamInfo<EngineCase> const& info) {
  std::string name = info.param.precision;
  name += '_';
  name += info.param.backend == "tensor-core" ? "tc" : info.param.backend;
  for (auto extent : info.param.shape) {
    name += '_';
    name += std::to_string(extent);
  }
  return name;
}

// Readable parameters in test listings (ctest shows GetParam() otherwise as raw bytes).
void PrintTo(EngineCase const& c, std::ostream* os) {
  *os << case_name(::testing::TestParamInfo<EngineCase>(c, 0));
}

std::int64_t item_size(std::vector<std::int64_t> const& shape) {
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

double tolerance(std::string const& precision, std::int64_t n) {
  if (precision == "fp32") return 1e-6;
  return 1e-3 * (1.0 + std::log2(static_cast<double>(n)) / 8.0);
}

std::unique_ptr<FftEngine> engine_for(EngineCase const& c, std::int64_t max_rows) {
  FftEngineParams params;
  params.device = Device::kGpu;
  params.backend = c.backend;
  params.precision = c.precision;
  return make_fft_engine(params, c.shape, max_rows);
}

std::unique_ptr<FftEngine> cpu_engine(std::vector<std::int64_t> const& shape,
                                      std::int64_t max_rows) {
  FftEngineParams params;
  params.device = Device::kCpu;
  return make_fft_engine(params, shape, max_rows);
}

void expect_finite(std::vector<cd> const& y) {
  for (std::size_t i = 0; i < y.size(); ++i) {
    ASSERT_TRUE(std::isfinite(y[i].real()) && std::isfinite(y[i].imag())) << "element " << i;
  }
}

class GpuFftEngine : public testing::GpuTestWithParam<EngineCase> {};

TEST_P(GpuFftEngine, C2cR2cC2rMatchTheCpuEngine) {
  EngineCase const c = GetParam();
  constexpr std::int64_t kRows = 3;
  std::int64_t const n = item_size(c.shape);
  std::int64_t const half = n / c.shape.back() * (c.shape.back() / 2 + 1);
  auto gpu = engine_for(c, kRows);
  auto cpu = cpu_engine(c.shape, kRows);
  EXPECT_NE(gpu->describe().find("gpu"), std::string::npos) << gpu->describe();
  EXPECT_EQ(gpu->shape(), c.shape);
  double const tol = tolerance(c.precision, n);

  unsigned seed = 0;
  auto const x = testing::random_complex(static_cast<std::size_t>(kRows * n), seed);
  SCOPED_TRACE(gpu->describe() + ", seed = " + std::to_string(seed));
  std::vector<cd> y_gpu(x.size()), y_cpu(x.size());
  for (int sign : {-1, +1}) {
    gpu->c2c(x.data(), y_gpu.data(), kRows, sign);
    cpu->c2c(x.data(), y_cpu.data(), kRows, sign);
    expect_finite(y_gpu);
    double const err = testing::relative_l2_error(y_gpu, y_cpu);
    std::cout << "[ measured ] " << gpu->describe() << " c2c sign " << sign << ": " << err
              << " (tol " << tol << ")\n";
    EXPECT_LT(err, tol) << "c2c sign " << sign;
  }

  std::vector<double> real(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) real[i] = x[i].real();
  std::vector<cd> h_gpu(static_cast<std::size_t>(kRows * half)), h_cpu(h_gpu.size());
  gpu->r2c(real.data(), h_gpu.data(), kRows);
  cpu->r2c(real.data(), h_cpu.data(), kRows);
  double const r2c_err = testing::relative_l2_error(h_gpu, h_cpu);
  EXPECT_LT(r2c_err, tol) << "r2c";

  std::vector<double> back_gpu(real.size()), back_cpu(real.size());
  gpu->c2r(h_cpu.data(), back_gpu.data(), kRows);
  cpu->c2r(h_cpu.data(), back_cpu.data(), kRows);
  double const c2r_err = testing::relative_l2_error(back_gpu, back_cpu);
  EXPECT_LT(c2r_err, tol) << "c2r";
  std::cout << "[ measured ] " << gpu->describe() << " r2c: " << r2c_err << ", c2r: " << c2r_err
            << '\n';

  // A short final call (fewer items than planned for) plans once more and stays correct.
  gpu->c2c(x.data(), y_gpu.data(), 1, -1);
  cpu->c2c(x.data(), y_cpu.data(), 1, -1);
  y_gpu.resize(static_cast<std::size_t>(n));
  y_cpu.resize(static_cast<std::size_t>(n));
  EXPECT_LT(testing::relative_l2_error(y_gpu, y_cpu), tol) << "one-item call";
}

std::vector<EngineCase> engine_cases() {
  std::vector<EngineCase> all;
  for (std::string backend : {"cufft", "auto"}) {
    for (std::vector<std::int64_t> shape : {std::vector<std::int64_t>{8},
                                            {64},
                                            {4096},
                                            {65536},
                                            {32, 16},
                                            {8, 8}}) {
      all.push_back({backend, "fp16", shape});
      all.push_back({backend, "fp32", shape});
    }
    for (std::vector<std::int64_t> shape : {std::vector<std::int64_t>{1000},
                                            {97},
                                            {6, 10},
                                            {7, 9}}) {
      all.push_back({backend, "fp32", shape});  // FP32 takes any size
    }
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(Backends, GpuFftEngine, ::testing::ValuesIn(engine_cases()), case_name);

// Relative L2 error of item `item` (`size` values from item * size) of y against ref.
template <class T>
double item_error(std::vector<T> const& y, std::vector<T> const& ref, std::int64_t item,
                  std::int64_t size) {
  auto const first = static_cast<std::ptrdiff_t>(item * size);
  auto const last = first + static_cast<std::ptrdiff_t>(size);
  return testing::relative_l2_error(std::vector<T>(y.begin() + first, y.begin() + last),
                                    std::vector<T>(ref.begin() + first, ref.begin() + last));
}

class GpuFftEngineReal : public testing::GpuTestWithParam<EngineCase> {};

// r2c and c2r run fftcore's R2C / C2R plans (a last axis of 1 point, which those refuse, the
// complex plan): calls with all, one and two of the planned items (a plan per kind and item
// count), a c2c call between them on the same engine, and items of amplitude 1, 1e6 and 1e-8,
// which FP16 holds only through the engine's per-item power-of-two normalisation.
TEST_P(GpuFftEngineReal, ShortCallsMixedKindsAndFarRangesMatchTheCpuEngine) {
  EngineCase const c = GetParam();
  constexpr std::int64_t kRows = 3;
  double const amplitude[kRows] = {1.0, 1e6, 1e-8};
  std::int64_t const n = item_size(c.shape);
  std::int64_t const half = n / c.shape.back() * (c.shape.back() / 2 + 1);
  auto gpu = engine_for(c, kRows);
  auto cpu = cpu_engine(c.shape, kRows);
  double const tol = tolerance(c.precision, n);

  unsigned seed = 0;
  auto const z = testing::random_complex(static_cast<std::size_t>(kRows * n), seed);
  SCOPED_TRACE(gpu->describe() + ", seed = " + std::to_string(seed));
  std::vector<double> x(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    x[i] = z[i].real() * amplitude[i / static_cast<std::size_t>(n)];
  }
  std::vector<cd> h_gpu(static_cast<std::size_t>(kRows * half)), h_cpu(h_gpu.size());
  std::vector<cd> y_gpu(z.size()), y_cpu(z.size());
  std::vector<double> back_gpu(x.size()), back_cpu(x.size());
  for (std::int64_t rows : {kRows, std::int64_t{1}, std::int64_t{2}}) {
    gpu->r2c(x.data(), h_gpu.data(), rows);
    cpu->r2c(x.data(), h_cpu.data(), rows);
    gpu->c2c(z.data(), y_gpu.data(), rows, -1);
    cpu->c2c(z.data(), y_cpu.data(), rows, -1);
    gpu->c2r(h_cpu.data(), back_gpu.data(), rows);
    cpu->c2r(h_cpu.data(), back_cpu.data(), rows);
    for (std::int64_t item = 0; item < rows; ++item) {
      std::string const where = std::to_string(rows) + " items, item " + std::to_string(item);
      double const r2c_err = item_error(h_gpu, h_cpu, item, half);
      double const c2r_err = item_error(back_gpu, back_cpu, item, n);
      std::cout << "[ measured ] " << gpu->describe() << ", " << where << " (amplitude "
                << amplitude[item] << "): r2c " << r2c_err << ", c2r " << c2r_err << '\n';
      EXPECT_LT(r2c_err, tol) << "r2c of " << where;
      EXPECT_LT(item_error(y_gpu, y_cpu, item, n), tol) << "c2c of " << where;
      EXPECT_LT(c2r_err, tol) << "c2r of " << where;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    RealKinds, GpuFftEngineReal,
    ::testing::Values(EngineCase{"auto", "fp16", {4096}},
                      EngineCase{"tensor-core", "fp16", {64, 32}},
                      EngineCase{"cufft", "fp16", {1024}}, EngineCase{"cufft", "fp16", {16, 8}},
                      EngineCase{"cufft", "fp32", {1000}}, EngineCase{"auto", "fp32", {7, 9}},
                      EngineCase{"auto", "fp16", {16, 1}}, EngineCase{"cufft", "fp32", {5, 1}},
                      EngineCase{"auto", "fp16", {1}}),
    case_name);

class GpuFftEngineRange : public testing::GpuTest {};

// FP16 holds +-65504 and normal values down to 6e-5: inputs of 1e6 and of 1e-8 must still be
// transformed accurately, because the engine normalises each item by a power of two first.
TEST_F(GpuFftEngineRange, Fp16LargeAndTinyAmplitudesStayFiniteAndAccurate) {
  constexpr std::int64_t kN = 4096;
  FftEngineParams params;
  params.device = Device::kGpu;
  params.backend = "cufft";
  params.precision = "fp16";
  auto gpu = make_fft_engine(params, {kN}, 2);
  auto cpu = cpu_engine({kN}, 2);
  unsigned seed = 0;
  auto x = testing::random_complex(2 * kN, seed);
  for (std::int64_t i = 0; i < kN; ++i) x[static_cast<std::size_t>(i)] *= 1e6;        // item 0
  for (std::int64_t i = kN; i < 2 * kN; ++i) x[static_cast<std::size_t>(i)] *= 1e-8;  // item 1
  x[0] = {1e6, 1e6};  // and a DC-heavy item 0
  std::vector<cd> y_gpu(x.size()), y_cpu(x.size());
  gpu->c2c(x.data(), y_gpu.data(), 2, -1);
  cpu->c2c(x.data(), y_cpu.data(), 2, -1);
  expect_finite(y_gpu);
  for (int item = 0; item < 2; ++item) {
    std::vector<cd> a(y_gpu.begin() + item * kN, y_gpu.begin() + (item + 1) * kN);
    std::vector<cd> b(y_cpu.begin() + item * kN, y_cpu.begin() + (item + 1) * kN);
    double const err = testing::relative_l2_error(a, b);
    std::cout << "[ measured ] fp16 item " << item << " (amplitude " << (item == 0 ? 1e6 : 1e-8)
              << "): " << err << '\n';
    EXPECT_LT(err, tolerance("fp16", kN)) << "item " << item << ", seed " << seed;
  }
  // A unit DC input whose unnormalised spectrum (n = 2^16) is far beyond FP16's range.
  auto dc_engine = make_fft_engine(params, {65536}, 1);
  std::vector<cd> const dc(65536, cd(1.0, 0.0));
  std::vector<cd> spectrum(dc.size());
  dc_engine->c2c(dc.data(), spectrum.data(), 1, -1);
  expect_finite(spectrum);
  EXPECT_NEAR(spectrum[0].real(), 65536.0, 65536.0 * 1e-3);
}

TEST_F(GpuFftEngineRange, AllZeroInputGivesZeros) {
  FftEngineParams params;
  params.device = Device::kGpu;
  params.backend = "cufft";
  params.precision = "fp16";
  auto gpu = make_fft_engine(params, {256}, 1);
  std::vector<cd> const x(256, cd(0.0, 0.0));
  std::vector<cd> y(256, cd(1.0, 1.0));
  gpu->c2c(x.data(), y.data(), 1, -1);
  for (auto const& v : y) EXPECT_EQ(v, cd(0.0, 0.0));
}

// Refused before any device work, so these also hold without a GPU (kept here beside the
// engine's other GPU behaviour; the CPU suite checks the message too).
TEST(GpuFftEngineSizes, UnsupportedSizesThrowFftErrorNamingTheSize) {
  FftEngineParams params;
  params.device = Device::kGpu;
  params.precision = "fp16";
  for (std::string backend : {"cufft", "auto"}) {
    params.backend = backend;
    try {
      (void)make_fft_engine(params, {1000}, 2);
      ADD_FAILURE() << "expected FftError for fp16 n = 1000 on " << backend;
    } catch (FftError const& e) {
      std::string const what = e.what();
      std::cout << "[ message ] " << what << '\n';
      EXPECT_NE(what.find("1000"), std::string::npos) << what;
      EXPECT_NE(what.find(backend), std::string::npos) << what;
    }
  }
  params.backend = "cufft";
  EXPECT_THROW((void)make_fft_engine(params, {64, 48}, 1), FftError);
  params.precision = "fp64";
  EXPECT_THROW((void)make_fft_engine(params, {64}, 1), ConfigError);
}

}  // namespace
}  // namespace tcfft::stages
