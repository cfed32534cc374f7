// SPDX-License-Identifier: MIT
// Private RAII owners of HDF5 identifiers (hid_t) and the guard every HDF5 call of the source
// and sink runs under: it serialises HDF5 use across threads and silences HDF5's own error
// printing, so failures surface only as our exceptions (with HDF5's innermost message added).
#pragma once

#include <hdf5.h>

#include <mutex>
#include <string>
#include <utility>

namespace tcfft::h5 {

using CloseFn = herr_t (*)(hid_t);

/// Move-only owner of one hid_t, closed with `Close` (a no-op for an invalid id).
template <CloseFn Close>
class Handle {
 public:
  Handle() noexcept = default;
  explicit Handle(hid_t id) noexcept : id_(id) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, H5I_INVALID_HID)) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  Handle(Handle const&) = delete;
  Handle& operator=(Handle const&) = delete;

  [[nodiscard]] hid_t get() const noexcept { return id_; }
  [[nodiscard]] bool valid() const noexcept { return id_ >= 0; }
  explicit operator bool() const noexcept { return valid(); }

  /// Closes now and reports HDF5's status (commit() needs to know that a file closed cleanly).
  herr_t close() noexcept {
    herr_t status = 0;
    if (id_ >= 0) status = Close(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }
  void reset() noexcept { static_cast<void>(close()); }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

using File = Handle<&H5Fclose>;
using Group = Handle<&H5Gclose>;
using Object = Handle<&H5Oclose>;  ///< any object opened with H5Oopen (dataset, group, ...)
using Dataset = Handle<&H5Dclose>;
using Dataspace = Handle<&H5Sclose>;
using Datatype = Handle<&H5Tclose>;
using Attribute = Handle<&H5Aclose>;
using PropList = Handle<&H5Pclose>;

/// Holds the process-wide HDF5 lock and turns off HDF5's automatic error printing for its
/// lifetime (restored afterwards). Construct one at the top of every public entry point.
class Guard {
 public:
  Guard();
  ~Guard();
  Guard(Guard const&) = delete;
  Guard& operator=(Guard const&) = delete;

 private:
  std::unique_lock<std::recursive_mutex> lock_;
  H5E_auto2_t saved_func_ = nullptr;
  void* saved_data_ = nullptr;
};

/// HDF5's innermost error description on this thread's stack ("" when empty), e.g.
/// "unable to open file". Read it right after the failing call.
[[nodiscard]] std::string last_error();

/// " (HDF5: <last_error>)" or "" when HDF5 left no message.
[[nodiscard]] std::string hdf5_detail();

}  // namespace tcfft::h5
