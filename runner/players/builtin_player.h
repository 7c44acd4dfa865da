#pragma once
// A knightly-engine configuration searched in-process: no process and no UCI text, the same
// limits and clocks. The search runs on the calling thread (the executor's game worker):
// handing each move to a thread of its own cost two context switches per ply, more than a
// shallow search. The move deadline still applies: it goes to the search as a hard stop
// (Limits::deadline_ms), which the search checks as it checks its own clock, and it returns
// its best move so far, as a UCI engine does on `stop`.
// Options are the engine's UCI options (Search=alphabeta, Eval=material+pst, Hash=16...),
// applied through the engine's own option table.
#include <atomic>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/chess/position.h"
#include "engine/search/search.h"
#include "runner/config/config.h"
#include "runner/players/player.h"

namespace knightly::runner {

// Options -> SearchConfig. Names the engine does not list become warnings (like a UCI engine
// that does not list an option); bad values of listed options are an error.
std::expected<search::SearchConfig, std::string> builtin_search_config(
    const EngineConfig& config, std::vector<std::string>& warnings);

// The request's clock and limits -> search::Limits (a time of 0 is sent as 1 ms, as to UCI
// engines, since 0 means "no clock" to the search).
search::Limits builtin_limits(const MoveRequest& cmd);

// A search score (centipawns, or MateScore - plies) as UCI reports it: cp, or mate in N moves.
void set_eval_score(int score, MoveEval& eval);

class BuiltinPlayer final : public Player {
 public:
  explicit BuiltinPlayer(EngineConfig config);
  ~BuiltinPlayer() override;
  BuiltinPlayer(const BuiltinPlayer&) = delete;
  BuiltinPlayer& operator=(const BuiltinPlayer&) = delete;

  const std::string& name() const override { return config_.name; }
  std::optional<std::string> start() override;
  bool alive() const override;
  bool new_game(std::chrono::milliseconds timeout) override;
  MoveReply go(const MoveRequest& cmd, std::chrono::milliseconds deadline) override;
  void kill() override;
  void quit() override { kill(); }
  std::string id_name() const override { return "Knightly"; }
  std::string id_author() const override { return "the Knightly authors"; }
  std::vector<std::string> take_warnings() override;

 private:
  std::optional<std::string> set_position(const MoveRequest& cmd);

  EngineConfig config_;
  std::vector<std::string> warnings_;
  std::unique_ptr<search::Search> search_;     // null until started, and after kill()
  bool seed_from_clock_ = false;               // Seed 0: a new clock seed for every game
  const std::atomic<bool> never_stop_{false};  // the deadline stops a search, not a flag

  // The position of the last go and how it was reached, so the next go (same game, one or
  // two plies later) only plays the new moves.
  chess::Position pos_;
  std::string pos_fen_;
  std::vector<std::string> pos_moves_;
  bool pos_valid_ = false;
};

}  // namespace knightly::runner
