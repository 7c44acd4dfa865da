#include "db/store/transaction.h"

#include <sqlite3.h>

namespace knightly::db {

Transaction::Transaction(Database& db, Mode mode) : db_(db) {
  db_.exec(mode == Mode::Immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED",
           "starting a transaction");
}

Transaction::~Transaction() {
  // Errors cannot leave a destructor; a failed rollback leaves SQLite's own automatic
  // rollback to finish the job when the connection closes.
  if (!done_ && sqlite3_get_autocommit(db_.handle()) == 0)
    sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT", "committing");
  done_ = true;
}

}  // namespace knightly::db
