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

  [[nodiscard]] std::int64_t bytes_read() const noexcept;
  [[nodiscard]] std::int64_t nonfinite_replaced() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tcfft::io
