// SourceCache against real git repositories and real builds: a small engine written by the
// test (tests/support/engine_repo.h), built with make and c++, its bench run.
#include "runner/source/source_cache.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "runner/source/command.h"
#include "tests/support/engine_repo.h"
#include "tests/support/process.h"

using namespace knightly::runner;
using namespace knightly::test;
namespace fs = std::filesystem;

namespace {

EngineSource source_of(const EngineRepo& repo, const std::string& ref) {
  EngineSource s;
  s.repo = repo.path();
  s.ref = ref;
  return s;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("a ref of a local repository is resolved, built with make EXE={exe}, and reused",
          "[source]") {
  TempDir dir;
  EngineRepo repo(dir.file("engine"));
  const std::string base = repo.commit(engine_commit("greedy", 1111));
  SourceCache cache(dir.file("cache"));

  auto c = cache.resolve(source_of(repo, "main"));
  REQUIRE(c);
  CHECK(c->sha == base);
  CHECK(c->subject() == "Search greedy (commit 1)");
  CHECK(expected_bench(source_of(repo, "main"), *c) == 1111u);

  auto built = cache.build(source_of(repo, "main"), c->sha);
  INFO((built ? "" : built.error().message));
  REQUIRE(built);
  CHECK_FALSE(built->reused);
  CHECK(fs::is_regular_file(built->program));
  CHECK(fs::path(built->directory).filename().string() ==
        cache.build_name(source_of(repo, "main"), c->sha));
  CHECK(fs::path(built->directory).filename().string().find(base.substr(0, 12)) !=
        std::string::npos);
  // No build directory but the finished one, no .tmp left.
  CHECK(entries(dir.file("cache") + "/builds") ==
        std::vector<std::string>{fs::path(built->directory).filename().string(),
                                 fs::path(built->directory).filename().string() + ".lock"});

  // The program is the engine: its bench, and a UCI dialogue through knightly-engine.
  auto bench = run_bench(built->program, std::chrono::seconds(60));
  REQUIRE(bench);
  CHECK(bench->figures.nodes == 1111);
  CHECK(bench->nps == 1000000.0);
  ChildProcess engine({built->program});
  engine.send("uci");
  CHECK(engine.expect("uciok") == "uciok");
  engine.send("position startpos");
  engine.send("go depth 1");
  CHECK(engine.expect("bestmove").starts_with("bestmove "));
  engine.send("quit");

  // Again: the same program, not built a second time (its file is untouched).
  const auto mtime = fs::last_write_time(built->program);
  auto again = cache.build(source_of(repo, base), base);
  REQUIRE(again);
  CHECK(again->reused);
  CHECK(again->program == built->program);
  CHECK(fs::last_write_time(again->program) == mtime);

  // A new commit on the branch: resolving fetches it; it builds in a directory of its own.
  const std::string dev = repo.commit(engine_commit("alphabeta", 2222));
  auto moved = cache.resolve(source_of(repo, "main"));
  REQUIRE(moved);
  CHECK(moved->sha == dev);
  auto dev_built = cache.build(source_of(repo, "main"), dev);
  REQUIRE(dev_built);
  CHECK(dev_built->program != built->program);
  auto dev_bench = run_bench(dev_built->program, std::chrono::seconds(60));
  REQUIRE(dev_bench);
  CHECK(dev_bench->figures.nodes == 2222);
  // The old commit is still there by its id.
  auto old = cache.commit(source_of(repo, "main"), base);
  REQUIRE(old);
  CHECK(old->sha == base);

  // Another build command is another build.
  EngineSource other = source_of(repo, dev);
  other.build = "make EXE={exe} CXX=c++";
  CHECK(cache.build_name(other, dev) != cache.build_name(source_of(repo, dev), dev));
}

TEST_CASE("a ref that names nothing, and a build that fails, are refused with the reason",
          "[source]") {
  TempDir dir;
  EngineRepo repo(dir.file("engine"));
  repo.commit({});
  SourceCache cache(dir.file("cache"));
  auto missing = cache.resolve(source_of(repo, "no-such-branch"));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == SourceError::Kind::Refused);
  CHECK(missing.error().message.find("'no-such-branch' names no commit in " + repo.path()) !=
        std::string::npos);

  const std::string broken = repo.commit(broken_commit());
  auto failed = cache.build(source_of(repo, broken), broken);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().kind == SourceError::Kind::Refused);
  const std::string& m = failed.error().message;
  INFO(m);
  CHECK(m.find("the build of " + repo.path() + " at " + broken.substr(0, 12) + " failed") !=
        std::string::npos);
  // The build's own last lines: the compiler's error and make's.
  CHECK(m.find("this_does_not_compile") != std::string::npos);
  CHECK(m.find("Error") != std::string::npos);
  // Nothing half-built is left to be used; the log is kept.
  const std::string name = cache.build_name(source_of(repo, broken), broken);
  CHECK(entries(dir.file("cache") + "/builds") ==
        std::vector<std::string>{name + ".failed.log", name + ".lock"});

