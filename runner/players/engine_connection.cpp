#include "runner/players/engine_connection.h"

#include <algorithm>

#include "runner/players/player_logs.h"

namespace knightly::runner {
namespace {

constexpr std::size_t MaxWarnings = 100;

}  // namespace

EngineConnection::EngineConnection(const EngineConfig& config, const PlayerOptions& options)
    : spec_{config.command, config.args, config.workdir, config.env,
            stderr_path_for(options, config.name)},
      channel_(channel_log_for(options, config.name)) {}

std::optional<std::string> EngineConnection::start() {
  kill();
  if (auto e = process_.start(spec_)) return e;
  channel_.attach(process_.stdout_fd(), process_.stdin_fd(), pid());
  channel_.note("started:", spec_.command);
  return std::nullopt;
}

bool EngineConnection::alive() {
  return process_.started() && !channel_.eof() && process_.running();
}

EngineConnection::Clock::time_point EngineConnection::arm(std::chrono::milliseconds d) {
  const auto now = Clock::now();
  deadline_ = now + d;
  return now;
}

std::string EngineConnection::exit_detail(std::string_view what) {
  std::string d(what);
  d += " (";
  d += process_.wait(std::chrono::milliseconds(200));
  if (!channel_.read_error().empty()) d += ", " + channel_.read_error();
  d += ")";
  return d;
}

void EngineConnection::kill() {
  channel_.detach();
  process_.kill();
}

void EngineConnection::quit(std::string_view quit_line, std::chrono::milliseconds timeout) {
  if (process_.started()) {
    const auto until = arm(timeout) + timeout;
    if (write(quit_line) == Wait::Line) {
      std::string_view line;
      while (next_line(line) == Wait::Line) {
      }
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    process_.wait(std::max(left, std::chrono::milliseconds(0)));
  }
  kill();
}

void EngineConnection::warn(std::string text) {
  channel_.note("warning:", text);
  if (warnings_.size() < MaxWarnings) warnings_.push_back(std::move(text));
}

std::vector<std::string> EngineConnection::take_warnings() {
  return std::exchange(warnings_, {});
}

void EngineConnection::note_garbage(std::string_view line, std::string_view why) {
  ++garbage_;
  if (!channel_.logging()) return;
  std::string text = "(";
  text.append(why);
  text += ") ";
  text.append(line.substr(0, 200));
  channel_.note("ignored:", text);
}

}  // namespace knightly::runner
