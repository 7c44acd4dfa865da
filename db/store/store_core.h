#pragma once
// What the parts of a Store (catalog.h, game_writes.h, work.h, test_queue.h, tunes.h,
// queries.h) share: the one Database, the options it was opened with, the lock that
// serializes calls, the engine-name cache, and the retry of a transaction. Private to
// db/store.
#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "db/records/store_types.h"
#include "db/records/utc_time.h"
#include "db/store/database.h"
#include "db/store/statement.h"
#include "db/store/store_error.h"
#include "db/store/store_options.h"
#include "db/store/transaction.h"

namespace knightly::db {

// The columns of a move as every reader selects them, in read_move's order, and the one
// reader of such a row; a move's match_line lines are stored joined by newlines.
inline constexpr const char* kMoveSelect =
    "SELECT uci, san, score_cp, mate, depth, seldepth, nodes, time_ms, clock_left_ms, book, nps, "
    "hashfull, tbhits, latency_ms, pv, lines FROM moves WHERE game_id = ? ORDER BY ply";
MoveRecord read_move(const Statement& st);

// The columns of a game as the game lists read them (Queries::read_summary's order), and of
// a whole game as export and the game page read it (Queries::read_stored_game's order). Each is
// followed by the caller's WHERE, ORDER BY and LIMIT.
inline constexpr const char* kSummarySelect =
    "SELECT g.id, g.tournament_id, t.name, g.round, g.pair, g.game_in_pair, g.schedule_index, "
    "g.white_id, g.black_id, g.result, g.termination, g.reason, g.plies, g.started_at, "
    "g.duration_ms, g.time_control, g.opening_source "
    "FROM games g JOIN tournaments t ON t.id = g.tournament_id";
inline constexpr const char* kStoredGameSelect =
    "SELECT g.id, g.tournament_id, g.round, g.pair, g.game_in_pair, g.schedule_index, "
    "g.white_id, g.black_id, g.opening_fen, g.opening_moves, g.opening_source, g.result, "
    "g.termination, g.reason, g.started_at, g.duration_ms, g.time_control, g.pgn, "
    "g.moves_uci, g.moves_san, g.pgn_tags FROM games g";
std::string join_lines(const std::vector<std::string>& lines);

struct StoreCore {
  StoreCore(Database database, StoreOptions opts) : db(std::move(database)), options(opts) {}

  Database db;
  StoreOptions options;
  int version = 0;
  // Every call of every part holds it: several game workers may share one Store.
  mutable std::recursive_mutex mutex;

  // engine id -> name, refreshed when an unknown id shows up.
  mutable std::unordered_map<std::int64_t, std::string> engine_names;
  const std::string& engine_name(std::int64_t id) const;

  Tournament read_tournament(const Statement& st) const;  // columns of kTournamentColumns
  // The tournament with that id; the caller holds the mutex.
  std::optional<Tournament> tournament(std::int64_t id) const;

  // Runs fn() in a write transaction and commits it. A lock that is only transient (SQLite
  // answering busy at once rather than after its busy timeout, a PostgreSQL deadlock or
  // serialization failure) rolls back and runs fn() again after a growing pause, until the
  // busy timeout has passed since the first try. A failure of the database itself is said
  // again as a failure while `what` ("storing game (round 1, pair 0, game 1) of ...").
  // commit: Lazy for what costs nothing to lose on a power cut (claims, heartbeats).
  template <class F>
  auto write(const std::string& what, F&& fn, Commit commit = Commit::Durable) -> decltype(fn());

  // The same retry and context for a read.
  template <class F>
  auto read(const std::string& what, F&& fn) const -> decltype(fn());
};

namespace detail {

// Calls attempt() until it returns without a transient lock error or the deadline passes.
template <class F>
auto with_retry(int busy_timeout_ms, const std::string& what, F&& attempt) -> decltype(attempt()) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  auto pause = std::chrono::microseconds(500);
  for (;;) {
    try {
      return attempt();
    } catch (const StoreException& e) {
      if (!e.error().transient || clock::now() + pause >= deadline)
        throw StoreException(in_context(e.error(), what));
    }
    std::this_thread::sleep_for(
        pause + std::chrono::microseconds(retry_jitter_us(std::uint64_t(pause.count()))));
    pause = std::min(pause * 2, std::chrono::microseconds(50000));
  }
}

}  // namespace detail

template <class F>
auto StoreCore::write(const std::string& what, F&& fn, Commit commit) -> decltype(fn()) {
  return detail::with_retry(options.busy_timeout_ms, what, [&]() -> decltype(fn()) {
    db.check_not_moved(what);
    Transaction tx(db, Transaction::Mode::Immediate, commit);
    if constexpr (std::is_void_v<decltype(fn())>) {
      fn();
      tx.commit();
    } else {
      auto result = fn();
      tx.commit();
      return result;
    }
  });
}

template <class F>
auto StoreCore::read(const std::string& what, F&& fn) const -> decltype(fn()) {
  return detail::with_retry(options.busy_timeout_ms, what, fn);
}

// "storing game (round 1, pair 0, game 1) of tournament 3": what messages say a store did.
std::string game_text(std::int64_t tournament_id, const GameId& id);
// "pair (round 1, pair 0) of tournament 3".
std::string pair_text(const Claim& claim);

// A pair's stored_mask has bit 0 for game 0 and bit 1 for game 1; a pair is done when every
// one of its games is stored. Written with CASE rather than shifts, which PostgreSQL types
// strictly.
inline constexpr const char* kFullMask = "(CASE WHEN games = 2 THEN 3 ELSE 1 END)";

// Inserts a tournament row (status running) inside the caller's transaction; returns its id.
// Conflict when a live tournament has the name.
std::int64_t insert_tournament(Database& db, const NewTournament& tournament);

// The column list read_tournament() expects, in order.
inline constexpr const char* kTournamentColumns =
    "id, name, kind, config_text, config_hash, seed, status, started_at, finished_at";

}  // namespace knightly::db
