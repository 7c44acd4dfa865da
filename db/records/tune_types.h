#pragma once
// A tune as the store holds it (db/schema/007_tune.sql, docs/tuning.md): its settings and
// parameters, and every iteration begun with its steps and, once all its games are stored,
// its result. The parameters and steps are the values SPSA computes (tune_values.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/records/tune_values.h"

namespace knightly::db {

struct TuneSetup {
  std::string engine;        // the engine tuned
  std::string plus_engine;   // the engine its games give theta + c_k * delta ("kn+")
  std::string minus_engine;  // and theta - c_k * delta ("kn-")
  tune::Settings settings;
  bool operator==(const TuneSetup&) const = default;
};

struct TuneIteration {
  int iteration = 0;              // 0-based, the tournament's round
  std::vector<tune::Step> steps;  // one per parameter
  // The plus engine's results over the iteration's games; none until every game is stored.
  std::optional<std::int64_t> wins, draws, losses;
  std::string finished_at;
  bool finished() const { return wins.has_value(); }
  // wins - losses: what the update is driven by.
  std::int64_t result() const { return wins.value_or(0) - losses.value_or(0); }
};

struct StoredTune {
  std::int64_t tournament_id = 0;
  TuneSetup setup;
  std::vector<tune::Param> params;
  std::vector<TuneIteration> iterations;  // in iteration order, the ones begun
};

}  // namespace knightly::db
