#include "runner/match/draw_tracker.h"

#include <cstdlib>

namespace knightly::runner {

void DrawTracker::update(int plies_played, std::optional<int> score, bool irreversible) {
  if (!config_.enabled || adjudicated_) return;
  if (irreversible || !score) {
    // An irreversible move changes the game; no score means no opinion.
    count_ = 0;
    if (!score) return;
  }
  if (std::abs(*score) <= config_.score_cp) {
    ++count_;
  } else {
    count_ = 0;
  }
  if (plies_played / 2 >= config_.move_number && count_ >= 2 * config_.move_count) {
    adjudicated_ = true;
  }
}

}  // namespace knightly::runner
