// XboardPlayer against real processes: the xboard mock with each fault flag (its --log file
// shows what the player sent), and Debian's xboard engines fairymax, phalanx and hoichess.
#include "runner/players/xboard_player.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "runner/match/game.h"
#include "tests/integration/players/mock_paths.h"
#include "tests/support/process.h"

using namespace knightly;
using namespace knightly::runner;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;
using test::read_file;
using test::TempDir;

namespace {

PlayerOptions quick_options() {
  PlayerOptions o;
  o.startup_timeout = 5000ms;
  o.ready_timeout = 2000ms;
  o.quit_timeout = 500ms;
  return o;
}

EngineConfig mock_xboard(std::vector<std::string> args, const std::string& name = "xb") {
  EngineConfig c;
  c.name = name;
  c.command = test::mock_xboard_binary();
  c.args = std::move(args);
  c.protocol = Protocol::Xboard;
  return c;
}

// The lines the mock read, one string.
std::string sent(const TempDir& dir) {
  return read_file(dir.file("sent.log"));
}

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

TimeControl forty_in_a_minute() {
  TimeControl tc;
  tc.moves = 40;
  tc.time_ms = 60000;
  return tc;
}

// A request as the match builds it: the mover's clock, both clocks, the moves so far.
MoveRequest timed(const std::vector<std::string>& moves, const TimeControl& tc,
                  std::string_view fen = "") {
  MoveRequest r;
  r.side = moves.size() % 2 == 0 ? chess::White : chess::Black;
  r.start_fen = fen;
  r.moves = moves;
  r.time_control = &tc;
  r.wtime_ms = 60000;
  r.btime_ms = 59000;
  r.movestogo = 40;
  r.budget_ms = 60000;
  return r;
}

bool legal_after(std::string_view fen, const std::vector<std::string>& moves,
                 const std::string& move) {
  auto pos = fen.empty() ? chess::Position() : *chess::Position::from_fen(fen);
  for (const auto& m : moves) {
    auto parsed = chess::parse_uci(pos, m);
    if (!parsed) return false;
    pos.do_move(*parsed);
  }
  return chess::parse_uci(pos, move).has_value();
}

}  // namespace

TEST_CASE("xboard: features, new game, level, time/otim and only the new moves",
          "[players][xboard]") {
  TempDir dir;
  XboardPlayer p(mock_xboard({"--log", dir.file("sent.log")}), quick_options());
  auto err = p.start();
  INFO(err.value_or(""));
  REQUIRE_FALSE(err);
  CHECK(p.alive());
  CHECK(p.id_name() == "mock-xboard");
  CHECK(p.id_author().empty());
  CHECK(p.features().ping);
  CHECK(p.features().usermove);
  CHECK(p.features().setboard);
  REQUIRE(p.new_game(2000ms));

  const TimeControl tc = forty_in_a_minute();
  std::vector<std::string> moves;
  MoveReply first = p.go(timed(moves, tc), 5000ms);
  REQUIRE(first.status == MoveReply::Status::Move);
  CHECK(legal_after("", moves, first.bestmove));
  // The thinking line before the move: "2 11 1 1000 <move>".
  CHECK(first.eval.depth == 2);
  CHECK(first.eval.score_cp == 11);
  CHECK(first.eval.nodes == 1000);
  CHECK(first.eval.engine_time_ms == 10);
  moves.push_back(first.bestmove);
  moves.push_back("e7e5");
  MoveReply second = p.go(timed(moves, tc), 5000ms);
  REQUIRE(second.status == MoveReply::Status::Move);
  CHECK(legal_after("", moves, second.bestmove));
  p.end_game("1-0 {White wins by adjudication}");
  p.quit();
  CHECK_FALSE(p.alive());

  const std::string log = sent(dir);
  INFO(log);
  CHECK(has_line(log, "xboard"));
  CHECK(has_line(log, "protover 2"));
  CHECK(has_line(log, "accepted usermove"));
  CHECK(has_line(log, "accepted ping"));
  CHECK(has_line(log, "accepted done"));
  CHECK(has_line(log, "ping 1"));
  CHECK(has_line(log, "new"));
  CHECK(has_line(log, "force"));
  CHECK(has_line(log, "level 40 1 0"));
  CHECK(has_line(log, "post"));
  CHECK(has_line(log, "easy"));
  CHECK(has_line(log, "time 6000"));
  CHECK(has_line(log, "otim 5900"));
  CHECK(has_line(log, "go"));
  CHECK(has_line(log, "usermove e7e5"));
  // The engine's own first move is never told back to it; nor is `new` sent twice.
  CHECK_FALSE(has_line(log, "usermove " + first.bestmove));
  CHECK(log.find("\nnew\n") == log.rfind("\nnew\n"));
  CHECK(has_line(log, "result 1-0 {White wins by adjudication}"));
  CHECK(has_line(log, "quit"));
  CHECK_FALSE(has_line(log, "setboard"));
}

