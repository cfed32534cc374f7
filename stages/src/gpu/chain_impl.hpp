// SPDX-License-Identifier: MIT
// Private: the state of a GpuChain, shared by the negotiation (chain_negotiate.cpp, host only)
// and the device side (gpu_chain.cpp: plans, tables, enqueue).
#pragma once

#include <tcfft/core/cuda.hpp>
#include <tcfft/gpu/gpu_chain.hpp>

#include "gpu/chain_kernels.hpp"

#include <fftcore/fftcore.hpp>

#include <complex>
#include <string>
#include <vector>

namespace tcfft::gpu {

/// Where a step's elements lie in a slot's work buffer: region 0 from its start (the complex
/// items, or the real samples of a real chain), region 1 after the real samples (the half
/// spectrum of a real chain's R2C, GpuChain::Impl::spectrum_offset), and what they are.
struct WorkPlace {
  int region = 0;
  detail::WorkView view;
};

/// One device step after the conversion.
struct ChainOp {
  enum class Kind { kFft, kGain, kRealify, kSink };
  Kind kind = Kind::kFft;
  std::string name;
  WorkPlace at;  // the step's data (an fft's input)
  // kFft
  WorkPlace to;  // the fft's output: `at` for C2C (in place), the other region for R2C / C2R
  fftcore::PlanDesc plan_desc;
  fftcore::Direction direction = fftcore::Direction::kForward;
  std::size_t plan = 0;  // index into Impl::plans after prepare
  float2 const* store_factors = nullptr;  // a fused gain's factors (ExecuteHooks), from prepare
  // kGain: args.table is set by prepare from one of the tables below
  detail::GainArgs gain;
  bool fused = false;  // applied inside the transform before it (prepare); enqueue skips it
  std::vector<float> real_table;                 // window values or FIR gains (one line)
  std::vector<std::complex<float>> complex_table;  // response file gains (the full item)
  // kSink
  detail::SinkArgs sink;
  std::size_t sink_index = 0;
};

struct GpuChain::Impl {
  GpuSourceSpec source;
  RawDtype dtype = RawDtype::kFloat32;
  bool half = false;
  std::string precision;  // "fp16" | "fp32"
  std::string backend;
  bool fuse = true;       // fuse gains into Tensor Core transforms (FftEngineParams::fuse)
  bool real = false;      // real input kept real: R2C / C2R and half spectra (no full items)
  std::int64_t ny = 1;    // working item: ny x nx complex elements
  std::int64_t nx = 1;
  std::int64_t rows_per_frame = 1;
  detail::ConvertArgs convert;       // raw/work/status pointers set per enqueue
  std::vector<float> convert_window; // nx values, or empty
  std::vector<ChainOp> ops;
  std::vector<GpuSinkSpec> sinks;
  std::vector<std::string> op_names;

  // Set by prepare().
  bool prepared = false;
  std::vector<fftcore::Plan> plans;
  std::size_t workspace = 0;
  std::vector<DeviceBuffer> tables;  // window and response tables
  float const* window_device = nullptr;
  std::size_t table_bytes = 0;

  [[nodiscard]] std::int64_t item() const noexcept { return ny * nx; }
  /// Bytes of one working element of `view`.
  [[nodiscard]] std::size_t element_bytes(detail::WorkView view) const noexcept {
    return (half ? 2u : 4u) * (view.real ? 1u : 2u);
  }
  /// Bytes of region 0 of a frame: complex items, or the real samples of a real chain.
  [[nodiscard]] std::size_t region0_bytes() const noexcept {
    return static_cast<std::size_t>(rows_per_frame * item()) * element_bytes({real, nx});
  }
  /// Offset of region 1 (a real chain's half spectra), 256-byte aligned; 0 when there is none.
  [[nodiscard]] std::size_t spectrum_offset() const noexcept {
    return real ? (region0_bytes() + 255) / 256 * 256 : 0;
  }
  /// Bytes of a frame's work buffer.
  [[nodiscard]] std::size_t work_bytes() const noexcept {
    if (!real) return region0_bytes();
    return spectrum_offset() +
           static_cast<std::size_t>(rows_per_frame * ny * (nx / 2 + 1)) * element_bytes({});
  }
};

}  // namespace tcfft::gpu
