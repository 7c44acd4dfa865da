// SPSA tunes (docs/tuning.md) played by real `knightly` processes: several workers on one
// tune, on SQLite and on the test PostgreSQL server, through `knightly run` and through the
// queue (`knightly submit`, `knightly work`), with a worker SIGKILLed mid-iteration; and the
// demo, configs/tune-demo.toml, at a small scale.
#include <signal.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <regex>
#include <string>

#include "database.h"
#include "tests/support/postgres_server.h"
#include "tests/support/process.h"
#include "tests/test_data.h"
#include "worker_process.h"

using namespace knightly::test;

namespace {

constexpr int kIterations = 12;

// A deterministic engine (fixed depth, no clock, no noise): the same game from the same
// opening in any process, so the games, and with them the values, depend on the seed alone.
// A delay of 2: iteration k is played around the values after iterations 0 .. k - 3, so most
// iterations depend on earlier results and at most three are in play at once.
std::string tune_config(const std::string& name = "tune-workers") {
  return "[tournament]\nname = \"" + name +
         "\"\nconcurrency = 1\nseed = 29\nmaxmoves = 50\ndepth = 2\n"
         "[openings]\nrandom_plies = 4\n"
         "[[engine]]\nname = \"kn\"\nbuiltin = true\n"
         "options = { Search = \"alphabeta\", Eval = \"material+pst\" }\n"
         "[tune]\nengine = \"kn\"\niterations = " +
         std::to_string(kIterations) +
         "\ndelay = 2\n"
         "[[tune.param]]\nname = \"KnightValue\"\nstart = 107\nmin = 0\nmax = 1000\n"
         "c_end = 40\nr_end = 0.02\n";
}

std::string query_tune(const std::string& db) {
  auto q = run_process({knightly_binary(), "query", "tune", "--db", db, "--format", "json"});
  INFO(q.err);
  REQUIRE(q.exit_code == 0);
  return q.out;
}

// The tune as one `knightly tune` process alone plays it: the reference every set of workers
// must end with.
struct Reference {
  std::string json;
  std::vector<std::vector<std::string>> games;
};
Reference one_worker(const std::string& text) {
  TempDir dir;
  write_file(dir.file("t.toml"), text);
  auto r = run_process(
      {knightly_binary(), "tune", dir.file("t.toml"), "--db", dir.file("t.db"), "--quiet"}, 600);
  INFO(tail(r.out) << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Tune of kn after " + std::to_string(kIterations) + " of " +
                   std::to_string(kIterations) + " iterations") != std::string::npos);
  Database db = Database::make(false, dir.file("t.db"));
  return {query_tune(dir.file("t.db")), stored_games(db)};
}

bool postgres_missing() {
  if (auto why = postgres_absent()) {
    skip(*why);
    return true;
  }
  return false;
}

// Waits until `w` holds a leased pair, polling the database; false when it ends first.
bool holds_a_pair(const Database& db, WorkerProcess& w) {
  const std::string sql =
      "SELECT count(*) FROM pairs p JOIN workers k ON k.id = p.worker_id WHERE p.state = "
      "'leased' AND k.pid = " +
      std::to_string(w.pid());
  return w.wait_while_running([&] { return db.count(sql) > 0; });
}

// Every iteration begun once, its steps recorded once, its result counted from exactly its
// two games.
void check_iterations(const Database& db) {
  CHECK(db.count("SELECT count(*) FROM games") == 2 * kIterations);
  CHECK(db.count("SELECT count(*) FROM tune_iterations") == kIterations);
  CHECK(db.count("SELECT count(*) FROM tune_steps") == kIterations);
  CHECK(db.count("SELECT count(*) FROM tune_iterations WHERE wins + draws + losses = 2") ==
        kIterations);
  for (int k = 0; k < kIterations; ++k)
    CHECK(db.count("SELECT count(*) FROM games WHERE round = " + std::to_string(k)) == 2);
}

