// The store against real databases (SQLite files and a PostgreSQL server): schema, round
// trips, crash safety, identity rules.
#include "db/store/store.h"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "db/store/migrations.h"
#include "db/store/pg_connection.h"
#include "db/store/sha256.h"
#include "db/store/sqlite_connection.h"
#include "db/store/statement.h"
#include "db/store/transaction.h"
#include "db_test_util.h"
#include "test_database.h"

using namespace knightly;
using knightly::db::ErrorKind;
using knightly::db::Store;
using knightly::db::StoreException;
using knightly::test::synthetic_game;
using knightly::test::TempDir;

namespace {

Store open_store(const std::string& path, db::StoreOptions options = {}) {
  auto store = Store::open(path, options);
  if (!store) FAIL(store.error().message);
  return std::move(*store);
}

// A raw connection, to look at the file without going through the code under test.
struct Raw {
  explicit Raw(const std::string& path, int flags = SQLITE_OPEN_READWRITE) {
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, flags, nullptr) == SQLITE_OK);
  }
  ~Raw() { sqlite3_close(db); }
  std::string text(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK);
    std::string out;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
  }
  std::int64_t number(const std::string& sql) { return std::stoll(text(sql)); }
  int exec(const std::string& sql) {
    return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  }
  sqlite3* db = nullptr;
};

struct Fixture {
  std::int64_t tournament = 0;
  std::int64_t alpha = 0;
  std::int64_t beta = 0;
};

Fixture setup(Store& store, const std::string& name = "t1") {
  Fixture f;
  f.tournament =
      store.catalog()
          .create_tournament({name, db::TournamentKind::Run, "[tournament]\nname=\"t1\"\n", 42, ""})
          .id;
  f.alpha = store.catalog().upsert_engine(
      {"Alpha", "/usr/bin/alpha", "Hash=16", "Alpha 1.0", "A. Author", "aa11", false});
  f.beta = store.catalog().upsert_engine({"Beta", "", "Search=minimax", "", "", "", true});
  return f;
}

}  // namespace

TEST_CASE("a new database gets the whole schema, WAL mode and our markers") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  {
    Store store = open_store(path);
    CHECK(store.schema_version() == db::latest_schema_version());
    CHECK(store.integrity_check() == "ok");
  }
  Raw raw(path);
  CHECK(raw.number("PRAGMA user_version") == db::latest_schema_version());
  CHECK(raw.number("PRAGMA application_id") == 0x4B4E544C);
  CHECK(raw.text("PRAGMA journal_mode") == "wal");
  for (const char* table :
       {"tournaments", "engines", "games", "moves", "workers", "pairs", "superseded_games"})
    CHECK(
        raw.number(std::string("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='") +
                   table + "'") == 1);
}

