#pragma once
// The Knightly database: tournaments, engine versions, games and their moves, in one SQLite
// file or one PostgreSQL database (schema: db/schema/, docs/schema.md); the same methods on
// both. A Store opens the database and holds its parts, each a class over the one
// connection:
//   catalog()     tournaments and engine versions (catalog.h)
//   games()       game writes: a finished game, a claimed pair's game, import (game_writes.h)
//   work()        shared work: workers, pairs claimed under leases, the decision (work.h)
//   test_queue()  the test queue of `knightly work` (test_queue.h)
//   tunes()       SPSA tunes over a tournament's rounds (tunes.h)
//   queries()     reads: export, `knightly query`, the report's and serve's pages (queries.h)
// Calls are serialized by one mutex shared by the parts, so several game workers may share
// one Store; callbacks must not call back into the same Store. Any number of processes, on
// one machine (SQLite) or many (PostgreSQL), may share one database.
#include <chrono>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/store/catalog.h"
#include "db/store/game_writes.h"
#include "db/store/queries.h"
#include "db/store/queue_types.h"
#include "db/store/report_types.h"
#include "db/store/store_error.h"
#include "db/store/store_options.h"
#include "db/store/store_types.h"
#include "db/store/test_queue.h"
#include "db/store/tune_types.h"
#include "db/store/tunes.h"
#include "db/store/utc_time.h"  // the times it stores and returns
#include "db/store/work.h"

namespace knightly::db {

class Store {
 public:
  // Opens or creates `target`: an SQLite file (":memory:" for a private in-memory database)
  // or a PostgreSQL database, postgresql://user[:password]@host[:port]/name[?...] (also
  // postgres://; the password may come from PGPASSFILE or PGPASSWORD instead), or either
  // through env:NAME or file:PATH (database_url.h). Errors name the database as
  // location_text() shows it: NotFound, ReadOnly, Locked, Unavailable, NotKnightly, TooNew,
  // Io. A database that is not Knightly's is never modified.
  static std::expected<Store, StoreError> open(const std::string& target,
                                               const StoreOptions& options = {});

  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The database as messages name it (db::location_text): the path, or the URL with its
  // password as ***.
  const std::string& path() const;
  bool is_postgres() const;
  int schema_version() const;
  // "ok", or one line per problem: SQLite's integrity_check, games whose moves are missing,
  // pairs marked done without all their games. Reads every row.
  std::string integrity_check() const;

  // The parts. Every method of a part throws StoreException on failure (locked, read-only,
  // disk full...).
  Catalog& catalog();
  const Catalog& catalog() const;
  GameWrites& games();
  Work& work();
  const Work& work() const;
  TestQueue& test_queue();
  const TestQueue& test_queue() const;
  Tunes& tunes();
  const Tunes& tunes() const;
  const Queries& queries() const;

