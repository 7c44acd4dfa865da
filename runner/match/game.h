#pragma once
// One game as a pure state machine. The driver asks next_command() for the side to move and
// what to tell its engine (a MoveRequest), runs the engine, and hands its MoveReply, with the
// think time the player measured, to on_reply(). The game checks the move, charges the clock,
// records the move, and ends the game by the rules, by adjudication or by a fault, with cutechess's
// result strings. No clocks, threads or I/O here.
#include <array>
#include <cstdint>
#include <expected>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "db/records/game_record.h"
#include "db/records/move_eval.h"
#include "engine/chess/position.h"
#include "runner/match/adjudication.h"
#include "runner/match/clock.h"
#include "runner/match/draw_tracker.h"
#include "runner/match/engine_limits.h"
#include "runner/match/game_pgn.h"
#include "runner/match/move_reply.h"
#include "runner/match/move_request.h"
#include "runner/match/resign_tracker.h"

namespace knightly::runner {

class TablebaseProber;  // tablebase_adjudication.h

// Everything a game starts from.
struct GameSetup {
  GameId id;
  std::string white;  // player names
  std::string black;
  std::string start_fen;                   // "" = the initial position
  std::vector<std::string> opening_uci;    // book moves in UCI text, played before the engines
  std::vector<chess::Move> opening_moves;  // or the same as moves (used when non-empty)
  std::string opening_source;              // e.g. "noob_3moves.epd:12"; "" = none
  std::array<EngineLimits, 2> limits;      // [White], [Black]
  Adjudication adjudication;
  // Chess960 (the fischerandom variant): engines are told castlings as king takes rook (their
  // UCI_Chess960 form), the start position is always named (even the classical one, #518),
  // and the PGN says [Variant "fischerandom"].
  bool chess960 = false;
  // Syzygy tables for adjudication.tablebase (enabled), shared by every game of the run; null =
  // no tablebase adjudication. It must outlive the game.
  const TablebaseProber* tablebase = nullptr;
  // -pgnout match_line=REGEX: each move keeps the engine's last `info string` line (as
  // "info string <text>") that matches, as fastchess does; null = none. It must outlive the
  // game.
  const std::regex* match_line = nullptr;
  // -check-mate-pvs: each move's PV is checked (pv_check.h) and a warning kept for the caller.
  bool check_mate_pvs = false;
};

// Game-wide tags for the PGN that only the caller knows (wall-clock values come in as text).
struct GameInfo {
  std::string event = "?";
  std::string site = "?";
  std::string round;       // "" = id.round + 1
  std::string start_time;  // ISO 8601 UTC, e.g. "2026-11-21T23:59:01Z"; "" = unknown
  std::int64_t duration_ms = 0;
};

class Game {
 public:
  // Fails on a bad FEN or an opening move that is not legal, naming which.
  static std::expected<Game, std::string> create(const GameSetup& setup);

  bool finished() const { return result_ != Result::None || termination_ != Termination::None; }
  chess::Color side_to_move() const { return pos_.side_to_move(); }
  const chess::Position& position() const { return pos_; }
  const std::vector<MoveRecord>& moves() const { return moves_; }
  // UCI text of every move so far, book moves included (what `position ... moves` lists).
  const std::vector<std::string>& uci_moves() const { return uci_moves_; }
  const GameSetup& setup() const { return setup_; }
  const Clock& clock(chess::Color c) const { return clocks_[c]; }
  Result result() const { return result_; }
  Termination termination() const { return termination_; }
  const std::string& reason() const { return reason_; }
  const std::string& name(chess::Color c) const {
    return c == chess::White ? setup_.white : setup_.black;
  }

  // The command for the side to move. Only while !finished().
  MoveRequest next_command() const;
  // Pondering: the command the side that just moved would get if the side to move played
  // `predicted` (its engine's ponder move), with the clocks as they stand; `moves` is the
  // caller's storage for the move list (the game's moves and `predicted`), viewed by the
  // request. nullopt when `predicted` is not a legal move here or the game is over.
  std::optional<MoveRequest> ponder_command(const std::string& predicted,
                                            std::vector<std::string>& moves) const;
  // The answer of the side to move; advances the game or ends it.
  void on_reply(const MoveReply& reply);
  // A fault found outside a `go` (e.g. the engine died or did not answer isready between
  // moves): `side` loses with the reason for `why` (Disconnect, Stall, TimeForfeit,
  // IllegalMove). `detail` is appended to the reason ("White makes an illegal move: e2e5",
  // "Black disconnects: could not be restarted: ...").
  void forfeit(chess::Color side, Termination why, const std::string& detail = "");
  // The run is being stopped: the game ends unfinished ("*", "No result").
  void interrupt();

  // Warnings about the engines' PVs since the last call (fastchess's text, pv_check.h), for
  // the caller to print; only with GameSetup::check_mate_pvs.
  std::vector<std::string> take_warnings() { return std::exchange(warnings_, {}); }

  // The finished (or interrupted) game with its PGN.
  GameRecord record(const GameInfo& info) const;
  // The tags of this game's PGN that the record does not hold (for to_pgn with other options).
  PgnHeader pgn_header(const GameInfo& info) const;

 private:
  explicit Game(const GameSetup& setup);
  MoveRequest command(chess::Color side) const;  // next_command() for `side`
  void end(Result result, Termination termination, std::string reason);
  // Plays `m` (one of legal_) and records it with `rec`'s other fields; then the rules.
  void play(chess::Move m, MoveRecord rec);
  // Finds the legal moves of the position and ends the game if the rules say so.
  void check_rules();
  void check_adjudication(chess::Color mover, const MoveEval& eval, bool irreversible);
  // An engine's result claim (MoveReply::claim), after its move if it made one.
  void judge_claim(chess::Color side, const MoveReply& reply);

  GameSetup setup_;
  chess::Position pos_;
  chess::MoveList legal_;  // of pos_: one generation a ply serves the rules, parsing and SAN
  std::vector<std::string> uci_moves_;
  std::vector<MoveRecord> moves_;
  std::array<Clock, 2> clocks_;
  DrawTracker draw_;
  ResignTracker resign_;
  Result result_ = Result::None;
  Termination termination_ = Termination::None;
  std::string reason_;
  std::vector<std::string> warnings_;
};

// "White" / "Black", as cutechess names a side in its result strings.
const char* side_name(chess::Color c);

// How the rules end a game: the result, its class and cutechess's reason ("White mates",
// "Draw by stalemate"...) for a position whose game_end() is `end` with `side_to_move` to
// move; nullopt for GameEnd::None. The one mapping the Game and PGN import share.
struct RulesEnd {
  Result result = Result::None;
  Termination termination = Termination::None;
  std::string reason;
};
std::optional<RulesEnd> rules_end(chess::GameEnd end, chess::Color side_to_move);

}  // namespace knightly::runner
