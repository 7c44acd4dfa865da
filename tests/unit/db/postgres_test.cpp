// What only the PostgreSQL backend has: URLs and passwords, a server that refuses or is
// gone, another program's tables, concurrent migrations under the advisory lock, row locks
// held past the lock timeout, a connection cut between games, and a full tablespace. All
// against the real test server (tests/support/postgres_server.h).
#include <pwd.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <thread>

#include "db/store/migrations.h"
#include "db/store/store.h"
#include "db_test_util.h"
#include "test_database.h"
#include "tests/support/postgres_server.h"

using namespace knightly;
using namespace std::chrono_literals;
using knightly::db::ErrorKind;
using knightly::db::Store;
using knightly::test::synthetic_game;

#define REQUIRE_POSTGRES()                            \
  if (auto why = knightly::test::postgres_absent()) { \
    knightly::test::skip(*why);                       \
    return;                                           \
  }

namespace {

// postgresql://USER:PASSWORD@HOST:PORT/DB of the test server, taken apart.
struct ServerUrl {
  std::string user, password, host, port, db;
};

ServerUrl server_url() {
  static const std::regex re(R"(postgresql://([^:@/]+):([^@/]*)@([^:/]+):(\d+)/([^?]+))");
  std::smatch m;
  const std::string& url = test::postgres_url();
  REQUIRE(std::regex_match(url, m, re));
  return {m[1], m[2], m[3], m[4], m[5]};
}

std::string url_with(const std::string& userinfo, const std::string& schema,
                     const std::string& more = "") {
  const ServerUrl s = server_url();
  return "postgresql://" + userinfo + "@" + s.host + ":" + s.port + "/" + s.db +
         "?options=-csearch_path%3D" + schema + more;
}

struct Ids {
  std::int64_t tournament = 0, a = 0, b = 0;
};

Ids setup(Store& store) {
  return {store.catalog().create_tournament({"t", db::TournamentKind::Run, "", 1, ""}).id,
          store.catalog().upsert_engine({"A", "", "", "", "", "", true}),
          store.catalog().upsert_engine({"B", "", "", "", "", "", true})};
}

template <class F>
db::StoreError expect_error(F&& fn, ErrorKind kind, const std::string& words) {
  try {
    fn();
  } catch (const db::StoreException& e) {
    INFO(e.what());
    CHECK(e.kind() == kind);
    CHECK(std::string(e.what()).find(words) != std::string::npos);
    return e.error();
  }
  FAIL("no error was thrown (expected " << db::error_kind_name(kind) << ")");
  return {};
}

}  // namespace

TEST_CASE("a refused password is reported naming the URL without any password") {
  REQUIRE_POSTGRES();
  test::PostgresSchema schema;
  const ServerUrl s = server_url();
  const std::string secret = "Wr0ng-s3cret-%21x";
  const std::string url = url_with(s.user + ":" + secret, schema.name());
  auto store = Store::open(url);
  REQUIRE_FALSE(store);
  INFO(store.error().message);
  CHECK(store.error().kind == ErrorKind::Unavailable);
  CHECK(store.error().message.find("password authentication failed") != std::string::npos);
  CHECK(store.error().message.find(s.user + ":***@" + s.host) != std::string::npos);
  CHECK(store.error().message.find("Wr0ng") == std::string::npos);
  CHECK(store.error().message.find(s.password) == std::string::npos);
  CHECK(store.error().path.find("Wr0ng") == std::string::npos);
}

TEST_CASE("a server that is not there fails at once with Unavailable") {
  REQUIRE_POSTGRES();
  const auto start = std::chrono::steady_clock::now();
  // Port 1 on loopback: nothing listens, the connection is refused.
  auto store = Store::open("postgres://someone:topsecret@127.0.0.1:1/nothing");
  REQUIRE_FALSE(store);
  INFO(store.error().message);
  CHECK(store.error().kind == ErrorKind::Unavailable);
  CHECK(store.error().message.find("database postgres://someone:***@127.0.0.1:1/nothing: ") == 0);
  CHECK(store.error().message.find("topsecret") == std::string::npos);
  CHECK(std::chrono::steady_clock::now() - start < 10s);
}

TEST_CASE("a broken URL is refused without echoing its password") {
  REQUIRE_POSTGRES();
  auto store = Store::open("postgresql://u:hunter2@127.0.0.1:5432/db?sslmode=sometimes");
  REQUIRE_FALSE(store);
  CHECK(store.error().message.find("hunter2") == std::string::npos);
  auto bad_escape = Store::open("postgresql://u:hun%zzter2@127.0.0.1/db");
  REQUIRE_FALSE(bad_escape);
  INFO(bad_escape.error().message);
  CHECK(bad_escape.error().message.find("hun%zzter2") == std::string::npos);
}

