// SPDX-License-Identifier: MIT
// The GPU streaming executor end to end (run_pipeline in process): results equal the host
// path's (FFTW double) within FP32/FP16 tolerances for fft -> filter -> ifft on series, rows
// and image stacks and for spectrum sinks; frames arrive in order with 1 and 3 slots; memory
// stays slots x frame whatever the input size; an error injected in frame k leaves no output;
// non-finite samples fail with the host path's message or are replaced.
#include "pipeline.hpp"
#include "common/gpu_test.hpp"
#include "stages/h5_test_support.hpp"

#include <tcfft/core/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace tcfft::testing {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

class Streaming : public GpuTest {
 protected:
  TempDir dir_;

  app::RunSummary run(std::string const& yaml, bool profile = false) {
    auto const config = app::parse_config(yaml, "streaming_gpu_test.yaml");
    return app::run_pipeline(config, {false, true, profile});
  }

  /// YAML of a run on `input` with the chain `stages` (YAML list items), writing `out`.
  std::string config(std::string const& input, std::string const& out, std::string const& device,
                     std::string const& precision, int slots, std::string const& stages) const {
    return "input: {" + input + "}\noutput: {path: " + dir_.file(out) +
           ", overwrite: true}\nrun: {device: " + device + ", precision: " + precision +
           ", slots: " + std::to_string(slots) + "}\nstages:\n" + stages;
  }
};

std::vector<double> noise(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> d(0.0, 1.0);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = d(gen) + 3.0 * std::sin(0.05 * static_cast<double>(i));
  }
  return x;
}

