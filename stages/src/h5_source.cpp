// SPDX-License-Identifier: MIT
// tcfft::io::H5Source: opens and validates one dataset, then reads it one frame (a few
// hyperslabs) at a time into double-precision host buffers, checking every sample.
#include <tcfft/io/h5_source.hpp>

#include <tcfft/core/error.hpp>

#include "h5/attributes.hpp"
#include "h5/direct_io.hpp"
#include "h5/dtype.hpp"
#include "h5/handle.hpp"
#include "h5/source_layout.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace tcfft::io {
namespace {

using I64 = std::int64_t;

void check_params(SourceParams const& p, std::string const& where) {
  auto const fail = [&](std::string const& what) { throw ConfigError(what + " (" + where + ")"); };
  if (p.on_nonfinite != "error" && p.on_nonfinite != "zero") {
    fail("input.on_nonfinite '" + p.on_nonfinite + "' is not one of error, zero");
  }
  if (p.rows_per_frame < 0) {
    fail("input.rows_per_frame " + std::to_string(p.rows_per_frame) + " is negative");
  }
  if (p.rows_per_frame == 0 && !(p.frame_mb > 0.0 && std::isfinite(p.frame_mb))) {
    fail("input.frame_mb " + std::to_string(p.frame_mb) + " must be positive");
  }
  if (!(p.sample_rate >= 0.0 && std::isfinite(p.sample_rate))) {
    fail("input.sample_rate " + std::to_string(p.sample_rate) + " must be >= 0 (0: from file)");
  }
  if (!std::isfinite(p.scale)) fail("input.scale " + std::to_string(p.scale) + " is not finite");
}

/// Collects the paths of up to `limit` datasets, for "not found" messages.
struct DatasetLister {
  std::vector<std::string> names;
  std::size_t limit = 8;
  bool more = false;
};

herr_t list_dataset(hid_t group, char const* name, H5L_info_t const* /*info*/, void* data) {
  auto& lister = *static_cast<DatasetLister*>(data);
  h5::Object const object(H5Oopen(group, name, H5P_DEFAULT));
  if (object && H5Iget_type(object.get()) == H5I_DATASET) {
    if (lister.names.size() < lister.limit) {
      lister.names.push_back(std::string("/") + name);
    } else {
      lister.more = true;
    }
  }
  return 0;
}

std::string datasets_in(hid_t location) {
  DatasetLister lister;
  H5Lvisit(location, H5_INDEX_NAME, H5_ITER_INC, &list_dataset, &lister);
  if (lister.names.empty()) return "it holds no datasets";
  std::string text = "datasets there: ";
  for (std::size_t k = 0; k < lister.names.size(); ++k) {
    text += (k ? ", " : "") + lister.names[k];
  }
  return text + (lister.more ? ", ..." : "");
}

char const* nonfinite_name(double v) {
  return std::isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
}

}  // namespace

struct H5Source::Impl {
  SourceParams params;
  std::string where;  // "file.h5:/group/data"
  h5::File file;
  h5::Dataset dataset;
  h5::Dataspace file_space;
  h5::Datatype memory_complex;
  h5::Datatype memory_raw;  // the file dtype in native byte order, for read_raw
  h5::Dtype dtype;
  std::vector<I64> shape;
  h5::SourceLayout layout;
  FrameSpec spec;
  I64 next_row = 0;
  I64 next_index = 0;
  I64 bytes_read = 0;
  I64 replaced = 0;
  // read_raw's direct path (see read_raw): decided once, then used without the HDF5 lock.
  std::once_flag direct_once;
  std::optional<h5::RawMap> raw_map;
  h5::FileDescriptor direct_fd;
  std::vector<h5::Run> runs;

  void open_file();
  void open_dataset();
  void build_spec();
  void read_blocks(Frame& frame, std::vector<h5::Block> const& blocks);
  void read_raw_blocks(Frame const& frame, std::vector<h5::Block> const& blocks, char* target);
  void prepare_direct();
  void read_direct(Frame const& frame, std::vector<h5::Block> const& blocks, char* target);
  [[nodiscard]] std::string items_text(Frame const& frame) const;
  void check_and_scale(Frame& frame, I64 samples);
  [[noreturn]] void throw_nonfinite(I64 first_row, I64 index, std::string const& what) const;
};