TEST_CASE("a new SQLite file gets the schema and rows its migrations leave, one by one") {
  // A new file is given the snapshot schema_snapshot made at build time, in one pass; a file
  // of each older version goes through the migrations. Both must end the same.
  TempDir dir;
  const std::string by_migrations = dir.file("migrated.db"), fresh = dir.file("fresh.db");
  {
    Raw raw(by_migrations, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    for (const auto& m : db::embedded_migrations()) REQUIRE(raw.exec(m.sql) == SQLITE_OK);
  }
  { Store store = open_store(fresh); }
  const std::string objects =
      "SELECT group_concat(type || ' ' || name || ' ' || tbl_name || ' ' || ifnull(sql, '-'), "
      "char(10)) FROM (SELECT * FROM sqlite_master ORDER BY type, name)";
  Raw a(by_migrations), b(fresh);
  const std::string expected = a.text(objects);
  CHECK(expected.find("CREATE TABLE games") != std::string::npos);
  CHECK(expected.find("CREATE INDEX") != std::string::npos);
  CHECK(b.text(objects) == expected);
  // Every table's rows: the migrations' own (queue_control's) and none other.
  const std::string tables =
      "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'table' "
      "AND name NOT LIKE 'sqlite%' ORDER BY name)";
  REQUIRE(b.text(tables) == a.text(tables));
  std::istringstream names(a.text(tables));
  int with_rows = 0;
  for (std::string t; names >> t;) {
    // Each table's row count; the one table with rows (queue_control) is read below.
    const std::string count = "SELECT count(*) FROM " + t;
    CHECK(b.number(count) == a.number(count));
    if (a.number(count) > 0) ++with_rows;
  }
  CHECK(with_rows == 1);
  CHECK(b.text("SELECT id || ',' || stop_epoch FROM queue_control") ==
        a.text("SELECT id || ',' || stop_epoch FROM queue_control"));
}

TEST_CASE("a new PostgreSQL database gets the whole schema and its version table") {
  if (auto why = test::postgres_absent()) return test::skip(*why);
  test::TestDatabase database(test::Backend::Postgres);
  {
    Store store = database.open();
    CHECK(store.schema_version() == db::latest_schema_version());
    CHECK(store.is_postgres());
    CHECK(store.integrity_check() == "ok");
  }
  CHECK(database.number("SELECT version FROM schema_version") == db::latest_schema_version());
  CHECK(database.number("SELECT application_id FROM schema_version") == 0x4B4E544C);
  CHECK(database.number("SELECT count(*) FROM schema_version") == 1);
  for (const char* table : {"tournaments", "engines", "games", "moves", "binary_hashes", "workers",
                            "pairs", "superseded_games"})
    CHECK(database.number(std::string("SELECT count(*) FROM pg_tables WHERE schemaname = '") +
                          database.schema() + "' AND tablename = '" + table + "'") == 1);
  // 64-bit integers everywhere, identity keys, doubles for the SPRT settings.
  CHECK(database.value("SELECT data_type FROM information_schema.columns WHERE table_schema = '" +
                       database.schema() +
                       "' AND table_name = 'moves' AND column_name = 'nodes'") == "bigint");
  CHECK(database.value("SELECT is_identity FROM information_schema.columns WHERE table_schema = '" +
                       database.schema() + "' AND table_name = 'games' AND column_name = 'id'") ==
        "YES");
  CHECK(database.value("SELECT data_type FROM information_schema.columns WHERE table_schema = '" +
                       database.schema() +
                       "' AND table_name = 'tournaments' AND column_name = 'sprt_elo0'") ==
        "double precision");
}

STORE_TEST("reopening a database is idempotent and keeps its data") {
  const std::string catalog =
      database.sqlite()
          ? "SELECT group_concat(sql, ';') FROM sqlite_master"
          : "SELECT string_agg(table_name || '.' || column_name || ':' || data_type, ',' ORDER BY "
            "table_name, column_name) FROM information_schema.columns WHERE table_schema = '" +
                database.schema() + "'";
  std::string schema_before;
  {
    Store store = database.open();
    auto f = setup(store);
    store.games().insert_game(f.tournament, synthetic_game(0, 10), f.alpha, f.beta);
    schema_before = database.value(catalog);
  }
  CHECK(schema_before.find("pairs") != std::string::npos);
  for (int i = 0; i < 3; ++i) {
    Store store = database.open();
    CHECK(store.schema_version() == db::latest_schema_version());
    CHECK(store.queries().count_games() == 1);
  }
  CHECK(database.value(catalog) == schema_before);
}

TEST_CASE("an in-memory database works") {
  Store store = open_store(":memory:");
  auto f = setup(store);
  store.games().insert_game(f.tournament, synthetic_game(0, 4), f.alpha, f.beta);
  CHECK(store.queries().count_games() == 1);
  CHECK(store.integrity_check() == "ok");
}

TEST_CASE("busy and try_hold: another thread of the process in the store, not this one") {
  TempDir dir;
  Store store = open_store(dir.file("busy.db"));
  auto f = setup(store);
  store.games().insert_game(f.tournament, synthetic_game(0, 4), f.alpha, f.beta);
  CHECK_FALSE(store.busy());
  bool inside = false, here = true, elsewhere = false, held_here = false, held_elsewhere = true;
  // A streamed read holds the store while it calls back.
  store.queries().for_each_game({}, [&](const db::StoredGame&) {
    inside = true;
    here = store.busy();
    held_here = bool(store.try_hold());
    std::thread other([&] {
      elsewhere = store.busy();
      held_elsewhere = bool(store.try_hold());
    });
    other.join();
  });
  REQUIRE(inside);
  CHECK_FALSE(here);  // the thread in the store may use it again
  CHECK(held_here);
  CHECK(elsewhere);  // another thread would wait
  CHECK_FALSE(held_elsewhere);
  CHECK_FALSE(store.busy());
  // Held by try_hold, the store is busy for other threads until the lock is let go.
  {
    auto held = store.try_hold();
    REQUIRE(held);
    bool other_busy = false;
    std::thread other([&] { other_busy = store.busy(); });
    other.join();
    CHECK(other_busy);
  }
  CHECK_FALSE(store.busy());
}

STORE_TEST("a game and its moves come back exactly as stored") {
  Store store = database.open();
  auto f = setup(store);
  GameRecord g = synthetic_game(5, 60, "Alpha", "Beta", Result::Draw);
  g.moves[10].eval.nodes = 0xFFFFFFFFFFFFull;  // large values survive
  const auto row = store.games().insert_game(f.tournament, g, f.alpha, f.beta);
  CHECK(row > 0);

  int seen = 0;
  store.queries().for_each_game({}, [&](const db::StoredGame& s) {
    ++seen;
    const GameRecord& r = s.record;
    CHECK(s.id == row);
    CHECK(s.tournament_id == f.tournament);
    CHECK(s.white_engine_id == f.alpha);
    CHECK(s.black_engine_id == f.beta);
    CHECK(r.id == g.id);
    CHECK(r.white == "Alpha");
    CHECK(r.black == "Beta");
    CHECK(r.start_fen == g.start_fen);
    CHECK(r.opening_source == g.opening_source);
    CHECK(r.result == Result::Draw);
    CHECK(r.termination == Termination::Repetition);
    CHECK(r.reason == "Draw by 3-fold repetition");
    CHECK(r.start_time == g.start_time);
    CHECK(r.duration_ms == g.duration_ms);
    CHECK(r.time_control == "10+0.1");
    CHECK(r.pgn == g.pgn);
    CHECK(s.opening_moves == std::string(g.moves[0].uci).append(" ").append(g.moves[1].uci));
    REQUIRE(r.moves.size() == g.moves.size());
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      INFO("ply " << i + 1);
      const auto& a = r.moves[i];
      const auto& b = g.moves[i];
      CHECK(a.uci == b.uci);
      CHECK(a.san == b.san);
      CHECK(a.eval == b.eval);
      CHECK(a.time_ms == b.time_ms);
      CHECK(a.clock_left_ms == b.clock_left_ms);
      CHECK(a.book == b.book);
    }
  });
  CHECK(seen == 1);

  // What a user of plain sqlite3 or psql sees.
  CHECK(database.value("SELECT termination FROM games") == "repetition");
  CHECK(database.number("SELECT plies FROM games") == 60);
  CHECK(database.number("SELECT count(*) FROM moves WHERE book = 1") == 2);
  // No clock: the two book moves and plies 6, 11, ..., 56 (p % 5 == 0 for p = 5..55).
  CHECK(database.number("SELECT count(*) FROM moves WHERE clock_left_ms IS NULL") == 13);
  CHECK(database.number("SELECT min(ply) FROM moves") == 1);
  CHECK(database.number("SELECT nodes FROM moves WHERE ply = 11") == 0xFFFFFFFFFFFFll);
}

