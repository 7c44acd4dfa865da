#pragma once
// Pure parsing and formatting for the xboard protocol (CECP 2, Tim Mann and H.G. Muller's
// "Chess Engine Communication Protocol"): the lines an engine writes (features, moves, pongs,
// result claims, thinking output), the features the runner accepts, the time-control commands,
// and move text in coordinate notation or SAN. No I/O, no state; errors from the engine's text
// are values saying what was wrong.
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/move_eval.h"
#include "engine/chess/position.h"
#include "runner/match/time_control.h"

namespace knightly::runner::xboard {

enum class LineKind {
  Empty,
  Feature,      // feature NAME=VALUE ...
  Move,         // move MOVE (or GNU Chess's "My move is : MOVE")
  Pong,         // pong N
  Claim,        // 1-0, 0-1, 1/2-1/2 (each with an optional {comment}), resign
  Thinking,     // PLY SCORE TIME NODES PV... (after `post`)
  IllegalMove,  // Illegal move: ... / Illegal move (why): ...
  Error,        // Error (why): command
  Chatter,      // # debug output, tellics / telluser / tellothers..., offer draw: ignored
  Unknown,      // anything else: banners, noise
};

// By the first token only.
LineKind classify(std::string_view line);

struct Feature {
  std::string name;
  std::string value;  // quotes removed
};
// The NAME=VALUE pairs of a `feature` line; VALUE is a number/word or a "quoted string". An
// error names the first pair that cannot be read (the pairs before it are lost too).
std::expected<std::vector<Feature>, std::string> parse_features(std::string_view line);

// What the runner uses of the features an engine announced, with CECP 2's defaults.
struct Features {
  bool ping = false;
  bool setboard = false;
  bool san = false;
  bool usermove = false;
  bool time = true;
  bool colors = true;  // the engine wants `white`/`black` (we never send them: it is rejected)
  std::string myname;
  std::vector<std::string> variants = {"normal"};
  std::vector<std::string> options;  // option="..." declarations as given
  std::optional<bool> done;          // unset until `done` is seen
  bool supports_variant(std::string_view v) const;
  // Whether `option NAME=...` can be sent: an option="NAME -type ..." declaration names it.
  bool has_option(std::string_view name) const;
};
// Records `f` in `features` and says whether the runner accepts it (`accepted NAME`) or not
// (`rejected NAME`). Rejected: what the runner does not do (sigint=1: it never sends SIGINT;
// colors=1; unknown features). A bad value (ping=x) is rejected too.
bool apply_feature(Features& features, const Feature& f);

// `move MOVE` (or "My move is : MOVE"): the move text, as the engine wrote it.
std::expected<std::string, std::string> parse_move(std::string_view line);
// `pong N`: N.
std::expected<std::int64_t, std::string> parse_pong(std::string_view line);

struct Claim {
  enum class Kind { WhiteWins, BlackWins, Draw, Resign };
  Kind kind = Kind::Resign;
  std::string text;  // the whole line, e.g. "1-0 {White mates}"
};
std::expected<Claim, std::string> parse_claim(std::string_view line);

// `PLY SCORE TIME NODES PV`: depth, score in centipawns from the engine's side (CECP's
// 100000 + N "mate in N moves" convention becomes a mate score), time in centiseconds, nodes.
// The depth may carry a trailing mark (`12.`, `7&`) and the score a '+'.
struct Thinking {
  MoveEval eval;   // depth, score_cp or mate, nodes, engine_time_ms
  std::string pv;  // the rest of the line, as the engine wrote it
};
std::expected<Thinking, std::string> parse_thinking(std::string_view line);

// Time controls. `level MPS BASE INC`: MPS moves per period (0 = the whole game), BASE in
// minutes or minutes:seconds (whole seconds, rounded down), INC in seconds ("0.1" allowed).
std::string level_command(const TimeControl& tc);
// `st N`: whole seconds per move (at least 1).
std::string st_command(std::int64_t movetime_ms);
// `time N` / `otim N` values: centiseconds, never negative.
std::int64_t centiseconds(std::int64_t ms);

// The position `pos` for an engine without setboard, as cutechess sends it (xboardengine.cpp
// startGame): in force mode after `new`, a dummy move b2b3 when Black is to move, then
// `edit`, `#` (clear), White's pieces ("Ke1", "Pe2"), `c`, Black's pieces, `.`. Castling is
// what the engine infers from kings and rooks on their squares; en passant is not told.
// `usermove`: the engine's feature, prefixed to the dummy move.
std::string edit_commands(const chess::Position& pos, bool usermove);

// The text that tells the engine `m` (a legal move of `pos`): coordinate notation (e2e4, e7e8q,
// e1g1) or SAN per the engine's san feature. Chess960 castling is "O-O" / "O-O-O" in both, as
// xboard writes it.
std::string move_text(const chess::Position& pos, chess::Move m, bool san, bool chess960);
// An engine's move: coordinate notation (e2e4, e7e8q, king takes rook, e2-e4), or SAN
// (Nf3, exd5, O-O, 0-0-0, e8=Q, with check marks). An error says the text is neither or not
// legal here.
std::expected<chess::Move, std::string> parse_engine_move(const chess::Position& pos,
                                                          std::string_view text);

}  // namespace knightly::runner::xboard
