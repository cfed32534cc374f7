// SPDX-License-Identifier: MIT
// Raw maps of datasets (contiguous address or chunk table), hyperslab runs, pread/pwrite.
#include "h5/direct_io.hpp"

#include <tcfft/core/error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tcfft::h5 {
namespace {

constexpr hsize_t kMaxChunks = hsize_t{1} << 20;
constexpr std::size_t kMinRunBytes = 4096;

bool standard_float(hid_t type) {
  return H5Tequal(type, H5T_IEEE_F32LE) > 0 || H5Tequal(type, H5T_IEEE_F64LE) > 0;
}

bool sec2(hid_t file) {
  PropList const access(H5Fget_access_plist(file));
  return access && H5Pget_driver(access.get()) == H5FD_SEC2;
}

hsize_t product(std::vector<hsize_t> const& v, std::size_t from = 0) {
  hsize_t p = 1;
  for (std::size_t d = from; d < v.size(); ++d) p *= v[d];
  return p;
}

/// The chunk table of a chunked dataset, or nullopt when a chunk is missing, filtered or not
/// of the full chunk size.
std::optional<std::vector<std::uint64_t>> chunk_addresses(hid_t dataset, hid_t space,
                                                          RawMap const& map) {
  auto const rank = map.dims.size();
  std::vector<hsize_t> grid(rank);
  for (std::size_t d = 0; d < rank; ++d) grid[d] = (map.dims[d] + map.chunk[d] - 1) / map.chunk[d];
  hsize_t const chunks = product(grid);
  hsize_t stored = 0;
  if (chunks > kMaxChunks || H5Dget_num_chunks(dataset, space, &stored) < 0 || stored != chunks) {
    return std::nullopt;
  }
  hsize_t const chunk_bytes = product(map.chunk) * map.element_bytes;
  std::vector<std::uint64_t> addresses(static_cast<std::size_t>(chunks));
  std::vector<hsize_t> g(rank, 0);
  std::vector<hsize_t> offset(rank);
  for (auto& address : addresses) {
    for (std::size_t d = 0; d < rank; ++d) offset[d] = g[d] * map.chunk[d];
    unsigned mask = 0;
    haddr_t addr = HADDR_UNDEF;
    hsize_t size = 0;
    if (H5Dget_chunk_info_by_coord(dataset, offset.data(), &mask, &addr, &size) < 0 ||
        addr == HADDR_UNDEF || size != chunk_bytes || mask != 0) {
      return std::nullopt;
    }
    address = addr;
    for (std::size_t d = rank; d-- > 0;) {  // row-major odometer over the grid
      if (++g[d] < grid[d]) break;
      g[d] = 0;
    }
  }
  return addresses;
}

/// Bytes a buffer row-major over the dataset holds consecutively within one chunk.
std::size_t consecutive_bytes(RawMap const& map) {
  auto d = map.dims.size() - 1;
  auto run = static_cast<std::size_t>(std::min(map.chunk[d], map.dims[d])) * map.element_bytes;
  while (d > 0 && map.chunk[d] == map.dims[d]) {
    --d;
    run *= static_cast<std::size_t>(std::min(map.chunk[d], map.dims[d]));
  }
  return run;
}

[[noreturn]] void throw_system(std::string const& what, char const* call, int error) {
  throw IoError(what + ": " + call + " failed: " + std::strerror(error));
}

}  // namespace

bool native_layout(hid_t type) {
  static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559);
  if constexpr (std::endian::native != std::endian::little) return false;
  if (H5Tget_class(type) == H5T_COMPOUND) {
    if (H5Tget_nmembers(type) != 2) return false;
    Datatype const re(H5Tget_member_type(type, 0));
    Datatype const im(H5Tget_member_type(type, 1));
    if (!re || !im || !standard_float(re.get()) || H5Tequal(re.get(), im.get()) <= 0) return false;
    auto const bytes = H5Tget_size(re.get());
    return H5Tget_member_offset(type, 0) == 0 && H5Tget_member_offset(type, 1) == bytes &&
           H5Tget_size(type) == 2 * bytes;
  }
  for (hid_t const standard : {H5T_STD_I8LE, H5T_STD_I16LE, H5T_STD_I32LE, H5T_STD_I64LE,
                               H5T_STD_U8LE, H5T_STD_U16LE, H5T_STD_U32LE, H5T_STD_U64LE}) {
    if (H5Tequal(type, standard) > 0) return true;
  }
  return standard_float(type);
}

