#include "runner/match/move_eval.h"

#include <catch2/catch.hpp>
#include <cstdio>

using namespace knightly::runner;

namespace {
MoveEval eval(std::optional<int> cp, std::optional<int> mate, int depth, std::int64_t ms) {
  MoveEval e;
  e.score_cp = cp;
  e.mate = mate;
  e.depth = depth;
  e.time_ms = ms;
  return e;
}
}  // namespace

TEST_CASE("cutechess move comments: score/depth and time", "[match][pgn]") {
  CHECK(eval_comment(eval(35, {}, 12, 520)) == "+0.35/12 0.52s");
  CHECK(eval_comment(eval(-120, {}, 7, 1234)) == "-1.20/7 1.2s");
  CHECK(eval_comment(eval(0, {}, 1, 12345)) == "0.00/1 12s");
  CHECK(eval_comment(eval(5, {}, 3, 50)) == "+0.05/3 0.050s");
  CHECK(eval_comment(eval(5, {}, 3, 0)) == "+0.05/3 0s");
  CHECK(eval_comment(eval(250, {}, 20, 999)) == "+2.50/20 1.00s");
}

TEST_CASE("cutechess mate scores are in plies", "[match][pgn]") {
  CHECK(eval_comment(eval({}, 1, 5, 10)) == "+M1/5 0.010s");
  CHECK(eval_comment(eval({}, 3, 9, 10)) == "+M5/9 0.010s");
  CHECK(eval_comment(eval({}, -2, 9, 10)) == "-M4/9 0.010s");
  CHECK(eval_comment(eval({}, -1, 9, 10)) == "-M2/9 0.010s");
  CHECK(score_text(eval({}, 0, 9, 10)) == "-M0");
  CHECK(*comparable_score(eval({}, 3, 9, 10)) == 29995);
  CHECK(*comparable_score(eval({}, -2, 9, 10)) == -29996);
  CHECK(*comparable_score(eval(-42, {}, 9, 10)) == -42);
  CHECK_FALSE(comparable_score(eval({}, {}, 9, 10)));
}

TEST_CASE("comments without a score or a depth", "[match][pgn]") {
  CHECK(eval_comment(eval({}, {}, 0, 100)) == "");  // nothing worth writing
  CHECK(eval_comment(eval({}, {}, 0, 600)) == "0.60s");
  CHECK(eval_comment(eval(30, {}, 0, 600)) == "0.60s");  // cutechess shows no score at depth 0
  CHECK(eval_comment(eval({}, {}, 4, 600)) == "0.60s");
}

TEST_CASE("centipawn scores read as printf's %.2f of the pawns, for every score", "[match][pgn]") {
  // score_text writes the digits from the integer; printf of the double is the reference.
  for (int cp = -29800; cp <= 29800; ++cp) {
    char want[32];
    std::snprintf(want, sizeof want, "%s%.2f", cp > 0 ? "+" : "", cp / 100.0);
    if (score_text(eval(cp, {}, 1, 0)) != want) {
      FAIL("score " << cp << ": " << score_text(eval(cp, {}, 1, 0)) << " != " << want);
    }
  }
}
