#pragma once
// Two engines over a run: the first engine's Elo with its 95% band after each sampled game
// count, the SPRT log-likelihood ratio between its bounds, and the pentanomial counts. The
// caller tallies results in the order they were stored and hands snapshots in; the figures
// are fishtest's (runner/stats), so the last point equals `knightly query sprt`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runner/stats/counts.h"
#include "runner/stats/sprt.h"

namespace knightly::runner::report {

struct MatchPoint {
  std::int64_t games = 0;    // games stored so far (x axis)
  stats::Trinomial wdl;      // the first engine's W/D/L so far
  stats::Pentanomial ptnml;  // its complete pairs so far
};

// Every `stride` games gives one point: enough for a chart of about `points` points.
std::int64_t sample_stride(std::int64_t expected_games, int points = 300);

// {"first", "second", "games": {"wins", "draws", "losses"}, "ptnml": [LL, LD, WL, DD, WD, WW],
//  "elo_from": "pairs"|"games", "elo_text": "-9.2 +/- 20.9" | "+inf (100% score, >= ...)",
//  "elo": [[games, elo, low, high], ...],
//  "sprt": null | {"elo0", "elo1", "alpha", "beta", "model", "lower", "upper", "llr",
//                  "decision", "decided_after", "llr_path": [[games, llr], ...]}}
// Elo comes from the pentanomial when the last point has pairs, else from W/D/L; points
// before the first pair (or game) are left out. `points` must be in increasing game order.
// elo_text is stats::elo_text, as the run and `knightly query` print it. A point whose score
// is 100% (0%) has no finite Elo: elo and high (low) are null, low (high) the 95% bound.
// `decided`: a finished SPRT's status at its decision (runner/run decided_sprt) and the games
// it was taken after: "llr" and "decision" are its, and the path ends there.
struct DecidedPoint {
  std::int64_t games = 0;
  stats::SprtStatus status;
};
std::string match_json(const std::string& first, const std::string& second,
                       const std::vector<MatchPoint>& points,
                       const std::optional<stats::SprtConfig>& sprt,
                       const std::optional<DecidedPoint>& decided = std::nullopt);

}  // namespace knightly::runner::report
