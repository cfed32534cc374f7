// SPDX-License-Identifier: MIT
// tcfft::io::OutputFile: one HDF5 file written under a temporary name and renamed into place
// by commit(); until then the final path is untouched (an old file survives a failed run).
// write_raw writes datasets' chunks directly with pwrite(2) when it can (see h5_sink.hpp).
#include <tcfft/io/h5_sink.hpp>

#include <tcfft/core/error.hpp>

#include "h5/attributes.hpp"
#include "h5/direct_io.hpp"
#include "h5/dtype.hpp"
#include "h5/handle.hpp"
#include "h5/sink_layout.hpp"

#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tcfft::io {
namespace {

namespace fs = std::filesystem;
using I64 = std::int64_t;

std::string utc_now() {
  auto const now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void check_destination(OutputParams const& params) {
  auto const& path = params.path;
  if (path.empty()) throw OutputError("output.path is empty");
  std::error_code ec;
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::exists(dir, ec)) {
    throw OutputError("output directory '" + dir.string() + "' of '" + path + "' does not exist");
  }
  if (!fs::is_directory(dir, ec)) {
    throw OutputError("output directory '" + dir.string() + "' of '" + path +
                      "' is not a directory");
  }
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    throw OutputError("output directory '" + dir.string() + "' of '" + path + "' is not writable");
  }
  if (fs::is_directory(path, ec)) throw OutputError("output path '" + path + "' is a directory");
  if (fs::exists(path, ec) && !params.overwrite) {
    throw OutputError("output file '" + path +
                      "' exists; set output.overwrite: true or choose another path");
  }
}

/// The stored dtype: `word` resolved against the data type; ConfigError for float of complex.
h5::Dtype stored_dtype(std::string const& word, SampleType type, std::string const& dataset) {
  bool const complex_data = type == SampleType::kComplex;
  std::string name = word;
  if (word == "auto") name = complex_data ? "complex128" : "float64";
  if (name != "float32" && name != "float64" && name != "complex64" && name != "complex128") {
    throw ConfigError("sink dataset '" + dataset + "': dtype '" + word +
                      "' is not one of auto, float32, float64, complex64, complex128");
  }
  bool const complex_file = name.rfind("complex", 0) == 0;
  if (complex_data && !complex_file) {
    throw ConfigError("sink dataset '" + dataset + "': dtype '" + word +
                      "' cannot hold complex data; use complex64, complex128 or auto, or add a "
                      "spectrum stage (magnitude/power) before the sink");
  }
  std::size_t const bytes = (name == "float32") ? 4 : (name == "complex128") ? 16 : 8;
  return h5::Dtype{name, complex_file, bytes};
}

}  // namespace

struct OutputFile::Impl {
  /// How write_raw stores a dataset: decided at its first write_raw (kUndecided until then).
  enum class Path { kUndecided, kHdf5, kDirect };
  struct Output {
    std::string name;
    h5::Dataset dataset;
    h5::Dtype dtype;
    FrameSpec spec;
    h5::SinkLayout layout;
    std::vector<std::complex<double>> widened;  // real frames stored as complex
    std::vector<double> cores_real;             // overlap-save items without their context
    std::vector<std::complex<double>> cores_complex;
    Path path = Path::kUndecided;  // set holding both direct_mutex and the HDF5 guard
    bool hdf5_written = false;     // write() stored frames through HDF5
    std::optional<h5::RawMap> raw_map;
  };

  OutputParams params;
  std::string temporary;
  h5::File file;
  h5::Datatype memory_complex;
  std::vector<Output> outputs;
  std::atomic<I64> bytes_written = 0;
  bool committed = false;
  // write_raw's direct path: the lock orders its checks against commit(); taken before the
  // HDF5 guard, never while holding it.
  std::mutex direct_mutex;
  h5::FileDescriptor direct_fd;  // O_WRONLY on the temporary file

  Output& output(int dataset_id);
  Path choose_path(Output& out);
  /// H5Dwrite of `data` (in `memory_type`) into `slab` of `out`; the caller holds h5::Guard.
  void write_slab(Output& out, h5::SinkSlab const& slab, hid_t memory_type, void const* data,
                  std::int64_t frame_index);
  void write_dataset_attributes(Output const& out) const;
  void move_into_place();
};

OutputFile::Impl::Output& OutputFile::Impl::output(int dataset_id) {
  if (dataset_id < 0 || static_cast<std::size_t>(dataset_id) >= outputs.size()) {
    throw IoError("write to unknown output dataset id " + std::to_string(dataset_id));
  }
  return outputs[static_cast<std::size_t>(dataset_id)];
}

