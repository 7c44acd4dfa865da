#include "runner/query/engine_identity.h"

#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "runner/config/config_toml.h"
#include "runner/config/engine_words.h"
#include "runner/config/play_flags.h"
#include "runner/match/time_control.h"

namespace knightly::runner {
namespace {

// What a stored tournament says about its engines' limits: by engine name, or for every
// engine ("*": `knightly sprt` gives both the same). Empty when the text says nothing.
std::map<std::string, std::string> stored_limits(const db::Tournament& t) {
  std::map<std::string, std::string> out;
  const std::string& text = t.config_text;
  auto from_config = [&](const Config& c) {
    for (const auto& e : c.engines) {
      EngineLimits l = e.limits;
      const auto& d = c.tournament.defaults;
      if (!l.tc) l.tc = d.tc;
      if (!l.depth) l.depth = d.depth;
      if (!l.nodes) l.nodes = d.nodes;
      out[e.name] = limits_text(l);
    }
  };
  if (text.starts_with("knightly play ")) {
    if (auto words = split_words(std::string_view(text).substr(14)))
      if (auto play = parse_play_flags(*words)) from_config(play->config);
  } else if (text.starts_with("knightly sprt ")) {
    // "... --tc TC --depth D --nodes N --book ...": the values may be empty.
    auto value = [&](const std::string& flag) {
      const auto p = text.find(" " + flag + " ");
      if (p == std::string::npos) return std::string();
      const auto from = p + flag.size() + 2;
      const auto end = text.find(" --", from);
      return text.substr(from, end == std::string::npos ? std::string::npos : end - from);
    };
    EngineLimits l;
    if (auto tc = value("--tc"); !tc.empty())
      if (auto parsed = parse_time_control(tc)) l.tc = *parsed;
    if (auto d = value("--depth"); !d.empty()) l.depth = std::atoi(d.c_str());
    if (auto n = value("--nodes"); !n.empty()) l.nodes = std::strtoull(n.c_str(), nullptr, 10);
    out["*"] = limits_text(l);
  } else if (auto cfg = parse_config_toml(text)) {
    from_config(*cfg);
  }
  return out;
}

// One player: the engine version's row and its limits.
struct Identity {
  std::string name;
  std::string limits;
  std::string options;
  std::string command;
  std::string binary;
  auto key() const { return std::tie(name, limits, options, command, binary); }
  bool operator<(const Identity& o) const { return key() < o.key(); }
};

// "name", or "name (depth 5)" where other identities share the name: the parts that differ
// among them, limits first.
std::map<Identity, std::string> labels(const std::set<Identity>& ids) {
  std::map<std::string, std::vector<const Identity*>> by_name;
  for (const auto& id : ids) by_name[id.name].push_back(&id);
  std::map<Identity, std::string> out;
  for (const auto& [name, group] : by_name) {
    if (group.size() == 1) {
      out[*group[0]] = name;
      continue;
    }
    auto varies = [&](auto field) {
      std::set<std::string> seen;
      for (const Identity* id : group) seen.insert(field(*id));
      return seen.size() > 1;
    };
    const bool limits = varies([](const Identity& i) { return i.limits; });
    const bool options = varies([](const Identity& i) { return i.options; });
    const bool command = varies([](const Identity& i) { return i.command; });
    const bool binary = varies([](const Identity& i) { return i.binary; });
    for (const Identity* id : group) {
      std::vector<std::string> parts;
      if (limits) parts.push_back(id->limits.empty() ? "no limit" : id->limits);
      if (options) parts.push_back(id->options.empty() ? "default options" : id->options);
      if (command) parts.push_back(id->command.empty() ? "no command" : id->command);
      if (binary)
        parts.push_back(id->binary.empty() ? "binary unknown"
                                           : "binary " + id->binary.substr(0, 8));
      std::string label = name + " (";
      for (std::size_t i = 0; i < parts.size(); ++i) label += (i ? ", " : "") + parts[i];
      out[*id] = label + ")";
    }
  }
  return out;
}

}  // namespace

std::string limits_text(const EngineLimits& l) {
  std::vector<std::string> parts;
  if (l.tc && !l.tc->infinite) parts.push_back(format_time_control(*l.tc));
  if (l.depth) parts.push_back("depth " + std::to_string(*l.depth));
  if (l.nodes) parts.push_back("nodes " + std::to_string(*l.nodes));
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out;
}

std::vector<db::PairCount> player_pair_counts(const db::Store& store, const db::GameFilter& filter,
                                              bool merge_by_name) {
  const auto rows = store.queries().version_pair_counts(filter);
  std::map<std::int64_t, db::EngineInfo> versions;
  for (auto& v : store.catalog().engines()) versions[v.id] = std::move(v.info);
  std::map<std::int64_t, std::map<std::string, std::string>> limits;
  for (const auto& s : store.catalog().tournaments())
    limits[s.tournament.id] = stored_limits(s.tournament);

  auto identity = [&](const db::VersionPairCount& r, bool white) {
    const db::EngineInfo& e = versions[white ? r.white_id : r.black_id];
    Identity id{e.name, "", "", "", ""};
    if (merge_by_name) return id;
    const auto& stored = limits[r.tournament_id];
    auto it = stored.find(e.name);
    if (it == stored.end()) it = stored.find("*");
    if (it != stored.end()) {
      id.limits = it->second;
    } else {
      // No config says (an import): the games' TimeControl tag, "-" for none.
      const auto slash = r.time_control.find(" / ");
      std::string tc = slash == std::string::npos ? r.time_control
                                                  : (white ? r.time_control.substr(0, slash)
                                                           : r.time_control.substr(slash + 3));
      id.limits = tc == "-" ? "" : tc;
    }
    id.options = e.options;
    id.command = e.command;
    id.binary = e.binary_sha256;
    return id;
  };
  std::set<Identity> ids;
  std::vector<std::pair<Identity, Identity>> sides;
  sides.reserve(rows.size());
  for (const auto& r : rows) {
    sides.emplace_back(identity(r, true), identity(r, false));
    ids.insert(sides.back().first);
    ids.insert(sides.back().second);
  }
  const auto label = labels(ids);
  std::map<std::pair<std::string, std::string>, db::PairCount> merged;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string& w = label.at(sides[i].first);
    const std::string& b = label.at(sides[i].second);
    db::PairCount& c = merged[{w, b}];
    c.white = w;
    c.black = b;
    c.white_wins += rows[i].white_wins;
    c.draws += rows[i].draws;
    c.black_wins += rows[i].black_wins;
  }
  std::vector<db::PairCount> out;
  out.reserve(merged.size());
  for (auto& [key, c] : merged) out.push_back(std::move(c));
  return out;
}

}  // namespace knightly::runner
