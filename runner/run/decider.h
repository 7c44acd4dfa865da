#pragma once
// The decision as a run takes it (the texts are decision.h's): after each game this process
// stores, from every worker's counts (SPRT, or a stop or a finish another worker marked); when
// a claim finds no pair left (every game played) or the tournament not running. The first
// worker to see a decision marks the tournament finished for all; each stops the run.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "db/records/game_record.h"
#include "db/store/store.h"
#include "runner/config/config.h"
#include "runner/run/run_events.h"
#include "runner/run/shared_tally.h"
#include "runner/stats/sprt.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {

class Decider {
 public:
  Decider(const Config& config, RunEvents& events, StopToken& stop);

  // Tournament `id` is found (`created`: by this run, so without a game yet): two-engine runs
  // count every worker's games from now on.
  void start(db::Store& store, std::int64_t id, bool created = false);

  // A game this process is about to store, or did not store after all (two-engine runs: other
  // threads' refreshes leave it for its own thread to count; shared_tally.h).
  void will_store(const ScheduledGame& sg);
  void not_stored(const ScheduledGame& sg);
  // Games this process stored together, in their order: each counted (two-engine runs) and
  // `report`ed (by its place in `games`), both under the run's lock, so what is reported of a
  // game counts it and no later one of this process; the other workers' games read once for
  // them all; then the decision, once.
  struct StoredGame {
    const ScheduledGame* sg;
    const GameRecord* record;
  };
  void stored(std::span<const StoredGame> games, const std::function<void(std::size_t)>& report);
  // The tournament's state as the store has it: finished by another worker, or stopped.
  void decide();
  // After a batch, the state (and other workers' games, but for an SPRT) is read when the
  // store is free, or else once the last read is this old: it changes only by `knightly
  // stop`, another worker's decision or games, and a game thread should not wait out another
  // thread's store (a batch of games) to read it.
  static constexpr std::chrono::milliseconds kDecideEvery{100};
  // Every pair is claimed and stored: the run is complete.
  void exhausted();
  // A claim found the tournament not running: why. `true` when the thread should wait (nothing
  // says why), so as not to spin on the store.
  bool not_running();
  // Finished before this run started: its stored decision.
  void already(const std::string& decision) { decision_ = decision; }

  // Two-engine runs: the first engine against the second, every worker's games as far as this
  // process knows (with the run's lock held); null otherwise.
  const SharedTally* tally() const { return tally_ ? &*tally_ : nullptr; }
  const stats::SprtConfig* sprt() const { return sprt_ ? &*sprt_ : nullptr; }
  // The SPRT and the reports use game pairs when the schedule has them (and -report
  // penta=false does not ask otherwise), single games when not.
  bool paired() const { return paired_; }
  bool two_engines() const { return two_engines_; }
  // Once the game threads are gone: what this worker saw decide, and whether by `knightly stop`.
  const std::string& decision() const { return decision_; }
  bool stopped() const { return stopped_; }

 private:
  void finish(const std::string& decision);
  // `knightly stop` (its text `decision`): this worker starts nothing new and exits 3.
  void stop_requested(const std::string& decision);
  // Two-engine runs: every worker's pairs (and games into *games), now.
  stats::Pentanomial current_pairs(stats::Trinomial* games);

  const Config& config_;
  db::Store* store_ = nullptr;
  RunEvents& events_;
  StopToken& stop_;
  std::int64_t id_ = 0;
  bool two_engines_;
  bool paired_;
  std::optional<stats::SprtConfig> sprt_;  // two-engine runs with [sprt]
  std::optional<SharedTally> tally_;       // under the run's lock
  std::string decision_;                   // under the run's lock
  bool stopped_ = false;                   // by `knightly stop` (under the run's lock)
  std::atomic<std::chrono::steady_clock::time_point> read_at_{};  // the last decide()
};

}  // namespace knightly::runner
