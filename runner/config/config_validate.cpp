#include "runner/config/config_validate.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <regex>
#include <string_view>
#include <unordered_map>

#include "engine/base/ascii.h"
#include "engine/search/search.h"
#include "engine/uci/options.h"
#include "runner/config/closest_name.h"
#include "runner/config/engine_source.h"
#include "runner/config/variant.h"
#include "runner/match/time_control.h"

namespace knightly::runner {

namespace {

std::string engine_key(std::size_t i) {
  return "engine[" + std::to_string(i + 1) + "]";
}

// A name is shown on one line in tables, progress lines and PGN tags, and the PGN tag must
// read back as the name the database holds: no control characters (a newline, a tab...).
std::optional<std::string> control_character_in(const std::string& what, const std::string& name) {
  auto bad = std::find_if(name.begin(), name.end(),
                          [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
  if (bad == name.end()) return std::nullopt;
  std::string shown;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", u);
    shown += (u < 0x20 || u == 0x7F) ? std::string(buf) : std::string(1, c);
  }
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned char>(*bad));
  return what + " \"" + shown + "\" holds a control character (byte " + byte +
         "): names are shown on one line in tables and PGN tags";
}

}  // namespace

const std::vector<std::string>& builtin_option_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& spec : engine::option_specs())
      if (spec.type != engine::OptionType::Button) out.push_back(spec.name);
    return out;
  }();
  return names;
}

// The engine's own option table decides (engine::apply_option, as the builtin player applies
// them); this adds the closest valid name or value to its message.
std::optional<std::string> check_builtin_option(const std::string& name, const std::string& value) {
  search::SearchConfig scratch;
  const auto applied = engine::apply_option(scratch, name, value);
  if (applied) return std::nullopt;
  const engine::OptionSpec* spec = nullptr;
  for (const auto& s : engine::option_specs())
    if (base::lower(s.name) == base::lower(name) && s.type != engine::OptionType::Button) spec = &s;
  if (!spec)
    return "unknown builtin option '" + name + "'" + suggestion_text(name, builtin_option_names());
  std::string message = applied.error();
  if (spec->type == engine::OptionType::Combo) {
    if (auto best = closest_name(value, spec->values)) message += "; did you mean '" + *best + "'?";
  } else if (base::lower(spec->name) == "eval") {
    static const std::vector<std::string> terms = {"material", "pst", "tension", "mobility",
                                                   "random"};
    std::size_t start = 0;
    while (start <= value.size()) {
      auto plus = value.find('+', start);
      if (plus == std::string::npos) plus = value.size();
      const std::string term = base::lower(value.substr(start, plus - start));
      if (std::find(terms.begin(), terms.end(), term) == terms.end())
        if (auto best = closest_name(term, terms)) {
          message += "; did you mean '" + *best + "'?";
          break;
        }
      start = plus + 1;
    }
  }
  return message;
}

