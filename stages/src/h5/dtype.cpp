// SPDX-License-Identifier: MIT
// Classification of HDF5 datatypes and the complex compound types.
#include "h5/dtype.hpp"

#include <tcfft/core/error.hpp>

#include <cstdlib>
#include <optional>
#include <string>

namespace tcfft::h5 {
namespace {

std::string member_name(hid_t type, unsigned index) {
  char* raw = H5Tget_member_name(type, index);
  if (raw == nullptr) return "?";
  std::string name(raw);
  H5free_memory(raw);
  return name;
}

std::optional<Dtype> classify_compound(hid_t type, std::string& description) {
  int const count = H5Tget_nmembers(type);
  description = "compound {";
  for (int m = 0; m < count; ++m) {
    description += (m ? ", " : "") + member_name(type, static_cast<unsigned>(m));
  }
  description += "}";
  if (count != 2) return std::nullopt;
  auto const first = member_name(type, 0);
  auto const second = member_name(type, 1);
  bool const names_ok = (first == "r" && second == "i") || (first == "real" && second == "imag");
  if (!names_ok) return std::nullopt;
  Datatype const re(H5Tget_member_type(type, 0));
  Datatype const im(H5Tget_member_type(type, 1));
  if (!re || !im || H5Tget_class(re.get()) != H5T_FLOAT || H5Tget_class(im.get()) != H5T_FLOAT) {
    return std::nullopt;
  }
  auto const bytes = H5Tget_size(re.get());
  if (bytes != H5Tget_size(im.get()) || (bytes != 4 && bytes != 8)) return std::nullopt;
  return Dtype{bytes == 4 ? "complex64" : "complex128", true, 2 * bytes};
}

}  // namespace

std::optional<Dtype> classify(hid_t type, std::string& description) {
  auto const bytes = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: {
      bool const is_signed = H5Tget_sign(type) == H5T_SGN_2;
      description = (is_signed ? "int" : "uint") + std::to_string(8 * bytes);
      if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) return std::nullopt;
      return Dtype{description, false, bytes};
    }
    case H5T_FLOAT:
      description = "float" + std::to_string(8 * bytes);
      if (bytes != 4 && bytes != 8) return std::nullopt;
      return Dtype{description, false, bytes};
    case H5T_COMPOUND: return classify_compound(type, description);
    case H5T_STRING: description = "string"; break;
    case H5T_ENUM: description = "enum (h5py bool?)"; break;
    case H5T_BITFIELD: description = "bitfield"; break;
    case H5T_OPAQUE: description = "opaque"; break;
    case H5T_ARRAY: description = "array"; break;
    case H5T_VLEN: description = "variable-length"; break;
    case H5T_REFERENCE: description = "reference"; break;
    case H5T_TIME: description = "time"; break;
    default: description = "unknown type class"; break;
  }
  return std::nullopt;
}

Datatype make_complex_type(hid_t member) {
  auto const bytes = H5Tget_size(member);
  Datatype type(H5Tcreate(H5T_COMPOUND, 2 * bytes));
  if (!type || H5Tinsert(type.get(), "r", 0, member) < 0 ||
      H5Tinsert(type.get(), "i", bytes, member) < 0) {
    throw IoError("cannot create the complex {r, i} HDF5 type" + hdf5_detail());
  }
  return type;
}

Datatype make_memory_complex_type() {
  return make_complex_type(H5T_NATIVE_DOUBLE);
}

}  // namespace tcfft::h5
