#include <catch2/catch.hpp>

#include "runner/match/draw_tracker.h"
#include "runner/match/resign_tracker.h"

using namespace knightly::runner;
using knightly::chess::Black;
using knightly::chess::White;

namespace {
DrawAdjudication draw_config(int move_number, int move_count, int score) {
  DrawAdjudication d;
  d.enabled = true;
  d.move_number = move_number;
  d.move_count = move_count;
  d.score_cp = score;
  return d;
}
ResignAdjudication resign_config(int move_count, int score, bool two_sided) {
  ResignAdjudication r;
  r.enabled = true;
  r.move_count = move_count;
  r.score_cp = score;
  r.two_sided = two_sided;
  return r;
}
}  // namespace

TEST_CASE("draw: M moves by each side within the bound after move N", "[match][adjudication]") {
  DrawTracker t(draw_config(10, 3, 10));
  // Plies 1..5 within the bound: 5 plies is one short of 3 moves per side.
  for (int ply = 1; ply <= 5; ++ply) t.update(ply + 30, 0, false);
  CHECK_FALSE(t.adjudicated());
  t.update(36, 0, false);  // the 6th ply: exactly M moves each
  CHECK(t.adjudicated());
}

TEST_CASE("draw: not before move N even with a long streak", "[match][adjudication]") {
  DrawTracker t(draw_config(10, 3, 10));
  for (int ply = 1; ply <= 19; ++ply) t.update(ply, 5, false);
  CHECK_FALSE(t.adjudicated());  // ply 19 is move 9
  t.update(20, 5, false);
  CHECK(t.adjudicated());
}

TEST_CASE("draw: the bound is inclusive and one more resets", "[match][adjudication]") {
  DrawTracker at(draw_config(0, 2, 10));
  at.update(1, 10, false);
  at.update(2, -10, false);
  at.update(3, 10, false);
  CHECK_FALSE(at.adjudicated());
  at.update(4, -10, false);
  CHECK(at.adjudicated());

  DrawTracker over(draw_config(0, 2, 10));
  over.update(1, 10, false);
  over.update(2, 10, false);
  over.update(3, 11, false);  // resets
  CHECK(over.count() == 0);
  over.update(4, 0, false);
  over.update(5, 0, false);
  over.update(6, 0, false);
  CHECK_FALSE(over.adjudicated());
  over.update(7, 0, false);
  CHECK(over.adjudicated());
}

TEST_CASE("draw: irreversible moves and missing scores restart the count",
          "[match][adjudication]") {
  DrawTracker t(draw_config(0, 2, 10));
  t.update(1, 0, false);
  t.update(2, 0, false);
  t.update(3, 0, false);
  t.update(4, 0, true);  // a capture: this move counts as the first of a new streak
  CHECK(t.count() == 1);
  CHECK_FALSE(t.adjudicated());
  t.update(5, std::nullopt, false);  // a book move or no score
  CHECK(t.count() == 0);
  for (int ply = 6; ply <= 8; ++ply) t.update(ply, 0, false);
  CHECK_FALSE(t.adjudicated());
  t.update(9, 0, false);
  CHECK(t.adjudicated());
}

TEST_CASE("draw: disabled never adjudicates", "[match][adjudication]") {
  DrawAdjudication d = draw_config(0, 1, 1000);
  d.enabled = false;
  DrawTracker t(d);
  for (int ply = 1; ply < 200; ++ply) t.update(ply, 0, false);
  CHECK_FALSE(t.adjudicated());
}

TEST_CASE("resign: K moves at or below -S by one side", "[match][adjudication]") {
  ResignTracker t(resign_config(3, 500, false));
  t.update(White, -500);
  t.update(Black, 0);
  t.update(White, -600);
  t.update(Black, 0);
  CHECK_FALSE(t.loser());
  t.update(White, -30000);
  REQUIRE(t.loser());
  CHECK(*t.loser() == White);
}

TEST_CASE("resign: -S+1 does not count and a better move breaks the streak",
          "[match][adjudication]") {
  ResignTracker t(resign_config(2, 500, false));
  t.update(Black, -499);
  t.update(Black, -600);
  CHECK_FALSE(t.loser());
  t.update(Black, -100);
  t.update(Black, -600);
  CHECK_FALSE(t.loser());
  t.update(Black, std::nullopt);  // a book move
  t.update(Black, -600);
  CHECK_FALSE(t.loser());
  t.update(Black, -700);
  REQUIRE(t.loser());
  CHECK(*t.loser() == Black);
}

TEST_CASE("resign: two-sided needs the winner's agreement", "[match][adjudication]") {
  ResignTracker one(resign_config(2, 500, true));
  one.update(White, -600);
  one.update(Black, 100);
  one.update(White, -600);
  CHECK_FALSE(one.loser());  // Black never claimed +500

  ResignTracker two(resign_config(2, 500, true));
  two.update(White, -600);
  two.update(Black, 500);
  two.update(White, -600);
  CHECK_FALSE(two.loser());  // Black has one move at +500, needs two
  two.update(Black, 600);
  two.update(White, -600);
  REQUIRE(two.loser());
  CHECK(*two.loser() == White);
}

TEST_CASE("resign: disabled or zero moves never adjudicates", "[match][adjudication]") {
  ResignAdjudication r = resign_config(1, 100, false);
  r.enabled = false;
  ResignTracker off(r);
  ResignTracker zero(resign_config(0, 100, false));
  for (int i = 0; i < 10; ++i) {
    off.update(White, -1000);
    zero.update(White, -1000);
  }
  CHECK_FALSE(off.loser());
  CHECK_FALSE(zero.loser());
}
