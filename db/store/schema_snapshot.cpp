// schema_snapshot OUTPUT.cpp: a build-time tool. Applies every embedded migration
// (db/schema/*.sql) to an SQLite database in memory, one after another as a database that
// lived through them all got them, and writes the schema they leave (sqlite_master's
// statements, in the order SQLite made them, and the rows they inserted) as a C++ string:
// what a new SQLite file is given in one pass (migrations.cpp), and a whole new file in WAL
// mode made from it (store_open.cpp writes that). A new file so costs no statement at all,
// or a few CREATE statements for an empty file already there, instead of every CREATE,
// ALTER and DROP of its history, each of which has SQLite read the whole schema again. The migrations stay the one source: this is their result, made from them
// at each build by the SQLite the program runs on.
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "db/store/migrations.h"

namespace {

int fail(const std::string& what, sqlite3* db) {
  std::fprintf(stderr, "schema_snapshot: %s: %s\n", what.c_str(), db ? sqlite3_errmsg(db) : "");
  return 1;
}

// The first column of every row `sql` gives, as text; false when SQLite refuses it.
bool texts(sqlite3* db, const std::string& sql, std::vector<std::string>& out) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) return false;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  return rc == SQLITE_DONE;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: schema_snapshot OUTPUT.cpp\n");
    return 2;
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return fail("opening a database in memory", db);
  for (const auto& m : knightly::db::embedded_migrations())
    if (sqlite3_exec(db, m.sql, nullptr, nullptr, nullptr) != SQLITE_OK)
      return fail(std::string("applying ") + m.name, db);
  // sqlite_sequence and the automatic indexes are SQLite's own: it makes them again from the
  // statements that made them.
  std::vector<std::string> statements, tables;
  if (!texts(db,
             "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' "
             "ESCAPE '\\' ORDER BY rowid",
             statements))
    return fail("reading the schema", db);
  // And the rows the migrations put in (queue_control's one row, for one): each table's, as
  // INSERT statements of SQLite's own quoting.
  if (!texts(db,
             "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
             "ESCAPE '\\' ORDER BY rowid",
             tables))
    return fail("listing the tables", db);
  for (const std::string& table : tables) {
    // Table names are the migrations' own identifiers: letters, digits and '_'.
    std::vector<std::string> names;
    if (!texts(db, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid", names) ||
        names.empty())
      return fail("reading the columns of " + table, db);
    std::string columns;
    for (const std::string& name : names)
      columns += (columns.empty() ? "quote(\"" : " || ',' || quote(\"") + name + "\")";
    const std::string rows =
        "SELECT 'INSERT INTO " + table + " VALUES (' || " + columns + " || ')' FROM " + table;
    if (!texts(db, rows, statements))
      return fail("reading the rows of " + table, db);
  }
  std::string sql;
  for (const std::string& statement : statements) sql += statement + ";\n";
  sqlite3_close(db);
  if (sql.find(")knightly_sql") != std::string::npos) {
    std::fprintf(stderr, "schema_snapshot: the schema contains the delimiter )knightly_sql\n");
    return 1;
  }
  const std::string out = argv[1];
  // And a whole new database file made from it, as apply_migrations would make it, in WAL
  // mode and marked as Knightly's at the latest version: what a new file is written as.
  const std::string image_path = out + ".image.db";
  std::remove(image_path.c_str());
  int latest = 0;
  for (const auto& m : knightly::db::embedded_migrations()) latest = std::max(latest, m.version);
  if (sqlite3_open(image_path.c_str(), &db) != SQLITE_OK)
    return fail("creating " + image_path, db);
  const std::string make = "PRAGMA journal_mode = WAL; BEGIN IMMEDIATE; " + sql +
                           "PRAGMA application_id = " +
                           std::to_string(knightly::db::kApplicationId) +
                           "; PRAGMA user_version = " + std::to_string(latest) + "; COMMIT;";
  if (sqlite3_exec(db, make.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
    return fail("making " + image_path + " from the schema", db);
  if (sqlite3_close(db) != SQLITE_OK) return fail("closing " + image_path, db);
  std::string image;
  {
    std::ifstream in(image_path, std::ios::binary);
    image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::remove(image_path.c_str());
  if (image.size() < 100 || image.compare(0, 15, "SQLite format 3") != 0 || image[18] != 2) {
    std::fprintf(stderr, "schema_snapshot: %s is not a WAL-mode SQLite file\n",
                 image_path.c_str());
    return 1;
  }
  // Mostly zeros: only the runs of other bytes are written out (runs less than 32 zero bytes
  // apart are joined), as string literals of octal escapes.
  std::string runs;
  for (std::size_t i = 0; i < image.size();) {
    if (image[i] == 0) {
      ++i;
      continue;
    }
    std::size_t end = i, zeros = 0;
    for (std::size_t j = i; j < image.size() && zeros < 32; ++j) {
      zeros = image[j] == 0 ? zeros + 1 : 0;
      if (image[j] != 0) end = j + 1;
    }
    runs += "    {" + std::to_string(i) + ", " + std::to_string(end - i) + ", \"";
    for (std::size_t j = i; j < end; ++j) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\%03o", unsigned(static_cast<unsigned char>(image[j])));
      runs += esc;
    }
    runs += "\"},\n";
    i = end;
  }
  {
    std::ofstream f(out + ".tmp", std::ios::binary);
    f << "// Generated at build time by db/store/schema_snapshot.cpp from db/schema/*.sql: do "
         "not edit.\n#include \"db/store/migrations.h\"\n\nnamespace knightly::db {\n\n"
         "const char* sqlite_schema_snapshot() {\n  return R\"knightly_sql(\n"
      << sql << ")knightly_sql\";\n}\n\n"
      << "namespace {\nstruct ImageRun {\n  std::size_t offset, size;\n  const char* bytes;\n};\n"
         "constexpr ImageRun kImageRuns[] = {\n"
      << runs << "};\n}  // namespace\n\nstd::string sqlite_new_file_image() {\n"
      << "  std::string image(" << image.size() << ", '\\0');\n"
      << "  for (const ImageRun& r : kImageRuns)\n"
         "    image.replace(r.offset, r.size, r.bytes, r.size);\n"
         "  return image;\n}\n\n}  // namespace knightly::db\n";
    if (!f.flush()) {
      std::fprintf(stderr, "schema_snapshot: cannot write %s.tmp\n", out.c_str());
      return 1;
    }
  }
  if (std::rename((out + ".tmp").c_str(), out.c_str()) != 0) {
    std::perror(("schema_snapshot: renaming to " + out).c_str());
    return 1;
  }
  return 0;
}
