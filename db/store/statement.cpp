#include "db/store/statement.h"

#include <utility>

#include "db/store/database.h"
#include "db/store/dialect.h"

namespace knightly::db {

Statement::Statement(const Database& db, std::string_view sql, Rows rows)
    // The statement's first words name it in messages ("running SELECT id FROM games ...").
    : what_("running " + std::string(sql.substr(0, 60))) {
  impl_ = db.connection().prepare(db.translated(sql), what_, rows);
}

Statement::~Statement() = default;
Statement::Statement(Statement&& other) noexcept = default;
Statement& Statement::operator=(Statement&& other) noexcept = default;

Statement& Statement::bind(int index, std::int64_t value) {
  impl_->bind_int64(index, value);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  impl_->bind_double(index, value);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  impl_->bind_text(index, value);
  return *this;
}

Statement& Statement::bind_kept(int index, std::string_view value) {
  impl_->bind_kept_text(index, value);
  return *this;
}

Statement& Statement::bind_null(int index) {
  impl_->bind_null(index);
  return *this;
}

Statement& Statement::bind(int index, const Value& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) {
          bind_null(index);
        } else {
          bind(index, v);
        }
      },
      value);
  return *this;
}

void Statement::bind_all(const std::vector<Value>& values, int first_index) {
  for (std::size_t i = 0; i < values.size(); ++i)
    bind(first_index + static_cast<int>(i), values[i]);
}

bool Statement::step() {
  return impl_->step();
}

void Statement::run() {
  impl_->run();
}

std::int64_t Statement::inserted_id() {
  return impl_->inserted_id();
}

void Statement::reset() {
  impl_->reset();
}

bool Statement::is_null(int column) const {
  return impl_->is_null(column);
}

std::int64_t Statement::int64(int column) const {
  return impl_->int64(column);
}

double Statement::real(int column) const {
  return impl_->real(column);
}

std::string Statement::text(int column) const {
  return impl_->text(column);
}

std::optional<std::int64_t> Statement::opt_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return int64(column);
}

}  // namespace knightly::db
