#pragma once
// The UCI command loop as an object: feed it lines, it writes lines through a callback.
// One search thread lives as long as the engine and takes one `go` at a time, woken by a
// condition variable, so `stop`, `isready` and `quit` are answered while it thinks, and a
// `go` costs no thread start. A `go` limited only by a depth of at most 2 or at most 1,000
// nodes is searched on the command thread instead (it ends in microseconds, before anything
// behind it would be read): its bestmove leaves without waking a second thread, which at
// depth 1 is most of an engine's time per move. Options and `ucinewgame` received during a
// search take effect at the next `go`.
//
// Output: the writer may buffer; `flush` (when given) is called once a group of lines must
// reach the reader: at the end of each command's answer, after each `info` of a search that
// has run a millisecond or more (or is infinite), and after `bestmove`. A depth-1 search's
// `info` and `bestmove` so leave in one write, which the reader wakes for once.
//
// `position`: cutechess and fastchess send the whole game at every move. A command whose
// text extends the last one's by whole words plays only those words; otherwise one with the
// same start position unwinds the moves that differ from the last list (a takeback, a
// changed earlier move) and plays the new ones; only a new start is built from its FEN. The
// position's history (for repetitions) is the same whichever way it was reached.
// `ucinewgame` forgets the last list. A `position` that cannot be read (bad FEN, an illegal or
// malformed move) is reported with `info string error: ...` and leaves the engine with no
// position: every `go` until the next good `position` answers `info string error: ...` and
// `bestmove 0000` at once, rather than search a position nobody asked for. cutechess and
// fastchess then end the game as a loss by an illegal move, with the engine's reason in
// its log.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "engine/chess/position.h"
#include "engine/search/search.h"
#include "engine/uci/protocol.h"

namespace knightly::engine {

class UciEngine {
 public:
  using Writer = std::function<void(const std::string& line)>;  // one line, no newline
  using Flush = std::function<void()>;

  explicit UciEngine(Writer writer, Flush flush = {});
  ~UciEngine();  // stops a running search and ends the search thread
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  // Handles one command line; returns false after `quit`.
  bool handle(std::string_view line);
  // Blocks until no search is running (for tests and for end of input).
  void wait();
  bool searching() const { return searching_.load(); }

 private:
  struct Job {
    chess::Position pos;
    search::Limits limits;
    bool chess960 = false;
  };

  // For the command thread: write() leaves the line unflushed, handle() flushes at its end
  // when something was written. The search thread writes through writer_ itself.
  void write(const std::string& line);
  void flush();
  bool dispatch(const std::string& cmd, std::string_view word, std::string_view args);
  void apply_pending();
  void set_position(std::string_view args);
  void start_search(const search::Limits& limits);
  void run_perft(int depth);
  void stop_search();
  void search_loop();
  // Searches job and writes its info and bestmove (the search thread's, or the command
  // thread's for a search that runs inline).
  void run_job(const Job& job);
  // A `go` whose only limit is a depth or a node count this small is searched on the command
  // thread: it ends in well under a millisecond (depth 1: ~10 us), sooner than a `stop` or
  // `isready` behind it could matter, and its bestmove leaves without a thread hand-over.
  static constexpr int kInlineDepth = 2;
  static constexpr std::uint64_t kInlineNodes = 1000;
  static bool searches_inline(const search::Limits& limits);

  Writer writer_;
  Flush flush_;
  std::mutex write_mutex_;  // guards the writer and flush: both threads write
  bool unflushed_ = false;  // the command thread wrote since its last flush
  // The options as set (Seed 0 stays 0 here); the search gets them with the seed resolved.
  search::SearchConfig config_;
  bool config_dirty_ = false;
  bool new_game_pending_ = false;
  std::string book_loaded_;  // the file of the book the search holds ("" = none)

  // The current position, the command that made it and that command's text (for playing
  // only new moves; `pos_has_moves_` when the text has the word `moves`), or the error of the
  // last `position` that could not be read.
  chess::Position pos_;
  PositionCommand pos_command_;
  std::string pos_text_;
  bool pos_has_moves_ = false;
  std::optional<std::string> pos_error_;

  search::Search search_;
  std::mutex mutex_;  // guards job_ready_, quit_ and the wait for `stop` in infinite mode
  std::condition_variable cv_;
  // The search's job, kept between searches so that its position's storage is reused. The
  // command thread writes it only when no search runs; the search thread reads it from
  // taking it (job_ready_ true -> false) until searching_ ends.
  Job job_;
  bool job_ready_ = false;
  bool quit_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<bool> searching_{false};  // from `go` until its bestmove is written
  std::thread thread_;                  // the search thread; last, so it starts after the rest
};

}  // namespace knightly::engine
