#pragma once
// The Store's tunes (Store::tunes()): SPSA over a tournament's rounds (docs/tuning.md). The
// games, pairs and leases are the tournament's own (Work); these record what each iteration
// was played with and what it scored. Every method throws StoreException on failure.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "db/records/tune_types.h"

namespace knightly::db {

struct StoreCore;

class Tunes {
 public:
  explicit Tunes(StoreCore& core) : core_(core) {}

  // Records the tune of a tournament with its parameters; nothing when it is recorded already
  // (every worker calls it). Invalid when another tune is recorded for it.
  void create_tune(std::int64_t tournament_id, const TuneSetup& setup,
                   std::span<const tune::Param> params);
  // The tune of a tournament with every iteration begun from `from_iteration` on, in order;
  // nullopt for none.
  std::optional<StoredTune> tune(std::int64_t tournament_id, int from_iteration = 0) const;
  // The tournaments that have a tune, by id.
  std::vector<std::int64_t> tune_ids() const;
  // Records iteration `iteration`'s steps unless a worker did before, and returns the steps
  // recorded: the first writer's (every worker computes the same ones).
  std::vector<tune::Step> begin_tune_iteration(std::int64_t tournament_id, int iteration,
                                               std::span<const tune::Step> steps);
  // Fills in the result of every begun iteration whose pairs are all done (every game stored),
  // from its games; returns how many it filled in.
  int finish_tune_iterations(std::int64_t tournament_id);

 private:
  StoreCore& core_;
};

}  // namespace knightly::db
