#include "runner/config/match_schema.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "engine/base/int_text.h"
#include "runner/config/match_schema_rows.h"

namespace knightly::runner {
using namespace schema_rows;

namespace {

// Every row, in the order of docs/cli.md: the parts one after the other.
const std::vector<MatchKey>& all_rows() {
  static const std::vector<MatchKey> rows = [] {
    std::vector<MatchKey> out;
    for (auto part : {engine_rows(), game_rows(), sprt_tune_rows(), output_rows()})
      out.insert(out.end(), part.begin(), part.end());
    return out;
  }();
  return rows;
}

}  // namespace

// The shortest text that reads back as `v`, as a TOML float.
std::string schema_rows::toml_number(double v) {
  char buf[64];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // a TOML float
  return s;
}

std::span<const MatchKey> match_schema() {
  return all_rows();
}

const MatchKey* key_by_toml(std::string_view toml) {
  for (const auto& k : all_rows())
    if (k.toml == toml) return &k;
  return nullptr;
}

std::vector<const MatchKey*> keys_by_flag(std::string_view flag) {
  std::vector<const MatchKey*> out;
  for (const auto& k : all_rows())
    if (!flag.empty() && k.flag == flag) out.push_back(&k);
  return out;
}

const MatchKey* key_by_knightly(std::string_view flag, Command command) {
  for (const auto& k : all_rows())
    if (!flag.empty() && k.knightly == flag && (k.commands & command)) return &k;
  return nullptr;
}

std::vector<std::string> toml_keys_of(std::string_view table) {
  std::vector<std::string> out;
  for (const auto& k : all_rows()) {
    if (!k.toml.starts_with(table) || k.toml.size() <= table.size() || k.toml[table.size()] != '.')
      continue;
    std::string rest(k.toml.substr(table.size() + 1));
    rest = rest.substr(0, rest.find('.'));
    if (std::find(out.begin(), out.end(), rest) == out.end()) out.push_back(rest);
  }
  return out;
}

std::vector<std::string> words_of(std::string_view flag) {
  std::vector<std::string> out;
  for (const auto* k : keys_by_flag(flag))
    if (!k->word.empty() && std::find(out.begin(), out.end(), k->word) == out.end())
      out.emplace_back(k->word);
  return out;
}

std::vector<std::string> all_flags() {
  std::vector<std::string> out;
  auto add = [&](std::string_view f) {
    if (!f.empty() && std::find(out.begin(), out.end(), f) == out.end()) out.emplace_back(f);
  };
  for (const auto& k : all_rows()) {
    add(k.flag);
    if (k.commands & CommandPlay) add(k.knightly);
  }
  return out;
}

std::string expected_text(const MatchKey& k) {
  switch (k.type) {
    case T::Integer:
      if (k.max == kIntMax || k.max == std::numeric_limits<std::int64_t>::max())
        return "an integer >= " + std::to_string(k.min);
      return "an integer in [" + std::to_string(k.min) + ", " + std::to_string(k.max) + "]";
    case T::Unsigned:
      return "an integer in [0, 18446744073709551615]";
    case T::Number:
      if (k.max <= k.min) return "a number";
      if (k.max == std::numeric_limits<std::int64_t>::max())
        return "a number >= " + std::to_string(k.min);
      return "a number in [" + std::to_string(k.min) + ", " + std::to_string(k.max) + "]";
    case T::Boolean:
    case T::Flag:
      return "true or false";
    case T::Choice: {
      const auto& names = k.choices();
      std::string list;
      for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
      return list;
    }
    default:
      return "text";
  }
}

std::expected<Value, std::string> check_value(const MatchKey& k, Value v) {
  if (k.type == T::Integer) {
    const auto i = std::get<std::int64_t>(v);
    if (i < k.min || i > k.max)
      return std::unexpected("value " + std::to_string(i) + " is out of range [" +
                             std::to_string(k.min) + ", " + std::to_string(k.max) + "]");
  }
  if (k.type == T::Number) {
    const double d = std::get<double>(v);
    if (!std::isfinite(d)) return std::unexpected("expected a finite number");
    if (k.max > k.min && (d < double(k.min) || d > double(k.max)))
      return std::unexpected("value " + toml_number(d) + " is not " + expected_text(k));
  }
  return v;
}

std::expected<Value, std::string> parse_value(const MatchKey& k, std::string_view text) {
  const std::string t(text);
  switch (k.type) {
    case T::Integer: {
      auto v = base::parse_int("", t, k.min, k.max);
      if (!v) return std::unexpected(v.error());
      return *v;
    }
    case T::Unsigned: {
      std::uint64_t v = 0;
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || ec != std::errc() || p != t.data() + t.size())
        return std::unexpected("'" + t + "' is not " + expected_text(k));
      return v;
    }
    case T::Number: {
      double v = 0;
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.empty() || ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v))
        return std::unexpected("'" + t + "' is not a number");
      return check_value(k, v);
    }
    case T::Boolean:
    case T::Flag:
      if (t == "true") return true;
      if (t == "false") return false;
      return std::unexpected("expected true or false, got '" + t + "'");
    case T::Choice: {
      const auto& names = k.choices();
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == t) return static_cast<std::int64_t>(i);
      return std::unexpected(not_a_choice(t, names));
    }
    default:
      return t;
  }
}

}  // namespace knightly::runner