TEST_CASE("xboard: SAN and bare moves, st and sd", "[players][xboard]") {
  TempDir dir;
  XboardPlayer p(mock_xboard({"--log", dir.file("sent.log"), "--san", "--no-usermove"}),
                 quick_options());
  REQUIRE_FALSE(p.start());
  REQUIRE(p.new_game(2000ms));
  TimeControl st;
  st.movetime_ms = 2000;
  std::vector<std::string> moves = {"g1f3"};
  MoveRequest r;
  r.side = chess::Black;
  r.moves = moves;
  r.time_control = &st;
  r.movetime_ms = 2000;
  r.depth = 4;
  MoveReply reply = p.go(r, 5000ms);
  REQUIRE(reply.status == MoveReply::Status::Move);
  // The mock answers in SAN; the player gives the match coordinates.
  CHECK(legal_after("", moves, reply.bestmove));
  CHECK(reply.bestmove.size() >= 4);
  p.quit();
  const std::string log = sent(dir);
  INFO(log);
  CHECK(has_line(log, "Nf3"));
  CHECK(has_line(log, "st 2"));
  CHECK(has_line(log, "sd 4"));
  CHECK(has_line(log, "accepted san"));
  CHECK_FALSE(has_line(log, "time 0"));  // no clock: no time/otim
}

