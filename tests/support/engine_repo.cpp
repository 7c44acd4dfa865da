#include "tests/support/engine_repo.h"

#include <filesystem>
#include <stdexcept>

#include "tests/support/process.h"

namespace knightly::test {
namespace {

const char* kEngineCpp = R"(// A test engine: knightly-engine at the strength strength.h gives.
#include <sys/types.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "strength.h"

static bool write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) return false;
    p += w;
    n -= size_t(w);
  }
  return true;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "bench") == 0) {
    const char* nps = std::getenv("TEST_ENGINE_NPS");
    std::fprintf(stderr, "===========================\nTotal time (ms) : 1000\n"
                 "Nodes searched  : %llu\nNodes/second    : %s\n",
                 (unsigned long long)BENCH_NODES, nps && *nps ? nps : "1000000");
    return 0;
  }
  // knightly-engine takes this process's place (so that it ends when the engine does, at
  // `quit`); a child passes the strength and then the GUI's lines to it.
  int p[2];
  if (pipe(p) != 0) return 1;
  pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    close(p[0]);
    const char* setup = ENGINE_OPTIONS;
    write_all(p[1], setup, std::strlen(setup));
    char buf[4096];
    for (;;) {
      ssize_t n = read(0, buf, sizeof buf);
      if (n <= 0 || !write_all(p[1], buf, size_t(n))) break;
    }
    _exit(0);
  }
  dup2(p[0], 0);
  close(p[0]);
  close(p[1]);
  execl(KNIGHTLY_ENGINE, "knightly-engine", (char*)0);
  return 127;
}
)";

// run_process takes a path (posix_spawn, no PATH lookup).
std::string git_program() {
  for (const char* p : {"/usr/bin/git", "/usr/local/bin/git", "/bin/git"})
    if (std::filesystem::exists(p)) return p;
  return "/usr/bin/git";
}

}  // namespace

EngineRepo::EngineRepo(std::string dir) : dir_(std::move(dir)) {
  std::filesystem::create_directories(dir_);
  git({"init", "--quiet", "--initial-branch=main"});
}

void EngineRepo::git(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {git_program(),
                                   "-C",
                                   dir_,
                                   "-c",
                                   "user.name=Knightly Test",
                                   "-c",
                                   "user.email=test@knightly.invalid"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = run_process(argv, 60);
  if (r.exit_code != 0)
    throw std::runtime_error("git " + args.front() + " in " + dir_ + " failed: " + r.out + r.err);
}

std::string EngineRepo::commit(const EngineCommit& c) {
  ++commits_;
  std::string cpp = kEngineCpp;
  if (c.broken) cpp += "\nint this_does_not_compile = ;\n";
  const std::string at = c.subdir.empty() ? dir_ : dir_ + "/" + c.subdir;
  std::filesystem::create_directories(at);
  write_file(at + "/engine.cpp", cpp);
  write_file(at + "/strength.h", "#define ENGINE_OPTIONS \"setoption name Search value " +
                                     c.search + "\\nsetoption name Eval value " + c.eval +
                                     "\\n\"\n#define BENCH_NODES " + std::to_string(c.bench) +
                                     "ULL\n");
  std::string make =
      "EXE ?= engine\nCXX ?= c++\nKNIGHTLY_ENGINE ?= " + engine_binary() +
      "\n$(EXE): engine.cpp strength.h\n\t$(CXX) -O1 -DKNIGHTLY_ENGINE='\"$(KNIGHTLY_ENGINE)\"' "
      "-o $(EXE) engine.cpp\n";
  if (c.build_sleep_s > 0) make += "\tsleep " + std::to_string(c.build_sleep_s) + "\n";
  write_file(at + "/Makefile", make);
  git({"add", "-A", "."});
  const std::string message = c.message.empty()
                                  ? "Search " + c.search + " (commit " + std::to_string(commits_) +
                                        ")\n\nBench: " + std::to_string(c.bench) + "\n"
                                  : c.message;
  git({"commit", "--quiet", "--allow-empty", "-m", message});
  auto r = run_process({git_program(), "-C", dir_, "rev-parse", "HEAD"}, 60);
  std::string sha = r.out;
  while (!sha.empty() && (sha.back() == '\n' || sha.back() == '\r')) sha.pop_back();
  return sha;
}

void EngineRepo::branch(const std::string& name) {
  git({"checkout", "--quiet", "-B", name});
}

void EngineRepo::checkout(const std::string& ref) {
  git({"checkout", "--quiet", ref});
}

}  // namespace knightly::test
