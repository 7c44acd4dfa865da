// Position keys equal the Polyglot book keys published with the format
// (http://hgm.nubati.net/book_format.html, "Test positions").
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"

using namespace knightly::chess;

TEST_CASE("Polyglot keys of the reference positions", "[zobrist]") {
  struct Row {
    std::vector<std::string> moves;
    Key key;
  };
  const Row rows[] = {
      {{}, 0x463b96181691fc9cULL},
      {{"e2e4"}, 0x823c9b50fd114196ULL},
      {{"e2e4", "d7d5"}, 0x0756b94461c50fb0ULL},
      {{"e2e4", "d7d5", "e4e5"}, 0x662fafb965db29d4ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5"}, 0x22a48b5a8e47ff78ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2"}, 0x652a607ca3f242c1ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"}, 0x00fdd303c946bdd9ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4"}, 0x3c8123ea7b067637ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"}, 0x5c3f9b829b279560ULL},
  };
  for (const auto& r : rows) {
    Position pos;
    std::string line;
    for (const auto& m : r.moves) {
      auto move = parse_uci(pos, m);
      REQUIRE(move.has_value());
      pos.do_move(*move);
      line += m + " ";
    }
    INFO("after " << line << "-> " << pos.fen());
    CHECK(pos.key() == r.key);
    CHECK(pos.compute_key() == r.key);
    // The same key again from the FEN text alone.
    CHECK(Position::from_fen(pos.fen())->key() == r.key);
  }
}

TEST_CASE("undo restores the key along a long line", "[zobrist]") {
  Position pos;
  std::vector<Key> keys;
  for (int i = 0; i < 60; ++i) {
    MoveList moves = pos.legal_moves();
    if (moves.empty()) break;
    keys.push_back(pos.key());
    pos.do_move(moves[(i * 7) % moves.size()]);
    CHECK(pos.key() == pos.compute_key());
  }
  while (!keys.empty()) {
    pos.undo_move();
    CHECK(pos.key() == keys.back());
    keys.pop_back();
  }
  CHECK(pos.fen() == Position::StartFen);
}
