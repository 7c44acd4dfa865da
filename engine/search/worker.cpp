#include "engine/search/worker.h"

#include <algorithm>
#include <cmath>

#include "engine/eval/terms.h"

namespace knightly::search {

using chess::Move;
using chess::MoveList;

namespace {

constexpr std::uint64_t NoiseSalt = 0x5eed0f0015e5a17ULL;

// Plies of the game before `pos`, from its move counters (a FEN start counts its own).
int game_plies(const chess::Position& pos) {
  return 2 * (pos.fullmove_number() - 1) + (pos.side_to_move() == chess::Black ? 1 : 0);
}

}  // namespace

Worker::Worker(SearchConfig config) {
  set_config(std::move(config));
}

void Worker::set_config(SearchConfig config) {
  bool resize = !tt_.enabled() ? config.hash_mb > 0 : config.hash_mb != tt_.size_mb();
  config_ = std::move(config);
  if (resize) tt_.resize(config_.hash_mb);
  auto ev = eval::Evaluator::parse(config_.eval);
  evaluator_ = ev ? *ev : eval::Evaluator();
  evaluator_.set_knight_value(config_.knight_value);
  seed_ = config_.seed;
  rng_.seed(seed_);
  evaluator_.set_seed(seed_);
}

void Worker::new_game() {
  tt_.new_game();  // O(1); the old entries become invisible, as after a clear
  tt_stored_ = false;
  if (!history_zero_) history_.fill(0);
  history_zero_ = true;
  for (auto& k : killers_) k = {};
  seed_ = config_.seed;
  rng_.seed(seed_);
  evaluator_.set_seed(seed_);
}

void Worker::reset_counters() {
  nodes_ = 0;
  seldepth_ = 0;
  aborted_ = false;
  for (auto& k : killers_) k = {};
  // History carries over between moves of a game, scaled down so it stays recent. Shallow
  // searches (depth 1 goes straight to quiescence) never fill it: then nothing to scale.
  if (!history_zero_) {
    int any = 0;
    for (int& h : history_) any |= (h /= 8);
    history_zero_ = any == 0;
  }
}

std::int64_t Worker::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start_)
      .count();
}

bool Worker::should_abort() {
  if (aborted_) return true;
  if (stop_->load(std::memory_order_relaxed)) return aborted_ = true;
  if (limits_.nodes && nodes_ >= limits_.nodes) return aborted_ = true;
  if ((nodes_ & 255) == 0 && abort_ms_ && elapsed_ms() >= abort_ms_) return aborted_ = true;
  return false;
}

void Worker::reset_tracking() {
  tracked_top_ = 0;
  untracked_ = 0;
  tracked_[0] = {pos_.key(), eval::piece_sums(pos_)};
}

void Worker::make(Move m) {
  make_with(m, nullptr);
}

void Worker::make(Move m, const eval::PieceSums& sums) {
  make_with(m, &sums);
}

void Worker::make_with(Move m, const eval::PieceSums* known) {
  if (untracked_ == 0 && tracked_top_ + 1 < int(tracked_.size()) &&
      tracked_[tracked_top_].key == pos_.key()) {
    const eval::PieceSums sums =
        known ? *known : eval::piece_sums_after(pos_, tracked_[tracked_top_].sums, m);
    pos_.do_move(m);
    tracked_[++tracked_top_] = {pos_.key(), sums};
  } else {
    pos_.do_move(m);
    ++untracked_;
  }
}

void Worker::unmake() {
  pos_.undo_move();
  if (untracked_ > 0)
    --untracked_;
  else
    --tracked_top_;
}

void Worker::make_null() {
  if (untracked_ == 0 && tracked_top_ + 1 < int(tracked_.size()) &&
      tracked_[tracked_top_].key == pos_.key()) {
    eval::PieceSums sums = tracked_[tracked_top_].sums;
    pos_.do_null_move();
    tracked_[++tracked_top_] = {pos_.key(), sums};
  } else {
    pos_.do_null_move();
    ++untracked_;
  }
}

void Worker::unmake_null() {
  pos_.undo_null_move();
  if (untracked_ > 0)
    --untracked_;
  else
    --tracked_top_;
}

int Worker::evaluate_white() {
  int s = untracked_ == 0 && tracked_[tracked_top_].key == pos_.key()
              ? evaluator_.evaluate_white(pos_, tracked_[tracked_top_].sums)
              : evaluator_.evaluate_white(pos_);
  if (config_.eval_noise > 0)
    s += eval::random_score(pos_.key(), seed_ ^ NoiseSalt, config_.eval_noise);
  return std::clamp(s, -MateBound + 1, MateBound - 1);
}

