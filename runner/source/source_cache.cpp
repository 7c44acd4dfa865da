#include "runner/source/source_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include "db/store/sha256.h"
#include "runner/config/engine_source.h"
#include "runner/config/engine_words.h"
#include "runner/source/command.h"

namespace knightly::runner {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kLogLines = 25;  // of a failed build, in its error

SourceError refused(std::string message) {
  return {SourceError::Kind::Refused, std::move(message)};
}
SourceError local(std::string message) {
  return {SourceError::Kind::Local, std::move(message)};
}

bool is_full_sha(const std::string& ref) {
  if (ref.size() != 40) return false;
  for (char c : ref)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string short_sha(const std::string& sha) {
  return sha.substr(0, 12);
}

// A file name from the repository's last component: letters, digits, '-', '_' and '.'.
std::string repository_name(const std::string& repo) {
  EngineSource named;
  named.repo = repo;
  named.ref = "x";
  std::string name = source_engine_name(named);
  name.resize(name.size() - 2);  // "@x"
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  if (name.empty() || name[0] == '.') name = "engine" + name;
  return name;
}

// An exclusive lock on `path` for as long as the object lives (flock: the kernel gives it up
// when the process dies, so a killed worker never holds one). Waits, polling `cancelled`.
class FileLock {
 public:
  static std::expected<FileLock, SourceError> take(const fs::path& path,
                                                   const std::function<bool()>& cancelled) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      return std::unexpected(
          local("cannot open the lock " + path.string() + ": " + std::strerror(errno)));
    FileLock lock(fd);
    for (;;) {
      if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return lock;
      if (errno != EWOULDBLOCK && errno != EINTR)
        return std::unexpected(local("cannot lock " + path.string() + ": " + std::strerror(errno)));
      if (cancelled && cancelled())
        return std::unexpected(local("stopped while waiting for " + path.string()));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the flock
  }

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

std::optional<SourceError> make_directories(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    return local("cannot make the cache directory " + dir.string() + ": " +
                 (ec ? ec.message() : std::string("not a directory")));
  return std::nullopt;
}

// The first line a program prints for --version ("" when it is not there).
std::string version_line(const std::string& program) {
  CommandOptions o;
  o.timeout = std::chrono::seconds(20);
  auto r = run_command({program, "--version"}, o);
  if (!r.ok) return "";
  return r.output.substr(0, r.output.find('\n'));
}

// The CPU's feature flags (x86 "flags", ARM "Features"): a build with -march=native differs.
std::string cpu_flags() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("flags") || line.starts_with("Features"))
      return line.substr(line.find(':') == std::string::npos ? 0 : line.find(':') + 1);
  return "";
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

std::string SourceCommit::subject() const {
  return message.substr(0, message.find('\n'));
}

SourceCache::SourceCache(fs::path root, std::function<bool()> cancelled)
    : root_(std::move(root)), cancelled_(std::move(cancelled)) {}

fs::path SourceCache::root_or_default(const std::string& named) {
  return named.empty() ? default_root() : fs::path(named);
}

fs::path SourceCache::default_root() {
  if (const char* c = std::getenv("KNIGHTLY_CACHE"); c && *c) return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "knightly";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "knightly";
  return fs::temp_directory_path() / "knightly-cache";
}

std::expected<std::string, SourceError> SourceCache::git(const std::vector<std::string>& args,
                                                         const std::string& what) {
  std::vector<std::string> argv{"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  CommandOptions o;
  // Never a prompt for a password: a worker has no one to answer it.
  o.env = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}};
  o.timeout = std::chrono::minutes(10);
  o.cancelled = cancelled_;
  auto r = run_command(argv, o);
  if (!r.started) return std::unexpected(local(what + ": cannot run git: " + r.error));
  if (r.cancelled) return std::unexpected(local(what + ": stopped"));
  if (!r.ok)
    return std::unexpected(local(what + ": `" + command_text(argv) + "` failed (" + r.status +
                                 "):\n" + last_lines(r.output, 8)));
  return r.output;
}

std::expected<fs::path, SourceError> SourceCache::mirror(const EngineSource& source,
                                                         const std::string& want_sha) {
  const fs::path dir = root_ / "git";
  if (auto e = make_directories(dir)) return std::unexpected(*e);
  const std::string name =
      repository_name(source.repo) + "-" + db::sha256_hex(source.repo).substr(0, 16) + ".git";
  const fs::path path = dir / name;
  auto lock = FileLock::take(dir / (name + ".lock"), cancelled_);
  if (!lock) return std::unexpected(lock.error());
  std::error_code ec;
  if (!fs::exists(path / "HEAD", ec)) {
    // Cloned beside its place and renamed: an interrupted clone is never taken for a mirror.
    const fs::path tmp = dir / (name + ".tmp-" + std::to_string(::getpid()));
    fs::remove_all(tmp, ec);
    auto cloned = git({"clone", "--mirror", "--quiet", "--", source.repo, tmp.string()},
                      "fetching " + source.repo);
    if (!cloned) {
      fs::remove_all(tmp, ec);
      return std::unexpected(cloned.error());
    }
    fs::rename(tmp, path, ec);
    if (ec)
      return std::unexpected(
          local("cannot move " + tmp.string() + " to " + path.string() + ": " + ec.message()));
    return path;
  }
  if (!want_sha.empty() &&
      git({"--git-dir=" + path.string(), "cat-file", "-e", want_sha + "^{commit}"}, "looking up")) {
    return path;  // has it already: no fetch
  }
  auto fetched = git({"--git-dir=" + path.string(), "fetch", "--quiet", "--prune", "origin"},
                     "fetching " + source.repo);
  if (!fetched) return std::unexpected(fetched.error());
  return path;
}

std::expected<SourceCommit, SourceError> SourceCache::resolve(const EngineSource& source) {
  auto m = mirror(source, is_full_sha(source.ref) ? source.ref : "");
  if (!m) return std::unexpected(m.error());
  auto sha = git({"--git-dir=" + m->string(), "rev-parse", "--verify", "--quiet",
                  "--end-of-options", source.ref + "^{commit}"},
                 "resolving " + source.ref);
  if (!sha)
    return std::unexpected(refused("ref '" + source.ref + "' names no commit in " + source.repo));
  std::string s = *sha;
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return commit(source, s);
}

std::expected<SourceCommit, SourceError> SourceCache::commit(const EngineSource& source,
                                                             const std::string& sha) {
  if (!is_full_sha(sha))
    return std::unexpected(refused("'" + sha + "' is not a full commit id (40 hex digits)"));
  auto m = mirror(source, sha);
  if (!m) return std::unexpected(m.error());
  auto message = git({"--git-dir=" + m->string(), "show", "-s", "--format=%B", sha},
                     "reading commit " + short_sha(sha));
  if (!message) return std::unexpected(refused("commit " + sha + " is not in " + source.repo));
  return SourceCommit{sha, *message};
}

const std::string& SourceCache::toolchain() {
  if (!toolchain_) {
    struct utsname u {};
    ::uname(&u);
    toolchain_ = "CXX " + version_line(env_or("CXX", "c++")) + "\nCC " +
                 version_line(env_or("CC", "cc")) + "\nCXXFLAGS " + env_or("CXXFLAGS", "") +
                 "\nCFLAGS " + env_or("CFLAGS", "") + "\nmachine " + u.machine + "\ncpu " +
                 cpu_flags();
  }
  return *toolchain_;
}

std::string SourceCache::build_name(const EngineSource& source, const std::string& sha) {
  const std::string key =
      db::sha256_hex("repo " + source.repo + "\ncommit " + sha + "\nbuild " + source.build +
                     "\nsubdir " + source.subdir + "\n" + toolchain());
  return repository_name(source.repo) + "-" + short_sha(sha) + "-" + key.substr(0, 16);
}

std::expected<BuiltEngine, SourceError> SourceCache::build(const EngineSource& source,
                                                           const std::string& sha) {
  const fs::path builds = root_ / "builds";
  const std::string name = build_name(source, sha);
  const fs::path dir = builds / name;
  const std::string program_name = repository_name(source.repo);
  const fs::path program = dir / program_name;
  const auto finished = [&] {
    std::error_code ec;
    return fs::is_regular_file(program, ec) && ::access(program.c_str(), X_OK) == 0;
  };
  // A finished build is only ever there complete (it arrives by rename): no lock to read it.
  if (finished()) return BuiltEngine{program.string(), dir.string(), true};
  if (auto e = make_directories(builds)) return std::unexpected(*e);
  auto lock = FileLock::take(builds / (name + ".lock"), cancelled_);
  if (!lock) return std::unexpected(lock.error());
  if (finished()) return BuiltEngine{program.string(), dir.string(), true};  // built meanwhile

  // Whatever .tmp is here belongs to a builder that died: the lock was free.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(builds, ec))
    if (entry.path().filename().string().starts_with(name + ".tmp-"))
      fs::remove_all(entry.path(), ec);
  const fs::path tmp = builds / (name + ".tmp-" + std::to_string(::getpid()));
  if (auto e = make_directories(tmp)) return std::unexpected(*e);
  auto cleanup = [&] { fs::remove_all(tmp, ec); };

  auto m = mirror(source, sha);
  if (!m) return cleanup(), std::unexpected(m.error());
  const fs::path src = tmp / "src";
  const std::string at = source.repo + " at " + short_sha(sha);
  if (auto c = git({"clone", "--quiet", "--shared", "--no-checkout", m->string(), src.string()},
                   "checking out " + at);
      !c)
    return cleanup(), std::unexpected(c.error());
  if (auto c =
          git({"-C", src.string(), "checkout", "--quiet", "--detach", sha}, "checking out " + at);
      !c)
    return cleanup(), std::unexpected(c.error());
  const fs::path workdir = source.subdir.empty() ? src : src / source.subdir;
  if (!fs::is_directory(workdir, ec))
    return cleanup(),
           std::unexpected(refused("subdir '" + source.subdir + "' is not a directory of " + at));

  auto words = split_words(source.build);
  if (!words || words->empty())
    return cleanup(),
           std::unexpected(refused("build: '" + source.build + "' cannot be split into words"));
  const std::string exe = (tmp / program_name).string();
  for (auto& w : *words)
    for (std::size_t at_exe; (at_exe = w.find("{exe}")) != std::string::npos;)
      w.replace(at_exe, 5, exe);
  CommandOptions o;
  o.workdir = workdir.string();
  o.log_path = (tmp / "build.log").string();
  o.cancelled = cancelled_;
  o.timeout = std::chrono::minutes(30);
  auto r = run_command(*words, o);
  const std::string how = "`" + command_text(*words) + "` in " + workdir.string();
  if (!r.started) return cleanup(), std::unexpected(local("building " + at + ": " + r.error));
  if (r.cancelled) return cleanup(), std::unexpected(local("building " + at + ": stopped"));
  if (!r.ok || !fs::is_regular_file(exe, ec) || ::access(exe.c_str(), X_OK) != 0) {
    // The log is kept beside the cache for a closer look; the half-done build is not.
    const fs::path kept = builds / (name + ".failed.log");
    fs::copy_file(o.log_path, kept, fs::copy_options::overwrite_existing, ec);
    std::string why = r.ok ? "left no program at {exe}" : r.status;
    cleanup();
    return std::unexpected(refused("the build of " + at + " failed (" + why + "): " + how +
                                   "; its last lines (all of them in " + kept.string() + "):\n" +
                                   last_lines(r.output, kLogLines)));
  }
  std::ofstream(tmp / "commit") << source.repo << "\n" << sha << "\n";
  fs::rename(tmp, dir, ec);
  if (ec)
    return cleanup(), std::unexpected(local("cannot move the build " + tmp.string() + " to " +
                                            dir.string() + ": " + ec.message()));
  return BuiltEngine{program.string(), dir.string(), false};
}

std::expected<BenchRun, SourceError> run_bench(const std::string& program,
                                               std::chrono::milliseconds timeout,
                                               const std::function<bool()>& cancelled) {
  CommandOptions o;
  o.workdir = fs::path(program).parent_path().string();
  o.timeout = timeout;
  o.cancelled = cancelled;
  auto r = run_command({program, "bench"}, o);
  if (!r.started) return std::unexpected(local("bench of " + program + ": " + r.error));
  if (r.cancelled) return std::unexpected(local("bench of " + program + ": stopped"));
  if (!r.ok)
    return std::unexpected(
        refused("`" + program + " bench` failed (" + r.status + "):\n" + last_lines(r.output, 10)));
  auto figures = parse_bench_output(r.output);
  if (!figures)
    return std::unexpected(
        refused("`" + program +
                " bench` printed no node count (\"Nodes searched: N\" or \"N nodes N nps\"):\n" +
                last_lines(r.output, 10)));
  BenchRun b;
  b.figures = *figures;
  b.elapsed = r.elapsed;
  if (figures->nps && *figures->nps > 0)
    b.nps = *figures->nps;
  else if (figures->time_ms && *figures->time_ms > 0)
    b.nps = double(figures->nodes) * 1000.0 / *figures->time_ms;
  else if (r.elapsed.count() > 0)
    b.nps = double(figures->nodes) * 1000.0 / double(r.elapsed.count());
  return b;
}

std::optional<std::uint64_t> expected_bench(const EngineSource& source,
                                            const SourceCommit& commit) {
  if (source.bench) return source.bench;
  return bench_in_commit_message(commit.message);
}

std::optional<SourceError> check_bench(std::uint64_t measured, std::uint64_t expected,
                                       const std::string& who, const EngineSource& source) {
  if (measured == expected) return std::nullopt;
  const std::string said = source.bench
                               ? "bench=" + std::to_string(expected) + " was given"
                               : "its commit message says Bench: " + std::to_string(expected);
  return refused(who + ": its bench searched " + std::to_string(measured) + " nodes, but " + said +
                 "; refused (a changed node count means the change is not the one described)");
}

}  // namespace knightly::runner
