// SPDX-License-Identifier: MIT
// make_gpu_chain: walks the stage list once on the host, computing each stage's output spec
// exactly as the host stages' configure() does, and records the device steps and the scale
// factors every sink must undo. Anything without a GPU form ends the walk with a reason.
#include <tcfft/gpu/gpu_chain.hpp>

#include <tcfft/core/error.hpp>
#include <tcfft/stages/fft_stage.hpp>
#include <tcfft/stages/filter_fir.hpp>
#include <tcfft/stages/filter_response.hpp>
#include <tcfft/stages/ifft_stage.hpp>
#include <tcfft/stages/windows.hpp>

#include "gpu/chain_impl.hpp"
#include "stage_support.hpp"

#include <cmath>
#include <exception>
#include <utility>
#include <variant>

namespace tcfft::gpu {
namespace {

using stages::detail::norm_factor;
using stages::detail::stage_name;

/// Raised inside the walk: the chain has no GPU form; the message is the reason.
struct NoGpuForm : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Raised inside a walk that keeps real input real: some stage needs the full complex item
/// (a two-sided fft of real input, a size the real transforms cannot do), so the walk starts
/// again with complex items.
struct NoRealForm : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Negotiation {
 public:
  Negotiation(GpuChain::Impl& chain, FftEngineParams const& engine, bool real)
      : c_(chain), engine_(engine), try_real_(real) {}

  void source(GpuSourceSpec const& source);
  void stage(StageConfig const& config);

 private:
  void fft(FftParams const& p, std::string const& name);
  void ifft(IfftParams const& p, std::string const& name);
  void filter(FilterParams const& p, std::string const& name);
  void fir_form(FilterParams const& p, stages::ResponseParams const& r, std::string const& name,
                ChainOp& op);
  void spectrum(SpectrumParams const& p, std::string const& name);
  void sink(SinkParams const& p, int index, std::string const& name);
  void add_fft(std::string const& name, bool forward, bool rows_only, Norm norm);
  void realify_if_needed();
  [[nodiscard]] ChainOp make_op(ChainOp::Kind kind, std::string const& name) const;
  void push(ChainOp op);

