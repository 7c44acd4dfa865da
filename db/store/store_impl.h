#pragma once
// Store's private state, shared by store.cpp (open, writes), store_queries.cpp (reads) and
// store_work.cpp (claims and leases).
#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>

#include "db/store/database.h"
#include "db/store/statement.h"
#include "db/store/store.h"
#include "db/store/transaction.h"

namespace knightly::db {

inline constexpr int kMoveColumns = 18;  // values bound per row of moves

// The columns of a move as every reader selects them, in read_move's order, and the one
// reader of such a row; a move's match_line lines are stored joined by newlines.
inline constexpr const char* kMoveSelect =
    "SELECT uci, san, score_cp, mate, depth, seldepth, nodes, time_ms, clock_left_ms, book, nps, "
    "hashfull, tbhits, latency_ms, pv, lines FROM moves WHERE game_id = ? ORDER BY ply";
MoveRecord read_move(const Statement& st);
std::string join_lines(const std::vector<std::string>& lines);

struct Store::Impl {
  Impl(Database database, StoreOptions opts) : db(std::move(database)), options(opts) {}

  Database db;
  StoreOptions options;
  int version = 0;
  mutable std::recursive_mutex mutex;
  // Prepared once and reused: the per-game hot path.
  std::optional<Statement> insert_game;
  // insert_moves[n] inserts n moves in one statement: a game's moves go in blocks of
  // kMoveBlock and one statement for the rest (a 60-ply game: 2 statements, one round trip
  // each on a server). Prepared when first needed.
  static constexpr int kMoveBlock = 32;  // x kMoveColumns bound values: under SQLite's 999
  std::array<std::optional<Statement>, kMoveBlock + 1> insert_moves;
  std::optional<Statement> insert_claimed_game;  // only under the claim's current attempt
  std::optional<Statement> select_moves;

  // engine id -> name, refreshed when an unknown id shows up.
  mutable std::unordered_map<std::int64_t, std::string> engine_names;
  const std::string& engine_name(std::int64_t id) const;

  Tournament read_tournament(const Statement& st) const;  // columns of kTournamentColumns

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
  thread_local std::minstd_rand jitter(std::random_device{}());
  for (;;) {
    try {
      return attempt();
    } catch (const StoreException& e) {
      if (!e.error().transient || clock::now() + pause >= deadline)
        throw StoreException(in_context(e.error(), what));
    }
    // Random jitter keeps workers that collided from colliding again in step.
    std::this_thread::sleep_for(pause + std::chrono::microseconds(jitter() % (pause.count() + 1)));
    pause = std::min(pause * 2, std::chrono::microseconds(50000));
  }
}

}  // namespace detail

template <class F>
auto Store::Impl::write(const std::string& what, F&& fn, Commit commit) -> decltype(fn()) {
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
auto Store::Impl::read(const std::string& what, F&& fn) const -> decltype(fn()) {
  return detail::with_retry(options.busy_timeout_ms, what, fn);
}

// "storing game (round 1, pair 0, game 1) of tournament 3": what messages say a store did.
std::string game_text(std::int64_t tournament_id, const GameId& id);
// Refuses a game without a result (ErrorKind::Invalid).
void check_game(const Database& db, const GameRecord& game);
// Inserts one game and its moves inside the caller's transaction; returns its row id.
// content_hash: imported games only (else nullptr); worker_id: 0 for none. With a claim,
// only while the claim is still its pair's current attempt (the pair's row is then locked
// until the transaction ends); returns 0, inserting nothing, when it is not.
std::int64_t insert_game_rows(Store::Impl& s, std::int64_t tournament_id,
                              const GameRecord& game, const GameId& id,
                              std::int64_t white, std::int64_t black,
                              const std::string* content_hash, std::int64_t worker_id,
                              const Claim* claim);

// Inserts a tournament row (status running) inside the caller's transaction; returns its id.
// Conflict when a live tournament has the name.
std::int64_t insert_tournament(Database& db, const NewTournament& tournament);

// The column list read_tournament() expects, in order.
inline constexpr const char* kTournamentColumns =
    "id, name, kind, config_text, config_hash, seed, status, started_at, finished_at";

}  // namespace knightly::db
