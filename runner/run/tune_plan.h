#pragma once
// A tune as a run plays it (docs/tuning.md). Its config (runner/config/tune_config.h) is a
// tournament of two engines, NAME+ and NAME-, whose round k is SPSA's iteration k: the run
// claims, plays, stores and resumes its pairs like any tournament's. This adds what SPSA
// needs:
//   - a claim only within `delay` rounds of the first round not done (Store::claim_pair's
//     window), so iteration k starts once iterations 0 .. k - delay - 1 have their results;
//   - the engines of iteration k: theta (the values after those iterations, applied in
//     order) + and - c_k * delta, computed by the first worker to claim one of its pairs and
//     recorded with the iteration, so every worker plays what it recorded;
//   - each iteration's result, counted from its games once they are all stored.
// The values are then a function of the seed and the games alone: one worker or many, killed
// and resumed or not, a tune ends with the same values. Thread-safe: a run's game threads
// share one plan.
#include <cstdint>
#include <mutex>
#include <vector>

#include "db/store/store.h"
#include "runner/config/config.h"

namespace knightly::runner {

class TunePlan {
 public:
  // `config` is a tune's (config.tune.enabled; its engines NAME+ and NAME-, in that order).
  explicit TunePlan(const Config& config);

  // Records the tune with its tournament (every worker does; the first record stays) and counts
  // the results a killed worker left uncounted. Throws a StoreException when the store fails,
  // std::runtime_error when the tournament holds another tune.
  void prepare(db::Store& store, std::int64_t tournament_id, std::uint64_t seed);

  // How many rounds past the first one not done a worker may claim.
  int window() const { return settings_.delay; }

  // The engines a pair of iteration `k` is played by: `base` (NAME+ and NAME- as the run has
  // them, built from source and with its time controls scaled) with the iteration's values as
  // options (after the engine's own options). Throws std::runtime_error when an iteration it
  // needs has no result (a claim outside the window).
  std::vector<EngineConfig> engines(db::Store& store, int k, std::vector<EngineConfig> base);

  // After the last game of a pair is stored: counts the results of the iterations now done.
  void pair_done(db::Store& store);

 private:
  // The values iteration k is played around: after its first applied_before(k) iterations.
  std::vector<double> theta_for(db::Store& store, int k);

  tune::Settings settings_;
  std::vector<tune::Param> params_;
  db::TuneSetup setup_;
  std::int64_t tournament_id_ = 0;
  std::uint64_t seed_ = 0;

  std::mutex mutex_;
  // The values after the first `applied_` iterations, kept as they are computed: each later
  // claim reads only the iterations after them.
  int applied_ = 0;
  std::vector<double> theta_;
};

// The values after each iteration of `tune`, in order, as far as every earlier one has its
// result (what `knightly query tune` and the report show).
std::vector<std::vector<double>> tune_path(const db::StoredTune& tune);

}  // namespace knightly::runner
