#include "runner/config/play_flags.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

#include "engine/base/int_text.h"
#include "runner/config/closest_name.h"
#include "runner/config/config_paths.h"
#include "runner/config/config_validate.h"
#include "runner/config/engine_source.h"
#include "runner/config/match_schema.h"
#include "runner/config/play_flag_parser.h"
#include "runner/config/variant.h"

namespace knightly::runner {
namespace play {

[[noreturn]] void fail(const std::string& flag, const std::string& message) {
  ConfigError e;
  e.key = flag;
  e.message = message;
  throw Failure{e};
}

namespace {

std::pair<std::string, std::string> split_pair(const std::string& flag, const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0) fail(flag, "expected key=value, got '" + word + "'");
  return {word.substr(0, eq), word.substr(eq + 1)};
}

// "3,5,7-11,13" as fastchess's -use-affinity takes it.
std::vector<int> cpu_list(const std::string& flag, const std::string& text) {
  auto cpu = [&](const std::string& item) {
    const auto v = base::parse_int("CPUS", item, 0, 4095);
    if (!v) fail(flag, v.error());
    return static_cast<int>(*v);
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

}  // namespace

PlayCommand FlagParser::parse() {
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

const std::map<std::string, FlagParser::Handler, std::less<>>& FlagParser::handlers() {
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

bool FlagParser::is_flag(const std::string& s) {
  return s.size() > 1 && s[0] == '-' && !(s[1] >= '0' && s[1] <= '9') && s[1] != '.';
}

std::vector<std::string> FlagParser::words() {
  std::vector<std::string> out;
  while (pos_ < args_.size() && !is_flag(args_[pos_])) out.push_back(args_[pos_++]);
  return out;
}

std::string FlagParser::value(const std::string& flag) {
  if (pos_ >= args_.size() || is_flag(args_[pos_])) fail(flag, "needs a value");
  return args_[pos_++];
}

std::optional<std::string> FlagParser::optional_value() {
  if (pos_ < args_.size() && !is_flag(args_[pos_])) return args_[pos_++];
  return std::nullopt;
}

void FlagParser::no_value(const std::string& flag) {
  if (pos_ < args_.size() && !is_flag(args_[pos_]))
    fail(flag, "takes no value, got '" + args_[pos_] + "'");
}

void FlagParser::mark(Dialect d, const std::string& what) {
  auto& list = d == Dialect::Fastchess ? fastchess_marks_ : cutechess_marks_;
  if (std::find(list.begin(), list.end(), what) == list.end()) list.push_back(what);
}

void FlagParser::mark(const MatchKey& k, const std::string& what) {
  if (auto d = only_in(k)) mark(*d, what);
}

void FlagParser::set(const std::string& where, const MatchKey& k, const std::string& text) {
  auto v = parse_value(k, text);
  if (!v) fail(where, (k.word.empty() ? "" : std::string(k.word) + ": ") + v.error());
  if (k.apply) k.apply(out_.config, *v);
}

void FlagParser::pairs(const std::string& flag, const std::vector<std::string>& ws) {
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

bool FlagParser::given(const std::string& what) const {
  return std::find(given_.begin(), given_.end(), what) != given_.end();
}

void FlagParser::option(const std::string& flag) {
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

void FlagParser::note(const std::string& text) {
  if (std::find(out_.notes.begin(), out_.notes.end(), text) == out_.notes.end())
    out_.notes.push_back(text);
}

void FlagParser::engine(const std::string& flag) {
  auto w = words();
  if (w.empty()) fail(flag, "needs cmd=PATH or builtin=NAME");
  engine_words_.push_back(join_option_names(w));
}

void FlagParser::each(const std::string& flag) {
  auto w = words();
  if (w.empty()) fail(flag, "needs key=value words");
  for (auto& word : join_option_names(w)) each_words_.push_back(word);
}

int FlagParser::count(const std::string& flag, const std::string& text) {
  auto v = parse_value(*key_by_toml("tournament.games"), text);
  if (!v) fail(flag, v.error());
  return static_cast<int>(std::get<std::int64_t>(*v));
}

void FlagParser::games(const std::string& flag) {
  games_ = count(flag, value(flag));
  fast_games_ = *games_;
}

void FlagParser::rounds(const std::string& flag) {
  rounds_ = count(flag, value(flag));
}

void FlagParser::repeat(const std::string& flag) {
  auto n = optional_value();
  repeat_ = n ? count(flag, *n) : 2;
  if (*repeat_ > 2)
    fail(flag, std::to_string(*repeat_) +
                   ": an opening is shared by a pair of games (-repeat or -repeat 2); more "
                   "repetitions of one opening are not supported");
  fast_games_ = *repeat_;
}

void FlagParser::tournament(const std::string& flag) {
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

void FlagParser::event(const std::string& flag) {
  event_words_ = words();
  if (event_words_.empty()) fail(flag, "needs a name");
}

void FlagParser::pgnout(const std::string& flag) {
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

void FlagParser::epdout(const std::string& flag) {
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

void FlagParser::log(const std::string& flag) {
  auto w = words();
  pairs(flag, w);
  for (const auto& word : w)
    if (word == "compress=true") fail(flag, "compress=true: compressed logs are not supported");
  if (out_.config.output.log_file.empty()) fail(flag, "needs file=F");
}

void FlagParser::config_option(const std::string& flag) {
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

void FlagParser::quick(const std::string& flag) {
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

void FlagParser::openings(const std::string& flag) {
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

void FlagParser::draw(const std::string& flag) {
  out_.config.tournament.adjudication.draw = {true, 0, 1, 0};
  pairs(flag, words());
  if (!given(flag + " score")) fail(flag, "needs score=S (and movenumber=N movecount=M)");
}

void FlagParser::resign(const std::string& flag) {
  out_.config.tournament.adjudication.resign = {true, 1, 0, false};
  pairs(flag, words());
  if (!given(flag + " score")) fail(flag, "needs score=S (and movecount=K)");
}

void FlagParser::affinity(const std::string&) {
  auto& t = out_.config.tournament;
  t.affinity = true;
  if (auto list = optional_value()) t.affinity_cpus = cpu_list("-use-affinity", *list);
}

}  // namespace play

bool play_flag_parsed_by_code(std::string_view flag) {
  return play::FlagParser::handles(flag);
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
    command = play::FlagParser(args).parse();
  } catch (const play::Failure& f) {
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
    problem->key = play::flag_for(problem->key);
    return std::unexpected(*problem);
  }
  resolve_config_paths(config, "");
  return command;
}

}  // namespace knightly::runner