// Two workers on one tune, the first SIGKILLed while it plays a pair: the survivor takes the
// pair over when its lease runs out, and the tune ends with the one worker's values.
void killed_worker(bool postgres, bool queue) {
  const Reference reference = one_worker(tune_config());
  TempDir dir;
  write_file(dir.file("t.toml"), tune_config());
  Database db = Database::make(postgres, dir.file("t.db"));
  std::vector<std::string> command;
  if (queue) {
    auto s = run_process({knightly_binary(), "submit", dir.file("t.toml"), "--db", db.target});
    INFO(s.out << s.err);
    REQUIRE(s.exit_code == 0);
    command = {knightly_binary(), "work",    "--db", db.target,
               "--until-empty",   "--lease", "1",    "--quiet"};
  } else {
    command = {knightly_binary(), "tune", dir.file("t.toml"), "--db", db.target,
               "--lease",         "1",    "--quiet"};
  }
  // On SQLite the survivor is `knightly run` of the same config: a config with [tune] is a
  // tune whichever command plays it.
  std::vector<std::string> survivor_command = command;
  if (!queue && !postgres) survivor_command[1] = "run";
  WorkerProcess victim(command, dir.file("w1"));
  WorkerProcess survivor(survivor_command, dir.file("w2"));
  const bool killed = holds_a_pair(db, victim);
  if (killed) {
    victim.signal(SIGKILL);
    victim.wait(10);
  }
  CHECK(killed);
  survivor.wait(600);
  INFO("survivor: " << tail(survivor.out()) << survivor.err());
  CHECK(survivor.exit_code() == 0);
  CHECK(survivor.err().find("terminate") == std::string::npos);
  CHECK(db.value("SELECT status FROM tournaments") == "finished");
  check_iterations(db);
  CHECK(stored_games(db) == reference.games);
  // The same values after every iteration, the same final ones.
  CHECK(query_tune(db.target) == reference.json);
}

}  // namespace

