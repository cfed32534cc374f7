// SPDX-License-Identifier: MIT
// The HDF5 guard (lock + silenced error printing) and access to HDF5's error stack.
#include "h5/handle.hpp"

#include <mutex>
#include <string>

namespace tcfft::h5 {
namespace {

std::recursive_mutex& hdf5_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

herr_t keep_innermost(unsigned n, H5E_error2_t const* err, void* data) {
  // Walking downward, entry 0 is the innermost (most specific) error.
  if (n == 0 && err->desc != nullptr) *static_cast<std::string*>(data) = err->desc;
  return 0;
}

}  // namespace

Guard::Guard() : lock_(hdf5_mutex()) {
  H5Eget_auto2(H5E_DEFAULT, &saved_func_, &saved_data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

Guard::~Guard() {
  H5Eset_auto2(H5E_DEFAULT, saved_func_, saved_data_);
}

std::string last_error() {
  std::string message;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, &keep_innermost, &message);
  return message;
}

std::string hdf5_detail() {
  auto const message = last_error();
  return message.empty() ? std::string() : " (HDF5: " + message + ")";
}

}  // namespace tcfft::h5