void OutputFile::Impl::write_slab(Output& out, h5::SinkSlab const& slab, hid_t memory_type,
                                  void const* data, std::int64_t frame_index) {
  // Memory in the file selection's own shape: a 1-D memory space against an N-D chunked
  // selection sends HDF5 down its slow general path (11.5 s -> 0.97 s for a 268 MB image stack).
  h5::Dataspace const memory(
      H5Screate_simple(static_cast<int>(slab.count.size()), slab.count.data(), nullptr));
  h5::Dataspace const file_space(H5Dget_space(out.dataset.get()));
  if (!memory || !file_space ||
      H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, slab.start.data(), nullptr,
                          slab.count.data(), nullptr) < 0 ||
      H5Dwrite(out.dataset.get(), memory_type, memory.get(), file_space.get(), H5P_DEFAULT, data) <
          0) {
    throw IoError("sink dataset '" + out.name + "': writing frame " + std::to_string(frame_index) +
                  " to '" + temporary + "' failed" + h5::hdf5_detail());
  }
  bytes_written += slab.samples * static_cast<I64>(out.dtype.file_bytes);
}

OutputFile::Impl::Path OutputFile::Impl::choose_path(Output& out) {
  if (out.path != Path::kUndecided) return out.path;
  h5::Guard const guard;
  out.path = Path::kHdf5;
  if (std::endian::native != std::endian::little || out.hdf5_written) return out.path;
  h5::Datatype const type(H5Dget_type(out.dataset.get()));
  if (!type || !h5::native_layout(type.get())) return out.path;
  // Chunks were allocated at creation (early allocation); put the metadata describing them
  // on disk before any raw byte goes there behind HDF5's back.
  if (H5Fflush(file.get(), H5F_SCOPE_LOCAL) < 0) return out.path;
  auto map = h5::raw_map(file.get(), out.dataset.get(), out.dtype.file_bytes);
  if (!map) return out.path;
  if (!direct_fd) direct_fd = h5::open_same_file(file.get(), temporary, true);
  if (!direct_fd) return out.path;
  out.raw_map = std::move(map);
  out.path = Path::kDirect;
  return out.path;
}

void OutputFile::Impl::write_dataset_attributes(Output const& out) const {
  auto const id = out.dataset.get();
  auto const& spec = out.spec;
  bool const frequency = spec.domain == Domain::kFrequency;
  h5::write_attribute(id, "domain", std::string(to_string(spec.domain)));
  h5::write_attribute(id, "sample_rate", spec.sample_rate);
  if (frequency && spec.time_length > 0) {
    h5::write_attribute(id, "frequency_step",
                        spec.sample_rate / static_cast<double>(spec.time_length));
    h5::write_attribute(id, "frequency_start", 0.0);
  }
  h5::write_attribute(id, "units", spec.units);
  h5::write_attribute(id, "time_length", spec.time_length);
  if (spec.time_rows > 0) h5::write_attribute(id, "time_rows", spec.time_rows);
  h5::write_attribute(id, "onesided", I64{spec.onesided ? 1 : 0});
  h5::write_attribute(id, "valid_length", spec.valid_length);
  if (spec.series_length > 0) h5::write_attribute(id, "series_length", spec.series_length);
  if (spec.context > 0) h5::write_attribute(id, "context", spec.context);
}

