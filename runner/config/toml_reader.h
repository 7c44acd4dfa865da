#pragma once
// Typed values read from a TOML document, each one located. The reader records where every
// key was written (file:line:column by its path, "engine[2].options.Hash"), and a value of the
// wrong type, out of range or not a choice of its schema row throws a Failure naming where
// and the key; config_toml.cpp reads a config's tables through it and turns the Failure into
// a value at its one boundary, parse_config_toml.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/config_error.h"
#include "runner/config/match_schema.h"
#include "runner/config/toml_library.h"

namespace knightly::runner {

class TomlReader {
 public:
  // Thrown by the reader only, and caught where the parse ends.
  struct Failure {
    ConfigError error;
  };
  struct Where {
    int line = 0;
    int column = 0;
  };

  explicit TomlReader(std::string file) : file_(std::move(file)) {}

 protected:
  static Where where_of(const toml::source_region& region);
  // "an integer", "a table"...: what a node is, for messages.
  static const char* type_name(const toml::node& node);
  // "tournament" + "concurrency" -> "tournament.concurrency".
  static std::string join(const std::string& prefix, std::string_view key);

  [[noreturn]] void fail(Where w, const std::string& key, const std::string& message) const;
  // Where `key` or the nearest table holding it was written.
  std::optional<Where> find_recorded(std::string key) const;

  // Fails on a key not in `allowed` (naming the closest one), and records where each is.
  void check_keys(const toml::table& table, const std::string& prefix,
                  const std::vector<std::string>& allowed);
  const toml::table* table_at(const toml::table& parent, std::string_view key,
                              const std::string& path);
  std::optional<std::string> str(const toml::table& t, std::string_view key,
                                 const std::string& path);
  std::optional<std::int64_t> integer(const toml::table& t, std::string_view key,
                                      const std::string& path, std::int64_t min,
                                      std::int64_t max = INT32_MAX);
  std::optional<double> number(const toml::table& t, std::string_view key, const std::string& path);
  std::optional<bool> boolean(const toml::table& t, std::string_view key, const std::string& path);
  // The schema's value of `node` for `key` (runner/config/match_schema.h): the TOML type its
  // ValueType takes, then its range or choices.
  Value schema_value(const toml::node& node, const MatchKey& key, const std::string& path);

  void required(const toml::table& table, const std::string& prefix,
                std::initializer_list<std::string_view> keys);
  template <typename T>
  T required(std::optional<T> value, const toml::table& table, const std::string& prefix,
             const std::string& key) {
    if (!value)
      fail(where_of(table.source()), join(prefix, key), "missing required key '" + key + "'");
    return *value;
  }

  std::string file_;
  std::map<std::string, Where> where_;  // where each key path was written
};

}  // namespace knightly::runner
