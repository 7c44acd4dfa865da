#include "runner/output/run_style.h"

#include <algorithm>
#include <ostream>

#include "runner/output/run_end.h"
#include "runner/stats/match_text.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {
namespace {

// Pentanomial figures when the schedule has pairs and the config reports them.
bool paired(const Config& config) {
  return schedule_has_pairs(config.tournament) && config.output.report_penta;
}

// The LLR a decided test was decided on.
std::optional<double> decided_llr(const MatchEnd& end) {
  return end.decided ? std::optional<double>(end.decided->status.llr) : std::nullopt;
}

void fastchess_block(std::ostream& out, const MatchEnd& end) {
  out << "\n"
      << stats::fastchess_report(end.settings.label, end.report.first_vs_second, end.report.pairs,
                                 end.settings.sprt, end.settings.penta, decided_llr(end));
}

// cutechess-cli: its score line every -scoreinterval games, its Elo (and SPRT) lines every
// -ratinginterval games, and its results at the end unless the last interval showed them.
class CutechessStyle : public RunStyle {
 public:
  std::optional<IntervalSettings> intervals(const Config& config) const override {
    return interval_settings(config, "", paired(config), false);
  }
  void before_standings(std::ostream& out, const MatchEnd& end) const override {
    if (!end.two) return;
    // The score line comes with every game; the LLR is the decision's: when games in progress
    // were stored after it, the last interval showed the LLR of all of them.
    const auto& games = end.report.first_vs_second;
    const long long n = games.games();
    const auto& engines = end.config.engines;
    if (end.shown.score_at != n) out << score_line(engines[0].name, engines[1].name, games) << "\n";
    if (end.shown.rating_at != n || (end.decided && end.decided->games != n)) {
      out << stats::cutechess_elo_line(games) << "\n";
      if (end.sprt) out << stats::cutechess_sprt_line(*end.sprt) << "\n";
    }
  }
  void match_block(std::ostream&, const MatchEnd&) const override {}
  void finished(std::ostream& out) const override { out << "Finished match\n"; }
};

// fastchess: its report block every -ratinginterval games and at the end (fishtest and
// OpenBench read it), each engine's faults as it counts them.
class FastchessStyle : public RunStyle {
 public:
  std::optional<IntervalSettings> intervals(const Config& config) const override {
    return interval_settings(config, "", paired(config), true);
  }
  void match_block(std::ostream& out, const MatchEnd& end) const override {
    if (end.two && end.report.first_vs_second.games() > 0) fastchess_block(out, end);
  }
  void finished(std::ostream& out) const override { out << "Finished match\n"; }
};

// Knightly's own: a score line after every game; at the end fastchess's block for an SPRT,
// else the score and the Elo as the report and `knightly query sprt` show it (from pairs when
// there are pairs); the engines' faults only when there was one.
class KnightlyStyle : public RunStyle {
 public:
  std::optional<IntervalSettings> intervals(const Config&) const override { return std::nullopt; }
  void match_block(std::ostream& out, const MatchEnd& end) const override {
    if (!end.two) return;
    const auto& games = end.report.first_vs_second;
    if (end.config.sprt.enabled && end.summary.sprt) {
      fastchess_block(out, end);
    } else if (games.games() > 0) {
      const auto& engines = end.config.engines;
      out << "\n"
          << score_line(engines[0].name, engines[1].name, games) << "\n"
          << stats::match_elo_line(games, end.report.pairs, end.settings.penta) << "\n";
    }
  }
  void health(std::ostream& out, const std::vector<db::EngineHealth>& health) const override {
    // The latency of every move is in `knightly query health` and the report.
    const bool faults = std::any_of(health.begin(), health.end(), [](const auto& h) {
      return h.time_losses + h.disconnects + h.stalls + h.illegal_moves > 0;
    });
    if (faults)
      RunStyle::health(out, health);
    else
      out << "\nEngine health: no time losses, crashes, stalls or illegal moves (knightly query "
             "health: latency)\n";
  }
};

}  // namespace

void RunStyle::before_standings(std::ostream&, const MatchEnd&) const {}

void RunStyle::health(std::ostream& out, const std::vector<db::EngineHealth>& health) const {
  out << "\n" << engine_health_text(health);
}

void RunStyle::finished(std::ostream&) const {}

std::unique_ptr<RunStyle> make_run_style(OutputStyle style) {
  switch (style) {
    case OutputStyle::Cutechess:
      return std::make_unique<CutechessStyle>();
    case OutputStyle::Fastchess:
      return std::make_unique<FastchessStyle>();
    case OutputStyle::Knightly:
      break;
  }
  return std::make_unique<KnightlyStyle>();
}

}  // namespace knightly::runner
