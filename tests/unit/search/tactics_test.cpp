// Mates found by alpha-beta; every algorithm answers with a legal move; MCTS prefers a mate
// in one; greedy takes the most valuable piece. Expected mates were checked with Stockfish.
#include <catch2/catch.hpp>

#include "engine/chess/notation.h"
#include "search_test_util.h"

using namespace knightly;
using search::Algorithm;

namespace {

struct MateCase {
  const char* fen;
  int moves;  // mate in N
};

const MateCase Mates[] = {
    {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1},
    {"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2},
    {"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2},
    {"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3},
    {"1k5r/pP3ppp/3p2b1/1BN1n3/1Q2P3/P1B5/KP3P1P/7q w - - 1 1", 3},
};

// Plays the PV on a copy and checks it ends in checkmate after exactly 2N-1 plies.
void check_mating_pv(const chess::Position& start, const search::SearchResult& r, int moves) {
  chess::Position p = start;
  REQUIRE(r.info.pv.size() == std::size_t(2 * moves - 1));
  for (chess::Move m : r.info.pv) {
    REQUIRE(p.is_legal(m));
    p.do_move(m);
  }
  CHECK(p.game_end() == chess::GameEnd::Checkmate);
}

const char* const Positions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
};

}  // namespace

TEST_CASE("alpha-beta finds mates in 1 / 2 and 3 and reports them as mate scores") {
  for (const auto& mc : Mates) {
    INFO(mc.fen);
    auto pos = test::fen(mc.fen);
    search::SearchConfig c;  // strongest defaults
    auto r = test::run_depth(c, pos, 2 * mc.moves + 2);
    CHECK(r.info.score == search::MateScore - (2 * mc.moves - 1));
    check_mating_pv(pos, r, mc.moves);
  }
}

// Without quiescence a leaf is only evaluated, so the mated side's node must be inside the
// horizon: depth 2N.
TEST_CASE("plain alpha-beta and negamax find the mates at depth 2N") {
  for (const auto& mc : Mates) {
    if (mc.moves == 3 && test::quick()) continue;
    INFO(mc.fen);
    auto pos = test::fen(mc.fen);
    auto ab = test::run_depth(test::plain(Algorithm::AlphaBeta), pos, 2 * mc.moves);
    CHECK(ab.info.score == search::MateScore - (2 * mc.moves - 1));
    check_mating_pv(pos, ab, mc.moves);
    if (mc.moves == 1) {
      auto nm = test::run_depth(test::plain(Algorithm::Negamax), pos, 2 * mc.moves);
      CHECK(nm.info.score == ab.info.score);
    }
  }
}

TEST_CASE("mated and stalemated positions give bestmove none and an exact score") {
  auto mated = test::fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  auto stale = test::fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  for (int a = 0; a <= int(Algorithm::Mcts); ++a) {
    search::SearchConfig c;
    c.algorithm = Algorithm(a);
    auto r1 = test::run_depth(c, mated, 3);
    CHECK(r1.best.is_none());
    CHECK(r1.info.score == -search::MateScore);
    auto r2 = test::run_depth(c, stale, 3);
    CHECK(r2.best.is_none());
    CHECK(r2.info.score == 0);
  }
}

TEST_CASE("random / greedy and mcts always answer with a legal move") {
  for (auto a : {Algorithm::Random, Algorithm::Greedy, Algorithm::Mcts}) {
    for (const char* f : Positions) {
      for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        INFO(f << " algorithm " << int(a) << " seed " << seed);
        search::SearchConfig c;
        c.algorithm = a;
        c.seed = seed;
        c.shuffle = seed % 2 == 0;
        c.mcts_eval_playouts = seed % 2 == 1;
        search::Search s(c);
        search::Limits l;
        l.nodes = test::quick() ? 50 : 300;
        auto pos = test::fen(f);
        auto r = test::run(s, pos, l);
        CHECK(pos.is_legal(r.best));
      }
    }
  }
}

TEST_CASE("a random player plays legal games to the end") {
  search::SearchConfig c;
  c.algorithm = Algorithm::Random;
  c.seed = 7;
  search::Search s(c);
  chess::Position pos;
  int plies = 0;
  while (pos.game_end() == chess::GameEnd::None && plies < 600) {
    auto r = test::run(s, pos, {});
    REQUIRE(pos.is_legal(r.best));
    pos.do_move(r.best);
    ++plies;
  }
  CHECK(pos.game_end() != chess::GameEnd::None);
}

TEST_CASE("MCTS prefers a mate in one when it has enough playouts") {
  for (bool eval_playouts : {false, true}) {
    search::SearchConfig c;
    c.algorithm = Algorithm::Mcts;
    c.mcts_eval_playouts = eval_playouts;
    search::Search s(c);
    search::Limits l;
    l.nodes = test::quick() ? 1500 : 4000;
    auto pos = test::fen(Mates[0].fen);
    auto r = test::run(s, pos, l);
    CHECK(chess::to_uci(r.best) == "d1d8");
    CHECK(r.info.score == search::MateScore - 1);
    CHECK(r.info.nodes == l.nodes);
  }
}

TEST_CASE("greedy takes the most valuable piece it can (EasyAI)") {
  // The white knight on d5 can take a rook (b6) or a queen (f6); both are unprotected.
  auto pos = test::fen("4k3/8/1r3q2/3N4/8/8/8/4K3 w - - 0 1");
  search::SearchConfig c;
  c.algorithm = Algorithm::Greedy;
  c.eval = "material";
  auto r = test::run_depth(c, pos, 1);
  CHECK(chess::to_uci(r.best) == "d5f6");
}

TEST_CASE("quiescence keeps alpha-beta from a losing capture at the horizon") {
  // Rxd5 wins a pawn that is defended by the c6 pawn: depth 1 without quiescence takes it,
  // with quiescence it sees the recapture.
  auto pos = test::fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1");
  auto no_qs = test::plain(Algorithm::AlphaBeta);
  auto r1 = test::run_depth(no_qs, pos, 1);
  CHECK(chess::to_uci(r1.best) == "d1d5");
  auto with_qs = no_qs;
  with_qs.quiescence = true;
  auto r2 = test::run_depth(with_qs, pos, 1);
  CHECK(chess::to_uci(r2.best) != "d1d5");
}
