#include "runner/match/game_epd.h"

#include <catch2/catch.hpp>

#include "runner/match/game.h"

using namespace knightly;
using namespace knightly::runner;
namespace chess = knightly::chess;

TEST_CASE("the end position of a game as -epdout writes it", "[match][epd]") {
  GameSetup s;
  s.white = "W";
  s.black = "B";
  s.start_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  s.opening_uci = {"e7e5"};
  Game game = *Game::create(s);
  for (const char* m : {"g1f3", "b8c6"}) {
    MoveReply r;
    r.bestmove = m;
    game.on_reply(r);
  }
  game.interrupt();
  GameRecord rec = game.record(GameInfo{});
  auto fen = end_position_fen(rec);
  REQUIRE(fen.has_value());
  CHECK(*fen == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  CHECK(*fen == game.position().fen());

  // Records read back from text hold UCI only; the initial position when there is no FEN.
  GameRecord text;
  auto uci_only = [](const char* uci) {
    MoveRecord m;
    m.uci = uci;
    return m;
  };
  for (const char* m : {"e2e4", "e7e5"}) text.moves.push_back(uci_only(m));
  CHECK(end_position_fen(text).value() ==
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");

  text.moves.push_back(uci_only("e4e5"));
  auto bad = end_position_fen(text);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().find("ply 3") != std::string::npos);
  GameRecord bad_fen;
  bad_fen.start_fen = "not a fen";
  CHECK(end_position_fen(bad_fen).error().find("start FEN") != std::string::npos);
}
