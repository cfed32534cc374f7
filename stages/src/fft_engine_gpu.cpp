// SPDX-License-Identifier: MIT
// The GPU FFT engine: host doubles -> pinned FP16/FP32 staging -> device -> fftcore -> pinned ->
// host doubles. c2c runs fftcore's C2C in place; r2c and c2r run its R2C / C2R plans (cuFFT's
// n/2+1 half-spectrum layout, the engine's own) out of place: the reals in their own device
// buffer, the half spectrum in the complex one. fftcore's real kinds need at least 2 points on
// the last axis; with 1 point there the real transform along it is the identity, so r2c and c2r
// run the complex plan on (x, 0) and keep the real part (the half spectrum is then the whole).
//
// Range: each item (row) is multiplied by an exact power of two 2^-e with max |re|,|im| < 1
// before conversion, and fftcore runs with Scaling::kBySqrtN, so FP16 values stay below
// sqrt(2n) (<= 16384 for n <= 2^27) and typical bins stay near 1, far from FP16's subnormals.
// Both factors are undone in double afterwards: results are unnormalised, as FFTW's.
// Plans, by kind and items per call: every kind is checked (host-only) and the C2C one for
// max_rows items is made when the engine is built, so an unsupported size fails at configure
// time; the others (R2C, C2R, shorter final frames) are made on first use, as is the real
// device buffer.
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
#include <utility>
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
                            fftcore::Precision precision, fftcore::Backend backend,
                            fftcore::Transform kind = fftcore::Transform::kC2C) {
  fftcore::PlanDesc desc;
  desc.rank = static_cast<int>(shape.size());
  desc.dims[0] = shape[0];
  desc.dims[1] = shape.size() == 2 ? shape[1] : 0;
  desc.batch = rows;
  desc.precision = precision;
  desc.scaling = fftcore::Scaling::kBySqrtN;
  desc.backend = backend;
  desc.kind = kind;
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

// fftcore's R2C / C2R need 2 points or more on the last axis (see file comment).
bool uses_real_kinds(std::vector<std::int64_t> const& shape) { return shape.back() >= 2; }

// require_supported for every plan kind the engine may make for `shape`.
void require_all_supported(FftEngineParams const& params, std::vector<std::int64_t> const& shape,
                           std::int64_t max_rows) {
  auto const precision = parse_precision(params.precision);
  auto const backend = parse_backend(params.backend);
  require_supported(plan_desc(shape, max_rows, precision, backend), params, shape);
  if (!uses_real_kinds(shape)) return;
  for (auto kind : {fftcore::Transform::kR2C, fftcore::Transform::kC2R}) {
    require_supported(plan_desc(shape, max_rows, precision, backend, kind), params, shape);
  }
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
    real_kinds_ = uses_real_kinds(shape);
    fftcore::Plan const& plan = plan_for(fftcore::Transform::kC2C, max_rows);  // fails early
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
    run(fftcore::Transform::kC2C, rows,
        sign < 0 ? fftcore::Direction::kForward : fftcore::Direction::kInverse);
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
      for (std::int64_t i = 0; i < item_; ++i) put_real_input(r * item_ + i, x[i] * scale);
    }
    run(real_kinds_ ? fftcore::Transform::kR2C : fftcore::Transform::kC2C, rows,
        fftcore::Direction::kForward);
    for (std::int64_t r = 0; r < rows; ++r) {  // [rows][ny][nx/2+1], as out
      double const undo = undo_[static_cast<std::size_t>(r)];
      for (std::int64_t i = 0; i < half_item_; ++i) {
        out[r * half_item_ + i] = get(r * half_item_ + i) * undo;
      }
    }
  }

  void c2r(std::complex<double> const* in, double* out, std::int64_t rows) override {
    if (!check_rows(rows)) return;
    for (std::int64_t r = 0; r < rows; ++r) {
      auto const* h = in + r * half_item_;  // [ny][nx/2+1]
      double const scale = set_row_scale(r, max_component(h, half_item_));
      for (std::int64_t i = 0; i < half_item_; ++i) put(r * half_item_ + i, h[i] * scale);
    }
    run(real_kinds_ ? fftcore::Transform::kC2R : fftcore::Transform::kC2C, rows,
        fftcore::Direction::kInverse);
    for (std::int64_t r = 0; r < rows; ++r) {
      double const undo = undo_[static_cast<std::size_t>(r)];
      for (std::int64_t i = 0; i < item_; ++i) {
        out[r * item_ + i] = get_real_output(r * item_ + i) * undo;
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

  // Element i of the real side of r2c: a real of the R2C input, or (x, 0) for the C2C route.
  void put_real_input(std::int64_t i, double v) {
    auto const k = static_cast<std::size_t>(i);
    if (!real_kinds_) {
      put(i, {v, 0.0});
    } else if (precision_ == fftcore::Precision::kHalf) {
      host_.as<__half>()[k] = __double2half(v);
    } else {
      host_.as<float>()[k] = static_cast<float>(v);
    }
  }

  // Element i of the real side of c2r: a real of the C2R output, or the real part of the
  // complex inverse on the C2C route.
  double get_real_output(std::int64_t i) const {
    if (!real_kinds_) return get(i).real();
    auto const k = static_cast<std::size_t>(i);
    if (precision_ == fftcore::Precision::kHalf) return __half2float(host_.as<__half>()[k]);
    return host_.as<float>()[k];
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

  fftcore::Plan const& plan_for(fftcore::Transform kind, std::int64_t rows) {
    auto const key = std::make_pair(kind, rows);
    if (auto it = plans_.find(key); it != plans_.end()) return it->second;
    auto const desc = plan_desc(shape_, rows, precision_, backend_, kind);
    require_supported(desc, params_, shape_);
    fftcore::Plan plan;
    if (auto s = fftcore::make_plan(desc, plan); s != fftcore::Status::kSuccess) {
      throw_status("cannot plan " + std::to_string(rows) + " " + kind_name(kind) + " transforms",
                   s);
    }
    if (plan.workspace_bytes() > workspace_.size()) {
      workspace_ = DeviceBuffer(plan.workspace_bytes());
    }
    return plans_.emplace(key, std::move(plan)).first->second;
  }

  static char const* kind_name(fftcore::Transform kind) {
    if (kind == fftcore::Transform::kR2C) return "R2C";
    return kind == fftcore::Transform::kC2R ? "C2R" : "C2C";
  }

  // The device buffer of the real side of R2C / C2R: [max_rows][item] __half or float.
  void* real_device() {
    if (real_device_.size() == 0) {
      real_device_ = DeviceBuffer(static_cast<std::size_t>(max_rows_ * item_) *
                                  fftcore::real_element_bytes(precision_));
    }
    return real_device_.data();
  }

  // Uploads host_, transforms `rows` items (C2C in place in device_; R2C / C2R between
  // real_device() and device_), downloads into host_ and waits.
  void run(fftcore::Transform kind, std::int64_t rows, fftcore::Direction direction) {
    fftcore::Plan const& plan = plan_for(kind, rows);
    void* const in = kind == fftcore::Transform::kR2C ? real_device() : device_.data();
    void* const out = kind == fftcore::Transform::kC2R ? real_device() : device_.data();
    cudaStream_t const stream = stream_.get();
    TCFFT_CUDA_CHECK(cudaMemcpyAsync(in, host_.data(), fftcore::buffer_bytes(plan.desc(), true),
                                     cudaMemcpyHostToDevice, stream));
    auto const status =
        fftcore::execute(plan, in, out, direction, workspace_.data(), workspace_.size(), stream);
    if (status != fftcore::Status::kSuccess) {
      throw_status(
          "execute of " + std::to_string(rows) + " " + kind_name(kind) + " transforms failed",
          status);
    }
    TCFFT_CUDA_CHECK(cudaMemcpyAsync(host_.data(), out, fftcore::buffer_bytes(plan.desc(), false),
                                     cudaMemcpyDeviceToHost, stream));
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
  bool real_kinds_ = false;     // r2c / c2r through R2C / C2R plans (nx >= 2), else through C2C
  Stream stream_;
  DeviceBuffer workspace_;
  std::map<std::pair<fftcore::Transform, std::int64_t>, fftcore::Plan> plans_;  // kind, items
  PinnedBuffer host_;         // [max_rows][item] __half2 or float2 (or the reals / half spectra
                              // of r2c and c2r, which are no larger), upload and download
  DeviceBuffer device_;       // same layout: C2C in place, the half spectrum of R2C / C2R
  DeviceBuffer real_device_;  // the reals of R2C / C2R, allocated on first use
  std::vector<double> undo_;  // per row: sqrt(n) / input scale
};

}  // namespace

std::unique_ptr<FftEngine> make_gpu_fft_engine(FftEngineParams const& params,
                                               std::vector<std::int64_t> const& shape,
                                               std::int64_t max_rows) {
  // Answer "unsupported size" before touching the device, so it is reported the same way on
  // machines without a GPU.
  check_engine_shape(shape, max_rows, "gpu FFT engine");
  require_all_supported(params, shape, max_rows);
  return std::make_unique<GpuFftEngine>(params, shape, max_rows);
}

}  // namespace tcfft::stages::detail
