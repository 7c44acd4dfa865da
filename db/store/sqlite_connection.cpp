#include "db/store/sqlite_connection.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "db/store/migrations.h"
#include "db/store/store_error.h"
#include "db/store/store_options.h"

namespace knightly::db {

// Prepared statements not in use, by SQL text, for the next Statement of the same text:
// compiling a statement costs more than running it (a stored game's dozen statements were half
// of its CPU). A statement is reset and its bindings cleared before it is kept, so an idle one
// holds no lock and no value. Shared with the statements out, which may outlive the
// connection: after close() they are finalized, not kept.
struct SqliteConnection::StatementCache {
  static constexpr std::size_t MaxIdle = 128;

  std::mutex mutex;
  bool open = true;
  std::unordered_map<std::string, sqlite3_stmt*> idle;

  // The idle statement for `sql` (nullptr if none), its key moved into `key`.
  sqlite3_stmt* take(const std::string& sql, std::string& key) {
    std::lock_guard lock(mutex);
    auto node = idle.extract(sql);
    if (node.empty()) return nullptr;
    key = std::move(node.key());
    return node.mapped();
  }
  void give_back(std::string&& key, sqlite3_stmt* stmt) {
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    {
      std::lock_guard lock(mutex);
      if (open && idle.size() < MaxIdle && idle.try_emplace(std::move(key), stmt).second) return;
    }
    sqlite3_finalize(stmt);
  }
  void close() {
    std::lock_guard lock(mutex);
    for (auto& [sql, stmt] : idle) sqlite3_finalize(stmt);
    idle.clear();
    open = false;
  }
};

namespace {

class SqliteStatement final : public StatementBackend {
 public:
  SqliteStatement(const SqliteConnection& db, const std::string& sql, const std::string& what,
                  std::shared_ptr<SqliteConnection::StatementCache> cache)
      : db_(db), what_(what), cache_(std::move(cache)) {
    if (cache_ && (stmt_ = cache_->take(sql, sql_))) return;
    const int rc = sqlite3_prepare_v3(db.handle(), sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt_);
      stmt_ = nullptr;
      db.fail(rc, "preparing " + what.substr(what.find(' ') + 1));
    }
    if (cache_) sql_ = sql;
  }
  ~SqliteStatement() override {
    if (cache_)
      cache_->give_back(std::move(sql_), stmt_);
    else
      sqlite3_finalize(stmt_);
  }
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  void bind_int64(int index, std::int64_t value) override {
    check_bind(sqlite3_bind_int64(stmt_, index, value), index);
  }
  void bind_double(int index, double value) override {
    check_bind(sqlite3_bind_double(stmt_, index, value), index);
  }
  void bind_text(int index, std::string_view value) override {
    check_bind(sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT,
                                   SQLITE_UTF8),
               index);
  }
  void bind_kept_text(int index, std::string_view value) override {
    check_bind(
        sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_STATIC, SQLITE_UTF8),
        index);
  }
  void bind_null(int index) override { check_bind(sqlite3_bind_null(stmt_, index), index); }

  void run() override {
    while (step()) {
    }
  }

  bool step() override {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    // Reset so the statement can be reused after the caller handles the error.
    sqlite3_reset(stmt_);
    db_.fail(rc, what_);
  }
  void reset() override {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  bool is_null(int column) const override {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
  }
  std::int64_t int64(int column) const override { return sqlite3_column_int64(stmt_, column); }
  double real(int column) const override { return sqlite3_column_double(stmt_, column); }
  std::string text(int column) const override {
    const auto* p = sqlite3_column_text(stmt_, column);
    if (!p) return {};
    return std::string(reinterpret_cast<const char*>(p),
                       static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
  }
  std::int64_t inserted_id() override {
    while (step()) {
    }
    // INSERT ... SELECT ... WHERE may insert nothing.
    return sqlite3_changes(db_.handle()) > 0 ? sqlite3_last_insert_rowid(db_.handle()) : 0;
  }

 private:
  void check_bind(int rc, int index) {
    if (rc != SQLITE_OK)
      db_.fail(rc, "binding parameter " + std::to_string(index) + " of " + what_);
  }

  const SqliteConnection& db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string what_;
  std::shared_ptr<SqliteConnection::StatementCache> cache_;  // null: finalized when done
  std::string sql_;                                          // the cache's key
};

std::atomic<LockWaitNotice> lock_wait_notice{nullptr};

// Gives the notice of a wait for `path`'s write lock past kLockWaitNoticeAfter, unless one
// for the same path was given within the last ten times that (every thread of a process
// waits for the same holder).
void notice_lock_wait(const std::string& path, std::chrono::milliseconds timeout) noexcept {
  const LockWaitNotice notice = lock_wait_notice.load();
  if (!notice) return;
  static std::mutex mutex;
  static std::string last_path;
  static std::chrono::steady_clock::time_point last_at;
  const auto now = std::chrono::steady_clock::now();
  try {
    std::lock_guard lock(mutex);
    if (path == last_path && now - last_at < 10 * kLockWaitNoticeAfter) return;
    last_path = path;
    last_at = now;
  } catch (...) {
    return;  // no notice rather than none of the wait
  }
  notice(path, timeout);
}

}  // namespace

