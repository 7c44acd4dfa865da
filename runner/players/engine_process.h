#pragma once
// An engine as a child process: its argv exec'd directly (never through a shell), in the
// configured working directory, with our environment less the database's credentials (PG*
// and KNIGHTLY_* are withheld) and the configured variables added, in a process
// group of its own (a terminal's Ctrl-C reaches only the runner, which finishes the running
// games) and killed by the kernel when the runner dies (PR_SET_PDEATHSIG). Its stdin and stdout
// are pipes that a LineChannel reads and writes; its stderr goes to a file. This class is the
// process's life only: start, still running?, wait for the exit, kill.
#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace knightly::runner {

struct ProcessSpec {
  std::string command;  // a path (with a '/'), or a program name looked up in PATH
  std::vector<std::string> args;
  std::string workdir;  // "" = the runner's
  // Added to (or replacing in) the runner's environment, from which PG* and KNIGHTLY_* are
  // withheld (an entry here gives one back on purpose).
  std::map<std::string, std::string> env;
  std::string stderr_path;  // appended to; "" = /dev/null
};

class EngineProcess {
 public:
  EngineProcess() = default;
  ~EngineProcess();  // kill()
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Starts `spec` (after killing a process started before). An error says which command and
  // why: not found in PATH, a working directory that does not exist, exec's own errno...
  std::optional<std::string> start(const ProcessSpec& spec);

  bool started() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // The runner's ends of the pipes, close-on-exec (stdin's non-blocking, stdout's blocking: a
  // LineChannel bounds its reads itself); -1 when not started.
  int stdin_fd() const { return stdin_fd_; }
  int stdout_fd() const { return stdout_fd_; }

  // Whether the process has not exited yet (an exited one is reaped here).
  bool running();
  // Waits up to `bound` for the process to exit, then says how it ended: "exit code 3",
  // "killed by signal 9 (Killed)", or "process still running"; "no process" if never started.
  std::string wait(std::chrono::milliseconds bound);
  // SIGKILL to its process group, reaped (bounded), pipes closed. Safe to call at any time.
  void kill();

 private:
  void close_pipes();

  pid_t pid_ = 0;
  bool reaped_ = false;
  int status_ = 0;  // waitpid status once reaped_
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
};

// "exit code 3", "killed by signal 9 (Killed)" for a waitpid status.
std::string describe_exit_status(int status);

}  // namespace knightly::runner
