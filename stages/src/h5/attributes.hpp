// SPDX-License-Identifier: MIT
// Reading and writing the scalar attributes the source and sink use (Xspacing, units, domain,
// sample_rate, ...). Readers return nullopt when the attribute is absent or not of a usable
// kind; writers replace an existing attribute of the same name and throw IoError on failure.
#pragma once

#include "h5/handle.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace tcfft::h5 {

/// A numeric (integer or float) attribute holding one value, as double.
[[nodiscard]] std::optional<double> read_number_attribute(hid_t object, std::string const& name);
/// A string attribute (fixed or variable length) holding one value.
[[nodiscard]] std::optional<std::string> read_string_attribute(hid_t object,
                                                               std::string const& name);

/// Variable-length UTF-8 string (h5py reads it as str).
void write_attribute(hid_t object, std::string const& name, std::string const& value);
void write_attribute(hid_t object, std::string const& name, double value);
void write_attribute(hid_t object, std::string const& name, std::int64_t value);

}  // namespace tcfft::h5
