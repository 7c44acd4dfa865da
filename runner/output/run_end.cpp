#include "runner/output/run_end.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "runner/output/crc32.h"
#include "runner/output/interval_lines.h"
#include "runner/output/run_style.h"
#include "runner/output/table.h"
#include "runner/players/first_go.h"
#include "runner/run/decision.h"
#include "runner/run/two_engine_tally.h"
#include "runner/stats/elo.h"
#include "runner/stats/match_text.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {

std::string standings_table(const std::vector<db::Standing>& standings) {
  // A Note column only when some engine's Elo is unbounded (a 100% or 0% score).
  bool notes = false;
  for (const auto& s : standings)
    notes = notes || stats::get_elo(stats::Trinomial{s.losses, s.draws, s.wins}).unbounded;
  std::vector<std::string> columns{"Rank", "Engine", "Games",  "Points", "W",
                                   "D",    "L",      "Score%", "Elo",    "+/-"};
  if (notes) columns.push_back("Note");
  Table table(columns);
  long long rank = 0;
  for (const auto& s : standings) {
    const EloCells elo = elo_cells(stats::get_elo(stats::Trinomial{s.losses, s.draws, s.wins}), 1);
    std::vector<Cell> row{cell(++rank),
                          cell(s.engine),
                          cell((long long)s.games),
                          cell(s.points(), 1),
                          cell((long long)s.wins),
                          cell((long long)s.draws),
                          cell((long long)s.losses),
                          cell(s.games ? 100.0 * s.points() / double(s.games) : 0.0, 1),
                          elo.elo,
                          elo.error};
    if (notes) row.push_back(cell(elo.note));
    table.add_row(std::move(row));
  }
  return table.render(OutputFormat::Table, "standings");
}

std::string engine_health_text(const std::vector<db::EngineHealth>& health) {
  std::ostringstream out;
  for (const db::EngineHealth& h : health) {
    out << "Player: " << h.engine << "\n";
    out << "  Timeouts: " << h.time_losses << "\n";
    out << "  Crashed: " << h.disconnects + h.stalls << "\n";
    out << "  Stalls: " << h.stalls << "\n";
    out << "  Illegal moves: " << h.illegal_moves << "\n";
    if (h.latency_moves > 0) {
      char mean[32];
      std::snprintf(mean, sizeof mean, "%.1f", h.latency_mean_ms());
      out << "  Latency: mean " << mean << " ms, max " << h.latency_max_ms << " ms ("
          << h.latency_moves << (h.latency_moves == 1 ? " move" : " moves") << ")\n";
    } else {
      out << "  Latency: unknown (no engine time reported)\n";
    }
  }
  return out.str();
}

