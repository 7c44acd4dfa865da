#pragma once
// An engine's answer to one MoveRequest, as every player returns it and the match takes it:
// the move text (legality is the match's to judge), what the engine said about its search, and
// the think time the runner measured.
#include <cstdint>
#include <string>
#include <vector>

#include "db/records/move_eval.h"

namespace knightly::runner {

struct MoveReply {
  enum class Status {
    Move,          // a bestmove came back
    Disconnected,  // the process exited or its pipe closed (or a builtin was not started)
    Stalled,       // no bestmove before the deadline
    Refused,       // the player cannot play this game as set up (detail says why)
  };
  // A result an xboard engine claimed while it was to move (before or right after its move),
  // from the claimant's side: Resign = it loses, Draw, Win = it wins. The match checks it.
  enum class Claim { None, Resign, Draw, Win };
  Status status = Status::Move;
  std::string bestmove;         // raw text after "bestmove"; may be "0000", "(none)" or garbage
  std::string ponder;           // "ponder" move of the bestmove line, "" if none
  MoveEval eval;                // the last info line with a score, or a builtin's last iteration
  std::int64_t elapsed_ms = 0;  // measured by the runner: request sent -> bestmove read
  // From `go` written to the bestmove read, when that differs from elapsed_ms (a pondering
  // engine is charged from `ponderhit` but searched, and reports its time, from `go ponder`);
  // -1: the same as elapsed_ms. Latency is this minus the engine's reported time.
  std::int64_t since_go_ms = -1;
  // The score of `eval` is a lower or upper bound (UCI `lowerbound`/`upperbound`).
  bool bound = false;
  // The engine's last line with a score, as it wrote it (for warnings about its PV).
  std::string info_line;
  std::string detail;                     // for logs: exit status, last lines, "book move"...
  std::vector<std::string> info_strings;  // texts of `info string` lines (at most 64)
  Claim claim = Claim::None;
  std::string claim_text;  // the engine's line, e.g. "1-0 {White mates}"
};

}  // namespace knightly::runner
