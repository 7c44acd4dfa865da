#pragma once
// The first engine's results against the second in a two-engine tournament: games (W/D/L)
// and game pairs (pentanomial), from stored pair results or games as they finish. Shared by
// the run's progress and SPRT stop, its final report, and `knightly query sprt`.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "db/records/store_types.h"
#include "runner/config/config.h"
#include "runner/stats/counts.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

// `engine`'s result in game `g`.
stats::Outcome outcome_for(const std::string& engine, const db::PairGame& g);

class TwoEngineTally {
 public:
  explicit TwoEngineTally(std::string first) : first_(std::move(first)) {}
  // One game of pair (round, pair); the pair counts once both of its games are in.
  void add(int round, int pair, const db::PairGame& g);
  const stats::Trinomial& games() const { return games_; }
  const stats::Pentanomial& pairs() const { return pairs_; }

 private:
  std::string first_;
  stats::Trinomial games_;
  stats::Pentanomial pairs_;
  std::map<std::pair<int, int>, std::vector<db::PairGame>> open_pairs_;
};

// The config's [sprt] table as the statistics take it.
stats::SprtConfig stats_sprt_config(const SprtConfig& sprt);

}  // namespace knightly::runner
