// Many `knightly` processes on one tournament, as real processes on a real SQLite file: the
// games stored are the single-process schedule, none twice, whatever is killed; one SPRT
// decision stops every worker; `knightly stop` stops them all.
#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <random>
#include <regex>
#include <thread>

#include "database.h"
#include "tests/integration/cli/sqlite_probe.h"
#include "tests/support/postgres_server.h"
#include "tests/support/process.h"
#include "worker_process.h"

using namespace knightly::test;

namespace {

bool quick() {
  return std::getenv("KNIGHTLY_QUICK") != nullptr;
}

// Three deterministic builtin engines (fixed depth, no clock): the same game from the same
// opening every time, in any process. 6 games a round.
std::string round_robin(int rounds, const std::string& name = "workers") {
  return "[tournament]\nname = \"" + name + "\"\nrounds = " + std::to_string(rounds) +
         "\ngames = 2\nconcurrency = 1\nseed = 11\nmaxmoves = 50\n"
         "[openings]\nrandom_plies = 4\n"
         "[[engine]]\nname = \"ab\"\nbuiltin = true\n"
         "options = { Search = \"alphabeta\", Eval = \"material+pst\" }\ndepth = 2\n"
         "[[engine]]\nname = \"greedy\"\nbuiltin = true\n"
         "options = { Search = \"greedy\", Eval = \"material+pst\" }\n"
         "[[engine]]\nname = \"minimax\"\nbuiltin = true\n"
         "options = { Search = \"minimax\", Eval = \"material\" }\ndepth = 2\n";
}

struct Run {
  TempDir dir;
  std::string config, pgn;
  Database db;
  int n = 0;
  explicit Run(const std::string& text, bool postgres = false)
      : config(dir.file("t.toml")), pgn(dir.file("t.pgn")) {
    write_file(config, text);
    db = Database::make(postgres, dir.file("t.db"));
  }
  std::vector<std::string> command(std::vector<std::string> extra = {}) const {
    std::vector<std::string> c = {knightly_binary(), "run",   config, "--db",
                                  db.target,         "--pgn", pgn,    "--quiet"};
    c.insert(c.end(), extra.begin(), extra.end());
    return c;
  }
  WorkerProcess start(std::vector<std::string> extra = {}) {
    return WorkerProcess(command(std::move(extra)), dir.file("w" + std::to_string(++n)));
  }
};

// What one process alone stores for `text`: the reference schedule.
std::vector<std::vector<std::string>> single_process_games(const std::string& text) {
  Run one(text);  // SQLite
  auto r = run_process(one.command(), 600);
  INFO(tail(r.out) << r.err);
  REQUIRE(r.exit_code == 0);
  return stored_games(one.db);
}

// For a PostgreSQL case: why it cannot run (the server binaries are absent), after saying so.
bool postgres_missing() {
  if (auto why = knightly::test::postgres_absent()) {
    knightly::test::skip(*why);
    return true;
  }
  return false;
}

// The standings a worker printed last: from "Standings of" to the blank line after the table.
std::string standings_block(const std::string& out) {
  const auto at = out.rfind("Standings of");
  if (at == std::string::npos) return "";
  const auto end = out.find("\n\n", at);
  return out.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

void check_export_equals_pgn(const Run& run) {
  auto exported = run_process({knightly_binary(), "export", "--db", run.db.target});
  REQUIRE(exported.exit_code == 0);
  CHECK(read_file(run.pgn) == exported.out);
}

void four_workers(bool postgres) {
  const int rounds = quick() ? 6 : 12;
  const auto reference = single_process_games(round_robin(rounds));
  REQUIRE(reference.size() == std::size_t(rounds * 6));

  Run run(round_robin(rounds), postgres);
  std::vector<WorkerProcess> workers;
  for (int i = 0; i < 4; ++i) workers.push_back(run.start());  // all at once
  for (auto& w : workers) {
    w.wait(600);
    INFO("worker " << w.pid() << ": " << tail(w.out()) << w.err());
    CHECK(w.exit_code() == 0);
    CHECK(w.err().find("terminate") == std::string::npos);
    CHECK(w.out().find("Decision: complete: all " + std::to_string(rounds * 6) + " games played") !=
          std::string::npos);
  }
  // The same games (same keys, same moves), each exactly once.
  CHECK(stored_games(run.db) == reference);
  CHECK(run.db.count("SELECT count(*) FROM games") == rounds * 6);
  CHECK(run.db.value("SELECT status FROM tournaments") == "finished");
  CHECK(run.db.integrity() == "ok");
  check_export_equals_pgn(run);
  // Each worker is on record; together they played every game.
  auto workers_csv = run_process(
      {knightly_binary(), "query", "workers", "--db", run.db.target, "--format", "csv"});
  REQUIRE(workers_csv.exit_code == 0);
  CHECK(std::count(workers_csv.out.begin(), workers_csv.out.end(), '\n') == 1 + 4);
  CHECK(run.db.count("SELECT count(DISTINCT worker_id) FROM games") >= 2);
}

// Waits until `w` holds a leased pair (it is playing), polling the database; false when it
// ends first or a minute passes.
bool holds_a_pair(const Run& run, WorkerProcess& w) {
  const std::string sql =
      "SELECT count(*) FROM pairs p JOIN workers k ON k.id = p.worker_id WHERE p.state = "
      "'leased' AND k.pid = " +
      std::to_string(w.pid());
  return w.wait_while_running([&] { return run.db.count(sql) > 0; });
}

void killed_workers(bool postgres) {
  const int rounds = quick() ? 8 : 16;
  const auto reference = single_process_games(round_robin(rounds));
  Run run(round_robin(rounds), postgres);
  std::mt19937 rng(std::random_device{}());
  std::vector<WorkerProcess> workers;
  // Short leases so the killed workers' pairs are free again quickly.
  for (int i = 0; i < 4; ++i) workers.push_back(run.start({"--lease", "1"}));
  int killed = 0;
  for (int victim : {0, 2}) {
    // Killed inside a game: once it holds a pair (a fixed sleep let a fast machine finish the
    // whole tournament first), at a random moment of that game or a later one.
    if (victim > 0) std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 300));
    if (!holds_a_pair(run, workers[std::size_t(victim)])) continue;
    workers[std::size_t(victim)].signal(SIGKILL);
    workers[std::size_t(victim)].wait(10);
    ++killed;
    workers.push_back(run.start({"--lease", "1"}));  // a replacement
  }
  CHECK(killed >= 1);
  for (std::size_t i = 0; i < workers.size(); ++i) {
    auto& w = workers[i];
    w.wait(600);
    if (w.killed_by() == SIGKILL && !w.timed_out()) continue;  // a victim
    INFO("worker " << i << ": " << tail(w.out()) << w.err());
    CHECK(w.exit_code() == 0);
  }
  CHECK(stored_games(run.db) == reference);
  CHECK(run.db.integrity() == "ok");
  CHECK(run.db.count("SELECT count(*) FROM games g WHERE plies != "
                     "(SELECT count(*) FROM moves m WHERE m.game_id = g.id)") == 0);
  check_export_equals_pgn(run);
}

}  // namespace

