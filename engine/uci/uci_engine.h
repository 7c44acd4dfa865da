#pragma once
// The UCI command loop as an object: feed it lines, it writes lines through a callback.
// The search runs on its own thread, so `stop` and `isready` are answered while it thinks.
// Options and `ucinewgame` received during a search take effect at the next `go`.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "engine/chess/position.h"
#include "engine/search/search.h"

namespace knightly::uci {

class UciEngine {
 public:
  using Writer = std::function<void(const std::string& line)>;  // one line, no newline

  explicit UciEngine(Writer writer);
  ~UciEngine();  // stops and joins a running search
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  // Handles one command line; returns false after `quit`.
  bool handle(std::string_view line);
  // Blocks until no search is running (for tests and for end of input).
  void wait();
  bool searching() const { return searching_.load(); }

 private:
  void write(const std::string& line);
  void apply_pending();
  void start_search(const search::Limits& limits);
  void run_perft(int depth);
  void stop_search();

  Writer writer_;
  std::mutex write_mutex_;
  search::SearchConfig config_;
  bool config_dirty_ = false;
  bool new_game_pending_ = false;
  chess::Position pos_;
  search::Search search_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> searching_{false};
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
};

}  // namespace knightly::uci
