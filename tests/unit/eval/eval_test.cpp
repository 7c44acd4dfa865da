// Evaluation terms against hand-computed values from the Simplified Evaluation Function page
// and seed 004's tension diagram rules; symmetry; the Eval string parser.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>

#include "engine/eval/evaluator.h"
#include "engine/eval/terms.h"

using namespace knightly;

namespace {

chess::Position fen(const char* f) {
  auto p = chess::Position::from_fen(f);
  REQUIRE(p);
  return *p;
}

// The same position with colours swapped and the board flipped vertically.
chess::Position mirrored(const chess::Position& p) {
  std::string f = p.fen();
  std::string board = f.substr(0, f.find(' '));
  std::vector<std::string> ranks;
  std::size_t start = 0;
  while (true) {
    auto slash = board.find('/', start);
    ranks.push_back(board.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::reverse(ranks.begin(), ranks.end());
  std::string out;
  for (auto& r : ranks) {
    for (char& c : r)
      if (std::isalpha(static_cast<unsigned char>(c)))
        c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c))
                                                        : char(std::toupper(c));
    out += (out.empty() ? "" : "/") + r;
  }
  out += p.side_to_move() == chess::White ? " b - - 0 1" : " w - - 0 1";
  auto m = chess::Position::from_fen(out);
  REQUIRE(m);
  return *m;
}

const char* const Samples[] = {
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "4k3/8/1r3q2/3N4/8/8/8/4K3 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 0 1",
};

}  // namespace

TEST_CASE("material uses 100/320/330/500/900") {
  CHECK(eval::material(chess::Position()) == 0);
  // White: Q + N; Black: R + B + P  ->  1220 - 930
  CHECK(eval::material(fen("4k3/p7/2b5/8/8/8/3r4/Q3K1N1 w - - 0 1")) ==
        900 + 320 - (500 + 330 + 100));
}

TEST_CASE("the knight's value is a parameter of the material term (KnightValue)") {
  // White: 2 knights; Black: 1 knight and 1 bishop. Material at the default 320:
  // 2 * 320 - (320 + 330) = -10.
  const auto pos = fen("1nb1k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1");
  eval::Evaluator ev = *eval::Evaluator::parse("material");
  CHECK(ev.knight_value() == 320);
  CHECK(ev.evaluate_white(pos) == -10);
  // At a third of it, 107: 2 * 107 - (107 + 330) = -223, whatever the path to the sums.
  ev.set_knight_value(107);
  CHECK(ev.knight_value() == 107);
  CHECK(ev.evaluate_white(pos) == 2 * 107 - (107 + 330));
  CHECK(ev.evaluate_white(pos, eval::piece_sums(pos)) == -223);
  // The default evaluation (material+pst) moves by the same amount; weights scale it.
  eval::Evaluator both;
  const int before = both.evaluate_white(pos);
  both.set_knight_value(107);
  CHECK(both.evaluate_white(pos) == before - (320 - 107));
  eval::Evaluator half = *eval::Evaluator::parse("material:50");
  half.set_knight_value(420);
  CHECK(half.evaluate_white(pos) == (2 * 420 - (420 + 330)) / 2);
  // Knights even: no change.
  eval::Evaluator start;
  start.set_knight_value(107);
  CHECK(start.evaluate_white(chess::Position()) ==
        eval::Evaluator().evaluate_white(chess::Position()));
}

TEST_CASE("piece-square values come from the published tables") {
  // White knight a1 (-50), black knight a8 (-50 mirrored): cancel out apart from kings.
  auto kings = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  CHECK(eval::is_endgame(kings));
  // Kings on e1/e8 in the end game table: both -30: difference 0.
  CHECK(eval::pst(kings) == 0);
  // A white knight on d4 (+20) and a white pawn on e7 (+50).
  CHECK(eval::pst(fen("4k3/4P3/8/8/3N4/8/8/4K3 w - - 0 1")) == 20 + 50);
  // Middle game: queens and rooks on; white king g1 (+30), black king e8 (0).
  auto mg = fen("r2qk2r/8/8/8/8/8/8/R2Q1RK1 w kq - 0 1");
  CHECK_FALSE(eval::is_endgame(mg));
  // White: Ra1 0, Qd1 -5, Rf1 0, Kg1 +30. Black: Ra8 0, Qd8 -5, Rh8 0, Ke8 0.
  CHECK(eval::pst(mg) == 30);
  CHECK(eval::pst(chess::Position()) == 0);
}

