#pragma once
// How a Store is opened (Store::open).
#include <chrono>
#include <cstdint>
#include <string>

namespace knightly::db {

// What a process says when one of its writers has waited kLockWaitNoticeAfter for an SQLite
// database's write lock (held by another process, or another program) and goes on waiting:
// the database's path and how long the whole wait may last (its busy timeout). Set once by
// the program (knightly prints a line to stderr); none by default. At most one notice per
// database path every kLockWaitNoticeAfter x 10, however many threads and connections wait.
using LockWaitNotice = void (*)(const std::string& path,
                                std::chrono::milliseconds busy_timeout) noexcept;
inline constexpr std::chrono::milliseconds kLockWaitNoticeAfter{1000};
void set_lock_wait_notice(LockWaitNotice notice) noexcept;

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
  // SQLite: checkpoints on a thread of their own (sqlite_checkpointer.h), so that the commit
  // that takes the WAL past its limit does not hold the store (and the process's other game
  // threads) while it copies and fsyncs. false: in that commit, as SQLite does; for a bulk
  // writer whose one committing thread is the work (import), where checkpoints beside its
  // commits copy the pages it rewrites again and again.
  bool checkpoint_off_thread = true;
};

}  // namespace knightly::db