int Worker::evaluate() {
  int s = evaluate_white();
  return pos_.side_to_move() == chess::White ? s : -s;
}

bool Worker::is_draw(int ply) const {
  return pos_.halfmove_clock() >= 100 || pos_.insufficient_material() ||
         pos_.is_draw_by_repetition_in_search(ply);
}

void Worker::shuffle(MoveList& moves) {
  for (std::size_t i = moves.size(); i > 1; --i) std::swap(moves[i - 1], moves[rng_.below(i)]);
}

Move Worker::pick_root_move(const std::vector<RootMove>& moves) {
  int best = -Infinity;
  Move best_move = moves.front().move;
  for (const auto& rm : moves)
    if (rm.exact && rm.score > best) {
      best = rm.score;
      best_move = rm.move;
    }
  if (config_.random_margin <= 0 || best == -Infinity) return best_move;
  std::vector<Move> candidates;
  for (const auto& rm : moves)
    if (rm.exact && rm.score >= best - config_.random_margin) candidates.push_back(rm.move);
  return candidates[rng_.below(candidates.size())];
}

// Without the time, which costs a clock read: go() sets it on the result, and the caller on
// what it reports.
SearchInfo Worker::make_info_line(int depth, int score, const MoveList& pv) const {
  SearchInfo info;
  info.depth = depth;
  info.seldepth = std::max(seldepth_, depth);
  info.score = score;
  info.nodes = nodes_;
  info.pv.assign(pv.begin(), pv.end());
  return info;
}

SearchInfo Worker::make_info(int depth, int score, std::vector<Move> pv) const {
  SearchInfo info = make_info_line(depth, score, MoveList());
  info.time_ms = elapsed_ms();
  info.pv = std::move(pv);
  return info;
}

SearchResult Worker::go(const chess::Position& pos, const Limits& limits,
                        const std::atomic<bool>& stop,
                        const std::function<void(const SearchInfo&)>& on_info) {
  start_ = std::chrono::steady_clock::now();
  pos_ = pos;
  limits_ = limits;
  stop_ = &stop;
  budget_ = plan_time(limits, pos.side_to_move(), config_.move_overhead_ms);
  abort_ms_ = budget_.hard_ms;
  if (limits.deadline_ms > 0)
    abort_ms_ = abort_ms_ ? std::min(abort_ms_, limits.deadline_ms) : limits.deadline_ms;
  reset_counters();
  reset_tracking();
  tt_.new_search();

  SearchResult r;
  MoveList legal = pos_.legal_moves();
  if (legal.empty()) {
    r.info = make_info(0, pos_.in_check() ? -MateScore : 0, {});
    return r;
  }
  if (config_.own_book && book_ &&
      (config_.book_depth == 0 || game_plies(pos_) < config_.book_depth)) {
    const auto pick = config_.book_best ? chess::BookPick::Best : chess::BookPick::Weighted;
    if (auto m = chess::pick_book_move(book_->moves(pos_), pick, rng_)) {
      r.best = *m;
      r.from_book = true;
      r.info = make_info(0, 0, {r.best});
      return r;
    }
  }
  switch (config_.algorithm) {
    case Algorithm::Random:
      r = go_random(legal);
      break;
    case Algorithm::Greedy:
      r = go_greedy(legal);
      break;
    case Algorithm::Mcts:
      r = go_mcts(on_info);
      break;
    default:
      r = go_depth_first(legal, on_info);
      break;
  }
  // Whatever happened, answer with a legal move.
  if (!legal.contains(r.best)) r.best = legal[0];
  if (r.info.pv.empty() || r.info.pv.front() != r.best) r.info.pv = {r.best};
  r.ponder = r.info.pv.size() > 1 ? r.info.pv[1] : Move::none();
  r.info.nodes = nodes_;
  r.info.time_ms = elapsed_ms();
  return r;
}

SearchResult Worker::go_random(const MoveList& legal) {
  nodes_ = 1;
  SearchResult r;
  r.best = legal[rng_.below(legal.size())];
  r.info = make_info(0, 0, {r.best});
  return r;
}

// EasyAI: every move scored by the evaluation of the position it leads to (mates and
// stalemates exactly), the best one played.
SearchResult Worker::go_greedy(const MoveList& legal) {
  MoveList moves = legal;
  if (config_.shuffle) shuffle(moves);
  ++nodes_;
  std::vector<RootMove> root;
  for (Move m : moves) {
    make(m);
    ++nodes_;
    int s;
    if (pos_.legal_moves().empty())
      s = pos_.in_check() ? MateScore - 1 : 0;
    else if (is_draw(1))
      s = 0;
    else
      s = -evaluate();
    unmake();
    RootMove& rm = root.emplace_back(m);
    rm.score = s;
    rm.exact = true;
    rm.pv.push_back(m);
  }
  SearchResult r;
  r.best = pick_root_move(root);
  int best = -Infinity;
  for (const auto& rm : root) best = std::max(best, rm.score);
  r.info = make_info(1, best, {r.best});
  return r;
}

