#pragma once
// The reader of `knightly play`'s command line (play_flags.h), in two files: play_flags.cpp
// reads the options one by one into the Config, noting which tool each option or form says
// the line is from; play_dialect.cpp then reads the line as a whole with that tool's meaning
// (the games, the SPRT's model, the output and report, the PGN event, the engines' names).
// Internal to runner/config.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/config_error.h"
#include "runner/config/match_schema.h"
#include "runner/config/play_flags.h"

namespace knightly::runner::play {

// Thrown inside the reader only and turned into a value at parse_play_flags.
struct Failure {
  ConfigError error;
};

[[noreturn]] void fail(const std::string& flag, const std::string& message);

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

class FlagParser {
 public:
  explicit FlagParser(const std::vector<std::string>& args) : args_(args) {}
  PlayCommand parse();

 private:
  using Handler = void (FlagParser::*)(const std::string& flag);
  // The options whose value is not one word of the row's type: fastchess's addOption table
  // gives every option its parse function; here the schema's rows give the rest.
  static const std::map<std::string, Handler, std::less<>>& handlers();

 public:
  // Every option the schema marks as parsed by code of its own has a handler (a test checks).
  static bool handles(std::string_view flag) { return handlers().contains(flag); }

 private:
  static bool is_flag(const std::string& s);
  // The words up to the next flag.
  std::vector<std::string> words();
  std::string value(const std::string& flag);
  std::optional<std::string> optional_value();
  void no_value(const std::string& flag);
  void mark(Dialect d, const std::string& what);
  void mark(const MatchKey& k, const std::string& what);
  // One value of a row, set into the config.
  void set(const std::string& where, const MatchKey& k, const std::string& text);
  // key=value words of `flag`, each set by the schema's row of that word.
  void pairs(const std::string& flag, const std::vector<std::string>& ws);
  bool given(const std::string& what) const;
  void option(const std::string& flag);
  void note(const std::string& text);

  // ---------------------------------------------------------------- the custom options

  void engine(const std::string& flag);
  void each(const std::string& flag);
  int count(const std::string& flag, const std::string& text);
  // -games, -rounds and -repeat mean different things in the two tools: kept as given and read
  // in finish(), once the line's tool is known.
  void games(const std::string& flag);
  void rounds(const std::string& flag);
  void repeat(const std::string& flag);
  // cutechess: round-robin | gauntlet | knockout | pyramid; fastchess: roundrobin | gauntlet.
  void tournament(const std::string& flag);
  // cutechess: one word; fastchess: the words joined (as its concat does).
  void event(const std::string& flag);
  // fastchess: -pgnout [file=F] [notation=] [nodes=] ... ; cutechess: -pgnout F [min] [fi].
  void pgnout(const std::string& flag);
  void epdout(const std::string& flag);
  void log(const std::string& flag);
  void config_option(const std::string& flag);
  // fastchess's -quick cmd=A cmd=B book=F: its preset for a quick two-engine match.
  void quick(const std::string& flag);
  void openings(const std::string& flag);
  // cutechess requires every key; missing ones take fastchess's defaults.
  void draw(const std::string& flag);
  void resign(const std::string& flag);
  void affinity(const std::string&);

  // ---------------------------------------------------------------- the line as a whole

  Dialect dialect() const;
  // -games, -rounds and -repeat as each tool reads them.
  Games games_of(Dialect d) const;
  stats::EloModel model_of(Dialect d) const;
  void finish();

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

}  // namespace knightly::runner::play
