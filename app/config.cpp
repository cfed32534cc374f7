// SPDX-License-Identifier: MIT
// Loads the YAML configuration: reads the file, applies --set overrides to the tree, validates
// every section through the schema (config_schema.cpp, config_stages.cpp), runs the checks that
// span sections and writes the effective configuration.
#include "config.hpp"

#include "config_schema.hpp"
#include "config_yaml.hpp"

#include <tcfft/core/error.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tcfft::app {

namespace {

using detail::Context;
using detail::MapReader;
using detail::OverrideOrigin;

struct PathStep {
  std::string word;
  bool bracketed = false;  // written as [n]: must be a list index
};

bool is_index(std::string const& word) {
  return !word.empty() && word.size() < 10 &&
         word.find_first_not_of("0123456789") == std::string::npos;
}

// "stages.1.filter.cutoff" or "stages[1].filter.cutoff" -> stages, 1, filter, cutoff.
std::vector<PathStep> split_path(std::string const& source, std::string const& path) {
  auto bad = [&](std::string const& why) -> ConfigError {
    return ConfigError(source + ": --set " + path + ": " + why);
  };
  std::vector<PathStep> steps;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t const dot = std::min(path.find('.', pos), path.size());
    std::string part = path.substr(pos, dot - pos);
    std::size_t const bracket = part.find('[');
    std::string const name = part.substr(0, bracket);
    if (name.empty() && bracket != 0) throw bad("empty key in the key path");
    if (!name.empty()) steps.push_back({name, false});
    for (std::size_t b = bracket; b != std::string::npos; b = part.find('[', b + 1)) {
      std::size_t const close = part.find(']', b);
      std::string const index = part.substr(b + 1, close == std::string::npos ? 0 : close - b - 1);
      if (close == std::string::npos || !is_index(index) ||
          (close + 1 < part.size() && part[close + 1] != '[')) {
        throw bad("malformed list index in '" + part + "': write name[0] or name.0");
      }
      steps.push_back({index, true});
    }
    if (steps.empty()) throw bad("empty key in the key path");
    pos = dot + 1;
  }
  return steps;
}

// Sets the node at `written` (a key path) to `value`, creating missing map keys. Returns the
// key path in the form messages use (e.g. stages[1].filter.cutoff), shortened to the first key
// it created, if any: messages about anything below that key name this override.
std::string apply_override(YAML::Node root, std::string const& source, std::string const& written,
                           YAML::Node const& value) {
  std::vector<PathStep> const steps = split_path(source, written);
  std::string canonical;
  std::string created;
  YAML::Node node = root;
  auto bad = [&](std::string const& why) -> ConfigError {
    return ConfigError(source + ": --set " + written + ": " + why);
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    PathStep const& step = steps[i];
    bool const last = i + 1 == steps.size();
    YAML::Node child;
    if (node.IsDefined() && node.IsSequence()) {
      if (!is_index(step.word)) {
        throw bad("'" + canonical + "' is a list: expected an index, got '" + step.word + "'");
      }
      std::size_t const index = std::stoul(step.word);
      if (index >= node.size()) {
        throw bad("index " + step.word + " is out of range: '" + canonical + "' has " +
                  std::to_string(node.size()) + " entries (0.." +
                  std::to_string(static_cast<long long>(node.size()) - 1) + ")");
      }
      canonical += "[" + step.word + "]";
      if (last) {
        node[index] = value;
      } else {
        child = node[index];
      }
    } else if (!node.IsDefined() || node.IsNull() || node.IsMap()) {
      if (step.bracketed) {
        std::string const what = canonical.empty() ? "the top level" : "'" + canonical + "'";
        throw bad(what + " is not a list: [" + step.word + "] cannot index it");
      }
      canonical += (canonical.empty() ? "" : ".") + step.word;
      // Everything below a key the override creates comes from the override.
      if (created.empty() && !std::as_const(node)[step.word].IsDefined()) created = canonical;
      if (last) {
        node[step.word] = value;
      } else {
        child = node[step.word];
      }
    } else {
      throw bad("'" + canonical + "' is the value '" + node.Scalar() +
                "', not a map or a list: it has no key '" + step.word + "'");
    }
    if (!last) node.reset(child);
  }
  return created.empty() ? canonical : created;
}

std::vector<OverrideOrigin> apply_overrides(YAML::Node const& root, std::string const& source,
                                            std::vector<std::string> const& overrides) {
  std::vector<OverrideOrigin> origins;
  for (auto const& text : overrides) {
    std::size_t const eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw ConfigError(source + ": --set '" + text +
                        "': expected key.path=value, e.g. stages.1.filter.cutoff=30");
    }
    std::string const path = text.substr(0, eq);
    std::string const value_text = text.substr(eq + 1);
    YAML::Node value;
    try {
      value = YAML::Load(value_text);
    } catch (YAML::ParserException const& e) {
      throw ConfigError(source + ": --set " + path + ": cannot read the value '" + value_text +
                        "': " + e.msg);
    }
    origins.push_back({apply_override(root, source, path, value), path});
  }
  return origins;
}

