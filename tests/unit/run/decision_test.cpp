// The decision every worker reads back: which counts end a tournament, and the exit code the
// stored text gives.
#include "runner/run/decision.h"

#include <catch2/catch.hpp>

#include "runner/run/run_options.h"

using namespace knightly::runner;

namespace {

stats::Pentanomial pentanomial(std::int64_t ll, std::int64_t ld, std::int64_t dd, std::int64_t wd,
                               std::int64_t ww) {
  stats::Pentanomial p;
  p.ll = ll;
  p.ld = ld;
  p.dd = dd;
  p.wd = wd;
  p.ww = ww;
  return p;
}

}  // namespace

TEST_CASE("an SPRT decides only past its bounds", "[run][decision]") {
  stats::SprtConfig sprt;  // elo0 0, elo1 5, alpha = beta = 0.05
  CHECK_FALSE(sprt_decision(sprt, pentanomial(10, 20, 40, 20, 10), 200));
  auto h1 = sprt_decision(sprt, pentanomial(5, 40, 300, 300, 60), 1410);
  REQUIRE(h1);
  CHECK(h1->starts_with("sprt: H1 accepted (LLR "));
  CHECK(h1->find("after 1410 games, pentanomial 5 40 300 300 60") != std::string::npos);
  CHECK(exit_code_of(*h1) == ExitOk);
  auto h0 = sprt_decision(sprt, pentanomial(60, 300, 300, 40, 5), 1410);
  REQUIRE(h0);
  CHECK(h0->starts_with("sprt: H0 accepted"));
  CHECK(exit_code_of(*h0) == ExitH0);
}

TEST_CASE("a complete tournament and a stopped one give the gate's exit codes", "[run][decision]") {
  stats::SprtConfig sprt;
  const auto even = pentanomial(10, 20, 40, 20, 10);
  CHECK(complete_decision(120, nullptr, stats::Pentanomial{}) == "complete: all 120 games played");
  CHECK(exit_code_of(complete_decision(120, nullptr, stats::Pentanomial{})) == ExitOk);
  const auto undecided = complete_decision(200, &sprt, even);
  CHECK(undecided.starts_with("sprt: undecided at max games (LLR "));
  CHECK(exit_code_of(undecided) == ExitUndecided);
  // An SPRT whose last game decides it is not "undecided".
  CHECK(exit_code_of(complete_decision(1410, &sprt, pentanomial(5, 40, 300, 300, 60))) == ExitOk);

  // A stop is no finish: every worker exits 3, plain tournament or SPRT.
  const auto stopped = stop_decision(57, 120);
  CHECK(stopped == "stopped: knightly stop after 57 of 120 games");
  CHECK(exit_code_of(stopped) == ExitUndecided);
  CHECK_FALSE(exit_code_of(""));
  CHECK_FALSE(exit_code_of("something else"));
}

TEST_CASE("a schedule without pairs decides on single games (trinomial)", "[run][decision]") {
  stats::SprtConfig sprt;
  stats::Trinomial even{100, 200, 100};
  CHECK_FALSE(sprt_decision(sprt, even));
  stats::Trinomial strong{100, 800, 400};  // losses, draws, wins
  auto h1 = sprt_decision(sprt, strong);
  REQUIRE(h1);
  CHECK(h1->starts_with("sprt: H1 accepted (LLR "));
  CHECK(h1->find("after 1300 games, trinomial 100 800 400") != std::string::npos);
  CHECK(exit_code_of(*h1) == ExitOk);
  auto h0 = sprt_decision(sprt, stats::Trinomial{400, 800, 100});
  REQUIRE(h0);
  CHECK(exit_code_of(*h0) == ExitH0);

  const auto undecided = complete_decision(400, &sprt, even);
  CHECK(undecided.starts_with("sprt: undecided at max games (LLR "));
  CHECK(undecided.find("trinomial 100 200 100") != std::string::npos);
  CHECK(exit_code_of(undecided) == ExitUndecided);
  CHECK(complete_decision(400, nullptr, even) == "complete: all 400 games played");
}

TEST_CASE("the games a decision counted are read back from its text", "[run][decision]") {
  stats::SprtConfig sprt;
  CHECK(decided_games(stop_decision(57, 120)) == 57);
  CHECK(decided_games(*sprt_decision(sprt, stats::Trinomial{100, 800, 400})) == 1300);
  CHECK(decided_games(complete_decision(200, &sprt, pentanomial(10, 20, 40, 20, 10))) == 200);
  CHECK_FALSE(decided_games(complete_decision(120, nullptr, stats::Pentanomial{})));
  CHECK_FALSE(decided_games(""));
  CHECK_FALSE(decided_games("stopped: knightly stop after many games"));
  CHECK_FALSE(decided_games("x after 99999999999999999999999 games"));
}
