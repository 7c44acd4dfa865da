#include "worker_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "tests/support/process.h"

namespace knightly::test {

WorkerProcess::WorkerProcess(const std::vector<std::string>& argv, const std::string& log_prefix)
    : pid_(spawn_background(argv, "", false, log_prefix + ".out", log_prefix + ".err")),
      prefix_(log_prefix) {}

WorkerProcess::WorkerProcess(WorkerProcess&& o) noexcept
    : pid_(o.pid_),
      prefix_(std::move(o.prefix_)),
      reaped_(o.reaped_),
      exit_code_(o.exit_code_),
      signal_(o.signal_),
      timed_out_(o.timed_out_) {
  o.pid_ = -1;
}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0 && !reaped_) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
}

void WorkerProcess::signal(int sig) const {
  if (pid_ > 0 && !reaped_) ::kill(pid_, sig);
}

bool WorkerProcess::running() {
  if (reaped_ || pid_ <= 0) return false;
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == 0) return true;
  reaped_ = true;
  if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) signal_ = WTERMSIG(status);
  return false;
}

bool WorkerProcess::wait_while_running(const std::function<bool()>& ready, int timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (running() && std::chrono::steady_clock::now() < deadline) {
    try {
      if (ready()) return true;
    } catch (const std::exception&) {
      // Not yet: look again.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

int WorkerProcess::wait(int timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      timed_out_ = true;
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
      reaped_ = true;
      signal_ = SIGKILL;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return exit_code_;
}

std::string WorkerProcess::out() const {
  return read_file(prefix_ + ".out");
}
std::string WorkerProcess::err() const {
  return read_file(prefix_ + ".err");
}

std::string tail(const std::string& text, std::size_t chars) {
  return text.size() > chars ? "..." + text.substr(text.size() - chars) : text;
}

}  // namespace knightly::test
