// SPDX-License-Identifier: MIT
// The CPU FFT engine: FFTW in double precision (FFTW_ESTIMATE, any extents, rank 1 or 2).
// Plans are made lazily per (kind, rows, in-place) and cached, so a run plans at most a few
// times (a full frame and a short last one). They are made with FFTW_UNALIGNED and run through
// FFTW's new-array execute functions, so any std::vector storage may be passed. FFTW's planner
// (and plan destruction) is not thread-safe: both happen under one process-wide mutex; FFTW's
// execute functions are thread-safe and run unlocked. One engine is used by one thread at a time.
#include "fft_engines.hpp"

#include <tcfft/core/error.hpp>

#include <fftw3.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <vector>

namespace tcfft::stages::detail {
namespace {

std::mutex& fftw_planner_mutex() {
  static std::mutex mutex;
  return mutex;
}

struct FftwPlanDeleter {
  void operator()(fftw_plan plan) const noexcept {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex());
    fftw_destroy_plan(plan);
  }
};
using FftwPlan = std::unique_ptr<std::remove_pointer_t<fftw_plan>, FftwPlanDeleter>;

enum class Kind { kForward, kInverse, kRealToComplex, kComplexToReal };

fftw_complex* as_fftw(std::complex<double>* p) { return reinterpret_cast<fftw_complex*>(p); }
fftw_complex* as_fftw(std::complex<double> const* p) {
  // FFTW's execute functions take non-const pointers; out-of-place c2c and r2c plans made
  // without FFTW_DESTROY_INPUT leave the input untouched.
  return reinterpret_cast<fftw_complex*>(const_cast<std::complex<double>*>(p));
}

class CpuFftEngine final : public FftEngine {
 public:
  CpuFftEngine(std::vector<std::int64_t> const& shape, std::int64_t max_rows)
      : shape_(shape), max_rows_(max_rows) {
    check_engine_shape(shape, max_rows, "cpu FFT engine");
    for (auto extent : shape) {
      if (extent > INT_MAX) {
        throw FftError("FFT size " + size_string(shape) +
                       " is too large for the cpu (FFTW) engine: extents must fit in an int");
      }
      dims_.push_back(static_cast<int>(extent));
    }
    item_ = 1;
    for (auto extent : shape) item_ *= extent;
    half_item_ = item_ / shape.back() * (shape.back() / 2 + 1);
    if (item_ > INT_MAX || half_item_ > INT_MAX || max_rows > INT_MAX) {
      throw FftError("FFT size " + size_string(shape) + " with " + std::to_string(max_rows) +
                     " items per call is too large for the cpu (FFTW) engine");
    }
  }

  std::string describe() const override { return "cpu (FFTW double)"; }
  std::vector<std::int64_t> const& shape() const noexcept override { return shape_; }

  void c2c(std::complex<double> const* in, std::complex<double>* out, std::int64_t rows,
           int sign) override {
    if (sign != -1 && sign != +1) {
      throw FftError("cpu FFT engine: sign must be -1 or +1, got " + std::to_string(sign));
    }
    if (!check_rows(rows)) return;
    Kind const kind = sign < 0 ? Kind::kForward : Kind::kInverse;
    fftw_plan plan = plan_for(kind, rows, in == out, as_fftw(in), as_fftw(out));
    fftw_execute_dft(plan, as_fftw(in), as_fftw(out));
  }

  void r2c(double const* in, std::complex<double>* out, std::int64_t rows) override {
    if (!check_rows(rows)) return;
    auto* real_in = const_cast<double*>(in);  // r2c out of place preserves its input
    fftw_plan plan = plan_for(Kind::kRealToComplex, rows, false, real_in, as_fftw(out));
    fftw_execute_dft_r2c(plan, real_in, as_fftw(out));
  }

  void c2r(std::complex<double> const* in, double* out, std::int64_t rows) override {
    if (!check_rows(rows)) return;
    // FFTW's c2r overwrites its input, which is const here: transform a copy.
    auto const count = static_cast<std::size_t>(rows * half_item_);
    scratch_.assign(in, in + count);
    fftw_plan plan = plan_for(Kind::kComplexToReal, rows, false, as_fftw(scratch_.data()), out);
    fftw_execute_dft_c2r(plan, as_fftw(scratch_.data()), out);
  }

 private:
  // False for rows == 0 (nothing to do); throws when rows is out of range.
  bool check_rows(std::int64_t rows) const {
    if (rows < 0 || rows > max_rows_) {
      throw FftError("cpu FFT engine for size " + size_string(shape_) + ": " +
                     std::to_string(rows) + " items passed, planned for at most " +
                     std::to_string(max_rows_));
    }
    return rows > 0;
  }

  // The cached plan for this kind and row count; `in`/`out` only shape the plan (FFTW_ESTIMATE
  // does not touch the arrays while planning).
  fftw_plan plan_for(Kind kind, std::int64_t rows, bool in_place, void* in, void* out) {
    auto const key = std::make_tuple(kind, rows, in_place);
    if (auto it = plans_.find(key); it != plans_.end()) return it->second.get();
    int const rank = static_cast<int>(dims_.size());
    int const howmany = static_cast<int>(rows);
    int const item = static_cast<int>(item_);
    int const half = static_cast<int>(half_item_);
    unsigned const flags = FFTW_ESTIMATE | FFTW_UNALIGNED;
    fftw_plan plan = nullptr;
    {
      std::lock_guard<std::mutex> lock(fftw_planner_mutex());
      switch (kind) {
        case Kind::kForward:
        case Kind::kInverse:
          plan = fftw_plan_many_dft(rank, dims_.data(), howmany, static_cast<fftw_complex*>(in),
                                    nullptr, 1, item, static_cast<fftw_complex*>(out), nullptr,
                                    1, item, kind == Kind::kForward ? FFTW_FORWARD : FFTW_BACKWARD,
                                    flags);
          break;
        case Kind::kRealToComplex:
          plan = fftw_plan_many_dft_r2c(rank, dims_.data(), howmany, static_cast<double*>(in),
                                        nullptr, 1, item, static_cast<fftw_complex*>(out),
                                        nullptr, 1, half, flags);
          break;
        case Kind::kComplexToReal:
          plan = fftw_plan_many_dft_c2r(rank, dims_.data(), howmany,
                                        static_cast<fftw_complex*>(in), nullptr, 1, half,
                                        static_cast<double*>(out), nullptr, 1, item, flags);
          break;
      }
    }
    if (plan == nullptr) {
      throw FftError("FFTW could not plan a transform of size " + size_string(shape_) + " for " +
                     std::to_string(rows) + " items");
    }
    plans_.emplace(key, FftwPlan(plan));
    return plan;
  }

  std::vector<std::int64_t> shape_;
  std::int64_t max_rows_;
  std::vector<int> dims_;
  std::int64_t item_ = 0;       // samples of one time-domain item
  std::int64_t half_item_ = 0;  // bins of one one-sided spectrum (last axis n/2+1)
  std::map<std::tuple<Kind, std::int64_t, bool>, FftwPlan> plans_;
  std::vector<std::complex<double>> scratch_;  // c2r input copy
};

}  // namespace

std::unique_ptr<FftEngine> make_cpu_fft_engine(std::vector<std::int64_t> const& shape,
                                               std::int64_t max_rows) {
  return std::make_unique<CpuFftEngine>(shape, max_rows);
}

}  // namespace tcfft::stages::detail
