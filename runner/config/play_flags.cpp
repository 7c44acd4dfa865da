#include "runner/config/play_flags.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

#include "runner/config/closest_name.h"
#include "runner/config/config_paths.h"
#include "runner/config/config_validate.h"
#include "runner/config/engine_source.h"
#include "runner/config/match_schema.h"
#include "runner/config/variant.h"

namespace knightly::runner {

namespace {

struct Failure {
  ConfigError error;
};

[[noreturn]] void fail(const std::string& flag, const std::string& message) {
  ConfigError e;
  e.key = flag;
  e.message = message;
  throw Failure{e};
}

std::pair<std::string, std::string> split_pair(const std::string& flag, const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0) fail(flag, "expected key=value, got '" + word + "'");
  return {word.substr(0, eq), word.substr(eq + 1)};
}

// "3,5,7-11,13" as fastchess's -use-affinity takes it.
std::vector<int> cpu_list(const std::string& flag, const std::string& text) {
  auto cpu = [&](const std::string& item) {
    int v = -1;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || v < 0 || v > 4095)
      fail(flag, "CPUS: '" + item + "' is not a CPU number in [0, 4095]");
    return v;
  };
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    const auto dash = item.find('-');
    if (dash == std::string::npos) {
      out.push_back(cpu(item));
    } else {
      const int lo = cpu(item.substr(0, dash)), hi = cpu(item.substr(dash + 1));
      if (hi < lo) fail(flag, "CPUS: range '" + item + "' runs backwards");
      for (int c = lo; c <= hi; ++c) out.push_back(c);
    }
    start = comma + 1;
  }
  return out;
}

// Where a validation error's key path points among the flags: the schema's row for the key.
std::string flag_for(const std::string& key) {
  if (key.starts_with("engine[")) {
    const auto close = key.find(']');
    return "-engine #" + key.substr(7, close - 7);
  }
  std::string k = key;
  if (k.starts_with("tournament.adjudication.")) k = k.substr(11);
  while (true) {
    for (const MatchKey& row : match_schema())
      if (row.toml == k && (!row.flag.empty() || !row.knightly.empty()))
        return std::string(row.flag.empty() ? row.knightly : row.flag);
    for (const MatchKey& row : match_schema())
      if (row.toml.starts_with(k + ".") && !row.flag.empty()) return std::string(row.flag);
    const auto dot = k.rfind('.');
    if (dot == std::string::npos) return k == "engine" ? "-engine" : key;
    k = k.substr(0, dot);
  }
}

// What a line says about its tool: a row only one tool has.
std::optional<Dialect> only_in(const MatchKey& k) {
  const bool cute = k.cutechess.support != Support::Absent;
  const bool fast = k.fastchess.support != Support::Absent;
  if (fast && !cute) return Dialect::Fastchess;
  if (cute && !fast) return Dialect::Cutechess;
  return std::nullopt;
}

// The games of each encounter: rounds x games, in pairs from one opening (repeat) or not.
struct Games {
  int rounds = 1;
  int games = 1;
  bool repeat = false;
  std::string error;  // the tool refuses the combination
  bool operator==(const Games& o) const {
    return rounds == o.rounds && games == o.games && repeat == o.repeat && error == o.error;
  }
};

std::string games_text(const Games& g) {
  const long long n = 1LL * g.rounds * g.games;
  std::string out = std::to_string(n) + (n == 1 ? " game" : " games") + " per encounter";
  if (g.repeat) return out + " in pairs (one opening, colours reversed)";
  return out + (n == 1 ? "" : ", each from its own opening");
}

class FlagParser {
 public:
  explicit FlagParser(const std::vector<std::string>& args) : args_(args) {}