void H5Source::Impl::open_file() {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto const& path = params.path;
  if (path.empty()) throw ConfigError("input.path is empty");
  if (!fs::exists(path, ec)) throw InputError("input file '" + path + "' does not exist");
  if (fs::is_directory(path, ec)) {
    throw InputError("input file '" + path + "' is a directory, not an HDF5 file");
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw InputError("input file '" + path + "' is not an HDF5 file" + h5::hdf5_detail());
  }
  file = h5::File(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (!file) throw InputError("cannot open input file '" + path + "'" + h5::hdf5_detail());
}

void H5Source::Impl::open_dataset() {
  auto const& name = params.dataset;
  if (name.empty()) throw ConfigError("input.dataset is empty (input file '" + params.path + "')");
  h5::Object const object(H5Oopen(file.get(), name.c_str(), H5P_DEFAULT));
  if (!object) {
    throw InputError(where + ": dataset not found in '" + params.path + "'; " +
                     datasets_in(file.get()));
  }
  auto const kind = H5Iget_type(object.get());
  if (kind == H5I_GROUP) {
    throw InputError(where + ": is a group, not a dataset; " + datasets_in(object.get()));
  }
  if (kind != H5I_DATASET) throw InputError(where + ": is not a dataset (a named datatype?)");
  dataset = h5::Dataset(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT));
  if (!dataset) throw InputError(where + ": cannot open dataset" + h5::hdf5_detail());

  h5::Datatype const type(H5Dget_type(dataset.get()));
  std::string description;
  auto found = h5::classify(type.get(), description);
  if (!found) {
    throw InputError(where + ": unsupported dtype " + description +
                     "; supported are int8..int64, "
                     "uint8..uint64, float32, float64 and complex (compound {r, i} of float32 or "
                     "float64, as h5py writes it)");
  }
  dtype = *found;
  if (dtype.complex) memory_complex = h5::make_memory_complex_type();

  file_space = h5::Dataspace(H5Dget_space(dataset.get()));
  if (!file_space) throw InputError(where + ": cannot read the dataspace" + h5::hdf5_detail());
  if (H5Sget_simple_extent_type(file_space.get()) == H5S_NULL) {
    throw InputError(where + ": dataset is empty (null dataspace)");
  }
  int const rank = H5Sget_simple_extent_ndims(file_space.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  if (rank < 0 || H5Sget_simple_extent_dims(file_space.get(), dims.data(), nullptr) < 0) {
    throw InputError(where + ": cannot read the dataset shape" + h5::hdf5_detail());
  }
  shape.assign(dims.begin(), dims.end());
  layout = h5::make_layout(dims, params.items, params.segment, where, params.overlap);
}

void H5Source::Impl::build_spec() {
  spec.type = dtype.complex ? SampleType::kComplex : SampleType::kReal;
  spec.domain = Domain::kTime;
  spec.shape = layout.item_shape;
  spec.total_rows = layout.total_rows;
  spec.time_length = layout.item_shape.back();
  spec.time_rows = layout.item_shape.size() == 2 ? layout.item_shape.front() : 0;
  spec.valid_length = layout.valid_length;
  spec.series_length = layout.kind == h5::ItemKind::kSeries ? shape.front() : 0;
  spec.context = layout.context;
  spec.onesided = false;

  I64 rows = params.rows_per_frame;
  if (rows == 0) {
    double const item_bytes = static_cast<double>(spec.item_size()) * (dtype.complex ? 16 : 8);
    rows = static_cast<I64>(std::floor(params.frame_mb * 1048576.0 / item_bytes));
  }
  spec.rows_per_frame = std::clamp<I64>(rows, 1, spec.total_rows);

  spec.sample_rate = 1.0;
  if (params.sample_rate > 0.0) {
    spec.sample_rate = params.sample_rate;
  } else if (auto dx = h5::read_number_attribute(dataset.get(), "Xspacing");
             dx && *dx > 0.0 && std::isfinite(*dx)) {
    spec.sample_rate = 1.0 / *dx;
  }
  for (char const* key : {"units", "Yunits", "Ylabel"}) {
    auto units = h5::read_string_attribute(dataset.get(), key);
    if (units && !units->empty()) {
      spec.units = *units;
      break;
    }
  }
}

void H5Source::Impl::read_blocks(Frame& frame, std::vector<h5::Block> const& blocks) {
  bool const complex = dtype.complex;
  hid_t const memory_type = complex ? memory_complex.get() : H5T_NATIVE_DOUBLE;
  for (auto const& block : blocks) {
    // Memory in the file selection's own shape: a 1-D memory space against an N-D
    // chunked selection sends HDF5 down its slow general path (50x slower measured).
    h5::Dataspace const memory(
        H5Screate_simple(static_cast<int>(block.count.size()), block.count.data(), nullptr));
    void* target = complex ? static_cast<void*>(frame.complex.data() + block.offset)
                           : static_cast<void*>(frame.real.data() + block.offset);
    if (!memory ||
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, block.start.data(), nullptr,
                            block.count.data(), nullptr) < 0 ||
        H5Dread(dataset.get(), memory_type, memory.get(), file_space.get(), H5P_DEFAULT, target) <
            0) {
      throw IoError(where + ": reading items " + std::to_string(frame.first_row) + ".." +
                    std::to_string(frame.first_row + frame.rows - 1) + " failed" +
                    h5::hdf5_detail());
    }
    bytes_read += block.samples * static_cast<I64>(dtype.file_bytes);
  }
}

