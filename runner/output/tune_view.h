#pragma once
// A tune as `knightly query tune` and the end of a run show it (docs/tuning.md): each
// parameter's value now (after every iteration with a result, applied in order), and in JSON
// the path: every iteration begun with what it was played with and what it scored. The report
// and `knightly serve` draw the same JSON.
#include <ostream>
#include <string>

#include "db/records/store_types.h"
#include "db/records/tune_types.h"
#include "runner/output/table.h"

namespace knightly::runner {

// name, value, setting (the option text the value gives), start, min, max, c_end, r_end, type.
Table tune_table(const db::StoredTune& tune);

// {"tournament", "status", "engine", "plus", "minus", "iterations", "finished",
//  "pairs_per_iteration", "delay", "a_ratio", "alpha", "gamma",
//  "params": [{"name", "value", "setting", "start", "min", "max", "c_end", "r_end", "type"}],
//  "path": [{"iteration", "theta", "flip", "c", "a", "plus", "minus", "wins", "draws", "losses",
//            "values"}]}: `values` after the iteration, null while an earlier one (or it) has
//  no result. Iterations are 1-based.
std::string tune_json(const db::Tournament& tournament, const db::StoredTune& tune);

// The lines a run ends with: how far the tune got and each parameter's value.
void print_tune_summary(std::ostream& out, const db::StoredTune& tune);

}  // namespace knightly::runner
