#include "runner/config/engine_words.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include "engine/base/int_text.h"
#include "runner/config/closest_name.h"
#include "runner/config/config_paths.h"
#include "runner/config/config_validate.h"
#include "runner/config/engine_source.h"
#include "runner/config/match_schema.h"
#include "runner/match/time_control.h"

namespace knightly::runner {

namespace {

// The schema's row of an engine word's key ("option.Hash" -> option.NAME); nullptr for none.
const MatchKey* engine_row(std::string_view key) {
  std::string_view name = key;
  if (key.starts_with("option.")) name = "option.NAME";
  if (key.starts_with("env.")) name = "env.NAME";
  for (const MatchKey* k : keys_by_flag("-engine"))
    if (k->word == name) return k;
  return nullptr;
}

// Every key an engine word may have, for "did you mean".
std::vector<std::string> engine_keys() {
  std::vector<std::string> keys;
  for (auto& w : words_of("-engine")) {
    if (w == "option.NAME") w = "option.";
    if (w == "env.NAME") w = "env.";
    keys.push_back(w);
  }
  return keys;
}

// Words without a value: cutechess's flags.
bool is_bare_flag(std::string_view word) {
  const MatchKey* k = engine_row(word);
  return k && k->type == ValueType::Flag;
}

// Keys of cutechess-cli and fastchess that Knightly does not support, with what to do instead.
std::optional<std::string> unsupported(std::string_view key) {
  const MatchKey* k = engine_row(key);
  if (k && !k->refused.empty()) return std::string(k->refused);
  return std::nullopt;
}

void set_option(EngineConfig& e, const std::string& name, const std::string& value) {
  for (auto& [n, v] : e.options)
    if (n == name) {
      v = value;
      return;
    }
  e.options.emplace_back(name, value);
}

bool is_movetime(const std::optional<TimeControl>& tc) {
  return tc && tc->movetime_ms > 0;
}
bool is_clock(const std::optional<TimeControl>& tc) {
  return tc && !tc->infinite && tc->movetime_ms == 0;
}

}  // namespace

std::expected<std::vector<std::string>, std::string> split_words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) out.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      const auto end = text.find('\'', i + 1);
      if (end == std::string_view::npos)
        return std::unexpected("unterminated ' quote at character " + std::to_string(i + 1));
      word.append(text.substr(i + 1, end - i - 1));
      in_word = true;
      i = end;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '\\' && j + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[j + 1]) != std::string_view::npos)
          ++j;
        word += text[j];
      }
      if (j >= text.size())
        return std::unexpected("unterminated \" quote at character " + std::to_string(i + 1));
      in_word = true;
      i = j;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(std::move(word));
  return out;
}

std::vector<std::string> join_option_names(const std::vector<std::string>& words) {
  std::vector<std::string> out;
  bool open_name = false;  // the last word is "option.X" without its '=' yet
  for (const auto& w : words) {
    if (open_name) {
      out.back() += " " + w;
      open_name = w.find('=') == std::string::npos;
      continue;
    }
    out.push_back(w);
    open_name = w.starts_with("option.") && w.find('=') == std::string::npos;
  }
  return out;
}