  GpuChain::Impl& c_;
  FftEngineParams engine_;
  bool try_real_ = false;       // keep real input real (R2C / C2R, half spectra)
  WorkPlace place_;             // where the working data is after the stages so far
  FrameSpec spec_;              // the logical spec after the stages so far (host path's)
  double factor_ = 1.0;         // true value = working value * factor_ * 2^e
  ElementOp element_op_ = ElementOp::kNone;
  bool imag_is_noise_ = false;  // after an inverse of a one-sided spectrum
  bool first_stage_ = true;
};

void Negotiation::source(GpuSourceSpec const& source) {
  auto const dtype = parse_raw_dtype(source.dtype);
  if (!dtype) throw NoGpuForm("input dtype " + source.dtype + " is not read by the GPU kernels");
  auto const& frame = source.frame;
  if (frame.shape.empty() || frame.shape.size() > 2 || frame.item_size() <= 0) {
    throw NoGpuForm("input items of rank " + std::to_string(frame.shape.size()));
  }
  c_.source = source;
  c_.dtype = *dtype;
  c_.real = try_real_ && !is_complex(*dtype);
  c_.half = engine_.precision == "fp16";
  c_.precision = engine_.precision;
  c_.backend = engine_.backend;
  c_.fuse = engine_.fuse;
  c_.nx = frame.shape.back();
  c_.ny = frame.shape.size() == 2 ? frame.shape[0] : 1;
  c_.rows_per_frame = frame.rows_per_frame;
  c_.convert.dtype = *dtype;
  c_.convert.half = c_.half;
  c_.convert.nx = c_.nx;
  c_.convert.dynamic = is_floating(*dtype);
  c_.convert.exponent = c_.convert.dynamic ? 0 : static_exponent(*dtype);
  c_.convert.zero_nonfinite = source.zero_nonfinite;
  c_.convert.real = c_.real;
  place_ = {0, {c_.real, c_.nx}};
  c_.op_names.push_back("convert");
  spec_ = frame;
  factor_ = source.scale;
}

void Negotiation::stage(StageConfig const& config) {
  auto const name = stage_name(config.index, config.kind.c_str());
  bool const is_sink = std::holds_alternative<SinkParams>(config.params);
  if (element_op_ != ElementOp::kNone && !is_sink) {
    throw NoGpuForm(name + " follows a spectrum stage");
  }
  if (auto const* p = std::get_if<FftParams>(&config.params)) {
    fft(*p, name);
  } else if (auto const* q = std::get_if<IfftParams>(&config.params)) {
    ifft(*q, name);
  } else if (auto const* f = std::get_if<FilterParams>(&config.params)) {
    filter(*f, name);
  } else if (auto const* s = std::get_if<SpectrumParams>(&config.params)) {
    spectrum(*s, name);
  } else if (auto const* k = std::get_if<SinkParams>(&config.params)) {
    sink(*k, config.index, name);
  } else {
    throw NoGpuForm(name + " has no GPU form");
  }
  if (!is_sink) first_stage_ = false;
}

ChainOp Negotiation::make_op(ChainOp::Kind kind, std::string const& name) const {
  ChainOp op;
  op.kind = kind;
  op.name = name;
  op.at = place_;
  op.to = place_;
  op.gain.nx = c_.nx;
  op.gain.ny = c_.ny;
  op.gain.view = place_.view;
  op.sink.view = place_.view;
  return op;
}

void Negotiation::push(ChainOp op) {
  c_.op_names.push_back(op.name);
  c_.ops.push_back(std::move(op));
}

void Negotiation::realify_if_needed() {
  if (!imag_is_noise_) return;
  push(make_op(ChainOp::Kind::kRealify, "real part"));
  imag_is_noise_ = false;
}

// A real chain's transforms: R2C from the real samples (region 0) to the half spectrum
// (region 1), C2R back; C2C in place otherwise.
void Negotiation::add_fft(std::string const& name, bool forward, bool rows_only, Norm norm) {
  ChainOp op = make_op(ChainOp::Kind::kFft, name);
  op.direction = forward ? fftcore::Direction::kForward : fftcore::Direction::kInverse;
  auto& d = op.plan_desc;
  if (place_.view.real) {
    d.kind = fftcore::Transform::kR2C;
    op.to = {1, {false, c_.nx / 2 + 1}};
  } else if (place_.region == 1) {
    d.kind = fftcore::Transform::kC2R;
    op.to = {0, {true, c_.nx}};
  }
  bool const two_d = c_.ny > 1 || spec_.shape.size() == 2;
  d.rank = two_d && !rows_only ? 2 : 1;
  d.dims[0] = d.rank == 2 ? c_.ny : c_.nx;
  d.dims[1] = d.rank == 2 ? c_.nx : 0;
  d.batch = c_.rows_per_frame * (d.rank == 1 ? c_.ny : 1);
  d.precision = c_.half ? fftcore::Precision::kHalf : fftcore::Precision::kSingle;
  d.scaling = c_.half ? fftcore::Scaling::kBySqrtN : fftcore::Scaling::kNone;
  d.backend = engine_.backend == "tensor-core" ? fftcore::Backend::kTensorCore
              : engine_.backend == "cufft"     ? fftcore::Backend::kCufft
                                               : fftcore::Backend::kAuto;
  if (auto const status = fftcore::can_implement(d); status != fftcore::Status::kSuccess) {
    if (d.kind != fftcore::Transform::kC2C) {
      throw NoRealForm(name + ": fftcore cannot do it as a real transform");
    }
    throw NoGpuForm(name + ": fftcore cannot do it (" + fftcore::to_string(status) + ")");
  }
  auto const points = d.elements();
  factor_ *= norm_factor(norm, points, forward);
  if (c_.half) factor_ *= std::sqrt(static_cast<double>(points));
  place_ = op.to;
  push(std::move(op));
}

void Negotiation::fft(FftParams const& p, std::string const& name) {
  stages::WindowKind window = stages::WindowKind::kBoxcar;
  if (spec_.domain != Domain::kTime || spec_.shape.empty() || spec_.shape.size() > 2 ||
      (p.axes != "all" && p.axes != "last") || !stages::parse_window(p.window, window) ||
      (window == stages::WindowKind::kTukey && !(p.tukey_alpha >= 0.0 && p.tukey_alpha <= 1.0))) {
    throw NoGpuForm(name + ": configuration the host stage refuses");
  }
  realify_if_needed();
  std::int64_t const nx = spec_.shape.back();
  bool const two_d = spec_.shape.size() == 2;
  bool const rows_only = two_d && p.axes == "last";
  if (window != stages::WindowKind::kBoxcar) {
    auto const values = stages::make_window(window, nx, p.tukey_alpha);
    std::vector<float> table(values.begin(), values.end());
    if (first_stage_) {
      c_.convert_window = std::move(table);
    } else {
      ChainOp op = make_op(ChainOp::Kind::kGain, name + " window");
      op.gain.mode = detail::GainMode::kRealTable;
      op.gain.table_pitch = 0;  // one line of nx values
      op.real_table = std::move(table);
      push(std::move(op));
    }
  }
  if (place_.view.real && !p.onesided) throw NoRealForm(name + ": a two-sided spectrum");
  add_fft(name, true, rows_only, p.norm);
  spec_ = stages::fft_output_spec(spec_, p.onesided, rows_only);
}

void Negotiation::ifft(IfftParams const& p, std::string const& name) {
  std::int64_t const nx = spec_.time_length;
  std::int64_t const bins = spec_.onesided ? nx / 2 + 1 : nx;
  bool const two_d = spec_.shape.size() == 2;
  bool const rows_only = two_d && spec_.time_rows == 0;
  if (spec_.domain != Domain::kFrequency || spec_.type != SampleType::kComplex ||
      spec_.shape.empty() || spec_.shape.size() > 2 || nx != c_.nx || spec_.shape.back() != bins ||
      (two_d && !rows_only && spec_.shape[0] != spec_.time_rows)) {
    throw NoGpuForm(name + ": configuration the host stage refuses");
  }
  add_fft(name, false, rows_only, p.norm);
  imag_is_noise_ = spec_.onesided && !place_.view.real;
  spec_ = stages::ifft_output_spec(spec_);
}

void Negotiation::filter(FilterParams const& p, std::string const& name) {
  if (spec_.domain != Domain::kFrequency || spec_.type != SampleType::kComplex ||
      (p.taps != 0 && p.response == "file")) {
    throw NoGpuForm(name + ": configuration the host stage refuses");
  }
  ChainOp op = make_op(ChainOp::Kind::kGain, name);
  if (p.response == "file") {
    auto const gains = stages::fit_response_to_item(
        stages::read_response_file(p.file, p.dataset, name), spec_, p.file, p.dataset, name);
    // Expand one-sided gains to the full spectrum, Hermitian-symmetric so real output stays real:
    // G[y][x] = conj(G[-y mod ny][nx - x]) above nx/2.
    std::int64_t const bins = spec_.shape.back();
    auto const ny = c_.ny;
    auto const nx = c_.nx;
    op.complex_table.resize(static_cast<std::size_t>(ny * nx));
    for (std::int64_t y = 0; y < ny; ++y) {
      for (std::int64_t x = 0; x < nx; ++x) {
        std::complex<double> g;
        if (!spec_.onesided || x < bins) {
          g = gains[static_cast<std::size_t>(y * bins + x)];
        } else {
          g = std::conj(gains[static_cast<std::size_t>(((ny - y) % ny) * bins + nx - x)]);
        }
        op.complex_table[static_cast<std::size_t>(y * nx + x)] = std::complex<float>(g);
      }
    }
    op.gain.mode = detail::GainMode::kComplexTable;
    op.gain.table_pitch = nx;  // the full item
  } else {
    stages::ResponseParams r;
    std::string const& t = p.type;
    if (t != "lowpass" && t != "highpass" && t != "bandpass" && t != "bandstop") {
      throw NoGpuForm(name + ": unknown filter type");
    }
    r.band = t == "lowpass"    ? stages::FilterBand::kLowpass
             : t == "highpass" ? stages::FilterBand::kHighpass
             : t == "bandpass" ? stages::FilterBand::kBandpass
                               : stages::FilterBand::kBandstop;
    if (p.response != "butterworth" && p.response != "gaussian") {
      throw NoGpuForm(name + ": unknown response");
    }
    r.shape = p.response == "butterworth" ? stages::FilterShape::kButterworth
                                          : stages::FilterShape::kGaussian;
    r.cutoff = p.cutoff;
    r.low = p.low;
    r.high = p.high;
    r.order = p.order;
    stages::check_response(r, spec_.sample_rate, name);
    if (spec_.time_length != c_.nx) throw NoGpuForm(name + ": spectrum length mismatch");
    if (p.taps != 0) {
      fir_form(p, r, name, op);
    } else {
      op.gain.mode = detail::GainMode::kParametric;
      op.gain.response = r;
      op.gain.sample_rate = spec_.sample_rate;
      op.gain.time_rows = spec_.shape.size() == 2 ? spec_.time_rows : 0;
    }
  }
  push(std::move(op));
}

// The FIR form (filter_fir.hpp): the same design and gains as FilterStage, in double, at the
// full spectrum of one line (nx bins), applied to every line as one real table line.
void Negotiation::fir_form(FilterParams const& p, stages::ResponseParams const& r,
                           std::string const& name, ChainOp& op) {
  bool const two_d_transform = spec_.shape.size() == 2 && spec_.time_rows > 0;
  if (spec_.shape.empty() || spec_.shape.size() > 2 || two_d_transform) {
    throw NoGpuForm(name + ": configuration the host stage refuses (taps on 2-D transforms)");
  }
  try {
    auto const gains = stages::fir_gains(stages::design_fir(r, spec_.sample_rate, p.taps), c_.nx,
                                         c_.nx);
    op.real_table.assign(gains.begin(), gains.end());
  } catch (ConfigError const& e) {
    throw NoGpuForm(name + ": " + e.what());
  }
  op.gain.mode = detail::GainMode::kRealTable;
  op.gain.table_pitch = 0;
}

void Negotiation::spectrum(SpectrumParams const& p, std::string const& name) {
  if (spec_.domain != Domain::kFrequency || spec_.type != SampleType::kComplex) {
    throw NoGpuForm(name + ": configuration the host stage refuses");
  }
  if (p.output == "magnitude") {
    element_op_ = ElementOp::kMagnitude;
  } else if (p.output == "power") {
    element_op_ = ElementOp::kPower;
    spec_.units = spec_.units.empty() ? "" : spec_.units + "^2";
  } else if (p.output == "db") {
    element_op_ = ElementOp::kDb;
    spec_.units = "dB";
  } else {
    throw NoGpuForm(name + ": unknown output");
  }
  spec_.type = SampleType::kReal;
}

void Negotiation::sink(SinkParams const& p, int index, std::string const& name) {
  ChainOp op = make_op(ChainOp::Kind::kSink, name);
  op.sink_index = c_.sinks.size();
  auto& s = op.sink;
  s.half = c_.half;
  s.ny = c_.ny;
  s.nx = c_.nx;
  s.bins = spec_.shape.back();
  s.context = spec_.stored_context();
  s.op = element_op_;
  s.take_real = spec_.type == SampleType::kReal && element_op_ == ElementOp::kNone;
  s.factor = factor_;
  s.dynamic = c_.convert.dynamic;
  s.exponent = c_.convert.exponent;
  c_.sinks.push_back({index, p, spec_});
  push(std::move(op));
}

}  // namespace

std::unique_ptr<GpuChain> make_gpu_chain(std::vector<StageConfig> const& stages,
                                         FftEngineParams const& engine,
                                         GpuSourceSpec const& source, std::string& reason) {
  std::unique_ptr<GpuChain::Impl> impl;
  // First with real input kept real (run.real_transforms); where a stage needs full complex
  // items, again with complex items.
  for (bool real : {engine.real_transforms, false}) {
    impl = std::make_unique<GpuChain::Impl>();
    try {
      if (engine.precision != "fp16" && engine.precision != "fp32") {
        throw NoGpuForm("precision " + engine.precision);
      }
      Negotiation walk(*impl, engine, real);
      walk.source(source);
      for (auto const& config : stages) walk.stage(config);
      if (impl->sinks.empty()) throw NoGpuForm("the chain has no sink");
      break;
    } catch (NoRealForm const&) {
      continue;
    } catch (std::exception const& e) {
      reason = e.what();
      return nullptr;
    }
  }
  reason.clear();
  return std::make_unique<GpuChain>(std::move(impl));
}

}  // namespace tcfft::gpu
