// Issue 28 end to end: a small engine in a git repository the test writes (a base commit, a
// stronger and a weaker one, one whose build fails, one whose Bench: line is wrong), built from
// source by real `knightly` processes; tests queued with `knightly submit` and played by
// `knightly work` workers on SQLite and on the test PostgreSQL server.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <regex>
#include <set>
#include <thread>

#include "tests/integration/run/database.h"
#include "tests/integration/run/slurm_cluster.h"
#include "tests/integration/run/worker_process.h"
#include "tests/support/engine_repo.h"
#include "tests/support/postgres_server.h"
#include "tests/support/process.h"
#include "tests/test_data.h"
#include "tests/unit/stats/mini_json.h"

using namespace knightly::test;
namespace fs = std::filesystem;

namespace {

bool postgres_missing() {
  if (auto why = postgres_absent()) {
    skip(*why);
    return true;
  }
  return false;
}

// A repository with a base commit on main and the branches the tests play against it.
struct Lab {
  TempDir dir;
  EngineRepo repo;
  Database db;
  std::string cache;
  std::string base, dev, weak;
  int workers = 0;

  explicit Lab(bool postgres = false) : repo(dir.file("engine")), cache(dir.file("cache")) {
    db = Database::make(postgres, dir.file("q.db"));
    base = repo.commit(engine_commit("greedy", 1000));
    repo.branch("dev");
    dev = repo.commit(engine_commit("alphabeta", 2000));
    repo.checkout("main");
    repo.branch("weak");
    weak = repo.commit(engine_commit("random", 3000));
    repo.checkout("main");
  }

  std::string spec(const std::string& ref) const { return "repo=" + repo.path() + " ref=" + ref; }

  ProcessResult knightly(std::vector<std::string> words, int timeout = 300) const {
    words.insert(words.begin(), knightly_binary());
    return run_process(words, timeout);
  }

  // knightly submit of an SPRT of `dev_ref` against main.
  ProcessResult submit_sprt(const std::string& name, const std::string& dev_ref,
                            std::vector<std::string> extra = {}) const {
    std::vector<std::string> w = {"submit",  "--new",       spec(dev_ref), "--base", spec("main"),
                                  "--depth", "2",           "--elo0",      "0",      "--elo1",
                                  "50",      "--max-games", "600",         "--name", name,
                                  "--db",    db.target,     "--cache",     cache};
    w.insert(w.end(), extra.begin(), extra.end());
    return knightly(w);
  }

  // A TOML test: `games` games of `dev_ref` against main at depth 2 (no SPRT).
  std::string toml(const std::string& name, const std::string& dev_ref, int games,
                   const std::string& more = "") const {
    const std::string path = dir.file(name + ".toml");
    write_file(path, "[tournament]\nname = \"" + name +
                         "\"\nrounds = " + std::to_string(games / 2) +
                         "\ngames = 2\nmaxmoves = 40\ndepth = 2\n" + more +
                         "[openings]\nrandom_plies = 4\n"
                         "[[engine]]\nname = \"dev\"\nrepo = \"" +
                         repo.path() + "\"\nref = \"" + dev_ref +
                         "\"\n[[engine]]\nname = \"base\"\nrepo = \"engine\"\nref = \"main\"\n");
    return path;
  }

  WorkerProcess work(std::vector<std::string> extra = {}, const std::string& env = "") {
    std::vector<std::string> w;
    if (!env.empty()) w = {"/usr/bin/env", env};
    w.insert(w.end(),
             {knightly_binary(), "work", "--db", db.target, "--cache", cache, "--poll", "0.5"});
    w.insert(w.end(), extra.begin(), extra.end());
    return WorkerProcess(w, dir.file("worker" + std::to_string(++workers)));
  }

