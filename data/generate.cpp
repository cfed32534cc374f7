// SPDX-License-Identifier: MIT
// tcfft-datagen: the project's own generator of synthetic HDF5 inputs. Every file records how
// it was made (kind, seed and all parameters as attributes), so it can be regenerated exactly.
//   tones   the bundled default input: float32 /signal, a few sinusoids in white noise, laid
//           out like a GWOSC strain file (Xspacing = 1/rate, Xstart, units);
//   images  float32 /images [count, ny, nx]: smooth Gaussian blobs plus noise;
//   series  /series of any sample dtype (random values), optionally with a NaN, for tests.
#include <hdf5.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Owner of one hid_t, closed with `Close`.
template <herr_t (*Close)(hid_t)>
class Id {
 public:
  explicit Id(hid_t id, char const* what) : id_(id) {
    if (id < 0) throw std::runtime_error(std::string("HDF5 failed to ") + what);
  }
  ~Id() { Close(id_); }
  Id(Id const&) = delete;
  Id& operator=(Id const&) = delete;
  [[nodiscard]] hid_t get() const noexcept { return id_; }

 private:
  hid_t id_;
};
using File = Id<&H5Fclose>;
using Dataset = Id<&H5Dclose>;
using Space = Id<&H5Sclose>;
using Type = Id<&H5Tclose>;
using Attribute = Id<&H5Aclose>;

void check(herr_t status, std::string const& what) {
  if (status < 0) throw std::runtime_error("HDF5 failed to " + what);
}

void write_attribute(hid_t object, std::string const& name, std::vector<double> const& values,
                     bool scalar = false) {
  auto const n = static_cast<hsize_t>(values.size());
  Space const space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr),
                    "create a dataspace");
  Attribute const attr(
      H5Acreate2(object, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
      ("create attribute " + name).c_str());
  check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, values.data()), "write attribute " + name);
}

void write_attribute(hid_t object, std::string const& name, double value) {
  write_attribute(object, name, std::vector<double>{value}, true);
}

