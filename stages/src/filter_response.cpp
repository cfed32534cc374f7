// SPDX-License-Identifier: MIT
// Response checks, per-bin gains and the response-file loader (HDF5 C API, RAII handles local
// to this file).
#include <tcfft/stages/filter_response.hpp>

#include <tcfft/core/error.hpp>

#include <hdf5.h>

#include <filesystem>
#include <sstream>
#include <utility>

namespace tcfft::stages {
namespace {

// Closes an HDF5 id with the matching H5*close on scope exit.
class H5Handle {
 public:
  H5Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~H5Handle() {
    if (id_ >= 0) close_(id_);
  }
  H5Handle(H5Handle const&) = delete;
  H5Handle& operator=(H5Handle const&) = delete;
  [[nodiscard]] hid_t get() const noexcept { return id_; }
  [[nodiscard]] bool valid() const noexcept { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// Silences HDF5's automatic error printing while alive (we report errors ourselves).
class QuietH5Errors {
 public:
  QuietH5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietH5Errors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietH5Errors(QuietH5Errors const&) = delete;
  QuietH5Errors& operator=(QuietH5Errors const&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

std::string format_value(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void check_corner(double value, char const* key, double nyquist, double sample_rate,
                  std::string const& context) {
  if (!(value > 0.0)) {
    throw ConfigError(context + ": " + key + " must be positive, got " + format_value(value));
  }
  if (value > nyquist) {
    throw ConfigError(context + ": " + key + " " + format_value(value) +
                      " is above the Nyquist frequency " + format_value(nyquist) +
                      " (sample_rate " + format_value(sample_rate) + " / 2)");
  }
}

std::int64_t last_axis_bins(FrameSpec const& spec) {
  return spec.onesided ? spec.time_length / 2 + 1 : spec.time_length;
}

void check_item_shape(FrameSpec const& spec, std::string const& context) {
  if (spec.shape.empty() || spec.shape.size() > 2 || spec.time_length <= 0 ||
      spec.shape.back() != last_axis_bins(spec)) {
    throw ConfigError(context + ": frequency items of last extent " +
                      std::to_string(spec.shape.empty() ? 0 : spec.shape.back()) +
                      " do not match time_length " + std::to_string(spec.time_length) +
                      (spec.onesided ? " (one-sided)" : " (full)"));
  }
  if (spec.shape.size() == 2 && spec.time_rows > 0 && spec.shape[0] != spec.time_rows) {
    throw ConfigError(context + ": 2-D frequency items of " + std::to_string(spec.shape[0]) +
                      " rows do not match time_rows " + std::to_string(spec.time_rows));
  }
}

}  // namespace

void check_response(ResponseParams const& p, double sample_rate, std::string const& context) {
  if (!(sample_rate > 0.0)) {
    throw ConfigError(context + ": sample_rate must be positive, got " + format_value(sample_rate));
  }
  double const nyquist = sample_rate / 2.0;
  if (p.shape == FilterShape::kButterworth && p.order < 1) {
    throw ConfigError(context + ": order must be at least 1, got " + std::to_string(p.order));
  }
  if (p.band == FilterBand::kLowpass || p.band == FilterBand::kHighpass) {
    check_corner(p.cutoff, "cutoff", nyquist, sample_rate, context);
    return;
  }
  check_corner(p.low, "low", nyquist, sample_rate, context);
  check_corner(p.high, "high", nyquist, sample_rate, context);
  if (!(p.low < p.high)) {
    throw ConfigError(context + ": low " + format_value(p.low) + " must be below high " +
                      format_value(p.high));
  }
}

std::vector<double> response_gains(ResponseParams const& p, FrameSpec const& spec,
                                   std::string const& context) {
  check_item_shape(spec, context);
  std::int64_t const nx = spec.shape.back();
  std::int64_t const ny = spec.shape.size() == 2 ? spec.shape[0] : 1;
  bool const radial = spec.shape.size() == 2 && spec.time_rows > 0;
  std::vector<double> gains(static_cast<std::size_t>(nx * ny));
  for (std::int64_t y = 0; y < ny; ++y) {
    double const fy = radial ? bin_frequency(y, spec.time_rows, spec.sample_rate) : 0.0;
    for (std::int64_t x = 0; x < nx; ++x) {
      double const fx = bin_frequency(x, spec.time_length, spec.sample_rate);
      double const f = radial ? std::hypot(fx, fy) : fx;
      gains[static_cast<std::size_t>(y * nx + x)] = response_gain(p, f);
    }
  }
  return gains;
}

std::vector<std::complex<double>> read_response_file(std::string const& file,
                                                     std::string const& dataset,
                                                     std::string const& context) {
  auto const where = context + ": response file " + file + " dataset " + dataset;
  if (!std::filesystem::exists(file)) throw InputError(where + ": file not found");
  QuietH5Errors quiet;
  H5Handle f(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!f.valid()) throw InputError(where + ": not a readable HDF5 file");
  H5Handle d(H5Dopen2(f.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid()) throw InputError(where + ": dataset not found");
  H5Handle space(H5Dget_space(d.get()), H5Sclose);
  auto const count = H5Sget_simple_extent_npoints(space.get());
  if (count <= 0) throw InputError(where + ": dataset is empty");
  H5Handle type(H5Dget_type(d.get()), H5Tclose);
  auto const type_class = H5Tget_class(type.get());

  std::vector<std::complex<double>> values(static_cast<std::size_t>(count));
  if (type_class == H5T_FLOAT || type_class == H5T_INTEGER) {
    std::vector<double> real(static_cast<std::size_t>(count));
    if (H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, real.data()) < 0) {
      throw InputError(where + ": read failed");
    }
    for (std::size_t i = 0; i < real.size(); ++i) values[i] = real[i];
    return values;
  }
  if (type_class == H5T_COMPOUND && H5Tget_nmembers(type.get()) == 2 &&
      H5Tget_member_index(type.get(), "r") >= 0 && H5Tget_member_index(type.get(), "i") >= 0) {
    H5Handle mem(H5Tcreate(H5T_COMPOUND, sizeof(std::complex<double>)), H5Tclose);
    H5Tinsert(mem.get(), "r", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(mem.get(), "i", sizeof(double), H5T_NATIVE_DOUBLE);
    if (H5Dread(d.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
      throw InputError(where + ": read failed");
    }
    return values;
  }
  throw InputError(where + ": unsupported dtype (expected float, integer or compound {r, i})");
}

std::vector<std::complex<double>> fit_response_to_item(std::vector<std::complex<double>> response,
                                                       FrameSpec const& spec,
                                                       std::string const& file,
                                                       std::string const& dataset,
                                                       std::string const& context) {
  check_item_shape(spec, context);
  auto const length = static_cast<std::int64_t>(response.size());
  std::int64_t const bins = spec.shape.back();
  std::int64_t const item = spec.item_size();
  if (length == item) return response;
  if (length != bins) {
    throw ConfigError(context + ": response file " + file + " dataset " + dataset + " holds " +
                      std::to_string(length) + " values, but the items have " +
                      std::to_string(bins) + " bins along the last axis" +
                      (item != bins ? " (" + std::to_string(item) + " per item)" : ""));
  }
  std::vector<std::complex<double>> expanded(static_cast<std::size_t>(item));
  for (std::int64_t i = 0; i < item; ++i) {
    expanded[static_cast<std::size_t>(i)] = response[static_cast<std::size_t>(i % bins)];
  }
  return expanded;
}

}  // namespace tcfft::stages
