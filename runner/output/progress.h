#pragma once
// What a run prints while it goes (the run's RunObserver): cutechess's `Started game` /
// `Finished game` lines and a one-line progress display (games done/total, score or leader,
// Elo +/- for two engines, ETA), redrawn in place on a terminal and printed as plain lines
// otherwise. Every line is flushed as it is written: a run that is killed loses none.
#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>

#include "db/records/game_record.h"
#include "runner/output/interval_lines.h"
#include "runner/run/run_observer.h"
#include "runner/stats/counts.h"

namespace knightly::runner {

class Progress : public RunObserver {
 public:
  // `first`, `second`: the engines of a two-engine run (score lines), else "".
  Progress(std::ostream& out, std::ostream& err, bool quiet, std::string first, std::string second);

  void on_schedule(std::size_t total, std::size_t stored) override;
  void on_stored(const std::vector<db::Standing>& standings) override;
  void on_message(const std::string& line) override;
  void on_warning(const std::string& line) override;
  void on_error(const std::string& line) override;
  void on_game_started(int index, const std::string& white, const std::string& black) override;
  void on_game_finished(const GameRecord& record, const stats::Trinomial* tally) override;
  void on_done() override;  // clears the in-place line
  void on_tally(const stats::Trinomial& games, const stats::Pentanomial& pairs) override;
  // Knightly's style prints "Score of A vs B" after every game; cutechess's and fastchess's
  // styles print their own lines every so many games (interval_lines, as the run style says)
  // instead.
  void set_intervals(const IntervalSettings& settings) { intervals_ = settings; }
  // What the interval lines last showed, for the final report.
  const IntervalsShown& intervals_shown() const { return shown_; }

 private:
  std::string status_line() const;
  void print(const std::string& line);
  void redraw();

  std::ostream& out_;
  std::ostream& err_;
  bool quiet_;
  bool tty_;
  std::string first_;
  std::string second_;
  std::size_t total_ = 0;
  std::size_t done_ = 0;
  std::size_t done_here_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::map<std::string, double> points_;
  std::map<std::string, int> games_;
  std::string two_engine_;  // last score summary for two-engine runs
  bool line_shown_ = false;
  std::optional<IntervalSettings> intervals_;
  IntervalsShown shown_;
};

}  // namespace knightly::runner