STORE_TEST("export streams games in schedule order whatever order they were stored in") {
  Store store = database.open();
  auto f = setup(store);
  for (int i : {3, 0, 2, 1, 7, 4, 6, 5})
    store.games().insert_game(f.tournament, synthetic_game(i, 6), f.alpha, f.beta);
  std::vector<int> order;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& s) { order.push_back(s.record.id.index); }, false);
  CHECK(order == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  auto ids = store.queries().stored_game_ids(f.tournament);
  REQUIRE(ids.size() == 8);
  CHECK(ids[5] == synthetic_game(5, 0).id);
}

STORE_TEST("a game identity is stored once and a game without result is refused") {
  Store store = database.open();
  auto f = setup(store);
  store.games().insert_game(f.tournament, synthetic_game(0, 8), f.alpha, f.beta);
  GameRecord again = synthetic_game(0, 8);
  again.start_time = "2026-11-22T00:00:00Z";
  try {
    store.games().insert_game(f.tournament, again, f.alpha, f.beta);
    FAIL("duplicate identity accepted");
  } catch (const StoreException& e) {
    CHECK(e.kind() == ErrorKind::Conflict);
    CHECK(std::string(e.what()).find("round 0, pair 0, game 0") != std::string::npos);
  }
  GameRecord unfinished = synthetic_game(1, 8, "Alpha", "Beta", Result::None);
  CHECK_THROWS_AS(store.games().insert_game(f.tournament, unfinished, f.alpha, f.beta),
                  StoreException);
  // An unknown engine id is refused by the foreign key, and leaves no moves behind.
  CHECK_THROWS_AS(store.games().insert_game(f.tournament, synthetic_game(2, 8), 999, f.beta),
                  StoreException);
  CHECK(store.queries().count_games() == 1);
  CHECK(store.queries().stored_game_ids(f.tournament).size() == 1);
  CHECK(store.integrity_check() == "ok");
}

