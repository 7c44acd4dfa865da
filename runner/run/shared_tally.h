#pragma once
// The first engine's results against the second over every worker's stored games of a
// two-engine tournament (games W/D/L and pairs for the pentanomial SPRT), kept up to date
// from the database after each stored game at the cost of what other workers stored since the
// last look. On SQLite: whether another process committed anything since (PRAGMA
// data_version: in a single-process run nothing is ever new, and nothing is read), then the
// games with ids above the newest one read (ids follow the commits there). On PostgreSQL: a
// count tells whether any game is new (an index entry read per game of the tournament), the
// newest games are read page by page until the known ones, and a count that still does not
// match (a game committed late under an older id) recounts all.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

#include "db/store/store.h"
#include "runner/run/two_engine_tally.h"

namespace knightly::runner {

class SharedTally {
 public:
  SharedTally(std::string first, std::int64_t tournament_id);

  // A game this process is about to store: not counted from the database until add_own (or
  // forgotten by drop_own when it is not stored), so that each of this process's games raises
  // the counts by one when its own thread reports it, never earlier through another thread's
  // refresh (fishtest reads the results blocks as one game more each).
  void will_add_own(int round, int pair, int game_in_pair);
  void drop_own(int round, int pair, int game_in_pair);
  // A game this process stored: counted without reading it back.
  void add_own(int round, int pair, const db::PairGame& game);
  // Brings the counts up to date with the database.
  void refresh(const db::Store& store);
  void recount(const db::Store& store);

  const TwoEngineTally& tally() const { return tally_; }
  std::int64_t games() const { return std::int64_t(seen_.size()); }
  std::int64_t full_recounts() const { return recounts_; }
  // Stored games read by refreshes so far (what a look at the others' news cost).
  std::int64_t games_read() const { return read_; }

 private:
  // Counts a game not counted yet; true when it was not.
  bool add(int round, int pair, const db::PairGame& game);
  // add() of a game read from the store, unless it is this process's, being stored, which
  // its thread adds (add_own).
  bool add_stored(int round, int pair, const db::PairGame& game);
  bool add_stored(const db::GameSummary& g);

  std::string first_;
  std::int64_t tournament_id_;
  TwoEngineTally tally_;
  std::unordered_set<std::int64_t> seen_;  // games counted, by identity (round, pair, game)
  std::unordered_set<std::int64_t> own_;   // this process's games being stored, not yet counted
  std::int64_t recounts_ = 0;
  std::int64_t read_ = 0;
  // SQLite's others_wrote_version when a refresh last found every game stored counted (or
  // coming from this process's threads).
  std::optional<std::int64_t> complete_at_;
  std::int64_t last_id_ = 0;  // SQLite: the newest game id read (games above it are new)
};

}  // namespace knightly::runner
