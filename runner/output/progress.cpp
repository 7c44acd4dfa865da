#include "runner/output/progress.h"

#include <unistd.h>

#include <cstdio>
#include <ostream>

#include "runner/output/printable.h"
#include "runner/stats/elo.h"
#include "runner/stats/match_text.h"

namespace knightly::runner {

Progress::Progress(std::ostream& out, std::ostream& err, bool quiet, std::string first,
                   std::string second)
    : out_(out),
      err_(err),
      quiet_(quiet),
      tty_(::isatty(STDOUT_FILENO) == 1),
      first_(std::move(first)),
      second_(std::move(second)),
      start_(std::chrono::steady_clock::now()) {}

void Progress::on_schedule(std::size_t total, std::size_t stored) {
  total_ = total;
  done_ = stored;
  start_ = std::chrono::steady_clock::now();
}

void Progress::on_stored(const std::vector<db::Standing>& standings) {
  // The leader and its score count the tournament's games, not only this run's.
  for (const auto& s : standings) {
    points_[s.engine] += s.points();
    games_[s.engine] += static_cast<int>(s.games);
  }
}

void Progress::print(const std::string& line) {
  if (tty_ && line_shown_) terminal_control(out_, "\r\033[K");
  // Names and messages may quote files and engines: nothing of theirs reaches a terminal (or
  // a log) raw.
  out_ << printable_lines(line) << "\n" << std::flush;
  line_shown_ = false;
}

void Progress::redraw() {
  if (quiet_) return;
  if (tty_) {
    terminal_control(out_, "\r\033[K");
    out_ << printable(status_line()) << std::flush;
    line_shown_ = true;
  } else {
    // Plain lines, about ten over the run, so logs stay readable.
    std::size_t step = total_ >= 10 ? total_ / 10 : 1;
    if (done_ % step == 0 || done_ == total_) out_ << status_line() << "\n" << std::flush;
  }
}

void Progress::on_game_started(int index, const std::string& white, const std::string& black) {
  if (quiet_) return;
  print("Started game " + std::to_string(index + 1) + " of " + std::to_string(total_) + " (" +
        white + " vs " + black + ")");
  if (tty_) redraw();
}

void Progress::on_game_finished(const GameRecord& record, const stats::Trinomial* tally) {
  const std::string& white = record.white;
  const std::string& black = record.black;
  const std::string& first = first_;
  const std::string& second = second_;
  ++done_;
  ++done_here_;
  // In a two-engine run the tally counts every stored game, other workers' too.
  if (tally && std::size_t(tally->games()) > done_) done_ = std::size_t(tally->games());
  double w = record.result == Result::WhiteWins ? 1 : record.result == Result::Draw ? 0.5 : 0;
  points_[white] += w;
  points_[black] += 1 - w;
  ++games_[white];
  ++games_[black];
  if (tally) {
    const auto e = stats::get_elo(*tally);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s vs %s %lld-%lld-%lld, Elo ", first.c_str(), second.c_str(),
                  (long long)tally->wins, (long long)tally->losses, (long long)tally->draws);
    two_engine_ = buf + stats::elo_value_text(e, 1) + " " + stats::elo_interval_text(e, 1);
  }
  if (quiet_) return;
  print("Finished game " + std::to_string(record.id.index + 1) + " (" + white + " vs " + black +
        "): " + result_token(record.result) + " {" + record.reason + "}");
  if (tally && !intervals_) print(score_line(first, second, *tally));
  redraw();
}

void Progress::on_tally(const stats::Trinomial& games, const stats::Pentanomial& pairs) {
  if (!intervals_ || quiet_) return;
  const auto n = static_cast<std::size_t>(games.games());
  std::string lines = interval_text(*intervals_, n, games, pairs);
  if (lines.empty()) return;
  if (score_due(*intervals_, n)) shown_.score_at = games.games();
  if (rating_due(*intervals_, n)) shown_.rating_at = games.games();
  lines.pop_back();  // print() ends the line
  print(lines);
  if (tty_) redraw();  // plain status lines were printed for this game already
}

void Progress::on_message(const std::string& line) {
  print(line);
  if (tty_ && !quiet_) redraw();
}

void Progress::on_warning(const std::string& line) {
  on_message("Warning: " + line);
}

void Progress::on_error(const std::string& line) {
  if (tty_ && line_shown_) terminal_control(out_, "\r\033[K");
  line_shown_ = false;
  err_ << "knightly: " << printable_lines(line) << "\n" << std::flush;
}

std::string Progress::status_line() const {
  std::string s = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] ";
  if (!two_engine_.empty()) {
    s += two_engine_;
  } else if (!points_.empty()) {
    auto best = points_.begin();
    for (auto it = points_.begin(); it != points_.end(); ++it)
      if (it->second > best->second) best = it;
    char buf[160];
    std::snprintf(buf, sizeof buf, "leader %s %.1f/%d", best->first.c_str(), best->second,
                  games_.at(best->first));
    s += buf;
  }
  if (done_here_ > 0 && done_ < total_) {
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    long eta = long(elapsed / double(done_here_) * double(total_ - done_));
    char buf[64];
    std::snprintf(buf, sizeof buf, ", ETA %ld:%02ld:%02ld", eta / 3600, eta / 60 % 60, eta % 60);
    s += buf;
  }
  return s;
}

void Progress::on_done() {
  if (tty_ && line_shown_) terminal_control(out_, "\r\033[K");
  line_shown_ = false;
}

}  // namespace knightly::runner
