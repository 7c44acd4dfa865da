// `knightly run` as a real process against real SQLite files: the demo, resume after SIGKILL,
// Ctrl-C, changed configs, and databases it must refuse without touching them.
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include "engine/chess/pgn.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;

namespace {

bool quick() {
  return std::getenv("KNIGHTLY_QUICK") != nullptr;
}

// A two-engine builtin tournament that takes a few seconds: enough to be killed mid-run.
std::string small_config(int rounds, const std::string& name = "resume-test") {
  return "[tournament]\nname = \"" + name + "\"\nrounds = " + std::to_string(rounds) +
         "\ngames = 2\nconcurrency = 2\nseed = 7\nmaxmoves = 60\n"
         "[openings]\nrandom_plies = 6\n"
         "[[engine]]\nname = \"ab\"\nbuiltin = true\n"
         "options = { Search = \"alphabeta\", Eval = \"material+pst\" }\ndepth = 3\n"
         "[[engine]]\nname = \"ab-material\"\nbuiltin = true\n"
         "options = { Search = \"alphabeta\", Eval = \"material\" }\ndepth = 3\n";
}

std::set<std::string> stored_identities(const std::string& db) {
  SqliteProbe p(db);
  std::set<std::string> ids;
  for (const auto& r : p.rows("SELECT round, pair, game_in_pair FROM games"))
    ids.insert(r[0] + "/" + r[1] + "/" + r[2]);
  return ids;
}

}  // namespace

TEST_CASE("demo config runs end to end with standings, PGN and database", "[cli][demo]") {
  TempDir dir;
  std::string text = read_file(source_dir() + "/configs/demo.toml");
  REQUIRE(!text.empty());
  // Reduced for the test suite: one round (the full demo is the README's main job).
  text = std::regex_replace(text, std::regex("rounds = 2"), "rounds = 1");
  write_file(dir.file("demo.toml"), text);
  auto r = run_process({knightly_binary(), "run", dir.file("demo.toml"), "--db",
                        dir.file("demo.db"), "--pgn", dir.file("demo.pgn")},
                       600);
  INFO(r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0) << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Standings") != std::string::npos);
  CHECK(r.out.find("Finished game 30 ") != std::string::npos);
  SqliteProbe db(dir.file("demo.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 30);  // 6 engines: 15 pairs x 2 games
  CHECK(db.value("PRAGMA integrity_check") == "ok");
  CHECK(db.count("SELECT count(*) FROM moves") == db.count("SELECT sum(plies) FROM games"));
  auto pgn = knightly::chess::read_pgn(read_file(dir.file("demo.pgn")));
  CHECK(pgn.errors.empty());
  CHECK(pgn.games.size() == 30);
}

TEST_CASE("resume after SIGKILL stores exactly the scheduled games, each once", "[cli][resume]") {
  TempDir dir;
  const int rounds = quick() ? 40 : 150;  // 2 games per round: a few seconds of play
  write_file(dir.file("t.toml"), small_config(rounds));
  std::vector<std::string> cmd = {knightly_binary(), "run",   dir.file("t.toml"), "--db",
                                  dir.file("t.db"),  "--pgn", dir.file("t.pgn"),  "--quiet"};
  std::mt19937 rng(12345);
  int killed_mid_run = 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    pid_t pid = spawn_background(cmd);
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 500));
    ::kill(pid, SIGKILL);
    int signal = 0;
    wait_child(pid, &signal);
    if (signal == SIGKILL) ++killed_mid_run;
  }
  CHECK(killed_mid_run >= 1);
  {
    // A kill before the schema was written (a slow start: AddressSanitizer) leaves no games
    // table, which is fewer games too; a kill while the new file was being switched to WAL
    // leaves a hot journal.
    SqliteProbe partial(dir.file("t.db"), SqliteProbe::Mode::AfterKill);
    if (partial.count("SELECT count(*) FROM sqlite_master WHERE name = 'games'") == 1)
      CHECK(partial.count("SELECT count(*) FROM games") < rounds * 2);
  }
  auto r = run_process(cmd, 600);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto ids = stored_identities(dir.file("t.db"));
  CHECK(ids.size() == std::size_t(rounds * 2));
  SqliteProbe db(dir.file("t.db"));
  CHECK(db.count("SELECT count(*) FROM games") == rounds * 2);
  CHECK(db.value("PRAGMA integrity_check") == "ok");
  CHECK(db.count("SELECT count(*) FROM games g WHERE plies != "
                 "(SELECT count(*) FROM moves m WHERE m.game_id = g.id)") == 0);
  // The export has the same games as the database.
  auto exported = run_process({knightly_binary(), "export", "--db", dir.file("t.db")});
  REQUIRE(exported.exit_code == 0);
  auto games = knightly::chess::read_pgn(exported.out);
  CHECK(games.errors.empty());
  REQUIRE(games.games.size() == std::size_t(rounds * 2));
  auto plies = db.rows("SELECT plies FROM games ORDER BY schedule_index");
  for (std::size_t i = 0; i < games.games.size(); ++i)
    CHECK(std::to_string(games.games[i].moves.size()) == plies[i][0]);
  // Running the finished tournament again plays nothing more.
  auto again = run_process(cmd);
  CHECK(again.exit_code == 0);
  CHECK(stored_identities(dir.file("t.db")).size() == std::size_t(rounds * 2));
}