void set_lock_wait_notice(LockWaitNotice notice) noexcept {
  lock_wait_notice.store(notice);
}

SqliteConnection::SqliteConnection(const std::string& path, int flags, int busy_timeout_ms,
                                   const std::string& uri)
    : path_(path),
      busy_timeout_(busy_timeout_ms),
      queue_wanted_((flags & SQLITE_OPEN_READWRITE) != 0 && uri.empty() && path != ":memory:" &&
                    !path.empty()),
      cache_(std::make_shared<StatementCache>()) {
  const int rc = uri.empty() ? sqlite3_open_v2(path.c_str(), &db_, flags, nullptr)
                             : sqlite3_open_v2(uri.c_str(), &db_, flags | SQLITE_OPEN_URI, nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    // sqlite3_close_v2 defers the close until every statement is finalized.
    if (db_) sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreException(sqlite_error(path_, rc, message, "opening"));
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_handler(db_, &SqliteConnection::busy_wait, this);
}

int SqliteConnection::busy_wait(void* self, int count) {
  auto& c = *static_cast<SqliteConnection*>(self);
  const auto now = std::chrono::steady_clock::now();
  if (count == 0) {
    c.busy_since_ = c.beginning_ ? c.begin_wait_ : now;
    // A wait that went through the write queue first was noticed there, if long.
    if (!c.beginning_) c.wait_noticed_ = false;
  }
  if (now - c.busy_since_ >= c.busy_timeout_) return 0;
  if (!c.wait_noticed_ && now - c.busy_since_ >= kLockWaitNoticeAfter) {
    c.wait_noticed_ = true;
    notice_lock_wait(c.path_, c.busy_timeout_);
  }
  // Knightly's own writers wait in the write queue instead (sqlite_write_queue.h); this is
  // for the rest: a writer outside the queue, a checkpoint, a new file switching to WAL.
  // Jittered over the upper half of `full` so waiters do not wake in step. For the first
  // 20 ms of a wait, at most 0.4 ms: a writer holds the lock about an fsync (a game stored),
  // and polling in steps longer than that left the lock idle between processes. A wait that
  // lasts longer (many processes queueing) doubles to at most 6.4 ms: 64 waiting processes poll a
  // few thousand times a second, not hundreds of thousands.
  const bool short_wait = now - c.busy_since_ < std::chrono::milliseconds(20);
  const unsigned full = 100u << std::min(count, short_wait ? 2 : 6);
  std::this_thread::sleep_for(std::chrono::microseconds(full / 2 + retry_jitter_us(full / 2)));
  return 1;
}

SqliteConnection::~SqliteConnection() {
  leave_queue();
  cache_->close();
  if (db_) sqlite3_close_v2(db_);
}

std::unique_ptr<StatementBackend> SqliteConnection::prepare(const std::string& sql,
                                                            const std::string& what, Rows rows) {
  // A streamed result (Rows::Many, an export) is one of a kind: not worth keeping.
  return std::make_unique<SqliteStatement>(*this, sql, what, rows == Rows::Few ? cache_ : nullptr);
}

void SqliteConnection::run_kept(const std::string& sql, const std::string& what) {
  SqliteStatement st(*this, sql, what, cache_);
  st.run();
}

void SqliteConnection::exec(std::string_view sql, const std::string& what) {
  const std::string text(sql);
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string message = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    throw StoreException(sqlite_error(path_, sqlite3_extended_errcode(db_), message, what));
  }
}

