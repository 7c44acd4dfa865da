#pragma once
// Ratings for N engines: maximum-likelihood logistic (Bradley-Terry) Elo with draws as half
// points, as Ordo computes it, with error bars from simulation (Ordo's -s): results are
// redrawn from the fitted model, refitted, and the spread of the refits is the error.
#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace knightly::runner::stats {

// Aggregated results of engine a against engine b (indexes into the engine list).
// Colours do not enter the model, so a pair's games are summed over both colours.
struct PairResults {
  int a = 0;
  int b = 0;
  std::int64_t a_wins = 0;
  std::int64_t draws = 0;
  std::int64_t b_wins = 0;
  std::int64_t games() const { return a_wins + draws + b_wins; }
};

// One game: white_score is 1, 0.5 or 0.
struct GameOutcome {
  int white = 0;
  int black = 0;
  double white_score = 0.5;
};

// Sums games into one PairResults per unordered engine pair (a < b), sorted by (a, b).
std::vector<PairResults> aggregate(std::span<const GameOutcome> games);

struct RatingOptions {
  std::optional<int> anchor;  // this engine is fixed at anchor_rating; otherwise the average is
  double anchor_rating = 0;
  int simulations = 200;  // 0: no error bars
  std::uint64_t seed = 1;
  // Virtual draws added to a pair whose results are one-sided in a way that makes the
  // maximum-likelihood rating infinite (an engine, or group, that never lost or never won
  // against the rest). Only those pairs get them; everything else is the plain MLE.
  double virtual_draws = 1.0;
  // The engines' names, for messages ("engine 3" when left empty).
  std::vector<std::string> names;
};

struct EngineRating {
  double rating = 0;
  double stdev = 0;    // standard deviation over the simulations (0 for the anchor)
  double error95 = 0;  // 1.96 * stdev
  std::int64_t games = 0;
  double points = 0;
  // True when this engine's rating needed virtual draws to be finite (perfect or zero score
  // against the others); `note` then says so and the interval is wide by construction.
  bool regularized = false;
  std::string note;
  // Which connected group of engines this one is rated in (1-based): engines of different
  // groups never played a chain of games between them, so their ratings do not compare.
  // Groups are numbered by size, largest first (ties: by lowest engine index).
  int group = 1;
};

struct Ratings {
  std::vector<EngineRating> engines;  // in engine index order
  int simulations = 0;
  int iterations = 0;  // Newton iterations of the main fit (the largest group's)
  int groups = 1;      // connected groups; each is rated on its own, as Ordo does
};

// engine_count engines 0..engine_count-1. Engines split into groups that never played each
// other are rated group by group (Ordo's "groups"): the anchor fixes its own group, every other
// group is centred on anchor_rating. Errors (as values, naming engines by options.names): an
// index out of range, an engine without games, a bad anchor.
std::expected<Ratings, std::string> compute_ratings(int engine_count,
                                                    std::span<const PairResults> pairs,
                                                    const RatingOptions& options = {});

}  // namespace knightly::runner::stats
