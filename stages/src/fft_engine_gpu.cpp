// SPDX-License-Identifier: MIT
// The GPU FFT engine: host doubles -> pinned __half2/float2 staging -> device -> fftcore c2c in
// place -> pinned -> host doubles. Real transforms go through the complex one: r2c transforms
// (x, 0) and keeps the first n/2+1 bins of the last axis; c2r rebuilds the full Hermitian
// spectrum, transforms it back and keeps the real part.
//
// Range: each item (row) is multiplied by an exact power of two 2^-e with max |re|,|im| < 1
// before conversion, and fftcore runs with Scaling::kBySqrtN, so FP16 values stay below
// sqrt(2n) (<= 16384 for n <= 2^27) and typical bins stay near 1, far from FP16's subnormals.
// Both factors are undone in double afterwards: results are unnormalised, as FFTW's.
// Plans: one for max_rows items made by the constructor (so an unsupported size fails at
// configure time), others made on first use for shorter (final) frames.
#include "fft_engines.hpp"

#include <tcfft/core/cuda.hpp>
#include <tcfft/core/error.hpp>

#include <fftcore/fftcore.hpp>

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <string>
#include <vector>

namespace tcfft::stages::detail {
namespace {

fftcore::Precision parse_precision(std::string const& word) {
  if (word == "fp16") return fftcore::Precision::kHalf;
  if (word == "fp32") return fftcore::Precision::kSingle;
  throw ConfigError("unknown GPU FFT precision '" + word + "' (expected fp16 or fp32)");
}

fftcore::Backend parse_backend(std::string const& word) {
  if (word == "auto") return fftcore::Backend::kAuto;
  if (word == "tensor-core") return fftcore::Backend::kTensorCore;
  if (word == "cufft") return fftcore::Backend::kCufft;
  throw ConfigError("unknown GPU FFT backend '" + word +
                    "' (expected auto, tensor-core or cufft)");
}

bool is_power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// 2^-e such that max * 2^-e < 1 (1 for an all-zero item). Throws on a non-finite sample.
double unit_scale(double max_abs, std::string const& who) {
  if (!std::isfinite(max_abs)) {
    throw FftError(who + ": non-finite sample in the FFT input (" + std::to_string(max_abs) + ")");
  }
  if (max_abs == 0.0) return 1.0;
  int exponent = 0;
  (void)std::frexp(max_abs, &exponent);  // max_abs = m * 2^exponent, m in [0.5, 1)
  return std::ldexp(1.0, -exponent);
}

double max_component(std::complex<double> const* x, std::int64_t count) {
  double m = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    double const a = std::abs(x[i].real());
    double const b = std::abs(x[i].imag());
    if (!(a <= m)) m = a;  // also catches NaN, which then fails the isfinite check
    if (!(b <= m)) m = b;
  }
  return m;
}

double max_component(double const* x, std::int64_t count) {
  double m = 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    double const a = std::abs(x[i]);
    if (!(a <= m)) m = a;
  }
  return m;
}

// The fftcore descriptor of `rows` items of `shape`, scaled by 1/sqrt(n) (see file comment).
fftcore::PlanDesc plan_desc(std::vector<std::int64_t> const& shape, std::int64_t rows,
                            fftcore::Precision precision, fftcore::Backend backend) {
  fftcore::PlanDesc desc;
  desc.rank = static_cast<int>(shape.size());
  desc.dims[0] = shape[0];
  desc.dims[1] = shape.size() == 2 ? shape[1] : 0;
  desc.batch = rows;
  desc.precision = precision;
  desc.scaling = fftcore::Scaling::kBySqrtN;
  desc.backend = backend;
  return desc;
}

// Throws FftError naming the size, the precision, the backend and the reason unless fftcore
// can do `desc` (a host-only question: no device needed).
void require_supported(fftcore::PlanDesc const& desc, FftEngineParams const& params,
                       std::vector<std::int64_t> const& shape) {
  auto const status = fftcore::can_implement(desc);
  if (status == fftcore::Status::kSuccess) return;
  std::string reason = fftcore::to_string(status);
  bool const pow2 = std::all_of(shape.begin(), shape.end(), is_power_of_two);
  if (status == fftcore::Status::kUnsupportedSize &&
      desc.precision == fftcore::Precision::kHalf && !pow2) {
    reason = shape.size() == 1 ? "FP16 transforms need a power-of-two length"
                               : "FP16 transforms need power-of-two extents";
  } else if (desc.backend == fftcore::Backend::kTensorCore &&
             desc.precision == fftcore::Precision::kSingle) {
    reason = "the tensor-core backend computes in FP16 only";
  }
  throw FftError("FFT size " + size_string(shape) + " is not supported by the gpu " +
                 params.precision + " backend (" + params.backend + "): " + reason);
}

