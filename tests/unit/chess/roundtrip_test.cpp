// For every perft.epd position and every legal move to depth 2: SAN and UCI text round-trip,
// FEN round-trips, make/unmake restores the exact position and key, and the incremental key
// equals the key computed from scratch. Also checks gives_check, is_capture, legal_captures.
#include <catch2/catch.hpp>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "tests/unit/chess/perft_data.h"

using namespace knightly::chess;

namespace {

struct Counters {
  int moves = 0;
};

void check_position(Position& pos, int depth, Counters& counters) {
  const std::string fen = pos.fen();
  const Key key = pos.key();
  auto reparsed = Position::from_fen(fen);
  REQUIRE(reparsed.has_value());
  REQUIRE(reparsed->fen() == fen);
  REQUIRE(reparsed->repetition_key() == pos.repetition_key());
  REQUIRE(key == pos.compute_key());

  MoveList moves = pos.legal_moves();
  MoveList captures = pos.legal_captures();
  std::size_t expected_captures = 0;
  for (Move m : moves)
    if (pos.is_capture(m) || m.kind() == Move::Promotion) {
      ++expected_captures;
      REQUIRE(captures.contains(m));
    }
  REQUIRE(captures.size() == expected_captures);

  for (Move m : moves) {
    INFO(fen << " move " << to_uci(m));
    ++counters.moves;
    REQUIRE(pos.is_legal(m));
    const std::string san = to_san(pos, m);
    auto from_san = parse_san(pos, san);
    INFO("SAN " << san);
    REQUIRE(from_san.has_value());
    REQUIRE(*from_san == m);
    auto from_uci = parse_uci(pos, to_uci(m));
    REQUIRE(from_uci.has_value());
    REQUIRE(*from_uci == m);

    const int pieces_before = __builtin_popcountll(pos.occupied());
    const bool capture = pos.is_capture(m);
    const bool check = pos.gives_check(m);
    pos.do_move(m);
    REQUIRE(pos.key() == pos.compute_key());
    REQUIRE(pos.last_move() == m);
    REQUIRE(pos.in_check() == check);
    // do_move finds the checkers incrementally: the same set as from scratch.
    const Color stm = pos.side_to_move();
    REQUIRE(pos.checkers() ==
            (pos.attackers_to(pos.king_square(stm), pos.occupied()) & pos.pieces(~stm)));
    REQUIRE((san.back() == '+' || san.back() == '#') == check);
    REQUIRE((__builtin_popcountll(pos.occupied()) == pieces_before - 1) == capture);
    if (depth > 1) {
      check_position(pos, depth - 1, counters);
    } else {
      auto child = Position::from_fen(pos.fen());
      REQUIRE(child.has_value());
      REQUIRE(child->fen() == pos.fen());
      REQUIRE(child->repetition_key() == pos.repetition_key());
    }
    pos.undo_move();
    REQUIRE(pos.fen() == fen);
    REQUIRE(pos.key() == key);
  }
}

}  // namespace

TEST_CASE("every move to depth 2 of every perft.epd position round-trips", "[notation][position]") {
  auto cases = knightly::test::load_perft_cases();
  const std::size_t step = knightly::test::quick_mode() ? 8 : 1;
  Counters counters;
  int expected_moves = 0;  // perft.epd's D1 + D2: every move at both plies was visited
  for (std::size_t i = 0; i < cases.size(); i += step) {
    INFO("perft.epd line " << cases[i].line);
    auto pos = Position::from_fen(cases[i].fen);
    REQUIRE(pos.has_value());
    check_position(*pos, 2, counters);
    for (auto [depth, count] : cases[i].depths)
      if (depth <= 2) expected_moves += int(count);
  }
  CHECK(counters.moves == expected_moves);
  CHECK(counters.moves > 1'000);
}

TEST_CASE("null moves flip the side and restore everything", "[position]") {
  auto pos = *Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  const std::string fen = pos.fen();
  const Key key = pos.key();
  pos.do_null_move();
  CHECK(pos.side_to_move() == Black);
  CHECK(pos.ep_square() == NoSquare);
  CHECK(pos.key() == pos.compute_key());
  pos.undo_null_move();
  CHECK(pos.fen() == fen);
  CHECK(pos.key() == key);
}

TEST_CASE("repetitions are not counted across a null move", "[position][repetition]") {
  Position pos;
  for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.do_move(*parse_uci(pos, m));
  CHECK(pos.repetition_count() == 2);
  pos.do_null_move();
  pos.do_null_move();
  CHECK(pos.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 6 4");
  CHECK(pos.repetition_count() == 1);
  CHECK_FALSE(pos.is_draw_by_repetition_in_search(10));
  pos.undo_null_move();
  pos.undo_null_move();
  CHECK(pos.repetition_count() == 2);
}
