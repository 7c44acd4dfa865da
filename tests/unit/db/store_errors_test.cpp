// Failures of the database itself, produced for real: a full disk (a small tmpfs), a lock held
// by another connection, the file deleted or replaced under a running store, a corrupt file,
// and many processes creating one new database at once. Each error names the database and
// what was being done, and the store carries on once the cause is gone.
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>
#include <utility>
#include <vector>

#include "db/store/migrations.h"
#include "db/store/store.h"
#include "db/store/store_error.h"
#include "db_test_util.h"

using namespace knightly;
using namespace std::chrono_literals;
using knightly::db::ErrorKind;
using knightly::db::Store;
using knightly::test::synthetic_game;
using knightly::test::TempDir;

namespace {

Store open_store(const std::string& path, db::StoreOptions options = {}) {
  auto store = Store::open(path, options);
  if (!store) FAIL(store.error().message);
  return std::move(*store);
}

struct Ids {
  std::int64_t tournament = 0, a = 0, b = 0;
};

Ids setup(Store& store) {
  return {store.catalog().create_tournament({"t", db::TournamentKind::Run, "", 1, ""}).id,
          store.catalog().upsert_engine({"A", "", "", "", "", "", true}),
          store.catalog().upsert_engine({"B", "", "", "", "", "", true})};
}

// Expects `fn` to throw a StoreException of `kind` whose message names `path` and `words`.
template <class F>
db::StoreError expect_error(F&& fn, ErrorKind kind, const std::string& path,
                            const std::string& words) {
  try {
    fn();
  } catch (const db::StoreException& e) {
    INFO(e.what());
    CHECK(e.kind() == kind);
    CHECK(std::string(e.what()).find("database " + path) != std::string::npos);
    CHECK(std::string(e.what()).find(words) != std::string::npos);
    return e.error();
  }
  FAIL("no error was thrown (expected " << db::error_kind_name(kind) << ")");
  return {};
}

// A tmpfs of `bytes` mounted on a fresh directory (root only), unmounted at the end.
class SmallDisk {
 public:
  explicit SmallDisk(std::size_t bytes) {
    if (::geteuid() != 0) return;
    const std::string options = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", dir_.path().c_str(), "tmpfs", 0, options.c_str()) == 0) mounted_ = true;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(dir_.path().c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  std::string file(const std::string& name) const { return dir_.file(name); }

 private:
  TempDir dir_;
  bool mounted_ = false;
};

// Fills the file system holding `path` until fewer than `leave` bytes are free.
void fill(const std::string& path, std::size_t leave) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  const std::string block(4096, 'x');
  for (;;) {
    const auto space = std::filesystem::space(std::filesystem::path(path).parent_path());
    if (space.available < leave + block.size()) break;
    if (std::fwrite(block.data(), 1, block.size(), f) != block.size()) break;
    std::fflush(f);
  }
  std::fclose(f);
}

// Runs a program (no shell) and returns its exit status and standard output.
std::pair<int, std::string> run(std::vector<std::string> argv) {
  int out[2];
  if (::pipe(out) != 0) return {-1, ""};
  const pid_t pid = fork();
  if (pid == 0) {
    ::dup2(out[1], 1);
    ::close(out[0]);
    ::close(out[1]);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    _exit(127);
  }
  ::close(out[1]);
  std::string text;
  char buf[256];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) > 0;) text.append(buf, std::size_t(n));
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

// A file system whose disk fails: ext2 on a loop device whose backing file lives on a tmpfs
// too small for it, so writes past the tmpfs's space fail as I/O errors of the device (root,
// losetup and mkfs.ext2 needed).
class FailingDisk {
 public:
  FailingDisk() {
    if (::geteuid() != 0) return;
    const std::string back = dir_.file("back");
    std::filesystem::create_directory(back);
    std::filesystem::create_directory(mount_point());
    if (::mount("tmpfs", back.c_str(), "tmpfs", 0, "size=3m") != 0) return;
    back_mounted_ = true;
    const std::string image = back + "/disk.img";
    if (run({"truncate", "-s", "32M", image}).first != 0) return;
    auto [rc, device] = run({"losetup", "--find", "--show", image});
    if (rc != 0 || device.empty()) return;
    device_ = device;
    if (run({"mkfs.ext2", "-q", device_}).first != 0) return;
    if (::mount(device_.c_str(), mount_point().c_str(), "ext2", 0, "errors=continue") != 0) return;
    mounted_ = true;
  }
  ~FailingDisk() {
    if (mounted_) ::umount2(mount_point().c_str(), MNT_DETACH);
    if (!device_.empty()) run({"losetup", "-d", device_});
    if (back_mounted_) ::umount2(dir_.file("back").c_str(), MNT_DETACH);
  }
  bool ready() const { return mounted_; }
  std::string mount_point() const { return dir_.file("mnt"); }

