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
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/queue_types.h"
#include "db/records/report_types.h"
#include "db/records/store_types.h"
#include "db/records/tune_types.h"
#include "db/records/utc_time.h"  // the times it stores and returns
#include "db/store/catalog.h"
#include "db/store/game_writes.h"
#include "db/store/queries.h"
#include "db/store/store_error.h"
#include "db/store/store_options.h"
#include "db/store/test_queue.h"
#include "db/store/tunes.h"
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
  // Whether another thread of this process is using the store this moment (a transaction
  // of many games can take milliseconds): a thread with other work to do does that first
  // instead of waiting. Only a hint: the store may be taken the moment after.
  bool busy() const;
  // The store held for this thread until the lock returned is let go, when no other thread of
  // this process is using it this moment; an empty lock otherwise. What busy() tells, without
  // another thread taking the store between the answer and the call that follows it.
  std::unique_lock<std::recursive_mutex> try_hold() const;
  // SQLite: the checkpoints run so far off the threads that commit (store_parts.h); 0 on
  // PostgreSQL, in memory and read-only.
  int background_checkpoints() const;
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

  struct Impl;

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightly::db