TEST_CASE("the password may come from PGPASSFILE or PGPASSWORD instead of the URL") {
  REQUIRE_POSTGRES();
  test::PostgresSchema schema;
  const ServerUrl s = server_url();
  const std::string url = url_with(s.user, schema.name());
  test::TempDir dir;
  const std::string passfile = dir.file("pgpass");
  std::ofstream(passfile) << s.host << ":" << s.port << ":" << s.db << ":" << s.user << ":"
                          << s.password << "\n";
  ::chmod(passfile.c_str(), 0600);
  ::unsetenv("PGPASSWORD");
  ::setenv("PGPASSFILE", passfile.c_str(), 1);
  {
    auto store = Store::open(url);
    INFO((store ? std::string() : store.error().message));
    REQUIRE(store);
    CHECK(store->path() == url);
    setup(*store);
  }
  ::setenv("PGPASSFILE", dir.file("none").c_str(), 1);
  ::setenv("PGPASSWORD", s.password.c_str(), 1);
  {
    auto store = Store::open(url);
    REQUIRE(store);
    CHECK(store->catalog().find_tournament("t"));
  }
  ::unsetenv("PGPASSWORD");
  auto refused = Store::open(url);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == ErrorKind::Unavailable);
  ::unsetenv("PGPASSFILE");
}

TEST_CASE("a schema with another program's tables is refused and left alone") {
  REQUIRE_POSTGRES();
  test::TestDatabase database(test::Backend::Postgres);
  database.exec("CREATE TABLE games (x integer); INSERT INTO games VALUES (7)");
  for (auto mode : {db::OpenMode::ReadWrite, db::OpenMode::ReadOnly}) {
    db::StoreOptions options;
    options.mode = mode;
    auto store = Store::open(database.target(), options);
    REQUIRE_FALSE(store);
    CHECK(store.error().kind == ErrorKind::NotKnightly);
    CHECK(store.error().message.find("another program") != std::string::npos);
  }
  CHECK(database.number("SELECT count(*) FROM pg_tables WHERE schemaname = '" + database.schema() +
                        "'") == 1);
  CHECK(database.number("SELECT x FROM games") == 7);
}

TEST_CASE("a PostgreSQL database from a newer knightly is refused") {
  REQUIRE_POSTGRES();
  test::TestDatabase database(test::Backend::Postgres);
  { database.open(); }
  database.exec("UPDATE schema_version SET version = 99");
  auto store = Store::open(database.target());
  REQUIRE_FALSE(store);
  CHECK(store.error().kind == ErrorKind::TooNew);
  CHECK(database.number("SELECT version FROM schema_version") == 99);
}

TEST_CASE("read-only on PostgreSQL: an empty database is refused and writes fail") {
  REQUIRE_POSTGRES();
  test::TestDatabase database(test::Backend::Postgres);
  db::StoreOptions read;
  read.mode = db::OpenMode::ReadOnly;
  auto empty = Store::open(database.target(), read);
  REQUIRE_FALSE(empty);
  CHECK(empty.error().kind == ErrorKind::NotKnightly);
  CHECK(database.number("SELECT count(*) FROM pg_tables WHERE schemaname = '" + database.schema() +
                        "'") == 0);
  {
    Store store = database.open();
    const Ids ids = setup(store);
    store.games().insert_game(ids.tournament, synthetic_game(0, 10, "A", "B"), ids.a, ids.b);
  }
  Store reader = database.open(read);
  CHECK(reader.queries().count_games() == 1);
  expect_error(
      [&] {
        reader.catalog().create_tournament({"x", db::TournamentKind::Run, "", 0, ""});
      },
      ErrorKind::ReadOnly, "read-only");
  CHECK(reader.catalog().tournaments().size() == 1);
}

TEST_CASE("many processes creating the same new PostgreSQL database at once all succeed") {
  REQUIRE_POSTGRES();
  const int rounds = std::getenv("KNIGHTLY_QUICK") ? 1 : 3;
  for (int round = 0; round < rounds; ++round) {
    test::TestDatabase database(test::Backend::Postgres);
    const std::string url = database.target();
    for (int status : test::open_from_many_processes_at_once(url)) CHECK(status == 0);
    CHECK(database.number("SELECT count(*) FROM engines") == 8);
    CHECK(database.number("SELECT count(*) FROM schema_version") == 1);
  }
}

