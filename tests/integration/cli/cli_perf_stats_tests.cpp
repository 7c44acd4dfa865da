// --perf-stats: the runner's own figures after a real match (what scripts/bench-runner reads):
// games, plies and CPU, and when the first `go` went out; where the engines' hashes are cached.
#include <catch2/catch.hpp>
#include <regex>

#include "sqlite_probe.h"
#include "tests/support/process.h"

using namespace knightly::test;

TEST_CASE("perf stats give the runner's CPU per ply and its start-up to the first go",
          "[cli][perf]") {
  TempDir dir;
  for (const bool uci : {false, true}) {
    const std::string engine = uci ? "cmd=" + engine_binary() : "builtin=ab";
    auto r = run_process({knightly_binary(), "play", "-engine", engine, "name=a", "-engine", engine,
                          "name=b", "-each", "depth=1", "-games", "2", "-maxmoves", "10",
                          "--perf-stats", "--quiet", "-db", dir.file(uci ? "u.db" : "b.db")},
                         300);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    std::smatch runner;
    REQUIRE(std::regex_search(r.out, runner,
                              std::regex(R"(Runner: 2 games, ([0-9]+) engine moves in [0-9.]+ s)"
                                         R"( \([0-9.]+ games/s\); own CPU ([0-9.]+) s)")));
    CHECK(std::stoi(runner[1]) > 0);
    std::smatch start;
    REQUIRE(std::regex_search(
        r.out, start,
        std::regex(R"(Start-up: first go ([0-9.]+) s after the process started, own CPU by )"
                   R"(then ([0-9.]+) s)")));
    // The first go comes after some start-up and before the end: both figures are a part of
    // the whole run's.
    CHECK(std::stod(start[1]) > 0.0);
    CHECK(std::stod(start[2]) <= std::stod(runner[2]));
  }
}

TEST_CASE("the engine programs' hashes are cached in the directory --cache names", "[cli][cache]") {
  // A run remembers each engine program's hash in the user's cache, so that the next run on
  // another database need not read the program again: in the directory --cache names, like
  // everything else Knightly caches, not in the default one.
  TempDir dir;
  const std::string cache = dir.file("my-cache");
  auto r =
      run_process({knightly_binary(), "play", "-engine", "cmd=" + engine_binary(), "name=a",
                   "-engine", "cmd=" + engine_binary(), "name=b", "-each", "depth=1", "-games", "2",
                   "-maxmoves", "4", "--quiet", "--cache", cache, "-db", dir.file("k.db")},
                  300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("k.db"));
  const auto hashes = db.rows("SELECT DISTINCT binary_sha256 FROM engines");
  REQUIRE(hashes.size() == 1);
  const std::string hash = hashes[0][0];
  REQUIRE(hash.size() == 64);
  const std::string file = read_file(cache + "/binary-hashes");
  CHECK(file.find(hash + "\n") != std::string::npos);
}