TEST_CASE(
    "short games are stored together, and a game reported finished is stored when a kill "
    "follows",
    "[cli][resume]") {
  TempDir dir;
  // Random movers: games of a millisecond or less, stored many to a transaction.
  const int rounds = quick() ? 300 : 1000;
  write_file(dir.file("t.toml"),
             "[tournament]\nname = \"micro\"\nrounds = " + std::to_string(rounds) +
                 "\ngames = 2\nconcurrency = 2\nseed = 7\nmaxmoves = 40\n"
                 "[[engine]]\nname = \"r1\"\nbuiltin = true\n"
                 "options = { Search = \"random\", Seed = 1 }\ndepth = 1\n"
                 "[[engine]]\nname = \"r2\"\nbuiltin = true\n"
                 "options = { Search = \"random\", Seed = 2 }\ndepth = 1\n");
  SECTION("a whole run: every game stored, in far fewer transactions than games") {
    auto r = run_process({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("t.db"),
                          "--quiet", "--perf-stats"},
                         600);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    std::smatch m;
    REQUIRE(std::regex_search(r.out, m, std::regex("Stores: (\\d+) games in (\\d+) transactions")));
    CHECK(std::stoi(m[1].str()) == rounds * 2);
    CHECK(std::stoi(m[2].str()) * 4 <= rounds * 2);
    // Their pairs claimed several at a time too.
    REQUIRE(std::regex_search(r.out, m, std::regex("Claims: (\\d+) pairs in (\\d+) transactions")));
    CHECK(std::stoi(m[1].str()) == rounds);
    CHECK(std::stoi(m[2].str()) * 4 <= rounds);
    SqliteProbe db(dir.file("t.db"));
    CHECK(db.count("SELECT count(*) FROM games") == rounds * 2);
    CHECK(db.count("SELECT count(*) FROM pairs WHERE state = 'done'") == rounds);
    CHECK(db.value("PRAGMA integrity_check") == "ok");
  }
  SECTION("interrupted: the pairs claimed ahead and not played are given back") {
    write_file(dir.file("long.toml"),
               "[tournament]\nname = \"micro\"\nrounds = 50000\ngames = 2\nconcurrency = 2\n"
               "seed = 7\nmaxmoves = 40\n"
               "[[engine]]\nname = \"r1\"\nbuiltin = true\n"
               "options = { Search = \"random\", Seed = 1 }\ndepth = 1\n"
               "[[engine]]\nname = \"r2\"\nbuiltin = true\n"
               "options = { Search = \"random\", Seed = 2 }\ndepth = 1\n");
    ChildProcess run({knightly_binary(), "run", dir.file("long.toml"), "--db", dir.file("t.db"),
                      "--perf-stats"});
    int finished = 0;
    while (finished < 200) {
      const auto line = run.read_line(60000);
      if (!line) break;
      if (line->rfind("Finished game ", 0) == 0) ++finished;
    }
    REQUIRE(finished == 200);
    ::kill(run.pid(), SIGINT);
    std::string out;
    while (const auto line = run.read_line(60000)) out += *line + "\n";
    CHECK(run.wait_exit(60000) == 130);
    INFO(out);
    std::smatch m;
    REQUIRE(std::regex_search(out, m, std::regex("Claims: (\\d+) pairs in (\\d+) transactions")));
    CHECK(std::stoi(m[2].str()) < std::stoi(m[1].str()));
    SqliteProbe db(dir.file("t.db"));
    CHECK(db.count("SELECT count(*) FROM pairs WHERE state = 'leased'") == 0);
    const long long stored = db.count("SELECT count(*) FROM games");
    CHECK(stored >= 200);
    CHECK(stored < 100000);
    // Every stored game's pair is done, but for a pair per game thread the stop came in.
    CHECK(db.count("SELECT count(*) FROM pairs WHERE state = 'done'") * 2 >= stored - 2);
    CHECK(db.count("SELECT count(*) FROM pairs WHERE state = 'free' AND stored_mask <> 0") <= 2);
  }
  SECTION("killed mid-run: each game it said was finished is in the database") {
    ChildProcess run({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("t.db")});
    std::set<int> reported;
    const std::regex finished("^Finished game (\\d+) ");
    std::smatch m;
    while (reported.size() < 100) {
      const auto line = run.read_line(60000);
      if (!line) break;
      if (std::regex_search(*line, m, finished)) reported.insert(std::stoi(m[1].str()));
    }
    REQUIRE(reported.size() >= 100);
    ::kill(run.pid(), SIGKILL);
    // What it wrote before the kill, read to the end.
    while (const auto line = run.read_line(5000))
      if (std::regex_search(*line, m, finished)) reported.insert(std::stoi(m[1].str()));
    CHECK(run.wait_exit(10000) == 128 + SIGKILL);
    SqliteProbe db(dir.file("t.db"), SqliteProbe::Mode::AfterKill);
    std::set<int> stored;
    for (const auto& r : db.rows("SELECT schedule_index FROM games"))
      stored.insert(std::stoi(r[0]) + 1);
    std::vector<int> missing;
    for (int n : reported)
      if (!stored.count(n)) missing.push_back(n);
    INFO(missing.size() << " of " << reported.size() << " games reported finished are missing");
    CHECK(missing.empty());
    CHECK(stored.size() < std::size_t(rounds * 2));
    // The same command plays the rest, each game once.
    auto again = run_process(
        {knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("t.db"), "--quiet"}, 600);
    INFO(again.out << again.err);
    REQUIRE(again.exit_code == 0);
    CHECK(stored_identities(dir.file("t.db")).size() == std::size_t(rounds * 2));
  }
}

