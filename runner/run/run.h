#pragma once
// A run: one `knightly run` (or play, or sprt) process playing its share of a tournament that
// any number of processes, on any number of machines, may be playing at the same time through
// one database (docs/distributed.md).
//
// A pair of games (same opening, colours reversed) is the unit of work, a game the unit of
// durability. The phases:
//   prepare  check engines and book, open the store, find/create/resume the tournament,
//            register this worker, record the pairs, bring the PGN file up to date
//   claim    each of `concurrency` game threads claims the next free pair under a lease
//            (renewed by one heartbeat thread per process)
//   play     the games of the pair the store does not hold yet (a taken-over pair resumes)
//   store    each game as it ends (the last one releases the pair)
//   decide   after each stored game, from the database's counts: SPRT decision, every game
//            played, or `knightly stop` - marked once for all workers
//   report   the figures of the tournament as the database holds them
// Errors (a store that fails, an engine that cannot start) stop new games, let the games in
// progress finish, and end the run with ExitError and a message naming what, where and why;
// no exception leaves any of the run's threads.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/config/config.h"
#include "runner/match/tablebase_adjudication.h"
#include "runner/players/player.h"
#include "runner/run/engine_versions.h"
#include "runner/run/game_file.h"
#include "runner/run/run_observer.h"
#include "runner/run/run_options.h"
#include "runner/run/run_outputs.h"
#include "runner/run/shared_tally.h"
#include "runner/run/stop_token.h"
#include "runner/run/tune_plan.h"
#include "runner/run/two_engine_tally.h"
#include "runner/tournament/opening_book.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {

class Run {
 public:
  Run(Config config, RunOptions options, RunObserver& observer);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // The run's own stop token: signal handlers and tests raise it from outside.
  StopToken& stop_token() { return stop_; }

  // Runs every phase; the summary carries the exit code.
  RunSummary execute();

 private:
  // What went wrong decides whether running the same command again can help: a store or an
  // output file that failed (locked, full, gone) may be fine later, and a run stopped by an
  // engine fault without recover resumes; a bad config, book or engine program stays bad.
  enum class Failure { Setup, Engine, EngineFault, Store, Output };
  using Players = std::vector<std::unique_ptr<Player>>;

  bool prepare();
  // Engines from source and this worker's speed (run_sources.h), for tournament `id`.
  bool prepare_sources(std::int64_t id);
  void play();
  void report();

  void game_thread() noexcept;
  // `made_for`: the engines the thread's players were started as (a tune changes them).
  void play_pair(Players& players, std::vector<EngineConfig>& made_for, const db::Claim& claim);
  std::optional<GameRecord> play_one(Players& players, int index, const db::Claim* claim,
                                     const std::vector<EngineConfig>& engines);
  void stored(const GameRecord& record, int index);
  void decide();
  void decide_exhausted();
  void decide_stopped();
  void finish(const std::string& decision);
  // `knightly stop` (its text `decision`): this worker starts nothing new and exits 3.
  void stopped(const std::string& decision);
  void mark_interrupted();

  void fail(Failure kind, const std::string& message);
  void fail_locked(Failure kind, const std::string& message);
  // Waits for a pair to be given back or to expire; `waited`: the waits before this one in a row.
  void wait_for_work(int waited = 8);
  // Two-engine runs: every worker's pairs (and games into *games), now.
  stats::Pentanomial current_pairs(stats::Trinomial* games);
  const stats::SprtConfig* sprt() const { return sprt_ ? &*sprt_ : nullptr; }

  Config config_;
  RunOptions options_;
  RunObserver& observer_;
  StopToken stop_;
  RunSummary summary_;

  std::optional<db::Store> store_;
  std::optional<OpeningBook> book_;
  std::optional<std::regex> match_line_;        // -pgnout match_line=, compiled once
  std::unique_ptr<TablebaseProber> tablebase_;  // the Syzygy tables when adjudication uses them
  std::optional<Schedule> schedule_;
  std::optional<stats::SprtConfig> sprt_;  // two-engine runs with [sprt]
  std::unique_ptr<TunePlan> tune_;         // a [tune]: SPSA over the rounds (tune_plan.h)
  std::unique_ptr<EngineVersions> versions_;
  std::vector<OutputClaim> output_claims_;  // the PGN and EPD files are this tournament's
  std::optional<GameFile> pgn_;
  std::optional<GameFile> epd_;  // -epdout: the final positions, in schedule order
  RunLog log_;                   // -log file=F: the runner's own lines
  // The SPRT and the reports use game pairs when the schedule has them (and -report
  // penta=false does not ask otherwise), single games when not.
  bool paired_ = true;
  std::vector<std::vector<int>> cpu_slots_;  // -use-affinity: each game thread's CPUs
  std::atomic<int> next_thread_{0};
  std::int64_t tournament_id_ = 0;
  std::int64_t worker_id_ = 0;
  bool two_engines_ = false;

  // Shared by the game threads, under mutex_.
  std::mutex mutex_;
  std::condition_variable work_cv_;   // a pair was given back or the run is stopping
  std::multiset<int> held_;           // schedule indices of games of pairs claimed here
  std::optional<SharedTally> tally_;  // two-engine runs: first vs second, every worker's games
  std::unique_ptr<std::atomic<bool>[]> ever_started_;
  std::vector<EngineFailure> engine_failures_;
  bool failed_ = false;
  // Set by a store failure: later writes (a pair given back) would only wait out the same lock
  // or fill the same disk again; the lease runs out on its own, and a resumed run frees it.
  std::atomic<bool> store_failed_{false};
  bool resumable_ = true;
  int later_errors_ = 0;
  std::string decision_;
  bool stopped_ = false;   // by `knightly stop`
  bool moved_on_ = false;  // options_.other_work said to go (under mutex_)
};

// The units of work: the schedule's games grouped by (round, pair), in schedule order (the
// games of a pair are consecutive in the schedule). Every worker records them at start;
// `knightly submit` records a queued test's at once.
std::vector<db::PairSlot> pair_slots(const Schedule& schedule);

// Lines of `before` and `after` that differ, as "- old" / "+ new" (for a changed config).
std::string describe_config_change(const std::string& before, const std::string& after);

}  // namespace knightly::runner
