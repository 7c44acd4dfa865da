#pragma once
// Text lines to and from a child process over its pipes, each read or write bounded by a
// deadline, on the calling thread, with no event loop and no helper thread: a read blocks in
// read(2) until the engine writes, ended at its deadline by a per-thread timer signal (poll(2)
// then read where no timer can be made); writes are non-blocking, with poll(2) only when the
// pipe is full. One ply costs a write and one read per chunk the engine writes.
// Lines end at '\n' (a '\r' before it is dropped); a line longer than 1 MiB is dropped and
// counted. The channel also keeps the player's logs: notes, and with `io` every line sent and
// received, in its own file and/or in one file shared by every player (each line prefixed with
// the engine's name), one write(2) per note so that players sharing a file do not tear lines.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace knightly::runner {

// Where a channel logs; both files may be set, or neither.
struct ChannelLog {
  std::string path;         // this player's own log; "" = none
  std::string shared_path;  // one log for every player, lines prefixed with `name`; "" = none
  std::string name;         // the engine's name
  bool io = false;          // every line sent and received, not only notes
};

// Stops this thread's read-deadline timer (LineChannel's reads leave it armed across reads to
// save a system call each): call it when the thread turns from engine reads to other work, such
// as storing a finished game, so that no late signal interrupts that work's system calls
// (stdio, for one, does not retry a write cut short by a signal). A no-op on a thread with no
// timer. The next read arms it again.
void disarm_read_deadline() noexcept;

class LineChannel {
 public:
  using Deadline = std::chrono::steady_clock::time_point;
  enum class Wait { Line, Eof, Timeout };

  explicit LineChannel(ChannelLog log = {});
  ~LineChannel();
  LineChannel(const LineChannel&) = delete;
  LineChannel& operator=(const LineChannel&) = delete;

  // Reads `read_fd` (made blocking) and writes `write_fd` (non-blocking), both owned by the
  // caller, from now on; `pid` prefixes the log's notes. Forgets any unread bytes of an
  // earlier process.
  void attach(int read_fd, int write_fd, int pid);
  // Forgets the descriptors (the caller closes them) and the unread bytes.
  void detach();

  // The next complete line, valid until the next call; or Eof (the pipe closed or failed;
  // a last line without '\n' is still returned first) or Timeout at `deadline`.
  Wait next_line(std::string_view& line, Deadline deadline);
  // Writes all of `text` by `deadline`: a pipe that stays full (the engine does not read)
  // is a Timeout, a closed one Eof.
  Wait write(std::string_view text, Deadline deadline);

  bool eof() const { return eof_; }
  // Why reading failed, beyond a plain end of file ("" otherwise).
  const std::string& read_error() const { return read_error_; }
  std::uint64_t dropped_lines() const { return dropped_; }

  // A note in the logs: "[pid] tag text" in the player's own, "name [pid] tag text" in the
  // shared one; text of several lines ("position ...\ngo ...") is one log line each.
  void note(std::string_view tag, std::string_view text);
  bool logging() const { return log_fd_ >= 0 || shared_fd_ >= 0; }

 private:
  // Waits until `fd` is ready for `events` or the deadline passes; false on timeout.
  bool wait_ready(int fd, short events, Deadline deadline);
  enum class Fill { Data, Eof, Interrupted };
  // One read(2) into the buffer: bytes, end of file (or an error), or interrupted (a signal).
  Fill fill();
  // Reads more bytes (or the end of file) by `deadline`; false at the deadline.
  bool read_more(Deadline deadline);

  int read_fd_ = -1;
  int write_fd_ = -1;
  int pid_ = 0;
  // Bytes [rpos_, rend_) are unread; scan_ is where the search for '\n' resumes.
  std::vector<char> buf_;
  std::size_t rpos_ = 0, rend_ = 0, scan_ = 0;
  bool skip_line_ = false;  // dropping the rest of an over-long line
  bool eof_ = false;
  std::string read_error_;
  std::uint64_t dropped_ = 0;
  ChannelLog log_;
  int log_fd_ = -1;
  int shared_fd_ = -1;
  std::string own_, shared_;  // reused for log lines
};

}  // namespace knightly::runner
