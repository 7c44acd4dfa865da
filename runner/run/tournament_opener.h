#pragma once
// The tournament a run plays, as the store has it: found (another worker plays it too, or an
// earlier run was stopped or killed), created, or restarted (--restart); this worker
// registered with it and its pairs recorded. The store keeps the config a tournament was
// started with: a run of the same name with another config is refused, saying what changed.
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/config/config.h"
#include "runner/run/run_events.h"
#include "runner/run/run_options.h"
#include "runner/run/stop_token.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {

struct OpenedTournament {
  db::Tournament tournament;
  bool created = false;           // new or restarted: its output files start anew
  std::int64_t stored = 0;        // games already stored (by any worker)
  db::TournamentControl control;  // its status and stop flag as found
};

class TournamentOpener {
 public:
  // `store`, `config`, `events` outlive this.
  TournamentOpener(db::Store& store, const Config& config, const RunOptions& options,
                   RunEvents& events)
      : store_(store), config_(config), options_(options), events_(events) {}

  // Finds, creates or restarts the tournament (with its SPRT settings when new). The error
  // says what changed in a config that differs from the stored one.
  std::expected<OpenedTournament, std::string> open();

  // A finished tournament has nothing to play: says so and is true.
  bool finished(const OpenedTournament& t);

  // Registers this worker, records the pairs of `schedule` and frees the leases of this
  // machine's dead runs. This worker's id; nullopt when `stop` interrupted the pairs.
  std::optional<std::int64_t> join(const OpenedTournament& t, const Schedule& schedule,
                                   const StopToken& stop);

  // Aborted (interrupted, or `knightly stop`): this run resumes it, for every worker, and the
  // stop is forgotten.
  void resume(const OpenedTournament& t);

 private:
  std::expected<db::Tournament, std::string> create(const db::NewTournament& fresh,
                                                    const std::string& stored_text, bool& created);
  std::string changed(const db::Tournament& old, const std::string& stored_text) const;

  db::Store& store_;
  const Config& config_;
  const RunOptions& options_;
  RunEvents& events_;
};

// The units of work: the schedule's games grouped by (round, pair), in schedule order (the
// games of a pair are consecutive in the schedule). Every worker records them at start;
// `knightly submit` records a queued test's at once.
std::vector<db::PairSlot> pair_slots(const Schedule& schedule);

// Lines of `before` and `after` that differ, as "- old" / "+ new" (for a changed config).
std::string describe_config_change(const std::string& before, const std::string& after);

}  // namespace knightly::runner