class GpuFftEngine final : public FftEngine {
 public:
  GpuFftEngine(FftEngineParams const& params, std::vector<std::int64_t> const& shape,
               std::int64_t max_rows)
      : params_(params),
        shape_(shape),
        max_rows_(max_rows),
        precision_(parse_precision(params.precision)),
        backend_(parse_backend(params.backend)) {
    check_engine_shape(shape, max_rows, "gpu FFT engine");
    ny_ = shape.size() == 2 ? shape[0] : 1;
    nx_ = shape.back();
    item_ = ny_ * nx_;
    half_item_ = ny_ * (nx_ / 2 + 1);
    fftcore::Plan const& plan = plan_for(max_rows);  // fails early for unsupported sizes
    chosen_backend_ = fftcore::to_string(plan.backend());
    auto const bytes = static_cast<std::size_t>(max_rows * item_) *
                       fftcore::element_bytes(precision_);
    host_ = PinnedBuffer(bytes);
    device_ = DeviceBuffer(bytes);
  }

  std::string describe() const override {
    return "gpu (" + chosen_backend_ + " " + params_.precision + ")";
  }
  std::vector<std::int64_t> const& shape() const noexcept override { return shape_; }

  void c2c(std::complex<double> const* in, std::complex<double>* out, std::int64_t rows,
           int sign) override {
    if (sign != -1 && sign != +1) {
      throw FftError("gpu FFT engine: sign must be -1 or +1, got " + std::to_string(sign));
    }
    if (!check_rows(rows)) return;
    for (std::int64_t r = 0; r < rows; ++r) {
      auto const* x = in + r * item_;
      double const scale = set_row_scale(r, max_component(x, item_));
      for (std::int64_t i = 0; i < item_; ++i) put(r * item_ + i, x[i] * scale);
    }
    run(rows, sign < 0 ? fftcore::Direction::kForward : fftcore::Direction::kInverse);
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t i = 0; i < item_; ++i) {
        out[r * item_ + i] = get(r * item_ + i) * undo_[static_cast<std::size_t>(r)];
      }
    }
  }

  void r2c(double const* in, std::complex<double>* out, std::int64_t rows) override {
    if (!check_rows(rows)) return;
    for (std::int64_t r = 0; r < rows; ++r) {
      auto const* x = in + r * item_;
      double const scale = set_row_scale(r, max_component(x, item_));
      for (std::int64_t i = 0; i < item_; ++i) put(r * item_ + i, {x[i] * scale, 0.0});
    }
    run(rows, fftcore::Direction::kForward);
    std::int64_t const bins = nx_ / 2 + 1;
    for (std::int64_t r = 0; r < rows; ++r) {
      double const undo = undo_[static_cast<std::size_t>(r)];
      for (std::int64_t y = 0; y < ny_; ++y) {
        for (std::int64_t x = 0; x < bins; ++x) {
          out[r * half_item_ + y * bins + x] = get(r * item_ + y * nx_ + x) * undo;
        }
      }
    }
  }

  void c2r(std::complex<double> const* in, double* out, std::int64_t rows) override {
    if (!check_rows(rows)) return;
    std::int64_t const bins = nx_ / 2 + 1;
    for (std::int64_t r = 0; r < rows; ++r) {
      auto const* h = in + r * half_item_;  // [ny][bins]
      double const scale = set_row_scale(r, max_component(h, half_item_));
      for (std::int64_t y = 0; y < ny_; ++y) {
        for (std::int64_t x = 0; x < nx_; ++x) {
          // Hermitian symmetry: X[y][x] = conj(X[-y mod ny][-x mod nx]).
          std::complex<double> const v = x < bins
                                             ? h[y * bins + x]
                                             : std::conj(h[((ny_ - y) % ny_) * bins + nx_ - x]);
          put(r * item_ + y * nx_ + x, v * scale);
        }
      }
    }
    run(rows, fftcore::Direction::kInverse);
    for (std::int64_t r = 0; r < rows; ++r) {
      double const undo = undo_[static_cast<std::size_t>(r)];
      for (std::int64_t i = 0; i < item_; ++i) {
        out[r * item_ + i] = get(r * item_ + i).real() * undo;
      }
    }
  }

 private:
  std::string who() const {
    return "gpu " + params_.precision + " FFT engine (" + params_.backend + ") for size " +
           size_string(shape_);
  }

  bool check_rows(std::int64_t rows) const {
    if (rows < 0 || rows > max_rows_) {
      throw FftError(who() + ": " + std::to_string(rows) + " items passed, planned for at most " +
                     std::to_string(max_rows_));
    }
    return rows > 0;
  }

  // Records the factor that undoes row r's input scale and fftcore's 1/sqrt(n); returns the
  // input scale.
  double set_row_scale(std::int64_t r, double max_abs) {
    double const scale = unit_scale(max_abs, who());
    if (undo_.size() < static_cast<std::size_t>(max_rows_)) {
      undo_.resize(static_cast<std::size_t>(max_rows_));
    }
    undo_[static_cast<std::size_t>(r)] = std::sqrt(static_cast<double>(item_)) / scale;
    return scale;
  }

  void put(std::int64_t i, std::complex<double> v) {
    auto const k = static_cast<std::size_t>(i);
    if (precision_ == fftcore::Precision::kHalf) {
      host_.as<__half2>()[k] = __halves2half2(__double2half(v.real()), __double2half(v.imag()));
    } else {
      host_.as<float2>()[k] = float2{static_cast<float>(v.real()), static_cast<float>(v.imag())};
    }
  }

  std::complex<double> get(std::int64_t i) const {
    auto const k = static_cast<std::size_t>(i);
    if (precision_ == fftcore::Precision::kHalf) {
      float2 const f = __half22float2(host_.as<__half2>()[k]);
      return {f.x, f.y};
    }
    float2 const f = host_.as<float2>()[k];
    return {f.x, f.y};
  }

  [[noreturn]] void throw_status(std::string const& what, fftcore::Status status) const {
    std::string message = who() + ": " + what + ": " + fftcore::to_string(status);
    if (status == fftcore::Status::kCudaError) {
      message += std::string(" (") + cudaGetErrorString(fftcore::last_cuda_error()) + ")";
    }
    throw FftError(message);
  }

  fftcore::Plan const& plan_for(std::int64_t rows) {
    if (auto it = plans_.find(rows); it != plans_.end()) return it->second;
    auto const desc = plan_desc(shape_, rows, precision_, backend_);
    require_supported(desc, params_, shape_);
    fftcore::Plan plan;
    if (auto s = fftcore::make_plan(desc, plan); s != fftcore::Status::kSuccess) {
      throw_status("cannot plan " + std::to_string(rows) + " transforms", s);
    }
    if (plan.workspace_bytes() > workspace_.size()) {
      workspace_ = DeviceBuffer(plan.workspace_bytes());
    }
    return plans_.emplace(rows, std::move(plan)).first->second;
  }

  void run(std::int64_t rows, fftcore::Direction direction) {
    fftcore::Plan const& plan = plan_for(rows);
    auto const bytes = static_cast<std::size_t>(rows * item_) *
                       fftcore::element_bytes(precision_);
    cudaStream_t const stream = stream_.get();
    TCFFT_CUDA_CHECK(
        cudaMemcpyAsync(device_.data(), host_.data(), bytes, cudaMemcpyHostToDevice, stream));
    auto const status = fftcore::execute(plan, device_.data(), device_.data(), direction,
                                         workspace_.data(), workspace_.size(), stream);
    if (status != fftcore::Status::kSuccess) {
      throw_status("execute of " + std::to_string(rows) + " transforms failed", status);
    }
    TCFFT_CUDA_CHECK(
        cudaMemcpyAsync(host_.data(), device_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    stream_.synchronize();
  }

  FftEngineParams params_;
  std::vector<std::int64_t> shape_;
  std::int64_t max_rows_;
  fftcore::Precision precision_;
  fftcore::Backend backend_;
  std::string chosen_backend_;
  std::int64_t ny_ = 1;         // rows of a 2-D item (1 for 1-D items)
  std::int64_t nx_ = 0;         // length of the last axis
  std::int64_t item_ = 0;       // complex elements of one item
  std::int64_t half_item_ = 0;  // bins of one one-sided spectrum
  Stream stream_;
  DeviceBuffer workspace_;
  std::map<std::int64_t, fftcore::Plan> plans_;  // by items per call
  PinnedBuffer host_;    // [max_rows][item] __half2 or float2, upload and download
  DeviceBuffer device_;  // same layout, transformed in place
  std::vector<double> undo_;  // per row: sqrt(n) / input scale
};

}  // namespace

std::unique_ptr<FftEngine> make_gpu_fft_engine(FftEngineParams const& params,
                                               std::vector<std::int64_t> const& shape,
                                               std::int64_t max_rows) {
  // Answer "unsupported size" before touching the device, so it is reported the same way on
  // machines without a GPU.
  check_engine_shape(shape, max_rows, "gpu FFT engine");
  require_supported(plan_desc(shape, max_rows, parse_precision(params.precision),
                              parse_backend(params.backend)),
                    params, shape);
  return std::make_unique<GpuFftEngine>(params, shape, max_rows);
}

}  // namespace tcfft::stages::detail
