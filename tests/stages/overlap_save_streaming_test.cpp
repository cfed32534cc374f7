// SPDX-License-Identifier: MIT
// The host-side parts of overlap-save on the GPU streaming path (no device needed): the core
// arithmetic shared by the host sink and the GPU sink kernel (frame.hpp), the raw read of
// items with context equal to the checked read, the raw write of joined cores equal to write()
// of whole items, and make_gpu_chain accepting source(context) -> fft -> filter (Butterworth,
// Gaussian or FIR taps) -> ifft -> sink with the host stages' specs.
#include <tcfft/core/error.hpp>
#include <tcfft/core/frame.hpp>
#include <tcfft/gpu/gpu_chain.hpp>
#include <tcfft/io/h5_sink.hpp>
#include <tcfft/io/h5_source.hpp>
#include <tcfft/stages/stage_factory.hpp>

#include "stages/h5_test_support.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tcfft::gpu {
namespace {

using test::TempDir;

std::vector<double> ramp(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 1.0 + static_cast<double>(i);
  return x;
}

SourceParams overlap_source(std::string const& path, std::int64_t segment, std::int64_t overlap,
                            std::int64_t rows_per_frame) {
  SourceParams p = test::source_params(path, "/x");
  p.segment = segment;
  p.overlap = overlap;
  p.rows_per_frame = rows_per_frame;
  p.sample_rate = 1000.0;
  return p;
}

TEST(OverlapSaveArithmetic, CoreIndexAndStoredContext) {
  // Items of 8 samples with 2 of context: cores are positions 2..5 of each item.
  std::vector<std::int64_t> got;
  for (std::int64_t i = 0; i < 9; ++i) got.push_back(core_sample_index(i, 8, 2));
  EXPECT_EQ(got, (std::vector<std::int64_t>{2, 3, 4, 5, 10, 11, 12, 13, 18}));
  EXPECT_EQ(core_sample_index(7, 8, 0), 7);
  FrameSpec spec;
  spec.shape = {8};
  spec.series_length = 30;
  spec.context = 2;
  EXPECT_EQ(spec.stored_context(), 2);
  spec.domain = Domain::kFrequency;  // spectra are stored whole
  EXPECT_EQ(spec.stored_context(), 0);
  spec.domain = Domain::kTime;
  spec.series_length = 0;  // rows, not a series
  EXPECT_EQ(spec.stored_context(), 0);
}

TEST(OverlapSaveRaw, ReadRawFillsItemsWithContextLikeTheCheckedRead) {
  TempDir dir;
  auto const path = dir.file("x.h5");
  auto const x = ramp(1000);
  test::write_doubles(path, "/x", {x.size()}, x);
  // Items of 96 + 2 * 16 = 128: the first context and the last item's tail lie outside.
  io::H5Source raw(overlap_source(path, 96, 16, 4));
  io::H5Source checked(overlap_source(path, 96, 16, 4));
  ASSERT_EQ(raw.spec().context, 16);
  ASSERT_EQ(raw.spec().shape, (std::vector<std::int64_t>{128}));
  std::vector<double> buffer(4 * 128, -7.0);
  Frame a, b;
  std::int64_t frames = 0;
  while (raw.read_raw(a, buffer.data(), buffer.size() * sizeof(double))) {
    ASSERT_TRUE(checked.read(b));
    ASSERT_EQ(a.rows, b.rows);
    EXPECT_EQ(a.first_row, b.first_row);
    for (std::size_t i = 0; i < b.real.size(); ++i) {
      ASSERT_EQ(buffer[i], b.real[i]) << "frame " << frames << " sample " << i;
    }
    if (frames == 0) {
      EXPECT_EQ(buffer[15], 0.0);    // context before the series start
      EXPECT_EQ(buffer[16], x[0]);   // item 0's core
      EXPECT_EQ(buffer[128], x[80]); // item 1 starts at 96 - 16
    }
    ++frames;
  }
  EXPECT_EQ(frames, 3);  // 11 items of 96 cover 1000 samples
}

TEST(OverlapSaveRaw, WriteRawOfJoinedCoresEqualsWriteOfWholeItems) {
  TempDir dir;
  FrameSpec spec;
  spec.shape = {8};
  spec.time_length = 8;
  spec.context = 2;
  spec.total_rows = 3;
  spec.rows_per_frame = 2;
  spec.series_length = 10;  // cores of 4: the last item holds 2 samples of data
  spec.valid_length = 2;
  std::vector<Frame> frames(2);
  for (std::size_t f = 0; f < 2; ++f) {
    frames[f].index = static_cast<std::int64_t>(f);
    frames[f].first_row = static_cast<std::int64_t>(2 * f);
    frames[f].resize_for(spec, f == 0 ? 2 : 1);
    for (std::size_t i = 0; i < frames[f].real.size(); ++i) {
      frames[f].real[i] = 100.0 * static_cast<double>(f) + static_cast<double>(i);
    }
  }
  auto const whole = dir.file("whole.h5");
  auto const cores = dir.file("cores.h5");
  {
    io::OutputFile out(OutputParams{whole, true}, "test");
    int const id = out.add_dataset(SinkParams{"/y", "float64"}, spec);
    for (auto const& f : frames) out.write(id, f);
    out.commit();
  }
  {
    io::OutputFile out(OutputParams{cores, true}, "test");
    int const id = out.add_dataset(SinkParams{"/y", "float64"}, spec);
    for (auto const& f : frames) {
      std::vector<double> joined(static_cast<std::size_t>(f.rows * spec.core_length()));
      for (std::size_t i = 0; i < joined.size(); ++i) {
        joined[i] = f.real[static_cast<std::size_t>(
            core_sample_index(static_cast<std::int64_t>(i), 8, spec.context))];
      }
      out.write_raw(id, f.index, f.first_row, f.rows, joined.data());
    }
    out.commit();
  }
  auto const expected = test::read_doubles(whole, "/y");
  ASSERT_EQ(expected.size(), 10u);
  EXPECT_EQ(expected[0], 2.0);  // item 0's core starts after its context
  EXPECT_EQ(expected[4], 10.0);
  EXPECT_EQ(expected[8], 102.0);
  EXPECT_EQ(test::read_doubles(cores, "/y"), expected);
}

// ---- make_gpu_chain on overlap-save items --------------------------------------------------

StageConfig stage(std::string kind, int index, StageParams params) {
  return StageConfig{std::move(kind), index, std::move(params)};
}

FilterParams bandpass_fir(std::int64_t taps) {
  FilterParams f;
  f.type = "bandpass";
  f.low = 40;
  f.high = 200;
  f.taps = taps;
  return f;
}

std::vector<StageConfig> fft_filter_ifft(FilterParams const& filter) {
  return {stage("fft", 0, FftParams{}), stage("sink", 1, SinkParams{"/spec", "auto"}),
          stage("filter", 2, filter), stage("ifft", 3, IfftParams{}),
          stage("sink", 4, SinkParams{"/y", "float32"})};
}

class OverlapSaveChain : public ::testing::Test {
 protected:
  TempDir dir_;
  std::string path_ = dir_.file("x.h5");
  void SetUp() override {
    auto const x = ramp(30011);
    std::vector<float> xf(x.begin(), x.end());
    test::write_dataset(path_, "/x", H5T_IEEE_F32LE, {xf.size()}, H5T_NATIVE_FLOAT, xf.data());
  }

