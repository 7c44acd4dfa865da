#include "db/store/store_error.h"

#include <sqlite3.h>

#include <optional>

#include "engine/chess/splitmix64.h"

namespace knightly::db {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::NotFound:
      return "not found";
    case ErrorKind::ReadOnly:
      return "read-only";
    case ErrorKind::Locked:
      return "locked";
    case ErrorKind::DiskFull:
      return "disk full";
    case ErrorKind::Gone:
      return "deleted or replaced";
    case ErrorKind::Unavailable:
      return "unavailable";
    case ErrorKind::NotKnightly:
      return "not a knightly database";
    case ErrorKind::TooNew:
      return "too new";
    case ErrorKind::Corrupt:
      return "corrupt";
    case ErrorKind::Conflict:
      return "conflict";
    case ErrorKind::Invalid:
      return "invalid";
    case ErrorKind::Io:
      return "i/o error";
  }
  return "error";
}

StoreError plain_error(ErrorKind kind, const std::string& path, const std::string& what) {
  return StoreError{kind, path, "database " + path + ": " + what, 0, "", false};
}

StoreError describe_error(ErrorKind kind, const std::string& path, const std::string& what,
                          const std::string& detail) {
  StoreError e;
  e.kind = kind;
  e.path = path;
  e.detail = detail;
  e.transient = kind == ErrorKind::Locked;
  const std::string where = "database " + path + ": ";
  const std::string tail = detail.empty() ? std::string() : " (" + detail + ")";
  switch (kind) {
    case ErrorKind::Locked:
      e.message =
          where + "locked by another writer (gave up after the busy timeout) while " + what + tail;
      break;
    case ErrorKind::DiskFull:
      e.message = where + "disk full while " + what + tail;
      break;
    case ErrorKind::Gone:
      e.message = where +
                  "the file was deleted or replaced while knightly had it open (nothing more is "
                  "written to it) while " +
                  what;
      break;
    case ErrorKind::Unavailable:
      e.message = where + "cannot reach the server, or lost the connection, while " + what + tail;
      break;
    case ErrorKind::ReadOnly:
      e.message = where + "read-only, cannot write while " + what + tail;
      break;
    case ErrorKind::NotKnightly:
      e.message = where + "not a knightly database" + tail;
      break;
    case ErrorKind::Corrupt:
      e.message = where + "corrupt while " + what + tail;
      break;
    case ErrorKind::Conflict:
      e.message = where + "refused while " + what + tail;
      break;
    case ErrorKind::Io:
      e.message = where + "I/O error while " + what + tail;
      break;
    default:
      e.message = where + "error while " + what + tail;
      break;
  }
  return e;
}

StoreError in_context(const StoreError& error, const std::string& what) {
  switch (error.kind) {
    case ErrorKind::Locked:
    case ErrorKind::DiskFull:
    case ErrorKind::Gone:
    case ErrorKind::Unavailable:
    case ErrorKind::ReadOnly:
    case ErrorKind::Corrupt:
    case ErrorKind::Io: {
      StoreError e = describe_error(error.kind, error.path, what, error.detail);
      e.sqlite_code = error.sqlite_code;
      e.transient = error.transient;
      return e;
    }
    case ErrorKind::Conflict:
    case ErrorKind::Invalid:
      // Said again only when it still names the statement rather than the thing refused.
      if (error.message.find(": refused while running ") != std::string::npos) {
        StoreError e = describe_error(ErrorKind::Conflict, error.path, what, error.detail);
        e.kind = error.kind;
        e.sqlite_code = error.sqlite_code;
        return e;
      }
      return error;
    default:
      return error;
  }
}

StoreError postgres_error(const std::string& name, const std::string& sqlstate,
                          const std::string& message, const std::string& what) {
  const auto cls = [&](const char* prefix) { return sqlstate.rfind(prefix, 0) == 0; };
  ErrorKind kind = ErrorKind::Io;
  if (sqlstate.empty() || cls("08") || cls("57P"))
    kind = ErrorKind::Unavailable;  // connection failure, server shutting down or starting
  else if (cls("23"))
    kind = ErrorKind::Conflict;  // integrity constraint violation
  else if (sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03")
    kind = ErrorKind::Locked;  // serialization failure, deadlock, lock_timeout
  else if (sqlstate == "53100")
    kind = ErrorKind::DiskFull;
  else if (sqlstate == "25006" || sqlstate == "42501")
    kind = ErrorKind::ReadOnly;  // read-only transaction, permission denied
  else if (cls("XX001") || cls("XX002"))
    kind = ErrorKind::Corrupt;  // data or index corrupted
  else if (cls("22"))
    kind = ErrorKind::Invalid;  // data exception
  StoreError e = describe_error(kind, name, what, message);
  if (kind == ErrorKind::Invalid)
    e.message = "database " + name + ": refused while " + what + " (" + message + ")";
  return e;
}

StoreError sqlite_error(const std::string& path, int code, const std::string& sqlite_message,
                        const std::string& what) {
  ErrorKind kind = ErrorKind::Io;
  std::string detail = sqlite_message;
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      kind = ErrorKind::Locked;
      break;
    case SQLITE_FULL:
      kind = ErrorKind::DiskFull;
      break;
    case SQLITE_READONLY:
      kind = code == SQLITE_READONLY_DBMOVED ? ErrorKind::Gone : ErrorKind::ReadOnly;
      break;
    case SQLITE_NOTADB:
      kind = ErrorKind::NotKnightly;
      detail = "not an SQLite file";
      break;
    case SQLITE_CORRUPT:
      kind = ErrorKind::Corrupt;
      break;
    case SQLITE_CONSTRAINT:
      kind = ErrorKind::Conflict;
      break;
    case SQLITE_CANTOPEN:
      kind = ErrorKind::Io;
      detail = "cannot open: " + sqlite_message;
      break;
    default:
      kind = ErrorKind::Io;
      break;
  }
  StoreError e = describe_error(kind, path, what, detail);
  e.sqlite_code = code;
  return e;
}

std::uint64_t retry_jitter_us(std::uint64_t bound) {
  thread_local std::optional<chess::SplitMix64> jitter;
  if (!jitter) jitter.emplace(chess::random_seed());
  return jitter->below(bound + 1);
}

}  // namespace knightly::db
