// One game for the replay: the full FEN after every ply and the final FEN come from the chess
// rules.
#include "runner/report/game_view.h"

#include <catch2/catch.hpp>

using namespace knightly;
using namespace knightly::runner;

namespace {

GameRecord ruy_lopez(std::vector<std::string> moves) {
  GameRecord g;
  g.id = {1, 2, 1, 9};
  g.white = "White <b>";
  g.black = "Black \"q\"";
  g.result = Result::Draw;
  g.termination = Termination::AdjudicationDraw;
  g.reason = "Draw by adjudication";
  g.pgn = "[Event \"x\"]\n\n1. e4 e5 1/2-1/2\n";
  for (std::size_t i = 0; i < moves.size(); ++i) {
    MoveRecord m;
    m.uci = moves[i];
    m.san = "s" + std::to_string(i);
    m.book = i < 2;
    if (!m.book) {
      m.eval.score_cp = static_cast<int>(i) * 10;
      m.eval.depth = 7;
      m.eval.nodes = 1000;
      m.time_ms = 12;
      m.clock_left_ms = 5000;
    }
    g.moves.push_back(m);
  }
  return g;
}

}  // namespace

TEST_CASE("game_json: the full FEN after every ply and the final FEN", "[report][game]") {
  const auto g = ruy_lopez({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"});
  const std::string j = report::game_json(42, "night", g);
  // An empty start FEN is the initial position.
  CHECK(j.find(R"("start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")") !=
        std::string::npos);
  CHECK(
      j.find(
          R"(["e2e4","s0","rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",null,null,0,0,0,null,1])") !=
      std::string::npos);
  CHECK(
      j.find(
          R"(["a7a6","s5","r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",50,null,7,1000,12,5000,0])") !=
      std::string::npos);
  CHECK(
      j.find(
          R"("final_fen":"r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4")") !=
      std::string::npos);
  CHECK(j.find(R"("replay_error":"")") != std::string::npos);
  CHECK(j.find(R"("id":42,"tournament":"night","round":2,"pair":3,"game":2)") != std::string::npos);
  CHECK(j.find(R"("white":"White \u003cb\u003e","black":"Black \"q\"")") != std::string::npos);
  CHECK(j.find(R"("result":"1/2-1/2")") != std::string::npos);
  CHECK(j.find(R"("pgn":"[Event \"x\"]\n\n1. e4 e5 1/2-1/2\n")") != std::string::npos);
  CHECK(j.find('<') == std::string::npos);
}

TEST_CASE("game_json: a game from a FEN with Black to move, mate scores", "[report][game]") {
  GameRecord g = ruy_lopez({"e7e5", "d2d4"});
  g.start_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
  g.moves[1].eval.mate = -3;
  const std::string j = report::game_json(1, "t", g);
  CHECK(j.find(R"("final_fen":"rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2")") !=
        std::string::npos);
  CHECK(j.find(R"(,null,-3,0,0,0,null,1])") != std::string::npos);
}

TEST_CASE("game_json: a move the rules reject ends the replay and says where", "[report][game]") {
  const auto g = ruy_lopez({"e2e4", "e7e5", "e1e3", "b8c6"});
  const std::string j = report::game_json(7, "t", g);
  CHECK(j.find(R"("replay_error":"ply 3 ('e1e3'): )") != std::string::npos);
  CHECK(j.find(R"("final_fen":"")") != std::string::npos);
  // The plies before it still have their FENs, the ones from it on none.
  CHECK(j.find(R"(["e7e5","s1","rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")") !=
        std::string::npos);
  CHECK(j.find(R"(["e1e3","s2","",)") != std::string::npos);
  CHECK(j.find(R"(["b8c6","s3","",)") != std::string::npos);
}

TEST_CASE("game_json: a bad start FEN is reported, not thrown", "[report][game]") {
  GameRecord g = ruy_lopez({"e2e4"});
  g.start_fen = "not a fen";
  const std::string j = report::game_json(3, "t", g);
  CHECK(j.find(R"("replay_error":"start position 'not a fen': )") != std::string::npos);
  CHECK(j.find(R"("final_fen":"")") != std::string::npos);
}