STORE_TEST("a transaction rolls back unless committed") {
  { Store store = database.open(); }
  db::Database db =
      database.sqlite()
          ? db::Database(database.target(), SQLITE_OPEN_READWRITE, 1000)
          : db::Database(std::make_unique<db::PgConnection>(database.target(), db::PgSettings{}));
  {
    db::Transaction tx(db);
    db.exec("INSERT INTO engines (name, first_seen) VALUES ('x', 'now')", "test");
  }
  {
    db::Transaction tx(db);
    db.exec("INSERT INTO engines (name, first_seen) VALUES ('y', 'now')", "test");
    tx.commit();
  }
  CHECK(database.number("SELECT count(*) FROM engines") == 1);
  CHECK(database.value("SELECT name FROM engines") == "y");
}

STORE_TEST("a statement of the same text, prepared again, starts with nothing bound or pending") {
  { Store store = database.open(); }
  auto db = std::make_unique<db::Database>(
      database.sqlite()
          ? db::Database(database.target(), SQLITE_OPEN_READWRITE, 1000)
          : db::Database(std::make_unique<db::PgConnection>(database.target(), db::PgSettings{})));
  db->exec("CREATE TABLE kv (k TEXT NOT NULL, v TEXT)", "test");
  const std::string insert = "INSERT INTO kv (k, v) VALUES (?, ?)";
  const std::string select = "SELECT k, v FROM kv WHERE k >= ? ORDER BY k";
  for (const char* k : {"a", "b", "c"}) {
    db::Statement st(*db, insert);
    st.bind(1, k);
    if (std::string(k) == "a")
      st.bind(2, "first");
    else if (!database.sqlite())  // SQLite: later rows bind no v (PostgreSQL wants each)
      st.bind_null(2);
    st.run();
  }
  CHECK(database.value("SELECT v FROM kv WHERE k = 'a'") == "first");
  CHECK(database.number("SELECT count(*) FROM kv WHERE v IS NULL") == 2);
  {
    // Left after its first row: the next one of its text does not resume it.
    db::Statement st(*db, select);
    st.bind(1, "a");
    REQUIRE(st.step());
    CHECK(st.text(0) == "a");
    // Two of one text at once are two statements.
    db::Statement other(*db, select);
    other.bind(1, "b");
    REQUIRE(other.step());
    CHECK(other.text(0) == "b");
    REQUIRE(st.step());
    CHECK(st.text(0) == "b");
  }
  {
    db::Statement st(*db, select);
    st.bind(1, "c");
    REQUIRE(st.step());
    CHECK(st.text(0) == "c");
    CHECK(st.is_null(1));
    CHECK_FALSE(st.step());
  }
  {
    db::Transaction tx(*db);
    db::Statement(*db, insert).bind(1, "d").bind_null(2).run();
    tx.commit();
  }
  CHECK(database.number("SELECT count(*) FROM kv") == 4);
  if (database.sqlite()) {  // an SQLite statement may outlive its connection
    auto late = std::make_unique<db::Statement>(*db, select);
    db.reset();
    late.reset();
  }
}

