#pragma once
// The PostgreSQL backend (libpq): one connection, statements prepared once per connection
// and cached by their text, results read as text, large results streamed through a cursor.
//
// Round trips are most of a statement's cost on a server, so a transaction is pipelined
// (libpq's pipeline mode): BEGIN, and every statement whose rows nobody reads (run()), are
// sent without waiting; the pipeline is synchronised when a statement's rows are needed
// and at COMMIT. Storing a game is then three round trips (claim check, game row, moves with
// COMMIT) rather than six. An error of a statement sent ahead surfaces at that sync, named
// by what that statement was doing, and fails the transaction.
//
// A connection found broken before a transaction starts is re-established (the server
// restarted, a network cut); one lost in the middle fails with a transient Unavailable (the
// transaction is redone), one lost while committing with an outcome that is unknown.
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/store/connection.h"

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace knightly::db {

struct PgSettings {
  int lock_timeout_ms = 10000;     // SQLite's busy timeout: a row or table lock waited for
  bool read_only = false;          // every transaction read-only
  bool synchronous_commit = true;  // false: a server crash may lose the last commits
};

class PgConnection final : public Connection {
 public:
  // `url` is passed to libpq (db::libpq_url: a raw '@' in the password escaped), which adds
  // PGPASSFILE and the PG* environment; messages
  // name it with its password replaced by ***. Throws StoreException (Unavailable).
  PgConnection(const std::string& url, const PgSettings& settings);
  ~PgConnection() override;
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  Dialect dialect() const override { return Dialect::Postgres; }
  const std::string& name() const override { return name_; }
  std::unique_ptr<StatementBackend> prepare(const std::string& sql, const std::string& what,
                                            Rows rows) override;
  void exec(std::string_view sql, const std::string& what) override;
  void begin(bool immediate, Commit commit) override;
  void commit() override;
  void rollback() noexcept override;
  bool read_only() const override { return settings_.read_only; }
  void check_not_moved(const std::string&) const override {}
  SchemaIdentity read_schema_identity() override;
  void lock_schema() override;
  void write_schema_identity(int version) override;

  // For PgStatement.
  bool in_transaction() const;
  // Reconnects a broken connection when no transaction is open (nothing is lost then); in
  // a transaction, fails with a transient Unavailable so the whole transaction is redone.
  void ensure_connected(const std::string& what);
  // The server-side name of the prepared statement for `sql`, prepared on first use (in a
  // transaction, sent ahead with the statement's first execution).
  std::string prepared(const std::string& sql, const std::string& what);
  // Runs a prepared statement. rows = true: waits and returns its result (the caller clears
  // it); false, in a transaction: sends it and returns nullptr (see the class comment).
  PGresult* execute(const std::string& name, const std::vector<const char*>& params,
                    const std::string& what, bool rows);
  // Runs SQL text with parameters now and returns its result (cursors).
  PGresult* execute_text(const std::string& sql, const std::vector<const char*>& params,
                         const std::string& what);
  std::string next_cursor_name() { return "knightly_cursor_" + std::to_string(++cursors_); }
  // Throws the StoreException for a failed result (or none: a lost connection); clears it.
  [[noreturn]] void fail(PGresult* result, const std::string& what) const;
  // The message with every password of the URL replaced by ***.
  std::string scrub(std::string message) const;

 private:
  void connect();
  void setup_session();
  bool pipelined() const;
  // Sends a command in the pipeline; its result is read at the next sync.
  void send(const std::string& what);
  // Synchronises the pipeline: reads the result of everything sent, throws the first error
  // (named by its statement's `what`), and returns the last command's result when `keep`.
  PGresult* sync(bool keep);
  void leave_pipeline() noexcept;

  PGconn* conn_ = nullptr;
  std::string url_;
  std::string name_;
  std::vector<std::string> secrets_;
  PgSettings settings_;
  std::unordered_map<std::string, std::string> prepared_;  // SQL text -> statement name
  std::uint64_t cursors_ = 0;
  bool transaction_open_ = false;    // between begin() and commit()/rollback()
  std::deque<std::string> pending_;  // what each command sent ahead is doing, in order
};

}  // namespace knightly::db
