#include "runner/output/interval_lines.h"

#include <cctype>
#include <cstdio>

#include "runner/match/time_control.h"

namespace knightly::runner {

std::string score_line(const std::string& first, const std::string& second,
                       const stats::Trinomial& t) {
  char buf[64];
  const double score = t.games() ? t.points() / static_cast<double>(t.games()) : 0.0;
  std::snprintf(buf, sizeof buf, ": %lld - %lld - %lld  [%.3f] %lld", (long long)t.wins,
                (long long)t.losses, (long long)t.draws, score, (long long)t.games());
  return "Score of " + first + " vs " + second + buf;
}

IntervalSettings interval_settings(const Config& config, const std::string& tc_label, bool paired,
                                   bool fastchess) {
  IntervalSettings s;
  s.fastchess = fastchess;
  s.rating_interval = config.output.rating_interval;
  s.score_interval = config.output.score_interval;
  s.penta = paired && config.output.report_penta;
  if (config.sprt.enabled) {
    s.sprt = stats::SprtConfig{config.sprt.elo0, config.sprt.elo1, config.sprt.alpha,
                               config.sprt.beta, config.sprt.model};
  }
  if (config.engines.size() == 2) {
    const EngineConfig& first = config.engines[0];
    s.label.first = first.name;
    s.label.second = config.engines[1].name;
    s.label.time_control = tc_label;
    if (s.label.time_control.empty()) {
      const auto& l = first.limits;
      const auto& d = config.tournament.defaults;
      if (auto tc = l.tc ? l.tc : d.tc)
        s.label.time_control = format_time_control(*tc);
      else if (auto depth = l.depth ? l.depth : d.depth)
        s.label.time_control = "depth " + std::to_string(*depth);
      else if (auto nodes = l.nodes ? l.nodes : d.nodes)
        s.label.time_control = std::to_string(*nodes) + " nodes";
    }
    for (const auto& [k, v] : first.options) {
      std::string key = k;
      for (auto& c : key) c = char(std::tolower(static_cast<unsigned char>(c)));
      if (key == "threads") s.label.threads = v + "t";
      if (key == "hash") s.label.hash = v + "MB";
    }
    if (first.builtin && s.label.threads.empty()) s.label.threads = "1t";
    s.label.book = config.openings.file;
  }
  return s;
}

namespace {

bool every(int n, std::size_t finished) {
  return finished > 0 && n > 0 && finished % static_cast<std::size_t>(n) == 0;
}

}  // namespace

bool score_due(const IntervalSettings& s, std::size_t finished) {
  return !s.fastchess && every(s.score_interval, finished);
}

bool rating_due(const IntervalSettings& s, std::size_t finished) {
  return every(s.rating_interval, finished);
}

std::string interval_text(const IntervalSettings& s, std::size_t finished,
                          const stats::Trinomial& games, const stats::Pentanomial& pairs) {
  std::string out;
  if (s.fastchess) {
    if (rating_due(s, finished)) {
      const std::string dashes(50, '-');
      out += dashes + "\n" + stats::fastchess_report(s.label, games, pairs, s.sprt, s.penta) +
             dashes + "\n";
    }
    return out;
  }
  if (score_due(s, finished)) out += score_line(s.label.first, s.label.second, games) + "\n";
  if (rating_due(s, finished)) {
    out += stats::cutechess_elo_line(games) + "\n";
    if (s.sprt) {
      const auto status =
          s.penta ? stats::sprt_status(*s.sprt, pairs) : stats::sprt_status(*s.sprt, games);
      out += stats::cutechess_sprt_line(status) + "\n";
    }
  }
  return out;
}

}  // namespace knightly::runner
