#include "db/store/pg_connection.h"

#include <libpq-fe.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "db/store/database_url.h"
#include "db/store/libpq_lazy.h"
#include "db/store/migrations.h"
#include "db/store/store_error.h"

namespace knightly::db {

namespace {

std::string trimmed(const char* text) {
  std::string s = text ? text : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

bool succeeded(PGresult* r) {
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

constexpr int kFetchRows = 500;

class PgStatement final : public StatementBackend {
 public:
  PgStatement(PgConnection& conn, std::string sql, std::string what, Rows rows)
      : conn_(conn), sql_(std::move(sql)), what_(std::move(what)), many_(rows == Rows::Many) {
    // Prepared now, so a statement the server refuses fails where it is written.
    if (!many_) {
      conn_.ensure_connected(what_);
      conn_.prepared(sql_, what_);
    }
  }
  ~PgStatement() override { finish(); }
  PgStatement(const PgStatement&) = delete;
  PgStatement& operator=(const PgStatement&) = delete;

  void bind_int64(int index, std::int64_t value) override {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    slot(index) = std::string(buf, r.ptr);
  }
  void bind_double(int index, double value) override {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);  // shortest exact text
    slot(index) = std::string(buf, r.ptr);
  }
  void bind_text(int index, std::string_view value) override {
    if (value.find('\0') != std::string_view::npos)
      throw StoreException(describe_error(ErrorKind::Invalid, conn_.name(), what_,
                                          "parameter " + std::to_string(index) +
                                              " holds a NUL byte, which PostgreSQL text cannot"));
    slot(index) = std::string(value);
  }
  void bind_null(int index) override { slot(index).reset(); }

  bool step() override {
    if (!executed_) {
      execute();
      executed_ = true;
      row_ = 0;
    } else {
      ++row_;
    }
    while (row_ >= rows_) {
      if (!many_ || cursor_done_) {
        finish();
        return false;
      }
      fetch();
    }
    return true;
  }
  void run() override {
    if (executed_) {  // rows already being read: the rest are not wanted
      finish();
      return;
    }
    if (many_) {
      while (step()) {
      }
      return;
    }
    // Nobody reads the rows: in a transaction it goes out without waiting for the answer.
    conn_.ensure_connected(what_);
    const std::string name = conn_.prepared(sql_, what_);
    if (PGresult* r = conn_.execute(name, pointers(), what_, false)) PQclear(r);
    executed_ = true;
    rows_ = 0;
  }
  void reset() override {
    finish();
    executed_ = false;
    values_.clear();
  }
  bool is_null(int column) const override { return PQgetisnull(result_, row_, column) != 0; }
  std::int64_t int64(int column) const override {
    const char* v = PQgetvalue(result_, row_, column);
    const char* end = v + PQgetlength(result_, row_, column);
    std::int64_t out = 0;
    const auto r = std::from_chars(v, end, out);
    return r.ec == std::errc() ? out : 0;  // a numeric "3.0" reads as 3
  }
  double real(int column) const override {
    return std::strtod(PQgetvalue(result_, row_, column), nullptr);
  }
  std::string text(int column) const override {
    return std::string(PQgetvalue(result_, row_, column),
                       static_cast<std::size_t>(PQgetlength(result_, row_, column)));
  }
  std::int64_t inserted_id() override {
    if (!step()) return 0;  // INSERT ... SELECT ... WHERE inserted nothing
    const std::int64_t id = int64(0);
    while (step()) {
    }
    return id;
  }

 private:
  std::optional<std::string>& slot(int index) {
    if (static_cast<std::size_t>(index) > values_.size()) values_.resize(index);
    return values_[static_cast<std::size_t>(index - 1)];
  }

  std::vector<const char*> pointers() const {
    std::vector<const char*> p;
    p.reserve(values_.size());
    for (const auto& v : values_) p.push_back(v ? v->c_str() : nullptr);
    return p;
  }

  void execute() {
    conn_.ensure_connected(what_);
    if (many_) {
      // A cursor needs a transaction: its own when none is open, ended with the cursor.
      if (!conn_.in_transaction()) {
        conn_.exec("BEGIN", what_);
        own_transaction_ = true;
      }
      cursor_ = conn_.next_cursor_name();
      try {
        PQclear(conn_.execute_text("DECLARE " + cursor_ + " NO SCROLL CURSOR FOR " + sql_,
                                   pointers(), what_));
      } catch (...) {
        cursor_.clear();
        finish();
        throw;
      }
      fetch();
      return;
    }
    result_ = conn_.execute(conn_.prepared(sql_, what_), pointers(), what_, true);
    rows_ = PQntuples(result_);
  }

  void fetch() {
    clear_result();
    try {
      result_ = conn_.execute_text(
          "FETCH FORWARD " + std::to_string(kFetchRows) + " FROM " + cursor_, {}, what_);
    } catch (...) {
      finish();
      throw;
    }
    rows_ = PQntuples(result_);
    row_ = 0;
    cursor_done_ = rows_ < kFetchRows;
  }

  void clear_result() {
    if (result_) PQclear(result_);
    result_ = nullptr;
    rows_ = 0;
  }

  // Drops the result; closes the cursor and its own transaction, if any.
  void finish() noexcept {
    clear_result();
    if (!cursor_.empty()) {
      try {
        PQclear(conn_.execute_text("CLOSE " + cursor_, {}, what_));
      } catch (...) {
        // A failed transaction closed it already; the rollback below ends the rest.
      }
      cursor_.clear();
    }
    if (own_transaction_) {
      conn_.rollback();  // it only read: ending it either way is the same
      own_transaction_ = false;
    }
    cursor_done_ = false;
  }

  PgConnection& conn_;
  std::string sql_;
  std::string what_;
  bool many_;
  std::vector<std::optional<std::string>> values_;
  PGresult* result_ = nullptr;
  int rows_ = 0;
  int row_ = 0;
  bool executed_ = false;
  std::string cursor_;
  bool cursor_done_ = false;
  bool own_transaction_ = false;
};

void ignore_notice(void*, const char*) {}

}  // namespace

PgConnection::PgConnection(const std::string& url, const PgSettings& settings)
    : url_(libpq_url(url)),
      name_(location_text(url)),
      secrets_(url_secrets(url)),
      settings_(settings) {
  connect();
}

PgConnection::~PgConnection() {
  if (conn_) PQfinish(conn_);
}

std::string PgConnection::scrub(std::string message) const {
  for (const std::string& secret : secrets_) {
    for (std::size_t at = message.find(secret); at != std::string::npos;
         at = message.find(secret, at + 3))
      message.replace(at, secret.size(), "***");
  }
  return message;
}

void PgConnection::connect() {
  // connect_timeout first, so a value in the URL overrides it; the URL (expanded as dbname)
  // carries everything else, libpq adds PGPASSFILE and the PG* environment.
  const char* keys[] = {"connect_timeout", "dbname", "fallback_application_name", nullptr};
  const char* values[] = {"10", url_.c_str(), "knightly", nullptr};
  if (auto why = libpq_missing())
    throw StoreException(plain_error(ErrorKind::Unavailable, name_, *why));
  conn_ = PQconnectdbParams(keys, values, 1);
  if (!conn_)
    throw StoreException(
        describe_error(ErrorKind::Unavailable, name_, "connecting", "out of memory"));
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string message = scrub(trimmed(PQerrorMessage(conn_)));
    // Where the password belongs: a password file, never a command line (engines read those).
    if (message.find("no password supplied") != std::string::npos)
      message +=
          "; give the password in ~/.pgpass or in a file PGPASSFILE names (mode 0600; "
          "docs/distributed.md)";
    PQfinish(conn_);
    conn_ = nullptr;
    throw StoreException(describe_error(ErrorKind::Unavailable, name_, "connecting", message));
  }
  PQsetNoticeProcessor(conn_, ignore_notice, nullptr);
  setup_session();
}

void PgConnection::setup_session() {
  exec("SET client_min_messages = warning; SET lock_timeout = " +
           std::to_string(settings_.lock_timeout_ms) +
           "; SET synchronous_commit = " + (settings_.synchronous_commit ? "on" : "off") +
           "; SET default_transaction_read_only = " + (settings_.read_only ? "on" : "off"),
       "setting up the session");
}

void PgConnection::ensure_connected(const std::string& what) {
  if (conn_ && PQstatus(conn_) == CONNECTION_OK) return;
  if (transaction_open_) {
    StoreError e = describe_error(ErrorKind::Unavailable, name_, what,
                                  "the connection was lost in the middle of a transaction");
    e.transient = true;  // nothing of it was committed: the caller may redo it all
    throw StoreException(e);
  }
  pending_.clear();
  if (conn_) PQreset(conn_);
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
    StoreError e = describe_error(ErrorKind::Unavailable, name_, what,
                                  scrub(trimmed(conn_ ? PQerrorMessage(conn_) : "")));
    e.transient = true;  // nothing was sent: trying again later is safe
    throw StoreException(e);
  }
  prepared_.clear();  // the server forgot them, and the session settings
  setup_session();
}