std::optional<std::string> apply_engine_word(std::string_view word, EngineConfig& e) {
  if (is_bare_flag(word)) {
    if (auto why = unsupported(word)) return *why;
    if (word == "ponder") e.ponder = true;
    return std::nullopt;
  }
  const auto eq = word.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    if (word.starts_with("option."))
      return "'" + std::string(word) + "': an option needs a value (option.NAME=VALUE)";
    return "expected key=value, got '" + std::string(word) + "'";
  }
  const std::string key(word.substr(0, eq));
  const std::string value(word.substr(eq + 1));
  if (key == "cmd") {
    // cutechess-cli takes cmd= as a command line ("java -jar engine.jar"); fastchess as a
    // path, which may have spaces. A value with a blank that is not a file is a command line.
    std::error_code ec;
    if (value.find_first_of(" \t") != std::string::npos && !std::filesystem::exists(value, ec)) {
      auto split = split_words(value);
      if (!split) return "cmd: " + split.error();
      if (split->empty()) return "cmd: empty";
      e.command = split->front();
      e.args.insert(e.args.begin(), split->begin() + 1, split->end());
    } else {
      e.command = value;
    }
  } else if (key == "name") {
    if (value.empty()) return "name: must not be empty";
    e.name = value;
  } else if (key == "arg") {
    e.args.push_back(value);
  } else if (key == "args") {
    auto split = split_words(value);
    if (!split) return "args: " + split.error();
    e.args.insert(e.args.end(), split->begin(), split->end());
  } else if (key.starts_with("option.") && key.size() > 7) {
    set_option(e, key.substr(7), value);
  } else if (key.starts_with("env.") && key.size() > 4) {
    e.env[key.substr(4)] = value;
  } else if (key == "proto") {
    auto protocol = parse_choice<Protocol>(value);
    if (!protocol)
      return "proto: " + not_a_choice(value, choice_names<Protocol>()) +
             "; give proto=uci or proto=xboard";
    e.protocol = *protocol;
  } else if (key == "dir") {
    e.workdir = value;
  } else if (key == "builtin") {
    if (value.empty()) return "builtin: needs a name (builtin=NAME)";
    e.builtin = true;
    if (e.name.empty()) e.name = value;
  } else if (key == "tc") {
    auto tc = parse_time_control(value);
    if (!tc) return "tc: " + tc.error();
    if (tc->infinite && is_movetime(e.limits.tc)) return std::nullopt;  // st keeps its time
    if (!tc->infinite && tc->movetime_ms == 0 && is_movetime(e.limits.tc))
      return "tc: a clock (tc=" + value + ") and a time per move (st) together; give one";
    e.limits.tc = *tc;
  } else if (key == "st") {
    auto tc = parse_move_time(value);
    if (!tc) return "st: " + tc.error();
    if (is_clock(e.limits.tc))
      return "st: a time per move (st=" + value + ") and a clock (tc) together; give one";
    e.limits.tc = *tc;
  } else if (key == "depth" || key == "plies") {
    auto v = base::parse_int(key, value, 1, 1000);
    if (!v) return v.error();
    e.limits.depth = static_cast<int>(*v);
  } else if (key == "nodes") {
    auto v = base::parse_int(key, value, 1, INT64_MAX);
    if (!v) return v.error();
    e.limits.nodes = static_cast<std::uint64_t>(*v);
  } else if (key == "timemargin") {
    auto v = base::parse_int(key, value, 0, 3'600'000);
    if (!v) return v.error();
    e.limits.time_margin_ms = *v;
  } else if (key == "restart") {
    if (auto v = parse_value(*engine_row(key), value); !v) return "restart: " + v.error();
    // cutechess's auto lets the engine decide; a UCI engine never asks, so auto is off.
    e.restart = value == "on";
  } else if (is_source_key(key)) {
    return apply_source_key(key, value, e);  // repo=, ref=, build=, subdir=, bench=
  } else if (auto why = unsupported(key)) {
    return *why;
  } else {
    return "unknown key '" + key + "'" + suggestion_text(key, engine_keys());
  }
  return std::nullopt;
}

void default_engine_name(EngineConfig& e) {
  if (e.name.empty() && e.source) e.name = source_engine_name(*e.source);
  if (e.name.empty() && !e.command.empty())
    e.name = std::filesystem::path(e.command).filename().string();
}

std::expected<EngineConfig, ConfigError> parse_engine_spec(std::string_view spec) {
  auto fail = [](std::string message) {
    return std::unexpected(ConfigError{"", 0, 0, "SPEC", std::move(message)});
  };
  auto split = split_words(spec);
  if (!split) return fail(split.error());
  if (split->empty()) return fail("empty engine spec");
  const bool any_pair = std::any_of(split->begin(), split->end(), [](const std::string& w) {
    return w.find('=') != std::string::npos;
  });
  EngineConfig e;
  if (!any_pair) {
    // A bare path, with its spaces if it had any ("/opt/my engines/sf").
    std::string path;
    for (const auto& w : *split) path += (path.empty() ? "" : " ") + w;
    e.command = path;
  } else {
    // Rejoin option names and values a space split; a bare flag stays a word of its own.
    std::vector<std::string> words;
    bool open_name = false;
    for (const auto& w : *split) {
      const bool has_eq = w.find('=') != std::string::npos;
      if (open_name) {
        words.back() += " " + w;
        open_name = !has_eq;
      } else if (!has_eq && !is_bare_flag(w) && !w.starts_with("option.")) {
        if (words.empty())
          words.push_back("cmd=" + w);  // "./sf option.Hash=16": the program first
        else
          words.back() += " " + w;  // a value with a space: option.Book=my book.bin
      } else {
        words.push_back(w);
        open_name = !has_eq && w.starts_with("option.");
      }
    }
    for (const auto& w : words)
      if (auto problem = apply_engine_word(w, e)) return fail(*problem);
  }
  default_engine_name(e);
  if (auto problem = check_engine_source(e)) return fail(*problem);
  if (!e.builtin && e.command.empty() && !e.source)
    return fail("needs a path, cmd=PATH, builtin=NAME or repo=... ref=...");
  if (e.builtin && !e.command.empty())
    return fail("give either cmd=PATH or builtin=NAME, not both");
  if (e.builtin)
    for (const auto& [name, value] : e.options)
      if (auto problem = check_builtin_option(name, value)) return fail(*problem);
  resolve_engine_paths(e, "");
  return e;
}

}  // namespace knightly::runner
