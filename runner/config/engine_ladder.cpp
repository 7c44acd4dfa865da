#include "runner/config/engine_ladder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "engine/base/int_text.h"
#include "runner/config/closest_name.h"
#include "runner/match/time_control.h"

namespace knightly::runner {

namespace {

using Kind = LadderValue::Kind;

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::String:
      return "a string";
    case Kind::Integer:
      return "an integer";
    case Kind::Float:
      return "a float";
    case Kind::Boolean:
      return "a boolean";
  }
  return "nothing";
}

std::unexpected<LadderError> bad(std::size_t index, std::string message) {
  return std::unexpected(LadderError{index, std::move(message)});
}

// Applies value `v` (index `i`) of a limit ladder to `e`; an error message otherwise.
std::expected<void, LadderError> set_limit(EngineConfig& e, const std::string& key,
                                           const LadderValue& v, std::size_t i) {
  if (key == "depth" || key == "nodes") {
    if (v.kind != Kind::Integer)
      return bad(i, "expected an integer " + key + ", got " + kind_name(v.kind));
    const auto n = base::parse_int(key, v.text, 1, key == "depth" ? 1000 : INT64_MAX);
    if (!n) return bad(i, n.error());
    if (key == "depth")
      e.limits.depth = static_cast<int>(*n);
    else
      e.limits.nodes = static_cast<std::uint64_t>(*n);
    return {};
  }
  if (key == "st") {
    if (v.kind != Kind::Integer && v.kind != Kind::Float)
      return bad(i, std::string("expected a number of seconds, got ") + kind_name(v.kind));
    const double s = std::strtod(v.text.c_str(), nullptr);
    if (!(s > 0) || !std::isfinite(s))
      return bad(i, "st must be a positive number of seconds, got " + v.text);
    TimeControl tc;
    tc.movetime_ms = std::max<std::int64_t>(1, std::llround(s * 1000));
    e.limits.tc = tc;
    return {};
  }
  // tc
  if (v.kind != Kind::String)
    return bad(i, std::string("expected a time control string, got ") + kind_name(v.kind));
  auto tc = parse_time_control(v.text);
  if (!tc) return bad(i, "bad time control '" + v.text + "': " + tc.error());
  e.limits.tc = *tc;
  return {};
}

}  // namespace

const std::vector<std::string>& ladder_limit_keys() {
  static const std::vector<std::string> keys = {"depth", "nodes", "st", "tc"};
  return keys;
}

std::expected<std::vector<EngineConfig>, LadderError> expand_ladder(const EngineConfig& base,
                                                                    const EngineLadder& ladder) {
  const std::string& key = ladder.key;
  const bool option = key.starts_with("options.");
  const std::string option_name = option ? key.substr(8) : "";
  const auto& limits = ladder_limit_keys();
  if (!option && std::find(limits.begin(), limits.end(), key) == limits.end()) {
    std::vector<std::string> valid = limits;
    valid.push_back("options.NAME");
    return bad(LadderError::npos, "'" + key + "' is not a ladder key (depth, nodes, st, tc or " +
                                      "options.NAME)" + suggestion_text(key, valid));
  }
  if (option && option_name.empty())
    return bad(LadderError::npos, "'options.' needs an option name: options.NAME");
  if (ladder.values.empty()) return bad(LadderError::npos, "a ladder needs at least one value");

  // The laddered setting is the ladder's alone: a value in the table too would be overridden
  // by every step, which is never what was meant.
  if (option) {
    for (const auto& [name, value] : base.options)
      if (name == option_name)
        return bad(LadderError::npos, "option '" + name + "' is set in options (" + value +
                                          ") and by the ladder; give it in one place");
  } else if ((key == "depth" && base.limits.depth) || (key == "nodes" && base.limits.nodes) ||
             ((key == "st" || key == "tc") && base.limits.tc)) {
    return bad(LadderError::npos, "the engine sets its own " +
                                      std::string(key == "st" || key == "tc" ? "tc or st" : key) +
                                      ", which the ladder steps; give it in one place");
  }

  std::vector<EngineConfig> out;
  for (std::size_t i = 0; i < ladder.values.size(); ++i) {
    const LadderValue& v = ladder.values[i];
    for (std::size_t j = 0; j < i; ++j)
      if (ladder.values[j].text == v.text)
        return bad(i, "value " + v.text + " is given twice (engine names must differ)");
    EngineConfig e = base;
    if (option) {
      e.options.emplace_back(option_name, v.text);
      e.name = base.name + "-" + option_name + "=" + v.text;
    } else {
      if (auto set = set_limit(e, key, v, i); !set) return std::unexpected(set.error());
      e.name = base.name + "-" + key + v.text;
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace knightly::runner
