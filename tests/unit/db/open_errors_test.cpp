// Files the store must refuse with a clear error naming the path, without touching them.
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>

#include "db/store/database.h"
#include "db/store/sqlite_connection.h"
#include "db/store/store.h"
#include "db/store/transaction.h"
#include "db_test_util.h"

using namespace knightly;
using knightly::db::ErrorKind;
using knightly::db::OpenMode;
using knightly::db::Store;
using knightly::test::snapshot;
using knightly::test::synthetic_game;
using knightly::test::TempDir;

namespace {

void make_knightly_db(const std::string& path, int games = 1) {
  auto store = Store::open(path);
  REQUIRE(store);
  const auto t = store->catalog().create_tournament({"t", db::TournamentKind::Run, "", 1, ""}).id;
  const auto a = store->catalog().upsert_engine({"A", "", "", "", "", "", true});
  const auto b = store->catalog().upsert_engine({"B", "", "", "", "", "", true});
  for (int i = 0; i < games; ++i)
    store->games().insert_game(t, synthetic_game(i, 10, "A", "B"), a, b);
}

// Checks every open mode refuses the file with `kind` and leaves it byte-for-byte as it was.
void check_refused(const std::string& path, ErrorKind kind, const std::string& words) {
  const auto before = snapshot(path);
  for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
    db::StoreOptions options;
    options.mode = mode;
    auto store = Store::open(path, options);
    REQUIRE_FALSE(store);
    CHECK(store.error().kind == kind);
    CHECK(store.error().path == path);
    CHECK(store.error().message.find(path) != std::string::npos);
    CHECK(store.error().message.find(words) != std::string::npos);
  }
  CHECK(snapshot(path) == before);
  CHECK_FALSE(std::filesystem::exists(path + "-wal"));
  CHECK_FALSE(std::filesystem::exists(path + "-journal"));
}

}  // namespace

TEST_CASE("a text file is not a knightly database and stays untouched") {
  TempDir dir;
  const std::string path = dir.file("notes.db");
  std::ofstream(path) << "This is a text file, not a database.\n" << std::string(5000, 'x');
  check_refused(path, ErrorKind::NotKnightly, "not a knightly database");
}

TEST_CASE("another program's SQLite database is refused and stays untouched") {
  TempDir dir;
  const std::string path = dir.file("other.db");
  {
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &raw) == SQLITE_OK);
    REQUIRE(sqlite3_exec(raw, "CREATE TABLE games (x); INSERT INTO games VALUES (1);", nullptr,
                         nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(raw);
  }
  check_refused(path, ErrorKind::NotKnightly, "not a knightly database");
}

TEST_CASE("a database from a newer knightly is refused and stays untouched") {
  TempDir dir;
  const std::string path = dir.file("future.db");
  make_knightly_db(path);
  {
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &raw) == SQLITE_OK);
    REQUIRE(sqlite3_exec(raw, "PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE);", nullptr,
                         nullptr, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_exec(raw, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr) ==
            SQLITE_OK);
    sqlite3_close(raw);
  }
  check_refused(path, ErrorKind::TooNew, "newer knightly");
}

TEST_CASE("a directory is refused") {
  TempDir dir;
  auto store = Store::open(dir.path().string());
  REQUIRE_FALSE(store);
  CHECK(store.error().message.find(dir.path().string()) != std::string::npos);
}

TEST_CASE("read-only mode needs an existing file and never creates one") {
  TempDir dir;
  db::StoreOptions options;
  options.mode = OpenMode::ReadOnly;
  auto store = Store::open(dir.file("missing.db"), options);
  REQUIRE_FALSE(store);
  CHECK(store.error().kind == ErrorKind::NotFound);
  CHECK_FALSE(std::filesystem::exists(dir.file("missing.db")));
}

TEST_CASE("a new database in a directory that does not exist names the directory") {
  TempDir dir;
  auto store = Store::open(dir.file("no-such-dir/k.db"));
  REQUIRE_FALSE(store);
  CHECK(store.error().kind == ErrorKind::NotFound);
  CHECK(store.error().message.find("directory " + dir.file("no-such-dir") + " does not exist") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("no-such-dir")));
}

TEST_CASE("a read-only file gives a clear error when writing is needed and is untouched") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  make_knightly_db(path, 3);
  ::chmod(path.c_str(), 0444);
  const auto before = snapshot(path);

  auto store = Store::open(path);
  REQUIRE_FALSE(store);
  CHECK(store.error().kind == ErrorKind::ReadOnly);
  CHECK(store.error().message.find(path) != std::string::npos);
  CHECK(store.error().message.find("read-only") != std::string::npos);
  CHECK(snapshot(path) == before);

  // Reading it is fine.
  db::StoreOptions options;
  options.mode = OpenMode::ReadOnly;
  auto reader = Store::open(path, options);
  REQUIRE(reader);
  CHECK(reader->queries().count_games() == 3);
  CHECK(snapshot(path) == before);
}

