#include "runner/match/game.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "runner/match/time_control.h"
#include "tests/test_data.h"

using namespace knightly;
using namespace knightly::runner;
using knightly::chess::Black;
using knightly::chess::White;

namespace {

MoveReply move(const std::string& uci, std::optional<int> cp = 0, int depth = 5,
               std::int64_t ms = 10) {
  MoveReply r;
  r.bestmove = uci;
  r.eval.score_cp = cp;
  r.eval.depth = depth;
  r.eval.nodes = 1234;
  r.elapsed_ms = ms;
  return r;
}

MoveReply status(MoveReply::Status s, std::int64_t ms = 10) {
  MoveReply r;
  r.status = s;
  r.elapsed_ms = ms;
  return r;
}

GameSetup setup(const std::string& fen = "") {
  GameSetup s;
  s.white = "Alpha";
  s.black = "Beta";
  s.start_fen = fen;
  return s;
}

Game make(const GameSetup& s) {
  auto g = Game::create(s);
  REQUIRE(g.has_value());
  return std::move(*g);
}

void play(Game& g, std::initializer_list<const char*> moves) {
  for (const char* m : moves) {
    REQUIRE_FALSE(g.finished());
    g.on_reply(move(m));
  }
}

}  // namespace

TEST_CASE("fool's mate: Black mates", "[match][game]") {
  Game g = make(setup());
  play(g, {"f2f3", "e7e5", "g2g4", "d8h4"});
  REQUIRE(g.finished());
  CHECK(g.result() == Result::BlackWins);
  CHECK(g.termination() == Termination::Checkmate);
  CHECK(g.reason() == "Black mates");
  REQUIRE(g.moves().size() == 4);
  CHECK(g.moves()[3].san == "Qh4#");
  CHECK(g.moves()[3].uci == "d8h4");
}

TEST_CASE("scholar's mate: White mates", "[match][game]") {
  Game g = make(setup());
  play(g, {"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"});
  REQUIRE(g.finished());
  CHECK(g.result() == Result::WhiteWins);
  CHECK(g.reason() == "White mates");
}

TEST_CASE("stalemate", "[match][game]") {
  Game g = make(setup("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"));
  CHECK_FALSE(g.finished());
  play(g, {"f1f7"});
  REQUIRE(g.finished());
  CHECK(g.result() == Result::Draw);
  CHECK(g.termination() == Termination::Stalemate);
  CHECK(g.reason() == "Draw by stalemate");
}

TEST_CASE("threefold repetition by knight shuffles", "[match][game]") {
  Game g = make(setup());
  play(g, {"g1f3", "g8f6", "f3g1", "f6g8"});
  CHECK_FALSE(g.finished());  // the start position twice
  play(g, {"g1f3", "g8f6", "f3g1"});
  CHECK_FALSE(g.finished());
  play(g, {"f6g8"});
  REQUIRE(g.finished());
  CHECK(g.result() == Result::Draw);
  CHECK(g.termination() == Termination::Repetition);
  CHECK(g.reason() == "Draw by 3-fold repetition");
}

TEST_CASE("fifty moves from a FEN with halfmove clock 99", "[match][game]") {
  Game g = make(setup("8/8/8/4k3/8/8/8/R3K3 w - - 99 80"));
  play(g, {"a1a2"});
  REQUIRE(g.finished());
  CHECK(g.result() == Result::Draw);
  CHECK(g.termination() == Termination::FiftyMoves);
  CHECK(g.reason() == "Draw by fifty moves rule");

  // A pawn move at the same point resets the count instead.
  Game p = make(setup("8/8/8/4k3/8/8/P7/R3K3 w - - 99 80"));
  play(p, {"a2a3"});
  CHECK_FALSE(p.finished());
}

TEST_CASE("insufficient material after a capture", "[match][game]") {
  Game g = make(setup("8/8/8/4k3/8/8/3n4/4K2b w - - 0 1"));
  REQUIRE_FALSE(g.finished());  // K v K+N+B can still be mated
  play(g, {"e1d2"});
  REQUIRE(g.finished());
  CHECK(g.result() == Result::Draw);
  CHECK(g.termination() == Termination::InsufficientMaterial);
  CHECK(g.reason() == "Draw by insufficient mating material");
  CHECK(g.moves()[0].san == "Kxd2");
}

