// Seeded randomness: the same seed gives the same move and node count every time; different
// seeds give different games; two searches on two threads share nothing.
#include <catch2/catch.hpp>
#include <set>
#include <thread>

#include "engine/chess/notation.h"
#include "search_test_util.h"

using namespace knightly;
using search::Algorithm;

namespace {

const char* const Kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

search::SearchConfig randomized(Algorithm a, std::uint64_t seed) {
  search::SearchConfig c;
  c.algorithm = a;
  c.seed = seed;
  c.shuffle = true;
  c.eval_noise = 20;
  c.random_margin = 40;
  c.mcts_eval_playouts = true;  // short playouts keep the self-play games quick
  return c;
}

search::Limits limits_for(Algorithm a) {
  search::Limits l;
  if (a == Algorithm::Mcts)
    l.nodes = test::quick() ? 100 : 400;
  else
    l.depth = a == Algorithm::Minimax || a == Algorithm::Negamax ? 3 : 4;
  return l;
}

// A short self-play game, both sides the same configuration; returns the moves as text.
std::string play(const search::SearchConfig& c, int plies) {
  search::Search s(c);
  chess::Position pos;
  std::string game;
  for (int i = 0; i < plies && pos.game_end() == chess::GameEnd::None; ++i) {
    auto r = test::run(s, pos, limits_for(c.algorithm));
    REQUIRE(pos.is_legal(r.best));
    game += chess::to_uci(r.best) + " ";
    pos.do_move(r.best);
  }
  return game;
}

}  // namespace

TEST_CASE("same seed / same position / same options: same move and node count") {
  auto pos = test::fen(Kiwipete);
  for (auto a : {Algorithm::Random, Algorithm::Greedy, Algorithm::Minimax, Algorithm::Negamax,
                 Algorithm::AlphaBeta, Algorithm::Mcts}) {
    INFO("algorithm " << int(a));
    auto c = randomized(a, 12345);
    search::Search s1(c), s2(c);
    auto r1 = test::run(s1, pos, limits_for(a));
    auto r2 = test::run(s2, pos, limits_for(a));
    CHECK(r1.best == r2.best);
    CHECK(r1.info.nodes == r2.info.nodes);
    CHECK(r1.info.score == r2.info.score);
    // ucinewgame resets the generator: the same search again gives the same answer.
    s1.new_game();
    auto r3 = test::run(s1, pos, limits_for(a));
    CHECK(r3.best == r1.best);
    CHECK(r3.info.nodes == r1.info.nodes);
  }
}

TEST_CASE("different seeds give different games for randomized configurations") {
  const int plies = test::quick() ? 8 : 12;
  for (auto a : {Algorithm::Random, Algorithm::AlphaBeta, Algorithm::Mcts}) {
    INFO("algorithm " << int(a));
    std::set<std::string> games;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) games.insert(play(randomized(a, seed), plies));
    CHECK(games.size() >= 3);
    // And the same seed replays the same game.
    CHECK(play(randomized(a, 3), plies) == play(randomized(a, 3), plies));
  }
}

TEST_CASE("without randomness / alpha-beta plays the same game whatever the seed") {
  search::SearchConfig c1, c2;
  c1.seed = 1;
  c2.seed = 99;
  CHECK(play(c1, 6) == play(c2, 6));
}

TEST_CASE("RandomMargin picks only among moves within the margin of the best") {
  // White can take a queen with the knight (d5f6); nothing else is within 300 cp of that.
  auto pos = test::fen("4k3/8/1r3q2/3N4/8/8/8/4K3 w - - 0 1");
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    auto c = randomized(Algorithm::AlphaBeta, seed);
    c.eval_noise = 0;
    c.random_margin = 100;
    auto r = test::run_depth(c, pos, 3);
    CHECK(chess::to_uci(r.best) == "d5f6");
  }
  // A wide margin over a quiet position lets several moves through across seeds.
  std::set<std::string> moves;
  auto start = chess::Position();
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    auto c = randomized(Algorithm::AlphaBeta, seed);
    c.shuffle = false;
    c.eval_noise = 0;
    c.random_margin = 60;
    moves.insert(chess::to_uci(test::run_depth(c, start, 3).best));
  }
  CHECK(moves.size() >= 2);
}

TEST_CASE("two searches on two threads give the same results as each alone") {
  auto pos_a = test::fen(Kiwipete);
  auto pos_b = chess::Position();
  search::SearchConfig ca;  // alphabeta with TT, ordering, history...
  auto cb = randomized(Algorithm::Mcts, 77);
  search::Limits la, lb;
  la.depth = test::quick() ? 5 : 7;
  lb.nodes = test::quick() ? 300 : 3000;
  auto alone = [&](const search::SearchConfig& c, const chess::Position& p,
                   const search::Limits& l) {
    search::Search s(c);
    return test::run(s, p, l);
  };
  auto a1 = alone(ca, pos_a, la);
  auto b1 = alone(cb, pos_b, lb);
  for (int round = 0; round < 2; ++round) {
    search::SearchResult a2, b2;
    std::thread ta([&] { a2 = alone(ca, pos_a, la); });
    std::thread tb([&] { b2 = alone(cb, pos_b, lb); });
    ta.join();
    tb.join();
    CHECK(a2.best == a1.best);
    CHECK(a2.info.nodes == a1.info.nodes);
    CHECK(a2.info.score == a1.info.score);
    CHECK(b2.best == b1.best);
    CHECK(b2.info.nodes == b1.info.nodes);
  }
  // Same configuration on both threads at once.
  search::SearchResult x, y;
  std::thread tx([&] { x = alone(ca, pos_a, la); });
  std::thread ty([&] { y = alone(ca, pos_a, la); });
  tx.join();
  ty.join();
  CHECK(x.info.nodes == a1.info.nodes);
  CHECK(y.info.nodes == a1.info.nodes);
}