SearchResult Worker::go_depth_first(const MoveList& legal,
                                    const std::function<void(const SearchInfo&)>& on_info) {
  std::vector<RootMove>& root = root_;
  // The last finished iteration: `root` itself until the next iteration starts, then a copy
  // (made only then: a search that stops after its last iteration copies nothing).
  std::vector<RootMove>& completed = completed_;
  bool have_completed = false, root_is_completed = false;
  root.clear();
  completed.clear();
  {
    MoveList moves = legal;
    if (config_.shuffle) shuffle(moves);
    const std::size_t n = moves.size();
    // The evaluation's piece sums after each root move: for the ordering below, and kept in
    // the RootMove so that the root's make does not work them out again.
    const eval::PieceSums sums = tracked_[0].sums;
    eval::PieceSums after[256];
    for (std::size_t i = 0; i < n; ++i) after[i] = eval::piece_sums_after(pos_, sums, moves[i]);
    std::uint8_t order[256];
    for (std::size_t i = 0; i < n; ++i) order[i] = std::uint8_t(i);
    if (config_.algorithm == Algorithm::AlphaBeta && config_.move_ordering) {
      // The first iteration's order, as at any node: TT move, captures and promotions by
      // MVV-LVA, killers, history; a stable sort keeps the generator's order among equals.
      Move tt_move;
      if (tt_.enabled() && tt_stored_)
        if (const TTEntry* e = tt_.probe(pos_.key())) tt_move = e->move;
      // Equals (quiet moves with no history, as in a game's first searches) by what the move
      // gains on the piece-square tables: at depth 1 a good quiet move searched first lets
      // every worse one fail at the reply's stand-pat score.
      int scores[256];
      order_moves(moves, scores, tt_move, 0, false);
      const int sign = pos_.side_to_move() == chess::White ? 1 : -1;
      // One key per move: score, then gain, then the generator's order (so the sort is stable).
      std::int64_t keys[256];
      for (std::size_t i = 0; i < n; ++i) {
        const int gain = std::clamp(sign * (after[i].pst - sums.pst), -30000, 30000);
        keys[i] = (std::int64_t(scores[i]) << 24) + (std::int64_t(gain + 32768) << 8) +
                  std::int64_t(255 - i);
      }
      for (std::size_t i = 1; i < n; ++i) {
        const std::int64_t k = keys[i];
        std::size_t j = i;
        for (; j > 0 && keys[j - 1] < k; --j) keys[j] = keys[j - 1];
        keys[j] = k;
      }
      for (std::size_t i = 0; i < n; ++i) order[i] = std::uint8_t(255 - (keys[i] & 255));
    }
    for (std::size_t i = 0; i < n; ++i) root.emplace_back(moves[order[i]]).sums = after[order[i]];
  }
  const bool alphabeta = config_.algorithm == Algorithm::AlphaBeta;
  const bool open_ended = limits_.infinite || budget_.limited() || limits_.nodes > 0;
  int max_depth = limits_.depth > 0 ? std::min(limits_.depth, MaxPly - 1)
                  : open_ended      ? MaxPly - 1
                                    : std::max(1, config_.default_depth);
  int first_depth = config_.iterative_deepening ? 1 : max_depth;

  SearchResult r;
  r.best = root.front().move;
  Move prev_best;
  int prev_score = 0;
  bool partial_override = false;
  for (int depth = first_depth; depth <= max_depth; ++depth) {
    seldepth_ = 0;
    if (root_is_completed) {
      completed = root;
      root_is_completed = false;
    }
    if (alphabeta && config_.move_ordering && have_completed) {
      // Previous best first, then by the previous iteration's scores.
      std::stable_sort(root.begin(), root.end(), [&](const RootMove& a, const RootMove& b) {
        if (a.move == prev_best) return b.move != prev_best;
        if (b.move == prev_best) return false;
        return a.score > b.score;
      });
    }
    int done = 0;
    if (alphabeta && config_.pruning && config_.random_margin <= 0 && depth >= 5 &&
        !is_mate_score(prev_score)) {
      int delta = 30;
      int alpha = prev_score - delta, beta = prev_score + delta;
      while (true) {
        done = search_root(depth, root, alpha, beta);
        if (aborted_) break;
        int best = -Infinity;
        for (const auto& rm : root) best = std::max(best, rm.score);
        if (best <= alpha) {
          alpha = std::max(-Infinity, best - delta);
        } else if (best >= beta) {
          beta = std::min(Infinity, best + delta);
        } else {
          break;
        }
        delta *= 3;
        if (delta > 1500) alpha = -Infinity, beta = Infinity;
      }
    } else {
      done = search_root(depth, root, -Infinity, Infinity);
    }
    if (aborted_) {
      // A move that beat the previous best in this unfinished iteration is trusted; so is
      // anything at all when no iteration finished.
      const RootMove* best = nullptr;
      for (int i = 0; i < done; ++i)
        if (root[i].exact && (!best || root[i].score > best->score)) best = &root[i];
      if (best &&
          (!have_completed || (alphabeta && best->move != prev_best && best->score > prev_score))) {
        r.best = best->move;
        r.info = make_info_line(depth, best->score, best->pv);
        partial_override = true;
      }
      break;
    }
    have_completed = root_is_completed = true;
    const RootMove* best = nullptr;
    for (const auto& rm : root)
      if (rm.exact && (!best || rm.score > best->score)) best = &rm;
    if (!best) best = &root.front();
    prev_best = best->move;
    prev_score = best->score;
    r.best = best->move;
    r.info = make_info_line(depth, best->score, best->pv);
    if (on_info) {
      r.info.time_ms = elapsed_ms();
      on_info(r.info);
    }
    if (!limits_.infinite && is_mate_score(best->score) &&
        MateScore - std::abs(best->score) <= depth)
      break;
    if (budget_.soft_ms) {
      std::int64_t e = elapsed_ms();
      if (budget_.soft_ms == budget_.hard_ms ? e >= budget_.soft_ms : e >= budget_.soft_ms * 6 / 10)
        break;
    }
  }
  const std::vector<RootMove>& last = root_is_completed ? root : completed;
  if (have_completed && !partial_override) {
    Move chosen = pick_root_move(last);
    if (chosen != r.best) {
      for (const auto& rm : last)
        if (rm.move == chosen)
          r.info.pv = rm.pv.empty() ? std::vector<Move>{chosen}
                                    : std::vector<Move>(rm.pv.begin(), rm.pv.end());
      r.best = chosen;
    }
  }
  return r;
}