  /// make_gpu_chain for `stages` on the file cut into items of 1920 + 2 * 64 = 2048.
  std::unique_ptr<GpuChain> chain(std::vector<StageConfig> const& stages, std::string& reason,
                                  GpuSourceSpec& source) {
    io::H5Source h5(overlap_source(path_, 1920, 64, 5));
    source = GpuSourceSpec{h5.spec(), h5.dtype_name(), 1.0, false};
    FftEngineParams engine;
    engine.device = Device::kGpu;
    engine.precision = "fp16";
    return make_gpu_chain(stages, engine, source, reason);
  }
};

TEST_F(OverlapSaveChain, FirTapsChainIsAcceptedWithTheHostSpecsAndStoresCoresOnly) {
  auto const stages = fft_filter_ifft(bandpass_fir(129));
  std::string reason;
  GpuSourceSpec source;
  auto const c = chain(stages, reason, source);
  ASSERT_NE(c, nullptr) << reason;
  EXPECT_EQ(source.frame.context, 64);
  EXPECT_EQ(source.frame.total_rows, 16);  // ceil(30011 / 1920)
  // The host stages' specs (CPU engines: configure needs no device).
  FftEngineParams cpu;
  cpu.device = Device::kCpu;
  std::vector<FrameSpec> host;
  FrameSpec spec = source.frame;
  for (auto const& s : stages) {
    if (std::holds_alternative<SinkParams>(s.params)) {
      host.push_back(spec);
    } else {
      spec = stages::make_processing_stage(s, cpu)->configure(spec);
    }
  }
  ASSERT_EQ(c->sinks().size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    auto const& got = c->sinks()[k].spec;
    EXPECT_EQ(got.shape, host[k].shape);
    EXPECT_EQ(got.domain, host[k].domain);
    EXPECT_EQ(got.context, host[k].context);
    EXPECT_EQ(got.valid_length, host[k].valid_length);
    EXPECT_EQ(got.series_length, host[k].series_length);
  }
  EXPECT_EQ(c->sinks()[1].spec.stored_context(), 64);
  std::vector<std::string> const names{"convert",          "stages[0] (fft)",
                                       "stages[1] (sink)", "stages[2] (filter)",
                                       "stages[3] (ifft)", "stages[4] (sink)"};
  EXPECT_EQ(c->op_names(), names);
  // Slots hold whole items, context included; the time-domain sink only the cores.
  EXPECT_EQ(c->raw_frame_bytes(), 5u * 2048u * 4u);
  // fp16, real input: __half samples, then the half spectra (1025 __half2 per item).
  EXPECT_TRUE(c->real_transforms());
  EXPECT_EQ(c->work_frame_bytes(), 5u * 2048u * 2u + 5u * 1025u * 4u);
  auto const per_sample = c->sink_bytes(1, 1) / 1920u;  // the stored dtype is set by prepare
  EXPECT_EQ(c->sink_bytes(1, 1), 1920u * per_sample);
  EXPECT_EQ(c->sink_bytes(1, 3), 3u * 1920u * per_sample);
  EXPECT_EQ(c->sink_bytes(0, 1) % 1025u, 0u);  // the spectrum sink stores whole items
}

TEST_F(OverlapSaveChain, ParametricResponsesAreAcceptedToo) {
  for (char const* response : {"butterworth", "gaussian"}) {
    FilterParams f;
    f.response = response;
    f.cutoff = 50;
    std::string reason;
    GpuSourceSpec source;
    EXPECT_NE(chain(fft_filter_ifft(f), reason, source), nullptr) << response << ": " << reason;
  }
}

TEST_F(OverlapSaveChain, FirFormsTheHostRefusesChooseTheHostPath) {
  std::string reason;
  GpuSourceSpec source;
  auto with_file = bandpass_fir(129);
  with_file.response = "file";
  with_file.file = "r.h5";
  with_file.dataset = "/g";
  EXPECT_EQ(chain(fft_filter_ifft(with_file), reason, source), nullptr);
  EXPECT_NE(reason.find("stages[2] (filter)"), std::string::npos) << reason;
  // More taps than the item is long: the FIR gains refuse it, naming the lengths.
  EXPECT_EQ(chain(fft_filter_ifft(bandpass_fir(4097)), reason, source), nullptr);
  EXPECT_NE(reason.find("2048"), std::string::npos) << reason;
}

TEST(OverlapSaveChainImages, FirTapsOnA2DTransformChooseTheHostPath) {
  GpuSourceSpec source;
  source.frame.shape = {32, 32};
  source.frame.total_rows = 4;
  source.frame.rows_per_frame = 2;
  source.frame.time_length = 32;
  source.frame.time_rows = 32;
  source.frame.valid_length = 32;
  source.dtype = "float32";
  FilterParams f;
  f.cutoff = 0.1;
  f.taps = 9;
  FftEngineParams engine;
  engine.device = Device::kGpu;
  engine.precision = "fp32";
  std::string reason;
  std::vector<StageConfig> const stages{stage("fft", 0, FftParams{}), stage("filter", 1, f),
                                        stage("sink", 2, SinkParams{"/y", "auto"})};
  EXPECT_EQ(make_gpu_chain(stages, engine, source, reason), nullptr);
  EXPECT_NE(reason.find("taps"), std::string::npos) << reason;
}

}  // namespace
}  // namespace tcfft::gpu
