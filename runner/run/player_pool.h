#pragma once
// The players of one game thread, one per engine it needs, started when a game first needs
// them and kept for the thread's next games: restarted when one died (or after every game,
// restart=on), replaced when a tune's iteration plays other values, quit when the thread ends.
// An engine that never started in this run stops the run (a setup problem); one that ran
// before and cannot be restarted loses the game by forfeit, and says why.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/match/game.h"
#include "runner/players/player.h"
#include "runner/players/player_options.h"
#include "runner/run/engine_versions.h"
#include "runner/run/run_events.h"
#include "runner/run/run_options.h"

namespace knightly::runner {

// What the pools of a run's game threads share: whether each engine ever started, the engines
// that could not be restarted (and the games they lost), the versions games are stored against.
class EngineStarts {
 public:
  EngineStarts(std::size_t engines, EngineVersions& versions, RunEvents& events)
      : ever_started_(std::make_unique<std::atomic<bool>[]>(engines)),
        versions_(versions),
        events_(events) {}

  // Once the game threads are gone.
  const std::vector<EngineFailure>& failures() const { return failures_; }

 private:
  friend class PlayerPool;
  std::unique_ptr<std::atomic<bool>[]> ever_started_;
  std::vector<EngineFailure> failures_;  // under the run's lock
  EngineVersions& versions_;
  RunEvents& events_;
};

class PlayerPool {
 public:
  PlayerPool(const Config& config, const PlayerOptions& options, EngineStarts& shared);
  ~PlayerPool();  // quits every player
  PlayerPool(const PlayerPool&) = delete;
  PlayerPool& operator=(const PlayerPool&) = delete;

  // The engines the players must be made for (a tune's iteration): players made for others
  // are quit and made again when next needed.
  void use(std::vector<EngineConfig> engines);
  const std::vector<EngineConfig>& engines() const { return made_for_; }

  // Starts what is not running of engines `white` and `black` of `game`. False when one never
  // started in this run (the run has failed); a restart that fails forfeits `game`.
  bool start(Game& game, int white, int black);
  Player& operator[](int engine) { return *players_[std::size_t(engine)]; }
  // After a game: restart=on ends the engine, so its next game gets a new process.
  void game_over(int white, int black);

 private:
  // The forfeit of a player that ran before and cannot be restarted (`why`).
  void forfeit(Game& game, int engine, chess::Color side, const std::string& why);

  const Config& config_;
  PlayerOptions options_;
  EngineStarts& shared_;
  std::vector<std::unique_ptr<Player>> players_;
  std::vector<EngineConfig> made_for_;  // the engines the players were started as
};

}  // namespace knightly::runner