  // knightly query tests --format json, by name.
  std::map<std::string, Json> tests() const {
    auto r = knightly({"query", "tests", "--db", db.target, "--format", "json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    std::map<std::string, Json> out;
    const Json doc = JsonReader(r.out).parse();
    for (const auto& t : doc["tests"].items) out[t["name"].text] = t;
    return out;
  }
};

std::string log_of(const WorkerProcess& w) {
  return tail(w.out(), 4000) + "\n" + tail(w.err(), 2000);
}

}  // namespace

TEST_CASE("knightly sprt with engines from source: built at their commits, stored with every game",
          "[queue][source]") {
  Lab lab;
  auto r = lab.knightly({"sprt", "--new", lab.spec("dev"), "--base", lab.spec("main"), "--depth",
                         "2", "--elo0", "0", "--elo1", "50", "--max-games", "600", "--db",
                         lab.db.target, "--cache", lab.cache, "--quiet"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);  // H1: the dev commit searches, the base is greedy
  CHECK(r.out.find("engine 'New' (" + lab.repo.path() + " at " + lab.dev.substr(0, 12) + ")") !=
        std::string::npos);
  // Each game's players lead to the commits they were built from.
  CHECK(lab.db.count("SELECT count(*) FROM games g JOIN engines w ON w.id = g.white_id "
                     "JOIN engines b ON b.id = g.black_id WHERE w.source_commit = '' OR "
                     "b.source_commit = ''") == 0);
  CHECK(lab.db.value("SELECT source_commit FROM engines WHERE name = 'New'") == lab.dev);
  CHECK(lab.db.value("SELECT source_commit FROM engines WHERE name = 'Base'") == lab.base);
  CHECK(lab.db.value("SELECT commit_sha FROM tournament_sources WHERE engine = 0") == lab.dev);
  auto engines = lab.knightly({"query", "engines", "--db", lab.db.target, "--format", "csv"});
  CHECK(engines.out.find("," + lab.repo.path() + "," + lab.dev) != std::string::npos);
  CHECK(engines.out.find("," + lab.repo.path() + "," + lab.base) != std::string::npos);

  // The branch moves on: the same command resumes the same test, at the commit it stored.
  lab.repo.checkout("dev");
  lab.repo.commit(engine_commit("random", 4000));
  auto again = lab.knightly({"sprt", "--new", lab.spec("dev"), "--base", lab.spec("main"),
                             "--depth", "2", "--elo0", "0", "--elo1", "50", "--max-games", "600",
                             "--db", lab.db.target, "--cache", lab.cache, "--quiet"});
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("already finished") != std::string::npos);
  CHECK(lab.db.count("SELECT count(*) FROM engines WHERE source_commit <> '' ") == 2);
}

TEST_CASE("knightly play -engine repo=... ref=... builds and plays", "[queue][source]") {
  Lab lab;
  auto r = lab.knightly({"play", "-engine", "repo=" + lab.repo.path(), "ref=weak", "-engine",
                         "repo=" + lab.repo.path(), "ref=" + lab.base, "-each", "depth=1", "-games",
                         "2", "-db", lab.db.target, "--cache", lab.cache});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(lab.db.count("SELECT count(*) FROM games") == 2);
  CHECK(lab.db.value("SELECT source_commit FROM engines WHERE name = 'engine@weak'") == lab.weak);
}

TEST_CASE("two knightly work processes on PostgreSQL decide a stronger dev H1 and a weaker H0",
          "[queue][postgresql]") {
  if (postgres_missing()) return;
  Lab lab(true);
  auto h1 = lab.submit_sprt("stronger", "dev");
  INFO(h1.out << h1.err);
  REQUIRE(h1.exit_code == 0);
  // Resolved at submission: the commits are the test's from now on.
  CHECK(h1.out.find("Submitted test 'stronger'") != std::string::npos);
  CHECK(h1.out.find(lab.dev.substr(0, 12)) != std::string::npos);
  auto h0 = lab.submit_sprt("weaker", "weak");
  REQUIRE(h0.exit_code == 0);
  auto queued = lab.tests();
  CHECK(queued["stronger"]["state"].text == "queued");
  CHECK(queued["weaker"]["state"].text == "queued");
  CHECK(queued["stronger"]["new_commit"].text == lab.dev);
  CHECK(queued["stronger"]["base_commit"].text == lab.base);

  std::vector<WorkerProcess> workers;
  workers.push_back(lab.work({"--until-empty"}));
  workers.push_back(lab.work({"--until-empty"}));
  for (auto& w : workers) {
    w.wait(900);
    INFO(log_of(w));
    CHECK(w.exit_code() == 0);
    CHECK(w.out().find("No open test: this worker stops") != std::string::npos);
  }
  auto done = lab.tests();
  CHECK(done["stronger"]["state"].text == "H1");
  CHECK(done["weaker"]["state"].text == "H0");
  CHECK(done["stronger"]["llr"].number >= done["stronger"]["upper"].number);
  CHECK(done["weaker"]["llr"].number <= done["weaker"]["lower"].number);
  CHECK(done["stronger"]["wins"].number > done["stronger"]["losses"].number);
  CHECK(done["weaker"]["wins"].number < done["weaker"]["losses"].number);
  CHECK(done["stronger"]["decision"].text.starts_with("sprt: H1 accepted"));
  // Both workers played; one build per commit on this machine (the lock): three directories.
  CHECK(lab.db.count("SELECT count(DISTINCT worker_id) FROM games") >= 2);
  int builds = 0;
  for (const auto& e : fs::directory_iterator(lab.cache + "/builds"))
    builds += fs::is_directory(e.path());
  CHECK(builds == 3);
  CHECK(lab.db.integrity() == "ok");
}

TEST_CASE("a wrong Bench: and a failing build end their tests, not the worker", "[queue][source]") {
  Lab lab;
  lab.repo.checkout("main");
  lab.repo.branch("badbench");
  const std::string badbench =
      lab.repo.commit(engine_commit("alphabeta", 5000, "Faster search\n\nBench: 4999\n"));
  lab.repo.checkout("main");
  lab.repo.branch("broken");
  lab.repo.commit(broken_commit());
  lab.repo.checkout("main");
  // Played in this order (priorities): the two that fail, then one that plays.
  REQUIRE(lab.submit_sprt("bench", "badbench", {"--priority", "3"}).exit_code == 0);
  REQUIRE(lab.submit_sprt("build", "broken", {"--priority", "2"}).exit_code == 0);
  auto good = lab.knightly({"submit", lab.toml("good", "dev", 2), "--db", lab.db.target, "--cache",
                            lab.cache, "--priority", "1"});
  INFO(good.out << good.err);
  REQUIRE(good.exit_code == 0);

  auto w = lab.work({"--until-empty"});
  w.wait(600);
  INFO(log_of(w));
  CHECK(w.exit_code() == 0);
  auto t = lab.tests();
  CHECK(t["bench"]["state"].text == "failed");
  const std::string bench_why = t["bench"]["decision"].text;
  INFO(bench_why);
  CHECK(bench_why.find("5000 nodes") != std::string::npos);
  CHECK(bench_why.find("Bench: 4999") != std::string::npos);
  CHECK(bench_why.find(badbench.substr(0, 12)) != std::string::npos);
  CHECK(t["build"]["state"].text == "failed");
  const std::string build_why = t["build"]["decision"].text;
  INFO(build_why);
  CHECK(build_why.find("the build of " + lab.repo.path()) != std::string::npos);
  CHECK(build_why.find("this_does_not_compile") != std::string::npos);
  // The worker went on to the next test and played it.
  CHECK(t["good"]["state"].text == "complete");
  CHECK(t["good"]["games"].number == 2);
  CHECK(w.out().find("Test 'bench' failed; on to the next.") != std::string::npos);
  CHECK(lab.db.count("SELECT count(*) FROM games") == 2);
}

TEST_CASE("tests are worked in the order of their priorities", "[queue]") {
  Lab lab;
  // Submitted first, but with the lower priority.
  REQUIRE(lab.knightly({"submit", lab.toml("low", "dev", 4), "--db", lab.db.target, "--cache",
                        lab.cache, "--priority", "1"})
              .exit_code == 0);
  REQUIRE(lab.knightly({"submit", lab.toml("high", "weak", 4), "--db", lab.db.target, "--cache",
                        lab.cache, "--priority", "5"})
              .exit_code == 0);
  auto w = lab.work({"--until-empty"});
  w.wait(600);
  INFO(log_of(w));
  REQUIRE(w.exit_code() == 0);
  const auto order = lab.db.rows(
      "SELECT t.name FROM games g JOIN tournaments t ON t.id = g.tournament_id ORDER BY g.id");
  REQUIRE(order.size() == 8);
  for (std::size_t i = 0; i < order.size(); ++i) CHECK(order[i][0] == (i < 4 ? "high" : "low"));
  CHECK(w.out().find("Test 'high'") < w.out().find("Test 'low'"));
  // --tournament picks tests by name, as it picks the games of the other kinds.
  auto one = lab.knightly(
      {"query", "tests", "--db", lab.db.target, "--tournament", "low", "--format", "csv"});
  INFO(one.err);
  REQUIRE(one.exit_code == 0);
  CHECK(one.out.find(",low,complete,") != std::string::npos);
  CHECK(one.out.find(",high,") == std::string::npos);
  CHECK(lab.knightly({"query", "tests", "--db", lab.db.target, "--tournament", "lwo"}).exit_code ==
        1);
}

TEST_CASE("a worker killed mid-build leaves nothing that a later worker uses", "[queue][source]") {
  Lab lab;
  lab.repo.checkout("main");
  lab.repo.branch("slow");
  // The program is written, then the build goes on for a while: killed then, it is half-built.
  const std::string slow = lab.repo.commit(slow_build_commit(8, "alphabeta", 6000));
  lab.repo.checkout("main");
  REQUIRE(lab.knightly({"submit", lab.toml("slow", "slow", 2), "--db", lab.db.target, "--cache",
                        lab.cache})
              .exit_code == 0);
  auto first = lab.work();
  const fs::path builds = fs::path(lab.cache) / "builds";
  // Its build has compiled the program and sleeps: a .tmp directory with the program in it.
  fs::path half;
  REQUIRE(first.wait_while_running(
      [&] {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(builds, ec))
          if (e.path().filename().string().find(slow.substr(0, 12)) != std::string::npos &&
              e.path().filename().string().find(".tmp-") != std::string::npos &&
              fs::exists(e.path() / "engine")) {
            half = e.path();
            return true;
          }
        return false;
      },
      120));
  first.signal(SIGKILL);
  first.wait(30);
  CHECK(fs::exists(half));  // what the killed worker left
  CHECK(lab.db.count("SELECT count(*) FROM games") == 0);

