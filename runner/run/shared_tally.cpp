#include "runner/run/shared_tally.h"

#include <algorithm>

namespace knightly::runner {

SharedTally::SharedTally(std::string first, std::int64_t tournament_id)
    : first_(std::move(first)), tournament_id_(tournament_id), tally_(first_) {}

namespace {

// A game's identity in its tournament (unique there) as one number.
std::int64_t key(int round, int pair, int game_in_pair) {
  return (std::int64_t(round) << 32) | (std::int64_t(pair) << 1) | std::int64_t(game_in_pair & 1);
}

}  // namespace

bool SharedTally::add(int round, int pair, const db::PairGame& game) {
  if (!seen_.insert(key(round, pair, game.game_in_pair)).second) return false;
  tally_.add(round, pair, game);
  return true;
}

bool SharedTally::add_stored(int round, int pair, const db::PairGame& game) {
  // This process's games being stored are added by their threads (add_own).
  if (own_.count(key(round, pair, game.game_in_pair))) return false;
  return add(round, pair, game);
}

bool SharedTally::add_stored(const db::GameSummary& g) {
  return add_stored(g.game_id.round, g.game_id.pair,
                    db::PairGame{g.game_id.game_in_pair, g.white, g.black, g.result});
}

void SharedTally::will_add_own(int round, int pair, int game_in_pair) {
  own_.insert(key(round, pair, game_in_pair));
}

void SharedTally::drop_own(int round, int pair, int game_in_pair) {
  own_.erase(key(round, pair, game_in_pair));
}

void SharedTally::add_own(int round, int pair, const db::PairGame& game) {
  own_.erase(key(round, pair, game.game_in_pair));
  add(round, pair, game);
}

void SharedTally::refresh(const db::Store& store) {
  // On SQLite nothing is new unless another process committed since the last look that found
  // everything (this process's own games are added by their threads): no count, which reads
  // an index entry per game of the tournament, after each of a long run's games.
  const auto version = store.queries().others_wrote_version();
  if (version && version == complete_at_) return;
  db::GameFilter filter;
  filter.tournament_ids = {tournament_id_};
  if (version) {
    // SQLite: what others stored since has ids above the newest game read (game_page_after):
    // read those alone, not a count of the tournament's games, which grew with the run (a
    // long match of two workers read an index entry per game stored for each game stored).
    constexpr int kPage = 256;
    for (;;) {
      const auto page = store.queries().game_page_after(filter, last_id_, kPage);
      read_ += std::int64_t(page.size());
      for (const auto& g : page) {
        last_id_ = g.id;
        add_stored(g);
      }
      if (int(page.size()) < kPage) break;
    }
    complete_at_ = version;
    return;
  }
  // PostgreSQL gives ids as games start to be stored, and a game committed late can have an
  // older id than games read before it: a count tells whether any game is new.
  // The stored count may hold some of this process's games still to be added by their threads.
  const std::int64_t stored = store.queries().count_games(filter);
  const auto complete = [&] { return games() + std::int64_t(own_.size()) >= stored; };
  if (stored == games()) {
    complete_at_ = version;
    return;
  }
  constexpr int kPage = 64;
  std::int64_t before = 0;
  for (;;) {
    const auto page = store.queries().game_page(filter, before, kPage);
    read_ += std::int64_t(page.size());
    int fresh = 0;
    for (const auto& g : page)
      if (add_stored(g)) ++fresh;
    if (int(page.size()) < kPage || fresh == 0 || complete()) break;
    before = page.back().id;
  }
  // Complete by the count alone only when this process's games being stored are all
  // committed, which it cannot tell; a recount is exact.
  if (!complete()) {
    recount(store);
    complete_at_ = version;
  }
}

void SharedTally::recount(const db::Store& store) {
  ++recounts_;
  tally_ = TwoEngineTally(first_);
  seen_.clear();
  db::GameFilter filter;
  filter.tournament_ids = {tournament_id_};
  store.queries().for_each_result(filter, [&](const db::StoredResult& r) {
    last_id_ = std::max(last_id_, r.id);
    add_stored(r.round, r.pair, db::PairGame{r.game_in_pair, r.white, r.black, r.result});
  });
}

}  // namespace knightly::runner