STORE_TEST("a process killed between games loses no committed game") {
  const std::string path = database.target();
  const std::string marker = database.dir().file("five");
  std::int64_t tournament = 0;
  {
    Store store = database.open();
    tournament = setup(store).tournament;
  }
  // The child stores games as fast as it can until it is SIGKILLed: no destructor, no close.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    auto store = Store::open(path);
    if (!store) _exit(3);
    const auto alpha = store->catalog().find_engine("Alpha").value_or(0);
    const auto beta = store->catalog().find_engine("Beta").value_or(0);
    for (int i = 0;; ++i) {
      store->games().insert_game(tournament, synthetic_game(i, 60), alpha, beta);
      if (i == 4) {
        // Tell the parent five games are committed by creating a marker file.
        std::ofstream{marker};
      }
    }
  }
  for (int i = 0; i < 1000 && !std::filesystem::exists(marker); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(WIFSIGNALED(status));

  Store store = database.open();
  const auto ids = store.queries().stored_game_ids(tournament);
  CHECK(ids.size() >= 5);
  // Every stored game is whole: all its 60 moves, and the indices have no gap.
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(ids[i].index == static_cast<int>(i));
  std::int64_t incomplete = 0;
  store.queries().for_each_game({}, [&](const db::StoredGame& s) {
    if (s.record.moves.size() != 60) ++incomplete;
  });
  CHECK(incomplete == 0);
  CHECK(store.integrity_check() == "ok");
  // Resume continues after the last stored game.
  store.games().insert_game(tournament, synthetic_game(static_cast<int>(ids.size()), 60),
                            *store.catalog().find_engine("Alpha"),
                            *store.catalog().find_engine("Beta"));
  CHECK(store.queries().stored_game_ids(tournament).size() == ids.size() + 1);
}

