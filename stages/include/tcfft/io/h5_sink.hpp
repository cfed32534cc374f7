// SPDX-License-Identifier: MIT
// The output file. All sinks of a run write datasets into one HDF5 file that is created under a
// temporary name beside the final path ("<path>.partial-<pid>") and renamed only by commit(); a
// run that fails or is interrupted removes the temporary file, so a file at the final path is
// always complete. An existing file at the final path is refused unless overwrite is set.
//
// Every dataset is chunked (chunks of about 1 MiB, no filters, all allocated when the dataset is
// created: H5D_ALLOC_TIME_EARLY, with H5D_FILL_TIME_NEVER so that allocation writes nothing and
// a new file's unwritten chunks are holes; a committed file has every sample written) and
// carries attributes h5py/h5dump users can read without our code:
//   domain ("time"/"frequency"), sample_rate (Hz) or frequency_step (Hz) and, for one-sided
//   spectra, frequency_start = 0; units; time_length; valid_length; series_length and context
//   (overlap-save items, see frame.hpp; a time-domain series is stored without the context).
// The file root carries: program ("tcfft-pipeline"), version, config (the effective YAML),
// input (file:dataset), created (UTC ISO-8601).
#pragma once

#include <tcfft/core/frame.hpp>
#include <tcfft/stages/params.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::io {

class OutputFile {
 public:
  /// Checks the destination (directory exists and is writable, file absent unless overwrite)
  /// and creates the temporary file. Throws OutputError naming the path.
  OutputFile(OutputParams const& params, std::string const& version);
  /// Removes the temporary file unless commit() succeeded. Never throws.
  ~OutputFile();
  OutputFile(OutputFile const&) = delete;
  OutputFile& operator=(OutputFile const&) = delete;

  /// Root attribute (string), e.g. set_attribute("config", yaml_text).
  void set_attribute(std::string const& name, std::string const& value);

  /// Creates a dataset for the frames of `spec` ([total_rows, ...item shape]; a run with one
  /// 1-D series item is stored as 1-D [n], trimmed to valid_length). dtype: see SinkParams.
  /// Returns an id for write(). Throws ConfigError for a bad dtype (e.g. float32 for complex
  /// data) naming the dataset.
  int add_dataset(SinkParams const& params, FrameSpec const& spec);
  /// Writes `frame` at its rows (hyperslab). Throws IoError.
  void write(int dataset_id, Frame const& frame);
  /// The stored dtype of dataset `dataset_id`: float32, float64, complex64 or complex128.
  [[nodiscard]] std::string const& dataset_dtype(int dataset_id) const;
  /// Writes items [first_row, first_row + rows) of frame `frame_index` from `data`, already
  /// converted to the stored dtype's memory layout (float, double, or {r, i} pairs of them),
  /// rows * item_size elements; the zero padding of a trimmed series is skipped as write()
  /// skips it. Overlap-save items (FrameSpec::stored_context() > 0): `data` holds only the
  /// items' cores, joined (rows * core_length elements, see core_sample_index in frame.hpp),
  /// which is what write() stores of whole items. Throws IoError naming the dataset, the frame
  /// and the file.
  ///
  /// Direct path: at a dataset's first write_raw, the metadata is flushed (H5Fflush) and the
  /// address of every chunk looked up; from then on write_raw writes the frame's bytes into the
  /// chunks with pwrite(2) on a descriptor of its own (O_WRONLY on the temporary file), without
  /// the process-wide HDF5 lock, so it overlaps HDF5 work on other threads (the source's
  /// reads). Safe because HDF5 never holds these chunks: they were allocated at creation and
  /// nothing was written into them (fill time never), and no H5Dwrite/H5Dread touches the
  /// dataset, so its chunk cache stays empty and H5Fclose writes only metadata, never stale
  /// raw data. Hence write() on a dataset that write_raw wrote directly is refused
  /// (TCFFT_EXPECTS), and a dataset already written by write() keeps going through HDF5.
  /// Datasets are written through HDF5 also when the direct path is impossible (big-endian
  /// machine, a lookup failed). Frames of one dataset may be written from several threads at
  /// once (disjoint rows). Call add_dataset before the first write_raw of any thread.
  void write_raw(int dataset_id, std::int64_t frame_index, std::int64_t first_row,
                 std::int64_t rows, void const* data);
  /// Whether write_raw writes dataset `dataset_id` directly (false before its first write_raw).
  [[nodiscard]] bool direct_io(int dataset_id) const;
  /// Closes the direct-write descriptor, then the HDF5 file (no fsync), and renames it to the
  /// final path. Call it after every write has returned. Throws IoError/OutputError.
  void commit();

  [[nodiscard]] std::string const& path() const noexcept;
  [[nodiscard]] std::string const& temporary_path() const noexcept;
  [[nodiscard]] std::int64_t bytes_written() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The dtype OutputFile::add_dataset stores a sink's data in (float32, float64, complex64 or
/// complex128; auto is float64 for real and complex128 for complex data), without creating
/// anything. Throws ConfigError as add_dataset does (e.g. float32 for complex data).
[[nodiscard]] std::string stored_dtype_name(SinkParams const& params, FrameSpec const& spec);

}  // namespace tcfft::io