  PlayCommand parse() {
    Config& c = out_.config;
    c.tournament.games_per_encounter = 1;
    c.tournament.repeat = false;
    c.tournament.recover = false;
    while (pos_ < args_.size()) {
      const std::string flag = args_[pos_++];
      // A word that is not an option is named by its place (an empty word has no other name).
      if (!is_flag(flag))
        fail("argument " + std::to_string(pos_),
             "expected an option such as -engine, got '" + flag + "'");
      option(flag);
    }
    finish();
    return std::move(out_);
  }

 private:
  using Handler = void (FlagParser::*)(const std::string& flag);

  // The options whose value is not one word of the row's type: fastchess's addOption table
  // gives every option its parse function; here the schema's rows give the rest.
  static const std::map<std::string, Handler, std::less<>>& handlers() {
    static const std::map<std::string, Handler, std::less<>> table = {
        {"-engine", &FlagParser::engine}, {"-each", &FlagParser::each},
        {"-games", &FlagParser::games},   {"-rounds", &FlagParser::rounds},
        {"-repeat", &FlagParser::repeat}, {"-tournament", &FlagParser::tournament},
        {"-event", &FlagParser::event},   {"-pgnout", &FlagParser::pgnout},
        {"-epdout", &FlagParser::epdout}, {"-openings", &FlagParser::openings},
        {"-draw", &FlagParser::draw},     {"-resign", &FlagParser::resign},
        {"-log", &FlagParser::log},       {"-config", &FlagParser::config_option},
        {"-quick", &FlagParser::quick},   {"-use-affinity", &FlagParser::affinity},
    };
    return table;
  }

 public:
  // Every option the schema marks as parsed by code of its own has a handler (a test checks).
  static bool handles(std::string_view flag) { return handlers().contains(flag); }

 private:
  static bool is_flag(const std::string& s) {
    return s.size() > 1 && s[0] == '-' && !(s[1] >= '0' && s[1] <= '9') && s[1] != '.';
  }

  // The words up to the next flag.
  std::vector<std::string> words() {
    std::vector<std::string> out;
    while (pos_ < args_.size() && !is_flag(args_[pos_])) out.push_back(args_[pos_++]);
    return out;
  }

  std::string value(const std::string& flag) {
    if (pos_ >= args_.size() || is_flag(args_[pos_])) fail(flag, "needs a value");
    return args_[pos_++];
  }

  std::optional<std::string> optional_value() {
    if (pos_ < args_.size() && !is_flag(args_[pos_])) return args_[pos_++];
    return std::nullopt;
  }

  void no_value(const std::string& flag) {
    if (pos_ < args_.size() && !is_flag(args_[pos_]))
      fail(flag, "takes no value, got '" + args_[pos_] + "'");
  }

  void mark(Dialect d, const std::string& what) {
    auto& list = d == Dialect::Fastchess ? fastchess_marks_ : cutechess_marks_;
    if (std::find(list.begin(), list.end(), what) == list.end()) list.push_back(what);
  }
  void mark(const MatchKey& k, const std::string& what) {
    if (auto d = only_in(k)) mark(*d, what);
  }

  // One value of a row, set into the config.
  void set(const std::string& where, const MatchKey& k, const std::string& text) {
    auto v = parse_value(k, text);
    if (!v) fail(where, (k.word.empty() ? "" : std::string(k.word) + ": ") + v.error());
    if (k.apply) k.apply(out_.config, *v);
  }

  // key=value words of `flag`, each set by the schema's row of that word.
  void pairs(const std::string& flag, const std::vector<std::string>& ws) {
    for (const auto& w : ws) {
      const auto [key, v] = split_pair(flag, w);
      const MatchKey* row = nullptr;
      for (const MatchKey* k : keys_by_flag(flag))
        if (k->word == key) row = k;
      if (!row) fail(flag, "unknown key '" + key + "'" + suggestion_text(key, words_of(flag)));
      if (!row->refused.empty()) fail(flag, std::string(row->refused));
      mark(*row, flag + " " + key + "=");
      set(flag, *row, v);
      given_.push_back(flag + " " + key);
    }
  }