STORE_TEST(
    "tournaments are created, found, kept unique by live name and restarted under a new id") {
  Store store = database.open();
  auto f = setup(store, "nightly");
  store.games().insert_game(f.tournament, synthetic_game(0, 4), f.alpha, f.beta);
  auto found = store.catalog().find_tournament("nightly");
  REQUIRE(found);
  CHECK(found->id == f.tournament);
  CHECK(found->seed == 42);
  CHECK(found->status == db::TournamentStatus::Running);
  CHECK(found->config_text == "[tournament]\nname=\"t1\"\n");
  // SHA-256 of the config text, checked against the sha256sum of the same bytes.
  CHECK(found->config_hash == "39f4b0560853eaf04f69d66a549c6ba43413f6539f72f89ff8ac8e0c9b8bc06d");
  CHECK_FALSE(store.catalog().find_tournament("other"));

  try {
    store.catalog().create_tournament({"nightly", db::TournamentKind::Run, "x", 1, ""});
    FAIL("duplicate live name accepted");
  } catch (const StoreException& e) {
    CHECK(e.kind() == ErrorKind::Conflict);
    CHECK(std::string(e.what()).find("nightly") != std::string::npos);
  }

  store.catalog().set_tournament_status(f.tournament, db::TournamentStatus::Aborted);
  CHECK(store.catalog().tournament(f.tournament)->status == db::TournamentStatus::Aborted);
  CHECK_FALSE(store.catalog().tournament(f.tournament)->finished_at.empty());
  store.catalog().set_tournament_status(f.tournament, db::TournamentStatus::Running);
  CHECK(store.catalog().tournament(f.tournament)->finished_at.empty());

  auto fresh = store.catalog().restart_tournament(
      f.tournament, {"nightly", db::TournamentKind::Run, "changed", 7, ""});
  CHECK(fresh.id != f.tournament);
  CHECK(store.catalog().find_tournament("nightly")->id == fresh.id);
  CHECK(store.catalog().tournament(f.tournament)->status == db::TournamentStatus::Restarted);
  CHECK(store.queries().stored_game_ids(f.tournament).size() == 1);
  CHECK(store.queries().stored_game_ids(fresh.id).empty());
  // A large seed survives the signed 64-bit column.
  auto big = store.catalog().create_tournament(
      {"big", db::TournamentKind::Sprt, "", 0xFEDCBA9876543210ull, ""});
  CHECK(store.catalog().tournament(big.id)->seed == 0xFEDCBA9876543210ull);
  CHECK(store.catalog().tournament(big.id)->kind == db::TournamentKind::Sprt);
  CHECK(store.catalog().tournaments().size() == 3);
}

STORE_TEST("engines get one row per version") {
  Store store = database.open();
  db::EngineInfo e{"Sf", "/usr/games/stockfish", "Hash=16", "", "", "abc", false};
  const auto a = store.catalog().upsert_engine(e);
  e.uci_name = "Stockfish 16";
  e.uci_author = "the Stockfish developers";
  CHECK(store.catalog().upsert_engine(e) == a);  // same version: same row, id fields filled in
  e.binary_sha256 = "def";
  const auto b = store.catalog().upsert_engine(e);  // new binary: new version
  CHECK(b != a);
  e.options = "Hash=32";
  const auto c = store.catalog().upsert_engine(e);
  CHECK(c != b);
  CHECK(store.catalog().find_engine("Sf") == c);
  CHECK_FALSE(store.catalog().find_engine("nobody"));
  auto versions = store.catalog().engines();
  REQUIRE(versions.size() == 3);
  CHECK(versions[0].info.uci_name == "Stockfish 16");
  CHECK(versions[0].info.uci_author == "the Stockfish developers");
  CHECK(versions[1].info.binary_sha256 == "def");
}

STORE_TEST("several workers may store games through one Store at once") {
  Store store = database.open();
  auto f = setup(store);
  const int per_thread = std::getenv("KNIGHTLY_QUICK") ? 20 : 100;
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w)
    workers.emplace_back([&, w] {
      for (int i = 0; i < per_thread; ++i)
        store.games().insert_game(f.tournament, synthetic_game(w * per_thread + i, 20), f.alpha,
                                  f.beta);
    });
  for (auto& t : workers) t.join();
  const auto ids = store.queries().stored_game_ids(f.tournament);
  REQUIRE(ids.size() == static_cast<std::size_t>(4 * per_thread));
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(ids[i].index == static_cast<int>(i));
  CHECK(store.integrity_check() == "ok");
}

TEST_CASE("an empty file becomes a new database") {
  TempDir dir;
  const std::string path = dir.file("empty.db");
  std::ofstream(path).close();
  REQUIRE(std::filesystem::file_size(path) == 0);
  Store store = open_store(path);
  CHECK(store.schema_version() == db::latest_schema_version());
  CHECK(Raw(path).number("PRAGMA application_id") == 0x4B4E544C);
}

