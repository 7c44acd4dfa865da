#pragma once
// The match schema's rows, one file per part of a match (match_schema_engines.cpp, _games,
// _sprt_tune, _output), and what they are written with: the typed getters of a parsed Value,
// the choices that are lists of words, and the anchors' spellings. Only those files and
// match_schema.cpp include this; match_schema() gives the rows in docs/cli.md's order.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/match_schema.h"
#include "runner/match/game_pgn.h"
#include "runner/match/time_control.h"

namespace knightly::runner::schema_rows {

// Each part's rows, in the order docs/cli.md lists them.
std::span<const MatchKey> engine_rows();     // engines, and engines built from source
std::span<const MatchKey> game_rows();       // the schedule, openings, adjudication
std::span<const MatchKey> sprt_tune_rows();  // the SPRT, a tune
std::span<const MatchKey> output_rows();     // output, the tools' other options, the worker

// The shortest text that reads back as `v`, as a TOML float (1.0, 0.05, 1e+300).
std::string toml_number(double v);

inline constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();
inline constexpr std::int64_t kHour = 3'600'000;
inline constexpr unsigned kAll = CommandRun | CommandPlay | CommandSprt;

inline std::int64_t I(const Value& v) {
  return std::get<std::int64_t>(v);
}
inline int N(const Value& v) {
  return static_cast<int>(std::get<std::int64_t>(v));
}
inline bool B(const Value& v) {
  return std::get<bool>(v);
}
inline double D(const Value& v) {
  return std::get<double>(v);
}
inline const std::string& S(const Value& v) {
  return std::get<std::string>(v);
}
template <typename E>
E C(const Value& v) {
  return static_cast<E>(std::get<std::int64_t>(v));
}

inline const std::vector<std::string>& notation_names() {
  static const std::vector<std::string> names = {notation_name(PgnNotation::San),
                                                 notation_name(PgnNotation::Lan),
                                                 notation_name(PgnNotation::Uci)};
  return names;
}
inline const std::vector<std::string>& policies() {
  static const std::vector<std::string> names = {"default", "round"};
  return names;
}
inline const std::vector<std::string>& book_modes() {
  static const std::vector<std::string> names = {"ram", "disk"};
  return names;
}
inline const std::vector<std::string>& log_levels() {
  static const std::vector<std::string> names = {"trace", "info", "warn", "err", "fatal"};
  return names;
}
inline const std::vector<std::string>& on_stop_words() {
  static const std::vector<std::string> names = {"finish", "abandon"};
  return names;
}
inline const std::vector<std::string>& param_types() {
  static const std::vector<std::string> names = {"int", "float"};
  return names;
}
inline const std::vector<std::string>& restart_words() {
  static const std::vector<std::string> names = {"on", "off", "auto"};
  return names;
}

using T = ValueType;
using S_ = Support;
inline constexpr AnchorSpelling same{S_::Same, ""};
inline constexpr AnchorSpelling absent{S_::Absent, ""};
constexpr AnchorSpelling differs(std::string_view note) {
  return {S_::Differs, note};
}
constexpr AnchorSpelling same_as(std::string_view note) {
  return {S_::Same, note};
}
constexpr AnchorSpelling absent_but(std::string_view note) {
  return {S_::Absent, note};
}

}  // namespace knightly::runner::schema_rows