void print_final_report(std::ostream& out, std::ostream& err, const Config& config,
                        const RunStyle& style, const RunSummary& summary,
                        const IntervalsShown& shown) {
  if (summary.report) {
    const RunReport& report = *summary.report;
    const bool paired = schedule_has_pairs(config.tournament) && config.output.report_penta;
    MatchEnd end{config,
                 summary,
                 report,
                 config.engines.size() == 2,
                 interval_settings(config, "", paired, true),
                 summary.sprt,
                 std::nullopt,
                 shown};
    // A decided SPRT shows the LLR it was decided on everywhere, even when games in progress
    // were stored after the decision.
    if (end.sprt && end.settings.sprt)
      end.decided = decided_sprt(*end.settings.sprt, summary.decision);
    if (end.decided) end.sprt = end.decided->status;
    style.before_standings(out, end);

    out << "\nStandings of '" << summary.tournament.name << "' (" << summary.games_stored << " of "
        << summary.games_scheduled << " games):\n";
    out << standings_table(report.standings);
    style.match_block(out, end);

    if (!report.terminations.empty()) {
      out << "\nTerminations:\n";
      for (const auto& t : report.terminations)
        out << "  " << (t.reason.empty() ? t.termination : t.reason) << ": " << t.count << "\n";
    }
    if (!report.health.empty()) style.health(out, report.health);
  }
  if (!summary.engine_failures.empty()) {
    out << "\nEngines that could not be restarted:\n";
    for (const auto& f : summary.engine_failures)
      out << "  " << f.engine << ": " << f.reason << " (" << f.games_lost
          << (f.games_lost == 1 ? " game" : " games") << " lost by forfeit)\n";
  }
  if ((summary.finished || summary.stopped) && !summary.decision.empty()) {
    out << "\nDecision: " << summary.decision << "\n";
    if (summary.games_after_decision > 0)
      out << summary.games_after_decision
          << " games in progress at the decision were stored after it: in the database "
             "(knightly query standings), not in these standings or the LLR\n";
  }
  if (summary.games_superseded > 0)
    out << summary.games_superseded
        << " games ended after this worker's lease ran out: kept aside, not counted\n";
  if (summary.tournament.id != 0)
    out << "\nDatabase: " << summary.database << " (tournament '" << summary.tournament.name
        << "', id " << summary.tournament.id << ")\n";
  if (!config.output.pgn.empty() && summary.tournament.id != 0) {
    out << "PGN: " << config.output.pgn << "\n";
    if (config.output.crc32) {
      // fastchess's -crc32 pgn=true: fishtest checks the file it uploads against this.
      if (auto crc = file_crc32(config.output.pgn))
        out << crc32_line(config.output.pgn, *crc) << "\n";
      else
        err << "knightly: " << crc.error() << "\n";
    }
  }
  if (!config.output.epd.empty() && summary.tournament.id != 0)
    out << "EPD: " << config.output.epd << "\n";
  if ((summary.interrupted || summary.stopped) && summary.exit_code != ExitError)
    out << "Stopped before the end: run the same command again to resume.\n";
  if (summary.report) style.finished(out);
  out << std::flush;
  if (summary.exit_code == ExitError && summary.resumable)
    err << "knightly: the finished games are stored; run the same command again to resume"
        << (summary.error.find("database") != std::string::npos ? " once the database is usable"
                                                                : "")
        << "\n";
  err << std::flush;
}

void print_perf_stats(std::ostream& out, const RunSummary& summary) {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const double cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                     double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  auto l = summary.latency_ns;
  std::sort(l.begin(), l.end());
  auto at = [&](double q) {
    return l.empty() ? 0.0 : double(l[std::size_t(q * double(l.size() - 1))]) / 1000.0;
  };
  const double wall = summary.wall_seconds;
  const int games = summary.games_played;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "Runner: %d games, %llu engine moves in %.3f s (%.2f games/s); own CPU %.3f s "
                "(%.1f us per ply, %.2f ms per game); peak RSS %ld kB; added latency per "
                "move: median %.1f us, p99 %.1f us; CPU user %.3f s, system %.3f s\n",
                games, (unsigned long long)summary.plies_played, wall,
                wall > 0 ? games / wall : 0.0, cpu,
                summary.plies_played ? cpu * 1e6 / double(summary.plies_played) : 0.0,
                games ? cpu * 1e3 / games : 0.0, ru.ru_maxrss, at(0.5), at(0.99),
                double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) / 1e6,
                double(ru.ru_stime.tv_sec) + double(ru.ru_stime.tv_usec) / 1e6);
  out << buf;
  if (summary.store_transactions > 0) {
    std::snprintf(buf, sizeof buf, "Stores: %d games in %d transactions (%.1f games each)\n", games,
                  summary.store_transactions, double(games) / summary.store_transactions);
    out << buf;
  }
  if (summary.claim_transactions > 0) {
    std::snprintf(buf, sizeof buf, "Claims: %d pairs in %d transactions (%.1f pairs each)\n",
                  summary.pairs_claimed, summary.claim_transactions,
                  double(summary.pairs_claimed) / summary.claim_transactions);
    out << buf;
  }
  if (const auto first = first_go()) {
    std::snprintf(buf, sizeof buf,
                  "Start-up: first go %.3f s after the process started, own CPU by then %.4f s\n",
                  first->wall_s, first->cpu_s);
    out << buf;
  }
  out << std::flush;
}

}  // namespace knightly::runner
