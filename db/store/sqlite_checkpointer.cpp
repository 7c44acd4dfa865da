#include "db/store/sqlite_checkpointer.h"

#include <cstdint>

namespace knightly::db {

SqliteCheckpointer::SqliteCheckpointer(sqlite3* db, std::string path, int pages)
    : db_(db), path_(std::move(path)), pages_(pages < 1 ? 1 : pages) {
  sqlite3_wal_hook(db_, &SqliteCheckpointer::on_commit, this);
}

SqliteCheckpointer::~SqliteCheckpointer() {
  sqlite3_wal_hook(db_, nullptr, nullptr);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int SqliteCheckpointer::on_commit(void* self, sqlite3* db, const char* schema,
                                  int frames) noexcept {
  auto& c = *static_cast<SqliteCheckpointer*>(self);
  if (frames < c.pages_) return SQLITE_OK;
  // Four times the limit: the thread is not keeping up or cannot run (no connection): this
  // commit checkpoints, as SQLite's own hook would have at the limit.
  if (frames >= 4 * std::int64_t(c.pages_)) {
    sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    return SQLITE_OK;
  }
  try {
    std::lock_guard lock(c.mutex_);
    if (c.stopping_) return SQLITE_OK;
    c.due_ = true;
    if (!c.thread_.joinable()) c.thread_ = std::thread([&c] { c.run(); });
  } catch (...) {
    // No thread (out of resources): the WAL waits for the next commit, or the close.
    return SQLITE_OK;
  }
  c.wake_.notify_one();
  return SQLITE_OK;
}

void SqliteCheckpointer::run() noexcept {
  sqlite3* own = nullptr;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return due_ || stopping_; });
      if (stopping_) break;
      due_ = false;
    }
    if (!own) {
      // A connection sees the file in WAL mode once it has read it (the schema's version).
      if (sqlite3_open_v2(path_.c_str(), &own, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                          nullptr) != SQLITE_OK ||
          sqlite3_exec(own, "PRAGMA schema_version", nullptr, nullptr, nullptr) != SQLITE_OK) {
        sqlite3_close(own);  // a handle is returned even on failure
        own = nullptr;
        continue;  // tried again when the next commit finds the WAL long
      }
      sqlite3_wal_autocheckpoint(own, 0);  // it writes nothing: no checkpoint of its own
    }
    if (sqlite3_wal_checkpoint_v2(own, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr) ==
        SQLITE_OK)
      done_.fetch_add(1);
  }
  sqlite3_close(own);
}

}  // namespace knightly::db
