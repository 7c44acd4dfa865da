// The whole of perft.epd, every depth (billions of nodes: opt-in, label "long").
#include <catch2/catch.hpp>

#include "engine/chess/perft.h"
#include "tests/unit/chess/perft_data.h"

using namespace knightly::chess;

TEST_CASE("perft.epd complete", "[perft][long]") {
  for (const auto& c : knightly::test::load_perft_cases()) {
    auto pos = Position::from_fen(c.fen);
    INFO("perft.epd line " << c.line << ": " << c.fen);
    REQUIRE(pos.has_value());
    for (auto [depth, count] : c.depths) {
      INFO("depth " << depth);
      CHECK(perft(*pos, depth) == count);
    }
  }
}
