// SPDX-License-Identifier: MIT
// The options of each stage kind: read strictly from the stage's map, written back in schema
// order. Filter keys that a filter's type or response does not use are refused (and not
// written), so that `cutoff` on a bandpass or `order` on a Gaussian never goes unnoticed.
#include "config_schema.hpp"

#include <limits>
#include <string>
#include <variant>

namespace tcfft::app::detail {

namespace {

std::int64_t const kNoLimit = std::numeric_limits<std::int64_t>::max();
std::int64_t const kMaxTaps = (std::int64_t{1} << 24) - 1;

Norm read_norm(MapReader const& m) {
  std::string const w = m.word("norm", "backward", {"backward", "ortho", "forward"});
  if (w == "ortho") return Norm::kOrtho;
  if (w == "forward") return Norm::kForward;
  return Norm::kBackward;
}

std::string norm_word(Norm n) {
  switch (n) {
    case Norm::kOrtho:
      return "ortho";
    case Norm::kForward:
      return "forward";
    case Norm::kBackward:
      break;
  }
  return "backward";
}

FftParams read_fft(MapReader const& m) {
  FftParams p;
  p.axes = m.word("axes", p.axes, {"all", "last"});
  p.window = m.word("window", p.window, {"none", "hann", "hamming", "blackman", "tukey"});
  p.tukey_alpha = m.number("tukey_alpha", p.tukey_alpha, Range::left_open(0, 1));
  p.onesided = m.flag("onesided", p.onesided);
  p.norm = read_norm(m);
  return p;
}

SpectrumParams read_spectrum(MapReader const& m) {
  SpectrumParams p;
  p.output = m.word("output", p.output, {"magnitude", "power", "db"});
  return p;
}

// overlap: samples, -1 (segment / 2), or a percentage of the segment such as "50%".
std::int64_t read_overlap(MapReader const& m, std::int64_t segment) {
  std::int64_t overlap = -1;
  YAML::Node const node = m.value("overlap");
  std::string const text = node.IsScalar() ? node.Scalar() : "";
  if (!text.empty() && text.back() == '%') {
    double percent = 0.0;
    if (!parse_number(text.substr(0, text.size() - 1), percent)) {
      m.fail("overlap", "expected samples or a percentage such as '50%', got '" + text + "'");
    }
    if (!(percent >= 0.0 && percent < 100.0)) {
      m.fail("overlap", text + " is out of range: must be in [0%, 100%)");
    }
    overlap = static_cast<std::int64_t>(static_cast<double>(segment) * percent / 100.0);
  } else {
    overlap = m.integer("overlap", overlap, IntRange{});
  }
  if (overlap == -1) return segment / 2;
  if (overlap < 0 || overlap >= segment) {
    m.fail("overlap", text + " is out of range: must be 0.." + std::to_string(segment - 1) +
                          " (less than segment, " + std::to_string(segment) +
                          "), or -1 for segment / 2");
  }
  return overlap;
}

WelchParams read_welch(MapReader const& m) {
  WelchParams p;
  p.segment = m.integer("segment", p.segment, IntRange{2, kNoLimit});
  p.overlap = read_overlap(m, p.segment);
  p.window = m.word("window", p.window, {"hann", "hamming", "blackman", "boxcar"});
  p.average = m.word("average", p.average, {"mean", "median"});
  p.scaling = m.word("scaling", p.scaling, {"density", "spectrum"});
  p.detrend = m.word("detrend", p.detrend, {"none", "constant"});
  p.onesided = m.flag("onesided", p.onesided);
  p.report_peaks = static_cast<int>(
      m.integer("report_peaks", p.report_peaks, IntRange{0, std::numeric_limits<int>::max()}));
  return p;
}

// A corner frequency must lie below Nyquist when the sample rate is known from the config.
void check_nyquist(MapReader const& m, std::string const& key, double value, double rate) {
  if (rate > 0.0 && value >= rate / 2.0) {
    m.fail(key, format_double(value) + " is at or above the Nyquist frequency " +
                    format_double(rate / 2.0) + " (input.sample_rate " + format_double(rate) +
                    " / 2)");
  }
}

FilterParams read_filter(MapReader const& m, double sample_rate) {
  FilterParams p;
  p.type = m.word("type", p.type, {"lowpass", "highpass", "bandpass", "bandstop"});
  p.response = m.word("response", p.response, {"butterworth", "gaussian", "file"});
  if (p.response == "file") {
    for (auto const* key : {"cutoff", "low", "high", "order", "taps"}) {
      m.forbid(key, "with response: file (the gains come from the file)");
    }
    m.require("file", "the HDF5 file holding the response");
    m.require("dataset", "the dataset with one gain per frequency bin");
    p.file = m.text("file", p.file);
    p.dataset = m.text("dataset", p.dataset);
    return p;
  }
  m.forbid("file", "unless response: file");
  m.forbid("dataset", "unless response: file");
  bool const band = p.type == "bandpass" || p.type == "bandstop";
  if (band) {
    m.forbid("cutoff", "with type: " + p.type + " (give low and high)");
    m.require("low", "the lower corner of the band");
    m.require("high", "the upper corner of the band");
    p.low = m.number("low", p.low, Range::at_least(0));
    p.high = m.number("high", p.high, Range::above(0));
    if (!(p.low < p.high)) {
      // Blame the corner that an override changed, if one did: the other is as in the file.
      bool const low_overridden = m.context().override_of(m.path_of("low")) != nullptr &&
                                  m.context().override_of(m.path_of("high")) == nullptr;
      if (low_overridden) {
        m.fail("low", format_double(p.low) + " is out of range: must be less than high (" +
                          format_double(p.high) + ")");
      }
      m.fail("high", format_double(p.high) + " is out of range: must be greater than low (" +
                         format_double(p.low) + ")");
    }
    check_nyquist(m, "high", p.high, sample_rate);
  } else {
    m.forbid("low", "with type: " + p.type + " (give cutoff)");
    m.forbid("high", "with type: " + p.type + " (give cutoff)");
    m.require("cutoff", "the corner frequency, in the units of the sample rate");
    p.cutoff = m.number("cutoff", p.cutoff, Range::above(0));
    check_nyquist(m, "cutoff", p.cutoff, sample_rate);
  }
  if (p.response == "gaussian") {
    m.forbid("order", "with response: gaussian (order is the Butterworth order)");
  } else {
    p.order = static_cast<int>(m.integer("order", p.order, IntRange{1, 16}));
  }
  p.taps = m.integer("taps", p.taps, IntRange{0, kMaxTaps});
  if (p.taps != 0 && (p.taps < 3 || p.taps % 2 == 0)) {
    m.fail("taps", std::to_string(p.taps) +
                       " is out of range: must be 0 (gains at the item's bins) or odd and >= 3 "
                       "(a zero-phase FIR of that many samples)");
  }
  return p;
}

SinkParams read_sink(MapReader const& m) {
  m.require("dataset", "the dataset to write in the output file");
  SinkParams p;
  p.dataset = m.text("dataset", p.dataset);
  p.dtype = m.word("dtype", p.dtype, {"auto", "float32", "float64", "complex64", "complex128"});
  return p;
}

// Writers: one overload per parameter struct, keys in the order of the readers above.
template <typename T>
void put(YAML::Emitter& out, char const* key, T const& value) {
  out << YAML::Key << key << YAML::Value << value;
}
void put_number(YAML::Emitter& out, char const* key, double value) {
  put(out, key, format_double(value));
}
void put_flag(YAML::Emitter& out, char const* key, bool value) {
  put(out, key, value ? "true" : "false");
}

void write(YAML::Emitter& out, FftParams const& p) {
  put(out, "axes", p.axes);
  put(out, "window", p.window);
  put_number(out, "tukey_alpha", p.tukey_alpha);
  put_flag(out, "onesided", p.onesided);
  put(out, "norm", norm_word(p.norm));
}
void write(YAML::Emitter& out, IfftParams const& p) { put(out, "norm", norm_word(p.norm)); }
void write(YAML::Emitter& out, SpectrumParams const& p) { put(out, "output", p.output); }
void write(YAML::Emitter& out, WelchParams const& p) {
  put(out, "segment", p.segment);
  put(out, "overlap", p.overlap);
  put(out, "window", p.window);
  put(out, "average", p.average);
  put(out, "scaling", p.scaling);
  put(out, "detrend", p.detrend);
  put_flag(out, "onesided", p.onesided);
  put(out, "report_peaks", p.report_peaks);
}
void write(YAML::Emitter& out, FilterParams const& p) {
  put(out, "type", p.type);
  put(out, "response", p.response);
  if (p.response == "file") {
    out << YAML::Key << "file" << YAML::Value;
    emit_text(out, p.file);
    out << YAML::Key << "dataset" << YAML::Value;
    emit_text(out, p.dataset);
    return;
  }
  if (p.type == "bandpass" || p.type == "bandstop") {
    put_number(out, "low", p.low);
    put_number(out, "high", p.high);
  } else {
    put_number(out, "cutoff", p.cutoff);
  }
  if (p.response != "gaussian") put(out, "order", p.order);
  put(out, "taps", p.taps);
}
void write(YAML::Emitter& out, SinkParams const& p) {
  out << YAML::Key << "dataset" << YAML::Value;
  emit_text(out, p.dataset);
  put(out, "dtype", p.dtype);
}

}  // namespace

StageParams parse_stage_params(Context const& ctx, std::string const& kind,
                               YAML::Node const& options, YAML::Mark const& kind_mark,
                               std::string const& path, double sample_rate) {
  auto reader = [&](std::vector<std::string> keys) {
    return MapReader(ctx, options, kind_mark, path, std::move(keys));
  };
  if (kind == "fft") return read_fft(reader({"axes", "window", "tukey_alpha", "onesided", "norm"}));
  if (kind == "ifft") return IfftParams{read_norm(reader({"norm"}))};
  if (kind == "spectrum") return read_spectrum(reader({"output"}));
  if (kind == "welch") {
    return read_welch(reader({"segment", "overlap", "window", "average", "scaling", "detrend",
                              "onesided", "report_peaks"}));
  }
  if (kind == "filter") {
    return read_filter(
        reader({"type", "response", "cutoff", "low", "high", "order", "taps", "file", "dataset"}),
        sample_rate);
  }
  return read_sink(reader({"dataset", "dtype"}));
}

void emit_stage_params(YAML::Emitter& out, StageParams const& params) {
  out << YAML::BeginMap;
  std::visit([&out](auto const& p) { write(out, p); }, params);
  out << YAML::EndMap;
}

}  // namespace tcfft::app::detail
