// SPDX-License-Identifier: MIT
// The YAML configuration, parsed once into typed structs and validated strictly: unknown keys
// are errors (with the closest valid key suggested), types and ranges are checked, and every
// message carries the file, line and key path, e.g.
//   config.yaml:12: stages[1].filter.cutoff: expected a number, got "high"
#pragma once

#include <tcfft/stages/params.hpp>

#include <string>
#include <vector>

namespace tcfft::app {

struct RunParams {
  Device device = Device::kAuto;   ///< auto | cpu | gpu (the CLI's --device overrides it)
  std::string backend = "auto";    ///< auto | tensor-core | cufft
  std::string precision = "fp32";  ///< fp16 | fp32
  int slots = 3;                   ///< GPU streaming: frames in flight (1..16)
  bool fuse = true;                ///< GPU streaming: filters fused into Tensor Core transforms
  bool real_transforms = true;     ///< GPU streaming: real input through R2C / C2R
};

struct PipelineConfig {
  std::string source_file;           ///< the YAML file path, for messages
  SourceParams input;
  OutputParams output;
  RunParams run;
  std::vector<StageConfig> stages;
  std::string effective_yaml;        ///< every key with defaults filled in (logged, stored)
};

/// Parses `path` applying `overrides` ("key.path=value", as from --set, applied to the YAML
/// tree before validation, so they are checked like the file). Throws ConfigError.
[[nodiscard]] PipelineConfig load_config(std::string const& path,
                                         std::vector<std::string> const& overrides = {});
/// The same from YAML text (`source_name` is used in messages).
[[nodiscard]] PipelineConfig parse_config(std::string const& yaml_text,
                                          std::string const& source_name,
                                          std::vector<std::string> const& overrides = {});

/// The closest of `candidates` to `word` by edit distance, or "" when nothing is close.
[[nodiscard]] std::string closest_key(std::string const& word,
                                      std::vector<std::string> const& candidates);

}  // namespace tcfft::app
