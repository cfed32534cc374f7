// SPDX-License-Identifier: MIT
// Sample conversions of the GPU chain, written once as TCFFT_HD inline functions: the CUDA
// kernels (stages/src/gpu/chain_kernels.cu) call them per element, and the CPU tests call the
// same functions as the reference. Host-compilable.
//
// Input:  raw file dtype bytes (int16, uint16, int32, float32, float64, complex64, complex128)
//         -> complex double (x, 0) for real dtypes.
// Range:  FP16 holds |x| <= 65504; the chain multiplies every input by 2^-e so that |x| < 1:
//         e from the dtype for integers (static_exponent), from the frame's max |x| for floats
//         (unit_exponent of a device-side max-abs reduction). Output kernels multiply by 2^e.
// Output: float32, float64, complex64 ({float r, i}) or complex128 ({double r, i}).
#pragma once

#include <tcfft/core/host_device.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace tcfft::gpu {

enum class RawDtype { kInt16, kUint16, kInt32, kFloat32, kFloat64, kComplex64, kComplex128 };
enum class OutDtype { kFloat32, kFloat64, kComplex64, kComplex128 };
/// What a sink stores of a complex working value v: v, or a spectrum stage's quantity.
enum class ElementOp { kNone, kMagnitude, kPower, kDb };

/// The dtype of an H5Source dtype name ("int16", "complex64", ...); nullopt when the GPU chain
/// does not read it (int8, int64, uint32, ...: the host path reads those).
[[nodiscard]] inline std::optional<RawDtype> parse_raw_dtype(std::string const& name) {
  if (name == "int16") return RawDtype::kInt16;
  if (name == "uint16") return RawDtype::kUint16;
  if (name == "int32") return RawDtype::kInt32;
  if (name == "float32") return RawDtype::kFloat32;
  if (name == "float64") return RawDtype::kFloat64;
  if (name == "complex64") return RawDtype::kComplex64;
  if (name == "complex128") return RawDtype::kComplex128;
  return std::nullopt;
}

/// The dtype of an OutputFile stored dtype name; nullopt for anything else.
[[nodiscard]] inline std::optional<OutDtype> parse_out_dtype(std::string const& name) {
  if (name == "float32") return OutDtype::kFloat32;
  if (name == "float64") return OutDtype::kFloat64;
  if (name == "complex64") return OutDtype::kComplex64;
  if (name == "complex128") return OutDtype::kComplex128;
  return std::nullopt;
}

[[nodiscard]] TCFFT_HD constexpr std::size_t raw_bytes(RawDtype t) noexcept {
  switch (t) {
    case RawDtype::kInt16:
    case RawDtype::kUint16: return 2;
    case RawDtype::kInt32:
    case RawDtype::kFloat32: return 4;
    case RawDtype::kFloat64:
    case RawDtype::kComplex64: return 8;
    case RawDtype::kComplex128: return 16;
  }
  return 0;
}

[[nodiscard]] TCFFT_HD constexpr std::size_t out_bytes(OutDtype t) noexcept {
  return t == OutDtype::kFloat32 ? 4 : t == OutDtype::kComplex128 ? 16 : 8;
}

/// Floating dtypes can hold NaN/Inf and get a per-frame range reduction; integers cannot.
[[nodiscard]] TCFFT_HD constexpr bool is_floating(RawDtype t) noexcept {
  return t == RawDtype::kFloat32 || t == RawDtype::kFloat64 || t == RawDtype::kComplex64 ||
         t == RawDtype::kComplex128;
}

/// Complex dtypes; the others hold real samples.
[[nodiscard]] TCFFT_HD constexpr bool is_complex(RawDtype t) noexcept {
  return t == RawDtype::kComplex64 || t == RawDtype::kComplex128;
}

/// 2^-e with e this value maps every integer of the dtype into [-1, 1].
[[nodiscard]] TCFFT_HD constexpr int static_exponent(RawDtype t) noexcept {
  return t == RawDtype::kInt16 ? 15 : t == RawDtype::kUint16 ? 16 : t == RawDtype::kInt32 ? 31 : 0;
}

/// A complex double that compiles on host and device without <complex>.
struct Complex {
  double re = 0.0;
  double im = 0.0;
};

/// Sample i of a raw buffer of dtype t, widened to complex double.
[[nodiscard]] TCFFT_HD inline Complex load_raw(RawDtype t, void const* raw, std::int64_t i) {
  auto const* bytes = static_cast<unsigned char const*>(raw);
  switch (t) {
    case RawDtype::kInt16: return {static_cast<double>(static_cast<std::int16_t const*>(raw)[i]), 0};
    case RawDtype::kUint16:
      return {static_cast<double>(static_cast<std::uint16_t const*>(raw)[i]), 0};
    case RawDtype::kInt32: return {static_cast<double>(static_cast<std::int32_t const*>(raw)[i]), 0};
    case RawDtype::kFloat32: return {static_cast<double>(static_cast<float const*>(raw)[i]), 0};
    case RawDtype::kFloat64: return {static_cast<double const*>(raw)[i], 0};
    case RawDtype::kComplex64: {
      auto const* f = reinterpret_cast<float const*>(bytes) + 2 * i;
      return {static_cast<double>(f[0]), static_cast<double>(f[1])};
    }
    case RawDtype::kComplex128: {
      auto const* d = reinterpret_cast<double const*>(bytes) + 2 * i;
      return {d[0], d[1]};
    }
  }
  return {};
}

[[nodiscard]] TCFFT_HD inline bool is_finite(Complex v) {
  return std::isfinite(v.re) && std::isfinite(v.im);
}

/// e such that |x| * 2^-e < 1 for |x| <= max_abs (0 for max_abs == 0): frexp's exponent.
[[nodiscard]] TCFFT_HD inline int unit_exponent(double max_abs) {
  if (!(max_abs > 0.0) || !std::isfinite(max_abs)) return 0;
  int e = 0;
  (void)std::frexp(max_abs, &e);
  return e;
}

/// The stored value of working value v (already multiplied back to its true scale) under `op`,
/// with `take_real` for real quantities (the real part of an inverse of a one-sided spectrum).
[[nodiscard]] TCFFT_HD inline Complex apply_element_op(Complex v, ElementOp op, bool take_real) {
  switch (op) {
    case ElementOp::kNone: return take_real ? Complex{v.re, 0.0} : v;
    case ElementOp::kMagnitude: return {std::hypot(v.re, v.im), 0.0};
    case ElementOp::kPower: return {v.re * v.re + v.im * v.im, 0.0};
    case ElementOp::kDb: {
      double const p = v.re * v.re + v.im * v.im;
      return {10.0 * std::log10(p > 1e-300 ? p : 1e-300), 0.0};
    }
  }
  return v;
}

/// Writes v as element i of an output buffer of dtype t (real dtypes keep v.re).
TCFFT_HD inline void store_out(OutDtype t, void* out, std::int64_t i, Complex v) {
  switch (t) {
    case OutDtype::kFloat32: static_cast<float*>(out)[i] = static_cast<float>(v.re); return;
    case OutDtype::kFloat64: static_cast<double*>(out)[i] = v.re; return;
    case OutDtype::kComplex64: {
      float* f = static_cast<float*>(out) + 2 * i;
      f[0] = static_cast<float>(v.re);
      f[1] = static_cast<float>(v.im);
      return;
    }
    case OutDtype::kComplex128: {
      double* d = static_cast<double*>(out) + 2 * i;
      d[0] = v.re;
      d[1] = v.im;
      return;
    }
  }
}

}  // namespace tcfft::gpu