TEST_CASE("illegal and unparsable moves lose", "[match][game][fault]") {
  Game illegal = make(setup());
  illegal.on_reply(move("e2e5"));
  REQUIRE(illegal.finished());
  CHECK(illegal.result() == Result::BlackWins);
  CHECK(illegal.termination() == Termination::IllegalMove);
  CHECK(illegal.reason() == "White makes an illegal move: e2e5");
  CHECK(illegal.moves().empty());

  Game garbage = make(setup());
  play(garbage, {"e2e4"});
  garbage.on_reply(move("hello"));
  REQUIRE(garbage.finished());
  CHECK(garbage.result() == Result::WhiteWins);
  CHECK(garbage.reason() == "Black makes an illegal move: hello");

  Game empty = make(setup());
  empty.on_reply(move(""));
  CHECK(empty.reason() == "White makes an illegal move");
}

TEST_CASE("a forfeit outside a move keeps why in the reason", "[match][game][fault]") {
  // An engine that cannot be restarted loses its game before a move is played: the reason
  // says why, in the database and in the PGN.
  Game g = make(setup());
  g.forfeit(Black, Termination::Disconnect, "could not be restarted: no such file");
  CHECK(g.result() == Result::WhiteWins);
  CHECK(g.termination() == Termination::Disconnect);
  CHECK(g.reason() == "Black disconnects: could not be restarted: no such file");
  Game plain = make(setup());
  plain.forfeit(White, Termination::Stall);
  CHECK(plain.reason() == "White's connection stalls");
}

TEST_CASE("disconnects and stalls lose", "[match][game][fault]") {
  Game d = make(setup());
  d.on_reply(status(MoveReply::Status::Disconnected));
  CHECK(d.result() == Result::BlackWins);
  CHECK(d.termination() == Termination::Disconnect);
  CHECK(d.reason() == "White disconnects");

  Game d2 = make(setup());
  play(d2, {"e2e4"});
  d2.on_reply(status(MoveReply::Status::Disconnected));
  CHECK(d2.result() == Result::WhiteWins);
  CHECK(d2.reason() == "Black disconnects");

  Game s = make(setup());  // no clock: a stall is a stall
  s.on_reply(status(MoveReply::Status::Stalled, 60000));
  CHECK(s.result() == Result::BlackWins);
  CHECK(s.termination() == Termination::Stall);
  CHECK(s.reason() == "White's connection stalls");

  GameSetup timed = setup();
  timed.limits[White].tc = *parse_time_control("1+0");
  timed.limits[Black].tc = *parse_time_control("1+0");
  Game late = make(timed);  // with a clock, no move past the flag is a loss on time
  late.on_reply(status(MoveReply::Status::Stalled, 1500));
  CHECK(late.termination() == Termination::TimeForfeit);
  CHECK(late.reason() == "White loses on time");

  Game f = make(setup());
  play(f, {"d2d4"});
  f.forfeit(Black, Termination::Stall);
  CHECK(f.result() == Result::WhiteWins);
  CHECK(f.reason() == "Black's connection stalls");
}

TEST_CASE("loss on time after the margin", "[match][game][fault]") {
  GameSetup s = setup();
  s.limits[White].tc = *parse_time_control("1+0");
  s.limits[Black].tc = *parse_time_control("1+0");
  s.limits[Black].time_margin_ms = 100;
  Game g = make(s);
  MoveReply claimed = move("e2e4", 0, 5, 1000);  // exactly the time left: still in time
  g.on_reply(claimed);
  REQUIRE_FALSE(g.finished());
  CHECK(g.moves()[0].clock_left_ms == 0);
  g.on_reply(move("e7e5", 0, 5, 1100));  // within Black's margin
  REQUIRE_FALSE(g.finished());
  CHECK(g.moves()[1].clock_left_ms == -100);
  g.on_reply(move("g1f3", 0, 5, 1));
  REQUIRE(g.finished());
  CHECK(g.result() == Result::BlackWins);
  CHECK(g.termination() == Termination::TimeForfeit);
  CHECK(g.reason() == "White loses on time");
  CHECK(g.moves().size() == 2);  // the late move is not played
}

