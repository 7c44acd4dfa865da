#pragma once
// Engines from their source (docs/regression-testing.md): a git repository and a ref become a
// program, built once per machine and reused. On disk, under the cache's root:
//   git/NAME-HASH.git        a mirror of each repository (fetched when a ref must be resolved
//                            or a commit is missing), under NAME-HASH.git.lock
//   builds/NAME-COMMIT-KEY/  one finished build: src/ (the checkout), the program, build.log;
//                            KEY hashes (repository, commit, build command, subdirectory,
//                            compiler, CPU flags), so another compiler or machine builds anew
// A build runs in builds/NAME-COMMIT-KEY.tmp-PID and is renamed into place only when it has
// succeeded and left its program: a worker killed mid-build leaves a .tmp directory that no
// one uses (the next builder removes it). builds/NAME-COMMIT-KEY.lock makes two workers on one
// machine build once: the second waits and reuses. git and the build are exec'd directly, no
// shell (runner/source/command.h); the build command is split into words like a shell would
// ("make -j EXE={exe}") and {exe} replaced in each word.
#include <chrono>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "runner/config/config.h"
#include "runner/source/bench_output.h"

namespace knightly::runner {

// What went wrong with a source, and whose problem it is.
struct SourceError {
  enum class Kind {
    Refused,  // the test's: a ref that names no commit, a build that fails, a bench that differs
    Local,    // this machine's: the cache cannot be written, git or the build tool is missing,
              // the repository cannot be fetched from here, or the worker was told to stop
  };
  Kind kind = Kind::Refused;
  std::string message;  // what, where and why; a failed build's last lines included
};

struct SourceCommit {
  std::string sha;              // full SHA-1
  std::string message;          // the commit message
  std::string subject() const;  // its first line
};

struct BuiltEngine {
  std::string program;    // the absolute path of the built program
  std::string directory;  // its build directory
  bool reused = false;    // built before (by this worker or another on this machine)
};

class SourceCache {
 public:
  // `root` is created when first written. `cancelled`, polled during git and builds, ends them
  // (a worker told to stop).
  explicit SourceCache(std::filesystem::path root, std::function<bool()> cancelled = {});
  // $KNIGHTLY_CACHE, else $XDG_CACHE_HOME/knightly, else ~/.cache/knightly.
  static std::filesystem::path default_root();
  // The directory the user named (--cache DIR), else default_root().
  static std::filesystem::path root_or_default(const std::string& named);
  const std::filesystem::path& root() const { return root_; }

  // The commit `source.ref` names now: the mirror is fetched first (a branch moves), unless
  // the ref is a full SHA-1 the mirror already has.
  std::expected<SourceCommit, SourceError> resolve(const EngineSource& source);
  // Commit `sha` of `source.repo` (resolved by another worker or by `knightly submit`),
  // fetched when this machine's mirror lacks it.
  std::expected<SourceCommit, SourceError> commit(const EngineSource& source,
                                                  const std::string& sha);
  // The program built from commit `sha`: this machine's earlier build, or a new one.
  std::expected<BuiltEngine, SourceError> build(const EngineSource& source, const std::string& sha);
  // The build's directory name, builds/NAME-COMMIT-KEY (what the cache is keyed by).
  std::string build_name(const EngineSource& source, const std::string& sha);

 private:
  std::expected<std::filesystem::path, SourceError> mirror(const EngineSource& source,
                                                           const std::string& want_sha);
  std::expected<std::string, SourceError> git(const std::vector<std::string>& args,
                                              const std::string& what);
  const std::string& toolchain();

  std::filesystem::path root_;
  std::function<bool()> cancelled_;
  std::optional<std::string> toolchain_;
};

// Runs `program bench` (in its directory) and reads its node count and speed: the engine's
// nps when it prints one, else nodes / its total time, else nodes / the wall time. Refused
// when the bench fails or prints no node count.
struct BenchRun {
  BenchFigures figures;
  double nps = 0;
  std::chrono::milliseconds elapsed{0};
};
std::expected<BenchRun, SourceError> run_bench(const std::string& program,
                                               std::chrono::milliseconds timeout,
                                               const std::function<bool()>& cancelled = {});

// The node count a test expects of an engine: bench= when given, else the commit message's
// "Bench: N"; nullopt when neither says.
std::optional<std::uint64_t> expected_bench(const EngineSource& source, const SourceCommit& commit);

// A refusal naming both numbers when `measured` is not `expected`; `who` names the engine
// ("engine 'New' (repo at abc1234)").
std::optional<SourceError> check_bench(std::uint64_t measured, std::uint64_t expected,
                                       const std::string& who, const EngineSource& source);

}  // namespace knightly::runner