  // A repository that is not there is this machine's problem to report, not a refusal.
  EngineSource nowhere;
  nowhere.repo = dir.file("nowhere");
  nowhere.ref = "main";
  auto gone = cache.resolve(nowhere);
  REQUIRE_FALSE(gone);
  CHECK(gone.error().kind == SourceError::Kind::Local);
  CHECK(gone.error().message.find("fetching " + dir.file("nowhere")) != std::string::npos);
}

TEST_CASE("a Bench: line that the bench does not match is refused naming both numbers",
          "[source][bench]") {
  TempDir dir;
  EngineRepo repo(dir.file("engine"));
  const std::string sha =
      repo.commit(engine_commit("greedy", 123456, "Tune the search\n\nBench: 999999\n"));
  SourceCache cache(dir.file("cache"));
  auto c = cache.commit(source_of(repo, sha), sha);
  REQUIRE(c);
  auto built = cache.build(source_of(repo, sha), sha);
  REQUIRE(built);
  auto bench = run_bench(built->program, std::chrono::seconds(60));
  REQUIRE(bench);
  const auto expected = expected_bench(source_of(repo, sha), *c);
  REQUIRE(expected == 999999u);
  auto refusal = check_bench(bench->figures.nodes, *expected, "engine 'New'", source_of(repo, sha));
  REQUIRE(refusal);
  CHECK(refusal->kind == SourceError::Kind::Refused);
  CHECK(refusal->message.find("123456 nodes") != std::string::npos);
  CHECK(refusal->message.find("Bench: 999999") != std::string::npos);
  // bench= overrides the message.
  EngineSource given = source_of(repo, sha);
  given.bench = 123456;
  CHECK(expected_bench(given, *c) == 123456u);
  CHECK_FALSE(check_bench(bench->figures.nodes, *expected_bench(given, *c), "New", given));
}

TEST_CASE("a build left half-done by a killed builder is never used: the next one builds anew",
          "[source]") {
  TempDir dir;
  EngineRepo repo(dir.file("engine"));
  const std::string sha = repo.commit(engine_commit("greedy", 4242));
  SourceCache cache(dir.file("cache"));
  // What a builder killed mid-build leaves: its .tmp directory with a program already written
  // (a broken one here) and no finished directory.
  const std::string name = cache.build_name(source_of(repo, sha), sha);
  const fs::path stale = fs::path(dir.file("cache")) / "builds" / (name + ".tmp-999999");
  fs::create_directories(stale);
  write_file((stale / "engine").string(), "#!/bin/sh\necho half-built\nexit 1\n");
  fs::permissions(stale / "engine", fs::perms::owner_all);

  auto built = cache.build(source_of(repo, sha), sha);
  REQUIRE(built);
  CHECK_FALSE(built->reused);
  CHECK_FALSE(fs::exists(stale));
  auto bench = run_bench(built->program, std::chrono::seconds(60));
  REQUIRE(bench);
  CHECK(bench->figures.nodes == 4242);
}