TEST_CASE("a new file's image left by a killed process is removed once that process is gone") {
  // PATH.new-PID-N is written and linked into place by create_from_image; a process killed in
  // between leaves it. The next writer removes it when PID is gone and the file a minute old,
  // and leaves alone a living process's, a fresh one, and names that only look alike.
  TempDir dir;
  const std::string path = dir.file("k.db");
  const pid_t gone = ::fork();
  REQUIRE(gone >= 0);
  if (gone == 0) ::_exit(0);
  REQUIRE(::waitpid(gone, nullptr, 0) == gone);
  const auto make = [&](const std::string& name, bool old) {
    std::ofstream(dir.file(name)) << "image";
    if (!old) return;
    timespec times[2] = {{1700000000, 0}, {1700000000, 0}};
    REQUIRE(::utimensat(AT_FDCWD, dir.file(name).c_str(), times, 0) == 0);
  };
  const std::string dead = "k.db.new-" + std::to_string(gone) + "-0";
  const std::string dead_fresh = "k.db.new-" + std::to_string(gone) + "-1";
  const std::string alive = "k.db.new-" + std::to_string(::getpid()) + "-0";
  const std::string other_db = "other.db.new-" + std::to_string(gone) + "-0";
  const std::string not_ours = "k.db.new-" + std::to_string(gone) + "-0.bak";
  make(dead, true);
  make(dead_fresh, false);
  make(alive, true);
  make(other_db, true);
  make(not_ours, true);
  Store store = open_store(path);
  CHECK(store.schema_version() == db::latest_schema_version());
  CHECK_FALSE(std::filesystem::exists(dir.file(dead)));
  CHECK(std::filesystem::exists(dir.file(dead_fresh)));
  CHECK(std::filesystem::exists(dir.file(alive)));
  CHECK(std::filesystem::exists(dir.file(other_db)));
  CHECK(std::filesystem::exists(dir.file(not_ours)));
  // And by a writer opening the database after it exists (killed after the link).
  make(dead, true);
  Store again = open_store(path);
  CHECK_FALSE(std::filesystem::exists(dir.file(dead)));
}

STORE_TEST("a program's hash is remembered until its size or modification time changes") {
  Store store = database.open();
  const std::string program = database.dir().file("engine-bin");
  auto write = [&](const std::string& bytes) {
    std::FILE* f = std::fopen(program.c_str(), "wb");
    REQUIRE(f);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  };
  auto set_mtime = [&](long seconds) {
    timespec times[2] = {{seconds, 0}, {seconds, 0}};
    REQUIRE(::utimensat(AT_FDCWD, program.c_str(), times, 0) == 0);
  };
  write("build one");
  set_mtime(1700000000);
  CHECK(store.catalog().binary_sha256(program) == db::sha256_file(program));
  // Same size and time: the remembered hash comes back without reading the file, as the
  // changed bytes show.
  write("build two");
  set_mtime(1700000000);
  CHECK(store.catalog().binary_sha256(program) == db::sha256_hex("build one"));
  // A rebuild touches the time: hashed afresh.
  set_mtime(1700000100);
  CHECK(store.catalog().binary_sha256(program) == db::sha256_hex("build two"));
  CHECK_FALSE(store.catalog().binary_sha256(database.dir().file("missing")).has_value());
}

