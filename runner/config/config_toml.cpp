#include "runner/config/config_toml.h"

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
#include "runner/config/match_schema.h"
#include "runner/config/toml_reader.h"
#include "runner/config/tune_config.h"
#include "runner/config/variant.h"
#include "runner/match/time_control.h"

namespace knightly::runner {

namespace {

// The tables of a config, read through a TomlReader: [tournament], [adjudication], [[engine]]
// (and its ladder), [openings], [output], [sprt] and [tune].
class TomlParser : TomlReader {
 public:
  using TomlReader::TomlReader;

  Config parse(const toml::table& root) {
    check_keys(root, "",
               {"tournament", "engine", "openings", "output", "sprt", "adjudication", "tune"});
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
    if (auto* t = table_at(root, "tune", "tune")) tune(*t, root);
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
      // The table's keys are together in the map (those of engine[10] after engine[1]'s):
      // looked up, not scanned, so that thousands of engines cost no quadratic time.
      for (auto it = where_.lower_bound(from); it != where_.end() && it->first.starts_with(from);
           ++it) {
        const std::string& key = it->first;
        if (key.size() == from.size() || key[from.size()] == '.')
          out.at[to + key.substr(from.size())] = {it->second.line, it->second.column};
      }
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

  // Every key of `table` (a TOML path, "tournament" or "adjudication.draw") that the schema
  // reads as a plain value: read and set. Keys parsed here by code of their own are left.
  void schema_keys(const toml::table& t, const std::string& table, const std::string& prefix) {
    std::vector<std::string_view> done;
    for (const MatchKey& key : match_schema()) {
      if (!key.apply || (key.custom & CustomToml) || !key.toml.starts_with(table) ||
          key.toml.size() <= table.size() + 1 || key.toml[table.size()] != '.')
        continue;
      const std::string_view name = key.toml.substr(table.size() + 1);
      if (name.find('.') != std::string_view::npos) continue;
      if (std::find(done.begin(), done.end(), key.toml) != done.end()) continue;
      done.push_back(key.toml);
      const toml::node* node = t.get(name);
      if (!node) continue;
      key.apply(config_, schema_value(*node, key, join(prefix, name)));
    }
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
    auto keys = toml_keys_of("tournament");
    keys.push_back("adjudication");
    check_keys(t, "tournament", keys);
    auto& c = config_.tournament;
    schema_keys(t, "tournament", "tournament");
    affinity(t, c);
    limits(t, "tournament", c.defaults);
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
    check_keys(t, prefix, toml_keys_of("adjudication"));
    auto& a = config_.tournament.adjudication;
    schema_keys(t, "adjudication", prefix);
    if (auto* d = table_at(t, "draw", join(prefix, "draw"))) {
      const std::string p = join(prefix, "draw");
      check_keys(*d, p, toml_keys_of("adjudication.draw"));
      a.draw = {true, 0, 1, 0};
      required(*d, p, {"movecount", "score"});
      schema_keys(*d, "adjudication.draw", p);
    }
    if (auto* r = table_at(t, "resign", join(prefix, "resign"))) {
      const std::string p = join(prefix, "resign");
      check_keys(*r, p, toml_keys_of("adjudication.resign"));
      a.resign = {true, 1, 0, false};
      required(*r, p, {"movecount", "score"});
      schema_keys(*r, "adjudication.resign", p);
    }
    if (auto* tb = table_at(t, "tablebase", join(prefix, "tablebase"))) {
      const std::string p = join(prefix, "tablebase");
      check_keys(*tb, p, toml_keys_of("adjudication.tablebase"));
      required(*tb, p, {"path"});
      schema_keys(*tb, "adjudication.tablebase", p);
    }
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
    auto keys = toml_keys_of("engine");
    keys.insert(keys.end(), {"protocol", "ladder"});
    check_keys(t, p, keys);
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
    if (t.contains("proto") && t.contains("protocol"))
      fail(where_of(t.get("protocol")->source()), p + ".protocol",
           "give 'proto' or 'protocol', not both");
    for (const char* spelling : {"proto", "protocol"})
      if (const toml::node* node = t.get(spelling))
        e.protocol = static_cast<Protocol>(std::get<std::int64_t>(
            schema_value(*node, *key_by_toml("engine.proto"), p + "." + spelling)));
    e.restart = boolean(t, "restart", p + ".restart").value_or(false);
    e.ponder = boolean(t, "ponder", p + ".ponder").value_or(false);
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
    check_keys(t, "openings", toml_keys_of("openings"));
    auto& o = config_.openings;
    schema_keys(t, "openings", "openings");
    if (!t.get("format")) o.format = book_format_of(o.file).value_or(o.format);
  }

  void output(const toml::table& t) {
    check_keys(t, "output", toml_keys_of("output"));
    schema_keys(t, "output", "output");
    if (const toml::node* fields = t.get("pgn_fields")) {
      static const std::vector<std::string> names = {"nodes",  "seldepth", "nps",     "hashfull",
                                                     "tbhits", "timeleft", "latency", "pv"};
      if (!fields->is_array())
        fail(where_of(fields->source()), "output.pgn_fields",
             std::string("expected a list of names, got ") + type_name(*fields));
      for (const auto& f : *fields->as_array()) {
        const std::string name = f.is_string() ? f.as_string()->get() : "";
        // Each name is the -pgnout word of the same name (match_schema.h).
        const MatchKey* key = nullptr;
        for (const MatchKey* k : keys_by_flag("-pgnout"))
          if (k->word == name && k->type == ValueType::Boolean && name != "min" && name != "append")
            key = k;
        if (!key)
          fail(where_of(f.source()), "output.pgn_fields",
               "'" + name + "' is not a PGN field" + suggestion_text(name, names));
        key->apply(config_, true);
      }
    }
  }

  void sprt(const toml::table& t) {
    check_keys(t, "sprt", toml_keys_of("sprt"));
    config_.sprt.enabled = true;
    schema_keys(t, "sprt", "sprt");
  }

  // [tune] and its [[tune.param]] tables, then the engines and schedule it is played as
  // (tune_config.h). The games are the tune's: [tournament] does not say how many.
  void tune(const toml::table& t, const toml::table& root) {
    check_keys(t, "tune", toml_keys_of("tune"));
    required(t, "tune", {"engine", "iterations", "param"});
    schema_keys(t, "tune", "tune");
    const toml::node* params = t.get("param");
    if (!params->is_array_of_tables())
      fail(where_of(params->source()), "tune.param",
           "expected [[tune.param]] tables, got " + std::string(type_name(*params)));
    const auto& array = *params->as_array();
    for (std::size_t i = 0; i < array.size(); ++i) {
      const auto& table = *array[i].as_table();
      const std::string p = "tune.param[" + std::to_string(i + 1) + "]";
      where_[p] = where_of(table.source());
      check_keys(table, p, toml_keys_of("tune.param"));
      required(table, p, {"name", "start", "min", "max", "c_end", "r_end"});
      config_.tune.params.emplace_back();
      schema_keys(table, "tune.param", p);
    }
    if (auto* tournament = root.get("tournament"); tournament && tournament->is_table())
      for (const std::string key : {"rounds", "games", "repeat", "format", "seeds"})
        if (tournament->as_table()->contains(key))
          fail(where_["tournament." + key], "tournament." + key,
               "a tune plays tune.iterations rounds of tune.pairs_per_iteration game pairs: "
               "leave it out");
    const std::size_t origin = origin_.empty() ? 0 : origin_[0];
    if (auto problem = expand_tune(config_))
      fail(locate(problem->key), problem->key, problem->message);
    origin_.assign(config_.engines.size(), origin);
  }

  Config config_;
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
  } catch (const TomlReader::Failure& f) {
    return std::unexpected(f.error);
  }
  add_variant_options(config);
  if (auto problem = validate_config(config)) {
    problem->key = parser.file_key(problem->key);
    const auto w = parser.locate(problem->key);
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
