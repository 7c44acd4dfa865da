#include "tests/support/postgres_server.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "tests/support/process.h"
#include "tests/test_data.h"

namespace knightly::test {

namespace {

// The script that starts and stops the server, run directly by bash (no shell command line).
std::string pg_server() {
  return source_dir() + "/tests/support/pg-server";
}

std::string read_first_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  return line;
}

// A server started by this process (no fixture around): stopped when the process exits.
struct OwnServer {
  std::filesystem::path dir;
  ~OwnServer() {
    if (dir.empty()) return;
    if (run_process({"/bin/bash", pg_server(), "stop", dir.string()}, 120).exit_code != 0)
      std::fprintf(stderr, "pg-server stop failed\n");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

struct State {
  std::string url;
  std::string user;
  std::optional<std::string> absent;
  OwnServer own;
};

State& state() {
  static State s;
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char* url = std::getenv("KNIGHTLY_PG_URL"); url && *url) {
      s.url = url;
      return;
    }
    std::filesystem::path dir;
    if (const char* d = std::getenv("KNIGHTLY_PG_DIR"); d && *d) dir = d;
    if (!dir.empty() && std::filesystem::exists(dir / "absent")) {
      s.absent = read_first_line(dir / "absent");
      return;
    }
    if (!dir.empty() && std::filesystem::exists(dir / "url")) {
      s.url = read_first_line(dir / "url");
      s.user = read_first_line(dir / "run_as");
      return;
    }
    // Run by hand: start one for this process.
    std::string tmpl = (std::filesystem::temp_directory_path() / "knightly-pgdir-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    s.own.dir = tmpl;
    ProcessResult started = run_process({"/bin/bash", pg_server(), "start", tmpl}, 180);
    if (started.exit_code != 0)
      throw std::runtime_error("tests/support/pg-server could not start a PostgreSQL server: " +
                               started.err);
    if (std::filesystem::exists(s.own.dir / "absent")) {
      s.absent = read_first_line(s.own.dir / "absent");
      return;
    }
    s.url = read_first_line(s.own.dir / "url");
    s.user = read_first_line(s.own.dir / "run_as");
  });
  return s;
}

std::string with_search_path(const std::string& url, const std::string& schema) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
         schema;
}

}  // namespace

std::optional<std::string> postgres_absent() {
  return state().absent;
}

const std::string& postgres_url() {
  const State& s = state();
  if (s.absent) throw std::runtime_error("no PostgreSQL server: " + *s.absent);
  return s.url;
}

std::string postgres_server_user() {
  return state().user;
}

void skip(const std::string& why) {
  std::printf("PostgreSQL tests skipped: %s\n", why.c_str());
  std::fflush(stdout);
}

namespace {

std::string run(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    const std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    throw std::runtime_error("cannot connect to the test server: " + message);
  }
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  PGresult* r = PQexec(conn, sql.c_str());
  const auto status = PQresultStatus(r);
  const std::string message = PQresultErrorMessage(r);
  std::string value;
  if (status == PGRES_TUPLES_OK && PQntuples(r) > 0 && PQnfields(r) > 0)
    value = PQgetvalue(r, 0, 0);
  PQclear(r);
  PQfinish(conn);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    throw std::runtime_error("test server: " + sql + ": " + message);
  return value;
}

}  // namespace

void postgres_exec(const std::string& url, const std::string& sql) {
  run(url, sql);
}

std::string postgres_value(const std::string& url, const std::string& sql) {
  return run(url, sql);
}

PostgresSchema::PostgresSchema() {
  static std::atomic<int> counter{0};
  name_ = "kt_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
  postgres_exec(postgres_url(),
                "DROP SCHEMA IF EXISTS " + name_ + " CASCADE; CREATE SCHEMA " + name_);
  url_ = with_search_path(postgres_url(), name_);
}

PostgresSchema::~PostgresSchema() {
  try {
    postgres_exec(postgres_url(), "DROP SCHEMA IF EXISTS " + name_ + " CASCADE");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dropping schema %s: %s\n", name_.c_str(), e.what());
  }
}

}  // namespace knightly::test
