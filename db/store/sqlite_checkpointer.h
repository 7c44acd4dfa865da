#pragma once
// A WAL database's checkpoints, off the threads that commit.
//
// SQLite copies the WAL into the database (a checkpoint) inside the commit that takes the WAL
// past its limit, fsyncs included: 30-50 ms in which the committing game thread holds the
// store, and every other game thread of the process that wants it waits. Here a commit only
// notes the WAL's size (SQLite's WAL hook, which replaces its automatic checkpoint on that
// connection); past `pages` frames a thread of the checkpointer's own, on a connection of its
// own, runs a PASSIVE checkpoint: it copies what no reader still needs and never waits for a
// reader or a writer, which go on meanwhile. What is copied and when is SQLite's, as before
// (the same limit, the same kind of checkpoint): only the thread that pays for it changes.
//
// Best effort: a checkpoint that fails or finds another one running (another process's) is
// tried again after the next commit that finds the WAL still long; a WAL four times the limit
// (the thread cannot keep up, or has no connection) is checkpointed by the commit itself, as
// SQLite would have. The thread is started at the first checkpoint due and stopped by the
// destructor, before the store's connection closes (whose close, the last in the process,
// checkpoints the rest and removes the WAL).
#include <sqlite3.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace knightly::db {

class SqliteCheckpointer {
 public:
  // Checkpoints the database at `path` once a commit on `db` leaves `pages` frames or more in
  // its WAL. `db` must outlive this object.
  SqliteCheckpointer(sqlite3* db, std::string path, int pages);
  ~SqliteCheckpointer();
  SqliteCheckpointer(const SqliteCheckpointer&) = delete;
  SqliteCheckpointer& operator=(const SqliteCheckpointer&) = delete;

  // Checkpoints run to their end so far (whatever they could copy).
  int checkpoints() const { return done_.load(); }

 private:
  static int on_commit(void* self, sqlite3* db, const char* schema, int frames) noexcept;
  void run() noexcept;

  sqlite3* db_;
  std::string path_;
  int pages_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool due_ = false;       // under mutex_
  bool stopping_ = false;  // under mutex_
  std::thread thread_;     // started under mutex_ when the first checkpoint is due
  std::atomic<int> done_{0};
};

}  // namespace knightly::db
