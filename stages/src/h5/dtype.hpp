// SPDX-License-Identifier: MIT
// Sample dtypes as the source and sink see them: classification of a dataset's HDF5 type into
// the names users know from numpy/h5py, and the compound {r, i} type h5py uses for complex.
#pragma once

#include "h5/handle.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace tcfft::h5 {

/// A supported sample dtype of a dataset in a file.
struct Dtype {
  std::string name;            ///< "int16", "uint16", "float32", "float64", "complex64", ...
  bool complex = false;        ///< compound {r, i}
  std::size_t file_bytes = 0;  ///< bytes per element in the file
};

/// Classifies `type` (a dataset's file type). Returns nullopt for unsupported types and sets
/// `description` to what the type is ("string", "enum", "compound {a, b, c}", "float16").
[[nodiscard]] std::optional<Dtype> classify(hid_t type, std::string& description);

/// Compound {r, i} with both members of `member` type (h5py's complex layout), packed.
[[nodiscard]] Datatype make_complex_type(hid_t member);

/// In-memory complex<double> type: compound {r at 0, i at 8} of native double.
[[nodiscard]] Datatype make_memory_complex_type();

}  // namespace tcfft::h5
