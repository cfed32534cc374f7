// SPDX-License-Identifier: MIT
// The parts of the GPU streaming path that need no GPU: the raw read of H5Source, the raw
// write of OutputFile, the sample conversion reference functions the kernels use, and the
// negotiation of make_gpu_chain (specs equal the host stages', welch forces the host path).
#include <tcfft/core/error.hpp>
#include <tcfft/gpu/gpu_chain.hpp>
#include <tcfft/gpu/line_cursor.hpp>
#include <tcfft/gpu/sample_convert.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/io/h5_source.hpp>
#include <tcfft/stages/stage_factory.hpp>

#include "stages/h5_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace tcfft::gpu {
namespace {

using test::source_params;
using test::TempDir;

TEST(SampleConvert, LoadsEveryRawDtype) {
  std::int16_t const i16[] = {-32768, 32767};
  std::uint16_t const u16[] = {65535};
  std::int32_t const i32[] = {-7};
  float const f32[] = {1.5f, -2.25f};
  double const f64[] = {3.0e-21};
  float const c64[] = {1.0f, -2.0f, 3.0f, 4.0f};
  double const c128[] = {5.0, 6.0};
  EXPECT_EQ(load_raw(RawDtype::kInt16, i16, 0).re, -32768.0);
  EXPECT_EQ(load_raw(RawDtype::kInt16, i16, 1).re, 32767.0);
  EXPECT_EQ(load_raw(RawDtype::kUint16, u16, 0).re, 65535.0);
  EXPECT_EQ(load_raw(RawDtype::kInt32, i32, 0).re, -7.0);
  EXPECT_EQ(load_raw(RawDtype::kFloat32, f32, 1).re, -2.25);
  EXPECT_EQ(load_raw(RawDtype::kFloat32, f32, 1).im, 0.0);
  EXPECT_EQ(load_raw(RawDtype::kFloat64, f64, 0).re, 3.0e-21);
  auto const c = load_raw(RawDtype::kComplex64, c64, 1);
  EXPECT_EQ(c.re, 3.0);
  EXPECT_EQ(c.im, 4.0);
  EXPECT_EQ(load_raw(RawDtype::kComplex128, c128, 0).im, 6.0);
  EXPECT_EQ(raw_bytes(RawDtype::kComplex128), 16u);
  EXPECT_EQ(parse_raw_dtype("uint16"), RawDtype::kUint16);
  EXPECT_FALSE(parse_raw_dtype("int8").has_value());
}

// The kernels' grid-stride index walk equals division at every element, for steps below and
// above a line, lines of 1 element, and items of one line or many (random cases too).
TEST(LineCursor, EqualsDivisionAtEveryStep) {
  std::mt19937_64 gen(std::random_device{}());
  struct Case {
    std::int64_t first, step, width, ny;
  };
  std::vector<Case> cases{{0, 1, 1, 1},      {5, 7, 3, 4},       {3, 4096, 513, 64},
                          {1000, 256, 1025, 1}, {0, 1 << 22, 17, 64}, {31, 33, 32, 2}};
  for (int k = 0; k < 200; ++k) {
    std::int64_t const width = 1 + static_cast<std::int64_t>(gen() % 5000);
    cases.push_back({static_cast<std::int64_t>(gen() % 100000),
                     1 + static_cast<std::int64_t>(gen() % 300000), width,
                     1 + static_cast<std::int64_t>(gen() % 200)});
  }
  for (auto const& c : cases) {
    LineCursor at(c.first, c.step, c.width, c.ny);
    std::int64_t i = c.first;
    for (int n = 0; n < 500; ++n, i += c.step, at.advance()) {
      ASSERT_EQ(at.line, i / c.width) << c.first << " " << c.step << " " << c.width << " " << n;
      ASSERT_EQ(at.x, i % c.width) << c.first << " " << c.step << " " << c.width << " " << n;
      ASSERT_EQ(at.y, (i / c.width) % c.ny) << c.first << " " << c.step << " " << c.ny << " " << n;
    }
  }
}

TEST(SampleConvert, RangeExponentsKeepFp16InputsBelowOne) {
  for (double m : {1e-21, 0.3, 1.0, 1.5, 65504.0, 1e30}) {
    int const e = unit_exponent(m);
    EXPECT_LT(std::ldexp(m, -e), 1.0) << m;
    EXPECT_GE(std::ldexp(m, -e), 0.5) << m;
  }
  EXPECT_EQ(unit_exponent(0.0), 0);
  EXPECT_EQ(unit_exponent(std::numeric_limits<double>::infinity()), 0);
  EXPECT_LE(std::ldexp(32768.0, -static_exponent(RawDtype::kInt16)), 1.0);
  EXPECT_LE(std::ldexp(65535.0, -static_exponent(RawDtype::kUint16)), 1.0);
  EXPECT_FALSE(is_finite({std::nan(""), 0.0}));
  EXPECT_FALSE(is_finite({0.0, -std::numeric_limits<double>::infinity()}));
}

TEST(SampleConvert, ElementOpsAndStores) {
  Complex const v{3.0, -4.0};
  EXPECT_DOUBLE_EQ(apply_element_op(v, ElementOp::kMagnitude, false).re, 5.0);
  EXPECT_DOUBLE_EQ(apply_element_op(v, ElementOp::kPower, false).re, 25.0);
  EXPECT_DOUBLE_EQ(apply_element_op(v, ElementOp::kDb, false).re, 10.0 * std::log10(25.0));
  EXPECT_DOUBLE_EQ(apply_element_op({0, 0}, ElementOp::kDb, false).re, -3000.0);
  EXPECT_DOUBLE_EQ(apply_element_op(v, ElementOp::kNone, true).im, 0.0);
  float f[4] = {};
  store_out(OutDtype::kComplex64, f, 1, v);
  EXPECT_EQ(f[2], 3.0f);
  EXPECT_EQ(f[3], -4.0f);
  double d[2] = {};
  store_out(OutDtype::kFloat64, d, 1, v);
  EXPECT_EQ(d[1], 3.0);
  EXPECT_EQ(parse_out_dtype("complex128"), OutDtype::kComplex128);
}

TEST(H5SourceRaw, ReadsFileBytesWithZeroPaddingAndSharesTheCursor) {
  TempDir dir;
  auto const path = dir.file("in.h5");
  std::vector<std::int16_t> values(10);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int16_t>(i * 100 - 300);
  test::write_dataset(path, "/x", H5T_STD_I16LE, {10}, H5T_NATIVE_INT16, values.data());
  auto p = source_params(path, "/x");
  p.segment = 4;
  p.rows_per_frame = 2;
  p.scale = 2.0;  // not applied by the raw read
  io::H5Source source(p);
  EXPECT_EQ(source.raw_element_bytes(), 2u);
  std::vector<std::int16_t> buffer(8, 99);
  Frame frame;
  ASSERT_TRUE(source.read_raw(frame, buffer.data(), buffer.size() * 2));
  EXPECT_EQ(frame.index, 0);
  EXPECT_EQ(frame.rows, 2);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(buffer[static_cast<std::size_t>(i)], values[static_cast<std::size_t>(i)]);
  ASSERT_TRUE(source.read_raw(frame, buffer.data(), buffer.size() * 2));
  EXPECT_EQ(frame.index, 1);
  EXPECT_EQ(frame.first_row, 2);
  EXPECT_EQ(frame.rows, 1);
  EXPECT_EQ(buffer[0], values[8]);
  EXPECT_EQ(buffer[1], values[9]);
  EXPECT_EQ(buffer[2], 0);  // padding of the short final segment
  EXPECT_EQ(buffer[3], 0);
  EXPECT_FALSE(source.read_raw(frame, buffer.data(), buffer.size() * 2));
  EXPECT_EQ(source.bytes_read(), 20);
  source.rewind();
  ASSERT_TRUE(source.read(frame));  // the checked read continues from the same cursor
  EXPECT_EQ(frame.real[1], 2.0 * values[1]);
}

TEST(H5SourceRaw, ComplexRowsOf3DDatasetAndNonfiniteMessage) {
  TempDir dir;
  auto const path = dir.file("c.h5");
  std::vector<std::complex<float>> values(2 * 3 * 4);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = {float(i), -float(i)};
  values[13] = {std::nanf(""), 0.0f};
  test::TypeId const file_type(test::make_h5py_complex(H5T_IEEE_F32LE));
  test::TypeId const mem_type(test::make_h5py_complex(H5T_NATIVE_FLOAT));
  test::write_dataset(path, "/c", file_type, {2, 3, 4}, mem_type, values.data());
  auto p = source_params(path, "/c");
  p.items = "rows";
  p.rows_per_frame = 4;
  io::H5Source source(p);
  EXPECT_EQ(source.raw_element_bytes(), 8u);
  std::vector<std::complex<float>> buffer(16);
  Frame frame;
  ASSERT_TRUE(source.read_raw(frame, buffer.data(), buffer.size() * 8));
  ASSERT_TRUE(source.read_raw(frame, buffer.data(), buffer.size() * 8));
  EXPECT_EQ(frame.first_row, 4);
  EXPECT_EQ(buffer[0], values[16]);
  EXPECT_EQ(buffer[7], values[23]);
  // The message the checked read gives for values[13]: frame 0 (first_row 0), index 13.
  io::H5Source checked(p);
  std::string expected;
  try {
    while (checked.read(frame)) {
    }
  } catch (InputError const& e) {
    expected = e.what();
  }
  ASSERT_FALSE(expected.empty());
  try {
    source.throw_nonfinite(0, 13, std::nan(""), 0.0);
  } catch (InputError const& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  EXPECT_NE(expected.find("[1, 0, 1]"), std::string::npos) << expected;
}

TEST(OutputFileRaw, WritesConvertedRowsAndTrimsSeriesPadding) {
  TempDir dir;
  auto const path = dir.file("out.h5");
  OutputParams op;
  op.path = path;
  io::OutputFile out(op, "test");
  FrameSpec spec;
  spec.shape = {4};
  spec.total_rows = 3;
  spec.rows_per_frame = 2;
  spec.time_length = 4;
  spec.valid_length = 2;
  spec.series_length = 10;
  SinkParams f32;
  f32.dataset = "/series";
  f32.dtype = "float32";
  int const a = out.add_dataset(f32, spec);
  EXPECT_EQ(out.dataset_dtype(a), "float32");
  FrameSpec cspec = spec;
  cspec.type = SampleType::kComplex;
  cspec.series_length = 0;
  SinkParams c64;
  c64.dataset = "/rows";
  c64.dtype = "auto";
  int const b = out.add_dataset(c64, cspec);
  EXPECT_EQ(out.dataset_dtype(b), "complex128");
  std::vector<float> first{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<float> last{8, 9, -1, -1};
  out.write_raw(a, 0, 0, 2, first.data());
  out.write_raw(a, 1, 2, 1, last.data());
  std::vector<std::complex<double>> rows(12);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = {double(i), 1.0};
  out.write_raw(b, 0, 0, 3, rows.data());
  EXPECT_THROW(out.write_raw(a, 2, 3, 1, last.data()), IoError);
  out.commit();
  auto const series = test::read_doubles(path, "/series");
  ASSERT_EQ(series.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(series[i], double(i));
  auto const back = test::read_complex(path, "/rows");
  ASSERT_EQ(back.size(), 12u);
  EXPECT_EQ(back[11], std::complex<double>(11.0, 1.0));
}

// ---- make_gpu_chain: host-side negotiation -------------------------------------------------

StageConfig stage(std::string kind, int index, StageParams params) {
  return StageConfig{std::move(kind), index, std::move(params)};
}

GpuSourceSpec series_source(std::string dtype) {
  GpuSourceSpec s;
  s.frame.shape = {1024};
  s.frame.total_rows = 10;
  s.frame.rows_per_frame = 4;
  s.frame.sample_rate = 1000.0;
  s.frame.time_length = 1024;
  s.frame.valid_length = 100;
  s.frame.series_length = 9 * 1024 + 100;
  s.dtype = std::move(dtype);
  return s;
}

/// The specs the host stages give for the same chain (CPU engines, no device).
std::vector<FrameSpec> host_specs(std::vector<StageConfig> const& stages, FrameSpec spec) {
  FftEngineParams cpu;
  cpu.device = Device::kCpu;
  std::vector<FrameSpec> at_sinks;
  for (auto const& s : stages) {
    if (std::holds_alternative<SinkParams>(s.params)) {
      at_sinks.push_back(spec);
      continue;
    }
    spec = stages::make_processing_stage(s, cpu)->configure(spec);
  }
  return at_sinks;
}

void expect_same_spec(FrameSpec const& a, FrameSpec const& b) {
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.domain, b.domain);
  EXPECT_EQ(a.shape, b.shape);
  EXPECT_EQ(a.onesided, b.onesided);
  EXPECT_EQ(a.time_length, b.time_length);
  EXPECT_EQ(a.time_rows, b.time_rows);
  EXPECT_EQ(a.valid_length, b.valid_length);
  EXPECT_EQ(a.units, b.units);
  EXPECT_EQ(a.total_rows, b.total_rows);
}

TEST(MakeGpuChain, FftFilterIfftSpecsEqualTheHostStages) {
  FftParams fft;
  fft.window = "hann";
  FilterParams band;
  band.type = "bandpass";
  band.low = 50;
  band.high = 200;
  SpectrumParams power;
  std::vector<StageConfig> const stages{
      stage("fft", 0, fft),      stage("sink", 1, SinkParams{"/spec", "complex64"}),
      stage("filter", 2, band),  stage("ifft", 3, IfftParams{}),
      stage("sink", 4, SinkParams{"/filtered", "float32"})};
  FftEngineParams engine;
  engine.device = Device::kGpu;
  engine.precision = "fp32";
  std::string reason;
  auto const source = series_source("float32");
  auto chain = make_gpu_chain(stages, engine, source, reason);
  ASSERT_NE(chain, nullptr) << reason;
  auto const expected = host_specs(stages, source.frame);
  ASSERT_EQ(chain->sinks().size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) expect_same_spec(chain->sinks()[k].spec, expected[k]);
  EXPECT_EQ(chain->sinks()[1].spec.valid_length, 100);
  std::vector<std::string> const names{"convert", "stages[0] (fft)", "stages[1] (sink)",
                                       "stages[2] (filter)", "stages[3] (ifft)",
                                       "stages[4] (sink)"};
  EXPECT_EQ(chain->op_names(), names);
  EXPECT_EQ(chain->raw_frame_bytes(), 4u * 1024u * 4u);
  // Real input, one-sided fft: R2C / C2R; float real samples, then 513 float2 bins per item.
  EXPECT_TRUE(chain->real_transforms());
  EXPECT_NE(chain->describe().find("R2C"), std::string::npos) << chain->describe();
  EXPECT_EQ(chain->work_frame_bytes(), 4u * 1024u * 4u + 4u * 513u * 8u);
  // The complex form when asked: full items of float2.
  engine.real_transforms = false;
  auto complex_chain = make_gpu_chain(stages, engine, source, reason);
  ASSERT_NE(complex_chain, nullptr) << reason;
  EXPECT_FALSE(complex_chain->real_transforms());
  EXPECT_EQ(complex_chain->work_frame_bytes(), 4u * 1024u * 8u);
  for (std::size_t k = 0; k < 2; ++k) {
    expect_same_spec(complex_chain->sinks()[k].spec, expected[k]);
  }
}

TEST(MakeGpuChain, RealInputStaysRealOnlyWhereEveryFftIsOneSided) {
  FftEngineParams engine;
  engine.device = Device::kGpu;
  engine.precision = "fp16";
  std::string reason;
  FftParams two_sided;
  two_sided.onesided = false;
  std::vector<StageConfig> const full{stage("fft", 0, two_sided), stage("ifft", 1, IfftParams{}),
                                      stage("sink", 2, SinkParams{"/x", "float32"})};
  auto chain = make_gpu_chain(full, engine, series_source("float32"), reason);
  ASSERT_NE(chain, nullptr) << reason;
  EXPECT_FALSE(chain->real_transforms());  // a two-sided spectrum needs the full items
  EXPECT_EQ(chain->work_frame_bytes(), 4u * 1024u * 4u);
  std::vector<StageConfig> const half{stage("fft", 0, FftParams{}),
                                      stage("ifft", 1, IfftParams{}),
                                      stage("sink", 2, SinkParams{"/x", "float32"})};
  chain = make_gpu_chain(half, engine, series_source("complex64"), reason);
  ASSERT_NE(chain, nullptr) << reason;
  EXPECT_FALSE(chain->real_transforms());  // complex input
  chain = make_gpu_chain(half, engine, series_source("int16"), reason);
  ASSERT_NE(chain, nullptr) << reason;
  EXPECT_TRUE(chain->real_transforms());
  // __half samples (region 0, 256-byte aligned), then 513 __half2 bins per item.
  EXPECT_EQ(chain->work_frame_bytes(), 4u * 1024u * 2u + 4u * 513u * 4u);
  std::vector<std::string> const names{"convert", "stages[0] (fft)", "stages[1] (ifft)",
                                       "stages[2] (sink)"};
  EXPECT_EQ(chain->op_names(), names);  // no "real part" step after the C2R
}

TEST(MakeGpuChain, ImagesWithSpectrumAndFp16) {
  GpuSourceSpec source;
  source.frame.shape = {64, 32};
  source.frame.total_rows = 5;
  source.frame.rows_per_frame = 2;
  source.frame.time_length = 32;
  source.frame.time_rows = 64;
  source.frame.valid_length = 32;
  source.frame.units = "counts";
  source.dtype = "uint16";
  FilterParams lp;
  lp.response = "gaussian";
  lp.cutoff = 0.1;
  SpectrumParams db;
  db.output = "db";
  std::vector<StageConfig> const stages{stage("fft", 0, FftParams{}), stage("filter", 1, lp),
                                        stage("spectrum", 2, db),
                                        stage("sink", 3, SinkParams{"/db", "auto"})};
  FftEngineParams engine;
  engine.device = Device::kGpu;
  engine.precision = "fp16";
  std::string reason;
  auto chain = make_gpu_chain(stages, engine, source, reason);
  ASSERT_NE(chain, nullptr) << reason;
  expect_same_spec(chain->sinks()[0].spec, host_specs(stages, source.frame)[0]);
  EXPECT_EQ(chain->sinks()[0].spec.shape, (std::vector<std::int64_t>{64, 17}));
}

TEST(MakeGpuChain, StagesWithoutAGpuFormChooseTheHostPath) {
  FftEngineParams engine;
  engine.device = Device::kGpu;
  std::string reason;
  std::vector<StageConfig> const welch{stage("welch", 0, WelchParams{}),
                                       stage("sink", 1, SinkParams{"/psd", "auto"})};
  EXPECT_EQ(make_gpu_chain(welch, engine, series_source("float64"), reason), nullptr);
  EXPECT_EQ(reason, "stages[0] (welch) has no GPU form");
  std::vector<StageConfig> const sink_only{stage("sink", 0, SinkParams{"/x", "auto"})};
  EXPECT_EQ(make_gpu_chain(sink_only, engine, series_source("int8"), reason), nullptr);
  EXPECT_NE(reason.find("int8"), std::string::npos);
  EXPECT_NE(make_gpu_chain(sink_only, engine, series_source("complex128"), reason), nullptr);
  FilterParams bad;
  bad.cutoff = 900;  // above Nyquist (500 Hz): the host path reports it
  std::vector<StageConfig> const refused{stage("fft", 0, FftParams{}), stage("filter", 1, bad),
                                         stage("sink", 2, SinkParams{"/x", "auto"})};
  EXPECT_EQ(make_gpu_chain(refused, engine, series_source("float32"), reason), nullptr);
  EXPECT_NE(reason.find("Nyquist"), std::string::npos) << reason;
}

}  // namespace
}  // namespace tcfft::gpu
