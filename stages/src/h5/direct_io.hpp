// SPDX-License-Identifier: MIT
// Direct access to a dataset's bytes, bypassing the HDF5 library (and its process-wide lock)
// for the bulk data while HDF5 keeps the metadata. Possible when HDF5 stores the elements raw:
// no filters, no external storage, contiguous storage or chunks that are all allocated, a
// plain sec2 file without a userblock (chunk addresses) and a little-endian standard dtype the
// memory side uses unchanged. A RawMap then says where every element lies in the file; runs()
// turns a hyperslab into (file offset, buffer offset, bytes) runs for pread(2)/pwrite(2).
//
// Unfiltered chunks (edge chunks too) are stored full size, row-major over the chunk shape,
// at the address the chunk index gives; a contiguous dataset is one chunk of the dataset's
// shape. Everything here that calls HDF5 must run under h5::Guard; runs() and the I/O calls
// do not touch HDF5.
#pragma once

#include "h5/handle.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcfft::h5 {

/// Where the elements of a dataset lie in its file.
struct RawMap {
  std::vector<hsize_t> dims;               ///< dataset shape
  std::vector<hsize_t> chunk;              ///< chunk shape (the dataset shape if contiguous)
  std::vector<std::uint64_t> addresses;    ///< file offset of each chunk, row-major over the grid
  std::size_t element_bytes = 0;
};

/// One transfer: `bytes` at file offset `file` <-> buffer offset `memory`.
struct Run {
  std::uint64_t file = 0;
  std::size_t memory = 0;
  std::size_t bytes = 0;
};

/// True when `type` (a dataset's file type) is stored exactly as this machine holds it in
/// memory: a little-endian standard integer (8..64 bit), IEEE float32/float64, or a packed
/// compound of two such floats at offsets 0 and member size (complex {r, i}); and the machine
/// is little-endian.
[[nodiscard]] bool native_layout(hid_t type);

/// The raw map of `dataset` of `file` with elements of `element_bytes`, or nullopt when HDF5
/// does not store it raw (filters, external or compact or virtual storage, an unallocated
/// contiguous dataset or chunk, a chunk of unexpected size or with filters, a userblock under a
/// chunked dataset, a driver other than sec2), or when the layout makes for short runs (less
/// than 4 KiB of consecutive bytes in a chunk, unless the dataset is smaller) or more than 2^20
/// chunks.
[[nodiscard]] std::optional<RawMap> raw_map(hid_t file, hid_t dataset, std::size_t element_bytes);

/// Appends the runs of the hyperslab (start, count) of `map`'s dataset whose elements sit in a
/// buffer row-major over `count`, from buffer offset `memory` (bytes). Runs adjacent both in
/// the file and in the buffer are merged, so a frame of whole chunks laid out in order is one
/// run.
void append_runs(RawMap const& map, std::vector<hsize_t> const& start,
                 std::vector<hsize_t> const& count, std::size_t memory, std::vector<Run>& runs);

/// Move-only owner of a POSIX file descriptor.
class FileDescriptor {
 public:
  FileDescriptor() noexcept = default;
  explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(FileDescriptor&& other) noexcept;
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(FileDescriptor const&) = delete;
  FileDescriptor& operator=(FileDescriptor const&) = delete;

  [[nodiscard]] int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }
  /// Closes now; returns 0 or the errno of close(2) (a delayed write error, e.g. on NFS).
  int close() noexcept;

 private:
  int fd_ = -1;
};

/// Opens `path` for reading (advised sequential) or writing, checking that it is the file HDF5
/// has open as `file` (same device and inode). An invalid descriptor when it cannot.
[[nodiscard]] FileDescriptor open_same_file(hid_t file, std::string const& path, bool write);

/// pread(2)/pwrite(2) of every run from/to `buffer`, resuming short transfers. Throw IoError
/// with `what` ("file.h5:/data: reading items 0..9") and the system's reason.
void read_runs(int fd, std::vector<Run> const& runs, char* buffer, std::string const& what);
void write_runs(int fd, std::vector<Run> const& runs, char const* buffer, std::string const& what);

}  // namespace tcfft::h5