TEST_CASE("four workers on one SQLite round robin store the single-process schedule",
          "[run][workers]") {
  four_workers(false);
}

TEST_CASE("four workers on one PostgreSQL round robin store the single-process schedule",
          "[run][workers][postgresql]") {
  if (postgres_missing()) return;
  four_workers(true);
}

TEST_CASE("SIGKILLed workers' pairs are taken over - the same games, integrity kept",
          "[run][workers][kill]") {
  killed_workers(false);
}

TEST_CASE("SIGKILLed workers' pairs are taken over on PostgreSQL too",
          "[run][workers][kill][postgresql]") {
  if (postgres_missing()) return;
  killed_workers(true);
}

TEST_CASE("an SPRT across three workers stops them all within one game each of the decision",
          "[run][workers][sprt]") {
  TempDir dir;
  // A strong engine against a random mover: H1 within a few hundred games.
  std::vector<std::string> cmd = {knightly_binary(),
                                  "sprt",
                                  "--new",
                                  "builtin=ab option.Search=alphabeta option.Eval=material+pst",
                                  "--base",
                                  "builtin=rnd option.Search=random",
                                  "--depth",
                                  "2",
                                  "--elo0",
                                  "0",
                                  "--elo1",
                                  "10",
                                  "--max-games",
                                  "4000",
                                  "--db",
                                  dir.file("s.db"),
                                  "--name",
                                  "gate"};
  std::vector<WorkerProcess> workers;
  for (int i = 0; i < 3; ++i) workers.emplace_back(cmd, dir.file("s" + std::to_string(i)));
  std::string decision, standings;
  for (auto& w : workers) {
    w.wait(600);
    INFO(tail(w.out()) << w.err());
    CHECK(w.exit_code() == 0);  // H1 accepted, for every worker
    std::smatch m;
    const std::string out = w.out();
    REQUIRE(std::regex_search(out, m, std::regex("Decision: (sprt: H1 accepted[^\n]*)")));
    if (decision.empty()) decision = m[1];
    CHECK(m[1] == decision);  // one decision, the same for all
    // And one standings: of the games the decision counted, whatever each stored after it.
    if (standings.empty()) standings = standings_block(out);
    CHECK(standings_block(out) == standings);
  }
  std::smatch m;
  REQUIRE(std::regex_search(decision, m, std::regex("after ([0-9]+) games")));
  const long long decided_at = std::stoll(m[1]);
  SqliteProbe db(dir.file("s.db"));
  const long long stored = db.count("SELECT count(*) FROM games");
  INFO(decision << "; stored " << stored);
  CHECK(stored >= decided_at);
  CHECK(stored <= decided_at + 2);  // the two others finish at most the game they play
  CHECK(db.value("SELECT status FROM tournaments WHERE name = 'gate'") == "finished");
  // A worker started after the decision plays nothing and gives the gate's answer.
  auto late = run_process(cmd, 120);
  CHECK(late.exit_code == 0);
  CHECK(late.out.find("already finished") != std::string::npos);
  CHECK(db.count("SELECT count(*) FROM games") == stored);
}

