#pragma once
// The schema migrations compiled in from db/schema/NNN_*.sql (see embed_schema.cmake).
// PRAGMA user_version records how many have been applied; PRAGMA application_id marks the
// file as Knightly's.
#include <cstdint>
#include <span>

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
int latest_schema_version();

// Applies the migrations above `from_version`, each in its own transaction together with
// its user_version bump, so a crash leaves the file at a whole version.
void apply_migrations(Database& db, int from_version);

}  // namespace knightly::db