TEST_CASE("the WAL is checkpointed on a thread of its own once past its limit") {
  // A commit that takes the WAL past options.checkpoint_bytes no longer copies it into the
  // database itself (30-50 ms with the store held): a thread of the store's does, while the
  // commits go on. The games all read back, the file checks, and the last close leaves no WAL.
  TempDir dir;
  const std::string path = dir.file("k.db");
  const auto size_of = [](const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 ? std::int64_t(st.st_size) : std::int64_t(-1);
  };
  {
    db::StoreOptions options;
    options.sync_every_commit = false;
    options.checkpoint_bytes = 16 * 4096;
    Store store = open_store(path, options);
    const std::int64_t first = size_of(path);
    const auto t = store.catalog().create_tournament({"t", db::TournamentKind::Run, "", 1, ""}).id;
    const auto a = store.catalog().upsert_engine({"A", "", "", "", "", "", true});
    const auto b = store.catalog().upsert_engine({"B", "", "", "", "", "", true});
    CHECK(store.background_checkpoints() == 0);
    // Commits until the thread has checkpointed and the file has grown: only a checkpoint
    // writes the database file in WAL mode. A PASSIVE checkpoint copies only the frames no
    // reader may still need: one that ran during a commit may have copied only the first
    // frames (pages the file already had), and the next commit past the limit wakes the
    // thread again. Between commits a short pause once the thread has run, so that it, not
    // the commit at four times the limit, does the copying.
    int games = 0;
    const auto grown = [&] { return store.background_checkpoints() > 0 && size_of(path) > first; };
    for (; games < 2000 && !grown(); ++games) {
      store.games().insert_game(t, synthetic_game(games, 60, "A", "B"), a, b);
      if (store.background_checkpoints() > 0) ::usleep(2000);
    }
    // The checkpoint may still be running: wait for it (at most 10 s), the commits done.
    for (int i = 0; i < 1000 && !grown(); ++i) ::usleep(10000);
    INFO(games << " games stored");
    CHECK(store.background_checkpoints() > 0);
    CHECK(size_of(path) > first);
    // More commits while the thread checkpoints: all stored.
    for (int i = 0; i < 200; ++i, ++games)
      store.games().insert_game(t, synthetic_game(games, 60, "A", "B"), a, b);
    db::GameFilter filter;
    filter.tournament_ids = {t};
    CHECK(store.queries().count_games(filter) == games);
    CHECK(store.integrity_check() == "ok");
  }
  CHECK(size_of(path + "-wal") == -1);
  CHECK(open_store(path).integrity_check() == "ok");
  // checkpoint_off_thread = false (import): in the commit, as SQLite does, and no thread.
  db::StoreOptions inline_options;
  inline_options.checkpoint_bytes = 16 * 4096;
  inline_options.checkpoint_off_thread = false;
  Store store = open_store(dir.file("inline.db"), inline_options);
  const std::int64_t first = size_of(dir.file("inline.db"));
  const auto t = store.catalog().create_tournament({"t", db::TournamentKind::Run, "", 1, ""}).id;
  const auto a = store.catalog().upsert_engine({"A", "", "", "", "", "", true});
  for (int i = 0; i < 50; ++i) store.games().insert_game(t, synthetic_game(i, 60, "A", "A"), a, a);
  CHECK(size_of(dir.file("inline.db")) > first);
  CHECK(store.background_checkpoints() == 0);
}

TEST_CASE("a lazy transaction skips the fsync of its commit only") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  { Store store = open_store(path); }
  auto connection = std::make_unique<db::SqliteConnection>(path, SQLITE_OPEN_READWRITE, 1000, "");
  db::SqliteConnection& c = *connection;
  db::Database database(std::move(connection));
  c.set_synchronous_full(true);
  const auto synchronous = [&] {
    db::Statement st(database, "PRAGMA synchronous");
    st.step();
    return st.int64(0);
  };
  CHECK(synchronous() == 2);  // FULL
  {
    db::Transaction tx(database, db::Transaction::Mode::Immediate, db::Commit::Lazy);
    CHECK(synchronous() == 1);  // NORMAL for this commit
    tx.commit();
  }
  CHECK(synchronous() == 2);
  {
    db::Transaction tx(database, db::Transaction::Mode::Immediate, db::Commit::Lazy);
  }  // rolled back: FULL again too
  CHECK(synchronous() == 2);
  c.set_synchronous_full(false);
  {
    db::Transaction tx(database, db::Transaction::Mode::Immediate, db::Commit::Lazy);
    tx.commit();
  }
  CHECK(synchronous() == 1);
}