TEST_CASE("reading a file a writer left mid-transaction rolls it back, or names the journal") {
  TempDir dir;
  const auto sub = dir.path() / "d";
  std::filesystem::create_directory(sub);
  const std::string path = (sub / "k.db").string();
  make_knightly_db(path, 100);
  // A writer in rollback-journal mode (a new file is, until it is switched to WAL) that stops
  // in the middle of a transaction, after some of its pages reached the file.
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    sqlite3* w = nullptr;
    sqlite3_open(path.c_str(), &w);
    sqlite3_exec(w, "PRAGMA cache_size = 1; BEGIN; DELETE FROM moves; DELETE FROM games;", nullptr,
                 nullptr, nullptr);
    ::_exit(0);  // no COMMIT, no close: the journal stays behind, hot
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(std::filesystem::exists(path + "-journal"));

  db::StoreOptions options;
  options.mode = OpenMode::ReadOnly;
  // Only a writer can roll it back: a read-only file, or a read-only directory (where a reader
  // that finds no -wal or -shm reads the file as immutable, which would see the half-written
  // pages), is refused naming the journal.
  for (const auto& [file, mode] : {std::pair{path, 0444}, std::pair{sub.string(), 0555}}) {
    ::chmod(file.c_str(), mode);
    auto refused = Store::open(path, options);
    REQUIRE_FALSE(refused);
    INFO(refused.error().message << " (SQLite code " << refused.error().sqlite_code << ")");
    CHECK(refused.error().kind == ErrorKind::ReadOnly);
    CHECK(refused.error().message.find(path + "-journal") != std::string::npos);
    CHECK(refused.error().message.find("stopped in the middle of writing") != std::string::npos);
    ::chmod(file.c_str(), mode == 0444 ? 0644 : 0755);
  }

  {
    auto reader = Store::open(path, options);
    if (!reader) FAIL(reader.error().message);
    CHECK(reader->queries().count_games() == 100);  // the last committed state
    CHECK(reader->integrity_check() == "ok");
    CHECK_FALSE(std::filesystem::exists(path + "-journal"));
  }
  // Rolled back, the file reads in a read-only directory too (as immutable: nothing created).
  ::chmod(sub.c_str(), 0555);
  auto reader = Store::open(path, options);
  if (!reader) FAIL(reader.error().message);
  CHECK(reader->queries().count_games() == 100);
  CHECK(std::distance(std::filesystem::directory_iterator(sub),
                      std::filesystem::directory_iterator()) == 1);
  ::chmod(sub.c_str(), 0755);
}

TEST_CASE("a read-only directory gives a clear error and creates nothing") {
  TempDir dir;
  const auto sub = dir.path() / "ro";
  std::filesystem::create_directory(sub);
  ::chmod(sub.c_str(), 0555);
  const std::string path = (sub / "k.db").string();
  auto store = Store::open(path);
  REQUIRE_FALSE(store);
  CHECK(store.error().kind == ErrorKind::ReadOnly);
  CHECK(store.error().message.find(sub.string()) != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("a read-only store refuses to write and leaves the file alone") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  make_knightly_db(path, 2);
  const auto before = snapshot(path);
  db::StoreOptions options;
  options.mode = OpenMode::ReadOnly;
  auto reader = Store::open(path, options);
  REQUIRE(reader);
  try {
    reader->catalog().create_tournament({"x", db::TournamentKind::Run, "", 0, ""});
    FAIL("a read-only store wrote");
  } catch (const db::StoreException& e) {
    CHECK(e.kind() == ErrorKind::ReadOnly);
  }
  CHECK(reader->queries().count_games() == 2);
  CHECK(snapshot(path).bytes == before.bytes);
}

TEST_CASE("a database locked by another writer fails after the busy timeout and does not hang") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  make_knightly_db(path, 1);

  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(
              other,
              "BEGIN EXCLUSIVE; INSERT INTO engines (name, first_seen) VALUES ('held', 'now');",
              nullptr, nullptr, nullptr) == SQLITE_OK);

  db::StoreOptions options;
  options.busy_timeout_ms = 300;
  const auto start = std::chrono::steady_clock::now();
  auto store = Store::open(path, options);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  REQUIRE_FALSE(store);
  CHECK(store.error().kind == ErrorKind::Locked);
  CHECK(store.error().message.find(path) != std::string::npos);
  CHECK(store.error().message.find("locked") != std::string::npos);
  CHECK(elapsed >= std::chrono::milliseconds(250));
  CHECK(elapsed < std::chrono::seconds(5));

  // Readers still read in WAL mode while the writer holds its lock.
  db::StoreOptions read;
  read.mode = OpenMode::ReadOnly;
  read.busy_timeout_ms = 300;
  auto reader = Store::open(path, read);
  REQUIRE(reader);
  CHECK(reader->queries().count_games() == 1);

  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  // Once released, writing works again.
  auto after = Store::open(path, options);
  REQUIRE(after);
  CHECK(after->queries().count_games() == 1);
}