bool PgConnection::in_transaction() const {
  if (transaction_open_) return true;
  const auto s = PQtransactionStatus(conn_);
  return s == PQTRANS_INTRANS || s == PQTRANS_INERROR || s == PQTRANS_ACTIVE;
}

bool PgConnection::pipelined() const {
  return PQpipelineStatus(conn_) != PQ_PIPELINE_OFF;
}

void PgConnection::send(const std::string& what) {
  pending_.push_back(what);
}

PGresult* PgConnection::sync(bool keep) {
  if (PQpipelineSync(conn_) != 1) {
    pending_.clear();
    fail(nullptr, "sending to the server");
  }
  PGresult* kept = nullptr;
  std::optional<StoreException> error;
  while (!pending_.empty()) {
    const std::string what = std::move(pending_.front());
    pending_.pop_front();
    const bool last = pending_.empty();
    while (PGresult* r = PQgetResult(conn_)) {
      const auto status = PQresultStatus(r);
      if (status == PGRES_FATAL_ERROR && !error) {
        try {
          fail(r, what);  // clears r
        } catch (const StoreException& e) {
          error.emplace(e);
        }
      } else if (keep && last && !kept && succeeded(r)) {
        kept = r;
      } else {
        PQclear(r);  // PGRES_PIPELINE_ABORTED after an error, or a result nobody reads
      }
    }
  }
  // The sync point's own result ends the pipeline's answers.
  if (PGresult* s = PQgetResult(conn_)) PQclear(s);
  if (!error && PQstatus(conn_) != CONNECTION_OK) {
    try {
      fail(nullptr, "reading the server's answers");
    } catch (const StoreException& e) {
      error.emplace(e);
    }
  }
  if (error) {
    if (kept) PQclear(kept);
    throw *error;
  }
  if (keep && !kept) fail(nullptr, "reading the server's answers");
  return kept;
}

