// SPDX-License-Identifier: MIT
// The sections input, output and run, and the `stages:` list (one kind per entry, sinks).
// Stage options are in config_stages.cpp.
#include "config_schema.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <variant>

namespace tcfft::app::detail {

namespace {

std::string const kInput = "input";
std::string const kOutput = "output";
std::string const kRun = "run";
std::string const kStages = "stages";

std::vector<std::string> const& device_words() {
  static std::vector<std::string> const words{"auto", "cpu", "gpu"};
  return words;
}

Device to_device(std::string const& word) {
  if (word == "cpu") return Device::kCpu;
  if (word == "gpu") return Device::kGpu;
  return Device::kAuto;
}

std::string device_word(Device d) {
  switch (d) {
    case Device::kCpu:
      return "cpu";
    case Device::kGpu:
      return "gpu";
    case Device::kAuto:
      break;
  }
  return "auto";
}

MapReader section(MapReader const& top, std::string const& key, std::vector<std::string> keys) {
  return MapReader(top.context(), top.value(key), top.mark_of(key), top.path_of(key),
                   std::move(keys));
}

// Names an HDF5 dataset the way the library resolves it: "psd" and "/psd" are the same.
std::string dataset_identity(std::string const& name) {
  std::size_t const first = name.find_first_not_of('/');
  std::string id = "/";
  if (first != std::string::npos) id.append(name, first, std::string::npos);
  return id;
}

// The single key of a stage entry: its kind, checked against the known kinds.
YAML::const_iterator stage_kind_of(Context const& ctx, YAML::Node const& entry,
                                   YAML::Mark const& mark, std::string const& path) {
  if (!entry.IsMap()) {
    ctx.fail(mark, path,
             "expected a map with one key, the stage kind (e.g. '- fft: {}'), got " +
                 describe_node(entry));
  }
  if (entry.size() == 0) {
    ctx.fail(mark, path,
             "empty stage: expected one key, the stage kind (" + join(stage_kinds()) + ")");
  }
  std::vector<std::string> names;
  for (auto const& pair : entry) {
    if (!pair.first.IsScalar()) {
      ctx.fail(pair.first.Mark(), path,
               "expected a stage kind as key, got " + describe_node(pair.first));
    }
    names.push_back(pair.first.Scalar());
  }
  std::string known;  // a valid kind among the keys, for the indentation hint
  for (auto const& n : names) {
    if (known.empty() &&
        std::find(stage_kinds().begin(), stage_kinds().end(), n) != stage_kinds().end()) {
      known = n;
    }
  }
  std::size_t i = 0;
  for (auto it = entry.begin(); it != entry.end(); ++it, ++i) {
    std::string const& name = names[i];
    if (std::find(stage_kinds().begin(), stage_kinds().end(), name) != stage_kinds().end()) {
      continue;
    }
    std::string const close = closest_key(name, stage_kinds());
    std::string problem = unknown_word_problem("stage kind", name, stage_kinds(), "stage kinds");
    if (close.empty() && !known.empty()) {
      problem = "'" + name + "' is not a stage kind; if it is an option of '" + known +
                "', indent it below '" + known + ":'";
    }
    ctx.fail(it->first.Mark(), path + "." + name, problem);
  }
  if (names.size() > 1) {
    ctx.fail(mark, path,
             "one stage per entry, got " + std::to_string(names.size()) + ": " + join(names) +
                 "; start each stage with '- '");
  }
  return entry.begin();
}

void check_sinks(MapReader const& top, YAML::Node const& list,
                 std::vector<StageConfig> const& stages) {
  std::map<std::string, int> first_writer;
  bool any_sink = false;
  for (auto const& stage : stages) {
    auto const* sink = std::get_if<SinkParams>(&stage.params);
    if (!sink) continue;
    any_sink = true;
    auto const [it, inserted] = first_writer.emplace(dataset_identity(sink->dataset), stage.index);
    if (inserted) continue;
    YAML::Node const options = list[static_cast<std::size_t>(stage.index)].begin()->second;
    std::string const path = "stages[" + std::to_string(stage.index) + "].sink.dataset";
    top.context().fail(options["dataset"].Mark(), path,
                       "'" + sink->dataset + "' is already written by stages[" +
                           std::to_string(it->second) + "]; each sink needs its own dataset");
  }
  if (!any_sink) {
    top.fail(kStages, "the pipeline writes nothing: add a '- sink: {dataset: ...}' stage");
  }
}

}  // namespace

std::vector<std::string> const& top_level_keys() {
  static std::vector<std::string> const keys{kInput, kOutput, kRun, kStages};
  return keys;
}

std::vector<std::string> const& stage_kinds() {
  static std::vector<std::string> const kinds{"fft", "ifft", "spectrum", "welch", "filter", "sink"};
  return kinds;
}

// Relative paths (input.path here, output.path and filter.file below) are kept as written: they
// are resolved against the current working directory when opened, not against the directory of
// the configuration file.
SourceParams parse_input(MapReader const& top) {
  top.require(kInput, "the HDF5 file and dataset to read");
  MapReader const m = section(top, kInput,
                              {"path", "dataset", "items", "segment", "overlap", "rows_per_frame",
                               "frame_mb", "on_nonfinite", "sample_rate", "scale"});
  m.require("path", "the HDF5 file to read");
  m.require("dataset", "the dataset in the file, e.g. /strain/Strain");
  SourceParams p;
  p.path = m.text("path", p.path);
  p.dataset = m.text("dataset", p.dataset);
  p.items = m.word("items", p.items, {"auto", "series", "rows", "images"});
  p.segment = m.integer("segment", p.segment, IntRange{0});
  // overlap: samples, or auto = the largest (taps - 1) / 2 of the filters (resolved in config.cpp).
  YAML::Node const overlap = m.value("overlap");
  bool const auto_overlap = overlap.IsScalar() && overlap.Scalar() == "auto";
  p.overlap = auto_overlap ? kAutoOverlap : m.integer("overlap", p.overlap, IntRange{0});
  p.rows_per_frame = m.integer("rows_per_frame", p.rows_per_frame, IntRange{0});
  p.frame_mb = m.number("frame_mb", p.frame_mb, Range::above(0));
  p.on_nonfinite = m.word("on_nonfinite", p.on_nonfinite, {"error", "zero"});
  p.sample_rate = m.number("sample_rate", p.sample_rate, Range::at_least(0));
  p.scale = m.number("scale", p.scale, Range::any());
  if (p.scale == 0.0) m.fail("scale", "0 would turn every sample into zero");
  return p;
}

OutputParams parse_output(MapReader const& top) {
  top.require(kOutput, "the HDF5 file the sinks write into");
  MapReader const m = section(top, kOutput, {"path", "overwrite"});
  m.require("path", "the HDF5 file to write");
  OutputParams p;
  p.path = m.text("path", p.path);
  p.overwrite = m.flag("overwrite", p.overwrite);
  return p;
}

RunParams parse_run(MapReader const& top) {
  MapReader const m = section(top, kRun, {"device", "backend", "precision", "slots", "fuse",
                                             "real_transforms"});
  RunParams p;
  p.device = to_device(m.word("device", device_word(p.device), device_words()));
  p.backend = m.word("backend", p.backend, {"auto", "tensor-core", "cufft"});
  p.precision = m.word("precision", p.precision, {"fp16", "fp32"});
  p.slots = static_cast<int>(m.integer("slots", p.slots, IntRange{1, 16}));
  p.fuse = m.flag("fuse", p.fuse);
  p.real_transforms = m.flag("real_transforms", p.real_transforms);
  return p;
}

std::vector<StageConfig> parse_stages(MapReader const& top, double sample_rate) {
  top.require(kStages, "a list of stages ending in '- sink: {dataset: ...}'");
  YAML::Node const list = top.value(kStages);
  if (!list.IsSequence()) top.fail(kStages, "expected a list, got " + describe_node(list));
  if (list.size() == 0) {
    top.fail(kStages,
             "the list is empty: add stages, e.g. '- fft: {}' and '- sink: {dataset: /out}'");
  }
  std::vector<StageConfig> stages;
  for (std::size_t i = 0; i < list.size(); ++i) {
    YAML::Node const entry = list[i];
    std::string const path = "stages[" + std::to_string(i) + "]";
    YAML::Mark const mark = entry.Mark().line >= 0 ? entry.Mark() : top.mark_of(kStages);
    auto const kind = stage_kind_of(top.context(), entry, mark, path);
    StageConfig stage;
    stage.kind = kind->first.Scalar();
    stage.index = static_cast<int>(i);
    stage.params = parse_stage_params(top.context(), stage.kind, kind->second, kind->first.Mark(),
                                      path + "." + stage.kind, sample_rate);
    stages.push_back(std::move(stage));
  }
  check_sinks(top, list, stages);
  return stages;
}

void emit_text(YAML::Emitter& out, std::string const& text) {
  static std::set<std::string> const null_words{"", "~", "null", "Null", "NULL"};
  if (null_words.count(text) != 0) {
    out << YAML::DoubleQuoted << text;
  } else {
    out << text;
  }
}

void emit_input(YAML::Emitter& out, SourceParams const& p) {
  out << YAML::Key << kInput << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "path" << YAML::Value;
  emit_text(out, p.path);
  out << YAML::Key << "dataset" << YAML::Value;
  emit_text(out, p.dataset);
  out << YAML::Key << "items" << YAML::Value << p.items;
  out << YAML::Key << "segment" << YAML::Value << p.segment;
  out << YAML::Key << "overlap" << YAML::Value << p.overlap;
  out << YAML::Key << "rows_per_frame" << YAML::Value << p.rows_per_frame;
  out << YAML::Key << "frame_mb" << YAML::Value << format_double(p.frame_mb);
  out << YAML::Key << "on_nonfinite" << YAML::Value << p.on_nonfinite;
  out << YAML::Key << "sample_rate" << YAML::Value << format_double(p.sample_rate);
  out << YAML::Key << "scale" << YAML::Value << format_double(p.scale);
  out << YAML::EndMap;
}

void emit_output(YAML::Emitter& out, OutputParams const& p) {
  out << YAML::Key << kOutput << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "path" << YAML::Value;
  emit_text(out, p.path);
  out << YAML::Key << "overwrite" << YAML::Value << (p.overwrite ? "true" : "false");
  out << YAML::EndMap;
}

void emit_run(YAML::Emitter& out, RunParams const& p) {
  out << YAML::Key << kRun << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "device" << YAML::Value << device_word(p.device);
  out << YAML::Key << "backend" << YAML::Value << p.backend;
  out << YAML::Key << "precision" << YAML::Value << p.precision;
  out << YAML::Key << "slots" << YAML::Value << p.slots;
  out << YAML::Key << "fuse" << YAML::Value << (p.fuse ? "true" : "false");
  out << YAML::Key << "real_transforms" << YAML::Value << (p.real_transforms ? "true" : "false");
  out << YAML::EndMap;
}

void emit_stage(YAML::Emitter& out, StageConfig const& stage) {
  out << YAML::BeginMap << YAML::Key << stage.kind << YAML::Value;
  emit_stage_params(out, stage.params);
  out << YAML::EndMap;
}

}  // namespace tcfft::app::detail
