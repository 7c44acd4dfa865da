#pragma once
// The Store's read queries (Store::queries()): export streaming and the `knightly query`
// aggregates (queries.cpp), and what the pages of `knightly report` and `knightly serve` read
// (queries_pages.cpp). Read-only; every method throws StoreException on failure.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "db/records/report_types.h"
#include "db/records/store_types.h"
#include "db/store/statement.h"

namespace knightly::db {

struct StoreCore;

class Queries {
 public:
  explicit Queries(StoreCore& core);
  ~Queries();
  Queries(const Queries&) = delete;
  Queries& operator=(const Queries&) = delete;

  // Identities of the stored games of a tournament, in schedule order (for resume).
  std::vector<GameId> stored_game_ids(std::int64_t tournament_id) const;
  std::int64_t count_games(const GameFilter& filter = {}) const;
  // Streams the filtered games in (tournament, schedule index) order; one StoredGame is
  // reused, so memory stays flat however many games there are.
  void for_each_game(const GameFilter& filter,
                     const std::function<void(const StoredGame&)>& callback,
                     bool with_moves = true) const;

  // --- knightly query
  std::vector<GameSummary> games(const GameFilter& filter) const;
  std::vector<PairCount> pair_counts(const GameFilter& filter) const;
  // Per engine version, tournament and time control (runner/cli tells identities apart).
  std::vector<VersionPairCount> version_pair_counts(const GameFilter& filter) const;
  std::vector<Standing> standings(const GameFilter& filter) const;  // standings_from
  std::vector<HeadToHead> head_to_head(const GameFilter& filter) const;
  std::vector<TerminationCount> termination_counts(const GameFilter& filter,
                                                   bool by_reason = false) const;
  void for_each_pair_result(const GameFilter& filter,
                            const std::function<void(const PairResult&)>& callback) const;
  std::vector<PairResult> pair_results(const GameFilter& filter) const;

  // --- the pages of knightly report and knightly serve (queries_pages.cpp)
  // Per engine name and move number: sums over the non-book moves of the filtered games, or of
  // the newest `newest_games` of them (0 = all), ordered by engine and move number.
  std::vector<MoveStats> move_stats(const GameFilter& filter, std::int64_t newest_games = 0) const;
  // Per engine name (versions merged), in name order: the filtered games' faults it lost by
  // and its moves' latency (report_types.h).
  std::vector<EngineHealth> engine_health(const GameFilter& filter) const;
  // Streams the filtered games' results in the order they were stored (Elo over games, the
  // SPRT LLR path).
  void for_each_result(const GameFilter& filter,
                       const std::function<void(const StoredResult&)>& callback) const;
  // One page of the game list, newest stored first: at most `limit` games with an id below
  // `before_id` (0 = from the newest).
  std::vector<GameSummary> game_page(const GameFilter& filter, std::int64_t before_id,
                                     int limit) const;
  // The other way: at most `limit` games with an id above `after_id`, oldest stored first.
  // On SQLite, whose writers take turns and give each game the next id, a game committed
  // later always has a higher id than one committed before it (games are never deleted):
  // what was stored since a game seen (shared_tally.h).
  std::vector<GameSummary> game_page_after(const GameFilter& filter, std::int64_t after_id,
                                           int limit) const;
  // One game with its moves; nullopt when no game has that id.
  std::optional<StoredGame> game(std::int64_t id) const;
  // Changes whenever a game is stored, a pair is claimed or released, or a tournament is
  // created or changes status: what a reader caches by.
  std::string data_generation() const;
  // On SQLite, a number that changes whenever another connection (another process) commits
  // to the database, and not for this connection's own commits (PRAGMA data_version): "did
  // anyone else write since I last looked" without reading a table. nullopt on PostgreSQL.
  std::optional<std::int64_t> others_wrote_version() const;
  // The pairs held under a live lease (being played), in schedule order.
  std::vector<LeasedPair> leased_pairs() const;

 private:
  // The one reader of a game-list row (kSummarySelect's columns), and of a whole game
  // (kStoredGameSelect's) into `game`, its moves cleared (a streamed game is reused).
  GameSummary read_summary(const Statement& st) const;
  // At most `limit` filtered games past id `bound` (from either end when 0), newest first or
  // oldest first: game_page and game_page_after.
  std::vector<GameSummary> page_by_id(const GameFilter& filter, std::int64_t bound,
                                      bool newest_first, int limit) const;
  void read_stored_game(const Statement& st, StoredGame& game) const;
  // The moves of the game `st` is on (read_stored_game's row): its rows of `moves`, or the
  // lists in that row (imported games, !moves_in_rows).
  void read_moves(const Statement& st, StoredGame& game) const;

  StoreCore& core_;
  mutable std::optional<Statement> select_moves_;  // kMoveSelect, kept for export and pages
};

}  // namespace knightly::db
