#include "db/store/migrations.h"

#include <string>

#include "db/store/database.h"
#include "db/store/transaction.h"

namespace knightly::db {

int latest_schema_version() {
  const auto all = embedded_migrations();
  return all.empty() ? 0 : all.back().version;
}

void apply_migrations(Database& db, int from_version) {
  for (const Migration& m : embedded_migrations()) {
    if (m.version <= from_version) continue;
    Transaction tx(db);
    db.exec(m.sql, std::string("applying migration ") + m.name);
    // Pragmas take no parameters; both values are compile-time integers.
    db.exec("PRAGMA application_id = " + std::to_string(kApplicationId), "marking the database");
    db.exec("PRAGMA user_version = " + std::to_string(m.version), "recording the schema version");
    tx.commit();
  }
}

}  // namespace knightly::db
