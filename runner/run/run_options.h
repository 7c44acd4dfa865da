#pragma once
// What a run is asked to do (RunOptions) and what it did (RunSummary), shared by `knightly
// run`, `knightly play` and `knightly sprt`.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "db/records/report_types.h"
#include "db/records/store_types.h"
#include "db/records/tune_types.h"
#include "runner/config/config.h"
#include "runner/run/driver.h"
#include "runner/stats/counts.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

// Exit codes of the knightly program.
enum ExitCode : int {
  ExitOk = 0,
  ExitH0 = 1,             // sprt: H0 accepted (regression)
  ExitError = 2,          // bad input, database problems, engines that cannot start
  ExitUndecided = 3,      // sprt: max games reached without a decision (or stopped undecided)
  ExitInterrupted = 130,  // SIGINT (128 + 2)
  ExitTerminated = 143,   // SIGTERM (128 + 15)
};

// What a worker does with its game in progress when the tournament is decided or stopped
// (SPRT decision, all games played elsewhere, `knightly stop`).
enum class OnStop {
  Finish,   // finish and store it (it is counted), start nothing new
  Abandon,  // end it at its next move; it is not stored
};

struct RunOptions {
  db::TournamentKind kind = db::TournamentKind::Run;
  bool restart = false;  // start the named tournament over, keeping the old one under its id
  std::string log_dir;   // engine logs; "" = none
  DriverOptions driver;
  bool perf_stats = false;  // print the runner's own CPU and latency per move at the end
  OnStop on_stop = OnStop::Finish;
  // How long a claimed pair stays this worker's without a heartbeat; a worker that dies is
  // replaced on its pair after this long. The heartbeat renews every lease / 4.
  std::chrono::milliseconds lease{30000};
  // knightly work: asked when every free pair is in play elsewhere; true (another test wants
  // this worker) ends the run there, its pairs left to the others, instead of waiting for them.
  std::function<bool()> other_work;
  // Where engines built from their source are fetched and built; "" = the default
  // (runner/source/source_cache.h: $KNIGHTLY_CACHE, ~/.cache/knightly).
  std::string source_cache;
};

// One engine that could not be restarted during the run: its games were lost by forfeit.
struct EngineFailure {
  std::string engine;
  std::string reason;
  int games_lost = 0;
};

// Everything the final report prints, read from the database when the run ends.
struct RunReport {
  std::vector<db::Standing> standings;
  std::vector<db::TerminationCount> terminations;
  std::vector<db::EngineHealth> health;  // per engine: faults lost by, move latency
  stats::Trinomial first_vs_second;      // two-engine runs: the first engine's games
  stats::Pentanomial pairs;              // and its pairs
};

struct RunSummary {
  int exit_code = ExitOk;
  db::Tournament tournament;  // id 0 when the run did not get that far
  std::string database;       // where the games are
  int games_played = 0;       // stored by this process
  int games_superseded = 0;   // played here after the lease was lost: kept aside, not counted
  // In the tournament, all workers and invocations; once it is decided (or stopped), those
  // the decision counted: every worker's final standings are of the same games.
  int games_stored = 0;
  int games_after_decision = 0;  // games in progress at the decision, stored after it
  int games_scheduled = 0;
  bool interrupted = false;  // stopped by a signal before the end
  bool finished = false;     // the tournament is finished (here or by another worker)
  bool stopped = false;  // `knightly stop`: not finished, resumable by the same command (exit 3)
  std::string decision;  // why it finished, as stored ("sprt: H1 accepted ...")
  std::optional<stats::SprtStatus> sprt;  // two-engine SPRT runs: status at the end
  std::vector<EngineFailure> engine_failures;
  std::string error;       // what ended the run with ExitError ("" otherwise)
  bool resumable = false;  // the error is one that running the same command again may cure
  // Engines from source: the test was ended by them (a ref naming nothing, a failing build, a
  // bench that differs; decided "failed: ..." for every worker), or this machine could not
  // prepare them (git missing, a repository it cannot reach): the test stays open for others.
  bool test_refused = false;
  bool sources_unavailable = false;
  bool moved_on = false;  // ended by other_work: undecided, nothing wrong (exit 0)
  std::optional<RunReport> report;
  std::optional<db::StoredTune> tune;  // a [tune]: every iteration begun, read at the end
  // --perf-stats
  std::uint64_t plies_played = 0;
  std::vector<std::int64_t> latency_ns;
  int store_transactions = 0;  // the games_played were stored in this many transactions
  int pairs_claimed = 0;       // and their pairs claimed here
  int claim_transactions = 0;  // in this many transactions
  double wall_seconds = 0;
};

}  // namespace knightly::runner