void PgConnection::leave_pipeline() noexcept {
  pending_.clear();
  if (conn_ && pipelined()) {
    while (PGresult* r = PQgetResult(conn_)) PQclear(r);
    PQexitPipelineMode(conn_);
  }
}

std::string PgConnection::prepared(const std::string& sql, const std::string& what) {
  auto it = prepared_.find(sql);
  if (it != prepared_.end()) return it->second;
  const std::string name = "knightly_" + std::to_string(prepared_.size() + 1);
  const std::string doing = "preparing " + what.substr(what.find(' ') + 1);
  if (pipelined()) {
    if (PQsendPrepare(conn_, name.c_str(), sql.c_str(), 0, nullptr) != 1) fail(nullptr, doing);
    send(doing);
    sync(false);
  } else {
    PGresult* r = PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr);
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) fail(r, doing);
    PQclear(r);
  }
  prepared_.emplace(sql, name);
  return name;
}

PGresult* PgConnection::execute(const std::string& name, const std::vector<const char*>& params,
                                const std::string& what, bool rows) {
  const int n = static_cast<int>(params.size());
  if (!pipelined()) {
    PGresult* r = PQexecPrepared(conn_, name.c_str(), n, params.data(), nullptr, nullptr, 0);
    if (!succeeded(r)) fail(r, what);
    return r;
  }
  if (PQsendQueryPrepared(conn_, name.c_str(), n, params.data(), nullptr, nullptr, 0) != 1)
    fail(nullptr, what);
  send(what);
  return rows ? sync(true) : nullptr;
}

PGresult* PgConnection::execute_text(const std::string& sql, const std::vector<const char*>& params,
                                     const std::string& what) {
  const int n = static_cast<int>(params.size());
  if (!pipelined()) {
    PGresult* r = PQexecParams(conn_, sql.c_str(), n, nullptr, params.data(), nullptr, nullptr, 0);
    if (!succeeded(r)) fail(r, what);
    return r;
  }
  if (PQsendQueryParams(conn_, sql.c_str(), n, nullptr, params.data(), nullptr, nullptr, 0) != 1)
    fail(nullptr, what);
  send(what);
  return sync(true);
}

std::unique_ptr<StatementBackend> PgConnection::prepare(const std::string& sql,
                                                        const std::string& what, Rows rows) {
  return std::make_unique<PgStatement>(*this, sql, what, rows);
}

void PgConnection::exec(std::string_view sql, const std::string& what) {
  // Several statements in one text need the simple protocol, which a pipeline does not
  // take: answer what was sent ahead, step out for it, and back in.
  const bool was_pipelined = pipelined();
  if (was_pipelined) {
    sync(false);
    PQexitPipelineMode(conn_);
  }
  const std::string text(sql);
  PGresult* r = PQexec(conn_, text.c_str());
  if (!succeeded(r)) fail(r, what);
  PQclear(r);
  if (was_pipelined && PQenterPipelineMode(conn_) != 1) fail(nullptr, what);
}

