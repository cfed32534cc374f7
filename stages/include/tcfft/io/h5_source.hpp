// SPDX-License-Identifier: MIT
// Streams any HDF5 dataset of samples in hyperslab frames, so memory stays bounded by the frame
// size whatever the input size. dtypes: int8..int64, uint8..uint64 (int16/uint16 are the common
// ones), float32, float64, and complex as h5py writes it (compound {r, i} of float32/float64).
// Items (see frame.hpp):
//   series  a 1-D dataset cut into items of `segment` samples (last one zero-padded); with
//           `overlap` c > 0 each item also carries c samples of its neighbours on each side
//           (zeros outside the series): overlap-save items, see FrameSpec::context;
//   rows    the last axis of a 2-D or 3-D dataset; every other axis enumerates items;
//   images  the last two axes of a 3-D dataset (a 2-D dataset is one image).
// LIGO/GWOSC strain files read as they are: sample rate from the dataset's `Xspacing`
// attribute, units from `Ylabel`/`Xunits` when present.
#pragma once

#include <tcfft/core/frame.hpp>
#include <tcfft/stages/params.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tcfft::io {

class H5Source {
 public:
  /// Opens and checks the file and dataset; throws InputError naming the file, dataset and
  /// the offending value (missing file/dataset, unsupported dtype or rank, segment too long).
  explicit H5Source(SourceParams const& params);
  ~H5Source();
  H5Source(H5Source const&) = delete;
  H5Source& operator=(H5Source const&) = delete;

  [[nodiscard]] FrameSpec const& spec() const noexcept;
  /// "file.h5:/strain/Strain float64 [131072] -> 8 series items of 16384, 4096 Hz".
  [[nodiscard]] std::string describe() const;
  /// Dataset shape and HDF5 dtype name ("float64", "int16", "complex64", ...).
  [[nodiscard]] std::vector<std::int64_t> const& dataset_shape() const noexcept;
  [[nodiscard]] std::string const& dtype_name() const noexcept;

  /// Reads the next frame into `frame` (index, first_row, rows and samples set). Returns false
  /// at the end. Non-finite samples: InputError naming the dataset and the first position
  /// (dataset coordinates), or replaced by 0 with on_nonfinite: zero (counted, see below).
  bool read(Frame& frame);
  /// Restarts from the first frame.
  void rewind();

  /// Bytes of one sample as stored in the file (2 for int16, 8 for complex64 ...).
  [[nodiscard]] std::size_t raw_element_bytes() const noexcept;
  /// Reads the next frame as the file stores it: rows * item_size samples of the file dtype in
  /// native byte order (complex as {r, i} pairs) into `buffer` (e.g. pinned host memory) of
  /// `capacity` bytes; the zero padding of a short final series segment is zero bytes. Sets
  /// `frame`'s index, first_row and rows, leaves its sample vectors alone. No scaling and no
  /// non-finite check (the caller does both, see throw_nonfinite). Returns false at the end.
  /// Shares the frame cursor with read(). Throws IoError, or TCFFT_EXPECTS when the buffer is
  /// too small. Overlap-save context outside the series is zero bytes too.
  ///
  /// Direct path: when HDF5 stores the dataset raw (no filters; contiguous, or chunked with
  /// every chunk allocated at full size; a plain file, no userblock under chunked data) in a
  /// little-endian standard dtype (int8..uint64, IEEE float32/float64, packed {r, i} of those),
  /// read_raw reads the frame's bytes with pread(2) on a descriptor of its own, without the
  /// process-wide HDF5 lock, so it overlaps HDF5 work on other threads (the sink's writes).
  /// Otherwise, and on big-endian machines, it reads through HDF5 under the lock. The bytes are
  /// the same either way. read() always reads through HDF5.
  bool read_raw(Frame& frame, void* buffer, std::size_t capacity);
  /// Whether read_raw takes the direct path for this dataset (decided once, on first use).
  [[nodiscard]] bool direct_io() const;
  /// Throws the InputError read() throws for a non-finite sample: sample `index` of the frame
  /// starting at item `first_row`, whose value is re (+ i im for complex dtypes).
  [[noreturn]] void throw_nonfinite(std::int64_t first_row, std::int64_t index, double re,
                                    double im) const;

  [[nodiscard]] std::int64_t bytes_read() const noexcept;
  [[nodiscard]] std::int64_t nonfinite_replaced() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tcfft::io
