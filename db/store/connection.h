#pragma once
// What a database backend implements: a connection and its prepared statements. Database
// and Statement (database.h, statement.h) are the faces the store uses; SqliteConnection and
// PgConnection are the two implementations. SQL reaching a backend is already translated for
// its dialect (dialect.h). Every failure throws StoreException naming the database.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "db/store/dialect.h"

namespace knightly::db {

class StatementBackend {
 public:
  virtual ~StatementBackend() = default;
  // Parameters are 1-based.
  virtual void bind_int64(int index, std::int64_t value) = 0;
  virtual void bind_double(int index, double value) = 0;
  virtual void bind_text(int index, std::string_view value) = 0;
  // bind_text of text the caller keeps unchanged until the statement's next reset: SQLite
  // reads it in place rather than copying it. Other backends copy.
  virtual void bind_kept_text(int index, std::string_view value) { bind_text(index, value); }
  virtual void bind_null(int index) = 0;
  // True when a row is available, false when the statement is done.
  virtual bool step() = 0;
  // Steps to completion, for statements whose rows nobody reads. Inside a transaction a
  // backend may send it without waiting (PostgreSQL pipelines it): its error then surfaces
  // at the next statement that reads rows, or at commit, and fails the transaction as well.
  virtual void run() = 0;
  // Ready to run again, bindings cleared.
  virtual void reset() = 0;
  virtual bool is_null(int column) const = 0;
  virtual std::int64_t int64(int column) const = 0;
  virtual double real(int column) const = 0;
  virtual std::string text(int column) const = 0;
  // Runs an INSERT ending in returning_id() and gives the new row's id, 0 for no row.
  virtual std::int64_t inserted_id() = 0;
};

// What a commit promises: Durable survives a power cut (fsynced); Lazy survives a killed
// process or a crashed server process but a power cut may undo it. Lazy is for what costs
// nothing to lose: a claim or a heartbeat lost on a power cut is as good as an expired lease.
enum class Commit { Durable, Lazy };

// How many rows a statement is expected to give: Many streams them (a PostgreSQL cursor
// fetched in batches) so memory stays flat over a whole database; Few reads them at once.
enum class Rows { Few, Many };

// Whose database it is and which schema version it holds, as the backend records them
// (migrations.h): SQLite in PRAGMA application_id and user_version, PostgreSQL in its
// schema_version table.
struct SchemaIdentity {
  std::int64_t application_id = 0;
  int version = 0;
  // Tables (and SQLite's indexes) besides the identity's own: none in a new database.
  std::int64_t objects = 0;
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;
  // The database as messages name it: a path, or a URL without its password.
  virtual const std::string& name() const = 0;
  virtual std::unique_ptr<StatementBackend> prepare(const std::string& sql, const std::string& what,
                                                    Rows rows) = 0;
  // SQL without parameters, possibly several statements (migrations, session settings).
  virtual void exec(std::string_view sql, const std::string& what) = 0;
  // immediate: take the write lock now (SQLite's BEGIN IMMEDIATE); PostgreSQL locks rows.
  virtual void begin(bool immediate, Commit commit) = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;
  virtual bool read_only() const = 0;
  // Throws ErrorKind::Gone when the database file was deleted or replaced (SQLite).
  virtual void check_not_moved(const std::string& what) const = 0;

  // The schema's identity: only reads, so a database that is not Knightly's stays untouched.
  virtual SchemaIdentity read_schema_identity() = 0;
  // In a write transaction, before the identity is read again to migrate: waits for any
  // other process migrating the same database (SQLite's write lock, taken at BEGIN, already
  // does; PostgreSQL takes an advisory lock until the transaction ends).
  virtual void lock_schema() = 0;
  // In the same transaction: records the database as Knightly's at `version`.
  virtual void write_schema_identity(int version) = 0;
};

}  // namespace knightly::db
