#pragma once
// The three looks of a run's output behind one interface: cutechess-cli's, fastchess's and
// Knightly's own. A command chooses one, once (make_run_style, from the config's output style);
// the progress lines and the lines a run ends with (run_end.h) ask it what to print, and
// nothing else compares styles. The run itself (runner/run) formats nothing.
#include <iosfwd>
#include <memory>
#include <optional>
#include <vector>

#include "db/records/report_types.h"
#include "runner/config/choices.h"
#include "runner/config/config.h"
#include "runner/output/interval_lines.h"
#include "runner/run/decision.h"
#include "runner/run/run_options.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

// How a command presents a run: its style and how much it says. Carried beside RunOptions,
// which holds nothing of presentation.
struct Presentation {
  OutputStyle style = OutputStyle::Knightly;
  bool quiet = false;  // no per-game lines, only the summary
};

// What the end of a two-engine run shows, worked out once for every style.
struct MatchEnd {
  const Config& config;
  const RunSummary& summary;
  const RunReport& report;
  bool two = false;                       // a two-engine run
  IntervalSettings settings;              // names, labels, the SPRT, pairs or games
  std::optional<stats::SprtStatus> sprt;  // at the end; a decided test's at its decision
  std::optional<DecidedSprt> decided;     // the decision's figures, when decided
  IntervalsShown shown;                   // what the interval lines printed last
};

class RunStyle {
 public:
  virtual ~RunStyle() = default;
  // The lines printed every so many games while the run goes (Progress::set_intervals);
  // nullopt: none (Knightly's own style prints a score line after every game instead).
  virtual std::optional<IntervalSettings> intervals(const Config& config) const = 0;
  // Before the standings.
  virtual void before_standings(std::ostream& out, const MatchEnd& end) const;
  // After the standings: the block of a two-engine run.
  virtual void match_block(std::ostream& out, const MatchEnd& end) const = 0;
  // Each engine's faults and latency (`health` is not empty).
  virtual void health(std::ostream& out, const std::vector<db::EngineHealth>& health) const;
  // The last line of a run that read its report.
  virtual void finished(std::ostream& out) const;
};

std::unique_ptr<RunStyle> make_run_style(OutputStyle style);

}  // namespace knightly::runner
