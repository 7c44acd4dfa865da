#include "runner/match/resign_tracker.h"

namespace knightly::runner {

void ResignTracker::update(chess::Color mover, std::optional<int> score) {
  if (!config_.enabled || config_.move_count <= 0 || loser_) return;
  if (!score) {
    losing_[mover] = 0;
    winning_[mover] = 0;
    return;
  }
  losing_[mover] = *score <= -config_.score_cp ? losing_[mover] + 1 : 0;
  winning_[mover] = *score >= config_.score_cp ? winning_[mover] + 1 : 0;
  if (losing_[mover] >= config_.move_count &&
      (!config_.two_sided || winning_[~mover] >= config_.move_count)) {
    loser_ = mover;
  }
}

}  // namespace knightly::runner