  // Until the callers reach the parts: each part's methods, forwarded (store_forward.cpp).
  std::optional<Tournament> find_tournament(std::string_view name) const;
  std::optional<Tournament> tournament(std::int64_t id) const;
  Tournament create_tournament(const NewTournament& tournament);
  Tournament restart_tournament(std::int64_t old_id, const NewTournament& tournament);
  void set_tournament_status(std::int64_t id, TournamentStatus status);
  std::vector<TournamentSummary> tournaments() const;
  std::int64_t upsert_engine(const EngineInfo& engine);
  std::optional<std::string> binary_sha256(const std::string& path);
  std::optional<std::int64_t> find_engine(std::string_view name) const;
  std::vector<EngineVersion> engines() const;
  std::int64_t insert_game(std::int64_t tournament_id, const runner::GameRecord& game,
                           std::int64_t white_engine_id, std::int64_t black_engine_id);
  StoreOutcome store_game(const Claim& claim, const runner::GameRecord& game,
                          std::int64_t white_engine_id, std::int64_t black_engine_id);
  std::vector<ImportOutcome> import_games(std::int64_t tournament_id,
                                          std::span<const ImportItem> games);
  static std::string content_hash(const runner::GameRecord& game, std::string_view dedup_key);
  std::int64_t register_worker(const WorkerIdentity& worker);
  bool add_pairs(std::int64_t tournament_id, std::span<const PairSlot> pairs,
                 const std::function<bool()>& stop = {});
  ClaimResult claim_pair(std::int64_t tournament_id, std::int64_t worker_id,
                         std::chrono::milliseconds lease,
                         std::optional<int> round_window = std::nullopt);
  std::vector<std::pair<std::int64_t, WorkerIdentity>> lease_holders(
      std::int64_t tournament_id) const;
  void expire_leases(std::int64_t worker_id);
  void renew_leases(std::int64_t worker_id, std::chrono::milliseconds lease);
  void release_claim(const Claim& claim);
  void set_live_position(const Claim& claim, int game_in_pair, int ply, const std::string& fen);
  bool finish_tournament(std::int64_t id, TournamentStatus status, const std::string& decision);
  bool request_stop(std::string_view name, const std::string& decision);
  std::int64_t scheduled_games(std::int64_t tournament_id) const;
  TournamentControl control(std::int64_t tournament_id) const;
  void set_sprt_settings(std::int64_t tournament_id, const SprtSettings& sprt);
  std::optional<SprtSettings> sprt_settings(std::int64_t tournament_id) const;
  std::vector<WorkerSummary> workers(const GameFilter& filter) const;
  std::vector<WorkerState> worker_states() const;
  std::vector<SourceCommitRecord> source_commits(std::int64_t tournament_id) const;
  SourceCommitRecord record_source_commit(std::int64_t tournament_id,
                                          const SourceCommitRecord& record);
  void set_engine_source(std::int64_t engine_id, const std::string& repo,
                         const std::string& commit);
  std::vector<EngineSourceRow> engine_sources() const;
  void set_worker_speed(std::int64_t worker_id, std::int64_t tournament_id, double nps,
                        double tc_factor);
  std::vector<WorkerSpeed> worker_speeds() const;
  Tournament submit_test(const NewTest& test);
  std::vector<QueuedTest> tests() const;
  std::optional<QueuedTest> test(std::int64_t tournament_id) const;
  std::vector<QueuedTest> open_tests() const;
  std::int64_t request_stop_all();
  std::int64_t stop_epoch() const;
  void create_tune(std::int64_t tournament_id, const TuneSetup& setup,
                   std::span<const runner::tune::Param> params);
  std::optional<StoredTune> tune(std::int64_t tournament_id, int from_iteration = 0) const;
  std::vector<std::int64_t> tune_ids() const;
  std::vector<runner::tune::Step> begin_tune_iteration(std::int64_t tournament_id, int iteration,
                                                       std::span<const runner::tune::Step> steps);
  int finish_tune_iterations(std::int64_t tournament_id);
  std::vector<runner::GameId> stored_game_ids(std::int64_t tournament_id) const;
  std::int64_t count_games(const GameFilter& filter = {}) const;
  void for_each_game(const GameFilter& filter,
                     const std::function<void(const StoredGame&)>& callback,
                     bool with_moves = true) const;
  std::vector<GameSummary> games(const GameFilter& filter) const;
  std::vector<PairCount> pair_counts(const GameFilter& filter) const;
  std::vector<VersionPairCount> version_pair_counts(const GameFilter& filter) const;
  std::vector<Standing> standings(const GameFilter& filter) const;
  std::vector<HeadToHead> head_to_head(const GameFilter& filter) const;
  std::vector<TerminationCount> termination_counts(const GameFilter& filter,
                                                   bool by_reason = false) const;
  void for_each_pair_result(const GameFilter& filter,
                            const std::function<void(const PairResult&)>& callback) const;
  std::vector<PairResult> pair_results(const GameFilter& filter) const;
  std::vector<MoveStats> move_stats(const GameFilter& filter, std::int64_t newest_games = 0) const;
  std::vector<EngineHealth> engine_health(const GameFilter& filter) const;
  void for_each_result(const GameFilter& filter,
                       const std::function<void(const StoredResult&)>& callback) const;
  std::vector<GameSummary> game_page(const GameFilter& filter, std::int64_t before_id,
                                     int limit) const;
  std::optional<StoredGame> game(std::int64_t id) const;
  std::string data_generation() const;
  std::vector<LeasedPair> leased_pairs() const;

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightly::db