void H5Source::Impl::throw_nonfinite(I64 first_row, I64 index, std::string const& what) const {
  throw InputError(where + ": sample " + h5::coordinates(layout, first_row, index) + " " + what +
                   " (first non-finite value; set input.on_nonfinite: zero to replace such "
                   "samples)");
}

void H5Source::Impl::check_and_scale(Frame& frame, I64 samples) {
  bool const zero = params.on_nonfinite == "zero";
  double const scale = params.scale;
  auto const count = static_cast<std::size_t>(samples);
  if (!dtype.complex) {
    double* data = frame.real.data();
    for (std::size_t k = 0; k < count; ++k) {
      if (std::isfinite(data[k])) {
        data[k] *= scale;
      } else if (zero) {
        data[k] = 0.0;
        ++replaced;
      } else {
        throw_nonfinite(frame.first_row, static_cast<I64>(k),
                        std::string("is ") + nonfinite_name(data[k]));
      }
    }
    return;
  }
  std::complex<double>* data = frame.complex.data();
  for (std::size_t k = 0; k < count; ++k) {
    double const re = data[k].real();
    double const im = data[k].imag();
    if (std::isfinite(re) && std::isfinite(im)) {
      data[k] *= scale;
    } else if (zero) {
      data[k] = 0.0;
      ++replaced;
    } else {
      bool const bad_re = !std::isfinite(re);
      throw_nonfinite(frame.first_row, static_cast<I64>(k),
                      std::string("has ") + (bad_re ? "real" : "imaginary") + " part " +
                          nonfinite_name(bad_re ? re : im));
    }
  }
}

H5Source::H5Source(SourceParams const& params) : impl_(std::make_unique<Impl>()) {
  h5::Guard const guard;
  auto& s = *impl_;
  s.params = params;
  auto const& name = params.dataset;
  s.where = params.path + ":" + (name.empty() || name.front() == '/' ? name : "/" + name);
  check_params(params, s.where);
  s.open_file();
  s.open_dataset();
  s.build_spec();
}

H5Source::~H5Source() {
  h5::Guard const guard;
  impl_.reset();
}

FrameSpec const& H5Source::spec() const noexcept {
  return impl_->spec;
}

std::vector<std::int64_t> const& H5Source::dataset_shape() const noexcept {
  return impl_->shape;
}