void write_attribute(hid_t object, std::string const& name, std::int64_t value) {
  Space const space(H5Screate(H5S_SCALAR), "create a dataspace");
  Attribute const attr(
      H5Acreate2(object, name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
      ("create attribute " + name).c_str());
  check(H5Awrite(attr.get(), H5T_NATIVE_INT64, &value), "write attribute " + name);
}

void write_attribute(hid_t object, std::string const& name, std::string const& value) {
  Type const type(H5Tcopy(H5T_C_S1), "copy a string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "size a string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set a string charset");
  Space const space(H5Screate(H5S_SCALAR), "create a dataspace");
  Attribute const attr(
      H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
      ("create attribute " + name).c_str());
  char const* text = value.c_str();
  check(H5Awrite(attr.get(), type.get(), &text), "write attribute " + name);
}

/// Creates the output file, refusing an existing one unless `force`.
hid_t create_file(std::string const& path, bool force) {
  if (!force && std::filesystem::exists(path)) {
    throw std::runtime_error("output file '" + path + "' exists; pass --force to replace it");
  }
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t const file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot create output file '" + path + "'");
  return file;
}

/// Writes `data` (memory type `memory`) as dataset `name` of `file_type` and shape `dims`.
hid_t write_dataset(hid_t file, std::string const& name, hid_t file_type,
                    std::vector<hsize_t> const& dims, hid_t memory, void const* data) {
  Space const space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                    "create a dataspace");
  hid_t const dataset =
      H5Dcreate2(file, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dataset < 0) throw std::runtime_error("HDF5 failed to create dataset " + name);
  check(H5Dwrite(dataset, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write " + name);
  return dataset;
}

/// Root attributes shared by every kind.
void describe_run(hid_t file, std::string const& kind, std::uint64_t seed,
                  std::string const& command) {
  write_attribute(file, "generator", std::string("tcfft-datagen"));
  write_attribute(file, "kind", kind);
  write_attribute(file, "seed", static_cast<std::int64_t>(seed));
  write_attribute(file, "command", command);
}

struct Common {
  std::string out;
  std::uint64_t seed = 1;
  bool force = false;
  std::string command;
};

struct TonesOptions {
  double seconds = 64.0;
  double rate = 4096.0;
  double noise = 0.5;
  std::vector<std::string> tones = {"60:1.0", "120:0.5", "440:0.25", "1234.5:0.1"};
};

void make_tones(Common const& c, TonesOptions const& o) {
  std::vector<double> freqs;
  std::vector<double> amps;
  for (auto const& tone : o.tones) {
    auto const colon = tone.find(':');
    if (colon == std::string::npos) throw std::runtime_error("--tone '" + tone + "': use F:A");
    freqs.push_back(std::stod(tone.substr(0, colon)));
    amps.push_back(std::stod(tone.substr(colon + 1)));
  }
  auto const n = static_cast<std::size_t>(std::llround(o.seconds * o.rate));
  if (n == 0) throw std::runtime_error("--seconds * --rate gives no samples");
  std::mt19937_64 rng(c.seed);
  std::normal_distribution<double> noise(0.0, o.noise);
  std::vector<float> signal(n);
  for (std::size_t k = 0; k < n; ++k) {
    double const t = static_cast<double>(k) / o.rate;
    double value = noise(rng);
    for (std::size_t j = 0; j < freqs.size(); ++j) {
      value += amps[j] * std::sin(2.0 * std::numbers::pi * freqs[j] * t);
    }
    signal[k] = static_cast<float>(value);
  }
  File const file(create_file(c.out, c.force), "create the file");
  describe_run(file.get(), "tones", c.seed, c.command);
  Dataset const ds(
      write_dataset(file.get(), "/signal", H5T_IEEE_F32LE, {n}, H5T_NATIVE_FLOAT, signal.data()),
      "write /signal");
  write_attribute(ds.get(), "Xspacing", 1.0 / o.rate);
  write_attribute(ds.get(), "Xstart", 0.0);
  write_attribute(ds.get(), "Xunits", std::string("second"));
  write_attribute(ds.get(), "units", std::string("arbitrary"));
  write_attribute(ds.get(), "sample_rate", o.rate);
  write_attribute(ds.get(), "seconds", o.seconds);
  write_attribute(ds.get(), "n", static_cast<std::int64_t>(n));
  write_attribute(ds.get(), "tones_hz", freqs);
  write_attribute(ds.get(), "tones_amplitude", amps);
  write_attribute(ds.get(), "noise_sigma", o.noise);
  write_attribute(ds.get(), "description",
                  std::string("sum of sinusoids amplitude * sin(2 pi f t) (tones_hz, "
                              "tones_amplitude) plus white Gaussian noise of noise_sigma"));
}

struct ImagesOptions {
  std::int64_t count = 16;
  std::int64_t ny = 64;
  std::int64_t nx = 64;
  int blobs = 3;
  double noise = 0.05;
};

void make_images(Common const& c, ImagesOptions const& o) {
  if (o.count < 1 || o.ny < 1 || o.nx < 1)
    throw std::runtime_error("--count/--ny/--nx must be >= 1");
  auto const pixels = static_cast<std::size_t>(o.ny * o.nx);
  std::vector<float> stack(static_cast<std::size_t>(o.count) * pixels);
  std::mt19937_64 rng(c.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, o.noise);
  auto const ny = static_cast<double>(o.ny);
  auto const nx = static_cast<double>(o.nx);
  for (std::int64_t img = 0; img < o.count; ++img) {
    float* image = stack.data() + static_cast<std::size_t>(img) * pixels;
    for (int b = 0; b < o.blobs; ++b) {
      double const cy = unit(rng) * ny;
      double const cx = unit(rng) * nx;
      double const width = (0.05 + 0.15 * unit(rng)) * std::min(ny, nx);
      double const amplitude = 0.5 + unit(rng);
      for (std::int64_t y = 0; y < o.ny; ++y) {
        for (std::int64_t x = 0; x < o.nx; ++x) {
          double const r2 =
              std::pow(static_cast<double>(y) - cy, 2) + std::pow(static_cast<double>(x) - cx, 2);
          image[y * o.nx + x] +=
              static_cast<float>(amplitude * std::exp(-r2 / (2 * width * width)));
        }
      }
    }
    for (std::size_t k = 0; k < pixels; ++k) image[k] += static_cast<float>(noise(rng));
  }
  File const file(create_file(c.out, c.force), "create the file");
  describe_run(file.get(), "images", c.seed, c.command);
  std::vector<hsize_t> const dims = {static_cast<hsize_t>(o.count), static_cast<hsize_t>(o.ny),
                                     static_cast<hsize_t>(o.nx)};
  Dataset const ds(
      write_dataset(file.get(), "/images", H5T_IEEE_F32LE, dims, H5T_NATIVE_FLOAT, stack.data()),
      "write /images");
  write_attribute(ds.get(), "count", o.count);
  write_attribute(ds.get(), "ny", o.ny);
  write_attribute(ds.get(), "nx", o.nx);
  write_attribute(ds.get(), "blobs", static_cast<std::int64_t>(o.blobs));
  write_attribute(ds.get(), "noise_sigma", o.noise);
  write_attribute(ds.get(), "units", std::string("arbitrary"));
  write_attribute(ds.get(), "description",
                  std::string("each image: `blobs` Gaussian blobs (random centre, width "
                              "0.05-0.2 of the smaller side, amplitude 0.5-1.5) plus white "
                              "Gaussian noise of noise_sigma"));
}

struct SeriesOptions {
  std::string dtype = "float64";
  std::int64_t n = 1024;
  std::int64_t nan_at = -1;
  double rate = 1.0;
};

/// Compound {r, i} of `member`, as h5py writes complex numbers.
hid_t complex_type(hid_t member) {
  auto const bytes = H5Tget_size(member);
  hid_t const type = H5Tcreate(H5T_COMPOUND, 2 * bytes);
  check(H5Tinsert(type, "r", 0, member), "build a complex type");
  check(H5Tinsert(type, "i", bytes, member), "build a complex type");
  return type;
}

void make_series(Common const& c, SeriesOptions const& o) {
  bool const is_int = o.dtype == "int16" || o.dtype == "uint16";
  bool const is_complex = o.dtype.rfind("complex", 0) == 0;
  if (o.n < 1) throw std::runtime_error("--n must be >= 1");
  if (o.nan_at >= o.n)
    throw std::runtime_error("--nan-at " + std::to_string(o.nan_at) + " is beyond --n " +
                             std::to_string(o.n));
  if (is_int && o.nan_at >= 0) throw std::runtime_error("--nan-at needs a float/complex dtype");
  auto const n = static_cast<std::size_t>(o.n);
  std::mt19937_64 rng(c.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> ints(o.dtype == "int16" ? -32768 : 0,
                                          o.dtype == "int16" ? 32767 : 65535);
  // Values are generated as double pairs and converted by HDF5 to the file dtype.
  std::vector<double> values(is_complex ? 2 * n : n);
  for (auto& v : values) v = is_int ? ints(rng) : normal(rng);
  if (o.nan_at >= 0) values[static_cast<std::size_t>(o.nan_at) * (is_complex ? 2 : 1)] = NAN;

  hid_t file_type = H5T_IEEE_F64LE;
  if (o.dtype == "int16") file_type = H5T_STD_I16LE;
  if (o.dtype == "uint16") file_type = H5T_STD_U16LE;
  if (o.dtype == "float32") file_type = H5T_IEEE_F32LE;
  Type const c64(complex_type(H5T_IEEE_F32LE), "build complex64");
  Type const c128(complex_type(H5T_IEEE_F64LE), "build complex128");
  Type const memory_complex(complex_type(H5T_NATIVE_DOUBLE), "build a complex type");
  if (o.dtype == "complex64") file_type = c64.get();
  if (o.dtype == "complex128") file_type = c128.get();

  File const file(create_file(c.out, c.force), "create the file");
  describe_run(file.get(), "series", c.seed, c.command);
  Dataset const ds(
      write_dataset(file.get(), "/series", file_type, {n},
                    is_complex ? memory_complex.get() : H5T_NATIVE_DOUBLE, values.data()),
      "write /series");
  write_attribute(ds.get(), "dtype", o.dtype);
  write_attribute(ds.get(), "n", o.n);
  write_attribute(ds.get(), "nan_at", o.nan_at);
  write_attribute(ds.get(), "Xspacing", 1.0 / o.rate);
  write_attribute(ds.get(), "description",
                  std::string(is_int ? "uniform random integers over the dtype's range"
                                     : "standard normal random values (real and imaginary)"));
}

void add_common(CLI::App* cmd, Common& c) {
  cmd->add_option("--out", c.out, "output HDF5 file")->required();
  cmd->add_option("--seed", c.seed, "random seed (recorded in the file)");
  cmd->add_flag("--force", c.force, "replace an existing output file");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tcfft-datagen: synthetic HDF5 inputs for tcfft-pipeline"};
  app.require_subcommand(1);
  Common common;
  for (int k = 0; k < argc; ++k) common.command += (k ? " " : "") + std::string(argv[k]);

  TonesOptions tones;
  auto* tones_cmd = app.add_subcommand("tones", "default input: sinusoids in white noise");
  add_common(tones_cmd, common);
  tones_cmd->add_option("--seconds", tones.seconds, "duration")->check(CLI::PositiveNumber);
  tones_cmd->add_option("--rate", tones.rate, "sample rate (Hz)")->check(CLI::PositiveNumber);
  tones_cmd->add_option("--noise", tones.noise, "noise standard deviation")
      ->check(CLI::NonNegativeNumber);
  tones_cmd->add_option("--tone", tones.tones, "tone as FREQ_HZ:AMPLITUDE (repeatable)");

  ImagesOptions images;
  auto* images_cmd = app.add_subcommand("images", "float32 stack of blob images");
  add_common(images_cmd, common);
  images_cmd->add_option("--count", images.count, "number of images");
  images_cmd->add_option("--ny", images.ny, "rows per image");
  images_cmd->add_option("--nx", images.nx, "columns per image");
  images_cmd->add_option("--blobs", images.blobs, "blobs per image");
  images_cmd->add_option("--noise", images.noise, "noise standard deviation");

  SeriesOptions series;
  auto* series_cmd = app.add_subcommand("series", "random 1-D series of any dtype (tests)");
  add_common(series_cmd, common);
  series_cmd->add_option("--dtype", series.dtype, "sample dtype")
      ->check(CLI::IsMember({"int16", "uint16", "float32", "float64", "complex64", "complex128"}));
  series_cmd->add_option("--n", series.n, "number of samples");
  series_cmd->add_option("--nan-at", series.nan_at, "put a NaN at this sample index");
  series_cmd->add_option("--rate", series.rate, "sample rate written as Xspacing = 1/rate")
      ->check(CLI::PositiveNumber);

  CLI11_PARSE(app, argc, argv);
  try {
    if (tones_cmd->parsed()) make_tones(common, tones);
    if (images_cmd->parsed()) make_images(common, images);
    if (series_cmd->parsed()) make_series(common, series);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "tcfft-datagen: %s\n", e.what());
    return 1;
  }
  std::printf("wrote %s\n", common.out.c_str());
  return 0;
}
