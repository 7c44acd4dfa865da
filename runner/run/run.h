#pragma once
// A run: one `knightly run` (or play, or sprt) process playing its share of a tournament that
// any number of processes, on any number of machines, may be playing at the same time through
// one database (docs/distributed.md).
//
// A pair of games (same opening, colours reversed) is the unit of work, a game the unit of
// durability. The phases, each an object of its own:
//   prepare  check engines and book, open the store, claim the output files; the
//            TournamentOpener finds, creates or resumes the tournament, registers this worker
//            and records the pairs; the OutputFiles (PGN, EPD) are brought up to date
//   claim    the ClaimLoop: each of `concurrency` game threads claims the next free pair under
//            a lease (renewed by one heartbeat thread per process)
//   play     the games of the pair the store does not hold yet (a taken-over pair resumes),
//            by the thread's PlayerPool (start, restart, forfeit)
//   store    each game as it ends (the last one releases the pair), then the output files
//   decide   the Decider, after each stored game, from the database's counts: SPRT decision,
//            every game played, or `knightly stop` - marked once for all workers
//   report   the figures of the tournament as the database holds them
// Every phase reports through one RunEvents (the observer, the -log file, the first error).
// Errors (a store that fails, an engine that cannot start) stop new games, let the games in
// progress finish, and end the run with ExitError and a message naming what, where and why;
// no exception leaves any of the run's threads.
#include <cstdint>
#include <memory>
#include <optional>
#include <regex>

#include "db/store/store.h"
#include "runner/config/config.h"
#include "runner/match/tablebase_adjudication.h"
#include "runner/run/decider.h"
#include "runner/run/engine_versions.h"
#include "runner/run/output_files.h"
#include "runner/run/run_events.h"
#include "runner/run/run_observer.h"
#include "runner/run/run_options.h"
#include "runner/run/stop_token.h"
#include "runner/run/tournament_opener.h"
#include "runner/run/tune_plan.h"
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
  // prepare: each step false when the run ends there (having said why, if it failed).
  bool prepare();
  // What can be checked before the store: the schedule's size, the engines, --log-dir, the
  // book, -pgnout match_line, the tablebases.
  bool check_inputs();
  bool open_store();
  // The tournament found, created or resumed, this worker joined, the schedule made.
  bool open_tournament(OpenedTournament& opened);
  // Engines from source and this worker's speed (run_sources.h), for tournament `id`.
  bool prepare_sources(std::int64_t id);
  // The -log file, and the PGN and EPD files brought up to date.
  bool open_outputs(bool created);

  void play();

  void report();
  // The tournament's figures as the database holds them.
  void read_figures(int signal);
  void set_exit_code(int signal);
  void mark_interrupted();

  Config config_;
  RunOptions options_;
  StopToken stop_;
  RunEvents events_;
  RunSummary summary_;

  db::StoreOptions store_options_;
  std::optional<db::Store> store_;
  std::optional<OpeningBook> book_;
  std::optional<std::regex> match_line_;        // -pgnout match_line=, compiled once
  std::unique_ptr<TablebaseProber> tablebase_;  // the Syzygy tables when adjudication uses them
  std::optional<Schedule> schedule_;
  std::unique_ptr<TunePlan> tune_;  // a [tune]: SPSA over the rounds (tune_plan.h)
  std::unique_ptr<EngineVersions> versions_;
  OutputFiles outputs_;
  Decider decider_;
  std::int64_t tournament_id_ = 0;
  std::int64_t worker_id_ = 0;
  bool moved_on_ = false;  // options_.other_work said to go
};

}  // namespace knightly::runner