  auto second = lab.work({"--until-empty"});
  second.wait(600);
  INFO(log_of(second));
  CHECK(second.exit_code() == 0);
  // It built the commit again rather than take the half-built program, and played.
  CHECK(std::regex_search(second.out(), std::regex("engine 'dev' \\(.* at " + slow.substr(0, 12) +
                                                   "\\): [^\n]*; built in [0-9.]+ s")));
  CHECK_FALSE(fs::exists(half));
  CHECK(lab.tests()["slow"]["state"].text == "complete");
  CHECK(lab.db.count("SELECT count(*) FROM games") == 2);
}

TEST_CASE("the time control is scaled by each worker's speed, stored and shown", "[queue][tc]") {
  Lab lab;
  // 0.5 s + 0.01 s at the reference speed; a worker 4x slower plays 2 s + 0.04 s. A pause
  // before each game gives the second worker time to join.
  const std::string config =
      lab.toml("scaled", "dev", 12, "tc = \"0.5+0.01\"\nreference_nps = 1000000\nwait_ms = 400\n");
  REQUIRE(lab.knightly({"submit", config, "--db", lab.db.target, "--cache", lab.cache}).exit_code ==
          0);
  auto slow = lab.work({"--until-empty"}, "TEST_ENGINE_NPS=250000");
  REQUIRE(slow.wait_while_running([&] { return lab.db.count("SELECT count(*) FROM games") >= 1; },
                                  300));
  auto normal = lab.work({"--until-empty"});
  for (auto* w : {&slow, &normal}) {
    w->wait(600);
    INFO(log_of(*w));
    CHECK(w->exit_code() == 0);
  }
  CHECK(slow.out().find("This worker's speed: 250000 nps") != std::string::npos);
  CHECK(slow.out().find("time controls x4.000 (reference 1000000 nps): 0.5+0.01 -> 2+0.04") !=
        std::string::npos);
  // Stored with the worker of every game, and the games' own time control says it.
  const auto rows = lab.db.rows(
      "SELECT w.tc_factor, w.nps, g.time_control FROM games g JOIN workers w ON w.id = "
      "g.worker_id ORDER BY g.id");
  REQUIRE(rows.size() == 12);
  std::set<std::string> factors;
  for (const auto& r : rows) {
    factors.insert(r[0]);
    CHECK(r[2] == (std::stod(r[0]) == 4.0 ? "2+0.04" : "0.5+0.01"));
  }
  CHECK(factors.size() == 2);  // both workers played
  auto q = lab.knightly({"query", "workers", "--db", lab.db.target, "--format", "json"});
  REQUIRE(q.exit_code == 0);
  bool slow_named = false;
  const Json doc = JsonReader(q.out).parse();
  for (const auto& w : doc["workers"].items) {
    if (w["nps"].kind != Json::Kind::Number) continue;
    if (w["nps"].number == 250000) {
      CHECK(w["tc_factor"].number == 4.0);
      slow_named = w["speed_note"].text.starts_with("slow: 0.40x the median 625000 nps");
    } else {
      CHECK(w["tc_factor"].number == 1.0);
    }
  }
  CHECK(slow_named);
}

TEST_CASE("knightly stop --all ends every worker after its game, and the tests stay open",
          "[queue]") {
  Lab lab;
  auto idle1 = lab.work();
  auto idle2 = lab.work();
  REQUIRE(idle1.wait_while_running(
      [&] { return idle1.out().find("Waiting for a test") != std::string::npos; }));
  // Enough games that the workers are still playing when they look for the stop (every 2 s
  // at most): 400 depth-2 games could all be over by then on a fast machine.
  REQUIRE(lab.knightly({"submit", lab.toml("long", "dev", 4000), "--db", lab.db.target, "--cache",
                        lab.cache})
              .exit_code == 0);
  // Both take it; once games are stored, every worker is told to stop.
  REQUIRE(idle1.wait_while_running([&] { return lab.db.count("SELECT count(*) FROM games") >= 2; },
                                   300));
  auto stop = lab.knightly({"stop", "--all", "--db", lab.db.target});
  INFO(stop.out << stop.err);
  CHECK(stop.exit_code == 0);
  for (auto* w : {&idle1, &idle2}) {
    w->wait(120);
    INFO(log_of(*w));
    CHECK(w->exit_code() == 0);
    CHECK(w->out().find("knightly stop --all: this worker stops.") != std::string::npos);
  }
  const long long played = lab.db.count("SELECT count(*) FROM games");
  CHECK(played < 4000);
  CHECK(lab.tests()["long"]["state"].text == "running");
  // A worker started after the stop plays on.
  auto later = lab.work();
  REQUIRE(later.wait_while_running(
      [&] { return lab.db.count("SELECT count(*) FROM games") > played; }, 300));
  later.signal(SIGINT);
  later.wait(120);
  CHECK(later.exit_code() == 130);
}

TEST_CASE("knightly stop NAME takes one test out of the queue: its worker goes on to the next",
          "[queue]") {
  Lab lab;
  REQUIRE(lab.knightly({"submit", lab.toml("long", "dev", 400), "--db", lab.db.target, "--cache",
                        lab.cache, "--priority", "2"})
              .exit_code == 0);
  REQUIRE(lab.knightly({"submit", lab.toml("next", "weak", 4), "--db", lab.db.target, "--cache",
                        lab.cache, "--priority", "1"})
              .exit_code == 0);
  const std::string long_games =
      "SELECT count(*) FROM games g JOIN tournaments t ON t.id = g.tournament_id "
      "WHERE t.name = 'long'";
  auto w = lab.work({"--until-empty"});
  REQUIRE(w.wait_while_running([&] { return lab.db.count(long_games) >= 2; }, 300));
  auto stop = lab.knightly({"stop", "long", "--db", lab.db.target});
  INFO(stop.out << stop.err);
  CHECK(stop.exit_code == 0);
  CHECK(stop.out.find("Stop requested for 'long'") != std::string::npos);
  // The worker finishes its game, leaves the stopped test and plays the next one to the end.
  w.wait(600);
  INFO(log_of(w));
  CHECK(w.exit_code() == 0);
  CHECK(w.out().find("Test 'next'") != std::string::npos);
  const long long played = lab.db.count(long_games);
  CHECK(played < 400);
  auto t = lab.tests();
  CHECK(t["long"]["state"].text == "stopped");
  CHECK(t["next"]["state"].text == "complete");
  CHECK(t["next"]["games"].number == 4);
  // Out of the queue: a new worker finds nothing open and plays no game of it.
  auto later = lab.work({"--until-empty"});
  later.wait(300);
  INFO(log_of(later));
  CHECK(later.exit_code() == 0);
  CHECK(lab.db.count(long_games) == played);
  CHECK(lab.tests()["long"]["state"].text == "stopped");
}

TEST_CASE("submit refuses a ref that names nothing, at once", "[queue][source]") {
  Lab lab;
  auto r = lab.submit_sprt("typo", "no-such-branch");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("ref 'no-such-branch' names no commit in " + lab.repo.path()) !=
        std::string::npos);
  CHECK_FALSE(fs::exists(lab.db.target));  // nothing was written anywhere
}

