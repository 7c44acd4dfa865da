// The transposition table's game stamp: a new game is O(1) yet never sees an entry of an
// earlier game, including when the 16-bit stamp comes round again after 65536 games.
#include "engine/search/tt.h"

#include <catch2/catch.hpp>

using namespace knightly;
using search::Bound;
using search::TranspositionTable;

namespace {

chess::Key key_of(int game, int i) {
  return 0x9e3779b97f4a7c15ULL * std::uint64_t(game * 1000 + i + 1);
}

}  // namespace

TEST_CASE("TT: entries live for their game only") {
  TranspositionTable tt;
  tt.resize(1);
  REQUIRE(tt.enabled());
  const chess::Move m(chess::Square(12), chess::Square(28));
  for (int game = 0; game < 600; ++game) {
    tt.new_search();
    for (int i = 0; i < 50; ++i) tt.store(key_of(game, i), 3, i, Bound::Exact, m);
    for (int i = 0; i < 50; ++i) {
      const search::TTEntry* e = tt.probe(key_of(game, i));
      REQUIRE(e);
      CHECK(e->score == i);
      CHECK(e->move == m);
    }
    tt.new_game();
    // Nothing of this game or any earlier one is visible now.
    for (int back : {0, 1, 255, 256, 257}) {
      if (back > game) continue;
      for (int i = 0; i < 50; ++i) REQUIRE_FALSE(tt.probe(key_of(game - back, i)));
    }
  }
}

TEST_CASE("TT: an entry of an old game does not lend its move to a new one") {
  TranspositionTable tt;
  tt.resize(1);
  const chess::Key key = 0x123456789abcdefULL;
  tt.new_search();
  tt.store(key, 5, 10, Bound::Lower, chess::Move(chess::Square(8), chess::Square(16)));
  tt.new_game();
  tt.new_search();
  // A store without a move keeps the old best move only within a game.
  tt.store(key, 1, 20, Bound::Upper, chess::Move::none());
  const search::TTEntry* e = tt.probe(key);
  REQUIRE(e);
  CHECK(e->move.is_none());
  CHECK(e->score == 20);
  CHECK(e->depth == 1);
}

TEST_CASE("TT: the game stamp coming round wipes the table for real") {
  TranspositionTable tt;
  tt.resize(1);
  const chess::Move m(chess::Square(12), chess::Square(28));
  tt.new_search();
  for (int i = 0; i < 500; ++i) tt.store(key_of(0, i), 3, i, Bound::Exact, m);
  // 65535 games later the stamp is one short of coming round: still nothing visible.
  for (int g = 0; g < 65535; ++g) tt.new_game();
  for (int i = 0; i < 500; ++i) REQUIRE_FALSE(tt.probe(key_of(0, i)));
  // Stores in the last game before the wrap, then the wrap itself (stamp 0 again, as in
  // game 0): neither the entries of game 0 nor those of the game just ended come back.
  tt.new_search();
  for (int i = 0; i < 500; ++i) tt.store(key_of(1, i), 4, i, Bound::Exact, m);
  REQUIRE(tt.probe(key_of(1, 7)));
  tt.new_game();
  for (int i = 0; i < 500; ++i) {
    REQUIRE_FALSE(tt.probe(key_of(0, i)));
    REQUIRE_FALSE(tt.probe(key_of(1, i)));
  }
  // The table works after the wipe.
  tt.new_search();
  tt.store(key_of(2, 0), 2, 42, Bound::Lower, m);
  const search::TTEntry* e = tt.probe(key_of(2, 0));
  REQUIRE(e);
  CHECK(e->score == 42);
  CHECK(e->bound == Bound::Lower);
}

TEST_CASE("TT: keys that share their low 48 bits in different buckets stay apart") {
  TranspositionTable tt;
  tt.resize(1);
  const chess::Key a = 0x0000123456789abcULL;
  const chess::Key b = a | (0xfedcULL << 48);  // same low bits, another bucket (high bits)
  tt.new_search();
  tt.store(a, 3, 11, Bound::Exact, chess::Move::none());
  const search::TTEntry* e = tt.probe(a);
  REQUIRE(e);
  CHECK(e->score == 11);
  CHECK_FALSE(tt.probe(b));
}
