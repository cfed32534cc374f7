// SPDX-License-Identifier: MIT
// The strict YAML map reader and the message helpers of the configuration parser.
#include "config_yaml.hpp"

#include "config.hpp"

#include <tcfft/core/error.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

namespace tcfft::app {

namespace {

std::size_t edit_distance(std::string const& a, std::string const& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t const above = row[j];
      std::size_t const substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_key(std::string const& word, std::vector<std::string> const& candidates) {
  std::size_t const limit = std::max<std::size_t>(2, word.size() / 3);
  std::string best;
  std::size_t best_distance = limit + 1;
  for (auto const& candidate : candidates) {
    std::size_t const d = edit_distance(word, candidate);
    // A candidate that shares no letter with the word (every position edited) is noise.
    if (d < best_distance && d < std::max(word.size(), candidate.size())) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

namespace detail {

namespace {

// Text without a leading '+', which std::from_chars does not take but YAML allows.
std::string_view unsigned_text(std::string const& text) {
  std::string_view view = text;
  if (view.size() > 1 && view.front() == '+' && view[1] != '-') view.remove_prefix(1);
  return view;
}

bool parse_int64(std::string const& text, std::int64_t& value) {
  std::string_view const view = unsigned_text(text);
  auto const* end = view.data() + view.size();
  auto const [ptr, ec] = std::from_chars(view.data(), end, value);
  if (ec == std::errc{} && ptr == end && !view.empty()) return true;
  // Integral numbers written in floating-point form (65536.0, 1e6) are accepted too.
  double d = 0.0;
  if (!parse_number(text, d) || std::trunc(d) != d || std::fabs(d) > 9.0e15) return false;
  value = static_cast<std::int64_t>(d);
  return true;
}

// YAML's spellings of infinity and NaN, which std::from_chars does not read.
bool is_yaml_non_finite(std::string const& text) {
  static std::set<std::string> const words{".inf",  ".Inf",  ".INF",  "+.inf", "+.Inf", "+.INF",
                                           "-.inf", "-.Inf", "-.INF", ".nan",  ".NaN",  ".NAN"};
  return words.count(text) != 0;
}

std::string quoted(std::string const& word) { return "'" + word + "'"; }

}  // namespace

bool parse_number(std::string const& text, double& value) {
  std::string_view const view = unsigned_text(text);
  auto const* end = view.data() + view.size();
  auto const [ptr, ec] = std::from_chars(view.data(), end, value);
  return ec == std::errc{} && ptr == end && !view.empty();
}

OverrideOrigin const* Context::override_of(std::string const& path) const {
  // The last override that wrote this node or one of its parents is where its value came from.
  for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
    std::string const& o = it->canonical_path;
    bool const covers = path.compare(0, o.size(), o) == 0 &&
                        (path.size() == o.size() || path[o.size()] == '.' || path[o.size()] == '[');
    if (covers) return &*it;
  }
  return nullptr;
}

std::string Context::where(YAML::Mark const& mark, std::string const& path) const {
  if (OverrideOrigin const* o = override_of(path)) return source_ + ": --set " + o->written_path;
  if (mark.line >= 0) return source_ + ":" + std::to_string(mark.line + 1);
  return source_;
}

void Context::fail(YAML::Mark const& mark, std::string const& path,
                   std::string const& problem) const {
  std::string message = where(mark, path) + ": ";
  if (!path.empty()) message += path + ": ";
  throw ConfigError(message + problem);
}

bool Range::contains(double v) const {
  bool const above_lo = lo_open ? v > lo : v >= lo;
  bool const below_hi = hi_open ? v < hi : v <= hi;
  return above_lo && below_hi;
}

std::string Range::describe() const {
  bool const has_lo = std::isfinite(lo);
  bool const has_hi = std::isfinite(hi);
  if (has_lo && has_hi) {
    return std::string("in ") + (lo_open ? "(" : "[") + format_double(lo) + ", " +
           format_double(hi) + (hi_open ? ")" : "]");
  }
  if (has_lo) return (lo_open ? "> " : ">= ") + format_double(lo);
  if (has_hi) return (hi_open ? "< " : "<= ") + format_double(hi);
  return "any finite number";
}

std::string IntRange::describe() const {
  bool const has_lo = lo != std::numeric_limits<std::int64_t>::min();
  bool const has_hi = hi != std::numeric_limits<std::int64_t>::max();
  if (has_lo && has_hi) return std::to_string(lo) + ".." + std::to_string(hi);
  if (has_lo) return ">= " + std::to_string(lo);
  if (has_hi) return "<= " + std::to_string(hi);
  return "any integer";
}

std::string describe_node(YAML::Node const& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return quoted(node.Scalar());
}

std::string format_double(double value) {
  char buffer[64];
  auto const [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc{} ? std::string(buffer, ptr) : std::to_string(value);
}

std::string join(std::vector<std::string> const& words) {
  std::string out;
  for (auto const& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

std::string unknown_word_problem(std::string const& what, std::string const& word,
                                 std::vector<std::string> const& valid,
                                 std::string const& valid_name) {
  std::string const close = closest_key(word, valid);
  std::string problem = "unknown " + what + " " + quoted(word) + "; ";
  if (!close.empty()) return problem + "did you mean " + quoted(close) + "?";
  return problem + valid_name + ": " + join(valid);
}

MapReader::MapReader(Context const& ctx, YAML::Node const& node, YAML::Mark const& key_mark,
                     std::string path, std::vector<std::string> keys)
    : ctx_(ctx), mark_(key_mark), path_(std::move(path)) {
  if (!node.IsDefined() || node.IsNull()) return;
  if (!node.IsMap()) ctx_.fail(node.Mark(), path_, "expected a map, got " + describe_node(node));
  if (node.Mark().line >= 0) mark_ = node.Mark();
  for (auto const& pair : node) {
    YAML::Node const& key = pair.first;
    if (!key.IsScalar()) {
      ctx_.fail(key.Mark(), path_, "expected a plain word as key, got " + describe_node(key));
    }
    std::string const name = key.Scalar();
    if (Entry const* first = find(name)) {
      ctx_.fail(
          key.Mark(), path_of(name),
          "key repeated (first given at line " + std::to_string(first->key_mark.line + 1) + ")");
    }
    if (std::find(keys.begin(), keys.end(), name) == keys.end()) {
      ctx_.fail(key.Mark(), path_of(name), unknown_word_problem("key", name, keys, "valid keys"));
    }
    entries_.push_back(Entry{name, key.Mark(), pair.second});
  }
}

MapReader::Entry const* MapReader::find(std::string const& key) const {
  for (auto const& e : entries_) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

bool MapReader::has(std::string const& key) const { return find(key) != nullptr; }

std::string MapReader::path_of(std::string const& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

YAML::Node MapReader::value(std::string const& key) const {
  Entry const* e = find(key);
  return e ? e->value : YAML::Node(YAML::NodeType::Undefined);
}

YAML::Mark MapReader::mark_of(std::string const& key) const {
  Entry const* e = find(key);
  if (!e) return mark_;
  // A null value's mark points past the key (often at the next line): use the key's.
  bool const usable = e->value.IsDefined() && !e->value.IsNull() && e->value.Mark().line >= 0;
  return usable ? e->value.Mark() : e->key_mark;
}

void MapReader::fail(std::string const& key, std::string const& problem) const {
  ctx_.fail(mark_of(key), path_of(key), problem);
}

void MapReader::require(std::string const& key, std::string const& hint) const {
  if (!has(key)) fail(key, "required key is missing" + (hint.empty() ? "" : " (" + hint + ")"));
}

void MapReader::forbid(std::string const& key, std::string const& reason) const {
  if (has(key)) fail(key, "has no effect " + reason);
}

std::string MapReader::scalar(std::string const& key, std::string const& expected) const {
  YAML::Node const node = value(key);
  if (!node.IsScalar()) fail(key, "expected " + expected + ", got " + describe_node(node));
  return node.Scalar();
}

std::string MapReader::text(std::string const& key, std::string const& fallback) const {
  if (!has(key)) return fallback;
  std::string s = scalar(key, "a string");
  if (s.empty()) fail(key, "expected a non-empty string, got ''");
  return s;
}

std::string MapReader::word(std::string const& key, std::string const& fallback,
                            std::vector<std::string> const& allowed) const {
  if (!has(key)) return fallback;
  std::string s = scalar(key, "one of " + join(allowed));
  if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return s;
  std::string problem = quoted(s) + " is not one of " + join(allowed);
  std::string const close = closest_key(s, allowed);
  if (!close.empty()) problem += "; did you mean " + quoted(close) + "?";
  fail(key, problem);
}

double MapReader::number(std::string const& key, double fallback, Range range) const {
  if (!has(key)) return fallback;
  std::string const s = scalar(key, "a number");
  double v = 0.0;
  if (!parse_number(s, v)) {
    fail(key, std::string(is_yaml_non_finite(s) ? "expected a finite" : "expected a") +
                  " number, got " + quoted(s));
  }
  if (!std::isfinite(v)) fail(key, "expected a finite number, got " + quoted(s));
  if (!range.contains(v)) fail(key, s + " is out of range: must be " + range.describe());
  return v;
}

std::int64_t MapReader::integer(std::string const& key, std::int64_t fallback,
                                IntRange range) const {
  if (!has(key)) return fallback;
  std::string const s = scalar(key, "an integer");
  std::int64_t v = 0;
  if (!parse_int64(s, v)) fail(key, "expected an integer, got " + quoted(s));
  if (!range.contains(v)) fail(key, s + " is out of range: must be " + range.describe());
  return v;
}

bool MapReader::flag(std::string const& key, bool fallback) const {
  if (!has(key)) return fallback;
  std::string const s = scalar(key, "true or false");
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  fail(key, "expected true or false, got " + quoted(s));
}

}  // namespace detail
}  // namespace tcfft::app
