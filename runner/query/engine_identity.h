#pragma once
// Who an engine is across tournaments: its name and what defines its play, the stored engine
// version (command and binary hash, or a builtin's options) and its limits in the tournament
// (depth, nodes, time control, from the stored config or the games' TimeControl tag). The same
// name at depth 4 and at depth 5 is two players; the labels tell them apart only where a name
// is shared ("ab-d4-mat (depth 5)"). `merge_by_name` counts every identity of a name as one.
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/match/engine_limits.h"

namespace knightly::runner {

// W/D/L by colour between the players of the filtered games, named by their labels: what
// standings, head-to-head and ratings are computed from.
std::vector<db::PairCount> player_pair_counts(const db::Store& store, const db::GameFilter& filter,
                                              bool merge_by_name);

// The limits part of an identity, "depth 5", "nodes 1000", "3+0.05" ("" for none).
std::string limits_text(const EngineLimits& limits);

}  // namespace knightly::runner
