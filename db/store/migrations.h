#pragma once
// The schema migrations compiled in from db/schema/NNN_*.sql (see embed_schema.cmake), one
// set for both backends (translated for PostgreSQL by dialect.h's rules). SQLite: PRAGMA
// user_version records how many have been applied and PRAGMA application_id marks the file
// as Knightly's; PostgreSQL: the schema_version table (application_id, version) does both.
#include <cstdint>
#include <expected>
#include <span>
#include <string>

#include "db/store/connection.h"
#include "db/store/store_error.h"

namespace knightly::db {

class Database;

struct Migration {
  int version;       // NNN from the file name: 1, 2, ...
  const char* name;  // the file name
  const char* sql;
};

// 'KNTL': what `PRAGMA application_id` holds in every Knightly database.
inline constexpr std::int32_t kApplicationId = 0x4B4E544C;

std::span<const Migration> embedded_migrations();
// The schema every migration leaves in SQLite, as the statements that make it at once
// (sqlite_master's, made from the migrations at build time by schema_snapshot.cpp): what
// apply_migrations gives a new SQLite file.
const char* sqlite_schema_snapshot();
// A whole new SQLite database file, in WAL mode, with that schema and marked as Knightly's at
// the latest version (made at build time by schema_snapshot.cpp): what open writes a new
// file as, so that it need not create anything.
std::string sqlite_new_file_image();
int latest_schema_version();

// The schema version a database with `identity` holds, or why it cannot be opened: not
// Knightly's (NotKnightly), written by a newer Knightly (TooNew), or, `read_only`, older than
// this one and so not upgraded (Invalid), or new and empty (NotKnightly). A new database
// opened to write is version 0. `path` names it in the message. The one check for both
// backends, at open and again under the migration's lock.
std::expected<int, StoreError> check_schema(const SchemaIdentity& identity, const std::string& path,
                                            Dialect dialect, bool read_only);

// Applies the migrations the database lacks, all in one write transaction together with the
// version bump (a crash leaves it at its old version), reading the version again under the
// write lock (SQLite) or an advisory lock (PostgreSQL) so concurrent openers of a new
// database do not race. One loop for both backends, over Connection's schema identity.
// A new SQLite file gets sqlite_schema_snapshot() instead of the migrations one by one: the
// same schema, a third of the CPU at start-up. Returns the version; throws StoreException
// as check_schema refuses.
int apply_migrations(Database& db);

}  // namespace knightly::db
