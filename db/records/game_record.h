#pragma once
// A finished game as the match produces it and the database stores it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/move_eval.h"
#include "engine/chess/types.h"

namespace knightly {

enum class Result { None, WhiteWins, BlackWins, Draw };
inline const char* result_token(Result r) {
  switch (r) {
    case Result::WhiteWins:
      return "1-0";
    case Result::BlackWins:
      return "0-1";
    case Result::Draw:
      return "1/2-1/2";
    default:
      return "*";
  }
}
// And back: "1-0" | "0-1" | "1/2-1/2"; nullopt for anything else ("*" included).
std::optional<Result> parse_result(std::string_view text);

// Why a game ended: the machine-readable class. The human reason string (cutechess's
// "White mates", "Black loses on time", "Draw by 3-fold repetition"...) is GameRecord::reason.
enum class Termination {
  None,
  Checkmate,
  Stalemate,
  Repetition,
  FiftyMoves,
  InsufficientMaterial,
  AdjudicationDraw,
  AdjudicationResign,
  MaxMoves,
  TimeForfeit,
  IllegalMove,
  Disconnect,
  Stall,
  Interrupted,
  AdjudicationTablebase,  // Syzygy tables (tablebase_adjudication.h)
  Resignation,            // an xboard engine resigned (or claimed its own loss)
  FalseClaim,             // an xboard engine claimed a win or draw the position does not have
};
// The stable name of a termination, as games.termination stores it (docs/schema.md):
// "checkmate", "adjudication draw", "time forfeit"...; and back (nullopt for an unknown name).
const char* termination_name(Termination t);
std::optional<Termination> parse_termination(std::string_view name);

struct MoveRecord {
  std::string uci;
  std::string san;
  chess::Move move;          // the same move; none in records read back from text (database, PGN)
  MoveEval eval;             // what the engine said about it (empty for book moves)
  std::int64_t time_ms = 0;  // think time measured by the runner
  std::int64_t clock_left_ms = -1;  // after the move, -1 when there is no clock
  bool book = false;                // an opening move, not played by an engine
  // fastchess's latency: the runner-measured time from `go` to `bestmove` minus the time the
  // engine reported for its search; nullopt when the engine reported none.
  std::optional<std::int64_t> latency_ms{};
  // The engine's output lines `-pgnout match_line=REGEX` picked for this move (fastchess:
  // the last line matching), written into the move's comment as `line="..."`.
  std::vector<std::string> lines{};
};

// A game's stable identity in its tournament: what resume and sharding name.
struct GameId {
  int round = 0;         // 0-based
  int pair = 0;          // 0-based index of the encounter (pair) within the round
  int game_in_pair = 0;  // 0 or 1
  int index = 0;         // 0-based position in the schedule
  bool operator==(const GameId&) const = default;
};

struct GameRecord {
  GameId id;
  std::string white;
  std::string black;
  std::string start_fen;          // position before the opening moves
  std::vector<MoveRecord> moves;  // opening (book) moves first, then played moves
  std::string opening_source;     // e.g. "noob_3moves.epd:1234" or "random plies"
  Result result = Result::None;
  Termination termination = Termination::None;
  std::string reason;      // cutechess reason string
  std::string start_time;  // ISO 8601 UTC
  std::int64_t duration_ms = 0;
  std::string time_control;  // PGN TimeControl tag value ("white / black" if they differ)
  std::string pgn;           // full PGN text of the game
};

namespace chess {
struct PgnGame;
}

// cutechess's place for the reason a game ended: it joins the last move's comment (", "
// between), or stands alone before any move. One rule for every PGN writer.
void add_reason(chess::PgnGame& text, const std::string& reason);

// The movetext of a game whose moves carry nothing but the move and its book flag (an
// imported game): each move's SAN, {book} after a book move, the reason in the last move's
// comment (or before the first move), the result token, numbered from start_fen, ending in
// "\n\n". It is what to_pgn (runner/match/game_pgn.h) writes after such a game's tags, so a
// store may keep an imported game's tags alone and write its movetext when it is read.
std::string plain_movetext(const GameRecord& game);

}  // namespace knightly
