#pragma once
// How a Store is opened (Store::open).
#include <cstdint>

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
  // SQLite's page cache for this connection, in bytes; 0: SQLite's default (2 MB). A bulk
  // writer (import) gives more, so that the index pages its random keys touch stay in memory
  // instead of being read again and spilled mid-transaction. PostgreSQL: ignored (the
  // server's cache).
  std::int64_t cache_bytes = 0;
  // SQLite: how much WAL is written before it is copied into the database (a checkpoint). A
  // page written again before the next checkpoint is copied once: a bulk writer whose
  // transactions touch the same index pages (import) gives more. PostgreSQL: ignored.
  std::int64_t checkpoint_bytes = std::int64_t{16} << 20;
};

}  // namespace knightly::db
