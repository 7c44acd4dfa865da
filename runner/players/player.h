#pragma once
// One Player interface for UCI and xboard subprocesses and in-process knightly-engine
// configurations. Calls are synchronous for the game thread that owns the player, and every
// wait has a deadline: a subprocess player blocks in read(2) on its pipe (LineChannel) until
// the reply or the deadline.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "runner/match/move_reply.h"
#include "runner/match/move_request.h"

namespace knightly::runner {

class Player {
 public:
  virtual ~Player() = default;
  virtual const std::string& name() const = 0;
  // Starts (or restarts) the engine: process spawn + uci/uciok + options + isready/readyok.
  // Returns an error message on failure.
  virtual std::optional<std::string> start() = 0;
  virtual bool alive() const = 0;
  // ucinewgame + isready ping; false when the engine did not answer in time.
  virtual bool new_game(std::chrono::milliseconds timeout) = 0;
  // Sends position + go and waits for bestmove until `deadline` after `go` was written.
  // Faults are replies too (Disconnected, Stalled); the player measures the think time.
  virtual MoveReply go(const MoveRequest& request, std::chrono::milliseconds deadline) = 0;
  // Pondering (an engine with cutechess's `ponder`): right after its move, the engine thinks
  // on `request`, the position after its predicted reply, until its next go() (which sends
  // `ponderhit` when the reply came, else stops that search first) or the game's end. Its
  // clock runs only in go(). Players that cannot ponder ignore it.
  virtual void start_ponder(const MoveRequest& request) { (void)request; }
  // Kills the engine (after a fault); start() brings it back.
  virtual void kill() = 0;
  // Polite shutdown: quit, wait a little, then kill.
  virtual void quit() = 0;
  // The game this player took part in is over: `result` is its result with the reason
  // ("1-0 {White mates}", "* {No result}"). An xboard engine is told `result`; others ignore it.
  virtual void end_game(const std::string& result) { (void)result; }
  // From the UCI handshake ("id name", "id author"); builtin players report their own.
  virtual std::string id_name() const = 0;
  virtual std::string id_author() const = 0;
  // Problems worth showing the user that did not stop the engine (an option the engine does
  // not list, garbage output...). Returns and clears what was collected so far.
  virtual std::vector<std::string> take_warnings() { return {}; }
};

}  // namespace knightly::runner
