// BuiltinPlayer: the engine's search in-process on the calling thread, under every kind of limit.
#include "runner/players/builtin_player.h"

#include <catch2/catch.hpp>
#include <chrono>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "engine/search/search.h"
#include "runner/players/player_factory.h"
#include "runner/players/uci_player.h"
#include "runner/players/xboard_player.h"
#include "tests/integration/players/mock_paths.h"

using namespace knightly;
using namespace knightly::runner;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

EngineConfig builtin(std::vector<std::pair<std::string, std::string>> options = {},
                     std::string name = "builtin") {
  EngineConfig c;
  c.name = std::move(name);
  c.builtin = true;
  c.options = std::move(options);
  return c;
}

bool legal_in(const chess::Position& pos, const std::string& move) {
  return chess::parse_uci(pos, move).has_value();
}

long long ms_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

}  // namespace

TEST_CASE("builtin: depth limit gives a legal move and reports that depth", "[builtin]") {
  BuiltinPlayer p(builtin());
  REQUIRE_FALSE(p.start());
  CHECK(p.alive());
  REQUIRE(p.new_game(1000ms));
  MoveRequest g;
  const std::vector<std::string> moves = {"e2e4", "c7c5"};
  g.moves = moves;
  g.depth = 3;
  MoveReply r = p.go(g, 10000ms);
  REQUIRE(r.status == MoveReply::Status::Move);
  chess::Position pos;
  for (const auto& m : g.moves) pos.do_move(*chess::parse_uci(pos, m));
  CHECK(legal_in(pos, r.bestmove));
  CHECK(r.eval.depth == 3);
  CHECK(r.eval.score_cp);
  CHECK(r.eval.nodes > 0);
  CHECK(r.elapsed_ms < 10000);
}

TEST_CASE("builtin: movetime and clock limits are honoured", "[builtin]") {
  BuiltinPlayer p(builtin());
  REQUIRE_FALSE(p.start());
  MoveRequest mt;
  mt.movetime_ms = 100;
  auto t0 = Clock::now();
  MoveReply r = p.go(mt, 2000ms);
  REQUIRE(r.status == MoveReply::Status::Move);
  CHECK(legal_in(chess::Position(), r.bestmove));
  CHECK(r.elapsed_ms <= 400);
  CHECK(ms_since(t0) <= 450);

  MoveRequest clock;
  const std::vector<std::string> d4 = {"d2d4"};
  clock.moves = d4;
  clock.wtime_ms = 1000;
  clock.btime_ms = 1000;
  clock.winc_ms = clock.binc_ms = 10;
  r = p.go(clock, 2000ms);
  REQUIRE(r.status == MoveReply::Status::Move);
  chess::Position pos;
  pos.do_move(*chess::parse_uci(pos, "d2d4"));
  CHECK(legal_in(pos, r.bestmove));
  CHECK(r.elapsed_ms < 1000);
}

TEST_CASE("builtin: an infinite search stops at the deadline with a move", "[builtin]") {
  BuiltinPlayer p(builtin());
  REQUIRE_FALSE(p.start());
  MoveRequest g;
  g.infinite = true;
  auto t0 = Clock::now();
  MoveReply r = p.go(g, 200ms);
  long long took = ms_since(t0);
  REQUIRE(r.status == MoveReply::Status::Move);
  CHECK(legal_in(chess::Position(), r.bestmove));
  CHECK(took >= 200);
  CHECK(took < 200 + 1000);  // the search checks its clock every 256 nodes
  CHECK(r.elapsed_ms >= 200);
  // The player is usable after a stopped search.
  MoveRequest d;
  d.depth = 2;
  CHECK(p.go(d, 5000ms).status == MoveReply::Status::Move);
}

TEST_CASE("builtin: finds a mate in one and reports it as UCI mate 1", "[builtin]") {
  const std::string fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
  BuiltinPlayer p(builtin());
  REQUIRE_FALSE(p.start());
  MoveRequest g;
  g.start_fen = fen;
  g.depth = 3;
  MoveReply r = p.go(g, 10000ms);
  REQUIRE(r.status == MoveReply::Status::Move);
  auto pos = *chess::Position::from_fen(fen);
  auto m = chess::parse_uci(pos, r.bestmove);
  REQUIRE(m);
  pos.do_move(*m);
  CHECK(pos.game_end() == chess::GameEnd::Checkmate);
  CHECK(r.eval.mate == 1);
  CHECK_FALSE(r.eval.score_cp);
}

TEST_CASE("builtin: search scores in UCI units", "[builtin]") {
  MoveEval r;
  set_eval_score(35, r);
  CHECK(r.score_cp == 35);
  CHECK_FALSE(r.mate);
  set_eval_score(search::MateScore - 1, r);  // mate on the next ply
  CHECK(r.mate == 1);
  CHECK_FALSE(r.score_cp);
  set_eval_score(search::MateScore - 3, r);  // mover mates with its 2nd move
  CHECK(r.mate == 2);
  set_eval_score(-(search::MateScore - 2), r);  // mated after the opponent's 1st move
  CHECK(r.mate == -1);
  set_eval_score(-120, r);
  CHECK(r.score_cp == -120);
  CHECK_FALSE(r.mate);
}

TEST_CASE("builtin: options apply, unknown names warn, bad values fail start", "[builtin]") {
  std::vector<std::string> warnings;
  auto sc = builtin_search_config(builtin({{"search", "negamax"},
                                           {"Hash", "4"},
                                           {"Threads", "1"},
                                           {"Quiescence", "false"},
                                           {"Eval", "material"}}),
                                  warnings);
  REQUIRE(sc);
  CHECK(sc->algorithm == search::Algorithm::Negamax);
  CHECK(sc->hash_mb == 4);
  CHECK_FALSE(sc->quiescence);
  CHECK(sc->eval == "material");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("Threads") != std::string::npos);

  BuiltinPlayer bad(builtin({{"Hash", "lots"}}));
  auto err = bad.start();
  REQUIRE(err);
  CHECK(err->find("Hash") != std::string::npos);
  CHECK_FALSE(bad.alive());

  BuiltinPlayer warn(builtin({{"Threads", "1"}}));
  REQUIRE_FALSE(warn.start());
  CHECK(warn.take_warnings().size() == 1);
}