TEST_CASE(
    "scripts/slurm/knightly-work.sbatch: a job array of workers plays the queue on PostgreSQL",
    "[queue][slurm][postgresql]") {
  if (postgres_missing()) return;
  Lab lab(true);
  SlurmCluster slurm(lab.dir.file("slurm"));
  if (!slurm.unavailable().empty()) {
    WARN("skipped: " << slurm.unavailable());
    return;
  }
  REQUIRE(lab.knightly({"submit", lab.toml("first", "dev", 8), "--db", lab.db.target, "--cache",
                        lab.cache, "--priority", "2"})
              .exit_code == 0);
  REQUIRE(lab.knightly({"submit", lab.toml("second", "weak", 8), "--db", lab.db.target, "--cache",
                        lab.cache, "--priority", "1"})
              .exit_code == 0);
  std::string error;
  const std::string job =
      slurm.submit({"--array=1-2", "--cpus-per-task=1", "--output=" + lab.dir.file("task-%a.out"),
                    "--export=ALL,KNIGHTLY_DB=" + lab.db.target + ",KNIGHTLY=" + knightly_binary() +
                        ",KNIGHTLY_CACHE=" + lab.cache + ",KNIGHTLY_UNTIL_EMPTY=1",
                    source_dir() + "/scripts/slurm/knightly-work.sbatch"},
                   lab.dir.path(), &error);
  INFO(error << slurm.logs());
  REQUIRE(!job.empty());
  REQUIRE(slurm.wait_for(job, 600));
  std::string outputs;
  for (int task = 1; task <= 2; ++task)
    outputs += "== task " + std::to_string(task) + "\n" +
               tail(read_file(lab.dir.file("task-" + std::to_string(task) + ".out"))) + "\n";
  INFO(outputs);
  CHECK(slurm.exit_codes(job) == std::vector<int>{0, 0});
  auto t = lab.tests();
  CHECK(t["first"]["state"].text == "complete");
  CHECK(t["second"]["state"].text == "complete");
  CHECK(lab.db.count("SELECT count(*) FROM games") == 16);
  for (int task = 1; task <= 2; ++task)
    CHECK(read_file(lab.dir.file("task-" + std::to_string(task) + ".out"))
              .find("No open test: this worker stops") != std::string::npos);
}

