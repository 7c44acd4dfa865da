// Monte Carlo tree search with UCT (seed 000's GKMonteCarloStrategist): select by
// UCB1 down the tree, expand one node, play out at random (to the end of the game, or a few
// plies then score by the evaluation), back the result up. `go nodes N` counts playouts.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/search/worker.h"

namespace knightly::search {

using chess::Move;
using chess::MoveList;

namespace {

constexpr std::size_t MaxTreeNodes = 2'000'000;  // 64 MB; beyond this, play out from leaves only
constexpr int RandomPlayoutPlies = 300;
constexpr int EvalPlayoutPlies = 4;

}  // namespace

// Plays random moves from the current position; returns the result (1 win, 0.5 draw, 0 loss)
// for `leaf_mover`, the side that made the move into the leaf.
double Worker::playout(chess::Color leaf_mover) {
  const int max_plies = config_.mcts_eval_playouts ? EvalPlayoutPlies : RandomPlayoutPlies;
  int plies = 0;
  double result = 0.5;
  while (true) {
    MoveList moves = pos_.legal_moves();
    if (moves.empty()) {
      if (pos_.in_check()) result = pos_.side_to_move() == leaf_mover ? 0.0 : 1.0;
      break;
    }
    if (pos_.halfmove_clock() >= 100 || pos_.insufficient_material()) break;
    if (plies >= max_plies) {
      if (config_.mcts_eval_playouts) {
        double p = 1.0 / (1.0 + std::pow(10.0, -evaluate() / 400.0));  // side to move's chance
        result = pos_.side_to_move() == leaf_mover ? p : 1.0 - p;
      }
      break;
    }
    pos_.do_move(moves[rng_.below(moves.size())]);
    ++plies;
  }
  for (int i = 0; i < plies; ++i) pos_.undo_move();
  return result;
}

std::vector<Move> Worker::mcts_pv() const {
  std::vector<Move> pv;
  int node = 0;
  while (tree_[node].child_count > 0 && pv.size() < 32) {
    int best = -1;
    for (int c = 0; c < tree_[node].child_count; ++c) {
      int idx = tree_[node].first_child + c;
      if (best < 0 || tree_[idx].visits > tree_[best].visits) best = idx;
    }
    if (tree_[best].visits == 0) break;
    pv.push_back(tree_[best].move);
    node = best;
  }
  return pv;
}

SearchResult Worker::go_mcts(const std::function<void(const SearchInfo&)>& on_info) {
  tree_.clear();
  tree_.push_back(MctsNode{});
  const std::uint64_t limit = limits_.nodes ? limits_.nodes
                              : (budget_.limited() || limits_.infinite)
                                  ? std::numeric_limits<std::uint64_t>::max()
                                  : std::uint64_t(std::max(1, config_.mcts_playouts));
  const double c = config_.mcts_exploration / 100.0;
  int max_depth = 0;
  std::int64_t next_report_ms = 1000;
  while (nodes_ < limit) {
    if (stop_->load(std::memory_order_relaxed)) break;
    if (abort_ms_ && elapsed_ms() >= abort_ms_) break;
    // Selection
    int node = 0, depth = 0;
    while (tree_[node].expanded && tree_[node].child_count > 0) {
      const MctsNode& parent = tree_[node];
      const double log_n = std::log(double(std::max<std::uint32_t>(parent.visits, 1)));
      int chosen = -1;
      double best = -1;
      for (int i = 0; i < parent.child_count; ++i) {
        const MctsNode& ch = tree_[parent.first_child + i];
        if (ch.visits == 0) {
          chosen = parent.first_child + i;
          break;
        }
        double u = ch.reward / ch.visits + c * std::sqrt(log_n / ch.visits);
        if (u > best) {
          best = u;
          chosen = parent.first_child + i;
        }
      }
      node = chosen;
      pos_.do_move(tree_[node].move);
      ++depth;
    }
    // Expansion (or the exact result of a finished game)
    double result = -1;
    MoveList moves = pos_.legal_moves();
    if (moves.empty()) {
      result = pos_.in_check() ? 1.0 : 0.5;
      tree_[node].expanded = true;
    } else if (depth > 0 && is_draw(depth)) {
      result = 0.5;
      tree_[node].expanded = true;
    } else if (!tree_[node].expanded && tree_.size() + moves.size() <= MaxTreeNodes) {
      if (config_.shuffle) shuffle(moves);
      tree_[node].expanded = true;
      tree_[node].first_child = std::int32_t(tree_.size());
      tree_[node].child_count = std::uint16_t(moves.size());
      for (Move m : moves) {
        MctsNode ch;
        ch.move = m;
        ch.parent = node;
        tree_.push_back(ch);
      }
      node = tree_[node].first_child;
      pos_.do_move(tree_[node].move);
      ++depth;
    }
    // Simulation
    if (result < 0) result = playout(~pos_.side_to_move());
    // Backpropagation: `result` is for the side that moved into `node`.
    max_depth = std::max(max_depth, depth);
    for (int i = 0; i < depth; ++i) pos_.undo_move();
    for (int n = node; n >= 0; n = tree_[n].parent) {
      tree_[n].visits++;
      tree_[n].reward += result;
      result = 1.0 - result;
    }
    ++nodes_;
    if (on_info && elapsed_ms() >= next_report_ms) {
      next_report_ms += 1000;
      auto pv = mcts_pv();
      if (!pv.empty()) on_info(make_info(max_depth, 0, pv));
    }
  }
  SearchResult r;
  const MctsNode& root = tree_[0];
  int best = -1;
  for (int i = 0; i < root.child_count; ++i) {
    int idx = root.first_child + i;
    const MctsNode& ch = tree_[idx];
    if (best < 0 || ch.visits > tree_[best].visits ||
        (ch.visits == tree_[best].visits && ch.reward > tree_[best].reward))
      best = idx;
  }
  if (best < 0 || tree_[best].visits == 0) {
    MoveList moves = pos_.legal_moves();
    r.best = moves[0];
    r.info = make_info(0, 0, {r.best});
    return r;
  }
  r.best = tree_[best].move;
  double q = std::clamp(tree_[best].reward / tree_[best].visits, 0.001, 0.999);
  int cp = int(std::lround(400.0 * std::log10(q / (1.0 - q))));
  // A child whose every visit was a win and that has no children is a mate on the board.
  pos_.do_move(r.best);
  bool mates = pos_.legal_moves().empty() && pos_.in_check();
  pos_.undo_move();
  r.info = make_info(max_depth, mates ? MateScore - 1 : cp, mcts_pv());
  if (on_info) on_info(r.info);
  return r;
}

}  // namespace knightly::search