std::optional<RawMap> raw_map(hid_t file, hid_t dataset, std::size_t element_bytes) {
  PropList const create(H5Dget_create_plist(dataset));
  Dataspace const space(H5Dget_space(dataset));
  if (!create || !space || element_bytes == 0 || !sec2(file) ||
      H5Pget_nfilters(create.get()) != 0 || H5Pget_external_count(create.get()) != 0) {
    return std::nullopt;
  }
  int const rank = H5Sget_simple_extent_ndims(space.get());
  if (rank <= 0) return std::nullopt;
  RawMap map;
  map.element_bytes = element_bytes;
  map.dims.resize(static_cast<std::size_t>(rank));
  if (H5Sget_simple_extent_dims(space.get(), map.dims.data(), nullptr) != rank ||
      product(map.dims) == 0) {
    return std::nullopt;
  }
  switch (H5Pget_layout(create.get())) {
    case H5D_CONTIGUOUS: {
      // H5Dget_offset counts from the start of the file (a userblock included).
      haddr_t const address = H5Dget_offset(dataset);
      if (address == HADDR_UNDEF ||
          H5Dget_storage_size(dataset) != product(map.dims) * element_bytes) {
        return std::nullopt;
      }
      map.chunk = map.dims;
      map.addresses = {address};
      break;
    }
    case H5D_CHUNKED: {
      // Chunk addresses are relative to HDF5's base address; keep to files where that is 0.
      PropList const file_create(H5Fget_create_plist(file));
      hsize_t userblock = 1;
      if (!file_create || H5Pget_userblock(file_create.get(), &userblock) < 0 || userblock != 0) {
        return std::nullopt;
      }
      map.chunk.resize(map.dims.size());
      if (H5Pget_chunk(create.get(), rank, map.chunk.data()) != rank ||
          product(map.chunk) == 0) {
        return std::nullopt;
      }
      auto addresses = chunk_addresses(dataset, space.get(), map);
      if (!addresses) return std::nullopt;
      map.addresses = std::move(*addresses);
      break;
    }
    default: return std::nullopt;  // compact, virtual
  }
  auto const total = static_cast<std::size_t>(product(map.dims)) * element_bytes;
  if (consecutive_bytes(map) < std::min(kMinRunBytes, total)) return std::nullopt;
  return map;
}

