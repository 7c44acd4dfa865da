#pragma once
// Where the players' integration tests find the engines they drive.
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "tests/test_data.h"

namespace knightly::test {

inline std::string mock_engine_path() {
  return binary_dir() + "/tests/engines/mock/mock-engine";
}

inline runner::EngineConfig mock_config(std::vector<std::string> args = {},
                                        std::string name = "mock") {
  runner::EngineConfig c;
  c.name = std::move(name);
  c.command = mock_engine_path();
  c.args = std::move(args);
  return c;
}

// True when no process with this pid exists any more (reaped, not a zombie of ours).
inline bool process_gone(int pid) {
  return pid > 0 && ::kill(pid, 0) == -1 && errno == ESRCH;
}

}  // namespace knightly::test