TEST_CASE("the demo at a small scale: the knight's value goes at least half the way back",
          "[run][tune][demo]") {
  // configs/tune-demo.toml with 100 iterations instead of 400 (the full demo: scripts/tune-demo
  // and docs/tuning.md), its book where the config's directory has it.
  std::string text = read_file(source_dir() + "/configs/tune-demo.toml");
  REQUIRE(text.find("iterations = 400") != std::string::npos);
  text = std::regex_replace(text, std::regex("iterations = 400"), "iterations = 100");
  text = std::regex_replace(text, std::regex("\"books/"), "\"" + source_dir() + "/configs/books/");
  TempDir dir;
  write_file(dir.file("demo.toml"), text);
  auto r = run_process(
      {knightly_binary(), "tune", dir.file("demo.toml"), "--db", dir.file("demo.db"), "--quiet"},
      600);
  INFO(tail(r.out) << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string json = query_tune(dir.file("demo.db"));
  INFO(json.substr(0, 600));
  std::smatch m;
  REQUIRE(std::regex_search(
      json, m, std::regex("\"params\":\\[\\{\"name\":\"KnightValue\",\"value\":([0-9.]+)")));
  const double value = std::stod(m[1]);
  // Knightly-engine's default is 320, the start 107: at least half of the 213 back.
  CHECK(value >= 107 + (320 - 107) / 2.0);
  CHECK(value <= 1000);
  // Every iteration played, each with its two games.
  Database db = Database::make(false, dir.file("demo.db"));
  CHECK(db.count("SELECT count(*) FROM tune_iterations WHERE wins + draws + losses = 2") == 100);
  // The table names the value the engine would be given now.
  auto table =
      run_process({knightly_binary(), "query", "tune", "tune-demo", "--db", dir.file("demo.db")});
  CHECK(table.exit_code == 0);
  CHECK(table.out.find("KnightValue") != std::string::npos);
  CHECK(table.out.find(std::to_string(static_cast<long>(std::llround(value)))) !=
        std::string::npos);
}

TEST_CASE("a tune: two workers on SQLite, one SIGKILLed mid-iteration, end as one worker does",
          "[run][tune][kill]") {
  killed_worker(false, false);
}

TEST_CASE("a tune: two workers on PostgreSQL, one SIGKILLed mid-iteration, end as one does",
          "[run][tune][kill][postgresql]") {
  if (postgres_missing()) return;
  killed_worker(true, false);
}

TEST_CASE("a tune submitted to the queue: two knightly work on PostgreSQL, one SIGKILLed",
          "[run][tune][kill][queue][postgresql]") {
  if (postgres_missing()) return;
  killed_worker(true, true);
}

TEST_CASE("a tune killed and run again ends as an uninterrupted one", "[run][tune][resume]") {
  const Reference reference = one_worker(tune_config());
  TempDir dir;
  write_file(dir.file("t.toml"), tune_config());
  Database db = Database::make(false, dir.file("t.db"));
  const std::vector<std::string> command = {knightly_binary(), "tune",   dir.file("t.toml"), "--db",
                                            db.target,         "--quiet"};
  {
    WorkerProcess first(command, dir.file("w1"));
    const bool killed = holds_a_pair(db, first);
    if (killed) {
      first.signal(SIGKILL);
      first.wait(10);
    }
    REQUIRE(killed);
  }
  // The same command again: it frees the dead run's leases, plays what is left, and counts each
  // iteration once.
  auto again = run_process(command, 600);
  INFO(tail(again.out) << again.err);
  REQUIRE(again.exit_code == 0);
  check_iterations(db);
  CHECK(stored_games(db) == reference.games);
  CHECK(query_tune(db.target) == reference.json);
}

TEST_CASE("a UCI engine's tune: each iteration's values reach both processes as setoption",
          "[run][tune][uci]") {
  TempDir dir;
  // The runner's log with every line sent to each engine (the mock engine takes any option).
  const std::string log = dir.file("run.log");
  write_file(dir.file("t.toml"),
             "[tournament]\nname = \"tune-uci\"\nseed = 5\nmaxmoves = 20\ndepth = 1\n"
             "[openings]\nrandom_plies = 2\n[output]\nlog = \"" +
                 log +
                 "\"\nlog_engine = true\n"
                 "[[engine]]\nname = \"mock\"\ncommand = \"" +
                 mock_engine_binary() +
                 "\"\n"
                 "[tune]\nengine = \"mock\"\niterations = 4\ndelay = 0\n"
                 "[[tune.param]]\nname = \"KnightValue\"\nstart = 300\nmin = 0\nmax = 1000\n"
                 "c_end = 20\nr_end = 0.05\n"
                 "[[tune.param]]\nname = \"Margin\"\nstart = 0.5\nmin = 0\nmax = 1\n"
                 "c_end = 0.1\nr_end = 0.01\ntype = \"float\"\n");
  auto r = run_process(
      {knightly_binary(), "tune", dir.file("t.toml"), "--db", dir.file("t.db"), "--quiet"}, 300);
  INFO(tail(r.out) << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string sent = read_file(log);
  Database db = Database::make(false, dir.file("t.db"));
  const auto steps = db.rows(
      "SELECT iteration, param, plus_value, minus_value FROM tune_steps ORDER BY iteration, param");
  REQUIRE(steps.size() == 8);
  for (const auto& s : steps) {
    INFO("iteration " << s[0] << " param " << s[1] << ": " << s[2] << " / " << s[3]);
    if (s[1] == "0") {
      // An integer option gets an integer: the stored value as the engine's text.
      for (const auto& v : {s[2], s[3]})
        CHECK(sent.find("setoption name KnightValue value " +
                        std::to_string(std::llround(std::stod(v))) + "\n") != std::string::npos);
    } else {
      // A float option: 0.5 +- c_k, neither rounded nor equal.
      CHECK(std::stod(s[2]) != std::stod(s[3]));
      CHECK(std::abs(std::stod(s[2]) - std::round(std::stod(s[2]))) > 0);
    }
  }
  CHECK(sent.find("setoption name Margin value 0.") != std::string::npos);
}

TEST_CASE("knightly tune and query tune refuse what is not a tune, naming it", "[run][tune][cli]") {
  TempDir dir;
  write_file(
      dir.file("plain.toml"),
      "[tournament]\nname = \"plain\"\nrounds = 1\nseed = 1\nmaxmoves = 10\ndepth = 1\n"
      "[[engine]]\nname = \"a\"\nbuiltin = true\n[[engine]]\nname = \"b\"\nbuiltin = true\n");
  auto refused = run_process(
      {knightly_binary(), "tune", dir.file("plain.toml"), "--db", dir.file("t.db"), "--quiet"});
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("plain.toml: no [tune] section") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("t.db")));
  auto played = run_process(
      {knightly_binary(), "run", dir.file("plain.toml"), "--db", dir.file("t.db"), "--quiet"});
  REQUIRE(played.exit_code == 0);
  auto none = run_process({knightly_binary(), "query", "tune", "--db", dir.file("t.db")});
  CHECK(none.exit_code != 0);
  CHECK(none.err.find("no tune in") != std::string::npos);
  auto not_tune =
      run_process({knightly_binary(), "query", "tune", "plain", "--db", dir.file("t.db")});
  CHECK(not_tune.exit_code != 0);
  CHECK(not_tune.err.find("tournament 'plain'") != std::string::npos);
  CHECK(not_tune.err.find("is not a tune") != std::string::npos);
  auto unknown =
      run_process({knightly_binary(), "query", "tune", "nope", "--db", dir.file("t.db")});
  CHECK(unknown.exit_code != 0);
  CHECK(unknown.err.find("'nope'") != std::string::npos);
  CHECK(unknown.err.find("no tournament") != std::string::npos);
}
