#pragma once
// How players are run, as opposed to what they are (EngineConfig): logs and timeouts.
#include <chrono>
#include <string>

namespace knightly::runner {

struct PlayerOptions {
  // Directory for `<name>.log` (runner-side notes: garbage lines, warnings, and with log_io
  // every line sent and received) and `<name>.stderr.log` (the engine's stderr). "" = no
  // logs; the engine's stderr goes to /dev/null.
  std::string log_dir;
  bool log_io = false;
  std::chrono::milliseconds startup_timeout{10000};  // spawn -> uciok
  std::chrono::milliseconds ready_timeout{5000};     // isready -> readyok after setoption
  std::chrono::milliseconds quit_timeout{1000};      // quit -> exit, then kill
};

}  // namespace knightly::runner
