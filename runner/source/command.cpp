#include "runner/source/command.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "runner/players/engine_process.h"

namespace knightly::runner {
namespace {

using Clock = std::chrono::steady_clock;

// Appends `data` to `kept`, keeping at most `limit` bytes (the newest).
void keep_tail(std::string& kept, const char* data, std::size_t size, std::size_t limit) {
  kept.append(data, size);
  if (kept.size() > 2 * limit) kept.erase(0, kept.size() - limit);
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options) {
  CommandResult r;
  if (argv.empty()) {
    r.error = "no command";
    return r;
  }
  const auto t0 = Clock::now();
  // stderr goes to a file of its own (EngineProcess's way); stdout comes through the pipe.
  // Both end up in `output` and the log.
  std::string err_path;
  if (!options.log_path.empty()) {
    err_path = options.log_path;
  } else {
    char name[] = "/tmp/knightly-command-XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd < 0) {
      r.error = std::string("cannot make a temporary file: ") + std::strerror(errno);
      return r;
    }
    ::close(fd);
    err_path = name;
  }
  struct Remove {
    std::string path;
    bool active;
    ~Remove() {
      if (active) ::unlink(path.c_str());
    }
  } remove_err{err_path, options.log_path.empty()};
  std::FILE* log = nullptr;
  if (!options.log_path.empty()) {
    log = std::fopen(options.log_path.c_str(), "ae");
    if (!log) {
      r.error = "cannot write " + options.log_path + ": " + std::strerror(errno);
      return r;
    }
  }
  struct Close {
    std::FILE* f;
    ~Close() {
      if (f) std::fclose(f);
    }
  } close_log{log};

  EngineProcess process;
  ProcessSpec spec;
  spec.command = argv[0];
  spec.args.assign(argv.begin() + 1, argv.end());
  spec.workdir = options.workdir;
  spec.env = options.env;
  spec.stderr_path = err_path;
  if (auto e = process.start(spec)) {
    r.error = *e;
    return r;
  }
  r.started = true;
  // Nothing to say: its stdin ends at once. The descriptor stays EngineProcess's to close;
  // /dev/null takes the pipe's place in it, which closes the pipe.
  if (const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC); null_fd >= 0) {
    ::dup3(null_fd, process.stdin_fd(), O_CLOEXEC);
    ::close(null_fd);
  }
  const auto deadline = t0 + options.timeout;
  auto stop_now = [&] {
    if (Clock::now() >= deadline) {
      r.timed_out = true;
      return true;
    }
    if (options.cancelled && options.cancelled()) {
      r.cancelled = true;
      return true;
    }
    return false;
  };
  std::string out;
  char buf[8192];
  bool open = true, killed = false;
  while (open) {
    if (stop_now()) {
      process.kill();
      killed = true;
      break;
    }
    pollfd p{process.stdout_fd(), POLLIN, 0};
    const int n = ::poll(&p, 1, 100);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    const ssize_t got = ::read(process.stdout_fd(), buf, sizeof buf);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) {
      open = false;
      break;
    }
    keep_tail(out, buf, std::size_t(got), options.keep_bytes);
    if (log) {
      std::fwrite(buf, 1, std::size_t(got), log);
      std::fflush(log);
    }
  }
  // Its stdout is closed: it is ending (or a child of it keeps the pipe; the deadline holds).
  while (!killed) {
    r.status = process.wait(std::chrono::milliseconds(100));
    if (r.status != "process still running") break;
    if (stop_now()) {
      process.kill();
      killed = true;
    }
  }
  if (killed) r.status = r.timed_out ? "timed out" : "cancelled";
  // What it wrote to stderr, after what came through stdout.
  if (options.log_path.empty()) {
    if (std::FILE* f = std::fopen(err_path.c_str(), "re")) {
      while (std::size_t got = std::fread(buf, 1, sizeof buf, f))
        keep_tail(out, buf, got, options.keep_bytes);
      std::fclose(f);
    }
  } else {
    // The log holds both streams in about the order they were written.
    out.clear();
    if (std::FILE* f = std::fopen(options.log_path.c_str(), "re")) {
      while (std::size_t got = std::fread(buf, 1, sizeof buf, f))
        keep_tail(out, buf, got, options.keep_bytes);
      std::fclose(f);
    }
  }
  if (out.size() > options.keep_bytes) out.erase(0, out.size() - options.keep_bytes);
  r.output = std::move(out);
  r.ok = !killed && r.status == "exit code 0";
  r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
  return r;
}

std::string last_lines(const std::string& text, std::size_t count) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  std::size_t start = end;
  for (std::size_t lines = 0; start > 0; --start)
    if (text[start - 1] == '\n' && ++lines == count) break;
  return text.substr(start, end - start);
}

std::string command_text(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    if (!a.empty() && a.find_first_of(" \t\n'\"\\$`") == std::string::npos) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

}  // namespace knightly::runner
