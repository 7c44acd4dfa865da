#pragma once
// What a run prints when it ends: standings, termination counts, the SPRT block, the
// decision that finished the tournament, where things are, and what went wrong.
#include <iosfwd>
#include <string>
#include <vector>

#include "db/records/report_types.h"
#include "db/records/store_types.h"
#include "runner/config/config.h"
#include "runner/output/interval_lines.h"
#include "runner/run/run_options.h"

namespace knightly::runner {

class RunStyle;

// Standings of the filtered games as a table (rank, engine, games, points, W/D/L, score %,
// Elo +/- against the field).
std::string standings_table(const std::vector<db::Standing>& standings);

// Per engine, as fastchess ends a run ("Player: NAME", "  Timeouts: N", "  Crashed: N", a
// crash being a disconnect or a stall as fastchess counts it), then Knightly's own lines:
// stalls, illegal moves, and the mean and largest latency of its moves where known.
std::string engine_health_text(const std::vector<db::EngineHealth>& health);

// `shown`: what the run's interval lines printed last (cutechess's style does not repeat them).
// `style` decides the lines that differ between cutechess-cli's, fastchess's and Knightly's own.
void print_final_report(std::ostream& out, std::ostream& err, const Config& config,
                        const RunStyle& style, const RunSummary& summary,
                        const IntervalsShown& shown = {});

// --perf-stats: games/s, the runner's own CPU per ply and per game, peak RSS, and the latency
// it adds per move.
void print_perf_stats(std::ostream& out, const RunSummary& summary);

}  // namespace knightly::runner
