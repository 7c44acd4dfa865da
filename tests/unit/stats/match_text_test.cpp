// The fastchess block fishtest parses and cutechess-cli's lines, character for character.
#include "runner/stats/match_text.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "runner/stats/elo.h"
#include "runner/stats/sprt.h"

using namespace knightly::runner::stats;

namespace {

// The counts behind fastchess's documented sample: Ptnml [43, 61, 144, 55, 37] where the
// 144 one-point pairs are 119 WL and 25 DD (WL/DD 4.76), i.e. 248 wins, 266 losses, 166 draws.
Pentanomial sample_pairs() {
  Pentanomial p;
  p.ll = 43;
  p.ld = 61;
  p.wl = 119;
  p.dd = 25;
  p.wd = 55;
  p.ww = 37;
  return p;
}

std::string fixed_text(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

TEST_CASE("game pairs are classified by their two results", "[stats][report]") {
  Pentanomial p;
  p.add_pair(Outcome::Win, Outcome::Win);
  p.add_pair(Outcome::Win, Outcome::Loss);
  p.add_pair(Outcome::Loss, Outcome::Win);
  p.add_pair(Outcome::Draw, Outcome::Draw);
  p.add_pair(Outcome::Draw, Outcome::Win);
  p.add_pair(Outcome::Loss, Outcome::Draw);
  p.add_pair(Outcome::Loss, Outcome::Loss);
  CHECK(p.ww == 1);
  CHECK(p.wl == 2);
  CHECK(p.dd == 1);
  CHECK(p.wd == 1);
  CHECK(p.ld == 1);
  CHECK(p.ll == 1);
  CHECK(p.pairs() == 7);
  const Trinomial t = p.games();
  CHECK(t.wins == 5);
  CHECK(t.losses == 5);
  CHECK(t.draws == 4);
  CHECK(p.as_array() == std::array<double, 5>{1, 1, 3, 1, 1});

  const Pentanomial s = sample_pairs();
  const Trinomial g = s.games();
  CHECK(g.wins == 248);
  CHECK(g.losses == 266);
  CHECK(g.draws == 166);
  CHECK(g.games() == 680);
}

TEST_CASE("fastchess block: the documented sample comes out of its counts", "[stats][report]") {
  const Pentanomial pairs = sample_pairs();
  const MatchLabel label{"New", "Base", "tc", "1t", "16MB", "book"};
  const std::string expected =
      "Results of New vs Base (tc, 1t, 16MB, book):\n"
      "Elo: -9.20 +/- 20.93, nElo: -11.50 +/- 26.11\n"
      "LOS: 19.41 %, DrawRatio: 42.35 %, PairsRatio: 0.88\n"
      "Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)\n"
      "Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76\n";
  CHECK(fastchess_report(label, pairs.games(), pairs, std::nullopt) == expected);

  // The sample's bounds (-2.25, 2.89) are alpha 0.05, beta 0.10. Its LLR line belongs to a
  // later state of the test (these counts give a negative LLR), so the line is checked for an
  // LLR of 2.9105 and the block with these counts carries their own LLR.
  const SprtConfig sprt{-3, 1, 0.05, 0.10, EloModel::Normalized};
  CHECK(fastchess_sprt_line(sprt, 2.9105) == "LLR: 2.91 (100.7%) (-2.25, 2.89) [-3.00, 1.00]");
  const double own = llr_normalized(-3, 1, pairs.as_array());
  CHECK(own < 0);
  const std::string with_sprt = fastchess_report(label, pairs.games(), pairs, sprt);
  CHECK(with_sprt == expected + fastchess_sprt_line(sprt, own) + "\n");
  CHECK(fastchess_sprt_line(sprt, own) == "LLR: -0.24 (-10.5%) (-2.25, 2.89) [-3.00, 1.00]");
}

TEST_CASE("fastchess block: book path, missing options, WDL form", "[stats][report]") {
  const Pentanomial pairs = sample_pairs();
  MatchLabel label{"A", "B", "10+0.1", "", "", "/books/UHO_4060_v2.epd"};
  const std::string penta = fastchess_report(label, pairs.games(), pairs, std::nullopt);
  CHECK(penta.rfind("Results of A vs B (10+0.1, NULL, NULL, UHO_4060_v2.epd):\n", 0) == 0);
  label.book.clear();
  const std::string wdl = fastchess_report(label, pairs.games(), pairs, std::nullopt, false);
  // Worked by hand from 248/266/166: mu = 0.48676, per-game sd 0.45784.
  CHECK(wdl ==
        "Results of A vs B (10+0.1, NULL, NULL):\n"
        "Elo: -9.20 +/- 22.74, nElo: -10.58 +/- 26.11\n"
        "LOS: 21.35 %, DrawRatio: 24.41 %\n"
        "Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)\n");
  const EloEstimate e = get_elo(pairs.games());
  // The trinomial interval is wider than the pentanomial one for these correlated pairs.
  CHECK(e.elo95 > get_elo(pairs).elo95);
}

TEST_CASE("fastchess ratios: draw ratio over pairs, pairs ratio, WL/DD", "[stats][report]") {
  const Pentanomial p = sample_pairs();
  CHECK(draw_ratio_pairs(p) == Approx(144.0 / 340.0));
  CHECK(pairs_ratio(p) == Approx(92.0 / 104.0));
  CHECK(wl_dd_ratio(p) == Approx(4.76));
  Pentanomial only_wins;
  only_wins.ww = 3;
  CHECK(std::isinf(pairs_ratio(only_wins)));
  CHECK(std::isnan(wl_dd_ratio(only_wins)));
  // No NaN or infinity is ever printed as a ratio: 0/0 and x/0 are "n/a".
  const std::string block = fastchess_report({"A", "B", "tc", "1t", "16MB", ""}, only_wins.games(),
                                             only_wins, std::nullopt);
  CHECK(block.find("PairsRatio: n/a\n") != std::string::npos);
  CHECK(block.find("WL/DD Ratio: n/a\n") != std::string::npos);
  CHECK(block.find("nan") == std::string::npos);
  // Nothing played yet: every ratio has nothing to divide.
  const std::string empty =
      fastchess_report({"A", "B", "tc", "1t", "16MB", ""}, {}, {}, SprtConfig{});
  CHECK(empty.find("nan") == std::string::npos);
  CHECK(empty.find("DrawRatio: n/a %, PairsRatio: n/a") != std::string::npos);
  CHECK(empty.find("Points: 0.0 (n/a %)") != std::string::npos);
  const std::string wdl =
      fastchess_report({"A", "B", "tc", "1t", "16MB", ""}, {}, {}, std::nullopt, false);
  CHECK(wdl.find("nan") == std::string::npos);
  CHECK(cutechess_elo_line({}).find("nan") == std::string::npos);
}

TEST_CASE("a 100% or 0% score prints as unbounded with its 95% bound, never a clamp",
          "[stats][report]") {
  Trinomial won;
  won.wins = 24;
  const EloEstimate e = get_elo(won);
  CHECK(e.unbounded);
  // 0.025^(1/24) = 0.85748 -> 311.8 Elo: the exact one-sided bound of 24 wins out of 24.
  CHECK(e.bound95 == Approx(-400.0 * std::log10(1.0 / std::pow(0.025, 1.0 / 24) - 1.0)));
  CHECK(e.bound95 == Approx(311.81).margin(0.01));
  CHECK(elo_value_text(e, 1) == "+inf");
  CHECK(elo_interval_text(e, 1) == "(100% score, >= 311.8 at 95%)");
  CHECK(cutechess_elo_line(won) ==
        "Elo difference: +inf (100% score, >= 311.8 at 95%), LOS: 100.0 %, DrawRatio: 0.0 %");
  CHECK(cutechess_elo_line(won).find("1199") == std::string::npos);

  Trinomial lost;
  lost.losses = 60;
  const EloEstimate l = get_elo(lost);
  CHECK(l.unbounded);
  CHECK(elo_value_text(l, 1) == "-inf");
  CHECK(elo_interval_text(l, 1).rfind("(0% score, <= -", 0) == 0);

  Pentanomial sweep;
  sweep.ww = 12;
  const std::string block =
      fastchess_report({"New", "Base", "tc", "1t", "16MB", ""}, sweep.games(), sweep, std::nullopt);
  CHECK(block.find("Elo: +inf (100% score, >= ") != std::string::npos);
  CHECK(block.find("nElo: +inf\n") != std::string::npos);
  CHECK(block.find("1199") == std::string::npos);

  // Over two games the bound of a perfect score is below 0 Elo: still a 100% score, still +inf.
  Trinomial two;
  two.wins = 2;
  const EloEstimate t = get_elo(two);
  CHECK(t.unbounded);
  CHECK(t.bound95 == Approx(-290.5).margin(0.05));
  CHECK(elo_value_text(t, 1) == "+inf");
  CHECK(elo_interval_text(t, 1) == "(100% score, >= -290.5 at 95%)");
  Trinomial two_lost;
  two_lost.losses = 2;
  CHECK(elo_value_text(get_elo(two_lost), 1) == "-inf");
  CHECK(elo_interval_text(get_elo(two_lost), 1) == "(0% score, <= 290.5 at 95%)");

  // One draw or one loss is enough for a finite estimate.
  won.draws = 1;
  CHECK_FALSE(get_elo(won).unbounded);
  CHECK(elo_value_text(get_elo(won), 1) != "+inf");
  CHECK_FALSE(get_elo(Trinomial{}).unbounded);

  // An even score's Elo is -0.0 in floating point: it prints as 0.0, as the report's JSON does.
  const Trinomial even{3, 4, 3};
  CHECK(elo_text(get_elo(even), 1).rfind("0.0 +/- ", 0) == 0);
  CHECK(cutechess_elo_line(even).rfind("Elo difference: 0.0 +/- ", 0) == 0);
}

TEST_CASE("Knightly's match line: the Elo from the pairs when there are pairs, else the games",
          "[stats][report]") {
  const Pentanomial pairs = sample_pairs();
  const Trinomial games = pairs.games();
  const EloEstimate e = get_elo(pairs);
  // The figures of fastchess's block (and so of the report and query sprt), to one decimal.
  CHECK(match_elo_line(games, pairs, true) ==
        "Elo difference: " + elo_text(e, 1) + ", LOS: " + fixed_text(e.los * 100.0, 1) +
            " %, DrawRatio: " + fixed_text(draw_ratio_pairs(pairs) * 100.0, 1) + " % (from " +
            std::to_string(pairs.pairs()) + " game pairs)");
  CHECK(match_elo_line(games, pairs, true) != cutechess_elo_line(games));
  // Single games, or no complete pair yet: cutechess's line from the games.
  CHECK(match_elo_line(games, pairs, false) == cutechess_elo_line(games));
  CHECK(match_elo_line(Trinomial{0, 0, 1}, Pentanomial{}, true) ==
        cutechess_elo_line(Trinomial{0, 0, 1}));
  // A sweep: +inf with the bound every other output shows.
  Pentanomial sweep;
  sweep.ww = 5;
  CHECK(match_elo_line(sweep.games(), sweep, true) ==
        "Elo difference: " + elo_text(get_elo(sweep), 1) +
            ", LOS: 100.0 %, DrawRatio: 0.0 % (from 5 game pairs)");
}

TEST_CASE("cutechess lines", "[stats][report]") {
  const Trinomial games = sample_pairs().games();
  // Elo -9.2 +/- 22.7 from W/D/L; LOS from wins and losses only: Phi((248-266)/sqrt(514)).
  CHECK(cutechess_elo_line(games) ==
        "Elo difference: -9.2 +/- 22.7, LOS: 21.4 %, DrawRatio: 24.4 %");

  SprtStatus s;
  s.bounds = sprt_bounds(0.05, 0.05);
  s.llr = 2.9662;
  s.decision = decide(s.llr, s.bounds);
  CHECK(cutechess_sprt_line(s) ==
        "SPRT: llr 2.97 (100.7%), lbound -2.94, ubound 2.94 - H1 was accepted");
  s.llr = -3.0;
  s.decision = decide(s.llr, s.bounds);
  CHECK(cutechess_sprt_line(s) ==
        "SPRT: llr -3 (-101.9%), lbound -2.94, ubound 2.94 - H0 was accepted");
  s.llr = 0.5;
  s.decision = decide(s.llr, s.bounds);
  CHECK(cutechess_sprt_line(s) == "SPRT: llr 0.5 (17.0%), lbound -2.94, ubound 2.94");
}

TEST_CASE("the fastchess block counts finished pairs alone, as fishtest asserts",
          "[stats][report]") {
  // Five games played: two finished pairs (WW, WL) and the first game of a third (a win).
  Pentanomial pairs;
  pairs.ww = 1;
  pairs.wl = 1;
  Trinomial games = pairs.games();
  games.add(Outcome::Win);
  REQUIRE(games.games() == 5);
  const std::string block =
      fastchess_report({"A", "B", "tc", "1t", "16MB", ""}, games, pairs, SprtConfig{});
  CHECK(block.find("Games: 4, Wins: 3, Losses: 1, Draws: 0, Points: 3.0 (75.00 %)") !=
        std::string::npos);
  CHECK(block.find("Ptnml(0-2): [0, 0, 1, 0, 1], WL/DD Ratio: n/a") != std::string::npos);
  // Single games (penta=false) count every game.
  const std::string wdl =
      fastchess_report({"A", "B", "tc", "1t", "16MB", ""}, games, pairs, std::nullopt, false);
  CHECK(wdl.find("Games: 5, Wins: 4") != std::string::npos);
}
