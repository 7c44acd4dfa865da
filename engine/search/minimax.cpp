// Minimax as the seeds write it (000, 003, 004): two functions, White maximising and Black
// minimising, scores from White's point of view. And the same tree in negamax form (001).
// No pruning, no ordering: every node to the horizon is visited, which is the point.
#include "engine/search/worker.h"

namespace knightly::search {

int Worker::minimax_max(int depth, int ply) {
  ++nodes_;
  pv_len_[ply] = ply;
  if (should_abort()) return 0;
  if (ply > seldepth_) seldepth_ = ply;
  if (is_draw(ply)) return 0;
  if (depth <= 0 || ply >= MaxPly) return evaluate_white();
  chess::MoveList moves = pos_.legal_moves();
  if (moves.empty()) return pos_.in_check() ? -(MateScore - ply) : 0;
  if (config_.shuffle) shuffle(moves);
  int best = -Infinity;
  for (chess::Move m : moves) {
    make(m);
    int v = minimax_min(depth - 1, ply + 1);
    unmake();
    if (aborted_) return 0;
    if (v > best) {
      best = v;
      update_pv(ply, m);
    }
  }
  return best;
}

int Worker::minimax_min(int depth, int ply) {
  ++nodes_;
  pv_len_[ply] = ply;
  if (should_abort()) return 0;
  if (ply > seldepth_) seldepth_ = ply;
  if (is_draw(ply)) return 0;
  if (depth <= 0 || ply >= MaxPly) return evaluate_white();
  chess::MoveList moves = pos_.legal_moves();
  if (moves.empty()) return pos_.in_check() ? MateScore - ply : 0;
  if (config_.shuffle) shuffle(moves);
  int best = Infinity;
  for (chess::Move m : moves) {
    make(m);
    int v = minimax_max(depth - 1, ply + 1);
    unmake();
    if (aborted_) return 0;
    if (v < best) {
      best = v;
      update_pv(ply, m);
    }
  }
  return best;
}

int Worker::negamax(int depth, int ply) {
  ++nodes_;
  pv_len_[ply] = ply;
  if (should_abort()) return 0;
  if (ply > seldepth_) seldepth_ = ply;
  if (is_draw(ply)) return 0;
  if (depth <= 0 || ply >= MaxPly) return evaluate();
  chess::MoveList moves = pos_.legal_moves();
  if (moves.empty()) return pos_.in_check() ? -(MateScore - ply) : 0;
  if (config_.shuffle) shuffle(moves);
  int best = -Infinity;
  for (chess::Move m : moves) {
    make(m);
    int v = -negamax(depth - 1, ply + 1);
    unmake();
    if (aborted_) return 0;
    if (v > best) {
      best = v;
      update_pv(ply, m);
    }
  }
  return best;
}

}  // namespace knightly::search
