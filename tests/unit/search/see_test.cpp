// Static exchange evaluation on hand-worked exchanges.
#include <catch2/catch.hpp>

#include "engine/chess/notation.h"
#include "engine/search/see.h"
#include "search_test_util.h"

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
