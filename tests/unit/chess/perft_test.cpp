// Perft counts of every perft.epd position at every listed depth with at most 10M nodes
// (200k under KNIGHTLY_QUICK, the sanitizer run).
#include "engine/chess/perft.h"

#include <catch2/catch.hpp>

#include "engine/chess/notation.h"
#include "tests/unit/chess/perft_data.h"

using namespace knightly::chess;

TEST_CASE("perft.epd counts up to the default limit", "[perft]") {
  const std::uint64_t limit = knightly::test::quick_mode() ? 200'000 : 10'000'000;
  auto cases = knightly::test::load_perft_cases();
  REQUIRE(cases.size() >= 130);
  int checked = 0;
  for (const auto& c : cases) {
    auto pos = Position::from_fen(c.fen);
    INFO("perft.epd line " << c.line << ": " << c.fen);
    REQUIRE(pos.has_value());
    for (auto [depth, count] : c.depths) {
      if (count > limit) continue;
      INFO("depth " << depth);
      CHECK(perft(*pos, depth) == count);
      ++checked;
    }
    CHECK(pos->fen() == Position::from_fen(c.fen)->fen());  // perft leaves the position as it was
  }
  CHECK(checked > 400);
}

TEST_CASE("perft_divide sums to perft and lists every legal root move once", "[perft]") {
  auto pos =
      *Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  auto divide = perft_divide(pos, 3);
  REQUIRE(divide.size() == 48);
  std::uint64_t sum = 0;
  MoveList seen;
  for (auto [m, n] : divide) {
    CHECK_FALSE(seen.contains(m));
    seen.push_back(m);
    sum += n;
  }
  CHECK(sum == 97862);
  // Stockfish's `go perft 2` on Kiwipete gives e1g1: 43 and e5f7: 44.
  for (auto [m, n] : perft_divide(pos, 2)) {
    if (to_uci(m) == "e1g1") CHECK(n == 43);
    if (to_uci(m) == "e5f7") CHECK(n == 44);
  }
  CHECK(perft(pos, 0) == 1);
}

TEST_CASE("every perft implementation gives the perft.epd counts", "[perft]") {
  const std::uint64_t limit = knightly::test::quick_mode() ? 20'000 : 1'000'000;
  auto cases = knightly::test::load_perft_cases();
  for (PerftImpl impl : {PerftImpl::Generic, PerftImpl::Popcnt, PerftImpl::Pext}) {
    INFO("implementation " << int(impl)
                           << (perft_available(impl) ? "" : " (not on this CPU: generic)"));
    for (const auto& c : cases) {
      auto pos = Position::from_fen(c.fen);
      REQUIRE(pos.has_value());
      for (auto [depth, count] : c.depths) {
        if (count > limit) continue;
        INFO("perft.epd line " << c.line << " depth " << depth);
        CHECK(perft(*pos, depth, impl) == count);
      }
    }
  }
}