// The password of a PostgreSQL URL ("" for a file).
std::string password_of(const std::string& target) {
  auto scheme = target.find("://");
  auto at = target.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return "";
  auto colon = target.find(':', scheme + 3);
  return colon != std::string::npos && colon < at ? target.substr(colon + 1, at - colon - 1) : "";
}

// Two workers are stopped mid-run: each exits 3 and prints the same standings (of the games
// the stop counted, from the database), the tournament is left aborted with the stop flag;
// the same command then plays the rest, clearing the flag, and the database holds every game
// of the schedule exactly once.
void stop_and_resume(bool postgres) {
  // Long enough that the stop lands mid-run: 240 games of fast builtin engines.
  const int rounds = 40;
  const auto reference = single_process_games(round_robin(rounds, "long"));
  Run run(round_robin(rounds, "long"), postgres);
  const std::string password = password_of(run.db.target);
  auto no_password = [&](const std::string& text) {
    return password.empty() || text.find(password) == std::string::npos;
  };
  std::vector<WorkerProcess> workers;
  for (int i = 0; i < 2; ++i) workers.push_back(run.start());
  // Until some games are stored.
  REQUIRE(workers[0].wait_while_running(
      [&] { return run.db.count("SELECT count(*) FROM games") >= 6; }));
  auto stop = run_process({knightly_binary(), "stop", "long", "--db", run.db.target});
  INFO(stop.out << stop.err);
  REQUIRE(stop.exit_code == 0);
  CHECK(stop.out.find("Stop requested for 'long' (stopped: knightly stop after ") !=
        std::string::npos);
  CHECK(no_password(stop.out + stop.err));
  std::string standings;
  for (auto& w : workers) {
    w.wait(120);
    INFO(tail(w.out()) << w.err());
    CHECK(w.exit_code() == 3);
    CHECK(w.out().find("Decision: stopped: knightly stop after ") != std::string::npos);
    CHECK(w.out().find("run the same command again to resume") != std::string::npos);
    CHECK(no_password(w.out() + w.err()));  // the database is named without its password
    const std::string block = standings_block(w.out());
    CHECK_FALSE(block.empty());
    if (standings.empty()) standings = block;
    CHECK(block == standings);  // one standings for both
  }
  CHECK(run.db.value("SELECT status FROM tournaments WHERE name = 'long'") == "aborted");
  CHECK(run.db.value("SELECT stop_requested FROM tournaments WHERE name = 'long'") == "1");
  const long long stopped_at = run.db.count("SELECT count(*) FROM games");
  CHECK(stopped_at < rounds * 6);
  CHECK(run.db.count("SELECT count(*) FROM pairs WHERE state = 'leased'") == 0);
  // Stopping it again says so; unknown names and missing databases are errors naming them.
  auto stop_again = run_process({knightly_binary(), "stop", "long", "--db", run.db.target});
  CHECK(stop_again.exit_code == 0);
  CHECK(stop_again.out.find("already stopped") != std::string::npos);
  auto unknown = run_process({knightly_binary(), "stop", "nope", "--db", run.db.target});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("no tournament 'nope'") != std::string::npos);
  CHECK(no_password(unknown.out + unknown.err));

  // The same command plays the rest: every game of the schedule, each once.
  auto again = run_process(run.command(), 600);
  INFO(tail(again.out) << again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("was stopped (stopped: knightly stop after") != std::string::npos);
  CHECK(again.out.find("Decision: complete: all " + std::to_string(rounds * 6) + " games played") !=
        std::string::npos);
  CHECK(stored_games(run.db) == reference);
  CHECK(run.db.value("SELECT status FROM tournaments WHERE name = 'long'") == "finished");
  CHECK(run.db.value("SELECT stop_requested FROM tournaments WHERE name = 'long'") == "0");
  CHECK(run.db.integrity() == "ok");
  check_export_equals_pgn(run);
  auto finished = run_process({knightly_binary(), "stop", "long", "--db", run.db.target});
  CHECK(finished.exit_code == 0);
  CHECK(finished.out.find("already finished") != std::string::npos);
  if (postgres) return;
  auto missing = run_process({knightly_binary(), "stop", "long", "--db", run.dir.file("x.db")});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("x.db") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(run.dir.file("x.db")));
}