TEST_CASE("a submitted SPEC's relative paths are taken from where it was submitted",
          "[queue][source]") {
  Lab lab;
  // Submitted from the lab's directory with a relative repository, played from elsewhere.
  auto r = run_process({knightly_binary(), "submit", "--new", "repo=engine ref=dev", "--base",
                        "repo=./engine ref=main", "--depth", "1", "--max-games", "4", "--name",
                        "relative", "--db", lab.db.target, "--cache", lab.cache},
                       300, lab.dir.path().string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(lab.db.value("SELECT definition FROM tests").find("repo=" + lab.repo.path() + " ref=dev") !=
        std::string::npos);
  auto w = run_process({knightly_binary(), "work", "--db", lab.db.target, "--cache", lab.cache,
                        "--until-empty", "--quiet"},
                       600, "/");
  INFO(w.out << w.err);
  CHECK(w.exit_code == 0);
  auto t = lab.tests()["relative"];
  CHECK(t["state"].text != "failed");
  CHECK(t["games"].number > 0);
  CHECK(t["new_commit"].text == lab.dev);
}

TEST_CASE("a worker whose test has every pair in play goes to another test rather than wait",
          "[queue]") {
  Lab lab;
  // Two pairs of slow games in the first test, one pair in the second.
  REQUIRE(lab.knightly({"submit", lab.toml("first", "dev", 4, "wait_ms = 4000\n"), "--db",
                        lab.db.target, "--cache", lab.cache, "--priority", "2"})
              .exit_code == 0);
  REQUIRE(lab.knightly({"submit", lab.toml("second", "weak", 2), "--db", lab.db.target, "--cache",
                        lab.cache, "--priority", "1"})
              .exit_code == 0);
  auto one = lab.work({"--until-empty"});
  REQUIRE(
      one.wait_while_running([&] { return lab.db.count("SELECT count(*) FROM games") >= 1; }, 300));
  // The second worker takes the first test's other pair; the first worker, done with its own,
  // finds no free pair there and plays the second test meanwhile.
  auto two = lab.work({"--until-empty"});
  for (auto* w : {&one, &two}) {
    w->wait(600);
    INFO(log_of(*w));
    CHECK(w->exit_code() == 0);
  }
  INFO("worker 1:\n" << log_of(one) << "\nworker 2:\n" << log_of(two));
  const std::string moved = "'first': every pair is in play elsewhere; on to another test.";
  CHECK((one.out().find(moved) != std::string::npos || two.out().find(moved) != std::string::npos));
  // The second test began while the first was still being played: its first game started
  // before the first test's last game ended (start + duration; not the order of the rows, which
  // a loaded machine's slower engine builds can swap without the worker having waited).
  CHECK(lab.db.count("SELECT count(*) FROM games s JOIN tournaments ts ON ts.id = s.tournament_id "
                     "WHERE ts.name = 'second' AND julianday(s.started_at) * 86400000.0 < "
                     "(SELECT max(julianday(f.started_at) * 86400000.0 + f.duration_ms) "
                     "FROM games f JOIN tournaments tf ON tf.id = f.tournament_id "
                     "WHERE tf.name = 'first')") >= 1);
  auto t = lab.tests();
  CHECK(t["first"]["state"].text == "complete");
  CHECK(t["second"]["state"].text == "complete");
}

TEST_CASE("a tune of an engine built from its source plays both sides at the stored commit",
          "[queue][source][tune]") {
  Lab lab;
  // The base commit's engine (knightly-engine behind a wrapper that passes setoption on), its
  // KnightValue tuned for four iterations (docs/tuning.md).
  const std::string path = lab.dir.file("tune.toml");
  write_file(path,
             "[tournament]\nname = \"src-tune\"\nseed = 3\nmaxmoves = 30\ndepth = 1\n"
             "[openings]\nrandom_plies = 2\n"
             "[[engine]]\nname = \"src\"\nrepo = \"" +
                 lab.repo.path() +
                 "\"\nref = \"main\"\n"
                 "[tune]\nengine = \"src\"\niterations = 4\ndelay = 0\n"
                 "[[tune.param]]\nname = \"KnightValue\"\nstart = 300\nmin = 0\nmax = 1000\n"
                 "c_end = 20\nr_end = 0.05\n");
  auto r =
      lab.knightly({"tune", path, "--db", lab.db.target, "--cache", lab.cache, "--quiet"}, 600);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Tune of src after 4 of 4 iterations") != std::string::npos);
  // Both sides are the commit the tune stored, and every iteration counted its two games.
  CHECK(lab.db.count("SELECT count(*) FROM games") == 8);
  CHECK(lab.db.count("SELECT count(*) FROM games g JOIN engines w ON w.id = g.white_id "
                     "JOIN engines b ON b.id = g.black_id WHERE w.source_commit <> '" +
                     lab.base + "' OR b.source_commit <> '" + lab.base + "'") == 0);
  CHECK(lab.db.count("SELECT count(DISTINCT name) FROM engines WHERE name IN ('src+', 'src-')") ==
        2);
  CHECK(lab.db.count("SELECT count(*) FROM tune_iterations WHERE wins + draws + losses = 2") == 4);
}
