#include "runner/config/play_flags.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <thread>

#include "runner/config/closest_name.h"
#include "runner/config/config_paths.h"
#include "runner/config/config_validate.h"
#include "runner/config/engine_source.h"
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

std::int64_t to_int(const std::string& flag, const std::string& key, const std::string& text,
                    std::int64_t min, std::int64_t max = INT32_MAX) {
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string what = key.empty() ? "" : key + ": ";
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    fail(flag, what + "'" + text + "' is not an integer");
  if (value < min || value > max)
    fail(flag, what + "value " + text + " is out of range [" + std::to_string(min) + ", " +
                   std::to_string(max) + "]");
  return value;
}

double to_number(const std::string& flag, const std::string& key, const std::string& text) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    fail(flag, key + ": '" + text + "' is not a number");
  return value;
}

bool to_bool(const std::string& flag, const std::string& key, const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  fail(flag, key + ": expected true or false, got '" + text + "'");
}

std::pair<std::string, std::string> split_pair(const std::string& flag, const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0) fail(flag, "expected key=value, got '" + word + "'");
  return {word.substr(0, eq), word.substr(eq + 1)};
}

[[noreturn]] void unknown_key(const std::string& flag, const std::string& key,
                              const std::vector<std::string>& keys) {
  fail(flag, "unknown key '" + key + "'" + suggestion_text(key, keys));
}

// "3,5,7-11,13" as fastchess's -use-affinity takes it.
std::vector<int> cpu_list(const std::string& flag, const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    const auto dash = item.find('-');
    if (dash == std::string::npos) {
      out.push_back(static_cast<int>(to_int(flag, "CPUS", item, 0, 4095)));
    } else {
      const auto lo = to_int(flag, "CPUS", item.substr(0, dash), 0, 4095);
      const auto hi = to_int(flag, "CPUS", item.substr(dash + 1), 0, 4095);
      if (hi < lo) fail(flag, "CPUS: range '" + item + "' runs backwards");
      for (auto c = lo; c <= hi; ++c) out.push_back(static_cast<int>(c));
    }
    start = comma + 1;
  }
  return out;
}

// Where a validation error's key path points among the flags.
std::string flag_for(const std::string& key) {
  if (key.starts_with("engine[")) {
    const auto close = key.find(']');
    return "-engine #" + key.substr(7, close - 7);
  }
  static const std::vector<std::pair<std::string, std::string>> map = {
      {"engine", "-engine"},
      {"tournament.games", "-games"},
      {"tournament.rounds", "-rounds"},
      {"tournament.concurrency", "-concurrency"},
      {"tournament.format", "-tournament"},
      {"tournament.seeds", "-seeds"},
      {"tournament.variant", "-variant"},
      {"openings.dfrc", "-dfrc"},
      {"openings", "-openings"},
      {"adjudication.draw", "-draw"},
      {"adjudication.tablebase", "-tb"},
      {"adjudication.resign", "-resign"},
      {"adjudication.maxmoves", "-maxmoves"},
      {"sprt", "-sprt"},
      {"output.database", "-db"}};
  for (const auto& [prefix, flag] : map)
    if (key.starts_with(prefix)) return flag;
  return key;
}