std::optional<ConfigError> validate_config(const Config& config) {
  const auto& t = config.tournament;
  const auto& engines = config.engines;
  if (t.rounds < 1) return key_error("tournament.rounds", "rounds must be at least 1");
  if (t.games_per_encounter < 1) return key_error("tournament.games", "games must be at least 1");
  if (t.concurrency < 1)
    return key_error("tournament.concurrency", "concurrency must be at least 1");
  if (auto problem = control_character_in("tournament name", t.name))
    return key_error("tournament.name", *problem);

  std::unordered_map<std::string_view, std::size_t> seen;  // engine names, to their first index
  for (std::size_t i = 0; i < engines.size(); ++i) {
    const auto& e = engines[i];
    const std::string key = engine_key(i);
    if (e.name.empty())
      return key_error(key + ".name", "missing name: every engine needs a unique name");
    if (auto problem = control_character_in("engine name", e.name))
      return key_error(key + ".name", *problem);
    if (auto problem = check_engine_source(e)) return key_error(key + ".repo", *problem);
    if (!e.builtin && e.command.empty() && !e.source)
      return key_error(key, "engine '" + e.name +
                                "' has neither 'command' (a UCI program), 'builtin = true' nor "
                                "'repo' and 'ref' (its source)");
    if (e.builtin && !e.command.empty())
      return key_error(key + ".command",
                       "engine '" + e.name + "' has both 'command' and 'builtin = true'");
    if (e.builtin && e.protocol != Protocol::Uci)
      return key_error(key + ".proto", "engine '" + e.name + "' is builtin: it has no protocol '" +
                                           choice_name(e.protocol) + "'");
    if (e.builtin && e.ponder)
      return key_error(key + ".ponder", "engine '" + e.name +
                                            "' is builtin: it searches on its game's thread and "
                                            "cannot ponder");
    if (e.protocol == Protocol::Xboard) {
      // What CECP can say: whole seconds per move (st), no node limit.
      const auto& tc = e.limits.tc ? e.limits.tc : t.defaults.tc;
      if (tc && tc->movetime_ms > 0 && tc->movetime_ms % 1000 != 0)
        return key_error(key + ".st", "engine '" + e.name +
                                          "' speaks xboard, whose st takes whole " +
                                          "seconds; st = " + format_seconds(tc->movetime_ms) +
                                          " cannot be sent");
      if (e.limits.nodes || t.defaults.nodes)
        return key_error(key + ".nodes",
                         "engine '" + e.name +
                             "' speaks xboard, which has no node limit; give it tc, "
                             "st or depth");
    }
    if (const auto [first, fresh] = seen.try_emplace(e.name, i); !fresh)
      return key_error(key + ".name", "duplicate engine name '" + e.name + "' (also " +
                                          engine_key(first->second) + ")");
    if (e.builtin)
      for (const auto& [name, value] : e.options)
        if (auto problem = check_builtin_option(name, value))
          return key_error(key + ".options." + name, *problem);
    const bool limited = e.limits.tc || e.limits.depth || e.limits.nodes || t.defaults.tc ||
                         t.defaults.depth || t.defaults.nodes;
    // A builtin configuration has its own default depth; a UCI engine told nothing would think
    // forever.
    if (!limited && !e.builtin)
      return key_error(key,
                       "engine '" + e.name +
                           "' has no limit: set tc, st, depth or nodes for it or in [tournament]");
  }
  if (engines.size() < 2)
    return key_error("engine",
                     "at least 2 engines are needed, found " + std::to_string(engines.size()));
  if (t.format == TournamentFormat::Gauntlet &&
      (t.seeds < 1 || static_cast<std::size_t>(t.seeds) >= engines.size()))
    return key_error("tournament.seeds", "a gauntlet needs 1 <= seeds < engines (" +
                                             std::to_string(engines.size()) +
                                             " engines, seeds = " + std::to_string(t.seeds) + ")");

  const auto& o = config.openings;
  if (o.start < 1) return key_error("openings.start", "start is 1-based and must be at least 1");
  if (o.plies < 0) return key_error("openings.plies", "plies must not be negative");
  if (o.random_plies < 0)
    return key_error("openings.random_plies", "random_plies must not be negative");
  if (o.dfrc && !is_chess960(t))
    return key_error("openings.dfrc",
                     "dfrc (Double Fischer Random) needs the fischerandom variant");
  if (o.dfrc && !o.file.empty())
    return key_error("openings.dfrc",
                     "dfrc draws its own start positions; it takes no opening file '" + o.file +
                         "' (a DFRC book is given as the file alone)");

  const auto& adj = t.adjudication;
  if (adj.draw.enabled &&
      (adj.draw.move_count < 1 || adj.draw.score_cp < 0 || adj.draw.move_number < 0))
    return key_error("adjudication.draw",
                     "draw adjudication needs movecount >= 1, score >= 0, movenumber >= 0");
  if (adj.resign.enabled && (adj.resign.move_count < 1 || adj.resign.score_cp < 1))
    return key_error("adjudication.resign",
                     "resign adjudication needs movecount >= 1 and score >= 1");
  if (adj.max_moves < 0) return key_error("adjudication.maxmoves", "maxmoves must not be negative");
  if (adj.tablebase.enabled && adj.tablebase.path.empty())
    return key_error("adjudication.tablebase", "tablebase adjudication needs the tables' path");
  if (adj.tablebase.enabled && !adj.tablebase.win_loss && !adj.tablebase.draw)
    return key_error("adjudication.tablebase", "tablebase adjudication adjudicates nothing");

  const auto& s = config.sprt;
  if (s.enabled) {
    if (engines.size() != 2)
      return key_error("sprt",
                       "an SPRT needs exactly 2 engines, found " + std::to_string(engines.size()));
    if (!(s.elo0 < s.elo1)) return key_error("sprt.elo1", "elo1 must be greater than elo0");
    if (!(s.alpha > 0 && s.alpha < 1)) return key_error("sprt.alpha", "alpha must be in (0, 1)");
    if (!(s.beta > 0 && s.beta < 1)) return key_error("sprt.beta", "beta must be in (0, 1)");
  }
  if (config.output.database.empty()) return key_error("output.database", "database path is empty");
  if (const auto& line = config.output.pgn_options.match_line; !line.empty()) {
    try {
      std::regex check(line, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return key_error("output.pgn_match_line",
                       "'" + line + "' is not a regular expression (ECMAScript): " + e.what());
    }
  }
  return std::nullopt;
}

}  // namespace knightly::runner
