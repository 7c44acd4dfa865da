#pragma once
// A prepared statement (RAII, move-only) on either backend. SQL is written once with `?`
// placeholders (translated per backend by dialect.h); every value from outside is bound to a
// parameter, SQL text is never built from values.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "db/store/connection.h"

namespace knightly::db {

class Database;

// A value to bind when the parameter list is built at run time (query filters).
using Value = std::variant<std::nullptr_t, std::int64_t, double, std::string>;

class Statement {
 public:
  // rows: Rows::Many for a result that may be the whole database (export), streamed.
  Statement(const Database& db, std::string_view sql, Rows rows = Rows::Few);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  // Text the caller keeps alive and unchanged until the statement has run and been reset
  // (a row of a record being stored): not copied on SQLite.
  Statement& bind_kept(int index, std::string_view value);
  Statement& bind_null(int index);
  Statement& bind(int index, const Value& value);
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }
  void bind_all(const std::vector<Value>& values, int first_index = 1);

  // True when a row is available; false when the statement is done. Throws on errors.
  bool step();
  // Steps to completion (INSERT/UPDATE/DELETE). In a transaction on PostgreSQL it is sent
  // without waiting for the answer: an error surfaces at the next read or at commit.
  void run();
  // Runs an INSERT whose text ends with returning_id(dialect) and gives the new row's id,
  // or 0 when it inserted no row (INSERT ... SELECT ... WHERE).
  std::int64_t inserted_id();
  // Ready to run again: resets and clears the bindings.
  void reset();

  bool is_null(int column) const;
  std::int64_t int64(int column) const;
  int int32(int column) const { return static_cast<int>(int64(column)); }
  double real(int column) const;
  std::string text(int column) const;
  std::optional<std::int64_t> opt_int64(int column) const;

  const std::string& sql_context() const { return what_; }

 private:
  std::unique_ptr<StatementBackend> impl_;
  std::string what_;
};

}  // namespace knightly::db
