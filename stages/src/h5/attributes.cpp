// SPDX-License-Identifier: MIT
// Scalar attribute access on top of the RAII handles.
#include "h5/attributes.hpp"

#include <tcfft/core/error.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tcfft::h5 {
namespace {

Attribute open_single(hid_t object, std::string const& name) {
  if (H5Aexists(object, name.c_str()) <= 0) return {};
  Attribute attr(H5Aopen(object, name.c_str(), H5P_DEFAULT));
  if (!attr) return {};
  Dataspace const space(H5Aget_space(attr.get()));
  if (!space || H5Sget_simple_extent_npoints(space.get()) != 1) return {};
  return attr;
}

void write_scalar(hid_t object, std::string const& name, hid_t type, void const* value) {
  if (H5Aexists(object, name.c_str()) > 0) H5Adelete(object, name.c_str());
  Dataspace const space(H5Screate(H5S_SCALAR));
  Attribute const attr(
      H5Acreate2(object, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (!space || !attr || H5Awrite(attr.get(), type, value) < 0) {
    throw IoError("cannot write attribute '" + name + "'" + hdf5_detail());
  }
}

}  // namespace

std::optional<double> read_number_attribute(hid_t object, std::string const& name) {
  auto const attr = open_single(object, name);
  if (!attr) return std::nullopt;
  Datatype const type(H5Aget_type(attr.get()));
  auto const type_class = H5Tget_class(type.get());
  if (type_class != H5T_INTEGER && type_class != H5T_FLOAT) return std::nullopt;
  double value = 0.0;
  if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value) < 0) return std::nullopt;
  return value;
}

std::optional<std::string> read_string_attribute(hid_t object, std::string const& name) {
  auto const attr = open_single(object, name);
  if (!attr) return std::nullopt;
  Datatype const type(H5Aget_type(attr.get()));
  if (H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
  if (H5Tis_variable_str(type.get()) > 0) {
    Datatype const memory(H5Tcopy(H5T_C_S1));
    H5Tset_size(memory.get(), H5T_VARIABLE);
    H5Tset_cset(memory.get(), H5Tget_cset(type.get()));
    char* raw = nullptr;
    if (H5Aread(attr.get(), memory.get(), &raw) < 0) return std::nullopt;
    std::string value = raw != nullptr ? raw : "";
    Dataspace const space(H5Screate(H5S_SCALAR));
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(memory.get(), space.get(), H5P_DEFAULT, &raw);
#else
    H5Dvlen_reclaim(memory.get(), space.get(), H5P_DEFAULT, &raw);
#endif
    return value;
  }
  std::vector<char> buffer(H5Tget_size(type.get()) + 1, '\0');
  if (H5Aread(attr.get(), type.get(), buffer.data()) < 0) return std::nullopt;
  return std::string(buffer.data());  // stops at the first NUL (null-terminated or padded)
}

void write_attribute(hid_t object, std::string const& name, std::string const& value) {
  Datatype const type(H5Tcopy(H5T_C_S1));
  if (!type || H5Tset_size(type.get(), H5T_VARIABLE) < 0 ||
      H5Tset_cset(type.get(), H5T_CSET_UTF8) < 0) {
    throw IoError("cannot create a string type for attribute '" + name + "'" + hdf5_detail());
  }
  char const* text = value.c_str();
  write_scalar(object, name, type.get(), &text);
}

void write_attribute(hid_t object, std::string const& name, double value) {
  write_scalar(object, name, H5T_NATIVE_DOUBLE, &value);
}

void write_attribute(hid_t object, std::string const& name, std::int64_t value) {
  write_scalar(object, name, H5T_NATIVE_INT64, &value);
}

}  // namespace tcfft::h5