int Worker::search_root(int depth, std::vector<RootMove>& root, int alpha, int beta) {
  ++nodes_;
  const bool white = pos_.side_to_move() == chess::White;
  const bool pvs = config_.pruning;
  int best = -Infinity;
  int done = 0;
  for (auto& rm : root) {
    rm.score = -Infinity;
    rm.exact = false;
  }
  for (std::size_t i = 0; i < root.size(); ++i) {
    RootMove& rm = root[i];
    int score = 0;
    int a = alpha;
    make(rm.move, rm.sums);
    switch (config_.algorithm) {
      case Algorithm::Minimax: {
        int w = pos_.side_to_move() == chess::White ? minimax_max(depth - 1, 1)
                                                    : minimax_min(depth - 1, 1);
        score = white ? w : -w;
        break;
      }
      case Algorithm::Negamax:
        score = -negamax(depth - 1, 1);
        break;
      default: {
        if (best > -Infinity)
          a = std::max(alpha, config_.random_margin > 0 ? best - config_.random_margin - 1 : best);
        if (i == 0 || !pvs) {
          score = -alphabeta(depth - 1, -beta, -a, 1, true);
        } else {
          score = -alphabeta(depth - 1, -a - 1, -a, 1, true);
          if (!aborted_ && score > a && score < beta)
            score = -alphabeta(depth - 1, -beta, -a, 1, true);
        }
        break;
      }
    }
    unmake();
    if (aborted_) break;
    ++done;
    rm.score = score;
    rm.exact = score > a && score < beta;
    if (config_.algorithm != Algorithm::AlphaBeta) rm.exact = true;  // no window: always exact
    if (rm.exact) {
      rm.pv.clear();
      rm.pv.push_back(rm.move);
      for (int p = 1; p < pv_len_[1]; ++p) rm.pv.push_back(pv_[1][p]);
    }
    best = std::max(best, score);
  }
  return done;
}

void Worker::update_pv(int ply, Move m) {
  pv_[ply][ply] = m;
  int len = std::max(pv_len_[ply + 1], ply + 1);
  for (int p = ply + 1; p < len; ++p) pv_[ply][p] = pv_[ply + 1][p];
  pv_len_[ply] = len;
}

}  // namespace knightly::search
