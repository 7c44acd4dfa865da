#include "runner/run/run_outputs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include "db/records/utc_time.h"
#include "runner/config/variant.h"
#include "runner/match/game_epd.h"

namespace knightly::runner {

PgnHeader pgn_header_for(const GameRecord& record, const Config& config) {
  PgnHeader h;
  h.event = config.output.event.empty() ? config.tournament.name : config.output.event;
  h.site = config.output.site.empty() ? "?" : config.output.site;
  h.round = std::to_string(record.id.round + 1);
  if (is_chess960(config.tournament)) h.variant = choice_name(Variant::Fischerandom);
  // The record holds "white / black" when the two differ.
  const auto slash = record.time_control.find(" / ");
  h.white_time_control = record.time_control.substr(0, slash);
  h.black_time_control =
      slash == std::string::npos ? record.time_control : record.time_control.substr(slash + 3);
  if (h.white_time_control.empty()) h.white_time_control = h.black_time_control = "-";
  return h;
}

std::string output_pgn(const GameRecord& record, const PgnHeader& header,
                       const OutputConfig& output) {
  if (output.pgn_options == PgnOptions{}) return record.pgn;
  return to_pgn(record, header, output.pgn_options);
}

std::string output_epd(const GameRecord& record, const OutputConfig& output) {
  if (output.epd.empty()) return "";
  auto fen = end_position_fen(record);
  return fen ? *fen + "\n" : "";
}

PlayerOptions player_options_for(const Config& config, const std::string& log_dir) {
  PlayerOptions o;
  o.log_dir = log_dir;
  o.log_file = config.output.log_engine ? config.output.log_file : "";
  o.log_io = config.output.log_engine;
  o.startup_timeout = std::chrono::milliseconds(config.tournament.timeouts.startup_ms);
  o.ready_timeout = std::chrono::milliseconds(config.tournament.timeouts.ping_ms);
  o.chess960 = is_chess960(config.tournament);
  return o;
}

RunLog::~RunLog() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::string> RunLog::open(const std::string& path, bool append) {
  const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (append ? 0 : O_TRUNC);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) return "cannot open log file " + path + ": " + std::strerror(errno);
  return std::nullopt;
}

void RunLog::line(const std::string& text) {
  if (fd_ < 0) return;
  const std::string out = "[" + db::utc_now_iso() + "] " + text + "\n";
  [[maybe_unused]] ssize_t n = ::write(fd_, out.data(), out.size());
}

}  // namespace knightly::runner
