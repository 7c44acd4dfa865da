#pragma once
// A small engine in a git repository of its own, written by the test (issue 28's tests build
// engines from their source): engine.cpp is a UCI program that becomes knightly-engine (exec)
// while a child of it tells it its strength (strength.h: setoption lines) and then passes the
// GUI's lines on; it
// answers `bench` as Stockfish does ("Nodes searched : N", "Nodes/second : R") with N from
// strength.h and R = $TEST_ENGINE_NPS (default 1000000: a worker can be slowed on purpose).
// The Makefile honours EXE= (OpenBench's `make -j EXE=...`); the program is built with c++.
#include <string>
#include <vector>

namespace knightly::test {

// How one commit of the engine plays and builds.
struct EngineCommit {
  std::string search = "greedy";  // knightly-engine's Search option
  std::string eval = "material+pst";
  unsigned long long bench = 100000;  // what `bench` prints as its node count
  std::string message;                // the commit message ("" = a generated one)
  bool broken = false;                // engine.cpp does not compile
  int build_sleep_s = 0;              // the build sleeps this long after the compile
  std::string subdir;                 // the directory of the repository the files go in
};

// The commits the tests make.
inline EngineCommit engine_commit(std::string search, unsigned long long bench,
                                  std::string message = "") {
  EngineCommit c;
  c.search = std::move(search);
  c.bench = bench;
  c.message = std::move(message);
  return c;
}
inline EngineCommit broken_commit() {
  EngineCommit c;
  c.broken = true;
  return c;
}
inline EngineCommit slow_build_commit(int seconds, std::string search = "greedy",
                                      unsigned long long bench = 100000) {
  EngineCommit c = engine_commit(std::move(search), bench);
  c.build_sleep_s = seconds;
  return c;
}

class EngineRepo {
 public:
  // A new repository at `dir` (made), with no commit yet.
  explicit EngineRepo(std::string dir);
  // Writes the files for `c` and commits them on the current branch; returns the commit id.
  std::string commit(const EngineCommit& c);
  // A branch at the current commit, then checked out.
  void branch(const std::string& name);
  void checkout(const std::string& ref);
  const std::string& path() const { return dir_; }

 private:
  void git(const std::vector<std::string>& args);
  std::string dir_;
  int commits_ = 0;
};

}  // namespace knightly::test