TEST_CASE("builtin: limits map from the go command", "[builtin]") {
  MoveRequest g;
  g.wtime_ms = 0;
  g.btime_ms = 5000;
  g.winc_ms = 100;
  g.binc_ms = 200;
  g.movestogo = 7;
  search::Limits l = builtin_limits(g);
  CHECK(l.time_ms[chess::White] == 1);  // 0 would mean "no clock" to the search
  CHECK(l.time_ms[chess::Black] == 5000);
  CHECK(l.inc_ms[chess::White] == 100);
  CHECK(l.inc_ms[chess::Black] == 200);
  CHECK(l.movestogo == 7);
  MoveRequest d;
  d.depth = 4;
  d.nodes = 1000;
  l = builtin_limits(d);
  CHECK(l.depth == 4);
  CHECK(l.nodes == 1000);
  CHECK_FALSE(l.has_clock());
  MoveRequest inf;
  inf.infinite = true;
  inf.depth = 3;
  CHECK(builtin_limits(inf).infinite);
}

TEST_CASE("builtin: two configurations play a game of legal moves", "[builtin]") {
  auto white = make_player(builtin({{"Search", "alphabeta"}}, "ab"));
  auto black = make_player(builtin({{"Search", "random"}, {"Seed", "5"}}, "rnd"));
  REQUIRE_FALSE(white->start());
  REQUIRE_FALSE(black->start());
  CHECK(white->id_name() == "Knightly");
  chess::Position pos;
  MoveRequest g;
  g.depth = 2;
  std::vector<std::string> moves;
  int plies = 0;
  for (; plies < 120 && pos.game_end() == chess::GameEnd::None; ++plies) {
    Player& mover = plies % 2 == 0 ? *white : *black;
    MoveReply r = mover.go(g, 10000ms);
    REQUIRE(r.status == MoveReply::Status::Move);
    auto m = chess::parse_uci(pos, r.bestmove);
    REQUIRE(m);
    pos.do_move(*m);
    moves.push_back(r.bestmove);
    g.moves = moves;
  }
  CHECK(plies >= 10);
  // A different game from a FEN in the same player rebuilds its position.
  MoveRequest other;
  other.start_fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  other.depth = 2;
  MoveReply r = white->go(other, 5000ms);
  REQUIRE(r.status == MoveReply::Status::Move);
  CHECK(legal_in(*chess::Position::from_fen(other.start_fen), r.bestmove));
}

TEST_CASE("builtin: kill and restart", "[builtin]") {
  BuiltinPlayer p(builtin());
  REQUIRE_FALSE(p.start());
  p.kill();
  CHECK_FALSE(p.alive());
  MoveRequest g;
  g.depth = 1;
  CHECK(p.go(g, 1000ms).status == MoveReply::Status::Disconnected);
  REQUIRE_FALSE(p.start());
  CHECK(p.go(g, 1000ms).status == MoveReply::Status::Move);
}

TEST_CASE("factory: builtin, UCI and xboard configurations", "[builtin]") {
  EngineConfig uci_config = test::mock_config();
  auto u = make_player(uci_config);
  REQUIRE(dynamic_cast<UciPlayer*>(u.get()));
  REQUIRE_FALSE(u->start());
  CHECK(u->id_name() == "mock-engine");
  auto b = make_player(builtin());
  CHECK(dynamic_cast<BuiltinPlayer*>(b.get()));
  EngineConfig xboard = uci_config;
  xboard.protocol = Protocol::Xboard;
  CHECK(dynamic_cast<XboardPlayer*>(make_player(xboard).get()));
}

TEST_CASE("builtin: the match's position searches as its move text does", "[builtin]") {
  // Two players of one configuration: one is told the moves, the other gets the position
  // itself (as the match hands it over). A search is deterministic, so both must agree.
  BuiltinPlayer by_text(builtin({}, "text")), by_position(builtin({}, "position"));
  REQUIRE_FALSE(by_text.start());
  REQUIRE_FALSE(by_position.start());
  REQUIRE(by_text.new_game(1000ms));
  REQUIRE(by_position.new_game(1000ms));
  chess::Position pos = *chess::Position::from_fen(
      "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  const std::string start_fen = pos.fen();  // the request views it
  MoveRequest g;
  g.start_fen = start_fen;
  g.depth = 4;
  std::vector<std::string> moves;
  for (int ply = 0; ply < 12; ++ply) {
    MoveReply a = by_text.go(g, 10000ms);
    MoveRequest with_position = g;
    with_position.position = &pos;
    with_position.moves = {};  // the position is what counts, not the text
    MoveReply b = by_position.go(with_position, 10000ms);
    INFO("ply " << ply << " " << pos.fen());
    REQUIRE(a.status == MoveReply::Status::Move);
    REQUIRE(b.status == MoveReply::Status::Move);
    CHECK(a.bestmove == b.bestmove);
    CHECK(a.eval.nodes == b.eval.nodes);
    CHECK(a.eval.score_cp == b.eval.score_cp);
    auto m = chess::parse_uci(pos, a.bestmove);
    REQUIRE(m);
    pos.do_move(*m);
    if (pos.game_end() != chess::GameEnd::None) break;
    moves.push_back(a.bestmove);
    g.moves = moves;
  }
}
