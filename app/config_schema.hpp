// SPDX-License-Identifier: MIT
// Private: the schema of the configuration file, one reader and one writer per section. The
// readers check keys, types and ranges of their section; the writers emit every key (defaults
// filled in) in schema order, so that the emitted YAML reads back to the same structs.
#pragma once

#include "config.hpp"
#include "config_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace tcfft::app::detail {

/// input.overlap: auto, until resolved by load_config to the largest (taps - 1) / 2 of the filters.
inline constexpr std::int64_t kAutoOverlap = -1;

/// The top-level keys, in the order they are written.
[[nodiscard]] std::vector<std::string> const& top_level_keys();
/// The stage kinds: fft, ifft, spectrum, welch, filter, sink.
[[nodiscard]] std::vector<std::string> const& stage_kinds();

/// The `input:` section of `top` (required).
[[nodiscard]] SourceParams parse_input(MapReader const& top);
/// The `output:` section of `top` (required).
[[nodiscard]] OutputParams parse_output(MapReader const& top);
/// The `run:` section of `top` (optional: defaults when absent).
[[nodiscard]] RunParams parse_run(MapReader const& top);
/// The `stages:` list of `top`: non-empty, one kind per entry, sink datasets unique and at least
/// one sink. `sample_rate` > 0 (input.sample_rate) enables the Nyquist checks of filter corners.
[[nodiscard]] std::vector<StageConfig> parse_stages(MapReader const& top, double sample_rate);

void emit_input(YAML::Emitter& out, SourceParams const& p);
void emit_output(YAML::Emitter& out, OutputParams const& p);
void emit_run(YAML::Emitter& out, RunParams const& p);
void emit_stage(YAML::Emitter& out, StageConfig const& stage);

/// One stage's options from its map (null for the defaults); in config_stages.cpp.
[[nodiscard]] StageParams parse_stage_params(Context const& ctx, std::string const& kind,
                                             YAML::Node const& options, YAML::Mark const& kind_mark,
                                             std::string const& path, double sample_rate);
/// The options map of one stage; in config_stages.cpp.
void emit_stage_params(YAML::Emitter& out, StageParams const& params);
/// A string value, double-quoted where YAML would otherwise read it as null.
void emit_text(YAML::Emitter& out, std::string const& text);

}  // namespace tcfft::app::detail