TEST_CASE("xboard: a FEN start by setboard, or by edit without it", "[players][xboard]") {
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  const TimeControl tc = forty_in_a_minute();
  std::vector<std::string> none;
  {
    TempDir dir;
    XboardPlayer p(mock_xboard({"--log", dir.file("sent.log")}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    MoveReply reply = p.go(timed(none, tc, fen), 5000ms);
    REQUIRE(reply.status == MoveReply::Status::Move);
    CHECK(legal_after(fen, none, reply.bestmove));
    p.quit();
    CHECK(has_line(sent(dir), "setboard " + fen));
  }
  // Without setboard, cutechess's edit commands (Black to move: after a dummy b2b3); the
  // mock then plays from the position it was given, its moves legal there.
  for (const std::string& start : {fen, std::string("4k3/4p3/8/8/8/8/8/R3K2R b KQ - 0 1")}) {
    TempDir dir;
    XboardPlayer q(mock_xboard({"--no-setboard", "--log", dir.file("sent.log")}), quick_options());
    REQUIRE_FALSE(q.start());
    REQUIRE(q.new_game(2000ms));
    for (int i = 0; i < 8; ++i) {
      MoveReply reply = q.go(timed(none, tc, start), 5000ms);
      REQUIRE(reply.status == MoveReply::Status::Move);
      CHECK(legal_after(start, none, reply.bestmove));
    }
    q.quit();
    const std::string log = read_file(dir.file("sent.log"));
    CHECK(log.find("\nsetboard ") == std::string::npos);
    CHECK(log.find("\nedit\n#\n") != std::string::npos);
    CHECK(log.find("\nc\n") != std::string::npos);
    CHECK((log.find("b2b3\nedit\n") != std::string::npos) == (start != fen));
  }
}

TEST_CASE("xboard: Chess960 needs variant fischerandom", "[players][xboard]") {
  PlayerOptions frc = quick_options();
  frc.chess960 = true;
  XboardPlayer plain(mock_xboard({}), frc);
  auto err = plain.start();
  REQUIRE(err);
  CHECK(err->find("fischerandom") != std::string::npos);
  CHECK(err->find("normal") != std::string::npos);  // its variants, named
  CHECK_FALSE(plain.alive());

  TempDir dir;
  XboardPlayer p(mock_xboard({"--log", dir.file("sent.log"), "--variants", "normal,fischerandom"}),
                 frc);
  REQUIRE_FALSE(p.start());
  REQUIRE(p.new_game(2000ms));
  // Castling both ways is legal here: the mock's first legal move list includes it.
  const std::string fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
  const TimeControl tc = forty_in_a_minute();
  std::vector<std::string> none;
  MoveRequest r = timed(none, tc, fen);
  r.chess960 = true;
  MoveReply reply = p.go(r, 5000ms);
  REQUIRE(reply.status == MoveReply::Status::Move);
  CHECK(legal_after(fen, none, reply.bestmove));
  p.quit();
  const std::string log = sent(dir);
  INFO(log);
  CHECK(has_line(log, "variant fischerandom"));
  CHECK(log.find("setboard bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w") !=
        std::string::npos);
  CHECK(log.find("\nvariant fischerandom\n") < log.find("\nsetboard "));
}

TEST_CASE("xboard: start-up faults are errors that say what", "[players][xboard][fault]") {
  PlayerOptions o = quick_options();
  o.startup_timeout = 1500ms;
  {
    XboardPlayer p(mock_xboard({"--done-zero"}), o);
    auto err = p.start();
    REQUIRE(err);
    CHECK(err->find("done=0 and no done=1 within 1500 ms") != std::string::npos);
    CHECK_FALSE(p.alive());
  }
  {
    XboardPlayer p(mock_xboard({"--no-pong"}), o);
    auto err = p.start();
    REQUIRE(err);
    CHECK(err->find("no pong 1 within 2000 ms") != std::string::npos);
  }
  {
    EngineConfig c = mock_xboard({});
    c.command = "/nonexistent/xboard-engine";
    XboardPlayer p(c, o);
    auto err = p.start();
    REQUIRE(err);
    CHECK(err->find("/nonexistent/xboard-engine") != std::string::npos);
  }
  {
    // No features at all: a protocol 1 engine, taken after xboard's 2 s (bounded by the
    // startup timeout, here 1.5 s).
    XboardPlayer p(mock_xboard({"--no-features"}), o);
    const auto t0 = SteadyClock::now();
    REQUIRE_FALSE(p.start());
    CHECK(SteadyClock::now() - t0 >= 1400ms);
    CHECK_FALSE(p.features().ping);
    REQUIRE(p.new_game(2000ms));  // nothing to ping: ready at once
  }
  {
    // done=0 asks for more time: done=1 after 2.5 s is still in time for a 5 s startup.
    XboardPlayer p(mock_xboard({"--slow-done", "2500"}), quick_options());
    auto err = p.start();
    INFO(err.value_or(""));
    REQUIRE_FALSE(err);
    CHECK(p.features().done == true);
  }
}

TEST_CASE("xboard: faults in a game are replies", "[players][xboard][fault]") {
  const TimeControl tc = forty_in_a_minute();
  std::vector<std::string> none;
  SECTION("an illegal move is given to the match as the engine wrote it") {
    XboardPlayer p(mock_xboard({"--illegal-move"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    MoveReply r = p.go(timed(none, tc), 5000ms);
    CHECK(r.status == MoveReply::Status::Move);
    CHECK(r.bestmove == "e2e5");
    CHECK(r.detail.find("not a legal move") != std::string::npos);
  }
  SECTION("a crash is a disconnection with the exit status") {
    XboardPlayer p(mock_xboard({"--crash-on-go", "1"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    MoveReply r = p.go(timed(none, tc), 5000ms);
    CHECK(r.status == MoveReply::Status::Disconnected);
    CHECK(r.detail.find("exit code 3") != std::string::npos);
    CHECK_FALSE(p.alive());
  }
  SECTION("no move by the deadline is a stall") {
    XboardPlayer p(mock_xboard({"--stall-after-go"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    MoveReply r = p.go(timed(none, tc), 300ms);
    CHECK(r.status == MoveReply::Status::Stalled);
    CHECK(r.detail == "no move within 300 ms");
    const int pid = p.pid();
    p.kill();
    CHECK(test::process_gone(pid));
  }
  SECTION("no pong before a game: new_game says so") {
    XboardPlayer p(mock_xboard({"--pong-count", "1"}), quick_options());
    REQUIRE_FALSE(p.start());
    CHECK_FALSE(p.new_game(500ms));
    auto warnings = p.take_warnings();
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("no pong 2 within 500 ms") != std::string::npos);
  }
  SECTION("a move the engine refuses is a warning") {
    XboardPlayer p(mock_xboard({"--reject-moves"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    std::vector<std::string> moves = {"e2e4"};
    MoveReply r = p.go(timed(moves, tc), 5000ms);
    CHECK(r.status == MoveReply::Status::Move);
    auto warnings = p.take_warnings();
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "xb: the engine answered 'Illegal move: e2e4'");
  }
  SECTION("garbage is counted and ignored") {
    XboardPlayer p(mock_xboard({"--garbage"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    std::vector<std::string> moves;
    for (int i = 0; i < 4; ++i) {
      MoveReply r = p.go(timed(moves, tc), 5000ms);
      REQUIRE(r.status == MoveReply::Status::Move);
      REQUIRE(legal_after("", moves, r.bestmove));
      moves.push_back(r.bestmove);
    }
    CHECK(p.garbage_lines() >= 5);
  }
}

TEST_CASE("xboard: result claims reach the match, which judges them", "[players][xboard][claim]") {
  GameSetup s;
  s.white = "xb";
  s.black = "other";
  s.limits[chess::White].tc = forty_in_a_minute();
  s.limits[chess::Black].tc = forty_in_a_minute();
  SECTION("a false victory claim loses") {
    XboardPlayer p(mock_xboard({"--false-claim"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    auto g = Game::create(s);
    REQUIRE(g);
    MoveReply r = p.go(g->next_command(), 5000ms);
    CHECK(r.claim == MoveReply::Claim::Win);
    CHECK(r.claim_text == "1-0 {claiming a win}");
    CHECK(r.bestmove.empty());
    g->on_reply(r);
    CHECK(g->termination() == Termination::FalseClaim);
    CHECK(g->reason() == "White forfeits by invalid victory claim: 1-0 {claiming a win}");
  }
  SECTION("resign") {
    XboardPlayer p(mock_xboard({"--resign-on-go", "1"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    auto g = Game::create(s);
    REQUIRE(g);
    MoveReply r = p.go(g->next_command(), 5000ms);
    CHECK(r.claim == MoveReply::Claim::Resign);
    g->on_reply(r);
    CHECK(g->result() == Result::BlackWins);
    CHECK(g->reason() == "White resigns");
    // The engine stays up for its next game, where its first move is again a resignation
    // (the mock counts per game).
    CHECK(p.alive());
    REQUIRE(p.new_game(2000ms));
    std::vector<std::string> none;
    const TimeControl tc = forty_in_a_minute();
    CHECK(p.go(timed(none, tc), 5000ms).claim == MoveReply::Claim::Resign);
  }
  SECTION("a draw claim with a move that does not draw loses") {
    XboardPlayer p(mock_xboard({"--draw-claim"}), quick_options());
    REQUIRE_FALSE(p.start());
    REQUIRE(p.new_game(2000ms));
    auto g = Game::create(s);
    REQUIRE(g);
    MoveReply r = p.go(g->next_command(), 5000ms);
    CHECK(r.claim == MoveReply::Claim::Draw);
    CHECK_FALSE(r.bestmove.empty());
    g->on_reply(r);
    CHECK(g->termination() == Termination::FalseClaim);
    CHECK(g->moves().size() == 1);
  }
}

TEST_CASE("xboard: Debian's fairymax, phalanx and hoichess play moves", "[players][xboard][real]") {
  struct Real {
    std::string command;
    std::vector<std::string> args;
    std::string name_part;
  };
  auto real = GENERATE(Real{"/usr/games/fairymax", {}, "Fairy-Max"},
                       Real{"/usr/games/phalanx", {}, "Phalanx"},
                       Real{"/usr/games/hoichess", {"-x"}, "HoiChess"});
  INFO(real.command);
  REQUIRE(std::filesystem::exists(real.command));  // scripts/setup --tests installs it
  EngineConfig c;
  c.name = "real";
  c.command = real.command;
  c.args = real.args;
  c.protocol = Protocol::Xboard;
  XboardPlayer p(c, quick_options());
  auto err = p.start();
  INFO(err.value_or(""));
  REQUIRE_FALSE(err);
  CHECK(p.id_name().find(real.name_part) != std::string::npos);
  REQUIRE(p.new_game(5000ms));
  TimeControl tc;
  tc.time_ms = 4000;
  tc.increment_ms = 100;
  std::vector<std::string> moves;
  for (int ply = 0; ply < 4; ++ply) {
    MoveRequest r;
    r.side = ply % 2 == 0 ? chess::White : chess::Black;
    r.moves = moves;
    r.time_control = &tc;
    r.wtime_ms = 4000;
    r.btime_ms = 4000;
    r.winc_ms = 100;
    r.binc_ms = 100;
    MoveReply reply = p.go(r, 15000ms);
    INFO("ply " << ply << ": " << reply.detail);
    REQUIRE(reply.status == MoveReply::Status::Move);
    REQUIRE(legal_after("", moves, reply.bestmove));
    moves.push_back(reply.bestmove);
  }
  p.end_game("* {No result}");
  p.quit();
  CHECK_FALSE(p.alive());
}
