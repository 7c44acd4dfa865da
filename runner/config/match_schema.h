#pragma once
// One schema of a match: every setting of a match (and every option of cutechess-cli and
// fastchess, supported or not) as one row: its TOML key, its type, range or choices, default,
// what it means, whether it defines the match's games, and how each front end spells it (the
// cutechess-cli and fastchess option, `knightly sprt`'s and Knightly's own `--flag`). The TOML
// parser (config_toml.cpp), the play flags (play_flags.cpp) and `knightly sprt` (cli) read
// their keys, types, ranges and choices from these rows, and the errors, `--help` and the
// option table of docs/cli.md are written from them, as fastchess's cli.cpp builds its parser
// and its help from one addOption table.
//
// A row whose value is not one scalar (an engine's words, -pgnout's two forms, the draw
// adjudication table) names the front ends that parse it with code of their own (`custom`);
// the row still gives its spellings, meaning and documentation.
#include <cstdint>
#include <expected>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "runner/config/config.h"

namespace knightly::runner {

enum class ValueType {
  Flag,      // an option without a value (-recover): true when present
  Integer,   // [min, max]
  Unsigned,  // a 64-bit seed, [0, 2^64 - 1]
  Number,    // a finite double; in [min, max] when max > min
  Boolean,   // true | false
  Text,      // any text (a path, a name)
  Choice,    // one word of `choices`
  Words,     // the option's own grammar (engine words, -pgnout ...): parsed by custom code
};

// How an anchor (cutechess-cli, fastchess) has the option, compared with Knightly.
enum class Support {
  Absent,   // the tool has no such option
  Same,     // the same meaning
  Differs,  // the option exists with another meaning or form: `note` says how
};

struct AnchorSpelling {
  Support support = Support::Absent;
  std::string_view note{};  // Differs: how; Same: "" or a detail
};

// What a setting is to the match.
enum class Role {
  Match,   // defines the games (its identity: a different value is a different match)
  Output,  // how this run plays, shows or stores them: another value resumes the same match
  Name,    // names the match
};

// Which front end parses a row with code of its own instead of from the row's type.
enum Custom : unsigned {
  CustomToml = 1,
  CustomFlag = 2,  // knightly play's handler for the flag
  CustomSprt = 4,  // knightly sprt's
};

// Which subcommands take a row's `knightly` spelling.
enum Command : unsigned {
  CommandRun = 1,
  CommandPlay = 2,
  CommandSprt = 4,
};

using Value = std::variant<std::monostate, std::int64_t, std::uint64_t, double, bool, std::string>;

struct MatchKey {
  // TOML: "tournament.concurrency" ("engine.command" for an [[engine]] key); "" = none.
  std::string_view toml{};
  // The option of both tools' command lines ("-concurrency"; "-sprt" with `word` "elo0" for
  // "-sprt elo0=X"); "" = neither tool has it (a Knightly key or `--flag` alone).
  std::string_view flag{};
  std::string_view word{};
  // Knightly's own spelling ("--concurrency") and the subcommands that take it.
  std::string_view knightly{};
  unsigned commands = 0;
  ValueType type = ValueType::Text;
  std::int64_t min = 0, max = 0;                           // Integer; Number when max > min
  const std::vector<std::string>& (*choices)() = nullptr;  // Choice
  std::string_view placeholder{};  // "N", "FILE"... in usage lines ("" = from the type)
  std::string_view fallback{};     // the default, as text ("" = none)
  std::string_view meaning{};      // what Knightly does with it
  AnchorSpelling cutechess{}, fastchess{};
  Role role = Role::Output;
  unsigned custom = 0;
  // Non-empty: Knightly refuses the option with this message (naming what to do instead).
  std::string_view refused{};
  // Non-empty: accepted with nothing to do; `knightly play` prints this as a Note.
  std::string_view no_effect{};
  // Sets a parsed value (nullptr: the custom code sets it, or nothing is set).
  void (*apply)(Config&, const Value&) = nullptr;
};

// Every row, in the order docs/cli.md lists them.
std::span<const MatchKey> match_schema();

const MatchKey* key_by_toml(std::string_view toml);
// The rows of an option of the tools' command lines ("-sprt" has one per word).
std::vector<const MatchKey*> keys_by_flag(std::string_view flag);
// The row of "--concurrency" for `command`; nullptr when that command has no such flag.
const MatchKey* key_by_knightly(std::string_view flag, Command command);
// The TOML keys of one table ("tournament" -> name, format, ...), for unknown-key messages.
std::vector<std::string> toml_keys_of(std::string_view table);
// The words of a key=value option ("-sprt" -> elo0, elo1, ...).
std::vector<std::string> words_of(std::string_view flag);
// Every option of the tools' command lines and Knightly's own, for "did you mean".
std::vector<std::string> all_flags();

// `text` read as the row's type and checked against its range or choices. The message names
// the value, not the key: the caller says where it was.
std::expected<Value, std::string> parse_value(const MatchKey& key, std::string_view text);
// A value that came typed (TOML) checked against the row's range or choices.
std::expected<Value, std::string> check_value(const MatchKey& key, Value value);
// "an integer in [1, 1024]", "round-robin or gauntlet", "true or false"...
std::string expected_text(const MatchKey& key);

// What defines the games of a match, as TOML text: the engines and their settings, the limits,
// the book and its options, the schedule, the seed, the variant, adjudication and the SPRT.
// Never where the files go, how many games run at once, what is printed or the database: two
// command lines that differ only in those are the same match. Written before paths are
// resolved, so that it does not depend on the current directory.
std::string match_identity(const Config& config);

// docs/cli.md's option table (a test compares the file with it).
std::string schema_markdown();
// The option lines of `knightly run|play|sprt --help`.
std::string schema_help(Command command);

}  // namespace knightly::runner
