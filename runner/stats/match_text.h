#pragma once
// A match's figures as text, as pure functions: the one Elo text every output shows,
// Knightly's match line, and the blocks other tools parse: fastchess's interval report (which
// fishtest's worker reads) and cutechess-cli's result and SPRT lines.
#include <optional>
#include <string>

#include "runner/stats/counts.h"
#include "runner/stats/elo.h"
#include "runner/stats/sprt.h"

namespace knightly::runner::stats {

// What the first line of the fastchess block names. Empty threads/hash print as NULL, as
// fastchess does for an engine without that option; an empty book is left out, a book path
// is cut to its file name.
struct MatchLabel {
  std::string first;         // the engine the figures are for ("New")
  std::string second;        // its opponent ("Base")
  std::string time_control;  // e.g. "10+0.1", "8 plies", "1000 nodes"
  std::string threads;       // e.g. "1t"
  std::string hash;          // e.g. "16MB"
  std::string book;
};

// An Elo estimate as text. A 100% or 0% score has no finite Elo: it prints "+inf" / "-inf"
// where a number would be, and its interval as the finite bound, "(100% score, >= 311.1 at
// 95%)", instead of fishtest's clamped 1199.8 with a narrow interval.
std::string elo_value_text(const EloEstimate& e, int decimals);     // "-9.2", "+inf"
std::string elo_interval_text(const EloEstimate& e, int decimals);  // "+/- 20.9", "(100% ...)"
// Both, as every output shows an estimate: "-9.2 +/- 20.9", "+inf (100% score, >= 311.1 at 95%)".
std::string elo_text(const EloEstimate& e, int decimals);

// fastchess's ratios, from the first engine's side. 0/0 is NaN and x/0 infinity; the text
// forms print either as "n/a" (never "nan" or "inf", which no reader takes for a figure).
double draw_ratio_pairs(const Pentanomial& p);  // (WL + DD) / pairs, 0..1
double pairs_ratio(const Pentanomial& p);       // (WW + WD) / (LD + LL)
double wl_dd_ratio(const Pentanomial& p);       // WL / DD

// The fastchess block, one '\n' after each line:
//   Results of New vs Base (tc, 1t, 16MB, book):
//   Elo: ..., nElo: ...
//   LOS: .. %, DrawRatio: .. %, PairsRatio: ..
//   Games: .., Wins: .., Losses: .., Draws: .., Points: .. (.. %)
//   Ptnml(0-2): [..], WL/DD Ratio: ..
//   LLR: .. (..%) (lower, upper) [elo0, elo1]        <- only when sprt is given
// Figures are fishtest's get_elo on the pentanomial counts, and every line counts the finished
// pairs alone, as fastchess does (Games = 2 x the pairs; `games` is not read). With penta =
// false it is fastchess's WDL form: `games`' figures, draw ratio over games, no pair figures.
// The LLR is sprt_status()'s in the configured model, or `llr` when given (a decided test's,
// at its decision).
std::string fastchess_report(const MatchLabel& label, const Trinomial& games,
                             const Pentanomial& pairs, const std::optional<SprtConfig>& sprt,
                             bool penta = true, std::optional<double> llr = std::nullopt);

// "LLR: 2.91 (100.7%) (-2.25, 2.89) [-3.00, 1.00]" (no newline).
std::string fastchess_sprt_line(const SprtConfig& config, double llr);

// cutechess-cli: "Elo difference: -9.2 +/- 20.9, LOS: 19.4 %, DrawRatio: 24.4 %" (no newline).
// Elo and interval from the trinomial (fishtest get_elo), LOS as cutechess computes it from
// wins and losses only, draw ratio over games.
std::string cutechess_elo_line(const Trinomial& games);

// Knightly's own two-engine line: the estimate every other view of the match shows (the
// report's Match section, `knightly query sprt`, fastchess's block): fishtest's get_elo on the
// pairs when the games come in pairs (`penta` and at least one complete pair), LOS and draw
// ratio over pairs as in fastchess's block; else cutechess_elo_line's, from the games.
// "Elo difference: 58.3 +/- 98.7, LOS: 88.8 %, DrawRatio: 66.7 % (from 3 game pairs)"
std::string match_elo_line(const Trinomial& games, const Pentanomial& pairs, bool penta);

// cutechess-cli: "SPRT: llr 2.91 (100.7%), lbound -2.94, ubound 2.94 - H1 was accepted"
// (%.3g numbers, percentage of the upper bound; no suffix while undecided).
std::string cutechess_sprt_line(const SprtStatus& status);

}  // namespace knightly::runner::stats
