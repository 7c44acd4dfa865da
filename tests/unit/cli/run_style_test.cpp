// The three output styles of a run behind one interface (runner/output/run_style.h): what each
// prints while the run goes and when it ends, through print_final_report as the commands call it.
#include "runner/output/run_style.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "runner/output/run_end.h"

using namespace knightly;
using namespace knightly::runner;

namespace {

Config two_engines() {
  Config c;
  c.engines.resize(2);
  c.engines[0].name = "new";
  c.engines[1].name = "base";
  c.tournament.games_per_encounter = 2;
  c.tournament.repeat = true;
  c.tournament.rounds = 2;
  return c;
}

RunSummary finished_match() {
  RunSummary s;
  s.tournament.id = 1;
  s.tournament.name = "m";
  s.games_stored = 4;
  s.games_scheduled = 4;
  s.finished = true;
  RunReport r;
  r.first_vs_second = stats::Trinomial{1, 1, 2};  // losses, draws, wins
  r.pairs.ww = 1;
  r.pairs.ld = 1;
  db::EngineHealth h;
  h.engine = "new";
  h.games = 4;
  r.health = {h};
  s.report = r;
  return s;
}

std::string end_of(OutputStyle style, const IntervalsShown& shown = {}) {
  std::ostringstream out, err;
  print_final_report(out, err, two_engines(), *make_run_style(style), finished_match(), shown);
  return out.str();
}

}  // namespace

TEST_CASE("each style chooses its interval lines", "[cli][style]") {
  const Config c = two_engines();
  CHECK_FALSE(make_run_style(OutputStyle::Knightly)->intervals(c));
  const auto cute = make_run_style(OutputStyle::Cutechess)->intervals(c);
  REQUIRE(cute);
  CHECK_FALSE(cute->fastchess);
  const auto fast = make_run_style(OutputStyle::Fastchess)->intervals(c);
  REQUIRE(fast);
  CHECK(fast->fastchess);
  CHECK(fast->penta);  // pairs: the schedule has them
  CHECK(fast->label.first == "new");
}

TEST_CASE("Knightly's style ends with the score and Elo, and health only when faulty",
          "[cli][style]") {
  const std::string out = end_of(OutputStyle::Knightly);
  CHECK(out.find("Score of new vs base: 2 - 1 - 1  [0.625] 4") != std::string::npos);
  CHECK(out.find("Results of") == std::string::npos);
  CHECK(out.find("Engine health: no time losses, crashes, stalls or illegal moves") !=
        std::string::npos);
  CHECK(out.find("Player: new") == std::string::npos);
  CHECK(out.find("Finished match") == std::string::npos);
}

TEST_CASE("fastchess's style ends with its block, each engine's faults and Finished match",
          "[cli][style]") {
  const std::string out = end_of(OutputStyle::Fastchess);
  CHECK(out.find("Results of new vs base") != std::string::npos);
  CHECK(out.find("Score of") == std::string::npos);
  CHECK(out.find("Player: new\n  Timeouts: 0\n  Crashed: 0\n") != std::string::npos);
  CHECK(out.ends_with("Finished match\n"));
}

TEST_CASE("cutechess's style repeats its results only when the last interval did not show them",
          "[cli][style]") {
  const std::string out = end_of(OutputStyle::Cutechess);
  const auto score = out.find("Score of new vs base: 2 - 1 - 1  [0.625] 4");
  const auto standings = out.find("Standings of 'm'");
  REQUIRE(score != std::string::npos);
  CHECK(score < standings);  // before the standings, as cutechess-cli ends a match
  CHECK(out.find("Elo difference:") < standings);
  CHECK(out.find("Results of") == std::string::npos);
  CHECK(out.ends_with("Finished match\n"));
  const std::string shown = end_of(OutputStyle::Cutechess, IntervalsShown{4, 4});
  CHECK(shown.find("Score of") == std::string::npos);
  CHECK(shown.find("Elo difference:") == std::string::npos);
}