TEST_CASE(
    "a PostgreSQL lock held briefly is waited out, one held past the timeout fails naming "
    "the game") {
  REQUIRE_POSTGRES();
  test::TestDatabase database(test::Backend::Postgres);
  db::StoreOptions options;
  options.busy_timeout_ms = 3000;
  Store store = database.open(options);
  const Ids ids = setup(store);

  // Another session holds the games table against writers.
  auto hold = [&](std::chrono::milliseconds how_long) {
    return std::thread([url = database.target(), how_long] {
      test::postgres_exec(url, "BEGIN; LOCK TABLE games IN EXCLUSIVE MODE; SELECT pg_sleep(" +
                                   std::to_string(how_long.count() / 1000.0) + "); COMMIT");
    });
  };
  std::thread brief = hold(400ms);
  std::this_thread::sleep_for(100ms);
  store.games().insert_game(ids.tournament, synthetic_game(0, 10, "A", "B"), ids.a, ids.b);
  brief.join();
  CHECK(store.queries().count_games() == 1);

  db::StoreOptions impatient;
  impatient.busy_timeout_ms = 300;
  Store quick = database.open(impatient);
  std::thread long_hold = hold(2500ms);
  std::this_thread::sleep_for(150ms);
  const auto start = std::chrono::steady_clock::now();
  expect_error(
      [&] {
        quick.games().insert_game(ids.tournament, synthetic_game(1, 10, "A", "B"), ids.a, ids.b);
      },
      ErrorKind::Locked,
      "locked by another writer (gave up after the busy timeout) while storing game "
      "(round 0, pair 0, game 1) of tournament");
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(waited >= 250ms);
  CHECK(waited < 2400ms);
  long_hold.join();
  quick.games().insert_game(ids.tournament, synthetic_game(1, 10, "A", "B"), ids.a, ids.b);
  CHECK(quick.queries().count_games() == 2);
}

TEST_CASE("a connection cut between games is re-established and nothing is lost") {
  REQUIRE_POSTGRES();
  test::PostgresSchema schema;
  const ServerUrl s = server_url();
  const std::string app = "kt_cut_" + std::to_string(::getpid());
  const std::string url =
      url_with(s.user + ":" + s.password, schema.name(), "&application_name=" + app);
  auto opened = Store::open(url);
  REQUIRE(opened);
  Store& store = *opened;
  const Ids ids = setup(store);
  store.work().add_pairs(ids.tournament, std::vector<db::PairSlot>{{0, 0, 2, 0}});
  const auto w = store.work().register_worker({"h", 1, ""});
  auto c = store.work().claim_pair(ids.tournament, w, 60s);
  REQUIRE(c.claim);
  CHECK(store.games().store_game(*c.claim, synthetic_game(0, 10, "A", "B"), ids.a, ids.b) ==
        db::StoreOutcome::Stored);
  // The server drops this store's connection (an administrator, a restart, a network cut).
  CHECK(test::postgres_value(test::postgres_url(),
                             "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                             "WHERE application_name = '" +
                                 app + "'") == "1");
  std::this_thread::sleep_for(100ms);
  CHECK(store.games().store_game(*c.claim, synthetic_game(1, 10, "B", "A"), ids.b, ids.a) ==
        db::StoreOutcome::Stored);
  CHECK(store.queries().count_games() == 2);
  CHECK(store.work().claim_pair(ids.tournament, w, 60s).status == db::ClaimStatus::Exhausted);
  CHECK(store.integrity_check() == "ok");
}

TEST_CASE("a full tablespace on the server is reported as a full disk naming the game") {
  REQUIRE_POSTGRES();
  const std::string user = test::postgres_server_user();
  struct passwd* pw = user.empty() ? nullptr : ::getpwnam(user.c_str());
  if (::geteuid() != 0 || !pw) {
    test::skip("needs root and a server started here (a small tmpfs as a tablespace)");
    return;
  }
  test::TempDir dir;
  ::chmod(dir.path().c_str(), 0755);
  const std::string mnt = dir.file("space");
  std::filesystem::create_directory(mnt);
  REQUIRE(::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=1m") == 0);
  REQUIRE(::chown(mnt.c_str(), pw->pw_uid, pw->pw_gid) == 0);
  const std::string ts = "kt_full_" + std::to_string(::getpid());
  test::postgres_exec(test::postgres_url(), "CREATE TABLESPACE " + ts + " LOCATION '" + mnt + "'");
  {
    test::PostgresSchema schema;
    const ServerUrl s = server_url();
    const std::string url =
        url_with(s.user + ":" + s.password, schema.name(), "%20-cdefault_tablespace%3D" + ts);
    auto opened = Store::open(url);
    REQUIRE(opened);
    Store& store = *opened;
    const Ids ids = setup(store);
    int stored = 0;
    db::StoreError error;
    for (; stored < 20000; ++stored) {
      try {
        store.games().insert_game(ids.tournament, synthetic_game(stored, 60, "A", "B"), ids.a,
                                  ids.b);
      } catch (const db::StoreException& e) {
        error = e.error();
        break;
      }
    }
    INFO(error.message);
    REQUIRE(stored < 20000);
    CHECK(error.kind == ErrorKind::DiskFull);
    CHECK(error.message.find(": disk full while storing game (round " +
                             std::to_string(stored / 4)) != std::string::npos);
    CHECK(error.message.find(s.password) == std::string::npos);
    CHECK(store.queries().count_games() == stored);
    CHECK(store.integrity_check() == "ok");
  }
  test::postgres_exec(test::postgres_url(), "DROP TABLESPACE " + ts);
  ::umount2(mnt.c_str(), MNT_DETACH);
}