std::string const& H5Source::dtype_name() const noexcept {
  return impl_->dtype.name;
}

std::string H5Source::describe() const {
  auto const& s = *impl_;
  std::ostringstream text;
  text << s.where << ' ' << s.dtype.name << ' ' << h5::format_shape(s.layout.dims) << " -> "
       << s.spec.total_rows << ' ' << h5::to_string(s.layout.kind);
  text << (s.layout.kind == h5::ItemKind::kSeries ? " items" : "") << " of ";
  if (s.spec.shape.size() == 2) text << s.spec.shape[0] << 'x';
  text << s.spec.shape.back() << ", " << s.spec.sample_rate << " Hz";
  if (s.layout.kind == h5::ItemKind::kSeries && s.spec.valid_length != s.layout.segment) {
    text << ", last item " << s.spec.valid_length << " samples + zero padding";
  }
  if (s.spec.context > 0) {
    text << ", " << s.spec.context << " samples of overlap-save context on each side";
  }
  text << ", " << s.spec.frames() << " frame(s) of up to " << s.spec.rows_per_frame << " items";
  return text.str();
}

bool H5Source::read(Frame& frame) {
  h5::Guard const guard;
  auto& s = *impl_;
  if (s.next_row >= s.spec.total_rows) return false;
  I64 const rows = std::min(s.spec.rows_per_frame, s.spec.total_rows - s.next_row);
  frame.index = s.next_index;
  frame.first_row = s.next_row;
  frame.resize_for(s.spec, rows);
  auto const blocks = h5::blocks_for(s.layout, frame.first_row, rows);
  if (s.layout.context > 0) {
    // Overlap-save items: blocks leave the context outside the series uncovered (zeros).
    std::fill(frame.real.begin(), frame.real.end(), 0.0);
    std::fill(frame.complex.begin(), frame.complex.end(), 0.0);
  }
  s.read_blocks(frame, blocks);
  I64 samples = 0;
  for (auto const& block : blocks) samples = std::max(samples, block.offset + block.samples);
  auto const total = static_cast<std::size_t>(rows * s.spec.item_size());
  if (s.dtype.complex) {
    std::fill(frame.complex.begin() + samples, frame.complex.begin() + total, 0.0);
  } else {
    std::fill(frame.real.begin() + samples, frame.real.begin() + total, 0.0);
  }
  s.check_and_scale(frame, samples);
  ++s.next_index;
  s.next_row += rows;
  return true;
}

void H5Source::rewind() {
  impl_->next_row = 0;
  impl_->next_index = 0;
}

void H5Source::Impl::read_raw_blocks(Frame const& frame, std::vector<h5::Block> const& blocks,
                                     char* target) {
  if (!memory_raw) {
    h5::Datatype const type(H5Dget_type(dataset.get()));
    memory_raw = h5::Datatype(H5Tget_native_type(type.get(), H5T_DIR_ASCEND));
    if (!memory_raw || H5Tget_size(memory_raw.get()) != dtype.file_bytes) {
      throw IoError(where + ": no packed native memory type for " + dtype.name + h5::hdf5_detail());
    }
  }
  for (auto const& block : blocks) {
    // Memory in the file selection's own shape: a 1-D memory space against an N-D
    // chunked selection sends HDF5 down its slow general path (50x slower measured).
    h5::Dataspace const memory(
        H5Screate_simple(static_cast<int>(block.count.size()), block.count.data(), nullptr));
    void* at = target + static_cast<std::size_t>(block.offset) * dtype.file_bytes;
    if (!memory ||
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, block.start.data(), nullptr,
                            block.count.data(), nullptr) < 0 ||
        H5Dread(dataset.get(), memory_raw.get(), memory.get(), file_space.get(), H5P_DEFAULT,
                at) < 0) {
      throw IoError(items_text(frame) + " failed" + h5::hdf5_detail());
    }
    bytes_read += block.samples * static_cast<I64>(dtype.file_bytes);
  }
}

