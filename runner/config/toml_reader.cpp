#include "runner/config/toml_reader.h"

#include <algorithm>
#include <cmath>

#include "runner/config/closest_name.h"

namespace knightly::runner {

TomlReader::Where TomlReader::where_of(const toml::source_region& region) {
  return {static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

const char* TomlReader::type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    default:
      return "nothing";
  }
}

std::optional<TomlReader::Where> TomlReader::find_recorded(std::string key) const {
  while (true) {
    if (auto it = where_.find(key); it != where_.end()) return it->second;
    const auto cut = key.find_last_of(".[");
    if (cut == std::string::npos || cut == 0) return std::nullopt;
    key = key.substr(0, cut);
  }
}

void TomlReader::fail(Where w, const std::string& key, const std::string& message) const {
  throw Failure{ConfigError{file_, w.line, w.column, key, message}};
}

std::string TomlReader::join(const std::string& prefix, std::string_view key) {
  return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
}

void TomlReader::check_keys(const toml::table& table, const std::string& prefix,
                            const std::vector<std::string>& allowed) {
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      fail(where_of(key.source()), join(prefix, name),
           "unknown key" + suggestion_text(name, allowed));
    where_[join(prefix, name)] = where_of(node.source());
  }
}

const toml::table* TomlReader::table_at(const toml::table& parent, std::string_view key,
                                        const std::string& path) {
  const toml::node* node = parent.get(key);
  if (!node) return nullptr;
  if (!node->is_table())
    fail(where_of(node->source()), path, std::string("expected a table, got ") + type_name(*node));
  where_[path] = where_of(node->source());
  return node->as_table();
}

std::optional<std::string> TomlReader::str(const toml::table& t, std::string_view key,
                                           const std::string& path) {
  const toml::node* node = t.get(key);
  if (!node) return std::nullopt;
  if (!node->is_string())
    fail(where_of(node->source()), path, std::string("expected a string, got ") + type_name(*node));
  return node->as_string()->get();
}

std::optional<std::int64_t> TomlReader::integer(const toml::table& t, std::string_view key,
                                                const std::string& path, std::int64_t min,
                                                std::int64_t max) {
  const toml::node* node = t.get(key);
  if (!node) return std::nullopt;
  if (!node->is_integer())
    fail(where_of(node->source()), path,
         std::string("expected an integer, got ") + type_name(*node));
  const std::int64_t v = node->as_integer()->get();
  if (v < min || v > max)
    fail(where_of(node->source()), path,
         "value " + std::to_string(v) + " is out of range [" + std::to_string(min) + ", " +
             std::to_string(max) + "]");
  return v;
}

std::optional<double> TomlReader::number(const toml::table& t, std::string_view key,
                                         const std::string& path) {
  const toml::node* node = t.get(key);
  if (!node) return std::nullopt;
  if (node->is_integer()) return static_cast<double>(node->as_integer()->get());
  if (!node->is_floating_point() || !std::isfinite(node->as_floating_point()->get()))
    fail(where_of(node->source()), path, std::string("expected a number, got ") + type_name(*node));
  return node->as_floating_point()->get();
}

std::optional<bool> TomlReader::boolean(const toml::table& t, std::string_view key,
                                        const std::string& path) {
  const toml::node* node = t.get(key);
  if (!node) return std::nullopt;
  if (!node->is_boolean())
    fail(where_of(node->source()), path,
         std::string("expected true or false, got ") + type_name(*node));
  return node->as_boolean()->get();
}

// The schema's value of `node` for `key` (runner/config/match_schema.h): the TOML type its
// ValueType takes, then its range or choices.
Value TomlReader::schema_value(const toml::node& node, const MatchKey& key,
                               const std::string& path) {
  const Where w = where_of(node.source());
  auto wrong = [&](const std::string& expected) {
    fail(w, path, "expected " + expected + ", got " + type_name(node));
  };
  Value v;
  switch (key.type) {
    case ValueType::Integer:
      if (!node.is_integer()) wrong("an integer");
      v = node.as_integer()->get();
      break;
    case ValueType::Unsigned:
      if (!node.is_integer() || node.as_integer()->get() < 0) wrong("a non-negative integer");
      v = static_cast<std::uint64_t>(node.as_integer()->get());
      break;
    case ValueType::Number:
      if (node.is_integer())
        v = static_cast<double>(node.as_integer()->get());
      else if (node.is_floating_point() && std::isfinite(node.as_floating_point()->get()))
        v = node.as_floating_point()->get();
      else
        wrong("a number");
      break;
    case ValueType::Boolean:
    case ValueType::Flag:
      if (!node.is_boolean()) wrong("true or false");
      v = node.as_boolean()->get();
      break;
    case ValueType::Choice: {
      if (!node.is_string()) wrong("a string");
      auto parsed = parse_value(key, node.as_string()->get());
      if (!parsed) fail(w, path, parsed.error());
      return *parsed;
    }
    default:
      if (!node.is_string()) wrong("a string");
      v = node.as_string()->get();
  }
  auto checked = check_value(key, std::move(v));
  if (!checked) fail(w, path, checked.error());
  return *checked;
}

void TomlReader::required(const toml::table& table, const std::string& prefix,
                          std::initializer_list<std::string_view> keys) {
  for (auto key : keys)
    if (!table.contains(key))
      fail(where_of(table.source()), join(prefix, key),
           "missing required key '" + std::string(key) + "'");
}

}  // namespace knightly::runner
