// The seeds' claim: minimax, negamax and alpha-beta are the same tree search, so at the same
// depth they return the same root score; alpha-beta just visits fewer nodes, and fewer still
// with move ordering.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "engine/chess/epd.h"
#include "search_test_util.h"
#include "tests/test_data.h"

using namespace knightly;
using search::Algorithm;

namespace {

struct Sample {
  chess::Position pos;
  std::string fen;
  std::uint64_t d4;  // perft(4) from the file: the size of the minimax tree at depth 4
};

// 20 positions of perft.epd (openings, middle games with castling and en passant, promotions,
// endings), spread evenly over the file among those whose depth-4 tree is of moderate size.
std::vector<Sample> samples() {
  std::ifstream in(test::data_path("perft.epd"));
  REQUIRE(in);
  std::vector<Sample> eligible;
  std::string line;
  const std::uint64_t max_d4 = test::quick() ? 60000 : 400000;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto epd = chess::parse_epd(line);
    REQUIRE(epd);
    const auto* d4 = epd->find("D4");
    if (!d4 || d4->empty()) continue;
    std::uint64_t n = std::stoull(d4->front());
    if (n < 5000 || n > max_d4) continue;
    eligible.push_back({epd->position, epd->position.fen(), n});
  }
  REQUIRE(eligible.size() >= 20);
  std::vector<Sample> out;
  for (std::size_t i = 0; i < 20; ++i) out.push_back(eligible[i * eligible.size() / 20]);
  return out;
}

}  // namespace

TEST_CASE("minimax / negamax and alpha-beta agree on the root score at depths 1-4") {
  std::uint64_t mm_nodes = 0, ab_nodes = 0, ord_nodes = 0;
  for (const auto& s : samples()) {
    for (int depth = 1; depth <= 4; ++depth) {
      INFO(s.fen << " depth " << depth);
      auto mm = test::run_depth(test::plain(Algorithm::Minimax), s.pos, depth);
      auto nm = test::run_depth(test::plain(Algorithm::Negamax), s.pos, depth);
      auto ab = test::run_depth(test::plain(Algorithm::AlphaBeta), s.pos, depth);
      auto ordered_cfg = test::plain(Algorithm::AlphaBeta);
      ordered_cfg.move_ordering = true;
      auto ord = test::run_depth(ordered_cfg, s.pos, depth);
      CHECK(mm.info.score == nm.info.score);
      CHECK(mm.info.score == ab.info.score);
      CHECK(mm.info.score == ord.info.score);
      // Same tree, same order, same tie-breaking: the same move and node count.
      CHECK(mm.best == nm.best);
      CHECK(mm.info.nodes == nm.info.nodes);
      CHECK(s.pos.is_legal(ab.best));
      if (depth >= 3) CHECK(ab.info.nodes < mm.info.nodes);
      mm_nodes += mm.info.nodes;
      ab_nodes += ab.info.nodes;
      ord_nodes += ord.info.nodes;
    }
  }
  INFO("minimax " << mm_nodes << " alphabeta " << ab_nodes << " ordered " << ord_nodes);
  CHECK(ab_nodes * 2 < mm_nodes);
  CHECK(ord_nodes < ab_nodes);
}

TEST_CASE("minimax visits exactly the perft tree plus its interior nodes") {
  // With no game ending inside the horizon, minimax evaluates every leaf: its node count at
  // depth d is perft(0) + ... + perft(d) (root and all interior nodes counted once).
  auto pos = test::fen(std::string(chess::Position::StartFen));
  auto r = test::run_depth(test::plain(Algorithm::Minimax), pos, 3);
  CHECK(r.info.nodes == 1 + 20 + 400 + 8902);
}

TEST_CASE("alpha-beta with every enhancement on finds the scholar's mate") {
  auto pos = test::fen("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
  search::SearchConfig full;  // defaults: everything on
  auto r = test::run_depth(full, pos, 4);
  CHECK(r.best.from() == chess::make_square(5, 2));  // Qf3xf7#
  CHECK(r.best.to() == chess::make_square(5, 6));
  CHECK(r.info.score == search::MateScore - 1);
}