  bool given(const std::string& what) const {
    return std::find(given_.begin(), given_.end(), what) != given_.end();
  }

  void option(const std::string& flag) {
    given_.push_back(flag);
    // Knightly's own spellings (--tournament, --db, -db, --pgn, --concurrency).
    if (const MatchKey* k = key_by_knightly(flag, CommandPlay)) {
      // The worker's own (--restart, --quiet...) are taken by `knightly play` before this.
      if (k->toml.empty() || !k->apply) fail(flag, "is not an option of the match");
      const std::string v = value(flag);
      if (k->role == Role::Name) {
        if (v.empty()) fail(flag, "the match's name must not be empty");
        out_.named = true;
      }
      set(flag, *k, v);
      return;
    }
    const auto rows = keys_by_flag(flag);
    if (rows.empty()) fail(flag, "unknown option" + suggestion_text(flag, all_flags()));
    const MatchKey& first = *rows.front();
    mark(first, flag);
    if (auto h = handlers().find(flag); h != handlers().end()) {
      (this->*(h->second))(flag);
      return;
    }
    if (!first.word.empty()) {  // -sprt elo0=X ..., -report penta=B, -crc32 pgn=B
      pairs(flag, words());
      if (flag == "-sprt") out_.config.sprt.enabled = true;
      return;
    }
    if (!first.refused.empty()) fail(flag, std::string(first.refused));
    if (first.type == ValueType::Flag) {
      no_value(flag);
      if (first.apply) first.apply(out_.config, true);
    } else {
      set(flag, first, value(flag));
    }
    if (!first.no_effect.empty()) note(std::string(first.no_effect));
  }

  void note(const std::string& text) {
    if (std::find(out_.notes.begin(), out_.notes.end(), text) == out_.notes.end())
      out_.notes.push_back(text);
  }

  // ---------------------------------------------------------------- the custom options

  void engine(const std::string& flag) {
    auto w = words();
    if (w.empty()) fail(flag, "needs cmd=PATH or builtin=NAME");
    engine_words_.push_back(join_option_names(w));
  }

  void each(const std::string& flag) {
    auto w = words();
    if (w.empty()) fail(flag, "needs key=value words");
    for (auto& word : join_option_names(w)) each_words_.push_back(word);
  }

  int count(const std::string& flag, const std::string& text) {
    auto v = parse_value(*key_by_toml("tournament.games"), text);
    if (!v) fail(flag, v.error());
    return static_cast<int>(std::get<std::int64_t>(*v));
  }

  // -games, -rounds and -repeat mean different things in the two tools: kept as given and read
  // in finish(), once the line's tool is known.
  void games(const std::string& flag) {
    games_ = count(flag, value(flag));
    fast_games_ = *games_;
  }
  void rounds(const std::string& flag) { rounds_ = count(flag, value(flag)); }
  void repeat(const std::string& flag) {
    auto n = optional_value();
    repeat_ = n ? count(flag, *n) : 2;
    if (*repeat_ > 2)
      fail(flag, std::to_string(*repeat_) +
                     ": an opening is shared by a pair of games (-repeat or -repeat 2); more "
                     "repetitions of one opening are not supported");
    fast_games_ = *repeat_;
  }

  // cutechess: round-robin | gauntlet | knockout | pyramid; fastchess: roundrobin | gauntlet.
  void tournament(const std::string& flag) {
    const std::string text = value(flag);
    auto& t = out_.config.tournament;
    if (text == "roundrobin") {
      mark(Dialect::Fastchess, flag + " roundrobin");
      t.format = TournamentFormat::RoundRobin;
    } else if (auto f = parse_choice<TournamentFormat>(text)) {
      if (*f == TournamentFormat::RoundRobin) mark(Dialect::Cutechess, flag + " round-robin");
      t.format = *f;
    } else if (text == "knockout" || text == "pyramid") {
      fail(flag, "'" + text + "' tournaments are not supported (round-robin or gauntlet)");
    } else {
      fail(flag, not_a_choice(text, choice_names<TournamentFormat>()) +
                     " (--tournament NAME names a match)");
    }
  }

