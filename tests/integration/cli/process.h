#pragma once
// Runs programs for the integration tests: argv exec'd directly (posix_spawn, no shell),
// stdout/stderr captured, with a timeout that kills a hung child.
#include <sys/types.h>

#include <string>
#include <vector>

namespace knightly::test {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  bool timed_out = false;
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s = 120,
                          const std::string& cwd = "");

// Starts a program in the background with stdout/stderr to /dev/null; returns its pid.
// With `own_group`, the child leads a new process group (signal it all with kill(-pid, ...),
// as a terminal's Ctrl-C does).
pid_t spawn_background(const std::vector<std::string>& argv, const std::string& cwd = "",
                       bool own_group = false);
// Waits for a background child; returns its exit code, -1 if it was killed by a signal.
int wait_child(pid_t pid, int* signal_out = nullptr);

// A fresh temporary directory, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);
std::string knightly_binary();
std::string engine_binary();
std::string mock_engine_binary();

}  // namespace knightly::test
