#pragma once
// An independent look into a database file with the plain SQLite C API (not our store).
#include <sqlite3.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace knightly::test {

class SqliteProbe {
 public:
  // Read-only, unless told a killed writer may have left a hot journal that must be rolled back
  // first (SQLite answers "attempt to write a readonly database" to a read-only connection
  // then): it is opened for writing as any SQLite client would, and only read.
  enum class Mode { ReadOnly, AfterKill };
  explicit SqliteProbe(const std::string& path, Mode mode = Mode::ReadOnly) {
    const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      // SQLite hands back a connection even when the open fails: close it, or it leaks.
      sqlite3_close(db_);
      throw std::runtime_error("cannot open " + path);
    }
  }
  ~SqliteProbe() { sqlite3_close(db_); }
  SqliteProbe(const SqliteProbe&) = delete;
  SqliteProbe& operator=(const SqliteProbe&) = delete;

  std::vector<std::vector<std::string>> rows(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("bad sql: ") + sqlite3_errmsg(db_));
    std::vector<std::vector<std::string>> out;
    while (sqlite3_step(st) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(st); ++i) {
        auto t = sqlite3_column_text(st, i);
        row.push_back(t ? reinterpret_cast<const char*>(t) : "");
      }
      out.push_back(row);
    }
    sqlite3_finalize(st);
    return out;
  }
  std::string value(const std::string& sql) {
    auto r = rows(sql);
    return r.empty() || r[0].empty() ? "" : r[0][0];
  }
  long long count(const std::string& sql) { return std::stoll(value(sql)); }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace knightly::test