TEST_CASE("knightly stop ends every worker with exit 3, and the same command plays the rest",
          "[run][workers][stop]") {
  stop_and_resume(false);
}

TEST_CASE("knightly stop on PostgreSQL, resumed, and no password in any message",
          "[run][workers][stop][postgresql]") {
  if (postgres_missing()) return;
  stop_and_resume(true);
}

TEST_CASE("a stopped SPRT resumes with the same command and plays every game once",
          "[run][workers][stop][sprt]") {
  TempDir dir;
  // Two equal random movers and a narrow H1: no decision before the maximum.
  const std::vector<std::string> cmd = {knightly_binary(),
                                        "sprt",
                                        "--new",
                                        "builtin=a option.Search=random",
                                        "--base",
                                        "builtin=b option.Search=random",
                                        "--depth",
                                        "1",
                                        "--elo0",
                                        "0",
                                        "--elo1",
                                        "2",
                                        "--max-games",
                                        "60",
                                        "--db",
                                        dir.file("s.db"),
                                        "--name",
                                        "gate",
                                        "--seed",
                                        "7",
                                        "--quiet"};
  WorkerProcess w(cmd, dir.file("w"));
  REQUIRE(w.wait_while_running([&] {
    SqliteProbe p(dir.file("s.db"));
    return p.count("SELECT count(*) FROM games") >= 4;
  }));
  auto stop = run_process({knightly_binary(), "stop", "gate", "--db", dir.file("s.db")});
  REQUIRE(stop.exit_code == 0);
  w.wait(120);
  INFO(tail(w.out()) << w.err());
  CHECK(w.exit_code() == 3);
  CHECK(w.out().find("Decision: stopped: knightly stop after ") != std::string::npos);
  auto again = run_process(cmd, 600);
  INFO(tail(again.out) << again.err);
  CHECK(again.exit_code == 3);  // undecided at the maximum
  CHECK(again.out.find("Decision: sprt: undecided at max games") != std::string::npos);
  SqliteProbe p(dir.file("s.db"));
  CHECK(p.count("SELECT count(*) FROM games") == 60);
  CHECK(p.count("SELECT count(DISTINCT schedule_index) FROM games") == 60);
  CHECK(p.count("SELECT min(schedule_index) FROM games") == 0);
  CHECK(p.count("SELECT max(schedule_index) FROM games") == 59);
  CHECK(p.value("SELECT status FROM tournaments") == "finished");
}

TEST_CASE("with --on-stop abandon a stop reaches workers deep in long games at once",
          "[run][workers][stop]") {
  // Mock engines that think 200 ms a move: a game lasts half a minute or more.
  TempDir dir;
  const std::string mock = mock_engine_binary();
  write_file(dir.file("slow.toml"),
             "[tournament]\nname = \"slow\"\nrounds = 50\ngames = 2\nseed = 3\nmaxmoves = 100\n"
             "[[engine]]\nname = \"m1\"\ncommand = \"" +
                 mock +
                 "\"\nargs = [\"--seed\", \"1\", \"--delay\", \"200\"]\ndepth = 1\n"
                 "[[engine]]\nname = \"m2\"\ncommand = \"" +
                 mock + "\"\nargs = [\"--seed\", \"2\", \"--delay\", \"200\"]\ndepth = 1\n");
  const std::string db = dir.file("slow.db");
  std::vector<WorkerProcess> workers;
  for (int i = 0; i < 2; ++i)
    workers.emplace_back(
        std::vector<std::string>{knightly_binary(), "run", dir.file("slow.toml"), "--db", db,
                                 "--quiet", "--lease", "1", "--on-stop", "abandon"},
        dir.file("w" + std::to_string(i)));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  auto stop = run_process({knightly_binary(), "stop", "slow", "--db", db});
  REQUIRE(stop.exit_code == 0);
  for (auto& w : workers) {
    // Long before any game in progress could end: the heartbeat read the stop.
    w.wait(20);
    INFO(tail(w.out()) << w.err());
    CHECK_FALSE(w.timed_out());
    CHECK(w.exit_code() == 3);
    CHECK(w.out().find("Decision: stopped: knightly stop after 0 of 100 games") !=
          std::string::npos);
  }
  SqliteProbe p(db);
  CHECK(p.count("SELECT count(*) FROM games") == 0);  // abandoned, not stored
  CHECK(p.value("SELECT status FROM tournaments") == "aborted");
  // No pair is left claimed: both were given back.
  CHECK(p.count("SELECT count(*) FROM pairs WHERE state = 'leased'") == 0);
}
