#pragma once
// What a two-engine run prints while it goes, every so many finished games, in the style its
// user knows:
//   cutechess-cli: "Score of A vs B: W - L - D  [0.550] N" every -scoreinterval games, and
//                  "Elo difference: ..." (and "SPRT: llr ...") every -ratinginterval games;
//   fastchess:     its report block between dashed lines (Results of, Elo, LOS, Games,
//                  Ptnml, LLR) every -ratinginterval games, which fishtest and OpenBench read.
// Pure: the tallies come in as values.
#include <cstddef>
#include <optional>
#include <string>

#include "runner/config/config.h"
#include "runner/stats/counts.h"
#include "runner/stats/match_text.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

struct IntervalSettings {
  bool fastchess = false;   // fastchess's block; else cutechess-cli's lines
  int rating_interval = 0;  // 0 = never while the run goes
  int score_interval = 0;   // cutechess only; 0 = never
  // Pentanomial figures (pairs) or single games: pairs only when the schedule has them.
  bool penta = true;
  std::optional<stats::SprtConfig> sprt;
  stats::MatchLabel label;  // first and second engine, tc, threads, hash, book
};

// The settings for a two-engine run of `config`: names, the tc label (`tc_label`, else the first
// engine's limits), its Threads and Hash, the book, the SPRT, pairs or single games.
IntervalSettings interval_settings(const Config& config, const std::string& tc_label, bool paired,
                                   bool fastchess);

// Whether the score line (cutechess) or the rating lines (cutechess's Elo and SPRT lines,
// fastchess's block) are due after `finished` games.
bool score_due(const IntervalSettings& settings, std::size_t finished);
bool rating_due(const IntervalSettings& settings, std::size_t finished);

// What a run printed last at its intervals, in games: the final report does not print the same
// lines again (cutechess-cli prints its results at the end only when the last game was not at
// a -ratinginterval). -1: never.
struct IntervalsShown {
  long long score_at = -1;
  long long rating_at = -1;
};

// The lines to print after `finished` games (counted over the whole tournament), "" for none.
// `games` are the first engine's single results, `pairs` its complete pairs.
std::string interval_text(const IntervalSettings& settings, std::size_t finished,
                          const stats::Trinomial& games, const stats::Pentanomial& pairs);

// "Score of A vs B: W - L - D  [0.550] N" (cutechess-cli).
std::string score_line(const std::string& first, const std::string& second,
                       const stats::Trinomial& t);

}  // namespace knightly::runner
