#pragma once
// A run's engines built from their source, and this worker's speed (docs/regression-testing.md).
// Before the first game every engine with a source gets
//   its commit: the one stored with the tournament, or its ref resolved now and stored (the
//               first worker's resolution wins, so every worker builds the same commit);
//   its program: this machine's earlier build of that commit, or a new one (runner/source);
//   its bench checked: a commit message's "Bench: N" (or bench=) that the bench does not
//               print refuses the test, naming both numbers.
// With [tournament] reference_nps, the last engine (a test's base) is benched to measure this
// worker's speed, and every time control is scaled by reference_nps / nps, fishtest's way.
#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>

#include "db/store/store.h"
#include "runner/config/config.h"
#include "runner/match/time_control.h"
#include "runner/source/source_cache.h"

namespace knightly::runner {

struct PreparedSources {
  std::optional<double> nps;  // this worker's speed, when the time controls are scaled
  double tc_factor = 1.0;     // what they were multiplied by
};

// Fills in each source engine's commit and command, checks benches, and scales `config`'s time
// controls. `say`: a line for the user per engine built or reused and for the speed.
std::expected<PreparedSources, SourceError> prepare_sources(
    Config& config, db::Store& store, std::int64_t tournament_id, SourceCache& cache,
    const std::function<void(const std::string&)>& say, const std::function<bool()>& cancelled);

// Whether a config needs prepare_sources (an engine with a source, or reference_nps).
bool has_sources(const Config& config);

// `tc` with its times multiplied by `factor` (moves per period unchanged; an infinite clock
// stays infinite), each rounded to the millisecond and at least 1 ms when it was not 0.
TimeControl scale_time_control(const TimeControl& tc, double factor);

// The lines of a failed test's decision: "failed: " and the reason (tournaments.decision).
std::string failed_decision(const std::string& why);

}  // namespace knightly::runner