/// Relative L2 difference; fails when the reference is all zeros.
double rel_l2(std::vector<double> const& a, std::vector<double> const& ref) {
  EXPECT_EQ(a.size(), ref.size());
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < std::min(a.size(), ref.size()); ++i) {
    num += (a[i] - ref[i]) * (a[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  EXPECT_GT(den, 0.0);
  return std::sqrt(num / den);
}

/// `yaml` (from Streaming::config) with `keys` ("fuse: false, ...") added to its run map.
std::string with_run_keys(std::string yaml, std::string const& keys) {
  auto const at = yaml.find("}\nstages:");
  yaml.insert(at, ", " + keys);
  return yaml;
}

double tolerance(std::string const& precision) { return precision == "fp32" ? 2e-5 : 1.5e-2; }

std::string const kBandpassChain =
    "  - fft: {window: hann}\n  - filter: {type: bandpass, low: 40, high: 200}\n"
    "  - ifft: {}\n  - sink: {dataset: y}\n";

TEST_F(Streaming, SeriesFftBandpassIfftEqualsTheHostPath) {
  auto const x = noise(10 * 1024 + 300, 1);
  std::vector<float> xf(x.begin(), x.end());
  auto const in = dir_.file("series.h5");
  test::write_dataset(in, "/x", H5T_IEEE_F32LE, {xf.size()}, H5T_NATIVE_FLOAT, xf.data());
  std::string const input =
      "path: " + in + ", dataset: /x, segment: 1024, rows_per_frame: 3, sample_rate: 1000";
  run(config(input, "cpu.h5", "cpu", "fp32", 3, kBandpassChain));
  auto const ref = test::read_doubles(dir_.file("cpu.h5"), "/y");
  ASSERT_EQ(ref.size(), x.size());
  for (std::string precision : {"fp32", "fp16"}) {
    for (int slots : {1, 3}) {
      SCOPED_TRACE(precision + " slots " + std::to_string(slots));
      auto const s = run(config(input, "gpu.h5", "gpu", precision, slots, kBandpassChain));
      EXPECT_EQ(s.executor, "gpu streaming, " + std::to_string(slots) + " slot(s)");
      EXPECT_EQ(s.frames, 4);
      double const err = rel_l2(test::read_doubles(dir_.file("gpu.h5"), "/y"), ref);
      std::cout << "[ MEASURED ] series " << precision << " slots " << slots
                << ": rel L2 vs host " << err << "\n";
      EXPECT_LT(err, tolerance(precision));
    }
  }
}

/// fp16 chains of complex items on the Tensor Core backend apply the band-pass inside the
/// forward transform's last pass (run.fuse, default true): the output matches the unfused chain
/// and the host path, and is not less accurate (the fused product skips one FP16 rounding of
/// the spectrum). Real input would take R2C / C2R, which have no hooks: real_transforms false.
TEST_F(Streaming, FusedFilterMatchesTheUnfusedChain) {
  auto const x = noise(8 * 2048, 7);
  std::vector<float> xf(x.begin(), x.end());
  auto const in = dir_.file("fuse.h5");
  test::write_dataset(in, "/x", H5T_IEEE_F32LE, {xf.size()}, H5T_NATIVE_FLOAT, xf.data());
  std::string const input =
      "path: " + in + ", dataset: /x, segment: 2048, rows_per_frame: 4, sample_rate: 1000";
  run(config(input, "cpu.h5", "cpu", "fp32", 3, kBandpassChain));
  auto const ref = test::read_doubles(dir_.file("cpu.h5"), "/y");
  auto gpu = [&](bool fuse) {
    auto const s = run(with_run_keys(config(input, "gpu.h5", "gpu", "fp16", 3, kBandpassChain),
                                     std::string("real_transforms: false, fuse: ") +
                                         (fuse ? "true" : "false")));
    EXPECT_EQ(s.executor, "gpu streaming, 3 slot(s)");
    return test::read_doubles(dir_.file("gpu.h5"), "/y");
  };
  auto const fused = gpu(true);
  auto const unfused = gpu(false);
  double const err_fused = rel_l2(fused, ref);
  double const err_unfused = rel_l2(unfused, ref);
  double const between = rel_l2(fused, unfused);
  std::cout << "[ MEASURED ] fp16 band-pass vs host: fused " << err_fused << ", unfused "
            << err_unfused << ", fused vs unfused " << between << "\n";
  EXPECT_LT(err_fused, tolerance("fp16"));
  EXPECT_LT(err_fused, 1.1 * err_unfused + 1e-4);
  EXPECT_GT(between, 0.0) << "fuse: false must run the separate gain kernel (outputs identical)";
  EXPECT_LT(between, tolerance("fp16"));
}

/// Real input through R2C / C2R and half spectra (run.real_transforms, default true) gives the
/// complex chain's result within FP16/FP32 rounding and about as close to the host path:
/// float32 series band-passed (windowed fft) and as a power spectrum, and float64 images
/// low-passed in 2-D with a spectrum sink between the transforms. Measured on the H200 (session
/// 9): real / complex error 1.19-1.31 in fp16 (the complex chain's gain is fused into its fft,
/// one FP16 rounding fewer; the real chain's gain is its own kernel), 0.79-1.15 in fp32; the
/// bound 1.5 leaves ~15 % above the largest.
TEST_F(Streaming, RealTransformsMatchTheComplexChain) {
  auto const x = noise(6 * 4096 + 77, 11);
  std::vector<float> xf(x.begin(), x.end());
  auto const series = dir_.file("real_series.h5");
  test::write_dataset(series, "/x", H5T_IEEE_F32LE, {xf.size()}, H5T_NATIVE_FLOAT, xf.data());
  auto const im = noise(5 * 64 * 128, 12);
  auto const images = dir_.file("real_images.h5");
  test::write_doubles(images, "/im", {5, 64, 128}, im);
  struct Job {
    std::string input, stages, dataset;
  };
  std::vector<Job> const jobs{
      {"path: " + series + ", dataset: /x, segment: 4096, rows_per_frame: 4, sample_rate: 1000",
       kBandpassChain, "/y"},
      {"path: " + series + ", dataset: /x, segment: 4096, rows_per_frame: 3, sample_rate: 1000",
       "  - fft: {}\n  - spectrum: {output: power}\n  - sink: {dataset: p}\n", "/p"},
      {"path: " + images + ", dataset: /im, rows_per_frame: 2",
       "  - fft: {}\n  - filter: {type: lowpass, response: gaussian, cutoff: 0.1}\n"
       "  - sink: {dataset: s, dtype: complex128}\n  - ifft: {}\n  - sink: {dataset: y}\n",
       "/y"}};
  for (auto const& job : jobs) {
    run(config(job.input, "cpu.h5", "cpu", "fp32", 3, job.stages));
    auto const ref = test::read_doubles(dir_.file("cpu.h5"), job.dataset);
    ASSERT_FALSE(ref.empty());
    for (std::string precision : {"fp32", "fp16"}) {
      SCOPED_TRACE(job.dataset + " " + precision);
      auto gpu = [&](bool real) {
        auto const yaml = with_run_keys(config(job.input, "gpu.h5", "gpu", precision, 2, job.stages),
                                        std::string("real_transforms: ") +
                                            (real ? "true" : "false"));
        EXPECT_EQ(run(yaml).executor, "gpu streaming, 2 slot(s)");
        return test::read_doubles(dir_.file("gpu.h5"), job.dataset);
      };
      auto const real = gpu(true);
      auto const complex = gpu(false);
      double const err_real = rel_l2(real, ref);
      double const err_complex = rel_l2(complex, ref);
      std::cout << "[ MEASURED ] " << job.dataset << " " << precision
                << " rel L2 vs host: real chain " << err_real << ", complex chain "
                << err_complex << "\n";
      EXPECT_LT(err_real, tolerance(precision));
      // The real chain's error against the complex chain's on the same data. The bound was
      // 1.5x while both chains' FFTs ran on the Tensor Core passes (session 9: real 4.6e-4 to
      // 1.0e-3, 1.19-1.31x); since session 11 the complex chain's 4096-point FFTs run on the
      // more accurate Stockham pass (5.7e-4; ~7.6e-4 by session 9's ratio), while the R2C of 4096
      // reals (M = 2048) stays on the register-chained pass, which measured faster there: the
      // real chain's own error did not grow (9.3e-4), the ratio did (1.64x, H200).
      EXPECT_LT(err_real, 2.0 * err_complex + 1e-6);
      if (job.dataset == "/y") {
        EXPECT_GT(rel_l2(real, complex), 0.0) << "the two chains must differ in rounding";
      }
    }
  }
}

TEST_F(Streaming, Int16RowsAndFloat64ImagesEqualTheHostPath) {
  std::vector<std::int16_t> rows(40 * 512);
  auto const r = noise(rows.size(), 2);
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<std::int16_t>(3000.0 * r[i]);
  auto const rows_in = dir_.file("rows.h5");
  test::write_dataset(rows_in, "/r", H5T_STD_I16LE, {40, 512}, H5T_NATIVE_INT16, rows.data());
  auto const images = noise(9 * 64 * 64, 3);
  auto const images_in = dir_.file("images.h5");
  test::write_doubles(images_in, "/img", {9, 64, 64}, images);
  struct Case {
    std::string input, chain, dataset;
  };
  std::vector<Case> const cases{
      {"path: " + rows_in + ", dataset: /r, rows_per_frame: 7",
       "  - fft: {}\n  - filter: {type: lowpass, cutoff: 0.1}\n  - ifft: {}\n"
       "  - sink: {dataset: y, dtype: float32}\n",
       "/y"},
      {"path: " + images_in + ", dataset: /img, rows_per_frame: 2",
       "  - fft: {}\n  - filter: {type: lowpass, response: gaussian, cutoff: 0.08}\n"
       "  - ifft: {norm: ortho}\n  - sink: {dataset: y}\n",
       "/y"}};
  for (auto const& c : cases) {
    run(config(c.input, "cpu.h5", "cpu", "fp32", 3, c.chain));
    auto const ref = test::read_doubles(dir_.file("cpu.h5"), c.dataset);
    for (std::string precision : {"fp32", "fp16"}) {
      SCOPED_TRACE(c.input + " " + precision);
      auto const s = run(config(c.input, "gpu.h5", "gpu", precision, 3, c.chain));
      EXPECT_EQ(s.executor, "gpu streaming, 3 slot(s)");
      double const err = rel_l2(test::read_doubles(dir_.file("gpu.h5"), c.dataset), ref);
      std::cout << "[ MEASURED ] " << c.dataset << " " << precision << ": rel L2 " << err << "\n";
      EXPECT_LT(err, tolerance(precision));
    }
  }
}

TEST_F(Streaming, SpectrumAndComplexSinksEqualTheHostPath) {
  auto const x = noise(6 * 256, 4);
  auto const in = dir_.file("s.h5");
  test::write_doubles(in, "/x", {x.size()}, x);
  std::string const input = "path: " + in + ", dataset: /x, segment: 256, rows_per_frame: 2";
  std::string const chain =
      "  - fft: {norm: ortho}\n  - sink: {dataset: spec, dtype: complex64}\n"
      "  - spectrum: {output: magnitude}\n  - sink: {dataset: mag, dtype: float32}\n";
  run(config(input, "cpu.h5", "cpu", "fp32", 3, chain));
  auto const mag_ref = test::read_doubles(dir_.file("cpu.h5"), "/mag");
  auto const spec_ref = test::read_complex(dir_.file("cpu.h5"), "/spec");
  for (std::string precision : {"fp32", "fp16"}) {
    SCOPED_TRACE(precision);
    run(config(input, "gpu.h5", "gpu", precision, 2, chain));
    EXPECT_LT(rel_l2(test::read_doubles(dir_.file("gpu.h5"), "/mag"), mag_ref),
              tolerance(precision));
    auto const spec = test::read_complex(dir_.file("gpu.h5"), "/spec");
    ASSERT_EQ(spec.size(), spec_ref.size());
    ASSERT_EQ(spec.size(), 6u * 129u);
    std::vector<double> a, b;
    for (std::size_t i = 0; i < spec.size(); ++i) {
      a.insert(a.end(), {spec[i].real(), spec[i].imag()});
      b.insert(b.end(), {spec_ref[i].real(), spec_ref[i].imag()});
    }
    EXPECT_LT(rel_l2(a, b), tolerance(precision));
  }
}

TEST_F(Streaming, MemoryStaysBoundedWhateverTheInputSize) {
  std::vector<std::int64_t> pinned;
  for (std::size_t frames : {2u, 24u}) {
    std::vector<float> x(frames * 4 * 1024, 0.25f);
    auto const in = dir_.file("b" + std::to_string(frames) + ".h5");
    test::write_dataset(in, "/x", H5T_IEEE_F32LE, {x.size()}, H5T_NATIVE_FLOAT, x.data());
    auto const s = run(config("path: " + in + ", dataset: /x, segment: 1024, rows_per_frame: 4",
                              "gpu.h5", "gpu", "fp32", 3,
                              "  - fft: {}\n  - ifft: {}\n  - sink: {dataset: y, dtype: float32}\n"));
    EXPECT_EQ(s.frames, static_cast<std::int64_t>(frames));
    pinned.push_back(s.pinned_bytes);
    // 3 slots x (raw float32 frame + status words + float32 sink frame).
    EXPECT_EQ(s.pinned_bytes, 3 * (4 * 1024 * 4 + 24 + 4 * 1024 * 4));
    EXPECT_LT(s.device_bytes, 3 * (4 * 1024 * (4 + 8 + 4) + 24) + (1 << 20));
  }
  EXPECT_EQ(pinned[0], pinned[1]);
}

TEST_F(Streaming, ErrorInjectedInFrameKLeavesNoOutput) {
  auto const x = noise(12 * 512, 5);
  auto const in = dir_.file("e.h5");
  test::write_doubles(in, "/x", {x.size()}, x);
  auto const yaml = config("path: " + in + ", dataset: /x, segment: 512, rows_per_frame: 2",
                           "out.h5", "gpu", "fp32", 3, "  - fft: {}\n  - sink: {dataset: s}\n");
  ::setenv("TCFFT_FAIL_AT_FRAME", "3", 1);
  try {
    run(yaml);
    ADD_FAILURE() << "the injected failure did not stop the run";
  } catch (Error const& e) {
    EXPECT_NE(std::string(e.what()).find("frame 3 (write)"), std::string::npos) << e.what();
    EXPECT_EQ(e.code(), ExitCode::kRuntime);
  }
  ::unsetenv("TCFFT_FAIL_AT_FRAME");
  for (auto const& entry : fs::directory_iterator(dir_.path())) {
    EXPECT_EQ(entry.path().filename().string().find("out.h5"), std::string::npos)
        << entry.path();
  }
  run(yaml);  // without the hook the same run completes
  EXPECT_TRUE(fs::exists(dir_.file("out.h5")));
}

TEST_F(Streaming, NonfiniteSamplesFailLikeTheHostPathOrAreReplaced) {
  auto x = noise(8 * 256, 6);
  x[1234] = std::nan("");
  std::vector<float> xf(x.begin(), x.end());
  xf[1500] = INFINITY;
  auto const in = dir_.file("nan.h5");
  test::write_dataset(in, "/x", H5T_IEEE_F32LE, {xf.size()}, H5T_NATIVE_FLOAT, xf.data());
  std::string const input = "path: " + in + ", dataset: /x, segment: 256, rows_per_frame: 2";
  std::string const chain = "  - fft: {}\n  - ifft: {}\n  - sink: {dataset: y}\n";
  std::string messages[2];
  int i = 0;
  for (char const* device : {"cpu", "gpu"}) {
    try {
      run(config(input, "o.h5", device, "fp32", 3, chain));
    } catch (InputError const& e) {
      messages[i] = e.what();
    }
    ++i;
  }
  EXPECT_FALSE(messages[0].empty());
  EXPECT_EQ(messages[1], messages[0]);
  EXPECT_NE(messages[1].find("[1234]"), std::string::npos) << messages[1];
  auto const zero_input = input + ", on_nonfinite: zero";
  auto const cpu = run(config(zero_input, "cpu.h5", "cpu", "fp32", 3, chain));
  auto const gpu = run(config(zero_input, "gpu.h5", "gpu", "fp32", 3, chain));
  EXPECT_EQ(gpu.reports, cpu.reports);
  EXPECT_LT(rel_l2(test::read_doubles(dir_.file("gpu.h5"), "/y"),
                   test::read_doubles(dir_.file("cpu.h5"), "/y")),
            2e-5);
}

TEST_F(Streaming, ProfileReportsEveryStep) {
  auto const x = noise(16 * 1024, 7);
  auto const in = dir_.file("p.h5");
  test::write_doubles(in, "/x", {x.size()}, x);
  auto const s = run(config("path: " + in + ", dataset: /x, segment: 1024, rows_per_frame: 2, "
                            "sample_rate: 1000",
                            "p_out.h5", "gpu", "fp16", 3, kBandpassChain),
                     true);
  ASSERT_FALSE(s.profile.empty());
  std::string all;
  for (auto const& line : s.profile) all += line + "\n";
  std::cout << all;
  for (char const* step : {"read", "H2D", "convert", "stages[0] (fft)", "stages[1] (filter)",
                           "stages[2] (ifft)", "stages[3] (sink)", "D2H", "write", "wall"}) {
    EXPECT_NE(all.find(step), std::string::npos) << step;
  }
  std::string phases;
  for (auto const& line : s.phases) phases += line + "\n";
  std::cout << phases;
  for (char const* phase : {"open input", "CUDA context", "create output file", "executor setup",
                            "frame loop", "commit", "release slots", "release FFT plans",
                            "total (phases above)"}) {
    EXPECT_NE(phases.find(phase), std::string::npos) << phase;
  }
}

}  // namespace
}  // namespace tcfft::testing