  // cutechess: one word; fastchess: the words joined (as its concat does).
  void event(const std::string& flag) {
    event_words_ = words();
    if (event_words_.empty()) fail(flag, "needs a name");
  }

  // fastchess: -pgnout [file=F] [notation=] [nodes=] ... ; cutechess: -pgnout F [min] [fi].
  void pgnout(const std::string& flag) {
    auto w = words();
    auto& o = out_.config.output;
    const bool any_pair = std::any_of(
        w.begin(), w.end(), [](const std::string& s) { return s.find('=') != std::string::npos; });
    if (!w.empty() && !any_pair) {
      mark(Dialect::Cutechess, flag + " FILE");
      o.pgn = w[0];
      for (std::size_t i = 1; i < w.size(); ++i) {
        if (w[i] == "min")
          o.pgn_options.min = true;
        else if (w[i] != "fi")  // finished games only: Knightly never writes an unfinished game
          fail(flag, "unexpected word '" + w[i] + "' (min or fi after the file name)");
      }
      return;
    }
    mark(Dialect::Fastchess, flag + (w.empty() ? "" : " file="));
    pairs(flag, w);
    // fastchess names the file after the time when none is given.
    out_.pgn_default_name = o.pgn.empty();
  }

  void epdout(const std::string& flag) {
    auto w = words();
    auto& o = out_.config.output;
    if (w.size() == 1 && w[0].find('=') == std::string::npos) {
      mark(Dialect::Cutechess, flag + " FILE");
      o.epd = w[0];
      return;
    }
    mark(Dialect::Fastchess, flag + (w.empty() ? "" : " file="));
    pairs(flag, w);
    out_.epd_default_name = o.epd.empty();
  }

  void log(const std::string& flag) {
    auto w = words();
    pairs(flag, w);
    for (const auto& word : w)
      if (word == "compress=true") fail(flag, "compress=true: compressed logs are not supported");
    if (out_.config.output.log_file.empty()) fail(flag, "needs file=F");
  }

