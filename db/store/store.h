#pragma once
// The Knightly database: tournaments, engine versions, games and their moves, in one SQLite
// file or one PostgreSQL database (schema: db/schema/, docs/schema.md); the same methods on
// both. A finished game goes in with its moves in one transaction committed before
// insert_game/store_game returns, so a crash can lose only games still in progress. Calls
// are serialized by an internal mutex, so several game workers may share one Store;
// callbacks must not call back into the same Store. Any number of processes, on one machine
// (SQLite) or many (PostgreSQL), may share one database.
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

#include "db/records/queue_types.h"
#include "db/records/report_types.h"
#include "db/store/store_error.h"
#include "db/records/store_types.h"
#include "db/records/tune_types.h"
#include "db/store/utc_time.h"  // the times it stores and returns
#include "db/records/game_record.h"

namespace knightly::db {

enum class OpenMode {
  ReadWrite,  // create the file if missing, migrate it to the current schema
  ReadOnly,   // queries and export: never writes the file
};

struct StoreOptions {
  OpenMode mode = OpenMode::ReadWrite;
  // How long a call waits for another writer's lock before failing with ErrorKind::Locked.
  int busy_timeout_ms = 10000;
  // true: every commit is fsynced (survives power loss); false: WAL with synchronous=NORMAL
  // (survives a crashed or killed process, may lose the last commits on power loss).
  bool sync_every_commit = true;
};

// One game for import_games().
struct ImportItem {
  GameRecord record;
  std::int64_t white_engine_id = 0;
  std::int64_t black_engine_id = 0;
  // Whatever identifies the game beyond its moves (e.g. the PGN's Event/Site/Date/Round
  // tags); hashed with the players, start position, moves and result for de-duplication.
  std::string dedup_key;
};

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

  // Every method below throws StoreException on failure (locked, read-only, disk full...).

  // --- tournaments
  // The live (not restarted) tournament of that name.
  std::optional<Tournament> find_tournament(std::string_view name) const;
  std::optional<Tournament> tournament(std::int64_t id) const;
  // Fails with ErrorKind::Conflict when a live tournament already has the name.
  Tournament create_tournament(const NewTournament& tournament);
  // Marks `old_id` restarted (kept with its games under its id) and creates the new one,
  // in one transaction.
  Tournament restart_tournament(std::int64_t old_id, const NewTournament& tournament);
  // Finished/aborted set finished_at to now; running clears it, the stop request and the
  // decision (a resumed tournament).
  void set_tournament_status(std::int64_t id, TournamentStatus status);
  std::vector<TournamentSummary> tournaments() const;

  // --- engines
  // The id of the row for this exact version, created if new. A known version gets its
  // uci_name/uci_author filled in when they were empty.
  std::int64_t upsert_engine(const EngineInfo& engine);
  // The SHA-256 of the program at `path`, read from the file only when its size or
  // modification time changed since it was last hashed (or it never was); nullopt when the
  // file cannot be read. In a read-only store nothing is remembered.
  std::optional<std::string> binary_sha256(const std::string& path);
  // The newest version with that name (import matches engines by name).
  std::optional<std::int64_t> find_engine(std::string_view name) const;
  std::vector<EngineVersion> engines() const;

  // --- games
  // Stores a finished game and its moves in one committed transaction; returns its row id.
  // Conflict if (tournament, round, pair, game_in_pair) is already stored; Invalid if the
  // result is "*".
  std::int64_t insert_game(std::int64_t tournament_id, const GameRecord& game,
                           std::int64_t white_engine_id, std::int64_t black_engine_id);
  // Identities of the stored games of a tournament, in schedule order (for resume).
  std::vector<GameId> stored_game_ids(std::int64_t tournament_id) const;
  std::int64_t count_games(const GameFilter& filter = {}) const;
  // Streams the filtered games in (tournament, schedule index) order; one StoredGame is
  // reused, so memory stays flat however many games there are.
  void for_each_game(const GameFilter& filter,
                     const std::function<void(const StoredGame&)>& callback,
                     bool with_moves = true) const;

  // --- import
  // Inserts the games not already in the database (same content hash), all in one
  // transaction. Importing the same games again changes nothing.
  std::vector<ImportOutcome> import_games(std::int64_t tournament_id,
                                          std::span<const ImportItem> games);
  static std::string content_hash(const GameRecord& game, std::string_view dedup_key);

