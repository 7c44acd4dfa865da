#pragma once
// What can go wrong with a database, as a value (for Store::open) and as an exception (for
// later calls, which fail only on I/O problems that end the run). Every message names the
// database and what was being done; the CLI prints it and exits with code 2.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace knightly::db {

enum class ErrorKind {
  NotFound,     // read-only open of a file, or a new database's directory, that does not exist
  ReadOnly,     // writing needed but the file or its directory is read-only
  Locked,       // another writer held the database longer than the busy timeout
  DiskFull,     // no space left for the database (SQLITE_FULL, PostgreSQL's disk_full)
  Gone,         // the database file was deleted or replaced while open
  Unavailable,  // the database server cannot be reached, refused us, or dropped the connection
  NotKnightly,  // not SQLite at all, or SQLite without our schema
  TooNew,       // a Knightly database from a newer version (user_version above ours)
  Corrupt,      // SQLite reports corruption
  Conflict,     // a uniqueness rule refused the row (duplicate game identity, live name)
  Invalid,      // the caller passed something the store cannot hold
  Io,           // any other SQLite or file-system failure
};

const char* error_kind_name(ErrorKind kind);

struct StoreError {
  ErrorKind kind = ErrorKind::Io;
  std::string path;     // the database as messages name it (a URL without its password)
  std::string message;  // complete sentence naming the path
  int sqlite_code = 0;  // extended result code, 0 when the error is not from SQLite
  std::string detail;   // the backend's own words ("database or disk is full"), may be ""
  // Worth trying again after a pause: a lock that may be released, a connection that may be
  // re-established before anything was sent. Never set for a failed commit on a lost
  // connection, whose outcome is unknown.
  bool transient = false;
};

class StoreException : public std::runtime_error {
 public:
  explicit StoreException(StoreError error)
      : std::runtime_error(error.message), error_(std::move(error)) {}
  const StoreError& error() const { return error_; }
  ErrorKind kind() const { return error_.kind; }

 private:
  StoreError error_;
};

// A failure of `kind` said plainly: "database PATH: WHAT".
StoreError plain_error(ErrorKind kind, const std::string& path, const std::string& what);

// The message for a failure of `kind` while doing `what` ("storing game (round 1, pair 0,
// game 1) of tournament 3"), with the backend's detail in parentheses.
StoreError describe_error(ErrorKind kind, const std::string& path, const std::string& what,
                          const std::string& detail);

// The same failure said again for what the caller was doing, when it is one of the failures
// of the database itself (locked, full, gone, unreachable, I/O, corrupt, read-only); errors
// about the data (conflict, invalid) keep their own words unless those only name the SQL
// statement.
StoreError in_context(const StoreError& error, const std::string& what);

// Classifies a PostgreSQL SQLSTATE ("23505"); an empty one means the connection failed or
// was lost (Unavailable).
StoreError postgres_error(const std::string& name, const std::string& sqlstate,
                          const std::string& message, const std::string& what);

// A random pause in [0, bound] microseconds for a retry after a transient lock error, so that
// workers that collided do not collide again in step. The generator is seeded apart in every
// thread of every process (std::random_device), on the thread's first retry only: the devices
// cost a process's start-up about 0.5 ms when each retrying function seeded its own
// up front (chess::random_seed).
std::uint64_t retry_jitter_us(std::uint64_t bound);

// Classifies an SQLite result code; `what` says what was being done ("opening", "inserting a
// game").
StoreError sqlite_error(const std::string& path, int code, const std::string& sqlite_message,
                        const std::string& what);

}  // namespace knightly::db
