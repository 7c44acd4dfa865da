#include "runner/run/two_engine_tally.h"

#include <algorithm>

namespace knightly::runner {

stats::Outcome outcome_for(const std::string& engine, const db::PairGame& g) {
  const bool white = g.white == engine;
  switch (g.result) {
    case Result::WhiteWins:
      return white ? stats::Outcome::Win : stats::Outcome::Loss;
    case Result::BlackWins:
      return white ? stats::Outcome::Loss : stats::Outcome::Win;
    default:
      return stats::Outcome::Draw;
  }
}

void TwoEngineTally::add(int round, int pair, const db::PairGame& g) {
  games_.add(outcome_for(first_, g));
  auto& v = open_pairs_[{round, pair}];
  v.push_back(g);
  if (v.size() == 2) {
    std::sort(v.begin(), v.end(),
              [](const auto& a, const auto& b) { return a.game_in_pair < b.game_in_pair; });
    pairs_.add_pair(outcome_for(first_, v[0]), outcome_for(first_, v[1]));
    open_pairs_.erase({round, pair});
  }
}

stats::SprtConfig stats_sprt_config(const SprtConfig& s) {
  return {s.elo0, s.elo1, s.alpha, s.beta, s.model};
}

}  // namespace knightly::runner
