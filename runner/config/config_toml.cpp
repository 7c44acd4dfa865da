#include "runner/config/config_toml.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "runner/config/closest_name.h"
#include "runner/config/config_paths.h"
#include "runner/config/config_validate.h"
#include "runner/config/engine_ladder.h"
#include "runner/config/engine_source.h"
#include "runner/config/variant.h"
#include "runner/match/time_control.h"

namespace knightly::runner {

namespace {

// Thrown inside the parser only and turned into a value at its boundary.
struct Failure {
  ConfigError error;
};

struct Where {
  int line = 0;
  int column = 0;
};

Where where_of(const toml::source_region& region) {
  return {static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

const char* type_name(const toml::node& node) {
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

class TomlParser {
 public:
  explicit TomlParser(std::string file) : file_(std::move(file)) {}

  Config parse(const toml::table& root) {
    check_keys(root, "", {"tournament", "engine", "openings", "output", "sprt", "adjudication"});
    if (auto* t = table_at(root, "tournament", "tournament")) tournament(*t);
    if (auto* a = table_at(root, "adjudication", "adjudication")) {
      if (adjudication_seen_)
        fail(where_of(a->source()), "adjudication",
             "given twice: use either [adjudication] or [tournament.adjudication]");
      adjudication(*a, "adjudication");
    }
    engines(root);
    if (auto* o = table_at(root, "openings", "openings")) openings(*o);
    if (auto* o = table_at(root, "output", "output")) output(*o);
    if (auto* s = table_at(root, "sprt", "sprt")) sprt(*s);
    return std::move(config_);
  }

  // Where each key was written, by the engine's index in the config: a laddered table's
  // positions are those of every engine it became.
  SourcePositions positions() const {
    SourcePositions out;
    for (const auto& [key, w] : where_)
      if (!key.starts_with("engine[")) out.at[key] = {w.line, w.column};
    for (std::size_t i = 0; i < origin_.size(); ++i) {
      const std::string from = engine_prefix(origin_[i]), to = engine_prefix(i);
      for (const auto& [key, w] : where_)
        if (key.starts_with(from) && (key.size() == from.size() || key[from.size()] == '.'))
          out.at[to + key.substr(from.size())] = {w.line, w.column};
    }
    return out;
  }

  // A key naming an engine by its index in the config (as validation does) renamed to its
  // [[engine]] table's index in the file, which differ after a ladder.
  std::string file_key(const std::string& key) const {
    const auto close = key.find(']');
    if (!key.starts_with("engine[") || close == std::string::npos) return key;
    const std::size_t i = std::stoul(key.substr(7, close - 7)) - 1;
    return i < origin_.size() ? engine_prefix(origin_[i]) + key.substr(close + 1) : key;
  }

  Where locate(const std::string& key) const {
    if (auto w = find_recorded(key)) return *w;
    if (auto w = find_recorded("tournament." + key)) return *w;
    return {1, 1};
  }

 private:
  static std::string engine_prefix(std::size_t i) {
    return "engine[" + std::to_string(i + 1) + "]";
  }

  std::optional<Where> find_recorded(std::string key) const {
    while (true) {
      if (auto it = where_.find(key); it != where_.end()) return it->second;
      const auto cut = key.find_last_of(".[");
      if (cut == std::string::npos || cut == 0) return std::nullopt;
      key = key.substr(0, cut);
    }
  }

  [[noreturn]] void fail(Where w, const std::string& key, const std::string& message) const {
    throw Failure{ConfigError{file_, w.line, w.column, key, message}};
  }

  static std::string join(const std::string& prefix, std::string_view key) {
    return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
  }

  void check_keys(const toml::table& table, const std::string& prefix,
                  const std::vector<std::string>& allowed) {
    for (const auto& [key, node] : table) {
      const std::string name(key.str());
      if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
        fail(where_of(key.source()), join(prefix, name),
             "unknown key" + suggestion_text(name, allowed));
      where_[join(prefix, name)] = where_of(node.source());
    }
  }

  const toml::table* table_at(const toml::table& parent, std::string_view key,
                              const std::string& path) {
    const toml::node* node = parent.get(key);
    if (!node) return nullptr;
    if (!node->is_table())
      fail(where_of(node->source()), path,
           std::string("expected a table, got ") + type_name(*node));
    where_[path] = where_of(node->source());
    return node->as_table();
  }

  std::optional<std::string> str(const toml::table& t, std::string_view key,
                                 const std::string& path) {
    const toml::node* node = t.get(key);
    if (!node) return std::nullopt;
    if (!node->is_string())
      fail(where_of(node->source()), path,
           std::string("expected a string, got ") + type_name(*node));
    return node->as_string()->get();
  }

  std::optional<std::int64_t> integer(const toml::table& t, std::string_view key,
                                      const std::string& path, std::int64_t min,
                                      std::int64_t max = INT32_MAX) {
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

  std::optional<double> number(const toml::table& t, std::string_view key,
                               const std::string& path) {
    const toml::node* node = t.get(key);
    if (!node) return std::nullopt;
    if (node->is_integer()) return static_cast<double>(node->as_integer()->get());
    if (!node->is_floating_point() || !std::isfinite(node->as_floating_point()->get()))
      fail(where_of(node->source()), path,
           std::string("expected a number, got ") + type_name(*node));
    return node->as_floating_point()->get();
  }

  std::optional<bool> boolean(const toml::table& t, std::string_view key, const std::string& path) {
    const toml::node* node = t.get(key);
    if (!node) return std::nullopt;
    if (!node->is_boolean())
      fail(where_of(node->source()), path,
           std::string("expected true or false, got ") + type_name(*node));
    return node->as_boolean()->get();
  }

  std::string choice(const toml::table& t, std::string_view key, const std::string& path,
                     const std::vector<std::string>& allowed, std::string current) {
    if (auto v = str(t, key, path)) {
      if (std::find(allowed.begin(), allowed.end(), *v) == allowed.end())
        fail(where_[path], path, "'" + *v + "' is not valid" + suggestion_text(*v, allowed));
      return *v;
    }
    return current;
  }

  // tc / st / depth / nodes / time_margin of [tournament] or one [[engine]].
  void limits(const toml::table& t, const std::string& prefix, EngineLimits& out) {
    if (auto tc = str(t, "tc", join(prefix, "tc"))) {
      auto parsed = parse_time_control(*tc);
      if (!parsed) fail(where_[join(prefix, "tc")], join(prefix, "tc"), parsed.error());
      out.tc = *parsed;
    }
    if (auto st = number(t, "st", join(prefix, "st"))) {
      if (out.tc)
        fail(where_[join(prefix, "st")], join(prefix, "st"), "give either tc or st, not both");
      if (*st <= 0)
        fail(where_[join(prefix, "st")], join(prefix, "st"),
             "st must be a positive number of seconds");
      TimeControl tc;
      tc.movetime_ms = std::max<std::int64_t>(1, std::llround(*st * 1000));
      out.tc = tc;
    }
    if (auto d = integer(t, "depth", join(prefix, "depth"), 1, 1000))
      out.depth = static_cast<int>(*d);
    if (auto n = integer(t, "nodes", join(prefix, "nodes"), 1, INT64_MAX))
      out.nodes = static_cast<std::uint64_t>(*n);
    if (auto m = integer(t, "time_margin", join(prefix, "time_margin"), 0, 3'600'000))
      out.time_margin_ms = *m;
  }

  void tournament(const toml::table& t) {
    check_keys(t, "tournament",
               {"name",         "format",      "seeds",         "rounds",   "games",
                "repeat",       "concurrency", "seed",          "tc",       "st",
                "depth",        "nodes",       "time_margin",   "maxmoves", "recover",
                "adjudication", "variant",     "noswap",        "reverse",  "wait_ms",
                "affinity",     "startup_ms",  "ucinewgame_ms", "ping_ms",  "reference_nps"});
    auto& c = config_.tournament;
    if (auto v = number(t, "reference_nps", "tournament.reference_nps")) {
      if (*v <= 0)
        fail(where_["tournament.reference_nps"], "tournament.reference_nps",
             "must be a speed in nodes per second above 0");
      c.reference_nps = *v;
    }
    if (auto v = str(t, "name", "tournament.name")) {
      if (v->empty()) fail(where_["tournament.name"], "tournament.name", "name must not be empty");
      c.name = *v;
    }
    c.format = choice(t, "format", "tournament.format", {"round-robin", "gauntlet"}, c.format);
    if (auto v = integer(t, "seeds", "tournament.seeds", 1)) c.seeds = static_cast<int>(*v);
    if (auto v = integer(t, "rounds", "tournament.rounds", 1)) c.rounds = static_cast<int>(*v);
    if (auto v = integer(t, "games", "tournament.games", 1))
      c.games_per_encounter = static_cast<int>(*v);
    if (auto v = boolean(t, "repeat", "tournament.repeat")) c.repeat = *v;
    if (auto v = integer(t, "concurrency", "tournament.concurrency", 1, 1024))
      c.concurrency = static_cast<int>(*v);
    if (auto v = integer(t, "seed", "tournament.seed", 0, INT64_MAX))
      c.seed = static_cast<std::uint64_t>(*v);
    if (auto v = boolean(t, "recover", "tournament.recover")) c.recover = *v;
    c.variant = choice(t, "variant", "tournament.variant", variant_names(), c.variant);
    if (auto v = boolean(t, "noswap", "tournament.noswap")) c.swap_sides = !*v;
    if (auto v = boolean(t, "reverse", "tournament.reverse")) c.reverse_sides = *v;
    if (auto v = integer(t, "wait_ms", "tournament.wait_ms", 0, 3'600'000))
      c.wait_ms = static_cast<int>(*v);
    affinity(t, c);
    if (auto v = integer(t, "startup_ms", "tournament.startup_ms", 1, 3'600'000))
      c.timeouts.startup_ms = *v;
    if (auto v = integer(t, "ucinewgame_ms", "tournament.ucinewgame_ms", 1, 3'600'000))
      c.timeouts.ucinewgame_ms = *v;
    if (auto v = integer(t, "ping_ms", "tournament.ping_ms", 1, 3'600'000)) c.timeouts.ping_ms = *v;
    limits(t, "tournament", c.defaults);
    if (auto v = integer(t, "maxmoves", "tournament.maxmoves", 0))
      c.adjudication.max_moves = static_cast<int>(*v);
    if (auto* a = table_at(t, "adjudication", "tournament.adjudication")) {
      adjudication(*a, "tournament.adjudication");
      adjudication_seen_ = true;
    }
  }

  // affinity = true (every CPU of the machine) or a list of CPU numbers.
  void affinity(const toml::table& t, TournamentConfig& c) {
    const toml::node* node = t.get("affinity");
    if (!node) return;
    const Where w = where_of(node->source());
    if (auto b = node->as_boolean()) {
      c.affinity = b->get();
      return;
    }
    if (!node->is_array())
      fail(w, "tournament.affinity",
           std::string("expected true, false or a list of CPU numbers, got ") + type_name(*node));
    c.affinity = true;
    for (const auto& cpu : *node->as_array()) {
      if (!cpu.is_integer() || cpu.as_integer()->get() < 0 || cpu.as_integer()->get() > 4095)
        fail(where_of(cpu.source()), "tournament.affinity", "a CPU number is in [0, 4095]");
      c.affinity_cpus.push_back(static_cast<int>(cpu.as_integer()->get()));
    }
  }

  void adjudication(const toml::table& t, const std::string& prefix) {
    check_keys(t, prefix, {"draw", "resign", "maxmoves", "tablebase"});
    auto& a = config_.tournament.adjudication;
    if (auto v = integer(t, "maxmoves", join(prefix, "maxmoves"), 0))
      a.max_moves = static_cast<int>(*v);
    if (auto* d = table_at(t, "draw", join(prefix, "draw"))) {
      const std::string p = join(prefix, "draw");
      check_keys(*d, p, {"movenumber", "movecount", "score"});
      a.draw.enabled = true;
      a.draw.move_number =
          static_cast<int>(integer(*d, "movenumber", p + ".movenumber", 0).value_or(0));
      a.draw.move_count = static_cast<int>(
          required(integer(*d, "movecount", p + ".movecount", 1), *d, p, "movecount"));
      a.draw.score_cp =
          static_cast<int>(required(integer(*d, "score", p + ".score", 0), *d, p, "score"));
    }
    if (auto* r = table_at(t, "resign", join(prefix, "resign"))) {
      const std::string p = join(prefix, "resign");
      check_keys(*r, p, {"movecount", "score", "twosided"});
      a.resign.enabled = true;
      a.resign.move_count = static_cast<int>(
          required(integer(*r, "movecount", p + ".movecount", 1), *r, p, "movecount"));
      a.resign.score_cp =
          static_cast<int>(required(integer(*r, "score", p + ".score", 1), *r, p, "score"));
      a.resign.two_sided = boolean(*r, "twosided", p + ".twosided").value_or(false);
    }
    if (auto* tb = table_at(t, "tablebase", join(prefix, "tablebase"))) {
      const std::string p = join(prefix, "tablebase");
      check_keys(*tb, p, {"path", "pieces", "ignore50", "result"});
      a.tablebase.enabled = true;
      a.tablebase.path = required(str(*tb, "path", p + ".path"), *tb, p, "path");
      a.tablebase.max_pieces =
          static_cast<int>(integer(*tb, "pieces", p + ".pieces", 0, 32).value_or(0));
      a.tablebase.ignore_50 = boolean(*tb, "ignore50", p + ".ignore50").value_or(false);
      const std::string result =
          choice(*tb, "result", p + ".result", {"WIN_LOSS", "DRAW", "BOTH"}, "BOTH");
      a.tablebase.win_loss = result != "DRAW";
      a.tablebase.draw = result != "WIN_LOSS";
    }
  }

  template <typename T>
  T required(std::optional<T> value, const toml::table& table, const std::string& prefix,
             const std::string& key) {
    if (!value)
      fail(where_of(table.source()), join(prefix, key), "missing required key '" + key + "'");
    return *value;
  }

  void engines(const toml::table& root) {
    const toml::node* node = root.get("engine");
    if (!node) return;
    if (!node->is_array_of_tables())
      fail(where_of(node->source()), "engine",
           "expected [[engine]] tables, got " + std::string(type_name(*node)));
    const auto& array = *node->as_array();
    for (std::size_t i = 0; i < array.size(); ++i) {
      const auto& t = *array[i].as_table();
      const std::string p = "engine[" + std::to_string(i + 1) + "]";
      where_[p] = where_of(t.source());
      EngineConfig e = engine(t, p);
      if (auto* l = table_at(t, "ladder", p + ".ladder")) {
        for (auto& step : ladder(e, *l, p + ".ladder")) {
          config_.engines.push_back(std::move(step));
          origin_.push_back(i);
        }
      } else {
        config_.engines.push_back(std::move(e));
        origin_.push_back(i);
      }
    }
  }

  // ladder = { key = "depth", values = [1, 2, 3] }: the engines `e` becomes (engine_ladder.h).
  std::vector<EngineConfig> ladder(const EngineConfig& e, const toml::table& t,
                                   const std::string& p) {
    check_keys(t, p, {"key", "values"});
    EngineLadder ladder;
    ladder.key = required(str(t, "key", p + ".key"), t, p, "key");
    // A laddered option is checked with the engine's other options: point at the ladder.
    if (ladder.key.starts_with("options."))
      where_[p.substr(0, p.rfind('.')) + "." + ladder.key] = where_[p + ".key"];
    const toml::node* values = t.get("values");
    if (!values) fail(where_of(t.source()), p + ".values", "missing required key 'values'");
    if (!values->is_array())
      fail(where_of(values->source()), p + ".values",
           std::string("expected an array of values, got ") + type_name(*values));
    std::vector<Where> at;
    for (const auto& v : *values->as_array()) {
      LadderValue lv;
      if (auto s = v.as_string()) {
        lv = {LadderValue::Kind::String, s->get()};
      } else if (auto n = v.as_integer()) {
        lv = {LadderValue::Kind::Integer, std::to_string(n->get())};
      } else if (auto b = v.as_boolean()) {
        lv = {LadderValue::Kind::Boolean, b->get() ? "true" : "false"};
      } else if (auto f = v.as_floating_point(); f && std::isfinite(f->get())) {
        std::ostringstream out;
        out << f->get();
        lv = {LadderValue::Kind::Float, out.str()};
      } else {
        fail(where_of(v.source()), p + ".values",
             std::string("a ladder value is a string, integer, float or boolean, got ") +
                 type_name(v));
      }
      ladder.values.push_back(std::move(lv));
      at.push_back(where_of(v.source()));
    }
    auto steps = expand_ladder(e, ladder);
    if (!steps) {
      const auto i = steps.error().value;
      if (i == LadderError::npos) fail(where_[p + ".key"], p, steps.error().message);
      fail(at[i], p + ".values[" + std::to_string(i + 1) + "]", steps.error().message);
    }
    return std::move(*steps);
  }

  EngineConfig engine(const toml::table& t, const std::string& p) {
    check_keys(t, p,
               {"name",    "command", "args",  "workdir", "env",         "builtin", "options",
                "tc",      "st",      "depth", "nodes",   "time_margin", "proto",   "protocol",
                "restart", "ladder",  "repo",  "ref",     "build",       "subdir",  "bench"});
    EngineConfig e;
    // repo, ref, build, subdir, bench: an engine built from its source (engine_source.h).
    for (std::string_view key : source_keys()) {
      const toml::node* node = t.get(key);
      if (!node) continue;
      const std::string path = p + "." + std::string(key);
      const std::string value = key == "bench" && node->is_integer()
                                    ? std::to_string(node->as_integer()->get())
                                    : str(t, key, path).value_or("");
      if (auto problem = apply_source_key(key, value, e))
        fail(where_of(node->source()), path, *problem);
    }
    e.name = required(str(t, "name", p + ".name"), t, p, "name");
    if (e.name.empty()) fail(where_[p + ".name"], p + ".name", "name must not be empty");
    e.command = str(t, "command", p + ".command").value_or("");
    e.workdir = str(t, "workdir", p + ".workdir").value_or("");
    e.builtin = boolean(t, "builtin", p + ".builtin").value_or(false);
    e.protocol = str(t, "proto", p + ".proto").value_or("uci");
    if (auto protocol = str(t, "protocol", p + ".protocol")) {
      if (t.contains("proto"))
        fail(where_of(t.get("protocol")->source()), p + ".protocol",
             "give 'proto' or 'protocol', not both");
      e.protocol = *protocol;
    }
    e.restart = boolean(t, "restart", p + ".restart").value_or(false);
    if (const toml::node* args = t.get("args")) {
      if (!args->is_array())
        fail(where_of(args->source()), p + ".args",
             std::string("expected an array of strings, got ") + type_name(*args));
      for (const auto& a : *args->as_array()) {
        if (!a.is_string())
          fail(where_of(a.source()), p + ".args",
               std::string("expected a string, got ") + type_name(a));
        e.args.push_back(a.as_string()->get());
      }
    }
    if (auto* env = table_at(t, "env", p + ".env")) {
      for (const auto& [key, value] : *env) {
        const std::string k = p + ".env." + std::string(key.str());
        if (!value.is_string())
          fail(where_of(value.source()), k,
               std::string("expected a string, got ") + type_name(value));
        e.env[std::string(key.str())] = value.as_string()->get();
      }
    }
    if (auto* options = table_at(t, "options", p + ".options"))
      e.options = uci_options(*options, p + ".options");
    limits(t, p, e.limits);
    return e;
  }

  // Options keep the file's order (setoption order can matter to an engine).
  std::vector<std::pair<std::string, std::string>> uci_options(const toml::table& t,
                                                               const std::string& p) {
    struct Item {
      Where w;
      std::string name, value;
    };
    std::vector<Item> items;
    for (const auto& [key, node] : t) {
      const std::string name(key.str());
      const std::string path = p + "." + name;
      where_[path] = where_of(key.source());
      std::string value;
      if (auto s = node.as_string())
        value = s->get();
      else if (auto i = node.as_integer())
        value = std::to_string(i->get());
      else if (auto b = node.as_boolean())
        value = b->get() ? "true" : "false";
      else if (auto f = node.as_floating_point()) {
        std::ostringstream out;
        out << f->get();
        value = out.str();
      } else
        fail(where_of(node.source()), path,
             std::string("an option value must be a string, integer, float or boolean, got ") +
                 type_name(node));
      items.push_back({where_of(key.source()), name, value});
    }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return std::pair(a.w.line, a.w.column) < std::pair(b.w.line, b.w.column);
    });
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& item : items) out.emplace_back(item.name, item.value);
    return out;
  }

  void openings(const toml::table& t) {
    check_keys(t, "openings",
               {"file", "format", "order", "start", "plies", "random_plies", "dfrc"});
    auto& o = config_.openings;
    o.file = str(t, "file", "openings.file").value_or("");
    o.format = choice(t, "format", "openings.format", {"epd", "pgn", "bin"}, o.format);
    if (!t.get("format") && o.file.size() > 4 && o.file.ends_with(".pgn")) o.format = "pgn";
    if (!t.get("format") && o.file.size() > 4 && o.file.ends_with(".bin")) o.format = "bin";
    o.order = choice(t, "order", "openings.order", {"random", "sequential"}, o.order);
    if (auto v = integer(t, "start", "openings.start", 1)) o.start = static_cast<int>(*v);
    if (auto v = integer(t, "plies", "openings.plies", 0)) o.plies = static_cast<int>(*v);
    if (auto v = integer(t, "random_plies", "openings.random_plies", 0, 200))
      o.random_plies = static_cast<int>(*v);
    if (auto v = boolean(t, "dfrc", "openings.dfrc")) o.dfrc = *v;
  }

  void output(const toml::table& t) {
    check_keys(t, "output",
               {"database", "pgn", "sync", "pgn_notation", "pgn_fields", "pgn_min", "pgn_append",
                "epd", "event", "site", "format", "report_penta", "rating_interval",
                "score_interval", "log", "log_engine", "log_append", "crc32"});
    auto& o = config_.output;
    if (auto v = str(t, "database", "output.database")) o.database = *v;
    if (auto v = str(t, "pgn", "output.pgn")) o.pgn = *v;
    o.sync = choice(t, "sync", "output.sync", {"full", "normal"}, o.sync);
    const std::string notation =
        choice(t, "pgn_notation", "output.pgn_notation", {"san", "lan", "uci"}, "san");
    o.pgn_options.notation = notation == "lan"   ? PgnNotation::Lan
                             : notation == "uci" ? PgnNotation::Uci
                                                 : PgnNotation::San;
    if (const toml::node* fields = t.get("pgn_fields")) {
      static const std::vector<std::string> names = {"nodes",  "seldepth", "nps",    "hashfull",
                                                     "tbhits", "timeleft", "latency"};
      if (!fields->is_array())
        fail(where_of(fields->source()), "output.pgn_fields",
             std::string("expected a list of names, got ") + type_name(*fields));
      for (const auto& f : *fields->as_array()) {
        const std::string name = f.is_string() ? f.as_string()->get() : "";
        auto& p = o.pgn_options;
        bool* flag = name == "nodes"      ? &p.nodes
                     : name == "seldepth" ? &p.seldepth
                     : name == "nps"      ? &p.nps
                     : name == "hashfull" ? &p.hashfull
                     : name == "tbhits"   ? &p.tbhits
                     : name == "timeleft" ? &p.timeleft
                     : name == "latency"  ? &p.latency
                                          : nullptr;
        if (!flag)
          fail(where_of(f.source()), "output.pgn_fields",
               "'" + name + "' is not a PGN field" + suggestion_text(name, names));
        *flag = true;
      }
    }
    if (auto v = boolean(t, "pgn_min", "output.pgn_min")) o.pgn_options.min = *v;
    if (auto v = boolean(t, "pgn_append", "output.pgn_append")) o.pgn_append = *v;
    if (auto v = str(t, "epd", "output.epd")) o.epd = *v;
    if (auto v = str(t, "event", "output.event")) o.event = *v;
    if (auto v = str(t, "site", "output.site")) o.site = *v;
    o.format =
        choice(t, "format", "output.format", {"knightly", "cutechess", "fastchess"}, o.format);
    if (auto v = boolean(t, "report_penta", "output.report_penta")) o.report_penta = *v;
    if (auto v = integer(t, "rating_interval", "output.rating_interval", 0))
      o.rating_interval = static_cast<int>(*v);
    if (auto v = integer(t, "score_interval", "output.score_interval", 0))
      o.score_interval = static_cast<int>(*v);
    if (auto v = str(t, "log", "output.log")) o.log_file = *v;
    if (auto v = boolean(t, "log_engine", "output.log_engine")) o.log_engine = *v;
    if (auto v = boolean(t, "log_append", "output.log_append")) o.log_append = *v;
    if (auto v = boolean(t, "crc32", "output.crc32")) o.crc32 = *v;
  }

  void sprt(const toml::table& t) {
    check_keys(t, "sprt", {"elo0", "elo1", "alpha", "beta", "model"});
    auto& s = config_.sprt;
    s.enabled = true;
    if (auto v = number(t, "elo0", "sprt.elo0")) s.elo0 = *v;
    if (auto v = number(t, "elo1", "sprt.elo1")) s.elo1 = *v;
    if (auto v = number(t, "alpha", "sprt.alpha")) s.alpha = *v;
    if (auto v = number(t, "beta", "sprt.beta")) s.beta = *v;
    s.model = choice(t, "model", "sprt.model", {"normalized", "logistic"}, s.model);
  }

  std::string file_;
  Config config_;
  std::map<std::string, Where> where_;
  std::vector<std::size_t> origin_;  // config engine index -> its [[engine]] table's index
  bool adjudication_seen_ = false;
};

}  // namespace

std::expected<Config, ConfigError> parse_config_toml(std::string_view text,
                                                     std::string_view source_path) {
  const std::string file(source_path.empty() ? "<config>" : source_path);
  toml::table root;
  try {
    root = toml::parse(text, source_path);
  } catch (const toml::parse_error& e) {
    return std::unexpected(ConfigError{file, static_cast<int>(e.source().begin.line),
                                       static_cast<int>(e.source().begin.column), "",
                                       std::string(e.description())});
  }
  TomlParser parser(file);
  Config config;
  try {
    config = parser.parse(root);
  } catch (const Failure& f) {
    return std::unexpected(f.error);
  }
  add_variant_options(config);
  if (auto problem = validate_config(config)) {
    problem->key = parser.file_key(problem->key);
    const Where w = parser.locate(problem->key);
    problem->file = file;
    problem->line = w.line;
    problem->column = w.column;
    return std::unexpected(*problem);
  }
  config.source_text = std::string(text);
  config.source_path = std::string(source_path);
  resolve_config_paths(
      config, source_path.empty() ? std::string() : directory_of(std::string(source_path)));
  config.positions = parser.positions();
  return config;
}

}  // namespace knightly::runner
