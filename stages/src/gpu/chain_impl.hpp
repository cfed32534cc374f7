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

/// One device step after the conversion.
struct ChainOp {
  enum class Kind { kFft, kGain, kRealify, kSink };
  Kind kind = Kind::kFft;
  std::string name;
  // kFft
  fftcore::PlanDesc plan_desc;
  fftcore::Direction direction = fftcore::Direction::kForward;
  std::size_t plan = 0;  // index into Impl::plans after prepare
  float2 const* store_factors = nullptr;  // a fused gain's factors (ExecuteHooks), from prepare
  // kGain: args.table is set by prepare from one of the tables below
  detail::GainArgs gain;
  bool fused = false;  // applied inside the transform before it (prepare); enqueue skips it
  std::vector<float> real_table;                 // window values or FIR gains (period nx)
  std::vector<std::complex<float>> complex_table;  // response file gains (period item)
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
};

}  // namespace tcfft::gpu