TEST_CASE("tension counts every attack on every square (seed 004)") {
  CHECK(eval::tension(chess::Position()) == 0);
  // Lone white rook a1 with kings h8/h1 blocked from each other: rook attacks 14 squares on
  // an open board except that h1 stops the first rank: a2..a8 (7) + b1..g1 and h1 (7) = 14.
  // White king h1: g1 g2 h2 (3). Black king h8: g8 g7 h7 (3).
  CHECK(eval::tension(fen("7k/8/8/8/8/8/8/R6K w - - 0 1")) == 14 + 3 - 3);
  // A white pawn on e4 adds two attacks (d5, f5).
  CHECK(eval::tension(fen("7k/8/8/8/4P3/8/8/7K w - - 0 1")) == 2 + 3 - 3);
}

TEST_CASE("every term is colour-symmetric") {
  for (const char* f : Samples) {
    INFO(f);
    auto p = fen(f);
    auto m = mirrored(p);
    CHECK(eval::material(p) == -eval::material(m));
    CHECK(eval::pst(p) == -eval::pst(m));
    CHECK(eval::tension(p) == -eval::tension(m));
    CHECK(eval::mobility(p) == -eval::mobility(m));
    auto ev = eval::Evaluator::parse("material+pst+tension+mobility");
    REQUIRE(ev);
    // From the side to move's view, a mirrored position (other side to move) scores the same.
    CHECK(ev->evaluate(p) == ev->evaluate(m));
  }
}

TEST_CASE("the random term is seeded and bounded") {
  chess::Position p;
  auto ev = eval::Evaluator::parse("random:50");
  REQUIRE(ev);
  ev->set_seed(1);
  int a = ev->evaluate_white(p);
  CHECK(a == ev->evaluate_white(p));
  int differ = 0;
  for (std::uint64_t s = 2; s < 40; ++s) {
    ev->set_seed(s);
    int v = ev->evaluate_white(p);
    CHECK(v >= -50);
    CHECK(v <= 50);
    differ += v != a;
  }
  CHECK(differ > 30);
}

TEST_CASE("Eval strings combine terms with weights and reject mistakes clearly") {
  auto ev = eval::Evaluator::parse(" Material + PST ");
  REQUIRE(ev);
  CHECK(ev->spec() == "material+pst");
  auto p = fen(Samples[0]);
  CHECK(ev->evaluate_white(p) == eval::material(p) + eval::pst(p));
  auto half = eval::Evaluator::parse("material+tension:50");
  REQUIRE(half);
  CHECK(half->evaluate_white(p) == eval::material(p) + eval::tension(p) * 50 / 100);
  CHECK(half->spec() == "material+tension:50");
  // Side to move's point of view.
  auto black = fen("4k3/8/1r3q2/3N4/8/8/8/4K3 b - - 0 1");
  auto m = eval::Evaluator::parse("material");
  REQUIRE(m);
  CHECK(m->evaluate(black) == 1400 - 320);

  auto e1 = eval::Evaluator::parse("material+kingsafety");
  REQUIRE_FALSE(e1);
  CHECK(e1.error().offset == 9);
  CHECK(e1.error().message.find("kingsafety") != std::string::npos);
  CHECK_FALSE(eval::Evaluator::parse(""));
  CHECK_FALSE(eval::Evaluator::parse("material++pst"));
  CHECK_FALSE(eval::Evaluator::parse("material+material"));
  CHECK_FALSE(eval::Evaluator::parse("pst:abc"));
}
