#pragma once
// `knightly play`: the command lines of cutechess-cli and fastchess, option for option, parsed
// into the same Config as a TOML tournament. Every option, its type, range or choices and what
// each tool means by it is a row of the match schema (match_schema.h; docs/cli.md is written
// from it); an option Knightly does not support is an error naming it, never a silent
// difference. Errors name the flag ("-games: ...").
//
// Each tool keeps its own meaning. What the line is decides which: an option or form only
// fastchess has (`-pgnout file=`, `-report`, `-testEnv`, `args=`...) makes it a fastchess line,
// one only cutechess-cli has (`-pgnout FILE`, `-tournament round-robin`, `arg=`...) a
// cutechess-cli line, and a line with neither is read as cutechess-cli's, with one `Note:`
// saying so when fastchess would read it otherwise. The meanings that differ: the games
// (-games, -rounds, -repeat and their defaults), the SPRT's model (cutechess's BayesElo test,
// fastchess's normalized one), the output, the report from pairs, the PGN Event and the
// engines' default names.
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/config.h"
#include "runner/config/config_error.h"
#include "runner/config/engine_words.h"

namespace knightly::runner {

enum class Dialect { Cutechess, Fastchess };

struct PlayCommand {
  Config config;
  // What the user should know before the games start: which tool's meaning was read where
  // the line does not say, options accepted with no effect. One line each.
  std::vector<std::string> notes;
  Dialect dialect = Dialect::Cutechess;
  // True when --tournament NAME named the match: a later command with another match under
  // that name is refused, as for `knightly run`. Otherwise the match is named after what
  // defines its games (play_tournament_name of match_identity): the same match, whatever its
  // concurrency, database or output, resumes it.
  bool named = false;
  // -pgnout / -epdout without a file: fastchess's default name, fastchess_DATE_TIME.pgn/.epd,
  // which the caller writes from the clock (the parser reads none).
  bool pgn_default_name = false;
  bool epd_default_name = false;
};

// `args` are the words after `knightly play`, as the shell passed them.
std::expected<PlayCommand, ConfigError> parse_play_flags(const std::vector<std::string>& args);

// True for an option `knightly play` parses with code of its own (the schema's CustomFlag rows),
// false for one read from its schema row alone.
bool play_flag_parsed_by_code(std::string_view flag);

// The name an unnamed match gets: "play-" and 12 hex digits of a 64-bit FNV-1a hash of
// `identity` (match_identity(config): never the database or anything else outside the match).
std::string play_tournament_name(const std::string& identity);

}  // namespace knightly::runner
