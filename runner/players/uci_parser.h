#pragma once
// Pure parsing of the lines a UCI engine writes (UCI spec, April 2006): no I/O, no state.
// Tokens may be separated by any run of spaces or tabs; unknown tokens are skipped as the
// spec asks. Malformed values (a number that is not one, `score` without `cp`/`mate`) are
// errors carrying what was wrong and at which token.
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/move_eval.h"

namespace knightly::runner::uci {

enum class LineKind {
  Empty,
  Id,
  UciOk,
  ReadyOk,
  BestMove,
  Info,
  Option,
  CopyProtection,
  Registration,
  Unknown,
};

// By the first token only; cheap enough to call on every line.
LineKind classify(std::string_view line);

// One `info` line: what the match keeps (eval) and the rest the protocol carries.
struct InfoLine {
  MoveEval eval;  // depth, seldepth, score (side-to-move view), nodes, nps, time, hashfull...
  enum class Bound { Exact, Lower, Upper } bound = Bound::Exact;
  std::vector<std::string> pv;  // UCI move text
  bool has_depth = false;
  bool has_score = false;
  bool has_pv = false;
  int multipv = 1;
  std::string text;  // after `string` (the rest of the line)
};

// Parses `info ...`. `out` is overwritten; its pv vector keeps its capacity, so parsing
// into the same InfoLine repeatedly does not allocate once warmed up.
std::expected<void, std::string> parse_info_into(std::string_view line, InfoLine& out);
std::expected<InfoLine, std::string> parse_info(std::string_view line);

struct BestMove {
  std::string move;    // may be "0000" or "(none)" when the engine has no move
  std::string ponder;  // "" when absent
};
std::expected<BestMove, std::string> parse_bestmove(std::string_view line);

struct IdLine {
  std::string field;  // "name" or "author"
  std::string value;  // the rest of the line, spaces kept
};
std::expected<IdLine, std::string> parse_id(std::string_view line);

// `option name <id> type <t> [default <x>] [min <x>] [max <x>] [var <x>]*`. Names and values
// may contain spaces: a name runs up to ` type`, a value up to the next keyword.
struct OptionDecl {
  std::string name;
  std::string type;  // check spin combo button string
  std::optional<std::string> default_value;
  std::optional<std::int64_t> min, max;
  std::vector<std::string> vars;
};
std::expected<OptionDecl, std::string> parse_option(std::string_view line);

// Option names compare case-insensitively (UCI spec, "option" command).
bool option_name_equal(std::string_view a, std::string_view b);

// The text of an `info string <text>` line (`string` its first key; the text trimmed, as
// parse_info gives it), without a full parse: engines such as Stockfish send one every move.
// nullopt for any other line, `string` later in an info line included.
std::optional<std::string_view> info_string_text(std::string_view line);

// Whether `line` is an info line whose score comes before any `string` token, with tokens
// separated as the parse separates them; used to pick the line worth a full parse without
// parsing every line of an info flood.
bool info_has_score(std::string_view line);

}  // namespace knightly::runner::uci