std::string H5Source::Impl::items_text(Frame const& frame) const {
  return where + ": reading items " + std::to_string(frame.first_row) + ".." +
         std::to_string(frame.first_row + frame.rows - 1);
}

void H5Source::Impl::prepare_direct() {
  std::call_once(direct_once, [this] {
    h5::Guard const guard;
    h5::Datatype const type(H5Dget_type(dataset.get()));
    if (!type || !h5::native_layout(type.get())) return;
    auto map = h5::raw_map(file.get(), dataset.get(), dtype.file_bytes);
    if (!map) return;
    auto fd = h5::open_same_file(file.get(), params.path, false);
    if (!fd) return;
    raw_map = std::move(map);
    direct_fd = std::move(fd);
  });
}

void H5Source::Impl::read_direct(Frame const& frame, std::vector<h5::Block> const& blocks,
                                 char* target) {
  runs.clear();
  I64 samples = 0;
  for (auto const& block : blocks) {
    h5::append_runs(*raw_map, block.start, block.count,
                    static_cast<std::size_t>(block.offset) * dtype.file_bytes, runs);
    samples += block.samples;
  }
  h5::read_runs(direct_fd.get(), runs, target, items_text(frame));
  bytes_read += samples * static_cast<I64>(dtype.file_bytes);
}

bool H5Source::direct_io() const {
  impl_->prepare_direct();
  return impl_->raw_map.has_value();
}

std::size_t H5Source::raw_element_bytes() const noexcept {
  return impl_->dtype.file_bytes;
}

bool H5Source::read_raw(Frame& frame, void* buffer, std::size_t capacity) {
  auto& s = *impl_;
  s.prepare_direct();
  std::optional<h5::Guard> guard;  // the direct path takes no HDF5 lock
  if (!s.raw_map) guard.emplace();
  if (s.next_row >= s.spec.total_rows) return false;
  I64 const rows = std::min(s.spec.rows_per_frame, s.spec.total_rows - s.next_row);
  auto const bytes = static_cast<std::size_t>(rows * s.spec.item_size()) * s.dtype.file_bytes;
  TCFFT_EXPECTS(buffer != nullptr && capacity >= bytes,
                s.where + ": raw frame buffer of " + std::to_string(capacity) + " bytes, need " +
                    std::to_string(bytes));
  frame.index = s.next_index;
  frame.first_row = s.next_row;
  frame.rows = rows;
  auto const blocks = h5::blocks_for(s.layout, frame.first_row, rows);
  auto* target = static_cast<char*>(buffer);
  if (s.raw_map) {
    s.read_direct(frame, blocks, target);
  } else {
    s.read_raw_blocks(frame, blocks, target);
  }
  // Zero what no block covers: overlap-save context outside the series, final-item padding.
  std::size_t covered = 0;
  for (auto const& block : blocks) {
    auto const begin = static_cast<std::size_t>(block.offset) * s.dtype.file_bytes;
    if (begin > covered) std::fill(target + covered, target + begin, char{0});
    auto const end = begin + static_cast<std::size_t>(block.samples) * s.dtype.file_bytes;
    covered = std::max(covered, end);
  }
  if (bytes > covered) std::fill(target + covered, target + bytes, char{0});
  ++s.next_index;
  s.next_row += rows;
  return true;
}

void H5Source::throw_nonfinite(std::int64_t first_row, std::int64_t index, double re,
                               double im) const {
  auto const& s = *impl_;
  if (!s.dtype.complex) {
    s.throw_nonfinite(first_row, index, std::string("is ") + nonfinite_name(re));
  }
  bool const bad_re = !std::isfinite(re);
  s.throw_nonfinite(first_row, index,
                    std::string("has ") + (bad_re ? "real" : "imaginary") + " part " +
                        nonfinite_name(bad_re ? re : im));
}

std::int64_t H5Source::bytes_read() const noexcept {
  return impl_->bytes_read;
}

std::int64_t H5Source::nonfinite_replaced() const noexcept {
  return impl_->replaced;
}

}  // namespace tcfft::io
