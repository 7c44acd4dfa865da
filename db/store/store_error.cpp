#include "db/store/store_error.h"

#include <sqlite3.h>

namespace knightly::db {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::NotFound:
      return "not found";
    case ErrorKind::ReadOnly:
      return "read-only";
    case ErrorKind::Locked:
      return "locked";
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

StoreError sqlite_error(const std::string& path, int code, const std::string& sqlite_message,
                        const std::string& what) {
  StoreError e;
  e.path = path;
  e.sqlite_code = code;
  const std::string where = "database " + path + ": ";
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      e.kind = ErrorKind::Locked;
      e.message = where + "locked by another writer (gave up after the busy timeout) while " + what;
      break;
    case SQLITE_READONLY:
      e.kind = ErrorKind::ReadOnly;
      e.message = where + "read-only, cannot write while " + what + " (" + sqlite_message + ")";
      break;
    case SQLITE_NOTADB:
      e.kind = ErrorKind::NotKnightly;
      e.message = where + "not a knightly database (not an SQLite file)";
      break;
    case SQLITE_CORRUPT:
      e.kind = ErrorKind::Corrupt;
      e.message = where + "corrupt while " + what + " (" + sqlite_message + ")";
      break;
    case SQLITE_CONSTRAINT:
      e.kind = ErrorKind::Conflict;
      e.message = where + "refused while " + what + " (" + sqlite_message + ")";
      break;
    case SQLITE_CANTOPEN:
      e.kind = ErrorKind::Io;
      e.message = where + "cannot open while " + what + " (" + sqlite_message + ")";
      break;
    default:
      e.kind = ErrorKind::Io;
      e.message = where + "error while " + what + " (" + sqlite_message + ")";
      break;
  }
  return e;
}

}  // namespace knightly::db