void OutputFile::Impl::move_into_place() {
  auto const& path = params.path;
  if (!params.overwrite) {
    // link(2) refuses an existing target, so a file that appeared during the run survives.
    if (link(temporary.c_str(), path.c_str()) == 0) {
      unlink(temporary.c_str());
      return;
    }
    if (errno == EEXIST) {
      throw OutputError("output file '" + path +
                        "' exists; set output.overwrite: true or choose another path");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    throw OutputError("cannot rename '" + temporary + "' to '" + path +
                      "': " + std::strerror(errno));
  }
}

OutputFile::OutputFile(OutputParams const& params, std::string const& version)
    : impl_(std::make_unique<Impl>()) {
  h5::Guard const guard;
  auto& s = *impl_;
  s.params = params;
  check_destination(params);
  s.temporary = params.path + ".partial-" + std::to_string(getpid());
  s.file = h5::File(H5Fcreate(s.temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  if (!s.file) {
    throw OutputError("cannot create output file '" + s.temporary + "'" + h5::hdf5_detail());
  }
  s.memory_complex = h5::make_memory_complex_type();
  h5::write_attribute(s.file.get(), "program", std::string("tcfft-pipeline"));
  h5::write_attribute(s.file.get(), "version", version);
  h5::write_attribute(s.file.get(), "created", utc_now());
}

OutputFile::~OutputFile() {
  try {
    h5::Guard const guard;
    auto& s = *impl_;
    s.outputs.clear();
    s.file.reset();
    if (!s.committed) {
      std::error_code ec;
      fs::remove(s.temporary, ec);
    }
  } catch (...) {
    // A destructor never throws; the temporary name marks the file as unfinished anyway.
  }
}

void OutputFile::set_attribute(std::string const& name, std::string const& value) {
  h5::Guard const guard;
  if (impl_->committed) throw IoError("attribute '" + name + "' set after commit");
  h5::write_attribute(impl_->file.get(), name, value);
}

int OutputFile::add_dataset(SinkParams const& params, FrameSpec const& spec) {
  h5::Guard const guard;
  auto& s = *impl_;
  auto const& name = params.dataset;
  if (s.committed) throw IoError("sink dataset '" + name + "' added after commit");
  if (name.empty() || name == "/") throw ConfigError("sink dataset name is empty");
  if (spec.total_rows <= 0 || spec.shape.empty() || spec.item_size() <= 0) {
    throw ConfigError("sink dataset '" + name + "': nothing to store (" +
                      std::to_string(spec.total_rows) + " items of " +
                      std::to_string(spec.item_size()) + " samples)");
  }
  if (h5::Object const existing(H5Oopen(s.file.get(), name.c_str(), H5P_DEFAULT)); existing) {
    throw ConfigError("sink dataset '" + name + "' is written by two sinks; choose other names");
  }
  Impl::Output out;
  out.name = name;
  out.spec = spec;
  out.dtype = stored_dtype(params.dtype, spec.type, name);
  out.layout = h5::make_sink_layout(spec, out.dtype.file_bytes);

  h5::Datatype complex_type;
  hid_t file_type = out.dtype.file_bytes == 4 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  if (out.dtype.complex) {
    complex_type =
        h5::make_complex_type(out.dtype.name == "complex64" ? H5T_IEEE_F32LE : H5T_IEEE_F64LE);
    file_type = complex_type.get();
  }
  auto const& dims = out.layout.dims;
  auto const rank = static_cast<int>(dims.size());
  h5::Dataspace const space(H5Screate_simple(rank, dims.data(), nullptr));
  h5::PropList const create(H5Pcreate(H5P_DATASET_CREATE));
  h5::PropList const links(H5Pcreate(H5P_LINK_CREATE));
  if (!space || !create || !links ||
      H5Pset_chunk(create.get(), rank, out.layout.chunk.data()) < 0 ||
      H5Pset_alloc_time(create.get(), H5D_ALLOC_TIME_EARLY) < 0 ||
      H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER) < 0 ||
      H5Pset_create_intermediate_group(links.get(), 1) < 0) {
    throw IoError("sink dataset '" + name + "': cannot set up creation" + h5::hdf5_detail());
  }
  out.dataset = h5::Dataset(H5Dcreate2(s.file.get(), name.c_str(), file_type, space.get(),
                                       links.get(), create.get(), H5P_DEFAULT));
  if (!out.dataset) {
    throw IoError("sink dataset '" + name + "': cannot create it in '" + s.temporary + "'" +
                  h5::hdf5_detail());
  }
  s.write_dataset_attributes(out);
  s.outputs.push_back(std::move(out));
  return static_cast<int>(s.outputs.size() - 1);
}

void OutputFile::write(int dataset_id, Frame const& frame) {
  h5::Guard const guard;
  auto& s = *impl_;
  auto& out = s.output(dataset_id);
  if (s.committed) throw IoError("sink dataset '" + out.name + "': write after commit");
  // HDF5's chunk cache would hold stale copies of directly written chunks.
  TCFFT_EXPECTS(out.path != Impl::Path::kDirect,
                "sink dataset '" + out.name + "': write() after write_raw() wrote it directly");
  out.hdf5_written = true;
  auto const& spec = out.spec;
  if (frame.first_row < 0 || frame.rows < 0 || frame.first_row + frame.rows > spec.total_rows) {
    throw IoError("sink dataset '" + out.name + "': frame rows " + std::to_string(frame.first_row) +
                  "+" + std::to_string(frame.rows) + " outside the dataset's " +
                  std::to_string(spec.total_rows) + " items");
  }
  bool const complex_data = spec.type == SampleType::kComplex;
  auto const needed = static_cast<std::size_t>(frame.rows * spec.item_size());
  auto const held = complex_data ? frame.complex.size() : frame.real.size();
  if (held < needed) {
    throw IoError("sink dataset '" + out.name + "': frame " + std::to_string(frame.index) +
                  " holds " + std::to_string(held) + " samples, expected " +
                  std::to_string(needed));
  }
  auto const slab = h5::sink_slab(out.layout, spec, frame.first_row, frame.rows);
  if (slab.samples == 0) return;

  auto const item_length = spec.shape.back();
  double const* real = complex_data ? nullptr
                                    : h5::series_cores(out.layout, item_length, frame.real.data(),
                                                       slab.samples, out.cores_real);
  std::complex<double> const* complex =
      complex_data ? h5::series_cores(out.layout, item_length, frame.complex.data(), slab.samples,
                                      out.cores_complex)
                   : nullptr;
  void const* data = complex_data ? static_cast<void const*>(complex)
                                  : static_cast<void const*>(real);
  hid_t memory_type = complex_data ? s.memory_complex.get() : H5T_NATIVE_DOUBLE;
  if (!complex_data && out.dtype.complex) {
    out.widened.assign(real, real + slab.samples);
    data = out.widened.data();
    memory_type = s.memory_complex.get();
  }
  s.write_slab(out, slab, memory_type, data, frame.index);
}

std::string const& OutputFile::dataset_dtype(int dataset_id) const {
  auto const& s = *impl_;
  if (dataset_id < 0 || static_cast<std::size_t>(dataset_id) >= s.outputs.size()) {
    throw IoError("unknown output dataset id " + std::to_string(dataset_id));
  }
  return s.outputs[static_cast<std::size_t>(dataset_id)].dtype.name;
}

void OutputFile::write_raw(int dataset_id, std::int64_t frame_index, std::int64_t first_row,
                           std::int64_t rows, void const* data) {
  auto& s = *impl_;
  std::unique_lock lock(s.direct_mutex);
  auto& out = s.output(dataset_id);
  if (s.committed) throw IoError("sink dataset '" + out.name + "': write after commit");
  auto const& spec = out.spec;
  if (first_row < 0 || rows < 0 || first_row + rows > spec.total_rows) {
    throw IoError("sink dataset '" + out.name + "': frame " + std::to_string(frame_index) +
                  " rows " + std::to_string(first_row) + "+" + std::to_string(rows) +
                  " outside the dataset's " + std::to_string(spec.total_rows) + " items");
  }
  bool const direct = s.choose_path(out) == Impl::Path::kDirect;
  lock.unlock();
  auto const slab = h5::sink_slab(out.layout, spec, first_row, rows);
  if (slab.samples == 0) return;
  if (direct) {
    std::vector<h5::Run> runs;
    h5::append_runs(*out.raw_map, slab.start, slab.count, 0, runs);
    h5::write_runs(s.direct_fd.get(), runs, static_cast<char const*>(data),
                   "sink dataset '" + out.name + "': writing frame " +
                       std::to_string(frame_index) + " to '" + s.temporary + "'");
    s.bytes_written += slab.samples * static_cast<I64>(out.dtype.file_bytes);
    return;
  }
  h5::Guard const guard;
  h5::Datatype complex_float;
  hid_t memory_type = H5T_NATIVE_DOUBLE;
  if (out.dtype.name == "float32") {
    memory_type = H5T_NATIVE_FLOAT;
  } else if (out.dtype.name == "complex64") {
    complex_float = h5::make_complex_type(H5T_NATIVE_FLOAT);
    memory_type = complex_float.get();
  } else if (out.dtype.name == "complex128") {
    memory_type = s.memory_complex.get();
  }
  s.write_slab(out, slab, memory_type, data, frame_index);
}

void OutputFile::commit() {
  auto& s = *impl_;
  std::lock_guard const lock(s.direct_mutex);
  h5::Guard const guard;
  if (s.committed) throw IoError("output file '" + s.params.path + "' committed twice");
  // Directly written chunks are in the page cache like HDF5's own writes; no fsync either way.
  if (int const error = s.direct_fd.close(); error != 0) {
    throw IoError("closing output file '" + s.temporary + "' (direct writes) failed: " +
                  std::strerror(error));
  }
  bool closed = true;
  for (auto& out : s.outputs) closed = out.dataset.close() >= 0 && closed;
  s.outputs.clear();
  if (H5Fflush(s.file.get(), H5F_SCOPE_GLOBAL) < 0) closed = false;
  closed = s.file.close() >= 0 && closed;
  if (!closed) {
    throw IoError("closing output file '" + s.temporary + "' failed" + h5::hdf5_detail());
  }
  s.move_into_place();
  s.committed = true;
}

std::string stored_dtype_name(SinkParams const& params, FrameSpec const& spec) {
  return stored_dtype(params.dtype, spec.type, params.dataset).name;
}

std::string const& OutputFile::path() const noexcept {
  return impl_->params.path;
}

std::string const& OutputFile::temporary_path() const noexcept {
  return impl_->temporary;
}

std::int64_t OutputFile::bytes_written() const noexcept {
  return impl_->bytes_written;
}

bool OutputFile::direct_io(int dataset_id) const {
  auto& s = *impl_;
  std::lock_guard const lock(s.direct_mutex);
  return s.output(dataset_id).path == Impl::Path::kDirect;
}

}  // namespace tcfft::io