void SqliteConnection::set_synchronous_full(bool full) {
  exec(full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL", "setting synchronous");
  synchronous_full_ = full;
}

void SqliteConnection::begin(bool immediate, Commit commit) {
  // The commit's fsync is decided by synchronous when it happens (WAL): NORMAL skips it.
  static const std::string normal = "PRAGMA synchronous = NORMAL",
                           begin_immediate = "BEGIN IMMEDIATE", begin_deferred = "BEGIN DEFERRED";
  begin_wait_ = std::chrono::steady_clock::now();
  wait_noticed_ = false;
  if (immediate && queue_wanted_) {
    if (!queue_) {
      queue_ = SqliteWriteQueue::open(path_);
      queue_wanted_ = queue_ != nullptr;  // tried once: without one, the busy handler orders
    }
    if (queue_) {
      // Waited for in two parts when long: the notice between them.
      const auto deadline = begin_wait_ + busy_timeout_;
      const auto notice_at = begin_wait_ + kLockWaitNoticeAfter;
      auto entered = queue_->enter(std::min(deadline, notice_at));
      if (entered == SqliteWriteQueue::Entered::TimedOut && notice_at < deadline) {
        wait_noticed_ = true;
        notice_lock_wait(path_, busy_timeout_);
        entered = queue_->enter(deadline);
      }
      switch (entered) {
        case SqliteWriteQueue::Entered::Yes:
          in_queue_ = true;
          break;
        case SqliteWriteQueue::Entered::TimedOut:
          // What SQLite says of a lock held past the busy timeout, which this is.
          throw StoreException(sqlite_error(path_, SQLITE_BUSY, sqlite3_errstr(SQLITE_BUSY),
                                            "starting a transaction"));
        case SqliteWriteQueue::Entered::Skipped:
          break;
      }
    }
  }
  if (commit == Commit::Lazy && synchronous_full_) {
    try {
      run_kept(normal, "starting a transaction");
    } catch (...) {
      leave_queue();
      throw;
    }
    lazy_ = true;
  }
  beginning_ = true;
  try {
    run_kept(immediate ? begin_immediate : begin_deferred, "starting a transaction");
  } catch (...) {
    beginning_ = false;
    end_lazy();
    leave_queue();
    throw;
  }
  beginning_ = false;
}

void SqliteConnection::leave_queue() noexcept {
  if (!in_queue_) return;
  queue_->leave();
  in_queue_ = false;
}

void SqliteConnection::end_lazy() noexcept {
  if (!lazy_) return;
  sqlite3_exec(db_, "PRAGMA synchronous = FULL", nullptr, nullptr, nullptr);
  lazy_ = false;
}

void SqliteConnection::commit() {
  static const std::string commit = "COMMIT";
  try {
    run_kept(commit, "committing");
  } catch (...) {
    end_lazy();
    // A COMMIT that failed may leave the transaction open: the queue is left at its rollback.
    if (sqlite3_get_autocommit(db_) != 0) leave_queue();
    throw;
  }
  end_lazy();
  leave_queue();
}

void SqliteConnection::rollback() noexcept {
  // A failed rollback leaves SQLite's own automatic rollback to finish the job when the
  // connection closes.
  if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  end_lazy();
  leave_queue();
}

bool SqliteConnection::read_only() const {
  return sqlite3_db_readonly(db_, "main") == 1;
}

void SqliteConnection::check_not_moved(const std::string& what) const {
  int moved = 0;
  // Compares the inode behind the open descriptor with the one at the path (unix VFS).
  if (sqlite3_file_control(db_, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved)
    throw StoreException(sqlite_error(path_, SQLITE_READONLY_DBMOVED, "", what));
}

void SqliteConnection::fail(int code, const std::string& what) const {
  throw StoreException(sqlite_error(path_, code, sqlite3_errmsg(db_), what));
}

SchemaIdentity SqliteConnection::read_schema_identity() {
  // One statement, so one snapshot: read apart, another process creating the same new file
  // could commit between the reads, and its tables would be seen without its mark.
  SchemaIdentity id;
  auto st = prepare(
      "SELECT (SELECT application_id FROM pragma_application_id), "
      "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)",
      "reading the schema version", Rows::Few);
  if (st->step()) {
    id.application_id = st->int64(0);
    id.version = static_cast<int>(st->int64(1));
    id.objects = st->int64(2);
  }
  return id;
}

void SqliteConnection::lock_schema() {}  // BEGIN IMMEDIATE took the write lock

void SqliteConnection::write_schema_identity(int version) {
  // Pragmas take no parameters; both values are integers.
  exec("PRAGMA application_id = " + std::to_string(kApplicationId), "marking the database");
  exec("PRAGMA user_version = " + std::to_string(version), "recording the schema version");
}

}  // namespace knightly::db