TEST_CASE("two builders of one commit on one machine build it once", "[source]") {
  TempDir dir;
  EngineRepo repo(dir.file("engine"));
  // The build takes a second after its compile, so the second builder arrives during it.
  const std::string sha = repo.commit(slow_build_commit(1));
  std::expected<BuiltEngine, SourceError> a = std::unexpected(SourceError{}),
                                          b = std::unexpected(SourceError{});
  std::thread first([&] { a = SourceCache(dir.file("cache")).build(source_of(repo, sha), sha); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::thread second([&] { b = SourceCache(dir.file("cache")).build(source_of(repo, sha), sha); });
  first.join();
  second.join();
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->program == b->program);
  CHECK(a->reused != b->reused);  // one built it, the other waited and took it
}

TEST_CASE("a build told to stop is ended and leaves nothing", "[source]") {
  TempDir dir;
  EngineRepo repo(dir.file("engine"));
  const std::string sha = repo.commit(slow_build_commit(60));
  std::atomic<bool> stop{false};
  SourceCache cache(dir.file("cache"), [&] { return stop.load(); });
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  auto built = cache.build(source_of(repo, sha), sha);
  stopper.join();
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));
  REQUIRE_FALSE(built);
  CHECK(built.error().kind == SourceError::Kind::Local);
  const std::string name = cache.build_name(source_of(repo, sha), sha);
  CHECK(entries(dir.file("cache") + "/builds") == std::vector<std::string>{name + ".lock"});
}

TEST_CASE("commands run without a shell, killed at their timeout", "[source]") {
  // A word with a blank and a '$' reaches the program as one argument, unexpanded.
  auto echo = run_command({"printf", "%s|", "a b", "$HOME"});
  REQUIRE(echo.ok);
  CHECK(echo.output == "a b|$HOME|");
  CommandOptions quick;
  quick.timeout = std::chrono::milliseconds(300);
  auto slow = run_command({"sleep", "30"}, quick);
  CHECK(slow.timed_out);
  CHECK_FALSE(slow.ok);
  auto missing = run_command({"/no/such/program"});
  CHECK_FALSE(missing.started);
  CHECK(missing.error.find("/no/such/program") != std::string::npos);
  CHECK(last_lines("a\nb\nc\n", 2) == "b\nc");
  CHECK(command_text({"make", "-j", "EXE=/a b/c"}) == "make -j 'EXE=/a b/c'");
}

TEST_CASE(
    "an engine in a subdirectory is built there, and a build's key holds the compiler and "
    "its flags",
    "[source]") {
  TempDir dir;
  EngineRepo repo(dir.file("engine"));
  EngineCommit in_src = engine_commit("greedy", 3333);
  in_src.subdir = "src";
  const std::string sha = repo.commit(in_src);
  SourceCache cache(dir.file("cache"));

  // The Makefile is in src/ only: built there, the program is the engine.
  EngineSource s = source_of(repo, sha);
  s.subdir = "src";
  auto built = cache.build(s, sha);
  INFO((built ? "" : built.error().message));
  REQUIRE(built);
  auto bench = run_bench(built->program, std::chrono::seconds(60));
  REQUIRE(bench);
  CHECK(bench->figures.nodes == 3333);
  // At the top, make finds no Makefile: the build fails naming where it ran.
  auto top = cache.build(source_of(repo, sha), sha);
  REQUIRE_FALSE(top);
  CHECK(top.error().message.find("failed") != std::string::npos);
  CHECK(top.error().message.find(dir.file("cache")) != std::string::npos);
  // A subdirectory the commit does not have is refused by name.
  EngineSource nope = s;
  nope.subdir = "nope";
  auto missing = cache.build(nope, sha);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("subdir 'nope' is not a directory of") != std::string::npos);
  CHECK(cache.build_name(nope, sha) != cache.build_name(s, sha));

  // The compiler (its version line) and the flags are part of the build's key: a cache made
  // under another CXX or CXXFLAGS builds anew (the CPU's flags are too, read from
  // /proc/cpuinfo: not something a test can change).
  const std::string plain = SourceCache(dir.file("cache")).build_name(s, sha);
  const auto under = [&](const char* name, const char* value) {
    const char* old = std::getenv(name);
    const std::string kept = old ? old : "";
    ::setenv(name, value, 1);
    const std::string key = SourceCache(dir.file("cache")).build_name(s, sha);
    if (old)
      ::setenv(name, kept.c_str(), 1);
    else
      ::unsetenv(name);
    return key;
  };
  CHECK(under("CXXFLAGS", "-O1 -march=x86-64") != plain);
  CHECK(under("CFLAGS", "-O1") != plain);
  CHECK(under("CXX", "g++") != plain);
  CHECK(SourceCache(dir.file("cache")).build_name(s, sha) == plain);
}