TEST_CASE("interrupt leaves the game unfinished", "[match][game]") {
  Game g = make(setup());
  play(g, {"e2e4"});
  g.interrupt();
  REQUIRE(g.finished());
  CHECK(g.result() == Result::None);
  CHECK(g.termination() == Termination::Interrupted);
  CHECK(std::string(result_token(g.result())) == "*");
}

TEST_CASE("go commands carry both clocks", "[match][game][clock]") {
  GameSetup s = setup();
  s.limits[White].tc = *parse_time_control("60+0.6");
  s.limits[Black].tc = *parse_time_control("60+0.6");
  Game g = make(s);
  MoveRequest w = g.next_command();
  CHECK(w.side == White);
  CHECK(w.start_fen.empty());
  CHECK(w.moves.empty());
  CHECK(*w.wtime_ms == 60000);
  CHECK(*w.btime_ms == 60000);
  CHECK(*w.winc_ms == 600);
  CHECK(*w.binc_ms == 600);
  CHECK_FALSE(w.movestogo);
  CHECK_FALSE(w.movetime_ms);
  CHECK_FALSE(w.infinite);
  CHECK(*w.budget_ms == 60000);
  g.on_reply(move("e2e4", 20, 8, 1000));
  MoveRequest b = g.next_command();
  CHECK(b.side == Black);
  CHECK(std::vector<std::string>(b.moves.begin(), b.moves.end()) ==
        std::vector<std::string>{"e2e4"});
  CHECK(*b.wtime_ms == 59600);
  CHECK(*b.btime_ms == 60000);
  CHECK(g.moves()[0].clock_left_ms == 59600);
  CHECK(g.moves()[0].time_ms == 1000);
  CHECK(*g.moves()[0].eval.score_cp == 20);
  CHECK(g.moves()[0].eval.depth == 8);
  CHECK(g.moves()[0].eval.nodes == 1234);
}

TEST_CASE("go commands: movestogo movetime depth nodes infinite", "[match][game][clock]") {
  GameSetup rep = setup();
  rep.limits[White].tc = *parse_time_control("40/60");
  rep.limits[Black].tc = *parse_time_control("40/60");
  Game r = make(rep);
  CHECK(*r.next_command().movestogo == 40);
  r.on_reply(move("e2e4"));
  CHECK(*r.next_command().movestogo == 40);  // Black has not moved yet
  r.on_reply(move("e7e5"));
  CHECK(*r.next_command().movestogo == 39);

  GameSetup st = setup();
  st.limits[White].tc = *parse_move_time("0.1");
  st.limits[Black].tc = *parse_move_time("0.1");
  MoveRequest m = make(st).next_command();
  CHECK(*m.movetime_ms == 100);
  CHECK_FALSE(m.wtime_ms);
  CHECK(*m.budget_ms == 100);

  GameSetup mixed = setup();
  mixed.limits[White].tc = *parse_time_control("10+0.1");
  mixed.limits[Black].depth = 7;
  mixed.limits[Black].nodes = 5000;
  Game x = make(mixed);
  MoveRequest xw = x.next_command();
  CHECK(*xw.wtime_ms == 10000);
  CHECK(*xw.btime_ms == 10000);  // the clockless opponent is shown the mover's clock
  CHECK_FALSE(xw.depth);
  x.on_reply(move("d2d4"));
  MoveRequest xb = x.next_command();
  CHECK(*xb.depth == 7);
  CHECK(*xb.nodes == 5000);
  CHECK_FALSE(xb.wtime_ms);
  CHECK_FALSE(xb.infinite);
  CHECK_FALSE(xb.budget_ms);

  MoveRequest inf = make(setup()).next_command();
  CHECK(inf.infinite);
  CHECK_FALSE(inf.budget_ms);
}

