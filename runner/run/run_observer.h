#pragma once
// What a run tells whoever shows it (the CLI's progress lines): the run module formats
// nothing itself. Calls come from the run's game threads one at a time (the run serializes
// them), never from a signal handler.
#include <string>

#include "db/records/game_record.h"
#include "db/records/store_types.h"
#include "runner/stats/counts.h"

namespace knightly::runner {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // How many games the run covers and how many are already stored (before any game starts).
  virtual void on_schedule(std::size_t total, std::size_t stored) {
    (void)total;
    (void)stored;
  }
  // Right after on_schedule when the tournament already has games (resumed, or joined while
  // other workers play it): the standings of those games, so counts cover the whole tournament.
  virtual void on_stored(const std::vector<db::Standing>& standings) { (void)standings; }
  // A line for the user ("Resuming tournament 'x': 40 of 100 games already played").
  virtual void on_message(const std::string& line) { (void)line; }
  // Something worth knowing that does not stop the run ("Warning: ..." is the observer's).
  virtual void on_warning(const std::string& line) { (void)line; }
  // An error that stops the run (it goes on stopping; the summary carries the first one).
  virtual void on_error(const std::string& line) { (void)line; }
  virtual void on_game_started(int index, const std::string& white, const std::string& black) {
    (void)index;
    (void)white;
    (void)black;
  }
  // A game this process stored. `tally`: the first engine's score against the second in a
  // two-engine run (every worker's stored games as far as this process knows), else null.
  virtual void on_game_finished(const GameRecord& record, const stats::Trinomial* tally) {
    (void)record;
    (void)tally;
  }
  // Right after on_game_finished in a two-engine run: the first engine's single games and
  // complete pairs so far (for cutechess's and fastchess's interval lines).
  virtual void on_tally(const stats::Trinomial& games, const stats::Pentanomial& pairs) {
    (void)games;
    (void)pairs;
  }
  // Before the report: the in-place progress line is cleared.
  virtual void on_done() {}
};

}  // namespace knightly::runner
