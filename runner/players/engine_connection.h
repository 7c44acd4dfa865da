#pragma once
// One engine subprocess as every protocol's player talks to it: an EngineProcess and the
// LineChannel over its pipes, started (spawn + attach, the logs from PlayerOptions), talked to
// with one deadline at a time (arm, next_line, write), and ended (quit: the protocol's quit
// line, its remaining output drained, a bounded wait, then a kill). It also keeps what both
// protocols report besides the dialogue: warnings, garbage lines, and how the process ended
// for a crash message. The protocol dialogue (UCI, CECP) lives in the players alone.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/config/config.h"
#include "runner/players/engine_process.h"
#include "runner/players/line_channel.h"
#include "runner/players/player_options.h"

namespace knightly::runner {

class EngineConnection {
 public:
  using Clock = std::chrono::steady_clock;
  using Deadline = LineChannel::Deadline;
  using Wait = LineChannel::Wait;

  // `config`'s command, arguments, working directory and environment; `options`' logs.
  EngineConnection(const EngineConfig& config, const PlayerOptions& options);
  EngineConnection(const EngineConnection&) = delete;
  EngineConnection& operator=(const EngineConnection&) = delete;

  // Kills a process started before, starts a new one and attaches the channel to it.
  std::optional<std::string> start();
  bool started() const { return process_.started(); }
  int pid() const { return started() ? static_cast<int>(process_.pid()) : 0; }
  // Started, its output not closed, and the process not exited.
  bool alive();

  // The deadline `d` from now for the next reads and writes; returns now.
  Clock::time_point arm(std::chrono::milliseconds d);
  void set_deadline(Deadline d) { deadline_ = d; }
  Deadline deadline() const { return deadline_; }
  // The next line (valid until the next call) by the deadline.
  Wait next_line(std::string_view& line) { return channel_.next_line(line, deadline_); }
  // All of `text` by the deadline.
  Wait write(std::string_view text) { return channel_.write(text, deadline_); }

  // `what` and how the process ended (waiting up to 200 ms for it): "engine disconnected
  // (exit code 3)", with the read error if reading failed.
  std::string exit_detail(std::string_view what);
  // SIGKILL (if still running), reaped, the channel detached. Safe at any time.
  void kill();
  // Polite end: writes `quit_line`, drains the output until EOF, waits for the exit, all
  // within `timeout`; then kill() (a no-op for a process that has exited).
  void quit(std::string_view quit_line, std::chrono::milliseconds timeout);

  // Log notes (LineChannel::note).
  void note(std::string_view tag, std::string_view text) { channel_.note(tag, text); }
  bool logging() const { return channel_.logging(); }
  // A problem worth showing the user: logged and kept (up to 100) for take_warnings().
  void warn(std::string text);
  std::vector<std::string> take_warnings();
  // A line that was not the protocol or not expected then: logged and counted, never fatal.
  void note_garbage(std::string_view line, std::string_view why);
  // Garbage lines plus over-long lines the channel dropped.
  std::uint64_t garbage_lines() const { return garbage_ + channel_.dropped_lines(); }

 private:
  ProcessSpec spec_;
  EngineProcess process_;
  LineChannel channel_;
  Deadline deadline_{};
  std::vector<std::string> warnings_;
  std::uint64_t garbage_ = 0;
};

}  // namespace knightly::runner
