#pragma once
// What a run prints when it ends: standings, termination counts, SPRT block, where things are.
#include <iosfwd>

#include "db/store/store.h"
#include "runner/cli/executor.h"
#include "runner/stats/counts.h"

namespace knightly::runner {

// Standings of the filtered games as a table (rank, engine, games, points, W/D/L, score %,
// Elo +/- against the field).
std::string standings_table(const std::vector<db::Standing>& standings);

void print_final_report(std::ostream& out, const db::Store& store, const Config& config,
                        const db::Tournament& tournament, const RunOptions& options,
                        const RunSummary& summary, const stats::Trinomial& first_vs_second,
                        const stats::Pentanomial& pairs);

}  // namespace knightly::runner
