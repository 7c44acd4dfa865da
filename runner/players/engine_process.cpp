#include "runner/players/engine_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>
#include <thread>

extern char** environ;

namespace knightly::runner {
namespace {

using Clock = std::chrono::steady_clock;

std::string errno_text(int err) {
  return std::strerror(err);
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// execvp's lookup, done before the child starts so that the child only calls execve: the first
// executable regular file named `name` in a directory of PATH ("" in PATH = the current one).
std::string search_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (;;) {
    std::size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    if (colon == std::string_view::npos) return "";
    dirs.remove_prefix(colon + 1);
  }
}

// What the runner keeps from its engines: libpq's variables (PGPASSWORD, PGPASSFILE, PGHOST...:
// the database's credentials) and Knightly's own (KNIGHTLY_DB...). An engine under test must
// not be able to log into the tournament's database and write results.
bool withheld_from_engines(std::string_view name) {
  return name.starts_with("PG") || name.starts_with("KNIGHTLY_");
}

// The runner's environment without what it withholds, with `extra` (an engine's env.NAME=VALUE,
// which may give back any variable on purpose) added; a variable in `extra` replaces ours.
std::vector<std::string> child_environment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> entries;
  for (char** e = ::environ; e && *e; ++e) {
    std::string_view entry(*e);
    std::string key(entry.substr(0, entry.find('=')));
    if (!extra.contains(key) && !withheld_from_engines(key)) entries.emplace_back(entry);
  }
  for (const auto& [k, v] : extra) entries.push_back(k + "=" + v);
  return entries;
}

// Engines run as the runner's user, so they could read its environment (/proc/PID/environ)
// and memory (ptrace): a password from PGPASSWORD or an env:NAME location among them. A
// process that is not dumpable keeps both to itself; made so once, before the first engine.
void keep_runner_private() {
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_DUMPABLE, 0); });
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// What the child needs, all made before it starts: it shares the runner's memory until it
// execs, so it must not allocate.
struct ChildSpec {
  int stdin_fd, stdout_fd, stderr_fd, status_fd;
  pid_t parent;
  const char* workdir;
  const char* exe;
  char** argv;
  char** envp;
};

// The child, between clone and exec: only system calls, no allocation, nothing instrumented
// (it runs on a stack of its own in the runner's memory, which the sanitizers do not know).
// On failure the errno goes to the parent through `status_fd` (close-on-exec, so a
// successful exec closes it with nothing written) and the child exits 127, as a shell would.
__attribute__((no_sanitize("address", "undefined"))) int child_main(void* arg) {
  const ChildSpec& c = *static_cast<const ChildSpec*>(arg);
  // The runner's signal handlers are its own: in the child they would run on the runner's
  // memory. Each goes back to its default before any signal is let through.
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    const bool handled = (old.sa_flags & SA_SIGINFO) ||
                         (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN);
    // The runner ignores SIGPIPE; the engine gets the default.
    if (handled || sig == SIGPIPE) {
      struct sigaction dfl {};
      dfl.sa_handler = SIG_DFL;
      ::sigaction(sig, &dfl, nullptr);
    }
  }
  bool ok = ::dup2(c.stdin_fd, 0) >= 0 && ::dup2(c.stdout_fd, 1) >= 0 &&
            ::dup2(c.stderr_fd, 2) >= 0 && (!c.workdir || ::chdir(c.workdir) == 0);
  if (ok) {
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != c.parent) ::_exit(127);  // the runner died before prctl took effect
    ::execve(c.exe, c.argv, c.envp);
  }
  int err = errno;
  [[maybe_unused]] ssize_t n = ::write(c.status_fd, &err, sizeof err);
  ::_exit(127);
}

}  // namespace

std::string describe_exit_status(int status) {
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* s = ::strsignal(WTERMSIG(status));
    return "killed by signal " + std::to_string(WTERMSIG(status)) +
           (s ? std::string(" (") + s + ")" : "");
  }
  return "status " + std::to_string(status);
}

EngineProcess::~EngineProcess() {
  kill();
}

void EngineProcess::close_pipes() {
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
}

