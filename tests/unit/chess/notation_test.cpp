// SAN written exactly per the PGN standard (section 8.2.3) and read leniently; UCI text.
#include "engine/chess/notation.h"

#include <catch2/catch.hpp>
#include <string>

#include "engine/chess/position.h"
#include "tests/unit/chess/perft_data.h"

using namespace knightly::chess;
using Catch::Matchers::Contains;

namespace {

std::string san_of(const std::string& fen, const std::string& uci) {
  auto pos = Position::from_fen(fen);
  REQUIRE(pos.has_value());
  auto m = parse_uci(*pos, uci);
  INFO(fen << " " << uci);
  REQUIRE(m.has_value());
  return to_san(*pos, *m);
}

std::string uci_of_san(const std::string& fen, const std::string& san) {
  auto pos = Position::from_fen(fen);
  REQUIRE(pos.has_value());
  auto m = parse_san(*pos, san);
  INFO(fen << " " << san << ": " << (m ? "" : m.error()));
  REQUIRE(m.has_value());
  return to_uci(*m);
}

std::string san_error(const std::string& fen, const std::string& san) {
  auto pos = Position::from_fen(fen);
  REQUIRE(pos.has_value());
  auto m = parse_san(*pos, san);
  INFO(fen << " " << san);
  REQUIRE_FALSE(m.has_value());
  return m.error();
}

}  // namespace

