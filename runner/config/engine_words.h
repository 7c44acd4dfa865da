#pragma once
// The key=value words that describe one engine, as `-engine` and `-each` of `knightly play` take
// them (cutechess-cli's and fastchess's keys) and as a SPEC of `knightly sprt --new/--base`
// gives them in one string. Pure: no file is looked at here.
//
//   cmd=PATH  name=NAME  arg=ARG (one argument, repeatable)  args="A B" (split like a shell)
//   dir=DIR  env.NAME=VALUE  option.NAME=VALUE  proto=uci|xboard  tc=TC  st=S  depth=N | plies=N
//   nodes=N  timemargin=MS  restart=on|off|auto  builtin=NAME  ponder
// (each key is a row of the match schema, match_schema.h, which also names the keys refused)
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/config.h"
#include "runner/config/config_error.h"

namespace knightly::runner {

// Splits `text` into words as a POSIX shell does: blanks separate words, '...' quotes
// literally, "..." quotes with \" \\ \$ \` escapes, a backslash outside quotes escapes the next
// character. An unterminated quote is an error.
std::expected<std::vector<std::string>, std::string> split_words(std::string_view text);

// Rejoins what a shell split at the spaces of an option name: "option.Skill" "Level=3" becomes
// "option.Skill Level=3" (a word that starts with "option." and has no '=' yet continues in the
// next word).
std::vector<std::string> join_option_names(const std::vector<std::string>& words);

// Applies one word to `e`; an error message (naming the key) when the word is not valid.
// cmd= with a blank is a command line split like a shell ("java -jar e.jar", cutechess's
// meaning) unless a file of that name exists (fastchess's path with spaces): the one look at
// the file system here.
// Later words override earlier ones, except that st (a fixed time per move) and tc=inf (no
// clock) combine in either order; st with a real clock is an error.
std::optional<std::string> apply_engine_word(std::string_view word, EngineConfig& e);

// The name an engine gets when none was given: its builtin name or its program's file name.
void default_engine_name(EngineConfig& e);

// `knightly sprt --new SPEC`: a bare path ("./engine", quoted or with its spaces), or words as
// `-engine` takes them in one string, quoted as in a shell where a value has spaces
// ("cmd=stockfish option.Skill Level=3", "cmd='/opt/my engines/sf' option.Hash=16").
// A word without '=' after a key=value word continues that value ("option.Book=my book.bin").
std::expected<EngineConfig, ConfigError> parse_engine_spec(std::string_view spec);

}  // namespace knightly::runner