namespace {

std::atomic<int> lock_wait_notices{0};
std::string lock_wait_path;  // the last notice's, written before the count rises
std::int64_t lock_wait_timeout_ms = 0;

void count_lock_wait(const std::string& path, std::chrono::milliseconds timeout) noexcept {
  lock_wait_path = path;
  lock_wait_timeout_ms = timeout.count();
  ++lock_wait_notices;
}

}  // namespace

TEST_CASE("a writer waiting past a second for the lock gives one notice and goes on waiting") {
  // Without it a writer waiting for a lock another process holds seems to hang for the busy
  // timeout (10 s). The notice comes after kLockWaitNoticeAfter, once; the wait goes on.
  db::set_lock_wait_notice(&count_lock_wait);
  TempDir dir;
  const std::string path = dir.file("k.db");
  make_knightly_db(path, 1);
  auto store = Store::open(path);  // busy timeout 10 s
  REQUIRE(store);
  const auto t = store->catalog().find_tournament("t")->id;
  const auto a = *store->catalog().find_engine("A");
  const auto b = *store->catalog().find_engine("B");
  const auto hold_for = db::kLockWaitNoticeAfter + std::chrono::milliseconds(600);
  lock_wait_notices = 0;

  SECTION("held by another program (SQLite's busy handler waits)") {
    sqlite3* other = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
    REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
    std::thread release([&] {
      std::this_thread::sleep_for(hold_for);
      sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
    });
    store->games().insert_game(t, synthetic_game(1, 10, "A", "B"), a, b);
    release.join();
    sqlite3_close(other);
  }
  SECTION("held by another knightly writer (the write queue waits)") {
    std::atomic<bool> holding{false};
    std::thread holder([&] {
      db::Database other(
          std::make_unique<db::SqliteConnection>(path, SQLITE_OPEN_READWRITE, 10000, ""));
      db::Transaction tx(other);
      holding = true;
      std::this_thread::sleep_for(hold_for);
      tx.commit();
    });
    while (!holding) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    store->games().insert_game(t, synthetic_game(1, 10, "A", "B"), a, b);
    holder.join();
  }
  CHECK(lock_wait_notices == 1);
  CHECK(lock_wait_path == path);
  CHECK(lock_wait_timeout_ms == 10000);
  CHECK(store->queries().count_games() == 2);  // the wait went on: stored
  // A wait shorter than the notice's second says nothing.
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  });
  store->games().insert_game(t, synthetic_game(2, 10, "A", "B"), a, b);
  release.join();
  sqlite3_close(other);
  CHECK(lock_wait_notices == 1);
  db::set_lock_wait_notice(nullptr);
}

TEST_CASE("a write blocked by another writer throws Locked after the busy timeout") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  make_knightly_db(path, 1);
  db::StoreOptions options;
  options.busy_timeout_ms = 200;
  auto store = Store::open(path, options);
  REQUIRE(store);
  const auto t = store->catalog().find_tournament("t")->id;
  const auto a = *store->catalog().find_engine("A");
  const auto b = *store->catalog().find_engine("B");

  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
  const auto start = std::chrono::steady_clock::now();
  try {
    store->games().insert_game(t, synthetic_game(1, 10, "A", "B"), a, b);
    FAIL("insert went through a held lock");
  } catch (const db::StoreException& e) {
    CHECK(e.kind() == ErrorKind::Locked);
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  // The failed attempt left nothing half-done; the retry succeeds.
  store->games().insert_game(t, synthetic_game(1, 10, "A", "B"), a, b);
  CHECK(store->queries().count_games() == 2);
  CHECK(store->integrity_check() == "ok");
}

TEST_CASE("a database in a directory the reader cannot write is still readable") {
  TempDir dir;
  const auto sub = dir.path() / "ro";
  std::filesystem::create_directory(sub);
  const std::string path = (sub / "k.db").string();
  make_knightly_db(path, 4);  // closed cleanly: no -wal or -shm left
  REQUIRE_FALSE(std::filesystem::exists(path + "-shm"));
  const auto before = snapshot(path);
  ::chmod(dir.path().c_str(), 0755);
  ::chmod(sub.c_str(), 0555);
  ::chmod(path.c_str(), 0444);

  // Root may write anywhere, so the reader runs as an unprivileged user in a child.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) _exit(10);
    db::StoreOptions options;
    options.mode = OpenMode::ReadOnly;
    auto store = Store::open(path, options);
    if (!store) _exit(11);
    _exit(store->queries().count_games() == 4 && store->queries().standings({}).size() == 2 ? 0
                                                                                            : 12);
  }
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(snapshot(path) == before);
}