TEST_CASE("opening moves are book moves the engines are told", "[match][game]") {
  GameSetup s = setup();
  s.opening_uci = {"e2e4", "c7c5", "g1f3"};
  s.opening_source = "test.epd:3";
  Game g = make(s);
  REQUIRE(g.moves().size() == 3);
  CHECK(g.moves()[0].book);
  CHECK(g.moves()[2].san == "Nf3");
  MoveRequest req = g.next_command();
  CHECK(req.side == Black);
  CHECK(std::vector<std::string>(req.moves.begin(), req.moves.end()) ==
        std::vector<std::string>{"e2e4", "c7c5", "g1f3"});

  GameSetup bad = setup();
  bad.opening_uci = {"e2e4", "e2e4"};
  auto err = Game::create(bad);
  REQUIRE_FALSE(err);
  CHECK(err.error().find("opening move 2") != std::string::npos);
  CHECK(err.error().find("e2e4") != std::string::npos);

  auto fen = Game::create(setup("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"));
  CHECK(fen.has_value());
  auto badfen = Game::create(setup("not a fen"));
  REQUIRE_FALSE(badfen);
  CHECK(badfen.error().find("not a fen") != std::string::npos);
}

TEST_CASE("an opening that ends the game leaves nothing to play", "[match][game]") {
  GameSetup s = setup();
  s.opening_uci = {"f2f3", "e7e5", "g2g4", "d8h4"};
  Game g = make(s);
  REQUIRE(g.finished());
  CHECK(g.reason() == "Black mates");
  CHECK(g.moves().size() == 4);

  Game over = make(setup("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));  // stalemated from the start
  REQUIRE(over.finished());
  CHECK(over.reason() == "Draw by stalemate");
  CHECK(over.moves().empty());
}

TEST_CASE("a start FEN is passed on and the initial position is startpos", "[match][game]") {
  const std::string fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
  Game g = make(setup(fen));
  CHECK(g.next_command().start_fen == fen);
  Game initial = make(setup(std::string(knightly::chess::Position::StartFen)));
  CHECK(initial.next_command().start_fen.empty());
}

TEST_CASE("draw adjudication in a game where book moves do not count",
          "[match][game][adjudication]") {
  GameSetup s = setup();
  s.adjudication.draw = {true, 2, 2, 10};
  Game g = make(s);
  g.on_reply(move("g1f3", 5));
  g.on_reply(move("g8f6", -5));
  g.on_reply(move("b1c3", 10));
  REQUIRE_FALSE(g.finished());
  g.on_reply(move("b8c6", -10));
  REQUIRE(g.finished());
  CHECK(g.result() == Result::Draw);
  CHECK(g.termination() == Termination::AdjudicationDraw);
  CHECK(g.reason() == "Draw by adjudication");

  GameSetup b = s;
  b.opening_uci = {"g1f3", "g8f6", "b1c3"};
  Game book = make(b);
  book.on_reply(move("b8c6", 0));
  CHECK_FALSE(book.finished());  // only one engine move within the bound so far

  Game shallow = make(s);  // depth 0 replies carry no score worth judging
  for (const char* m : {"g1f3", "g8f6", "b1c3", "b8c6"}) shallow.on_reply(move(m, 0, 0));
  CHECK_FALSE(shallow.finished());
}

TEST_CASE("resign adjudication in a game one- and two-sided", "[match][game][adjudication]") {
  GameSetup s = setup();
  s.adjudication.resign = {true, 2, 500, false};
  Game g = make(s);
  g.on_reply(move("g1f3", -600));
  g.on_reply(move("g8f6", 0));
  REQUIRE_FALSE(g.finished());
  g.on_reply(move("b1c3", -500));
  REQUIRE(g.finished());
  CHECK(g.result() == Result::BlackWins);
  CHECK(g.termination() == Termination::AdjudicationResign);
  CHECK(g.reason() == "Black wins by adjudication");

  GameSetup two = setup();
  two.adjudication.resign = {true, 2, 500, true};
  Game t = make(two);
  t.on_reply(move("g1f3", 700));
  t.on_reply(move("g8f6", -700));
  t.on_reply(move("b1c3", 100));  // White does not claim the win
  t.on_reply(move("b8c6", -700));
  REQUIRE_FALSE(t.finished());
  t.on_reply(move("e2e3", 700));
  t.on_reply(move("e7e6", -700));
  REQUIRE_FALSE(t.finished());
  t.on_reply(move("d2d3", 700));
  t.on_reply(move("d7d6", -700));
  REQUIRE(t.finished());
  CHECK(t.result() == Result::WhiteWins);
  CHECK(t.reason() == "White wins by adjudication");

  GameSetup mate = setup();
  mate.adjudication.resign = {true, 1, 1000, false};
  Game m = make(mate);
  MoveReply mated = move("g1f3", std::nullopt);
  mated.eval.mate = -3;
  m.on_reply(mated);
  CHECK(m.reason() == "Black wins by adjudication");
}

TEST_CASE("max moves ends the game as an adjudicated draw", "[match][game][adjudication]") {
  GameSetup s = setup();
  s.adjudication.max_moves = 2;
  s.opening_uci = {"e2e4"};
  Game g = make(s);
  play(g, {"e7e5", "g1f3"});
  REQUIRE_FALSE(g.finished());
  play(g, {"b8c6"});
  REQUIRE(g.finished());
  CHECK(g.result() == Result::Draw);
  CHECK(g.termination() == Termination::MaxMoves);
  CHECK(g.reason() == "Draw by adjudication");
}

TEST_CASE("termination names are docs/schema.md's, and read back", "[match][game]") {
  CHECK(std::string(termination_name(Termination::Checkmate)) == "checkmate");
  CHECK(std::string(termination_name(Termination::AdjudicationDraw)) == "adjudication draw");
  CHECK(std::string(termination_name(Termination::TimeForfeit)) == "time forfeit");
  CHECK(std::string(termination_name(Termination::Interrupted)) == "interrupted");
  // The schema's list of games.termination values, in its order, is every name but "none".
  std::ifstream schema(knightly::test::source_dir() + "/docs/schema.md");
  REQUIRE(schema);
  std::vector<std::string> documented;
  for (std::string line; std::getline(schema, line);) {
    if (!line.starts_with("| `termination` |")) continue;
    for (std::size_t at = line.find("one of:"); (at = line.find('`', at)) != std::string::npos;) {
      std::size_t end = line.find('`', at + 1);
      documented.push_back(line.substr(at + 1, end - at - 1));
      at = end + 1;
    }
  }
  std::vector<std::string> named;
  // FalseClaim is the last value of the enum.
  for (int t = int(Termination::Checkmate); t <= int(Termination::FalseClaim); ++t) {
    const char* name = termination_name(Termination(t));
    named.push_back(name);
    CHECK(parse_termination(name) == Termination(t));
  }
  CHECK(named == documented);
  CHECK(parse_termination("none") == Termination::None);
  CHECK_FALSE(parse_termination("draw adjudication"));
  CHECK_FALSE(parse_termination(""));
}

TEST_CASE("ponder command: the side that moved, after its predicted reply, on its own clock",
          "[match][game]") {
  GameSetup s = setup();
  s.limits[White].tc = *parse_time_control("10+0.1");
  s.limits[Black].tc = *parse_time_control("5+0.05");
  Game g = make(s);
  g.on_reply(move("e2e4", 0, 5, 400));
  std::vector<std::string> moves;
  auto ponder = g.ponder_command("e7e5", moves);
  REQUIRE(ponder);
  CHECK(ponder->side == White);
  CHECK(std::vector<std::string>(ponder->moves.begin(), ponder->moves.end()) ==
        std::vector<std::string>{"e2e4", "e7e5"});
  CHECK(ponder->position == nullptr);
  CHECK(ponder->wtime_ms == 10000 - 400 + 100);  // White's clock after its move
  CHECK(ponder->btime_ms == 5000);
  CHECK(ponder->budget_ms == g.clock(White).budget_ms());
  // The game itself goes on unchanged: Black is to move, its request its own.
  CHECK(g.next_command().side == Black);
  CHECK(g.uci_moves().size() == 1);
  CHECK_FALSE(g.ponder_command("e7e4", moves));  // not a legal reply
  CHECK_FALSE(g.ponder_command("xyz", moves));
}