 private:
  TempDir dir_;
  bool back_mounted_ = false;
  bool mounted_ = false;
  std::string device_;
};

}  // namespace

TEST_CASE("a disk failing under the database is reported as an I/O error naming the game") {
  FailingDisk disk;
  if (!disk.ready()) {
    WARN("skipped: needs root, losetup and mkfs.ext2 (a loop device that fails for real)");
    return;
  }
  const std::string path = disk.mount_point() + "/k.db";
  Store store = open_store(path);
  const Ids ids = setup(store);
  int stored = 0;
  db::StoreError error;
  for (; stored < 5000; ++stored) {
    try {
      store.games().insert_game(ids.tournament, synthetic_game(stored, 60), ids.a, ids.b);
    } catch (const db::StoreException& e) {
      error = e.error();
      break;
    }
  }
  INFO(error.message);
  REQUIRE(stored < 5000);
  CHECK(error.kind == ErrorKind::Io);
  CHECK(error.message.find("database " + path + ": I/O error while storing game (round " +
                           std::to_string(stored / 4)) != std::string::npos);
  CHECK((error.sqlite_code & 0xff) == SQLITE_IOERR);
}

TEST_CASE(
    "a full disk is reported as such, naming the database and the game, and the store "
    "carries on once space is freed") {
  SmallDisk disk(2 * 1024 * 1024);
  if (!disk.mounted()) {
    WARN("skipped: mounting a small tmpfs needs root (this test fills a real disk)");
    return;
  }
  const std::string path = disk.file("k.db");
  Store store = open_store(path);
  const Ids ids = setup(store);
  store.games().insert_game(ids.tournament, synthetic_game(0, 60), ids.a, ids.b);
  fill(disk.file("filler"), 64 * 1024);

  int stored = 1;
  db::StoreError error;
  for (; stored < 5000; ++stored) {
    try {
      store.games().insert_game(ids.tournament, synthetic_game(stored, 60), ids.a, ids.b);
    } catch (const db::StoreException& e) {
      error = e.error();
      break;
    }
  }
  INFO(error.message);
  REQUIRE(stored < 5000);
  CHECK(error.kind == ErrorKind::DiskFull);
  CHECK(error.message.find("database " + path + ": disk full while storing game (round " +
                           std::to_string(stored / 4)) != std::string::npos);
  // Nothing half-written: the games before stay, whole.
  CHECK(store.queries().count_games() == stored);

  std::filesystem::remove(disk.file("filler"));
  store.games().insert_game(ids.tournament, synthetic_game(stored, 60), ids.a, ids.b);
  CHECK(store.queries().count_games() == stored + 1);
  CHECK(store.integrity_check() == "ok");
  std::int64_t whole = 0;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& g) { whole += g.record.moves.size() == 60; });
  CHECK(whole == stored + 1);
}

TEST_CASE("a database deleted under a running store stops it with a clear error") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  Store store = open_store(path);
  const Ids ids = setup(store);
  store.games().insert_game(ids.tournament, synthetic_game(0, 20), ids.a, ids.b);
  std::filesystem::remove(path);
  expect_error(
      [&] { store.games().insert_game(ids.tournament, synthetic_game(1, 20), ids.a, ids.b); },
      ErrorKind::Gone, path, "deleted or replaced while knightly had it open");
  const auto w = expect_error(
      [&] {
        store.work().register_worker({"h", 1, ""});
      },
      ErrorKind::Gone, path, "while registering worker h:1");
  CHECK(w.path == path);
}

TEST_CASE("a database replaced by another file under a running store stops it") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  Store store = open_store(path);
  const Ids ids = setup(store);
  {
    Store other = open_store(dir.file("other.db"));
    setup(other);
  }
  std::filesystem::rename(dir.file("other.db"), path);
  expect_error(
      [&] { store.games().insert_game(ids.tournament, synthetic_game(1, 20), ids.a, ids.b); },
      ErrorKind::Gone, path, "storing game (round 0, pair 0, game 1)");
}