  // --- shared work: any number of workers (threads or processes, on one SQLite file or one
  // PostgreSQL database) play one tournament. See docs/distributed.md.
  // Registers this worker (one per process) and returns its id.
  std::int64_t register_worker(const WorkerIdentity& worker);
  // Records the tournament's units of work; idempotent (every worker calls it at start).
  // Written in batches of 10,000, each its own transaction; `stop` (may be empty) is asked
  // before each: false when it said stop before all were written (the next call writes the
  // rest).
  bool add_pairs(std::int64_t tournament_id, std::span<const PairSlot> pairs,
                 const std::function<bool()>& stop = {});
  // Atomically claims the first pair, in schedule order, that is neither stored nor under a
  // live lease (an expired lease is anyone's), leased to `worker_id` for `lease`. With a
  // `round_window` (a tune's delay), only a pair at most that many rounds after the first
  // round with a pair not done: later ones wait (Busy) for the earlier rounds' results.
  ClaimResult claim_pair(std::int64_t tournament_id, std::int64_t worker_id,
                         std::chrono::milliseconds lease,
                         std::optional<int> round_window = std::nullopt);
  // The workers holding live or expired leases on pairs of the tournament, with their ids.
  std::vector<std::pair<std::int64_t, WorkerIdentity>> lease_holders(
      std::int64_t tournament_id) const;
  // Ends every lease `worker_id` holds now (a worker known to be gone: its process no longer
  // exists): its pairs are anyone's at once instead of when the lease runs out.
  void expire_leases(std::int64_t worker_id);
  // Heartbeat: extends every lease `worker_id` holds and marks the worker seen.
  void renew_leases(std::int64_t worker_id, std::chrono::milliseconds lease);
  // Stores a finished game of a claimed pair in one transaction: in games when the claim is
  // still the pair's current attempt, else in superseded_games. The last game of the pair
  // also releases the claim (the pair is done) in the same transaction.
  StoreOutcome store_game(const Claim& claim, const GameRecord& game,
                          std::int64_t white_engine_id, std::int64_t black_engine_id);
  // Gives an unfinished pair back (the worker stops): anyone may claim it at once.
  void release_claim(const Claim& claim);
  // The position of the claim's game `game_in_pair` as it is being played (`ply` plies from
  // its start), for whoever watches (knightly serve). Nothing when the claim is no longer the
  // pair's, or when another thread is using the store at that moment (the game does not wait
  // for it); committed without waiting for the disk.
  void set_live_position(const Claim& claim, int game_in_pair, int ply, const std::string& fen);
  // Marks the tournament finished (or aborted) once: true when this call did it, false when
  // another worker had already decided. `decision` says why, with the counts that decided it.
  bool finish_tournament(std::int64_t id, TournamentStatus status, const std::string& decision);
  // `knightly stop NAME`: the tournament is aborted with the stop flag set and `decision`
  // saying so (decision.h's stop text): every worker starts no new pair, and the next run of
  // it clears both (set_tournament_status Running) and plays the rest. False when no running
  // or aborted tournament has that name.
  bool request_stop(std::string_view name, const std::string& decision);
  // The games the tournament's recorded pairs hold: its schedule's size (0 before a worker
  // recorded them).
  std::int64_t scheduled_games(std::int64_t tournament_id) const;
  TournamentControl control(std::int64_t tournament_id) const;
  void set_sprt_settings(std::int64_t tournament_id, const SprtSettings& sprt);
  std::optional<SprtSettings> sprt_settings(std::int64_t tournament_id) const;
  std::vector<WorkerSummary> workers(const GameFilter& filter) const;
  // Every registered worker's state, by id (store_queries.cpp).
  std::vector<WorkerState> worker_states() const;

  // --- tunes: SPSA over a tournament's rounds (docs/tuning.md; db/store/store_tune.cpp)
  // Records the tune of a tournament with its parameters; nothing when it is recorded already
  // (every worker calls it). Invalid when another tune is recorded for it.
  void create_tune(std::int64_t tournament_id, const TuneSetup& setup,
                   std::span<const tune::Param> params);
  // The tune of a tournament with every iteration begun from `from_iteration` on, in order;
  // nullopt for none.
  std::optional<StoredTune> tune(std::int64_t tournament_id, int from_iteration = 0) const;
  // The tournaments that have a tune, by id.
  std::vector<std::int64_t> tune_ids() const;
  // Records iteration `iteration`'s steps unless a worker did before, and returns the steps
  // recorded: the first writer's (every worker computes the same ones).
  std::vector<tune::Step> begin_tune_iteration(std::int64_t tournament_id, int iteration,
                                                       std::span<const tune::Step> steps);
  // Fills in the result of every begun iteration whose pairs are all done (every game stored),
  // from its games; returns how many it filled in.
  int finish_tune_iterations(std::int64_t tournament_id);

  // --- queries (knightly query ...)
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

  // --- report: knightly report / knightly serve (db/store/store_report.cpp). Read-only.
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
  // One game with its moves; nullopt when no game has that id.
  std::optional<StoredGame> game(std::int64_t id) const;
  // Changes whenever a game is stored, a pair is claimed or released, or a tournament is
  // created or changes status: what a reader caches by.
  std::string data_generation() const;
  // The pairs held under a live lease (being played), in schedule order.
  std::vector<LeasedPair> leased_pairs() const;
  // --- end of report

  // --- engines from source, worker speeds, the test queue (db/store/store_queue.cpp;
  // docs/regression-testing.md)
  // The commits a tournament's engines are built from, by engine index.
  std::vector<SourceCommitRecord> source_commits(std::int64_t tournament_id) const;
  // Records `record` unless the engine has a commit already; returns the one stored (the first
  // worker's resolution wins).
  SourceCommitRecord record_source_commit(std::int64_t tournament_id,
                                          const SourceCommitRecord& record);
  // Marks an engine version (upsert_engine's id) as built from `commit` of `repo`.
  void set_engine_source(std::int64_t engine_id, const std::string& repo,
                         const std::string& commit);
  // The engine versions built from source, with their commits.
  std::vector<EngineSourceRow> engine_sources() const;
  // What this worker measured for the tournament it plays.
  void set_worker_speed(std::int64_t worker_id, std::int64_t tournament_id, double nps,
                        double tc_factor);
  // Every worker that measured its speed, by worker id.
  std::vector<WorkerSpeed> worker_speeds() const;
  // Adds a test to the queue: its tournament (Conflict when the name is taken), SPRT settings,
  // definition and the commits already resolved, in one transaction.
  Tournament submit_test(const NewTest& test);
  // Every submitted test, the newest first.
  std::vector<QueuedTest> tests() const;
  std::optional<QueuedTest> test(std::int64_t tournament_id) const;
  // The tests a worker may take (not finished, no stop requested), in the order it takes
  // them: the highest priority first, then the fewest stored games, then the oldest.
  std::vector<QueuedTest> open_tests() const;
  // `knightly stop --all`: raises the queue's stop epoch and returns it.
  std::int64_t request_stop_all();
  std::int64_t stop_epoch() const;

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightly::db