bool same_file(std::string const& a, std::string const& b) {
  std::error_code ec;
  auto const pa = std::filesystem::absolute(a, ec).lexically_normal();
  auto const pb = std::filesystem::absolute(b, ec).lexically_normal();
  return ec ? a == b : pa == pb;
}

void check_across_sections(MapReader const& top, PipelineConfig const& config) {
  if (same_file(config.output.path, config.input.path)) {
    YAML::Node const path_node = top.value("output")["path"];
    top.context().fail(path_node.Mark(), "output.path",
                       "'" + config.output.path +
                           "' is also input.path: the output must be another file");
  }
}

// input.overlap against the filters' taps: auto becomes the largest (taps - 1) / 2; a number
// must be at least that when the series is cut into segments, or items would wrap the FIR
// around their ends (a single whole-series item wraps only at the series' ends, the stated edge).
void resolve_overlap(MapReader const& top, PipelineConfig& config) {
  std::int64_t needed = 0;
  int needed_by = -1;
  std::int64_t needed_taps = 0;
  for (auto const& stage : config.stages) {
    auto const* filter = std::get_if<FilterParams>(&stage.params);
    if (filter == nullptr || (filter->taps - 1) / 2 <= needed) continue;
    needed = (filter->taps - 1) / 2;
    needed_by = stage.index;
    needed_taps = filter->taps;
  }
  auto& overlap = config.input.overlap;
  if (overlap == detail::kAutoOverlap) {
    overlap = needed;
    return;
  }
  if (overlap < needed && config.input.segment > 0) {
    YAML::Node const node = top.value("input")["overlap"];
    top.context().fail(node.IsDefined() ? node.Mark() : top.mark_of("input"), "input.overlap",
                       std::to_string(overlap) + " is less than (taps - 1) / 2 = " +
                           std::to_string(needed) + " of stages[" + std::to_string(needed_by) +
                           "].filter.taps " + std::to_string(needed_taps) +
                           ": segments would wrap the filter around their ends; set overlap to " +
                           "at least " + std::to_string(needed) + " or auto");
  }
}

std::string effective_yaml(PipelineConfig const& config) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  detail::emit_input(out, config.input);
  detail::emit_output(out, config.output);
  detail::emit_run(out, config.run);
  out << YAML::Key << "stages" << YAML::Value << YAML::BeginSeq;
  for (auto const& stage : config.stages) detail::emit_stage(out, stage);
  out << YAML::EndSeq << YAML::EndMap;
  TCFFT_EXPECTS(out.good(),
                "the effective configuration could not be written: " + out.GetLastError());
  return std::string(out.c_str()) + "\n";
}

PipelineConfig parse_tree(YAML::Node const& root, std::string const& source,
                          std::vector<std::string> const& overrides) {
  if (!root.IsDefined() || root.IsNull()) {
    throw ConfigError(source + ": the configuration is empty: expected a map with the keys " +
                      detail::join(detail::top_level_keys()));
  }
  if (!root.IsMap()) {
    throw ConfigError(source + ":" + std::to_string(root.Mark().line + 1) +
                      ": expected a map with the keys " + detail::join(detail::top_level_keys()) +
                      " at the top level, got " + detail::describe_node(root));
  }
  Context const ctx(source, apply_overrides(root, source, overrides));
  MapReader const top(ctx, root, root.Mark(), "", detail::top_level_keys());
  PipelineConfig config;
  config.source_file = source;
  config.input = detail::parse_input(top);
  config.output = detail::parse_output(top);
  config.run = detail::parse_run(top);
  config.stages = detail::parse_stages(top, config.input.sample_rate);
  check_across_sections(top, config);
  resolve_overlap(top, config);
  config.effective_yaml = effective_yaml(config);
  return config;
}

}  // namespace

PipelineConfig parse_config(std::string const& yaml_text, std::string const& source_name,
                            std::vector<std::string> const& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (YAML::ParserException const& e) {
    throw ConfigError(source_name + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": malformed YAML: " + e.msg);
  }
  try {
    return parse_tree(root, source_name, overrides);
  } catch (YAML::Exception const& e) {
    // The readers never convert with yaml-cpp's as<>(), so this is a tree yaml-cpp itself
    // could not walk; it is still reported as a configuration error, not a crash.
    throw ConfigError(source_name + ": " + e.what());
  }
}

PipelineConfig load_config(std::string const& path, std::vector<std::string> const& overrides) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw ConfigError(path + ": is a directory, expected a YAML configuration file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ConfigError(path + ": cannot open the configuration file: " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(path + ": cannot read the configuration file");
  return parse_config(text.str(), path, overrides);
}

}  // namespace tcfft::app
