#include "db/store/migrations.h"

#include <string>

#include "db/store/database.h"
#include "db/store/store_error.h"
#include "db/store/transaction.h"

namespace knightly::db {

int latest_schema_version() {
  const auto all = embedded_migrations();
  return all.empty() ? 0 : all.back().version;
}

std::expected<int, StoreError> check_schema(const SchemaIdentity& id, const std::string& path,
                                            Dialect dialect, bool read_only) {
  const bool sqlite = dialect == Dialect::Sqlite;
  const bool fresh = id.application_id == 0 && id.version == 0 && id.objects == 0;
  if (fresh) {
    if (read_only)
      return std::unexpected(
          plain_error(ErrorKind::NotKnightly, path,
                     sqlite ? "not a knightly database (empty SQLite file)"
                            : "not a knightly database (an empty PostgreSQL database: run knightly "
                              "run or import on it first)"));
    return 0;
  }
  if (id.application_id != kApplicationId)
    return std::unexpected(
        plain_error(ErrorKind::NotKnightly, path,
                   sqlite ? "not a knightly database (an SQLite file of another program)"
                          : "not a knightly database (a PostgreSQL schema with tables of another "
                            "program; give knightly a database or schema of its own)"));
  if (id.version > latest_schema_version())
    return std::unexpected(
        plain_error(ErrorKind::TooNew, path,
                   "schema version " + std::to_string(id.version) +
                       " was written by a newer knightly (this one knows up to version " +
                       std::to_string(latest_schema_version()) + ")"));
  if (read_only && id.version < latest_schema_version())
    return std::unexpected(plain_error(
        ErrorKind::Invalid, path,
        "schema version " + std::to_string(id.version) + " is older than " +
            std::to_string(latest_schema_version()) +
            "; open it once with a command that writes (knightly run/import) to upgrade it"));
  return id.version;
}

int apply_migrations(Database& db) {
  // Under the write lock, and with the version read again inside it: two processes creating
  // the same new database at once both get here, and the second finds nothing left to do.
  // DDL is transactional on both backends.
  Transaction tx(db);
  Connection& c = db.connection();
  c.lock_schema();
  const auto checked = check_schema(c.read_schema_identity(), db.path(), db.dialect(), false);
  if (!checked) throw StoreException(checked.error());
  int version = *checked;
  if (version == 0 && db.dialect() == Dialect::Sqlite) {
    db.exec(sqlite_schema_snapshot(), "creating the schema");
    version = latest_schema_version();
  }
  for (const Migration& m : embedded_migrations()) {
    if (m.version <= version) continue;
    db.exec(translate_schema(m.sql, db.dialect()), std::string("applying migration ") + m.name);
    version = m.version;
  }
  c.write_schema_identity(version);
  tx.commit();
  return version;
}

}  // namespace knightly::db