TEST_CASE("SAN writer follows the PGN standard", "[san]") {
  struct Row {
    const char* fen;
    const char* uci;
    const char* san;
    const char* why;
  };
  const std::string start(Position::StartFen);
  const Row rows[] = {
      {Position::StartFen.data(), "e2e4", "e4", "pawn push"},
      {Position::StartFen.data(), "g1f3", "Nf3", "piece move"},
      {"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Nbd2", "file disambiguates"},
      {"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "f1d2", "Nfd2", "file disambiguates"},
      {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3", "same file: rank disambiguates"},
      {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3", "same file: rank disambiguates"},
      {"4k3/8/8/3Q1Q2/8/3Q4/8/4K3 w - - 0 1", "d5e4", "Qd5e4#", "file and rank both needed"},
      {"4k3/8/8/3Q1Q2/8/3Q4/8/4K3 w - - 0 1", "d3e4", "Q3e4#", "file shared: rank"},
      {"4k3/8/8/3Q1Q2/8/3Q4/8/4K3 w - - 0 1", "f5e4", "Qfe4+", "file first"},
      {"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2", "Ne2",
       "a pinned knight does not force disambiguation"},
      {"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+", "promotion with check"},
      {"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N", "underpromotion"},
      {"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8r", "exd8=R+", "capture promotion"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O", "castling king side"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O", "castling queen side"},
      {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O", "black castling"},
      {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+", "castling with check"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#", "mate"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a7", "Ra7", "quiet"},
      {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5", "exd5",
       "pawn capture"},
      {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6",
       "en passant"},
      {"4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "b2c3", "bxc3", "pawn takes"},
      {"4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "d2c3", "Bxc3", "bishop takes"},
      {"4k3/8/8/8/8/8/4B3/R3K2R w - - 0 1", "e2b5", "Bb5+", "check"},
      {"4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", "e2e7", "Rxe7+", "capture with check"},
      {"k7/8/8/8/8/8/1R6/KR6 w - - 0 1", "b2a2", "Ra2#", "rook mate"},
  };
  for (const auto& r : rows) {
    INFO(r.why);
    CHECK(san_of(r.fen, r.uci) == r.san);
  }
}

TEST_CASE("SAN reader is lenient", "[san]") {
  const std::string start(Position::StartFen);
  const std::string castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  const std::string promo = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
  CHECK(uci_of_san(start, "e4") == "e2e4");
  CHECK(uci_of_san(start, "Nf3") == "g1f3");
  CHECK(uci_of_san(start, "Nf3!?") == "g1f3");
  CHECK(uci_of_san(start, "Nf3+") == "g1f3");
  CHECK(uci_of_san(start, " Nf3 ") == "g1f3");
  CHECK(uci_of_san(start, "Ngf3") == "g1f3");
  CHECK(uci_of_san(start, "Ng1f3") == "g1f3");
  CHECK(uci_of_san(start, "Ng1-f3") == "g1f3");
  CHECK(uci_of_san(start, "Pe4") == "e2e4");
  CHECK(uci_of_san(start, "e2e4") == "e2e4");
  CHECK(uci_of_san(castle, "O-O") == "e1g1");
  CHECK(uci_of_san(castle, "0-0") == "e1g1");
  CHECK(uci_of_san(castle, "O-O-O") == "e1c1");
  CHECK(uci_of_san(castle, "0-0-0+") == "e1c1");
  CHECK(uci_of_san(promo, "e8=Q") == "e7e8q");
  CHECK(uci_of_san(promo, "e8Q") == "e7e8q");
  CHECK(uci_of_san(promo, "e8=N") == "e7e8n");
  CHECK(uci_of_san(promo, "exd8=R+") == "e7d8r");
  CHECK(uci_of_san(promo, "ed8Q") == "e7d8q");
  CHECK(uci_of_san("4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "bxc3") == "b2c3");
  CHECK(uci_of_san("4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "Bxc3") == "d2c3");
  CHECK(uci_of_san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6 e.p.") ==
        "e5f6");
  CHECK(uci_of_san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6") ==
        "e5f6");
}

TEST_CASE("SAN reader rejects illegal and ambiguous moves, saying which", "[san]") {
  const std::string start(Position::StartFen);
  CHECK_THAT(san_error(start, "Nf4"), Contains("illegal"));
  CHECK_THAT(san_error(start, "e5"), Contains("illegal"));
  CHECK_THAT(san_error(start, "O-O"), Contains("illegal"));
  CHECK_THAT(san_error(start, "Qxx9"), Contains("malformed"));
  CHECK_THAT(san_error(start, ""), Contains("empty"));
  CHECK_THAT(san_error(start, "Zf3"), Contains("malformed"));
  CHECK_THAT(san_error("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2"), Contains("ambiguous"));
  CHECK_THAT(san_error("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8"), Contains("promotion"));
  CHECK_THAT(san_error("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=K"), Contains("promotion"));
  // Moving the pinned knight is illegal.
  CHECK_THAT(san_error("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "Nce2"), Contains("illegal"));
}

TEST_CASE("UCI move text both ways", "[uci]") {
  Position pos;
  CHECK(to_uci(Move::none()) == "0000");
  CHECK(to_uci(*parse_uci(pos, "e2e4")) == "e2e4");
  CHECK(parse_uci(pos, "e2e4")->from() == make_square(4, 1));
  CHECK_THAT(parse_uci(pos, "e2e5").error(), Contains("illegal"));
  CHECK_THAT(parse_uci(pos, "e2").error(), Contains("malformed"));
  CHECK_THAT(parse_uci(pos, "e2e4x").error(), Contains("malformed"));
  CHECK_THAT(parse_uci(pos, "0000").error(), Contains("malformed"));
  auto promo = *Position::from_fen("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
  CHECK(to_uci(*parse_uci(promo, "e7e8q")) == "e7e8q");
  CHECK(to_uci(*parse_uci(promo, "e7d8n")) == "e7d8n");
  CHECK(parse_uci(promo, "e7e8n")->promotion() == Knight);
  CHECK_THAT(parse_uci(promo, "e7e8").error(), Contains("promotion"));
  // En passant that would expose the king along the rank is not legal.
  auto ep_pin = *Position::from_fen("4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1");
  CHECK_THAT(parse_uci(ep_pin, "e5d6").error(), Contains("illegal"));
  CHECK(ep_pin.fen() == "4k3/8/8/2KpP2r/8/8/8/8 w - - 0 1");
  auto castle = *Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  CHECK(parse_uci(castle, "e1g1")->kind() == Move::Castling);
  CHECK(parse_uci(castle, "e1c1")->kind() == Move::Castling);
}

TEST_CASE("gives_check covers direct, discovered, castling, en-passant and promotion checks",
          "[position]") {
  struct Row {
    const char* fen;
    const char* uci;
    bool check;
  };
  const Row rows[] = {
      {"4k3/8/8/8/8/8/4B3/R3K2R w - - 0 1", "e2b5", true},  // direct
      {"4k3/8/8/8/8/8/4B3/4R1K1 w - - 0 1", "e2d3", true},  // discovered by the rook
      {"4k3/8/8/8/8/8/4B3/4R1K1 w - - 0 1", "g1g2", false},
      {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true},  // castling rook checks
      {"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true},
      {"8/8/8/K2pP2k/8/8/8/8 w - d6 0 1", "e5d6", false},
      {"8/8/8/1K1pP2k/8/8/8/8 w - d6 0 1", "e5d6", false},
      {"7k/8/8/1B1pP3/8/8/8/K7 w - d6 0 1", "e5d6", false},
      {"8/8/8/R2pP2k/8/8/8/K7 w - d6 0 1", "e5d6", true},  // ep discovers the rook
      {"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", true},
      {"3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", false},
      {"7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", true},
  };
  for (const auto& r : rows) {
    auto pos = *Position::from_fen(r.fen);
    auto m = parse_uci(pos, r.uci);
    INFO(r.fen << " " << r.uci);
    REQUIRE(m.has_value());
    CHECK(pos.gives_check(*m) == r.check);
    pos.do_move(*m);
    CHECK(pos.in_check() == r.check);
  }
}

// The forms for callers that keep a position's legal moves (the runner's Game) against the
// plain ones, over every move of every perft.epd position and of each position one move on.
TEST_CASE("with the legal moves at hand: same parse, SAN and game end as without",
          "[uci][san][gameend]") {
  std::size_t checked = 0;
  auto check_position = [&](const Position& pos) {
    const MoveList legal = pos.legal_moves();
    INFO(pos.fen());
    REQUIRE(pos.game_end(legal) == pos.game_end());
    for (Move m : legal) {
      const std::string uci = to_uci(m);
      auto parsed = parse_uci(pos, uci, legal);
      REQUIRE(parsed.has_value());
      CHECK(*parsed == m);
      // The mark, found as the Game finds it: from the position after the move.
      Position after = pos;
      after.do_move(m);
      std::string san = to_san_unmarked(pos, m, legal);
      if (after.in_check()) san += after.legal_moves().empty() ? '#' : '+';
      INFO(uci);
      CHECK(san == to_san(pos, m));
      ++checked;
    }
    // Text that is not among the legal moves stays an error with either form.
    CHECK_FALSE(parse_uci(pos, "a1a1", legal).has_value());
  };
  for (const auto& c : knightly::test::load_perft_cases()) {
    auto pos = Position::from_fen(c.fen);
    REQUIRE(pos.has_value());
    check_position(*pos);
    for (Move m : pos->legal_moves()) {
      Position next = *pos;
      next.do_move(m);
      check_position(next);
    }
  }
  CHECK(checked > 20000);  // 27505 moves: the data file was read
}
