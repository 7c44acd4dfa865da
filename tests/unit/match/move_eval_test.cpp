#include "db/records/move_eval.h"

#include <catch2/catch.hpp>
#include <cstdio>

using namespace knightly;

namespace {
MoveEval eval(std::optional<int> cp, std::optional<int> mate, int depth) {
  MoveEval e;
  e.score_cp = cp;
  e.mate = mate;
  e.depth = depth;
  return e;
}
// The comment of a move that took `ms` (measured by the runner, not said by the engine).
std::string comment(std::optional<int> cp, std::optional<int> mate, int depth, std::int64_t ms) {
  return eval_comment(eval(cp, mate, depth), ms);
}
}  // namespace

TEST_CASE("cutechess move comments: score/depth and time", "[match][pgn]") {
  CHECK(comment(35, {}, 12, 520) == "+0.35/12 0.52s");
  CHECK(comment(-120, {}, 7, 1234) == "-1.20/7 1.2s");
  CHECK(comment(0, {}, 1, 12345) == "0.00/1 12s");
  CHECK(comment(5, {}, 3, 50) == "+0.05/3 0.050s");
  CHECK(comment(5, {}, 3, 0) == "+0.05/3 0s");
  CHECK(comment(250, {}, 20, 999) == "+2.50/20 1.00s");
}

TEST_CASE("cutechess mate scores are in plies", "[match][pgn]") {
  CHECK(comment({}, 1, 5, 10) == "+M1/5 0.010s");
  CHECK(comment({}, 3, 9, 10) == "+M5/9 0.010s");
  CHECK(comment({}, -2, 9, 10) == "-M4/9 0.010s");
  CHECK(comment({}, -1, 9, 10) == "-M2/9 0.010s");
  CHECK(score_text(eval({}, 0, 9)) == "-M0");
  CHECK(*comparable_score(eval({}, 3, 9)) == 29995);
  CHECK(*comparable_score(eval({}, -2, 9)) == -29996);
  CHECK(*comparable_score(eval(-42, {}, 9)) == -42);
  CHECK_FALSE(comparable_score(eval({}, {}, 9)));
}

TEST_CASE("comments without a score or a depth", "[match][pgn]") {
  CHECK(comment({}, {}, 0, 100) == "");  // nothing worth writing
  CHECK(comment({}, {}, 0, 600) == "0.60s");
  CHECK(comment(30, {}, 0, 600) == "0.60s");  // cutechess shows no score at depth 0
  CHECK(comment({}, {}, 4, 600) == "0.60s");
}

TEST_CASE("centipawn scores read as printf's %.2f of the pawns, for every score", "[match][pgn]") {
  // score_text writes the digits from the integer; printf of the double is the reference.
  for (int cp = -29800; cp <= 29800; ++cp) {
    char want[32];
    std::snprintf(want, sizeof want, "%s%.2f", cp > 0 ? "+" : "", cp / 100.0);
    if (score_text(eval(cp, {}, 1)) != want) {
      FAIL("score " << cp << ": " << score_text(eval(cp, {}, 1)) << " != " << want);
    }
  }
}

TEST_CASE("move times read as printf's %.*f of the seconds, ties and all", "[match][pgn]") {
  // The precision cutechess uses for each range, and beyond it; printf is the reference.
  for (std::int64_t ms = -1500; ms <= 120000; ++ms) {
    for (int precision : {0, 1, 2, 3}) {
      char want[64];
      std::snprintf(want, sizeof want, "%.*fs", precision, double(ms) / 1000.0);
      std::string got;
      append_seconds(got, ms, precision);
      if (got != want) FAIL(ms << " ms, precision " << precision << ": " << got << " != " << want);
    }
  }
  for (std::int64_t ms : {std::int64_t(1) << 40, std::int64_t(9007199254740993)}) {
    char want[64];
    std::snprintf(want, sizeof want, "%.*fs", 3, double(ms) / 1000.0);
    std::string got;
    append_seconds(got, ms, 3);
    CHECK(got == want);
  }
}
