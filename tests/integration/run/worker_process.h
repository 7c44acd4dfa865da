#pragma once
// `knightly` worker processes for the run tests: started in the background with their output
// in files (read after they end), waited for with a deadline, killed by pid.
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace knightly::test {

class WorkerProcess {
 public:
  // Starts argv[0] with stdout and stderr going to `log_prefix`.out / .err.
  WorkerProcess(const std::vector<std::string>& argv, const std::string& log_prefix);
  ~WorkerProcess();  // kills and reaps a process still running
  WorkerProcess(WorkerProcess&& other) noexcept;
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int sig) const;
  // Waits up to `timeout_s`; the exit code, or -1 when it died of a signal (`signal()` says
  // which) or was killed at the deadline (`timed_out()`).
  int wait(int timeout_s = 300);
  bool running();  // not yet exited (reaps it if it has)
  // Asks `ready` every 2 ms while the process runs, for up to `timeout_s`: true as soon as it
  // says yes, false when the process ends first or the time is up. A `ready` that throws (a
  // database not created yet, or busy for a moment) counts as not yet.
  bool wait_while_running(const std::function<bool()>& ready, int timeout_s = 60);
  int exit_code() const { return exit_code_; }
  int killed_by() const { return signal_; }
  bool timed_out() const { return timed_out_; }
  std::string out() const;
  std::string err() const;

 private:
  pid_t pid_ = -1;
  std::string prefix_;
  bool reaped_ = false;
  int exit_code_ = -1;
  int signal_ = 0;
  bool timed_out_ = false;
};

// The `count` lines of `text` last (for messages).
std::string tail(const std::string& text, std::size_t chars = 2000);

}  // namespace knightly::test
