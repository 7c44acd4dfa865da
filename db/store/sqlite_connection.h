#pragma once
// The SQLite backend: one sqlite3 connection and its prepared statements.
#include <chrono>
#include <memory>
#include <string>

#include "db/store/connection.h"
#include "db/store/sqlite_write_queue.h"

struct sqlite3;

namespace knightly::db {

class SqliteConnection final : public Connection {
 public:
  // flags are SQLITE_OPEN_* values; the connection is opened with extended result codes and
  // the given busy timeout, so a held lock fails after busy_timeout_ms, not never. `uri`, when
  // given, is what SQLite opens (with SQLITE_OPEN_URI); `path` is still what messages name.
  SqliteConnection(const std::string& path, int flags, int busy_timeout_ms, const std::string& uri);
  ~SqliteConnection() override;
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  Dialect dialect() const override { return Dialect::Sqlite; }
  const std::string& name() const override { return path_; }
  std::unique_ptr<StatementBackend> prepare(const std::string& sql, const std::string& what,
                                            Rows rows) override;
  void exec(std::string_view sql, const std::string& what) override;
  void begin(bool immediate, Commit commit) override;
  void commit() override;
  void rollback() noexcept override;
  bool read_only() const override;
  void check_not_moved(const std::string& what) const override;
  SchemaIdentity read_schema_identity() override;
  void lock_schema() override;
  void write_schema_identity(int version) override;

  // synchronous = FULL (every commit fsynced) or NORMAL; a Lazy transaction commits with
  // NORMAL whatever this says.
  void set_synchronous_full(bool full);

  sqlite3* handle() const { return db_; }
  struct StatementCache;
  // Throws the StoreException for `code` with the connection's current message.
  [[noreturn]] void fail(int code, const std::string& what) const;

 private:
  // SQLite's own busy handler sleeps up to 100 ms at a time, long after a lock is released
  // when many processes take turns; this one polls in short jittered sleeps (0.05 to 0.4 ms
  // for the first 20 ms, then up to 6.4 ms) until the busy timeout has passed since the first
  // try (for BEGIN, since the transaction began to wait, in the write queue first).
  static int busy_wait(void* self, int count);
  void end_lazy() noexcept;
  void leave_queue() noexcept;
  // Runs one statement without parameters (BEGIN, COMMIT, a PRAGMA), kept prepared.
  void run_kept(const std::string& sql, const std::string& what);

  sqlite3* db_ = nullptr;
  std::string path_;
  std::chrono::milliseconds busy_timeout_;
  std::chrono::steady_clock::time_point busy_since_;
  // A write transaction's wait began here (in the write queue, then SQLite's busy handler):
  // the busy timeout counts from it.
  std::chrono::steady_clock::time_point begin_wait_;
  bool beginning_ = false;
  bool wait_noticed_ = false;  // this wait's lock_wait_notice was given
  // Knightly's writers to this file wait their turn here (sqlite_write_queue.h): opened at the
  // first write transaction of a read-write connection to a file.
  bool queue_wanted_ = false;
  std::unique_ptr<SqliteWriteQueue> queue_;
  bool in_queue_ = false;  // this connection's transaction holds the queue
  bool synchronous_full_ = false;
  bool lazy_ = false;  // in a Lazy transaction: synchronous is NORMAL until it ends
  std::shared_ptr<StatementCache> cache_;  // prepared statements kept for reuse
};

}  // namespace knightly::db