TEST_CASE(
    "a lock held briefly by another writer is waited out, one held past the busy "
    "timeout fails naming the game") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  {
    Store s = open_store(path);
    setup(s);
  }
  db::StoreOptions options;
  options.busy_timeout_ms = 3000;
  Store store = open_store(path, options);
  const auto t = store.catalog().find_tournament("t")->id;
  const auto a = *store.catalog().find_engine("A");
  const auto b = *store.catalog().find_engine("B");

  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
  std::thread release([&] {
    std::this_thread::sleep_for(300ms);
    sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr);
  });
  store.games().insert_game(t, synthetic_game(0, 20), a, b);  // waits, then goes through
  release.join();
  CHECK(store.queries().count_games() == 1);

  db::StoreOptions impatient;
  impatient.busy_timeout_ms = 250;
  Store quick = open_store(path, impatient);
  REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
  const auto start = std::chrono::steady_clock::now();
  expect_error([&] { quick.games().insert_game(t, synthetic_game(1, 20), a, b); },
               ErrorKind::Locked, path,
               "locked by another writer (gave up after the busy timeout) while storing game "
               "(round 0, pair 0, game 1) of tournament");
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(waited >= 200ms);
  CHECK(waited < 5s);
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  quick.games().insert_game(t, synthetic_game(1, 20), a, b);
  CHECK(quick.queries().count_games() == 2);
}

TEST_CASE("a corrupt database is reported as corrupt, naming it") {
  TempDir dir;
  const std::string path = dir.file("k.db");
  {
    Store store = open_store(path);
    const Ids ids = setup(store);
    for (int i = 0; i < 200; ++i)
      store.games().insert_game(ids.tournament, synthetic_game(i, 30), ids.a, ids.b);
  }
  REQUIRE_FALSE(std::filesystem::exists(path + "-wal"));
  // Scribble over every page after the first (the header and sqlite_schema stay readable).
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = std::filesystem::file_size(path);
    f.seekp(4096);
    std::string junk(static_cast<std::size_t>(size) - 4096, '\0');
    for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>((i * 7919) >> 3);
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  db::StoreOptions read;
  read.mode = db::OpenMode::ReadOnly;
  auto store = Store::open(path, read);
  if (!store) {
    CHECK(store.error().kind == ErrorKind::Corrupt);
    CHECK(store.error().message.find(path) != std::string::npos);
    return;
  }
  expect_error([&] { store->queries().for_each_game({}, [](const db::StoredGame&) {}); },
               ErrorKind::Corrupt, path, "corrupt while");
}

TEST_CASE("an I/O error and a full disk are told apart from other SQLite failures") {
  const auto io = db::sqlite_error("/x/k.db", SQLITE_IOERR_WRITE, "disk I/O error", "committing");
  CHECK(io.kind == ErrorKind::Io);
  CHECK(io.message == "database /x/k.db: I/O error while committing (disk I/O error)");
  const auto full = db::sqlite_error("/x/k.db", SQLITE_FULL, "database or disk is full", "x");
  CHECK(full.kind == ErrorKind::DiskFull);
  CHECK(db::sqlite_error("/x/k.db", SQLITE_READONLY_DBMOVED, "", "x").kind == ErrorKind::Gone);
  CHECK(db::sqlite_error("/x/k.db", SQLITE_BUSY_SNAPSHOT, "", "x").kind == ErrorKind::Locked);
  CHECK(db::sqlite_error("/x/k.db", SQLITE_CORRUPT_INDEX, "", "x").kind == ErrorKind::Corrupt);
}

TEST_CASE("many processes creating the same new database at once all succeed") {
  const int rounds = std::getenv("KNIGHTLY_QUICK") ? 2 : 5;
  for (int round = 0; round < rounds; ++round) {
    TempDir dir;
    const std::string path = dir.file("new.db");
    for (int status : test::open_from_many_processes_at_once(path)) CHECK(status == 0);
    Store store = open_store(path);
    CHECK(store.catalog().engines().size() == 8);
    CHECK(store.integrity_check() == "ok");
  }
}