// A word as a shell would need it quoted to give it back (for the stored command line).
std::string shell_quoted(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t\n'\"\\$`") == std::string::npos) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

const std::vector<std::string>& all_flags() {
  static const std::vector<std::string> flags = {"-engine",
                                                 "-each",
                                                 "-concurrency",
                                                 "-draw",
                                                 "-resign",
                                                 "-maxmoves",
                                                 "-tournament",
                                                 "-event",
                                                 "-site",
                                                 "-games",
                                                 "-rounds",
                                                 "-repeat",
                                                 "-sprt",
                                                 "-ratinginterval",
                                                 "-scoreinterval",
                                                 "-openings",
                                                 "-pgnout",
                                                 "-epdout",
                                                 "-recover",
                                                 "-noswap",
                                                 "-reverse",
                                                 "-srand",
                                                 "-wait",
                                                 "-seeds",
                                                 "-variant",
                                                 "-dfrc",
                                                 "-output",
                                                 "-report",
                                                 "-log",
                                                 "-use-affinity",
                                                 "-crc32",
                                                 "-quick",
                                                 "-config",
                                                 "-autosaveinterval",
                                                 "-testEnv",
                                                 "-force-concurrency",
                                                 "-db",
                                                 "-startup-ms",
                                                 "-ucinewgame-ms",
                                                 "-ping-ms",
                                                 "-tb",
                                                 "-tbpieces",
                                                 "-tbignore50",
                                                 "-tbadjudicate",
                                                 "-debug",
                                                 "-bookmode",
                                                 "-outcomeinterval",
                                                 "-resultformat",
                                                 "-show-latency"};
  return flags;
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

  // Marks the command line as fastchess's (its output format becomes the default).
  void fastchess(const std::string& why) {
    if (fastchess_syntax_.empty()) fastchess_syntax_ = why;
  }

  void option(const std::string& flag) {
    Config& c = out_.config;
    auto& t = c.tournament;
    if (flag == "-engine") {
      auto w = words();
      if (w.empty()) fail(flag, "needs cmd=PATH or builtin=NAME");
      engine_words_.push_back(join_option_names(w));
    } else if (flag == "-each") {
      auto w = words();
      if (w.empty()) fail(flag, "needs key=value words");
      for (auto& word : join_option_names(w)) each_words_.push_back(word);
    } else if (flag == "-concurrency") {
      t.concurrency = static_cast<int>(to_int(flag, "", value(flag), 1, 1024));
    } else if (flag == "-games") {
      games_ = static_cast<int>(to_int(flag, "", value(flag), 1));
    } else if (flag == "-rounds") {
      rounds_ = static_cast<int>(to_int(flag, "", value(flag), 1));
    } else if (flag == "-repeat") {
      auto n = optional_value();
      repeat_ = n ? static_cast<int>(to_int(flag, "", *n, 1)) : 2;
      if (*repeat_ > 2)
        fail(flag, std::to_string(*repeat_) +
                       ": an opening is shared by a pair of games (-repeat or -repeat 2); more "
                       "repetitions of one opening are not supported");
    } else if (flag == "-srand") {
      t.seed = static_cast<std::uint64_t>(to_int(flag, "", value(flag), 0, INT64_MAX));
    } else if (flag == "-maxmoves") {
      t.adjudication.max_moves = static_cast<int>(to_int(flag, "", value(flag), 0));
    } else if (flag == "-seeds") {
      t.seeds = static_cast<int>(to_int(flag, "", value(flag), 1));
    } else if (flag == "-wait") {
      t.wait_ms = static_cast<int>(to_int(flag, "", value(flag), 0, 3'600'000));
    } else if (flag == "-event") {
      auto w = words();
      if (w.empty()) fail(flag, "needs a name");
      for (const auto& word : w) c.output.event += (c.output.event.empty() ? "" : " ") + word;
    } else if (flag == "-site") {
      c.output.site = value(flag);
    } else if (flag == "-tournament") {
      tournament(flag, value(flag));
    } else if (flag == "--tournament") {
      name(flag, value(flag));  // Knightly's own spelling: always a name
    } else if (flag == "-db") {
      c.output.database = value(flag);
    } else if (flag == "-recover") {
      no_value(flag);
      t.recover = true;
    } else if (flag == "-noswap") {
      no_value(flag);
      t.swap_sides = false;
    } else if (flag == "-reverse") {
      no_value(flag);
      t.reverse_sides = true;
    } else if (flag == "-variant") {
      variant(flag, value(flag));
    } else if (flag == "-dfrc") {
      no_value(flag);
      c.openings.dfrc = true;
    } else if (flag == "-pgnout") {
      pgnout(flag);
    } else if (flag == "-epdout") {
      epdout(flag);
    } else if (flag == "-openings") {
      openings(flag);
    } else if (flag == "-draw") {
      draw(flag);
    } else if (flag == "-resign") {
      resign(flag);
    } else if (flag == "-sprt") {
      sprt(flag);
    } else if (flag == "-ratinginterval") {
      c.output.rating_interval = static_cast<int>(to_int(flag, "", value(flag), 0));
      rating_interval_given_ = true;
    } else if (flag == "-scoreinterval") {
      fastchess(flag);
      c.output.score_interval = static_cast<int>(to_int(flag, "", value(flag), 0));
      score_interval_given_ = true;
    } else if (flag == "-output") {
      fastchess(flag);
      output(flag);
    } else if (flag == "-report") {
      fastchess(flag);
      for (const auto& w : words()) {
        const auto [key, v] = split_pair(flag, w);
        if (key != "penta") unknown_key(flag, key, {"penta"});
        c.output.report_penta = to_bool(flag, key, v);
      }
    } else if (flag == "-log") {
      fastchess(flag);
      log(flag);
    } else if (flag == "-use-affinity") {
      fastchess(flag);
      t.affinity = true;
      if (auto list = optional_value()) t.affinity_cpus = cpu_list(flag, *list);
    } else if (flag == "-crc32") {
      fastchess(flag);
      for (const auto& w : words()) {
        const auto [key, v] = split_pair(flag, w);
        if (key != "pgn") unknown_key(flag, key, {"pgn"});
        c.output.crc32 = to_bool(flag, key, v);
      }
    } else if (flag == "-quick") {
      fastchess(flag);
      quick(flag);
    } else if (flag == "-config") {
      fastchess(flag);
      config_option(flag);
    } else if (flag == "-autosaveinterval") {
      fastchess(flag);
      to_int(flag, "", value(flag), 0);
      note("-autosaveinterval: no effect; every game is stored in the database as it ends");
    } else if (flag == "-testEnv") {
      fastchess(flag);
      no_value(flag);
    } else if (flag == "-force-concurrency") {
      fastchess(flag);
      no_value(flag);
    } else if (flag == "-startup-ms") {
      t.timeouts.startup_ms = to_int(flag, "", value(flag), 1, 3'600'000);
    } else if (flag == "-ucinewgame-ms") {
      t.timeouts.ucinewgame_ms = to_int(flag, "", value(flag), 1, 3'600'000);
    } else if (flag == "-ping-ms") {
      t.timeouts.ping_ms = to_int(flag, "", value(flag), 1, 3'600'000);
    } else if (flag == "-tb") {
      auto& tb = t.adjudication.tablebase;
      tb.enabled = true;
      tb.path = value(flag);
      if (tb.path.empty()) fail(flag, "needs the tables' directory");
    } else if (flag == "-tbpieces") {
      t.adjudication.tablebase.max_pieces = static_cast<int>(to_int(flag, "", value(flag), 3, 32));
      tb_option_ = flag;
    } else if (flag == "-tbignore50") {
      no_value(flag);
      t.adjudication.tablebase.ignore_50 = true;
      tb_option_ = flag;
    } else if (flag == "-tbadjudicate") {
      const std::string v = value(flag);
      if (v != "WIN_LOSS" && v != "DRAW" && v != "BOTH")
        fail(flag, "'" + v + "' (WIN_LOSS, DRAW or BOTH)" +
                       suggestion_text(v, {"WIN_LOSS", "DRAW", "BOTH"}));
      t.adjudication.tablebase.win_loss = v != "DRAW";
      t.adjudication.tablebase.draw = v != "WIN_LOSS";
      tb_option_ = flag;
    } else if (flag == "-debug") {
      fail(flag,
           "not supported; -log file=FILE engine=true writes every line to and from "
           "each engine (or --log-dir DIR, one file per engine)");
    } else if (flag == "-bookmode") {
      const std::string mode = value(flag);
      if (mode != "ram" && mode != "disk") fail(flag, "'" + mode + "' (ram or disk)");
      note("-bookmode: no effect; a Polyglot book (-openings file=F.bin) is read into memory");
    } else if (flag == "-outcomeinterval" || flag == "-resultformat") {
      fail(flag,
           "not supported; `knightly query terminations` and `knightly query standings` "
           "give these figures");
    } else if (flag == "-show-latency") {
      fail(flag, "not supported; -pgnout ... latency=true writes each move's latency");
    } else if (flag == "-version" || flag == "-help" || flag == "-engines") {
      fail(flag, "not an option of a match; see `knightly --help`");
    } else {
      fail(flag, "unknown option" + suggestion_text(flag, all_flags()));
    }
  }

  void note(const std::string& text) {
    if (std::find(out_.notes.begin(), out_.notes.end(), text) == out_.notes.end())
      out_.notes.push_back(text);
  }

  void name(const std::string& flag, const std::string& text) {
    if (text.empty()) fail(flag, "the tournament name must not be empty");
    out_.config.tournament.name = text;
    out_.named = true;
  }

  // cutechess: round-robin | gauntlet | knockout | pyramid; fastchess: roundrobin | gauntlet.
  // Any other word names the tournament (as --tournament NAME).
  void tournament(const std::string& flag, const std::string& text) {
    auto& t = out_.config.tournament;
    if (text == "round-robin" || text == "roundrobin") {
      if (text == "roundrobin") fastchess(flag + " roundrobin");
      t.format = "round-robin";
    } else if (text == "gauntlet") {
      t.format = "gauntlet";
    } else if (text == "knockout" || text == "pyramid") {
      fail(flag, "'" + text + "' tournaments are not supported (round-robin or gauntlet)");
    } else if (auto near = closest_name(
                   text, {"round-robin", "roundrobin", "gauntlet", "knockout", "pyramid"})) {
      fail(flag,
           "'" + text + "': did you mean '" + *near + "'? (any other word names the tournament)");
    } else {
      name(flag, text);
    }
  }

  void variant(const std::string& flag, const std::string& text) {
    if (text == VariantStandard || text == VariantFischerandom) {
      out_.config.tournament.variant = text;
      return;
    }
    fail(flag, "variant '" + text + "' is not supported (standard or fischerandom)" +
                   suggestion_text(text, variant_names()));
  }

  void output(const std::string& flag) {
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key != "format") unknown_key(flag, key, {"format"});
      if (v != "cutechess" && v != "fastchess")
        fail(flag, "format: '" + v + "' (cutechess or fastchess)" +
                       suggestion_text(v, {"cutechess", "fastchess"}));
      out_.config.output.format = v;
    }
  }

  // fastchess: -pgnout file=F [notation=] [nodes=] ... ; cutechess: -pgnout F [min] [fi].
  void pgnout(const std::string& flag) {
    auto w = words();
    auto& o = out_.config.output;
    if (w.empty()) fail(flag, "needs a file (file=F, or F as cutechess-cli takes it)");
    const bool pairs = std::any_of(
        w.begin(), w.end(), [](const std::string& s) { return s.find('=') != std::string::npos; });
    if (!pairs) {
      o.pgn = w[0];
      for (std::size_t i = 1; i < w.size(); ++i) {
        if (w[i] == "min")
          o.pgn_options.min = true;
        else if (w[i] == "fi")
          continue;  // finished games only: Knightly never writes an unfinished game
        else
          fail(flag, "unexpected word '" + w[i] + "' (min or fi after the file name)");
      }
      return;
    }
    fastchess(flag + " file=");
    static const std::vector<std::string> keys = {"file",    "notation", "nodes",  "seldepth",
                                                  "nps",     "hashfull", "tbhits", "timeleft",
                                                  "latency", "min",      "append", "match_line"};
    auto& p = o.pgn_options;
    for (const auto& word : w) {
      const auto [key, v] = split_pair(flag, word);
      if (key == "file") {
        o.pgn = v;
      } else if (key == "notation") {
        if (v == "san")
          p.notation = PgnNotation::San;
        else if (v == "lan")
          p.notation = PgnNotation::Lan;
        else if (v == "uci")
          p.notation = PgnNotation::Uci;
        else
          fail(flag, "notation: '" + v + "' (san, lan or uci)");
      } else if (key == "nodes") {
        p.nodes = to_bool(flag, key, v);
      } else if (key == "seldepth") {
        p.seldepth = to_bool(flag, key, v);
      } else if (key == "nps") {
        p.nps = to_bool(flag, key, v);
      } else if (key == "hashfull") {
        p.hashfull = to_bool(flag, key, v);
      } else if (key == "tbhits") {
        p.tbhits = to_bool(flag, key, v);
      } else if (key == "timeleft") {
        p.timeleft = to_bool(flag, key, v);
      } else if (key == "latency") {
        p.latency = to_bool(flag, key, v);
      } else if (key == "min") {
        p.min = to_bool(flag, key, v);
      } else if (key == "append") {
        o.pgn_append = to_bool(flag, key, v);
      } else if (key == "match_line") {
        fail(flag, "match_line= (engine output lines in the PGN) is not supported");
      } else {
        unknown_key(flag, key, keys);
      }
    }
    if (o.pgn.empty()) fail(flag, "needs file=F");
  }

  void epdout(const std::string& flag) {
    auto w = words();
    auto& o = out_.config.output;
    if (w.size() != 1) fail(flag, "needs one file (file=F, or F as cutechess-cli takes it)");
    if (w[0].starts_with("file=")) {
      fastchess(flag + " file=");
      o.epd = w[0].substr(5);
    } else if (w[0].find('=') != std::string::npos) {
      unknown_key(flag, split_pair(flag, w[0]).first, {"file"});
    } else {
      o.epd = w[0];
    }
    if (o.epd.empty()) fail(flag, "the file name is empty");
  }

  void log(const std::string& flag) {
    auto& o = out_.config.output;
    static const std::vector<std::string> keys = {"file",     "level",  "compress",
                                                  "realtime", "engine", "append"};
    bool append = true;
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "file") {
        o.log_file = v;
      } else if (key == "level") {
        static const std::vector<std::string> levels = {"trace", "info", "warn", "err", "fatal"};
        if (std::find(levels.begin(), levels.end(), v) == levels.end())
          fail(flag, "level: '" + v + "'" + suggestion_text(v, levels));
      } else if (key == "compress") {
        if (to_bool(flag, key, v)) fail(flag, "compress=true: compressed logs are not supported");
      } else if (key == "realtime") {
        to_bool(flag, key, v);  // lines are always written as they happen
      } else if (key == "engine") {
        o.log_engine = to_bool(flag, key, v);
      } else if (key == "append") {
        append = to_bool(flag, key, v);
      } else {
        unknown_key(flag, key, keys);
      }
    }
    if (o.log_file.empty()) fail(flag, "needs file=F");
    o.log_append = append;
  }

  void config_option(const std::string& flag) {
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "file")
        fail(flag,
             "file=: fastchess's saved state is not read; Knightly resumes a match from "
             "its database when the same command is run again");
      if (key != "outname" && key != "discard" && key != "stats")
        unknown_key(flag, key, {"file", "outname", "discard", "stats"});
    }
    note(
        "-config: no effect; the database holds the match's state (run the same command "
        "again to resume it)");
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
        c.openings.order = "random";
        if (v.ends_with(".pgn"))
          c.openings.format = "pgn";
        else if (v.ends_with(".epd"))
          c.openings.format = "epd";
        else
          fail(flag, "book: '" + v + "' needs a .epd or .pgn extension");
      } else {
        unknown_key(flag, key, {"cmd", "book"});
      }
    }
    if (commands.size() != 2) fail(flag, "needs cmd=ENGINE1 cmd=ENGINE2");
    for (std::size_t i = 0; i < 2; ++i) {
      std::string name = commands[i];
      if (commands[0] == commands[1]) name += std::to_string(i + 1);
      engine_words_.push_back({"cmd=" + commands[i], "name=" + name, "tc=10+0.1"});
    }
    games_ = 2;
    rounds_ = 25000;
    const int hw = static_cast<int>(std::thread::hardware_concurrency());
    c.tournament.concurrency = std::max(1, hw - 2);
    c.tournament.recover = true;
    c.tournament.adjudication.draw = {true, 30, 8, 8};
    if (c.output.format.empty()) c.output.format = "cutechess";
  }

  void openings(const std::string& flag) {
    auto& o = out_.config.openings;
    o.order = "sequential";  // both tools' default
    bool format_given = false;
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "file") {
        o.file = v;
      } else if (key == "format") {
        if (v != "epd" && v != "pgn" && v != "bin")
          fail(flag, "format: '" + v + "' (epd, pgn or bin)");
        o.format = v;
        format_given = true;
      } else if (key == "order") {
        if (v != "random" && v != "sequential")
          fail(flag, "order: '" + v + "'" + suggestion_text(v, {"random", "sequential"}));
        o.order = v;
      } else if (key == "plies") {
        o.plies = static_cast<int>(to_int(flag, key, v, 0));
      } else if (key == "start") {
        o.start = static_cast<int>(to_int(flag, key, v, 1));
      } else if (key == "random_plies") {
        o.random_plies = static_cast<int>(to_int(flag, key, v, 0, 200));
      } else if (key == "policy") {
        if (v != "default" && v != "round")
          fail(flag,
               "policy: '" + v + "' is not supported; a new opening for every game pair (default)");
        opening_policy_ = v;
      } else {
        unknown_key(flag, key,
                    {"file", "format", "order", "plies", "start", "policy", "random_plies"});
      }
    }
    if (o.file.empty()) fail(flag, "needs file=F");
    if (!format_given) {
      if (o.file.ends_with(".pgn"))
        o.format = "pgn";
      else if (o.file.ends_with(".epd"))
        o.format = "epd";
      else if (o.file.ends_with(".bin"))
        o.format = "bin";
      else
        fail(flag, "give format=epd, format=pgn or format=bin for '" + o.file + "'");
    }
  }

  // cutechess requires every key; missing ones take fastchess's defaults.
  void draw(const std::string& flag) {
    auto& d = out_.config.tournament.adjudication.draw;
    d.enabled = true;
    d.move_count = 1;
    bool score = false;
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "movenumber") {
        d.move_number = static_cast<int>(to_int(flag, key, v, 0));
      } else if (key == "movecount") {
        d.move_count = static_cast<int>(to_int(flag, key, v, 1));
      } else if (key == "score") {
        d.score_cp = static_cast<int>(to_int(flag, key, v, 0));
        score = true;
      } else {
        unknown_key(flag, key, {"movenumber", "movecount", "score"});
      }
    }
    if (!score) fail(flag, "needs score=S (and movenumber=N movecount=M)");
  }

  void resign(const std::string& flag) {
    auto& r = out_.config.tournament.adjudication.resign;
    r.enabled = true;
    r.move_count = 1;
    bool score = false;
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "movecount") {
        r.move_count = static_cast<int>(to_int(flag, key, v, 1));
      } else if (key == "score") {
        r.score_cp = static_cast<int>(to_int(flag, key, v, 1));
        score = true;
      } else if (key == "twosided") {
        r.two_sided = to_bool(flag, key, v);
      } else {
        unknown_key(flag, key, {"movecount", "score", "twosided"});
      }
    }
    if (!score) fail(flag, "needs score=S (and movecount=K)");
  }

  void sprt(const std::string& flag) {
    auto& s = out_.config.sprt;
    s.enabled = true;
    for (const auto& w : words()) {
      const auto [key, v] = split_pair(flag, w);
      if (key == "elo0") {
        s.elo0 = to_number(flag, key, v);
      } else if (key == "elo1") {
        s.elo1 = to_number(flag, key, v);
      } else if (key == "alpha") {
        s.alpha = to_number(flag, key, v);
      } else if (key == "beta") {
        s.beta = to_number(flag, key, v);
      } else if (key == "model") {
        if (v == "bayesian") fail(flag, "model=bayesian is not supported (normalized or logistic)");
        if (v != "normalized" && v != "logistic")
          fail(flag, "model: '" + v + "'" + suggestion_text(v, {"normalized", "logistic"}));
        s.model = v;
      } else {
        unknown_key(flag, key, {"elo0", "elo1", "alpha", "beta", "model"});
      }
    }
  }

  void finish() {
    Config& c = out_.config;
    auto& t = c.tournament;
    if (!tb_option_.empty() && !t.adjudication.tablebase.enabled)
      fail(tb_option_, "needs -tb PATH (the Syzygy tables' directory)");
    for (std::size_t i = 0; i < engine_words_.size(); ++i) {
      const std::string flag = "-engine #" + std::to_string(i + 1);
      EngineConfig e;
      for (const auto& w : engine_words_[i]) {
        if (w.starts_with("args=") || w.starts_with("plies="))
          fastchess(w.substr(0, w.find('=') + 1));
        if (auto problem = apply_engine_word(w, e)) fail(flag, *problem);
      }
      // As both tools do, -each is applied after the engine's own words and overrides them.
      for (const auto& w : each_words_) {
        if (w.starts_with("args=") || w.starts_with("plies="))
          fastchess(w.substr(0, w.find('=') + 1));
        if (auto problem = apply_engine_word(w, e)) fail("-each", *problem);
      }
      default_engine_name(e);
      if (auto problem = check_engine_source(e)) fail(flag, *problem);
      c.engines.push_back(std::move(e));
    }

    // -games, -rounds, -repeat: fastchess's -repeat (a pair of games per opening), cutechess's
    // -games N > 2 (N games per encounter) and defaults (one game, one round).
    t.rounds = rounds_.value_or(1);
    t.repeat = repeat_.value_or(1) == 2;
    t.games_per_encounter = games_ ? *games_ : repeat_ ? *repeat_ : 1;
    if (games_ && *games_ > 2)
      note("-games " + std::to_string(*games_) + ": " + std::to_string(*games_) +
           " games per encounter and round, as cutechess-cli plays them (fastchess takes it as "
           "-rounds " +
           std::to_string(*games_) + ")");
    if (rounds_ && !games_ && !repeat_)
      note("-rounds " + std::to_string(*rounds_) +
           " without -games or -repeat: one game per round, as cutechess-cli plays them "
           "(fastchess plays two; add -repeat for game pairs)");
    if (t.repeat && t.games_per_encounter % 2 == 1)
      note("-repeat with " + std::to_string(t.games_per_encounter) +
           " game(s) per encounter: the last game of each encounter has no partner");
    if (opening_policy_ == "round" && (engine_words_.size() > 2 || t.games_per_encounter > 2))
      fail("-openings",
           "policy=round: one opening for a whole round of several encounters is "
           "not supported; Knightly gives every game pair its own opening");

    auto& o = c.output;
    if (o.format.empty()) {
      o.format = fastchess_syntax_.empty() ? "cutechess" : "fastchess";
      if (!fastchess_syntax_.empty())
        note("fastchess's " + fastchess_syntax_ +
             " in the command line: fastchess's output (-output format=cutechess for "
             "cutechess-cli's)");
    }
    if (!rating_interval_given_) o.rating_interval = o.format == "fastchess" ? 10 : 0;
    if (!score_interval_given_) o.score_interval = 1;
  }

  const std::vector<std::string>& args_;
  std::size_t pos_ = 0;
  PlayCommand out_;
  std::vector<std::vector<std::string>> engine_words_;
  std::vector<std::string> each_words_;
  std::optional<int> games_, rounds_, repeat_;
  std::string fastchess_syntax_;  // the first fastchess-only construct seen, for the note
  std::string opening_policy_ = "default";
  std::string tb_option_;  // a -tb... option that needs -tb
  bool rating_interval_given_ = false;
  bool score_interval_given_ = false;
};

}  // namespace

std::string play_tournament_name(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : text) {
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
  std::string text = "knightly play";
  for (const auto& a : args) text += " " + shell_quoted(a);
  config.source_text = text;
  if (!command.named) config.tournament.name = play_tournament_name(text);
  add_variant_options(config);
  if (auto problem = validate_config(config)) {
    problem->key = flag_for(problem->key);
    return std::unexpected(*problem);
  }
  resolve_config_paths(config, "");
  return command;
}

}  // namespace knightly::runner
