// The lines a two-engine run prints every -scoreinterval / -ratinginterval games.
#include <catch2/catch.hpp>

#include "runner/output/interval_lines.h"

using namespace knightly::runner;

namespace {

stats::Pentanomial pairs_of(int ww, int wl, int dd, int ll) {
  stats::Pentanomial p;
  p.ww = ww;
  p.wl = wl;
  p.dd = dd;
  p.ll = ll;
  return p;
}

}  // namespace

TEST_CASE("cutechess: a score line every -scoreinterval, Elo and SPRT every -ratinginterval",
          "[interval]") {
  IntervalSettings s;
  s.rating_interval = 4;
  s.score_interval = 2;
  s.sprt = stats::SprtConfig{};
  s.label.first = "new";
  s.label.second = "base";
  const auto pairs = pairs_of(2, 1, 0, 0);  // 5 wins, 1 loss in 6 games
  const auto games = pairs.games();
  CHECK(interval_text(s, 1, games, pairs).empty());
  CHECK(interval_text(s, 2, games, pairs) == "Score of new vs base: 5 - 1 - 0  [0.833] 6\n");
  const std::string four = interval_text(s, 4, games, pairs);
  CHECK(four.rfind("Score of new vs base: 5 - 1 - 0", 0) == 0);
  CHECK(four.find("\nElo difference: ") != std::string::npos);
  CHECK(four.find("\nSPRT: llr ") != std::string::npos);
  CHECK(interval_text(s, 0, {}, {}).empty());
  s.score_interval = 0;
  s.rating_interval = 0;
  CHECK(interval_text(s, 4, games, pairs).empty());
}

TEST_CASE("score_due and rating_due say when interval_text prints which lines", "[interval]") {
  IntervalSettings s;
  s.rating_interval = 4;
  s.score_interval = 2;
  CHECK_FALSE(score_due(s, 0));
  CHECK_FALSE(rating_due(s, 0));
  CHECK(score_due(s, 2));
  CHECK_FALSE(rating_due(s, 2));
  CHECK(score_due(s, 4));
  CHECK(rating_due(s, 4));
  s.rating_interval = 0;
  CHECK_FALSE(rating_due(s, 4));
  // fastchess prints no score lines, only its block.
  s.fastchess = true;
  s.rating_interval = 2;
  CHECK_FALSE(score_due(s, 2));
  CHECK(rating_due(s, 2));
}

TEST_CASE("fastchess: its report block every -ratinginterval, from pairs or single games",
          "[interval]") {
  IntervalSettings s;
  s.fastchess = true;
  s.rating_interval = 2;
  s.score_interval = 1;  // cutechess output only
  s.label = {"New", "Base", "10+0.1", "1t", "16MB", "book.epd"};
  const auto pairs = pairs_of(3, 2, 1, 2);
  const auto games = pairs.games();
  CHECK(interval_text(s, 1, games, pairs).empty());
  const std::string block = interval_text(s, 2, games, pairs);
  const std::string dashes(50, '-');
  CHECK(block.rfind(dashes + "\nResults of New vs Base (10+0.1, 1t, 16MB, book.epd):\n", 0) == 0);
  CHECK(block.find("Ptnml(0-2): [2, 0, 3, 0, 3]") != std::string::npos);
  CHECK(block.size() > dashes.size() * 2);
  CHECK(block.substr(block.size() - dashes.size() - 1) == dashes + "\n");
  CHECK(block.find("LLR") == std::string::npos);
  s.sprt = stats::SprtConfig{};
  CHECK(interval_text(s, 4, games, pairs).find("\nLLR: ") != std::string::npos);
  // No pairs in the schedule: fastchess's WDL form, no pair figures, and never a NaN.
  s.penta = false;
  const std::string wdl = interval_text(s, 2, games, {});
  CHECK(wdl.find("Ptnml") == std::string::npos);
  CHECK(wdl.find("PairsRatio") == std::string::npos);
  CHECK(wdl.find("nan") == std::string::npos);
}

TEST_CASE("the score line keeps engine names of any length whole", "[interval]") {
  // Knightly's per-game line and the final report print this line too (one function for all).
  const std::string first(300, 'a'), second = "base";
  stats::Trinomial t;
  t.wins = 3;
  t.losses = 1;
  t.draws = 2;
  CHECK(score_line(first, second, t) == "Score of " + first + " vs base: 3 - 1 - 2  [0.667] 6");
}
