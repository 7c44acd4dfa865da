// Alpha-beta in negamax form (seeds 000, 002, 003), fail-soft. Each enhancement is behind its
// own switch so the plain algorithm stays available for comparison:
//   Hash (transposition table), MoveOrdering (TT move, MVV-LVA, killers, history),
//   Quiescence (captures and promotions at the horizon), Pruning (PVS, null move, late-move
//   reductions, check extension, reverse futility; in quiescence SEE and move-count pruning,
//   and only recaptures and checks from QRecaptureDepth plies in).
#include <algorithm>
#include <bit>

#include "engine/search/see.h"
#include "engine/search/worker.h"

namespace knightly::search {

using chess::Move;
using chess::MoveList;

namespace {

constexpr int OrderValue[7] = {1, 3, 3, 5, 9, 20, 0};  // MVV-LVA scale, index = PieceType
// Plies into quiescence from which only recaptures and checks are searched (see quiesce).
constexpr int QRecaptureDepth = 5;

int to_tt(int score, int ply) {
  if (score >= MateBound) return score + ply;
  if (score <= -MateBound) return score - ply;
  return score;
}

int from_tt(int score, int ply) {
  if (score >= MateBound) return score - ply;
  if (score <= -MateBound) return score + ply;
  return score;
}

bool has_non_pawn_material(const chess::Position& pos, chess::Color c) {
  return pos.pieces(c) & ~(pos.pieces(c, chess::Pawn) | pos.pieces(c, chess::King));
}

// Moves the highest-scored remaining move to index i.
void pick(MoveList& moves, int* scores, std::size_t i) {
  std::size_t best = i;
  for (std::size_t j = i + 1; j < moves.size(); ++j)
    if (scores[j] > scores[best]) best = j;
  if (best != i) {
    std::swap(moves[i], moves[best]);
    std::swap(scores[i], scores[best]);
  }
}

}  // namespace

void Worker::order_moves(MoveList& moves, int* scores, Move tt_move, int ply, bool captures_only) {
  const int stm = pos_.side_to_move();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    Move m = moves[i];
    int s;
    chess::Piece victim = victim_of(pos_, m);
    bool promo = m.kind() == Move::Promotion;
    if (m == tt_move) {
      s = 1 << 30;
    } else if (victim != chess::NoPiece || promo) {
      int v = victim == chess::NoPiece ? 0 : OrderValue[chess::type_of(victim)];
      if (promo) v += OrderValue[m.promotion()] - 1;
      s = (1 << 28) + v * 32 - OrderValue[chess::type_of(pos_.piece_on(m.from()))];
    } else if (captures_only) {
      s = 0;
    } else if (m == killers_[ply][0]) {
      s = (1 << 27) + 1;
    } else if (m == killers_[ply][1]) {
      s = 1 << 27;
    } else {
      s = history_[(stm * 64 + m.from()) * 64 + m.to()];
    }
    scores[i] = s;
  }
}

