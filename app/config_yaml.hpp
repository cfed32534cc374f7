// SPDX-License-Identifier: MIT
// Private helpers of the configuration parser: where a node came from (file line or --set),
// and a strict reader for one YAML map that rejects unknown and repeated keys and converts
// scalars to typed values with messages naming the file, line, key path and value.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace tcfft::app::detail {

/// One --set override: its key path in canonical form (`stages[1].filter.cutoff`) and as the
/// user wrote it (`stages.1.filter.cutoff`).
struct OverrideOrigin {
  std::string canonical_path;
  std::string written_path;
};

/// The origin of every node of the tree: the configuration file, except for the subtrees
/// replaced or created by overrides.
class Context {
 public:
  Context(std::string source, std::vector<OverrideOrigin> overrides)
      : source_(std::move(source)), overrides_(std::move(overrides)) {}

  [[nodiscard]] std::string const& source() const noexcept { return source_; }

  /// The --set path that wrote the node at `path` or one of its parents; null when none did.
  [[nodiscard]] OverrideOrigin const* override_of(std::string const& path) const;

  /// "file:line" for a node of the file, "file: --set a.b" for a node an override wrote.
  [[nodiscard]] std::string where(YAML::Mark const& mark, std::string const& path) const;

  /// Throws ConfigError "<where>: <path>: <problem>".
  [[noreturn]] void fail(YAML::Mark const& mark, std::string const& path,
                         std::string const& problem) const;

 private:
  std::string source_;
  std::vector<OverrideOrigin> overrides_;
};

/// An allowed interval for a number, with its description for messages.
struct Range {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;

  [[nodiscard]] static Range any() { return {}; }
  [[nodiscard]] static Range at_least(double v) { return {v, Range{}.hi, false, false}; }
  [[nodiscard]] static Range above(double v) { return {v, Range{}.hi, true, false}; }
  [[nodiscard]] static Range closed(double a, double b) { return {a, b, false, false}; }
  [[nodiscard]] static Range left_open(double a, double b) { return {a, b, true, false}; }
  [[nodiscard]] bool contains(double v) const;
  [[nodiscard]] std::string describe() const;
};

/// A closed interval of integers.
struct IntRange {
  std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  std::int64_t hi = std::numeric_limits<std::int64_t>::max();

  [[nodiscard]] bool contains(std::int64_t v) const { return v >= lo && v <= hi; }
  [[nodiscard]] std::string describe() const;
};

/// "'abc'", "a map", "a list" or "nothing": how a node is named in "expected ..., got ...".
[[nodiscard]] std::string describe_node(YAML::Node const& node);
/// Parses a whole decimal number (a leading '+' allowed); false when `text` is anything else.
[[nodiscard]] bool parse_number(std::string const& text, double& value);
/// Shortest text that reads back as the same double.
[[nodiscard]] std::string format_double(double value);
/// `words` joined as "a, b, c".
[[nodiscard]] std::string join(std::vector<std::string> const& words);
/// "unknown key 'x'; did you mean 'y'?" or "unknown key 'x'; valid keys: a, b".
[[nodiscard]] std::string unknown_word_problem(std::string const& what, std::string const& word,
                                               std::vector<std::string> const& valid,
                                               std::string const& valid_name);

/// Reads one YAML map strictly. Construction checks that the node is a map (null counts as an
/// empty map) whose keys are all in `keys`, none repeated; the typed getters then return the
/// value of a key or its default when the key is absent.
class MapReader {
 public:
  MapReader(Context const& ctx, YAML::Node const& node, YAML::Mark const& key_mark,
            std::string path, std::vector<std::string> keys);

  [[nodiscard]] Context const& context() const noexcept { return ctx_; }
  [[nodiscard]] std::string const& path() const noexcept { return path_; }
  [[nodiscard]] bool has(std::string const& key) const;
  /// The key path of `key`, e.g. "stages[1].filter.cutoff".
  [[nodiscard]] std::string path_of(std::string const& key) const;
  /// The value of `key` (an undefined node when absent).
  [[nodiscard]] YAML::Node value(std::string const& key) const;
  /// The line of the value of `key`; of the map itself when `key` is absent.
  [[nodiscard]] YAML::Mark mark_of(std::string const& key) const;

  [[noreturn]] void fail(std::string const& key, std::string const& problem) const;
  /// Fails with "missing required key" (at the line of this map) when `key` is absent.
  void require(std::string const& key, std::string const& hint = "") const;
  /// Fails when `key` is present: it has no meaning here, and `reason` says why.
  void forbid(std::string const& key, std::string const& reason) const;

  [[nodiscard]] std::string text(std::string const& key, std::string const& fallback) const;
  [[nodiscard]] std::string word(std::string const& key, std::string const& fallback,
                                 std::vector<std::string> const& allowed) const;
  [[nodiscard]] double number(std::string const& key, double fallback, Range range) const;
  [[nodiscard]] std::int64_t integer(std::string const& key, std::int64_t fallback,
                                     IntRange range) const;
  [[nodiscard]] bool flag(std::string const& key, bool fallback) const;

 private:
  struct Entry {
    std::string key;
    YAML::Mark key_mark;
    YAML::Node value;
  };
  [[nodiscard]] Entry const* find(std::string const& key) const;
  [[nodiscard]] std::string scalar(std::string const& key, std::string const& expected) const;

  Context const& ctx_;
  YAML::Mark mark_;
  std::string path_;
  std::vector<Entry> entries_;
};

}  // namespace tcfft::app::detail