void PgConnection::begin(bool, Commit commit) {
  // Row locks (FOR UPDATE, UPDATE) order the writers; nothing to take up front. BEGIN goes
  // out with the transaction's first statement.
  const std::string what = "starting a transaction";
  ensure_connected(what);
  if (PQenterPipelineMode(conn_) != 1) fail(nullptr, what);
  transaction_open_ = true;
  if (PQsendQueryParams(conn_, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0) != 1)
    fail(nullptr, what);
  send(what);
  if (commit == Commit::Lazy && settings_.synchronous_commit) {
    if (PQsendQueryParams(conn_, "SET LOCAL synchronous_commit TO off", 0, nullptr, nullptr,
                          nullptr, nullptr, 0) != 1)
      fail(nullptr, what);
    send(what);
  }
}

void PgConnection::commit() {
  const std::string what = "committing";
  PGresult* r = nullptr;
  try {
    if (!pipelined()) {
      r = PQexec(conn_, "COMMIT");
      if (!succeeded(r)) fail(r, what);
    } else {
      if (PQsendQueryParams(conn_, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0) != 1)
        fail(nullptr, what);
      send(what);
      r = sync(true);
    }
  } catch (const StoreException& e) {
    StoreError err = e.error();
    rollback();
    if (err.kind == ErrorKind::Unavailable) {
      // The connection went while committing: the server may or may not have committed.
      err.transient = false;
      err.message += "; whether the last transaction was committed is unknown";
    }
    throw StoreException(err);
  }
  // COMMIT of a transaction that had failed answers ROLLBACK.
  const bool rolled_back = std::strcmp(PQcmdStatus(r), "ROLLBACK") == 0;
  PQclear(r);
  transaction_open_ = false;
  leave_pipeline();
  if (rolled_back)
    throw StoreException(describe_error(ErrorKind::Io, name_, what,
                                        "the transaction had failed and was rolled back"));
}

void PgConnection::rollback() noexcept {
  transaction_open_ = false;
  if (!conn_) return;
  if (PQstatus(conn_) != CONNECTION_OK) {
    leave_pipeline();
    return;
  }
  if (pipelined()) {
    try {
      sync(false);  // answers of what was sent ahead; their errors no longer matter
    } catch (...) {
    }
    leave_pipeline();
  }
  const auto s = PQtransactionStatus(conn_);
  if (s == PQTRANS_INTRANS || s == PQTRANS_INERROR) PQclear(PQexec(conn_, "ROLLBACK"));
}

void PgConnection::fail(PGresult* result, const std::string& what) const {
  std::string sqlstate;
  std::string message;
  if (result) {
    if (const char* s = PQresultErrorField(result, PG_DIAG_SQLSTATE)) sqlstate = s;
    message = trimmed(PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY));
    if (message.empty()) message = trimmed(PQresultErrorMessage(result));
    PQclear(result);
  }
  if (PQstatus(conn_) != CONNECTION_OK) sqlstate.clear();  // the connection itself failed
  if (message.empty()) message = trimmed(PQerrorMessage(conn_));
  StoreError e = postgres_error(name_, sqlstate, scrub(message), what);
  // A statement that failed because the connection dropped can be tried again once it is
  // re-established; a lock or serialization failure after a pause (the whole transaction).
  if (e.kind == ErrorKind::Unavailable) e.transient = true;
  throw StoreException(e);
}

SchemaIdentity PgConnection::read_schema_identity() {
  SchemaIdentity id;
  const std::string what = "reading the schema version";
  auto n = prepare(
      "SELECT count(*), sum(CASE WHEN tablename = 'schema_version' THEN 1 ELSE 0 END) "
      "FROM pg_catalog.pg_tables WHERE schemaname = current_schema()",
      what, Rows::Few);
  if (!n->step()) return id;
  const bool has_version = !n->is_null(1) && n->int64(1) > 0;
  id.objects = n->int64(0) - (has_version ? 1 : 0);
  if (has_version) {
    auto v = prepare("SELECT application_id, version FROM schema_version", what, Rows::Few);
    if (v->step()) {
      id.application_id = v->int64(0);
      id.version = static_cast<int>(v->int64(1));
    }
  }
  return id;
}

void PgConnection::lock_schema() {
  exec("SELECT pg_advisory_xact_lock(" + std::to_string(kApplicationId) + ")",
       "waiting for another knightly to finish upgrading the schema");
}

void PgConnection::write_schema_identity(int version) {
  // Both values are integers.
  exec(
      "CREATE TABLE IF NOT EXISTS schema_version (application_id BIGINT NOT NULL, version "
      "INTEGER NOT NULL)",
      "creating the schema_version table");
  exec("DELETE FROM schema_version", "recording the schema version");
  exec("INSERT INTO schema_version (application_id, version) VALUES (" +
           std::to_string(kApplicationId) + ", " + std::to_string(version) + ")",
       "recording the schema version");
}

}  // namespace knightly::db