int Worker::alphabeta(int depth, int alpha, int beta, int ply, bool null_ok) {
  if (depth <= 0 && config_.quiescence) return quiesce(alpha, beta, ply);
  ++nodes_;
  pv_len_[ply] = ply;
  if (should_abort()) return 0;
  if (ply > seldepth_) seldepth_ = ply;
  if (is_draw(ply)) return 0;
  if (depth <= 0 || ply >= MaxPly) return evaluate();

  const bool sel = config_.pruning;
  const bool pv_node = beta - alpha > 1;
  if (sel) {
    // Mate distance pruning: no score here can beat a mate already found nearer the root.
    alpha = std::max(alpha, -MateScore + ply);
    beta = std::min(beta, MateScore - ply - 1);
    if (alpha >= beta) return alpha;
  }
  const bool in_check = pos_.in_check();
  if (sel && in_check && ply < MaxPly / 2) ++depth;

  Move tt_move;
  const chess::Key key = pos_.key();
  if (tt_.enabled()) {
    if (const TTEntry* e = tt_.probe(key)) {
      tt_move = e->move;
      if ((!pv_node || !sel) && e->depth >= depth) {
        int s = from_tt(e->score, ply);
        if (e->bound == Bound::Exact || (e->bound == Bound::Lower && s >= beta) ||
            (e->bound == Bound::Upper && s <= alpha))
          return s;
      }
    }
  }

  if (sel && !pv_node && !in_check) {
    int static_eval = evaluate();
    // Reverse futility: far enough above beta that a shallow search will not come back.
    if (depth <= 3 && !is_mate_score(beta) && static_eval - 120 * depth >= beta) return static_eval;
    // Null move: if passing still fails high, a real move will too (not in zugzwang-prone
    // pawn endings).
    if (null_ok && depth >= 3 && static_eval >= beta &&
        has_non_pawn_material(pos_, pos_.side_to_move())) {
      int r = depth >= 7 ? 3 : 2;
      make_null();
      int s = -alphabeta(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
      unmake_null();
      if (aborted_) return 0;
      if (s >= beta) return is_mate_score(s) ? beta : s;
    }
  }

  MoveList moves = pos_.legal_moves();
  if (moves.empty()) return in_check ? -MateScore + ply : 0;
  if (config_.shuffle) shuffle(moves);
  int scores[256];
  const bool ordering = config_.move_ordering;
  if (ordering) order_moves(moves, scores, tt_move, ply, false);

  const int original_alpha = alpha;
  int best = -Infinity;
  Move best_move;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (ordering) pick(moves, scores, i);
    Move m = moves[i];
    const bool quiet = !pos_.is_capture(m) && m.kind() != Move::Promotion;
    make(m);
    int score;
    if (i == 0 || !sel) {
      score = -alphabeta(depth - 1, -beta, -alpha, ply + 1, true);
    } else {
      int r = 0;
      if (depth >= 3 && i >= 3 && quiet && !in_check && !pos_.in_check() && m != killers_[ply][0] &&
          m != killers_[ply][1]) {
        r = 1 + (i >= 8 && depth >= 6) + (!pv_node && i >= 16);
        r = std::min(r, depth - 2);
      }
      score = -alphabeta(depth - 1 - r, -alpha - 1, -alpha, ply + 1, true);
      if (!aborted_ && r > 0 && score > alpha)
        score = -alphabeta(depth - 1, -alpha - 1, -alpha, ply + 1, true);
      if (!aborted_ && score > alpha && score < beta)
        score = -alphabeta(depth - 1, -beta, -alpha, ply + 1, true);
    }
    unmake();
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      best_move = m;
      if (score > alpha) {
        alpha = score;
        update_pv(ply, m);
        if (alpha >= beta) {
          if (ordering && quiet) {
            if (killers_[ply][0] != m) {
              killers_[ply][1] = killers_[ply][0];
              killers_[ply][0] = m;
            }
            int& h = history_[(pos_.side_to_move() * 64 + m.from()) * 64 + m.to()];
            h += depth * depth;
            history_zero_ = false;
            if (h > (1 << 24))
              for (int& x : history_) x /= 2;
          }
          break;
        }
      }
    }
  }
  if (tt_.enabled()) {
    Bound bound = best >= beta ? Bound::Lower : best > original_alpha ? Bound::Exact : Bound::Upper;
    tt_.store(key, depth, to_tt(best, ply), bound,
              best > original_alpha ? best_move : Move::none());
    tt_stored_ = true;
  }
  return best;
}

int Worker::quiesce(int alpha, int beta, int ply, int qply) {
  ++nodes_;
  pv_len_[ply] = ply;
  if (should_abort()) return 0;
  if (ply > seldepth_) seldepth_ = ply;
  if (ply >= MaxPly) return evaluate();
  const bool in_check = pos_.in_check();
  int best = -Infinity;
  if (!in_check) {
    if (pos_.insufficient_material()) return 0;
    best = evaluate();
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
  }
  // In check: evasions, so that a mate at the horizon is seen as one. (Built in place: a
  // MoveList assignment would copy it.)
  MoveList moves = in_check ? pos_.legal_moves() : pos_.legal_captures();
  if (in_check && moves.empty()) return -MateScore + ply;
  int scores[256];
  const bool ordering = config_.move_ordering;
  if (ordering) order_moves(moves, scores, Move::none(), ply, true);
  // Pruning (promotions are always searched; in check, every evasion is):
  // - move count: past the first two captures, and from QRecaptureDepth plies into
  //   quiescence, only recaptures and checks, which ends long chains of trades on different
  //   squares. Not at the first ply of quiescence, where a refutation of the last move must
  //   not be missed (at depth 1 that cost about 15 Elo), nor when the side to move has only
  //   pawns left;
  // - SEE: a capture that loses material.
  // No delta pruning: in depth-1 self-play it lost about 13 Elo with a 200 cp margin, and
  // with 400 cp it saved no time.
  const bool prune = !in_check && config_.pruning;
  const bool count_prune = prune && qply >= 1 && has_non_pawn_material(pos_, pos_.side_to_move());
  const Move last = pos_.last_move();
  const chess::Square last_to = last.is_none() ? chess::NoSquare : last.to();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (ordering) pick(moves, scores, i);
    Move m = moves[i];
    if (prune && m.kind() != Move::Promotion) {
      if (count_prune && (i >= 2 || qply >= QRecaptureDepth) && m.to() != last_to &&
          !pos_.gives_check(m))
        continue;
      if (!see_non_negative(pos_, m)) continue;
    }
    make(m);
    int score = -quiesce(-beta, -alpha, ply + 1, qply + 1);
    unmake();
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        update_pv(ply, m);
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

}  // namespace knightly::search
