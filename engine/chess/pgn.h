#pragma once
// PGN reading (for opening books and import) and writing (for every game the runner plays).
// Pure: works on strings; file I/O belongs to the caller.
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/chess/position.h"

namespace knightly::chess {

struct PgnMove {
  Move move;
  std::string san;      // as written by to_san
  std::string comment;  // text inside {...} after the move, without braces ("" if none)
};

struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order, unescaped
  std::string start_fen;                                  // FEN tag or the initial position
  std::vector<PgnMove> moves;                             // main line only
  std::string result;                                     // "1-0", "0-1", "1/2-1/2", "*"
  std::string comment;                                    // before the first move, or ""
  int line = 0;             // 1-based line of the input where the game starts
  bool terminated = false;  // its movetext ends with a termination marker (not cut off)
  // What the position after the last move says by the rules, and who is to move there (the
  // reader replayed the moves; an importer need not again).
  GameEnd end = GameEnd::None;
  Color end_side = White;
  std::string tag(std::string_view name) const;  // "" if absent
};

// Side to move (true: Black) and fullmove number from a FEN's 2nd and 6th fields (defaults:
// White, 1), without checking the rest.
std::pair<bool, int> fen_side_and_number(std::string_view fen);

// Where and why a game could not be read.
struct PgnError {
  int game = 0;         // 1-based game number in the input
  int line = 0;         // 1-based line of the input
  std::string move;     // offending move text, if any
  std::string message;  // e.g. "illegal move Nf6 at ply 12"
};
// One line for logs and CLI output: `game 3, line 57: move "Kx": <message>`.
std::string to_string(const PgnError& error);

// Reads every game in `text`. Variations, NAGs, comments, escapes handled; a game that cannot
// be read is reported in `errors` and skipped, the rest are returned.
// What the reader makes of import-format text:
// - every move is replayed with parse_san, so `move` is legal and `san` is canonical; a game
//   with a move that cannot be played (or a bad FEN tag, a malformed tag pair, an unterminated
//   comment or variation) is rejected whole, with its game number, line and move text;
// - comments (`{...}` and `;...`) attach to the move before them (to `PgnGame::comment` before
//   the first move); several comments are joined with one space; whitespace runs inside a
//   comment become one space;
// - variations `(...)` and NAGs `$n` are skipped, `!?`-style suffixes dropped, `%` lines ignored;
// - the result is the termination marker, else the Result tag, else "*"; `terminated` says
//   whether the marker was there (a game without one may be cut off);
// - a game ends at its termination marker, where the next tag section starts, or (for games
//   with tags only) at a tag name it already has;
// - CRLF line ends and a UTF-8 byte order mark are accepted;
// - a tag value that is not a well-formed string (unescaped quotes, a lone trailing backslash)
//   is taken from its first quote to the `"]` that ends its line; bytes are kept as they are.
struct PgnReadResult {
  std::vector<PgnGame> games;
  std::vector<PgnError> errors;
};
PgnReadResult read_pgn(std::string_view text);

// Incremental reader for large files (8moves_v3.pgn): feed text, take games as they complete.
// Holds a view: `text` must outlive the reader. Reads 8moves_v3.pgn (34,700 games) in ~0.7 s.
class PgnReader {
 public:
  explicit PgnReader(std::string_view text);
  // Next game, or an error for a bad game, or std::nullopt at the end.
  std::optional<std::expected<PgnGame, PgnError>> next();

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int game_ = 0;
  int line_ = 1;
};

// Writes one game: tags in the given order (caller puts the Seven Tag Roster first, and SetUp/FEN
// when start_fen is not the initial position), a blank line, then movetext numbered from
// start_fen's fullmove number and side ("12... Nc6" when Black starts or after a comment),
// wrapped under 80 columns, comments in braces (braces inside become parentheses), and the
// result token (game.result, "*" if it is not a valid result). Ends with "\n\n" so that games
// concatenate into a file. An empty `san` is computed from `move`. It is the two parts below,
// one after the other.
std::string write_pgn(const PgnGame& game);
// The tag section: a line per tag, then a blank line ("" when there are no tags).
std::string write_pgn_tags(const std::vector<std::pair<std::string, std::string>>& tags);
// The movetext with its result token and the closing "\n\n" (game.tags are not read).
std::string write_pgn_movetext(const PgnGame& game);
std::string escape_pgn_tag(std::string_view value);

}  // namespace knightly::chess
