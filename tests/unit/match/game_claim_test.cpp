// Result claims (xboard engines) and refused games, judged by the Game as cutechess judges
// them: a claim of one's own loss is a resignation, a win or draw the position does not have
// loses, and a claim the rules already made true changes nothing.
#include <catch2/catch.hpp>
#include <string>

#include "runner/match/game.h"

using namespace knightly;
using namespace knightly::runner;
using knightly::chess::Black;
using knightly::chess::White;

namespace {

MoveReply move(const std::string& uci) {
  MoveReply r;
  r.bestmove = uci;
  r.elapsed_ms = 10;
  return r;
}

MoveReply claim(MoveReply::Claim c, const std::string& text, const std::string& uci = "") {
  MoveReply r = move(uci);
  r.claim = c;
  r.claim_text = text;
  return r;
}

Game make() {
  GameSetup s;
  s.white = "Alpha";
  s.black = "Beta";
  auto g = Game::create(s);
  REQUIRE(g.has_value());
  return std::move(*g);
}

}  // namespace

TEST_CASE("an engine that resigns loses by resignation", "[match][game][claim]") {
  Game g = make();
  g.on_reply(move("e2e4"));
  g.on_reply(claim(MoveReply::Claim::Resign, "resign"));
  REQUIRE(g.finished());
  CHECK(g.result() == Result::WhiteWins);
  CHECK(g.termination() == Termination::Resignation);
  CHECK(g.reason() == "Black resigns");
  CHECK(g.moves().size() == 1);
  CHECK(termination_name(Termination::Resignation) == std::string("resignation"));
  CHECK(parse_termination("resignation") == Termination::Resignation);
  GameRecord rec = g.record({});
  CHECK(rec.pgn.find("[Termination \"normal\"]") != std::string::npos);
  CHECK(rec.pgn.find("{Black resigns} 1-0") != std::string::npos);
}

TEST_CASE("a false victory or draw claim loses", "[match][game][claim]") {
  Game g = make();
  g.on_reply(claim(MoveReply::Claim::Win, "1-0 {White mates}"));
  REQUIRE(g.finished());
  CHECK(g.result() == Result::BlackWins);
  CHECK(g.termination() == Termination::FalseClaim);
  CHECK(g.reason() == "White forfeits by invalid victory claim: 1-0 {White mates}");
  CHECK(parse_termination("false claim") == Termination::FalseClaim);
  CHECK(g.record({}).pgn.find("[Termination \"rules infraction\"]") != std::string::npos);

  // A draw claimed with a move that does not draw.
  Game d = make();
  d.on_reply(move("e2e4"));
  d.on_reply(claim(MoveReply::Claim::Draw, "1/2-1/2 {Draw by repetition}", "e7e5"));
  REQUIRE(d.finished());
  CHECK(d.result() == Result::WhiteWins);
  CHECK(d.termination() == Termination::FalseClaim);
  CHECK(d.reason() == "Black forfeits by invalid draw claim: 1/2-1/2 {Draw by repetition}");
  CHECK(d.moves().size() == 2);  // the move itself was legal and is kept
}

TEST_CASE("a true claim with the move changes nothing", "[match][game][claim]") {
  Game g = make();
  g.on_reply(move("f2f3"));
  g.on_reply(move("e7e5"));
  g.on_reply(move("g2g4"));
  g.on_reply(claim(MoveReply::Claim::Win, "0-1 {Black mates}", "d8h4"));
  REQUIRE(g.finished());
  CHECK(g.result() == Result::BlackWins);
  CHECK(g.termination() == Termination::Checkmate);
  CHECK(g.reason() == "Black mates");

  // A claim with an illegal move: the illegal move decides.
  Game i = make();
  i.on_reply(claim(MoveReply::Claim::Draw, "1/2-1/2", "e2e5"));
  CHECK(i.termination() == Termination::IllegalMove);
}

TEST_CASE("a game the player cannot set up is lost with its reason", "[match][game][claim]") {
  Game g = make();
  MoveReply r;
  r.status = MoveReply::Status::Refused;
  r.detail = "the engine has no feature setboard=1";
  g.on_reply(r);
  REQUIRE(g.finished());
  CHECK(g.result() == Result::BlackWins);
  CHECK(g.termination() == Termination::Disconnect);
  CHECK(g.reason() == "White disconnects: the engine has no feature setboard=1");
}

TEST_CASE("the request tells the time control and the variant", "[match][game][claim]") {
  GameSetup s;
  s.white = "Alpha";
  s.black = "Beta";
  TimeControl tc;
  tc.moves = 40;
  tc.time_ms = 60000;
  s.limits[White].tc = tc;
  s.limits[Black].depth = 3;
  s.chess960 = true;
  auto g = Game::create(s);
  REQUIRE(g);
  MoveRequest w = g->next_command();
  REQUIRE(w.time_control);
  CHECK(*w.time_control == tc);
  CHECK(w.chess960);
  g->on_reply(move("e2e4"));
  MoveRequest b = g->next_command();
  CHECK(b.time_control == nullptr);
  CHECK(b.depth == 3);
}