TEST_CASE("first Ctrl-C finishes the running games and keeps them", "[cli][interrupt]") {
  TempDir dir;
  write_file(dir.file("t.toml"), small_config(2000, "interrupt-test"));
  std::vector<std::string> cmd = {knightly_binary(), "run",    dir.file("t.toml"), "--db",
                                  dir.file("t.db"),  "--quiet"};
  pid_t pid = spawn_background(cmd);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ::kill(pid, SIGINT);
  int code = wait_child(pid);
  CHECK(code == 130);
  SqliteProbe db(dir.file("t.db"));
  long long stored = db.count("SELECT count(*) FROM games");
  CHECK(stored > 0);
  CHECK(stored < 4000);
  // Games that were running when the interrupt came were finished, not cut short.
  CHECK(db.count("SELECT count(*) FROM games WHERE termination = 'interrupted'") == 0);
  // Nobody else plays it: the interrupted tournament is marked aborted (resumable).
  CHECK(db.value("SELECT status FROM tournaments WHERE name = 'interrupt-test'") == "aborted");
  CHECK(db.value("PRAGMA integrity_check") == "ok");
}

TEST_CASE("second Ctrl-C aborts at once - the run resumes to exactly the schedule",
          "[cli][interrupt]") {
  TempDir dir;
  // Slow UCI games (1 s + 0.1 s per side): a first Ctrl-C alone would take seconds to finish.
  std::vector<std::string> cmd = {knightly_binary(),
                                  "play",
                                  "-engine",
                                  "cmd=" + engine_binary(),
                                  "name=a",
                                  "-engine",
                                  "cmd=" + engine_binary(),
                                  "name=b",
                                  "-each",
                                  "tc=1+0.1",
                                  "-games",
                                  "4",
                                  "-concurrency",
                                  "2",
                                  "-maxmoves",
                                  "30",
                                  "-db",
                                  dir.file("twice.db")};
  pid_t pid = spawn_background(cmd, "", true);
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ::kill(-pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto t0 = std::chrono::steady_clock::now();
  ::kill(-pid, SIGINT);
  int code = wait_child(pid);
  auto waited = std::chrono::steady_clock::now() - t0;
  CHECK(code == 130);
  CHECK(waited < std::chrono::seconds(3));
  {
    SqliteProbe db(dir.file("twice.db"));
    CHECK(db.value("PRAGMA integrity_check") == "ok");
    CHECK(db.count("SELECT count(*) FROM games") < 4);
  }
  auto r = run_process(cmd, 300);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  SqliteProbe db(dir.file("twice.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 4);
  CHECK(db.count("SELECT count(DISTINCT schedule_index) FROM games") == 4);
}

TEST_CASE("Ctrl-C from a terminal reaches the runner, not the engines", "[cli][interrupt]") {
  // A terminal signals the whole foreground process group; engine processes live in their
  // own groups, so the running games end normally instead of as disconnects.
  TempDir dir;
  pid_t pid = spawn_background(
      {knightly_binary(), "play", "-engine", "cmd=" + engine_binary(), "name=a", "-engine",
       "cmd=" + engine_binary(), "name=b", "-each", "tc=1+0.1", "-games", "20", "-concurrency", "2",
       "-maxmoves", "40", "-db", dir.file("c.db")},
      "", true);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ::kill(-pid, SIGINT);
  int code = wait_child(pid);
  CHECK(code == 130);
  SqliteProbe db(dir.file("c.db"));
  CHECK(db.count("SELECT count(*) FROM games") >= 1);
  CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('disconnect', 'stall')") == 0);
}

TEST_CASE("a changed config is refused with what differs - --restart keeps the old one",
          "[cli][resume]") {
  TempDir dir;
  write_file(dir.file("t.toml"), small_config(1, "changed"));
  std::vector<std::string> cmd = {knightly_binary(), "run",    dir.file("t.toml"), "--db",
                                  dir.file("t.db"),  "--quiet"};
  REQUIRE(run_process(cmd).exit_code == 0);
  write_file(dir.file("t.toml"), small_config(2, "changed"));
  auto r = run_process(cmd);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("- rounds = 1") != std::string::npos);
  CHECK(r.err.find("+ rounds = 2") != std::string::npos);
  CHECK(r.err.find("--restart") != std::string::npos);
  cmd.push_back("--restart");
  auto again = run_process(cmd);
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  SqliteProbe db(dir.file("t.db"));
  CHECK(db.count("SELECT count(*) FROM tournaments WHERE name = 'changed'") == 2);
  CHECK(db.count("SELECT count(*) FROM tournaments WHERE status = 'restarted'") == 1);
  CHECK(db.count("SELECT count(*) FROM games") == 2 + 4);
}

TEST_CASE("databases that cannot be used give exit code 2 and are left untouched", "[cli][db]") {
  TempDir dir;
  write_file(dir.file("t.toml"), small_config(1, "bad-db"));

  SECTION("not a database at all") {
    write_file(dir.file("notes.db"), "these are my notes, not SQLite\n");
    auto r =
        run_process({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("notes.db")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("notes.db") != std::string::npos);
    CHECK(read_file(dir.file("notes.db")) == "these are my notes, not SQLite\n");
  }
  SECTION("an SQLite database of another program") {
    sqlite3* db = nullptr;
    sqlite3_open(dir.file("other.db").c_str(), &db);
    sqlite3_exec(db,
                 "CREATE TABLE photos (id INTEGER, path TEXT); INSERT INTO photos VALUES (1, 'x');",
                 nullptr, nullptr, nullptr);
    sqlite3_close(db);
    std::string before = read_file(dir.file("other.db"));
    auto r =
        run_process({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("other.db")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("other.db") != std::string::npos);
    CHECK(read_file(dir.file("other.db")) == before);
  }
  SECTION("locked by another writer") {
    // Create it first, then hold an exclusive lock while knightly tries to write.
    REQUIRE(run_process({knightly_binary(), "run", dir.file("t.toml"), "--db",
                         dir.file("locked.db"), "--quiet"})
                .exit_code == 0);
    write_file(dir.file("t2.toml"), small_config(1, "bad-db-2"));
    sqlite3* db = nullptr;
    sqlite3_open(dir.file("locked.db").c_str(), &db);
    REQUIRE(sqlite3_exec(db, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
    auto r = run_process(
        {knightly_binary(), "run", dir.file("t2.toml"), "--db", dir.file("locked.db")}, 120);
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    CHECK_FALSE(r.timed_out);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("locked") != std::string::npos);
    // Said after a second of the 10 s wait, not only when it failed.
    CHECK(r.err.find("knightly: waiting for the write lock of " + dir.file("locked.db") +
                     ", which another process holds (giving up after 10 s)") != std::string::npos);
    SqliteProbe p(dir.file("locked.db"));
    CHECK(p.count("SELECT count(*) FROM tournaments WHERE name = 'bad-db-2'") == 0);
  }
  SECTION("a read-only database file") {
    REQUIRE(run_process({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("ro.db"),
                         "--quiet"})
                .exit_code == 0);
    // A file without write permission is refused for writing, even for root (the store
    // checks the mode bits, as root would otherwise write anyway); queries still read it.
    std::filesystem::permissions(dir.file("ro.db"), std::filesystem::perms::owner_read);
    std::string before = read_file(dir.file("ro.db"));
    auto q = run_process({knightly_binary(), "query", "standings", "--db", dir.file("ro.db")});
    CHECK(q.exit_code == 0);
    CHECK(q.out.find("ab") != std::string::npos);
    write_file(dir.file("t3.toml"), small_config(1, "bad-db-3"));
    auto r =
        run_process({knightly_binary(), "run", dir.file("t3.toml"), "--db", dir.file("ro.db")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("ro.db") != std::string::npos);
    CHECK(read_file(dir.file("ro.db")) == before);
  }
}

TEST_CASE("bad configs and missing engines stop before the first game", "[cli][config]") {
  TempDir dir;
  SECTION("malformed TOML names file, line and column") {
    write_file(dir.file("bad.toml"), "[tournament]\nname = \"x\nrounds = 2\n");
    auto r =
        run_process({knightly_binary(), "run", dir.file("bad.toml"), "--db", dir.file("x.db")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("bad.toml:2:") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir.file("x.db")));
  }
  SECTION("missing engine binary") {
    write_file(dir.file("m.toml"),
               "[tournament]\nname = \"m\"\ndepth = 1\n[[engine]]\nname = \"a\"\n"
               "command = \"/nonexistent/engine\"\n[[engine]]\nname = \"b\"\nbuiltin = true\n");
    auto r = run_process({knightly_binary(), "run", dir.file("m.toml"), "--db", dir.file("m.db")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("/nonexistent/engine") != std::string::npos);
  }
  SECTION("a bad opening book line names file and line") {
    write_file(dir.file("book.epd"),
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\n");
    write_file(dir.file("b.toml"),
               "[tournament]\nname = \"b\"\nrounds = 2\n[openings]\nfile = \"book.epd\"\n"
               "order = \"sequential\"\n[[engine]]\nname = \"a\"\nbuiltin = true\ndepth = 1\n"
               "[[engine]]\nname = \"b\"\nbuiltin = true\ndepth = 1\n");
    auto r = run_process({knightly_binary(), "run", dir.file("b.toml"), "--db", dir.file("b.db")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("book.epd:2") != std::string::npos);
    // The game from the good line was finished and kept.
    SqliteProbe db(dir.file("b.db"));
    CHECK(db.count("SELECT count(*) FROM games") >= 1);
  }
}