void append_runs(RawMap const& map, std::vector<hsize_t> const& start,
                 std::vector<hsize_t> const& count, std::size_t memory, std::vector<Run>& runs) {
  auto const rank = map.dims.size();
  TCFFT_EXPECTS(start.size() == rank && count.size() == rank, "hyperslab rank differs from map");
  if (product(count) == 0) return;
  struct Axis {
    hsize_t memory_stride = 1;  // elements, in the buffer (row-major over count)
    hsize_t chunk_stride = 1;   // elements, inside a chunk (row-major over the chunk shape)
    hsize_t grid = 0;           // chunks along this axis
    hsize_t first = 0, last = 0;  // chunk coordinates the slab touches
    hsize_t g = 0;              // current chunk coordinate
    hsize_t lo = 0, hi = 0;     // the slab inside the current chunk, dataset coordinates
    hsize_t p = 0;              // current line's coordinate
  };
  std::vector<Axis> axes(rank);
  for (std::size_t d = rank; d-- > 0;) {
    auto& a = axes[d];
    if (d + 1 < rank) {
      a.memory_stride = axes[d + 1].memory_stride * count[d + 1];
      a.chunk_stride = axes[d + 1].chunk_stride * map.chunk[d + 1];
    }
    TCFFT_EXPECTS(start[d] + count[d] <= map.dims[d], "hyperslab outside the dataset");
    a.grid = (map.dims[d] + map.chunk[d] - 1) / map.chunk[d];
    a.first = start[d] / map.chunk[d];
    a.last = (start[d] + count[d] - 1) / map.chunk[d];
    a.g = a.first;
  }
  auto const bytes = map.element_bytes;
  auto const push = [&runs](Run const run) {
    if (!runs.empty()) {
      auto& back = runs.back();
      if (back.file + back.bytes == run.file && back.memory + back.bytes == run.memory) {
        back.bytes += run.bytes;
        return;
      }
    }
    runs.push_back(run);
  };
  auto const& inner = axes[rank - 1];
  while (true) {  // every chunk the slab touches, row-major
    std::size_t index = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      auto& a = axes[d];
      index = index * a.grid + a.g;
      hsize_t const origin = a.g * map.chunk[d];
      a.lo = std::max(start[d], origin);
      a.hi = std::min(start[d] + count[d], origin + map.chunk[d]);
      a.p = a.lo;
    }
    std::uint64_t const address = map.addresses[index];
    auto const line = static_cast<std::size_t>(inner.hi - inner.lo) * bytes;
    while (true) {  // every line (last-axis run) of the slab inside this chunk
      hsize_t in_chunk = 0;
      hsize_t in_memory = 0;
      for (std::size_t d = 0; d < rank; ++d) {
        auto const& a = axes[d];
        in_chunk += (a.p - a.g * map.chunk[d]) * a.chunk_stride;
        in_memory += (a.p - start[d]) * a.memory_stride;
      }
      push({address + in_chunk * bytes, memory + static_cast<std::size_t>(in_memory) * bytes,
            line});
      std::size_t d = rank - 1;
      while (d-- > 0) {
        if (++axes[d].p < axes[d].hi) break;
        axes[d].p = axes[d].lo;
      }
      if (d == static_cast<std::size_t>(-1)) break;
    }
    std::size_t d = rank;
    while (d-- > 0) {
      if (++axes[d].g <= axes[d].last) break;
      axes[d].g = axes[d].first;
    }
    if (d == static_cast<std::size_t>(-1)) break;
  }
}

FileDescriptor::~FileDescriptor() {
  static_cast<void>(close());
}

FileDescriptor::FileDescriptor(FileDescriptor&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    static_cast<void>(close());
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

int FileDescriptor::close() noexcept {
  if (fd_ < 0) return 0;
  int const status = ::close(std::exchange(fd_, -1));
  return status == 0 ? 0 : errno;
}

FileDescriptor open_same_file(hid_t file, std::string const& path, bool write) {
  void* handle = nullptr;
  if (!sec2(file) || H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == nullptr) {
    return {};
  }
  FileDescriptor fd(::open(path.c_str(), (write ? O_WRONLY : O_RDONLY) | O_CLOEXEC));
  struct stat ours{};
  struct stat theirs{};
  if (!fd || fstat(fd.get(), &ours) != 0 || fstat(*static_cast<int*>(handle), &theirs) != 0 ||
      ours.st_dev != theirs.st_dev || ours.st_ino != theirs.st_ino) {
    return {};
  }
  if (!write) static_cast<void>(posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL));
  return fd;
}

void read_runs(int fd, std::vector<Run> const& runs, char* buffer, std::string const& what) {
  for (auto const& run : runs) {
    std::size_t done = 0;
    while (done < run.bytes) {
      ssize_t const n = pread(fd, buffer + run.memory + done, run.bytes - done,
                              static_cast<off_t>(run.file + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw_system(what, "pread", errno);
      if (n == 0) {
        throw IoError(what + ": the file ends at byte " + std::to_string(run.file + done) +
                      ", inside the dataset's data (truncated file?)");
      }
      done += static_cast<std::size_t>(n);
    }
  }
}

void write_runs(int fd, std::vector<Run> const& runs, char const* buffer,
                std::string const& what) {
  for (auto const& run : runs) {
    std::size_t done = 0;
    while (done < run.bytes) {
      ssize_t const n = pwrite(fd, buffer + run.memory + done, run.bytes - done,
                               static_cast<off_t>(run.file + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw_system(what, "pwrite", n < 0 ? errno : EIO);
      done += static_cast<std::size_t>(n);
    }
  }
}

}  // namespace tcfft::h5
