// The transposition table's game stamp: a new game is O(1) yet never sees an entry of an
// earlier game, including when the 8-bit stamp comes round again after 256 games.
#include <catch2/catch.hpp>

#include "engine/search/tt.h"

using namespace knightly;
using search::Bound;
using search::TranspositionTable;

namespace {

chess::Key key_of(int game, int i) {
  return 0x9e3779b97f4a7c15ULL * std::uint64_t(game * 1000 + i + 1);
}

}  // namespace

TEST_CASE("TT: entries live for their game only, across the stamp's wrap-around") {
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