  void config_option(const std::string& flag) {
    const MatchKey& row = *keys_by_flag(flag).front();
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "file") fail(flag, std::string(row.refused));
      if (key != "outname" && key != "discard" && key != "stats")
        fail(flag, "unknown key '" + key + "'" +
                       suggestion_text(key, {"file", "outname", "discard", "stats"}));
    }
    note(std::string(row.no_effect));
  }

  // fastchess's -quick cmd=A cmd=B book=F: its preset for a quick two-engine match.
  void quick(const std::string& flag) {
    auto& c = out_.config;
    std::vector<std::string> commands;
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "cmd") {
        commands.push_back(v);
      } else if (key == "book") {
        c.openings.file = v;
        c.openings.order = BookOrder::Random;
        const auto format = book_format_of(v);
        if (!format || *format == BookFormat::Bin)
          fail(flag, "book: '" + v + "' needs a .epd or .pgn extension");
        c.openings.format = *format;
      } else {
        fail(flag, "unknown key '" + key + "'" + suggestion_text(key, {"cmd", "book"}));
      }
    }
    if (commands.size() != 2) fail(flag, "needs cmd=ENGINE1 cmd=ENGINE2");
    for (std::size_t i = 0; i < 2; ++i) {
      std::string name = commands[i];
      if (commands[0] == commands[1]) name += std::to_string(i + 1);
      engine_words_.push_back({"cmd=" + commands[i], "name=" + name, "tc=10+0.1"});
    }
    fast_games_ = 2;
    rounds_ = 25000;
    const int hw = static_cast<int>(std::thread::hardware_concurrency());
    c.tournament.concurrency = std::max(1, hw - 2);
    c.tournament.recover = true;
    c.tournament.adjudication.draw = {true, 30, 8, 8};
    if (!c.output.format) c.output.format = OutputStyle::Cutechess;
  }

  void openings(const std::string& flag) {
    auto& o = out_.config.openings;
    o.order = BookOrder::Sequential;  // both tools' default
    auto w = words();
    std::vector<std::string> rest;
    for (const auto& word : w) {
      const auto [key, v] = split_pair(flag, word);
      if (key != "policy") {
        rest.push_back(word);
        continue;
      }
      const auto rows = keys_by_flag(flag);
      const MatchKey& row = **std::find_if(rows.begin(), rows.end(),
                                           [](const MatchKey* k) { return k->word == "policy"; });
      auto p = parse_value(row, v);
      if (!p)
        fail(flag, "policy: '" + v +
                       "' is not supported; a new opening for every game pair (default), or "
                       "round where it means the same");
      opening_policy_ = v;
    }
    pairs(flag, rest);
    if (o.file.empty()) fail(flag, "needs file=F");
    if (!given(flag + " format")) {
      auto format = book_format_of(o.file);
      if (!format) fail(flag, "give format=epd, format=pgn or format=bin for '" + o.file + "'");
      o.format = *format;
    }
  }

  // cutechess requires every key; missing ones take fastchess's defaults.
  void draw(const std::string& flag) {
    out_.config.tournament.adjudication.draw = {true, 0, 1, 0};
    pairs(flag, words());
    if (!given(flag + " score")) fail(flag, "needs score=S (and movenumber=N movecount=M)");
  }

  void resign(const std::string& flag) {
    out_.config.tournament.adjudication.resign = {true, 1, 0, false};
    pairs(flag, words());
    if (!given(flag + " score")) fail(flag, "needs score=S (and movecount=K)");
  }

  void affinity(const std::string&) {
    auto& t = out_.config.tournament;
    t.affinity = true;
    if (auto list = optional_value()) t.affinity_cpus = cpu_list("-use-affinity", *list);
  }

  // ---------------------------------------------------------------- the line as a whole

  Dialect dialect() const {
    return fastchess_marks_.empty() ? Dialect::Cutechess : Dialect::Fastchess;
  }

  // -games, -rounds and -repeat as each tool reads them.
  Games games_of(Dialect d) const {
    Games g;
    if (d == Dialect::Fastchess) {
      // fastchess: -games (or -repeat N) is 1 or 2 games per round from one opening; a larger
      // -games is swapped with -rounds (its fixConfig). Defaults: 2 rounds of 2 games.
      int games = fast_games_.value_or(2), rounds = rounds_.value_or(2);
      if (games > 2) std::swap(games, rounds);
      if (games > 2) {
        g.error = "at most 2 games per round: -games " + std::to_string(games);
        return g;
      }
      g.rounds = rounds;
      g.games = games;
      g.repeat = games == 2;
      return g;
    }
    // cutechess: -games per encounter, -rounds multiplies them; -repeat plays each opening
    // twice in a row, which is a pair of games in Knightly's schedule.
    const int games = games_.value_or(1), rounds = rounds_.value_or(1);
    g.rounds = rounds;
    g.games = games;
    g.repeat = repeat_.value_or(1) == 2;
    if (g.repeat && games % 2 == 1) {
      // An odd number of games per round pairs across rounds in cutechess: -rounds 30 -repeat
      // is 15 pairs, -rounds 5 -repeat two pairs and a last game alone.
      const long long total = 1LL * games * rounds;
      if (total > 2LL * 2147483647) {
        g.error = "more games than can be counted";
        return g;
      }
      g.rounds = total % 2 == 0 ? static_cast<int>(total / 2) : 1;
      g.games = total % 2 == 0 ? 2 : static_cast<int>(total);
    }
    return g;
  }

  stats::EloModel model_of(Dialect d) const {
    if (given("-sprt model")) return out_.config.sprt.model;
    return d == Dialect::Cutechess ? stats::EloModel::Cutechess : stats::EloModel::Normalized;
  }

  void finish() {
    Config& c = out_.config;
    auto& t = c.tournament;
    auto& o = c.output;
    for (const char* tb : {"-tbpieces", "-tbignore50", "-tbadjudicate"})
      if (given(tb) && !t.adjudication.tablebase.enabled)
        fail(tb, "needs -tb PATH (the Syzygy tables' directory)");

    // Engine words of both tools; a word only one tool has says which line this is.
    auto engine_word = [&](const std::string& where, const std::string& w, EngineConfig& e) {
      std::string key = w.substr(0, w.find('='));
      if (key.starts_with("option.")) key = "option.NAME";
      if (key.starts_with("env.")) key = "env.NAME";
      for (const MatchKey* k : keys_by_flag("-engine"))
        if (k->word == key) mark(*k, key + (k->type == ValueType::Flag ? "" : "="));
      if (auto problem = apply_engine_word(w, e)) fail(where, *problem);
    };
    std::vector<EngineConfig> engines;
    for (std::size_t i = 0; i < engine_words_.size(); ++i) {
      EngineConfig e;
      for (const auto& w : engine_words_[i]) engine_word("-engine #" + std::to_string(i + 1), w, e);
      // As both tools do, -each is applied after the engine's own words and overrides them.
      for (const auto& w : each_words_) engine_word("-each", w, e);
      engines.push_back(std::move(e));
    }
    const Dialect line = dialect();  // every option and engine word has been seen
    out_.dialect = line;
    for (std::size_t i = 0; i < engines.size(); ++i) {
      EngineConfig& e = engines[i];
      // fastchess names an engine after its program without the extension.
      if (line == Dialect::Fastchess && e.name.empty() && !e.command.empty()) {
        default_engine_name(e);
        if (const auto dot = e.name.rfind('.'); dot != std::string::npos && dot > 0)
          e.name = e.name.substr(0, dot);
      }
      default_engine_name(e);
      if (auto problem = check_engine_source(e))
        fail("-engine #" + std::to_string(i + 1), *problem);
      c.engines.push_back(std::move(e));
    }

    // The games, each tool's way.
    const Games games = games_of(line);
    if (!games.error.empty())
      fail("-games", (line == Dialect::Fastchess ? "fastchess plays " : "") + games.error);
    t.rounds = games.rounds;
    t.games_per_encounter = games.games;
    t.repeat = games.repeat;
    if (t.repeat && t.games_per_encounter % 2 == 1)
      note("-repeat with " + std::to_string(t.games_per_encounter) +
           " game(s) per encounter: the last game of each encounter has no partner");
    if (opening_policy_ == "round" && (c.engines.size() > 2 || t.games_per_encounter > 2))
      fail("-openings",
           "policy=round: one opening for a whole round of several encounters is "
           "not supported; Knightly gives every game pair its own opening");

    // The SPRT: cutechess-cli's own test on a cutechess-cli line, fastchess's on its.
    if (c.sprt.enabled) c.sprt.model = model_of(line);
    if (!o.format)
      o.format = line == Dialect::Fastchess ? OutputStyle::Fastchess : OutputStyle::Cutechess;
    // Pairs decide the report and the SPRT only as fastchess does: its own output, game
    // pairs, a model defined on them (its fixConfig and SPRT::isValid).
    if (!given("-report penta")) o.report_penta = line == Dialect::Fastchess;
    if (o.format == OutputStyle::Cutechess || !t.repeat || t.games_per_encounter != 2)
      o.report_penta = false;
    if (c.sprt.enabled && stats::trinomial_only(c.sprt.model) && o.report_penta) {
      o.report_penta = false;
      if (line == Dialect::Fastchess)
        note("-sprt model=" + choice_name(c.sprt.model) +
             ": computed on single games, so the report is of single games too (as fastchess "
             "does)");
    }
    if (!given("-ratinginterval")) o.rating_interval = o.format == OutputStyle::Fastchess ? 10 : 0;
    if (!given("-scoreinterval")) o.score_interval = 1;

    // The PGN Event tag: cutechess takes one word, fastchess joins them.
    if (!event_words_.empty()) {
      if (line == Dialect::Cutechess && event_words_.size() > 1)
        fail("-event", "takes one name (quote it: -event \"A B\"), got " +
                           std::to_string(event_words_.size()) + " words");
      o.event.clear();
      for (const auto& w : event_words_) o.event += w;
    } else {
      o.event = line == Dialect::Fastchess ? "Fastchess Tournament" : "?";
    }

    // Where the line does not say whose it is and the tools would play another match.
    if (fastchess_marks_.empty() && cutechess_marks_.empty()) {
      const Games other = games_of(Dialect::Fastchess);
      std::string differs;
      if (!other.error.empty())
        differs = "fastchess would refuse it (" + other.error + ")";
      else if (!(other == games_of(Dialect::Cutechess)))
        differs = "fastchess would play " + games_text(other);
      if (c.sprt.enabled && !given("-sprt model"))
        differs += std::string(differs.empty() ? "fastchess would" : ", and") +
                   " run its normalized SPRT on pairs";
      if (!differs.empty())
        note("read as a cutechess-cli command line (no option only fastchess has): " +
             games_text(games) + (c.sprt.enabled ? ", cutechess-cli's SPRT (BayesElo)" : "") +
             "; " + differs +
             " (an option only fastchess has, such as -output format=fastchess, "
             "makes it a fastchess line)");
    } else if (!fastchess_marks_.empty() && !cutechess_marks_.empty()) {
      note("read as a fastchess command line (" + fastchess_marks_.front() +
           "), although cutechess-cli's " + cutechess_marks_.front() +
           " is there too: fastchess's games, SPRT and output");
    }
  }

  const std::vector<std::string>& args_;
  std::size_t pos_ = 0;
  PlayCommand out_;
  std::vector<std::vector<std::string>> engine_words_;
  std::vector<std::string> each_words_;
  std::vector<std::string> event_words_;
  std::optional<int> games_, rounds_, repeat_;
  std::optional<int> fast_games_;  // fastchess: -games and -repeat N set the same number
  std::vector<std::string> fastchess_marks_, cutechess_marks_;  // what says whose line it is
  std::vector<std::string> given_;  // "-flag" and "-flag word" as they came
  std::string opening_policy_ = "default";
};

}  // namespace

bool play_flag_parsed_by_code(std::string_view flag) {
  return FlagParser::handles(flag);
}

std::string play_tournament_name(const std::string& identity) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : identity) {
    h ^= ch;
    h *= 0x100000001b3ULL;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "play-%012llx",
                static_cast<unsigned long long>(h & 0xffffffffffffULL));
  return buf;
}

std::expected<PlayCommand, ConfigError> parse_play_flags(const std::vector<std::string>& args) {
  PlayCommand command;
  try {
    command = FlagParser(args).parse();
  } catch (const Failure& f) {
    return std::unexpected(f.error);
  }
  Config& config = command.config;
  add_variant_options(config);
  // The match is what defines its games, not this command line's other words: the same
  // match with another concurrency, database or PGN file resumes, and a password in a
  // database URL is in neither its name nor its stored text.
  config.source_text = match_identity(config);
  if (!command.named) config.tournament.name = play_tournament_name(config.source_text);
  if (auto problem = validate_config(config)) {
    problem->key = flag_for(problem->key);
    return std::unexpected(*problem);
  }
  resolve_config_paths(config, "");
  return command;
}

}  // namespace knightly::runner
