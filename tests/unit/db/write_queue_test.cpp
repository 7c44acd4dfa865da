// The queue Knightly's processes wait in for an SQLite database's write lock
// (db/store/sqlite_write_queue.h), with real processes: one waits while another holds it and
// gives up at its deadline, a holder killed by SIGKILL leaves it to the next, a second
// connection of the same thread is not made to wait for itself, the file goes with its last
// user, and a store's write transaction waits in it and fails as locked at its busy timeout.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "db/store/sqlite_write_queue.h"
#include "db/store/store.h"
#include "db/store/store_error.h"
#include "db_test_util.h"

using namespace knightly;
using namespace std::chrono_literals;
using db::SqliteWriteQueue;
using knightly::test::TempDir;
using clock_type = std::chrono::steady_clock;

namespace {

// A child process that enters the queue of `db_path`, says so on a pipe, then waits for a
// byte on another pipe (or forever), leaves and exits.
class Holder {
 public:
  explicit Holder(const std::string& db_path) {
    REQUIRE(::pipe(entered_) == 0);
    REQUIRE(::pipe(release_) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      auto queue = SqliteWriteQueue::open(db_path);
      if (!queue || queue->enter(clock_type::now() + 10s) != SqliteWriteQueue::Entered::Yes)
        ::_exit(3);
      char c = 'e';
      if (::write(entered_[1], &c, 1) != 1) ::_exit(4);
      if (::read(release_[0], &c, 1) != 1) ::_exit(5);
      queue->leave();
      queue.reset();
      ::_exit(0);
    }
    ::close(entered_[1]);
    ::close(release_[0]);
    char c = 0;
    REQUIRE(::read(entered_[0], &c, 1) == 1);  // it holds the queue now
  }
  ~Holder() {
    ::close(entered_[0]);
    ::close(release_[1]);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // Lets it leave the queue and exit; its exit status.
  int release() {
    char c = 'r';
    REQUIRE(::write(release_[1], &c, 1) == 1);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void kill() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  int entered_[2] = {-1, -1}, release_[2] = {-1, -1};
  pid_t pid_ = -1;
};

}  // namespace

TEST_CASE("A writer waits while another process holds the queue, and gives up at its deadline",
          "[db][write-queue]") {
  TempDir dir;
  const std::string db = dir.file("k.db");
  auto queue = SqliteWriteQueue::open(db);
  REQUIRE(queue);
  Holder holder(db);
  const auto start = clock_type::now();
  CHECK(queue->enter(start + 200ms) == SqliteWriteQueue::Entered::TimedOut);
  CHECK(clock_type::now() - start >= 200ms);
  CHECK(holder.release() == 0);
  REQUIRE(queue->enter(clock_type::now() + 10s) == SqliteWriteQueue::Entered::Yes);
  queue->leave();
}

TEST_CASE("A holder killed in the queue leaves it to the next writer", "[db][write-queue]") {
  TempDir dir;
  const std::string db = dir.file("k.db");
  auto queue = SqliteWriteQueue::open(db);
  REQUIRE(queue);
  Holder holder(db);
  holder.kill();
  REQUIRE(queue->enter(clock_type::now() + 10s) == SqliteWriteQueue::Entered::Yes);
  queue->leave();
  // Made consistent by the one that found it: usable again and again.
  REQUIRE(queue->enter(clock_type::now() + 10s) == SqliteWriteQueue::Entered::Yes);
  queue->leave();
}

TEST_CASE("A thread in the queue through one connection is not made to wait by its second",
          "[db][write-queue]") {
  TempDir dir;
  const std::string db = dir.file("k.db");
  auto first = SqliteWriteQueue::open(db), second = SqliteWriteQueue::open(db);
  REQUIRE(first);
  REQUIRE(second);
  REQUIRE(first->enter(clock_type::now() + 10s) == SqliteWriteQueue::Entered::Yes);
  const auto start = clock_type::now();
  CHECK(second->enter(start + 10s) == SqliteWriteQueue::Entered::Skipped);
  CHECK(clock_type::now() - start < 5s);
  first->leave();
}

TEST_CASE("The queue's file goes with the last process that had it open", "[db][write-queue]") {
  TempDir dir;
  const std::string db = dir.file("k.db");
  const std::string file = db + "-lock";
  auto first = SqliteWriteQueue::open(db);
  REQUIRE(first);
  CHECK(first->path() == file);
  CHECK(std::filesystem::exists(file));
  {
    Holder holder(db);  // another process has it open too
    first.reset();
    CHECK(std::filesystem::exists(file));
    CHECK(holder.release() == 0);
  }
  CHECK_FALSE(std::filesystem::exists(file));
  // And a new one is made as needed.
  auto again = SqliteWriteQueue::open(db);
  REQUIRE(again);
  REQUIRE(again->enter(clock_type::now() + 10s) == SqliteWriteQueue::Entered::Yes);
  again->leave();
}

TEST_CASE("A queue file left half made is made again, one of another layout is left alone",
          "[db][write-queue]") {
  TempDir dir;
  const std::string db = dir.file("k.db");
  auto write_state = [&](std::uint32_t state) {
    std::string page(4096, '\0');
    std::memcpy(page.data(), &state, sizeof state);
    knightly::test::write_file(db + "-lock", page);
  };
  write_state(1);  // an opener died setting it up
  auto queue = SqliteWriteQueue::open(db);
  REQUIRE(queue);
  REQUIRE(queue->enter(clock_type::now() + 10s) == SqliteWriteQueue::Entered::Yes);
  queue->leave();
  queue.reset();
  write_state(0xFFFFFFFF);
  CHECK_FALSE(SqliteWriteQueue::open(db));
}

TEST_CASE("No queue where its file cannot be made: the busy handler orders the writers",
          "[db][write-queue]") {
  CHECK_FALSE(SqliteWriteQueue::open("/nonexistent-directory/k.db"));
}

TEST_CASE("A store's write waits in the queue and fails as locked at its busy timeout",
          "[db][write-queue]") {
  TempDir dir;
  const std::string db = dir.file("k.db");
  db::StoreOptions options;
  options.busy_timeout_ms = 300;
  auto store = db::Store::open(db, options);
  REQUIRE(store);
  {
    Holder holder(db);  // another Knightly process's write transaction, in the queue
    const auto start = clock_type::now();
    try {
      store->catalog().create_tournament({"t", db::TournamentKind::Run, "", 1, ""});
      FAIL("the write went through while another process held the queue");
    } catch (const db::StoreException& e) {
      INFO(e.what());
      CHECK(e.kind() == db::ErrorKind::Locked);
      CHECK(std::string(e.what()).find("database " + db) != std::string::npos);
    }
    CHECK(clock_type::now() - start >= 300ms);
    CHECK(holder.release() == 0);
  }
  // Once it is gone, the same store writes.
  CHECK(store->catalog().create_tournament({"t", db::TournamentKind::Run, "", 1, ""}).id > 0);
  CHECK(std::filesystem::exists(db + "-lock"));
}
