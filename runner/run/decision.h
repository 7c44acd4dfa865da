#pragma once
// One decision for all workers: when a tournament is finished, and the text stored with it
// (tournaments.decision) that every worker, and every later run of the same command, reads
// its exit code from. Pure: the counts come in as values.
//
// The texts start with a fixed word that the exit code is read from:
//   "sprt: H1 accepted (LLR 2.97 >= 2.94) after 1234 games, pentanomial 10 80 300 90 12"
//   "sprt: H0 accepted (LLR -2.95 <= -2.94) after ..."
//   "sprt: undecided at max games (LLR 1.20, bounds -2.94 2.94) after ..."
//   "complete: all 120 games played"
//   "stopped: knightly stop after 57 of 120 games" (not a finish: the next run resumes it)
//   "failed: the build of REPO at COMMIT failed ..." (engines from source: run_sources.h)
#include <cstdint>
#include <optional>
#include <string>

#include "runner/stats/counts.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

// The SPRT's verdict on the stored pairs: a decision text when it accepts H0 or H1.
std::optional<std::string> sprt_decision(const stats::SprtConfig& sprt,
                                         const stats::Pentanomial& pairs, std::int64_t games);

// Every scheduled game is stored. `sprt`: the test's status then, when the run is an SPRT.
std::string complete_decision(std::int64_t games, const stats::SprtConfig* sprt,
                              const stats::Pentanomial& pairs);

// `knightly stop NAME` was run with `games` of the `scheduled` stored.
std::string stop_decision(std::int64_t games, std::int64_t scheduled);

// The same for a schedule without game pairs (one game per encounter, no -repeat, or
// -report penta=false): the LLR on single games, "... after N games, trinomial L D W".
std::optional<std::string> sprt_decision(const stats::SprtConfig& sprt,
                                         const stats::Trinomial& games);
std::string complete_decision(std::int64_t games, const stats::SprtConfig* sprt,
                              const stats::Trinomial& counts);

// The SPRT's status as it was when `decision` was taken: recomputed from the counts the text
// holds ("... after N games, pentanomial LL LD WL+DD WD WW" or "trinomial L D W"), so every
// output shows the LLR at the decision even when games in progress were stored after it.
// nullopt for a text without counts (a stopped run, an older version's text).
struct DecidedSprt {
  std::int64_t games = 0;    // the games it was taken after
  stats::SprtStatus status;  // its LLR, bounds and decision
};
std::optional<DecidedSprt> decided_sprt(const stats::SprtConfig& sprt, const std::string& decision);

// The gate's exit code for a stored decision: 0 (H1, complete), 1 (H0), 3 (SPRT undecided, or
// stopped before the end), 2 (failed: its engines could not be built or benched). nullopt for a
// text this version does not know (a tournament finished before decisions were stored).
std::optional<int> exit_code_of(const std::string& decision);

// The games a decision counted ("... after N games ...", "... after N of M games"): every
// worker's final standings are of those first N games stored, so they print one standings
// whatever they store after it. nullopt when it counts every game (complete) or says no count.
std::optional<std::int64_t> decided_games(const std::string& decision);

}  // namespace knightly::runner