std::optional<std::string> EngineProcess::start(const ProcessSpec& spec) {
  kill();
  const std::string where = spec.workdir.empty() ? "" : " in " + spec.workdir;
  if (!spec.workdir.empty() && !is_directory(spec.workdir))
    return "cannot start " + spec.command + ": working directory " + spec.workdir +
           " does not exist";
  std::string exe = spec.command;
  if (exe.find('/') == std::string::npos) {
    exe = search_path(spec.command);
    if (exe.empty()) return "command not found in PATH: " + spec.command;
  }

  keep_runner_private();
  // Everything the child needs is built before it starts: it must not allocate.
  std::vector<std::string> arg_strings;
  arg_strings.reserve(spec.args.size() + 1);
  arg_strings.push_back(spec.command);
  arg_strings.insert(arg_strings.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv = c_strings(arg_strings);
  std::vector<std::string> env_strings = child_environment(spec.env);
  std::vector<char*> envp = c_strings(env_strings);

  // Every descriptor is close-on-exec, so that engines started by other threads at the same
  // time never inherit them (an inherited write end would hide this engine's EOF).
  const char* err_path = spec.stderr_path.empty() ? "/dev/null" : spec.stderr_path.c_str();
  int err_fd = ::open(err_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (err_fd < 0) return "cannot open " + std::string(err_path) + ": " + errno_text(errno);
  int in[2] = {-1, -1}, out[2] = {-1, -1}, status[2] = {-1, -1};
  auto close_all = [&] {
    for (int* fd : {&err_fd, &in[0], &in[1], &out[0], &out[1], &status[0], &status[1]})
      close_fd(*fd);
  };
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 ||
      ::pipe2(status, O_CLOEXEC) != 0) {
    std::string e = "cannot start " + spec.command + ": pipe2: " + errno_text(errno);
    close_all();
    return e;
  }

  // The child shares the runner's memory until it execs (CLONE_VM | CLONE_VFORK, as
  // posix_spawn does; this thread waits meanwhile): nothing is copied, where a fork copies
  // the page tables of the whole runner and has each page it writes next copied again. Every
  // signal stays blocked until the child has put its handlers back to the defaults.
  ChildSpec child{in[0],    out[1],      err_fd,      status[1],  ::getpid(),
                  spec.workdir.empty() ? nullptr : spec.workdir.c_str(),
                  exe.c_str(), argv.data(), envp.data()};
  sigset_t all, before;
  ::sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, &before);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer keeps state per thread and intercepts the child's calls, which would
  // then run on the runner's memory: a sanitized build forks.
  const pid_t pid = ::fork();
  if (pid == 0) child_main(&child);
#else
  std::vector<char> stack(64 * 1024);
  void* top = reinterpret_cast<void*>(
      (reinterpret_cast<std::uintptr_t>(stack.data() + stack.size())) & ~std::uintptr_t(15));
  const pid_t pid = ::clone(child_main, top, CLONE_VM | CLONE_VFORK | SIGCHLD, &child);
#endif
  const int clone_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (pid < 0) {
    std::string e = "cannot start " + spec.command + ": clone: " + errno_text(clone_errno);
    close_all();
    return e;
  }

  close_fd(in[0]);
  close_fd(out[1]);
  close_fd(err_fd);
  close_fd(status[1]);
  // Both ends' groups are set, whoever runs first: kill() can then signal the whole group.
  ::setpgid(pid, pid);
  int child_errno = 0;
  ssize_t n;
  do n = ::read(status[0], &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  close_fd(status[0]);
  pid_ = pid;
  reaped_ = false;
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  if (n > 0) {
    kill();
    return "cannot start " + spec.command + where + ": " + errno_text(child_errno);
  }
  // Writes never block (a full pipe waits in poll(2) with a deadline); reads block, each
  // bounded by LineChannel's deadline timer.
  ::fcntl(stdin_fd_, F_SETFL, ::fcntl(stdin_fd_, F_GETFL) | O_NONBLOCK);
  return std::nullopt;
}

bool EngineProcess::running() {
  if (pid_ <= 0 || reaped_) return false;
  int st = 0;
  pid_t r = ::waitpid(pid_, &st, WNOHANG);
  if (r == pid_) {
    reaped_ = true;
    status_ = st;
    return false;
  }
  return r == 0;
}

std::string EngineProcess::wait(std::chrono::milliseconds bound) {
  if (pid_ <= 0) return "no process";
  const auto until = Clock::now() + bound;
  // A pidfd becomes readable when the process exits: no polling loop. Kernels without
  // pidfd_open (before 5.3) get short sleeps instead.
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  auto pause = std::chrono::microseconds(50);
  while (running()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) break;
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      ::poll(&p, 1, static_cast<int>(left.count()) + 1);
    } else {
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(5000));
    }
  }
  if (pidfd >= 0) ::close(pidfd);
  if (!reaped_) return "process still running";
  return describe_exit_status(status_);
}

void EngineProcess::kill() {
  if (pid_ > 0 && !reaped_ && running()) {
    // The group: a wrapper script's own children go too. The process is not reaped yet, so
    // its pid (and group id) cannot have been reused.
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    wait(std::chrono::milliseconds(2000));
  }
  close_pipes();
  pid_ = 0;
  reaped_ = false;
}

}  // namespace knightly::runner
