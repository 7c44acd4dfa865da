// Nothing lost, never a crash (issue 14), with real processes and real files: a database held
// by another writer, a full disk (a small tmpfs), a deleted database, SIGKILLs and SIGTERM.
// Every store error stops new games, names the database, the game and why, exits 2, and the
// same command resumes once the cause is gone; the PGN file always comes back equal to the
// export.
#include <signal.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <regex>
#include <thread>

#include "engine/chess/pgn.h"
#include "tests/integration/cli/sqlite_probe.h"
#include "tests/support/process.h"
#include "worker_process.h"

using namespace knightly::test;

namespace {

bool quick() {
  return std::getenv("KNIGHTLY_QUICK") != nullptr;
}

// Two builtin engines at depth 2, `rounds` pairs: a fraction of a second per game.
std::string config(int rounds, const std::string& name = "errors") {
  return "[tournament]\nname = \"" + name + "\"\nrounds = " + std::to_string(rounds) +
         "\ngames = 2\nconcurrency = 2\nseed = 3\nmaxmoves = 60\n"
         "[openings]\nrandom_plies = 6\n"
         "[[engine]]\nname = \"ab\"\nbuiltin = true\n"
         "options = { Search = \"alphabeta\", Eval = \"material+pst\" }\ndepth = 2\n"
         "[[engine]]\nname = \"ab-material\"\nbuiltin = true\n"
         "options = { Search = \"alphabeta\", Eval = \"material\" }\ndepth = 2\n";
}

// A small tmpfs mounted by the test (root only), unmounted after.
class SmallDisk {
 public:
  SmallDisk(const std::string& dir, const std::string& size) : dir_(dir) {
    std::filesystem::create_directories(dir);
    mounted_ = ::geteuid() == 0 &&
               ::mount("knightly-test", dir.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  bool grow(const std::string& size) {
    return ::mount("knightly-test", dir_.c_str(), "tmpfs", MS_REMOUNT, ("size=" + size).c_str()) ==
           0;
  }
  std::string file(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

void check_complete(const std::string& db, int games) {
  SqliteProbe p(db);
  CHECK(p.count("SELECT count(*) FROM games") == games);
  CHECK(p.count("SELECT count(DISTINCT schedule_index) FROM games") == games);
  CHECK(p.value("PRAGMA integrity_check") == "ok");
  CHECK(p.count("SELECT count(*) FROM games g WHERE plies != "
                "(SELECT count(*) FROM moves m WHERE m.game_id = g.id)") == 0);
}

std::string exported(const std::string& db) {
  auto r = run_process({knightly_binary(), "export", "--db", db});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

bool no_crash(const std::string& err) {
  return err.find("terminate called") == std::string::npos &&
         err.find("std::terminate") == std::string::npos;
}

}  // namespace

TEST_CASE("a database locked past the busy timeout stops the run with exit 2, then resumes",
          "[run][store-errors][locked]") {
  TempDir dir;
  const int rounds = quick() ? 30 : 100;
  write_file(dir.file("t.toml"), config(rounds));
  const std::string db = dir.file("t.db");
  std::vector<std::string> cmd = {
      knightly_binary(), "run",    dir.file("t.toml"), "--db", db, "--pgn",
      dir.file("t.pgn"), "--quiet"};
  WorkerProcess run(cmd, dir.file("run"));
  // Until a few games are in, then another writer holds the database for 25 s.
  for (int i = 0; i < 200; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {  // (the schema may be half made, or locked for a moment)
      SqliteProbe p(db);
      if (p.rows("SELECT name FROM sqlite_master WHERE name = 'games'").size() == 1 &&
          p.count("SELECT count(*) FROM games") >= 3)
        break;
    } catch (const std::exception&) {
    }
  }
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &other) == SQLITE_OK);
  sqlite3_busy_timeout(other, 5000);
  REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
  const int code = run.wait(60);
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  const std::string err = run.err();
  INFO(tail(run.out()) << err);
  CHECK(code == 2);
  CHECK(no_crash(err));
  CHECK(err.find(db) != std::string::npos);  // which database
  // What it was doing: storing a game, or claiming or releasing a pair (whichever write came
  // first once the lock was held).
  CHECK(std::regex_search(err, std::regex("game [0-9]+ \\(|claiming a pair|releasing pair")));
  CHECK(err.find("locked") != std::string::npos);                      // why
  CHECK(err.find("run the same command again") != std::string::npos);  // a rerun cures it
  // The same command finishes the tournament: every scheduled game once, the PGN the export.
  auto again = run_process(cmd, 600);
  INFO(tail(again.out) << again.err);
  CHECK(again.exit_code == 0);
  check_complete(db, rounds * 2);
  CHECK(read_file(dir.file("t.pgn")) == exported(db));
}

TEST_CASE("a full disk under the database stops the run with exit 2 and loses nothing",
          "[run][store-errors][disk]") {
  TempDir dir;
  SmallDisk disk(dir.file("disk"), "900k");
  if (!disk.mounted()) {
    WARN("skipped: mounting a small tmpfs needs root");
    return;
  }
  const int rounds = quick() ? 150 : 300;
  write_file(dir.file("t.toml"), config(rounds));
  const std::string db = disk.file("t.db");
  std::vector<std::string> cmd = {
      knightly_binary(), "run",    dir.file("t.toml"), "--db", db, "--pgn",
      dir.file("t.pgn"), "--quiet"};
  auto r = run_process(cmd, 600);
  INFO(tail(r.out) << r.err);
  CHECK(r.exit_code == 2);
  CHECK(no_crash(r.err));
  CHECK(r.err.find(db) != std::string::npos);
  // What it was doing when the disk filled: storing a game, or (as often, by where the disk
  // happens to fill) claiming or releasing a pair.
  CHECK(std::regex_search(r.err, std::regex("game [0-9]+ \\(|claiming a pair|releasing pair")));
  CHECK(r.err.find("full") != std::string::npos);
  long long before = 0;
  {
    SqliteProbe p(db);
    before = p.count("SELECT count(*) FROM games");
    CHECK(before > 0);
    CHECK(before < rounds * 2);
    CHECK(p.value("PRAGMA integrity_check") == "ok");
  }
  // The PGN file holds exactly the games stored.
  CHECK(read_file(dir.file("t.pgn")) == exported(db));
  // Space again: the same command resumes to the whole schedule.
  REQUIRE(disk.grow("64m"));
  auto again = run_process(cmd, 600);
  INFO(tail(again.out) << again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("Resuming tournament 'errors': " + std::to_string(before)) !=
        std::string::npos);
  check_complete(db, rounds * 2);
  CHECK(read_file(dir.file("t.pgn")) == exported(db));
}

TEST_CASE("a full disk under the PGN file is an error, not a silent truncation",
          "[run][store-errors][disk]") {
  TempDir dir;
  SmallDisk disk(dir.file("disk"), "64k");
  if (!disk.mounted()) {
    WARN("skipped: mounting a small tmpfs needs root");
    return;
  }
  write_file(dir.file("t.toml"), config(100));
  const std::string pgn = disk.file("t.pgn");
  std::vector<std::string> cmd = {
      knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("t.db"),
      "--pgn",           pgn,   "--quiet"};
  auto r = run_process(cmd, 600);
  INFO(tail(r.out) << r.err);
  CHECK(r.exit_code == 2);
  CHECK(no_crash(r.err));
  CHECK(r.err.find("cannot write " + pgn + ": No space left on device") != std::string::npos);
  // What is in the file are whole games (none cut mid-tag) and no game is missing from the
  // database.
  auto games = knightly::chess::read_pgn(read_file(pgn));
  CHECK(games.errors.empty());
  SqliteProbe p(dir.file("t.db"));
  CHECK(p.count("SELECT count(*) FROM games") >= long(games.games.size()));
  REQUIRE(disk.grow("64m"));
  auto again = run_process(cmd, 600);
  INFO(tail(again.out) << again.err);
  CHECK(again.exit_code == 0);
  check_complete(dir.file("t.db"), 200);
  CHECK(read_file(pgn) == exported(dir.file("t.db")));
}

TEST_CASE("a database deleted during the run stops it with exit 2 naming it",
          "[run][store-errors][deleted]") {
  TempDir dir;
  write_file(dir.file("t.toml"), config(2000));
  const std::string db = dir.file("t.db");
  WorkerProcess run({knightly_binary(), "run", dir.file("t.toml"), "--db", db, "--quiet"},
                    dir.file("run"));
  for (int i = 0; i < 200 && !std::filesystem::exists(db); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
  const int code = run.wait(120);
  const std::string err = run.err();
  INFO(tail(run.out()) << err);
  CHECK(code == 2);
  CHECK(no_crash(err));
  CHECK(err.find(db) != std::string::npos);
}

TEST_CASE("after SIGKILLs the PGN file is rebuilt to equal the export", "[run][outputs]") {
  TempDir dir;
  const int rounds = quick() ? 60 : 150;
  write_file(dir.file("t.toml"), config(rounds));
  const std::string db = dir.file("t.db"), pgn = dir.file("t.pgn");
  std::vector<std::string> cmd = {knightly_binary(), "run", dir.file("t.toml"), "--db", db,
                                  "--pgn",           pgn,   "--quiet"};
  std::mt19937 rng(std::random_device{}());
  int killed = 0;
  const int games = rounds * 2, attempts = quick() ? 3 : 5, step = games / (attempts + 2);
  for (int attempt = 0; attempt < attempts; ++attempt) {
    WorkerProcess w(cmd, dir.file("w" + std::to_string(attempt)));
    // The kill lands mid-run whatever the machine's speed (a release build plays the whole
    // tournament in well under a second): once a stored count taken at random in this
    // attempt's share of the schedule is reached, with games in progress.
    const int target = step * (attempt + 1) + int(rng() % (step / 2 + 1));
    w.wait_while_running([&] {
      return std::filesystem::exists(db) &&
             SqliteProbe(db).count("SELECT count(*) FROM games") >= target;
    });
    if (w.running()) ++killed;
    w.signal(SIGKILL);
    w.wait(10);
    // Whatever the kill left, a run that starts brings the file up to date before it plays:
    // a run stopped right away leaves the export.
    struct stat before {};
    ::stat(pgn.c_str(), &before);
    WorkerProcess check(cmd, dir.file("c" + std::to_string(attempt)));
    // Until it has replaced the file (a rebuild renames a new one over it), then stop it.
    for (int i = 0; i < 400 && check.running(); ++i) {
      struct stat now {};
      if (::stat(pgn.c_str(), &now) == 0 && now.st_ino != before.st_ino) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    check.signal(SIGINT);
    check.wait(60);
    CHECK(read_file(pgn) == exported(db));
  }
  CHECK(killed == attempts);  // every kill landed mid-run
  auto r = run_process(cmd, 600);
  INFO(tail(r.out) << r.err);
  CHECK(r.exit_code == 0);
  check_complete(db, rounds * 2);
  const std::string text = read_file(pgn);
  CHECK(text == exported(db));
  CHECK(knightly::chess::read_pgn(text).games.size() == std::size_t(rounds * 2));
}

TEST_CASE("SIGTERM ends the games in progress, marks the tournament aborted and exits 143",
          "[run][signals]") {
  TempDir dir;
  write_file(dir.file("t.toml"), config(2000, "term"));
  const std::string db = dir.file("t.db");
  std::vector<std::string> cmd = {
      knightly_binary(), "run",    dir.file("t.toml"), "--db", db, "--pgn",
      dir.file("t.pgn"), "--quiet"};
  WorkerProcess run(cmd, dir.file("run"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const auto t0 = std::chrono::steady_clock::now();
  run.signal(SIGTERM);
  const int code = run.wait(60);
  INFO(tail(run.out()) << run.err());
  CHECK(code == 143);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  CHECK(run.out().find("run the same command again to resume") != std::string::npos);
  {
    SqliteProbe p(db);
    CHECK(p.value("SELECT status FROM tournaments WHERE name = 'term'") == "aborted");
    CHECK(p.count("SELECT count(*) FROM games WHERE termination = 'interrupted'") == 0);
    CHECK(p.count("SELECT count(*) FROM games") > 0);
  }
  CHECK(read_file(dir.file("t.pgn")) == exported(db));
  // Running it again resumes it (running again), and a SIGINT then exits 130.
  WorkerProcess again(cmd, dir.file("again"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  {
    SqliteProbe p(db);
    CHECK(p.value("SELECT status FROM tournaments WHERE name = 'term'") == "running");
  }
  again.signal(SIGINT);
  CHECK(again.wait(60) == 130);
}

TEST_CASE("the resume hint follows only errors a rerun can cure", "[run][outputs]") {
  TempDir dir;
  // A book whose second line is not a position: a rerun fails the same way.
  write_file(dir.file("book.epd"),
             "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nthis is not a fen\n");
  write_file(dir.file("t.toml"),
             "[tournament]\nname = \"book\"\nrounds = 4\nseed = 1\nmaxmoves = 20\n"
             "[openings]\nfile = \"book.epd\"\norder = \"sequential\"\n"
             "[[engine]]\nname = \"a\"\nbuiltin = true\noptions = { Search = \"random\" }\n"
             "[[engine]]\nname = \"b\"\nbuiltin = true\noptions = { Search = \"random\" }\n");
  auto r =
      run_process({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("t.db")}, 120);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("book.epd:2") != std::string::npos);
  CHECK(r.err.find("run the same command again") == std::string::npos);
  CHECK(no_crash(r.err));
}

TEST_CASE("a database that cannot be opened: the hint only where a rerun can cure it",
          "[run][outputs]") {
  TempDir dir;
  write_file(dir.file("t.toml"),
             "[tournament]\nname = \"open\"\nrounds = 1\nseed = 1\nmaxmoves = 10\n"
             "[[engine]]\nname = \"a\"\nbuiltin = true\noptions = { Search = \"random\" }\n"
             "[[engine]]\nname = \"b\"\nbuiltin = true\noptions = { Search = \"random\" }\n");
  SECTION("a directory that does not exist: the rerun fails the same way") {
    auto r = run_process(
        {knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("none/t.db")}, 60);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("directory " + dir.file("none") + " does not exist") != std::string::npos);
    CHECK(r.err.find("run the same command again") == std::string::npos);
    CHECK(no_crash(r.err));
  }
  SECTION("a server that refuses connections: run again once it is up") {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    auto r = run_process({knightly_binary(), "run", dir.file("t.toml"), "--db",
                          "postgresql://knightly:secret@127.0.0.1:1/knightly"},
                         60);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("cannot reach the server") != std::string::npos);
    CHECK(r.err.find("run the same command again") != std::string::npos);
    CHECK(r.err.find("secret") == std::string::npos);
    CHECK(no_crash(r.err));
  }
}
