#pragma once
// A program run to its end for the source cache: git, the build, an engine's bench. Exec'd
// directly (EngineProcess: argv, never a shell; its own process group, killed with the
// runner), stdin empty, its output kept (the last `keep_bytes` of stdout and stderr, which
// may interleave a little) and written to `log_path` when one is given. Ended with its whole
// group when `timeout` passes or `cancelled()` says so (a worker told to stop).
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace knightly::runner {

struct CommandOptions {
  std::string workdir;                     // "" = ours
  std::map<std::string, std::string> env;  // added to ours
  std::string log_path;                    // "" = none; else the whole output, appended
  std::chrono::milliseconds timeout{std::chrono::minutes(30)};
  std::size_t keep_bytes = 64 * 1024;
  std::function<bool()> cancelled;  // polled about every 100 ms; may be empty
};

struct CommandResult {
  bool started = false;    // false: `error` says why (not found, exec failed)
  bool ok = false;         // started and exited with code 0
  bool timed_out = false;  // killed at the timeout
  bool cancelled = false;  // killed because cancelled() said so
  std::string status;      // "exit code 2", "killed by signal 9 (Killed)"
  std::string error;       // why it did not start
  std::string output;      // the last keep_bytes of what it wrote
  std::chrono::milliseconds elapsed{0};
};

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options = {});

// The last `count` lines of `text` (without a trailing empty line), for messages.
std::string last_lines(const std::string& text, std::size_t count);

// argv as one line for messages: words with blanks or quotes quoted as a shell would.
std::string command_text(const std::vector<std::string>& argv);

}  // namespace knightly::runner
