// Static exchange evaluation on hand-worked exchanges.
#include "engine/search/see.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/chess/notation.h"
#include "search_test_util.h"
#include "tests/test_data.h"

using namespace knightly;

namespace {

int see_of(const char* f, const char* uci) {
  auto pos = test::fen(f);
  auto m = chess::parse_uci(pos, uci);
  REQUIRE(m);
  return search::see(pos, *m);
}

}  // namespace

TEST_CASE("SEE scores exchanges with the least valuable attacker first") {
  // Rook takes an undefended pawn: +100.
  CHECK(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5") == 100);
  // Knight takes a pawn defended by a pawn: 100 - 320.
  CHECK(see_of("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5") == -220);
  // Pawn takes a knight defended by a pawn: +320 - 100 = 220, the recapture is worth it for
  // black only as far as the pawn: white nets 320 - 100.
  CHECK(see_of("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5") == 220);
  // Rook x pawn with a queen behind (x-ray) against a defending rook: R takes P (+100),
  // r takes R (-500), Q takes r (+500): white ends +100.
  CHECK(see_of("3rk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5") == 100);
  // A quiet move to an attacked square loses the piece.
  CHECK(see_of("4k3/8/2p5/8/8/8/8/3QK3 w - - 0 1", "d1d5") == -900);
}

namespace {

// The textbook swap algorithm with Position::attackers_to recomputed at every step: the
// reference that see() (which finds the non-sliding attackers once) must match exactly.
int reference_see(const chess::Position& pos, chess::Move m) {
  static constexpr int Value[6] = {100, 320, 330, 500, 900, 20000};
  if (m.kind() == chess::Move::Castling) return 0;
  const chess::Square from = m.from(), to = m.to();
  chess::Bitboard occ = pos.occupied();
  chess::Color stm = chess::color_of(pos.piece_on(from));
  chess::PieceType attacker = chess::type_of(pos.piece_on(from));
  const chess::Piece captured = pos.captured_piece(m);
  int gain[40];
  int d = 0;
  gain[0] = captured == chess::NoPiece ? 0 : Value[chess::type_of(captured)];
  if (m.kind() == chess::Move::Promotion) {
    gain[0] += Value[m.promotion()] - Value[chess::Pawn];
    attacker = m.promotion();
  }
  if (m.kind() == chess::Move::EnPassant)
    occ ^= chess::Bitboard(1) << (stm == chess::White ? to - 8 : to + 8);
  chess::Bitboard from_set = chess::Bitboard(1) << from;
  do {
    ++d;
    gain[d] = Value[attacker] - gain[d - 1];
    occ ^= from_set;
    stm = ~stm;
    chess::Bitboard att = pos.attackers_to(to, occ) & occ & pos.pieces(stm);
    from_set = 0;
    for (int t = chess::Pawn; t <= chess::King; ++t) {
      chess::Bitboard b = att & pos.pieces(stm, chess::PieceType(t));
      if (b) {
        from_set = b & (~b + 1);
        attacker = chess::PieceType(t);
        break;
      }
    }
  } while (from_set && d < 38);
  while (--d) gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
  return gain[0];
}

}  // namespace

TEST_CASE(
    "SEE and see_ge match the reference swap algorithm on every move of perft.epd and wac.epd") {
  long moves = 0, negative = 0, shortcut = 0;
  for (const char* file : {"perft.epd", "wac.epd"}) {
    std::ifstream in(test::data_path(file));
    REQUIRE(in);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      // EPD: four FEN fields, then operations; perft.epd lines are full FENs before ';'.
      std::istringstream fields(line.substr(0, line.find(';')));
      std::string board, side, castling, ep;
      fields >> board >> side >> castling >> ep;
      auto pos = chess::Position::from_fen(board + " " + side + " " + castling + " " + ep + " 0 1");
      if (!pos) continue;
      // The position itself and every position one move later.
      std::vector<chess::Position> all{*pos};
      for (chess::Move m : pos->legal_moves()) {
        chess::Position next = *pos;
        next.do_move(m);
        all.push_back(next);
      }
      for (const chess::Position& p : all)
        for (chess::Move m : p.legal_moves()) {
          const int expected = reference_see(p, m);
          REQUIRE(search::see(p, m) == expected);
          const bool fast = search::see_non_negative(p, m);
          REQUIRE(fast == (expected >= 0));
          // see_ge stops the exchange early: the answer must not depend on where.
          for (int threshold : {-330, -100, 1, 100, 221, 500})
            REQUIRE(search::see_ge(p, m, threshold) == (expected >= threshold));
          ++moves;
          negative += expected < 0;
          shortcut += p.captured_piece(m) != chess::NoPiece && fast;
        }
    }
  }
  CHECK(moves > 100000);
  CHECK(negative > 1000);
  CHECK(shortcut > 1000);
}
