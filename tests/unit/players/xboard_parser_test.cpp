// The xboard (CECP 2) parsing and formatting: lines as real engines write them (fairymax,
// gnuchess, phalanx, hoichess), features, claims, thinking output, time controls, move text.
#include "runner/players/xboard_parser.h"

#include <catch2/catch.hpp>
#include <limits>

#include "engine/chess/notation.h"

using namespace knightly;
using namespace knightly::runner;
using namespace knightly::runner::xboard;

TEST_CASE("xboard lines are classified by their first token", "[players][xboard]") {
  CHECK(classify("") == LineKind::Empty);
  CHECK(classify("   ") == LineKind::Empty);
  CHECK(classify("feature done=1") == LineKind::Feature);
  CHECK(classify("move e2e4") == LineKind::Move);
  CHECK(classify("pong 3") == LineKind::Pong);
  CHECK(classify("1-0 {White mates}") == LineKind::Claim);
  CHECK(classify("0-1") == LineKind::Claim);
  CHECK(classify("1/2-1/2 {Draw by repetition}") == LineKind::Claim);
  CHECK(classify("resign") == LineKind::Claim);
  CHECK(classify("5 +15 7 17318 d5 exd5 Nf6") == LineKind::Thinking);
  CHECK(classify("  0      0     0        0  (e2-e4  d2-d4 , book1)") == LineKind::Thinking);
  CHECK(classify("12. 35 120 90000 e2e4") == LineKind::Thinking);
  CHECK(classify("Illegal move: usermove e2e4") == LineKind::IllegalMove);
  CHECK(classify("Illegal move (no piece): e3e4") == LineKind::IllegalMove);
  CHECK(classify("Error (unknown command): foo") == LineKind::Error);
  CHECK(classify("tellics say     Fairy-Max 5.0b") == LineKind::Chatter);
  CHECK(classify("# times @ 207572872") == LineKind::Chatter);
  CHECK(classify("#debug") == LineKind::Chatter);
  CHECK(classify("telluser hello") == LineKind::Chatter);
  CHECK(classify("offer draw") == LineKind::Chatter);
  CHECK(classify("Chess") == LineKind::Unknown);
  CHECK(classify("TCMove = 35") == LineKind::Unknown);
  CHECK(classify("1") == LineKind::Unknown);  // a number alone is no thinking line
  CHECK(classify("movetime") == LineKind::Unknown);
}

TEST_CASE("feature lines give names and values, quoted or not", "[players][xboard]") {
  auto f = parse_features(
      R"(feature myname="HoiChess 0.22" variants="normal" ping=1 setboard=1 option="verbose -spin 0 -2 2" done=1)");
  REQUIRE(f);
  REQUIRE(f->size() == 6);
  CHECK((*f)[0].name == "myname");
  CHECK((*f)[0].value == "HoiChess 0.22");
  CHECK((*f)[2].name == "ping");
  CHECK((*f)[2].value == "1");
  CHECK((*f)[4].value == "verbose -spin 0 -2 2");
  CHECK((*f)[5].name == "done");

  CHECK_FALSE(parse_features("feature"));
  CHECK_FALSE(parse_features("feature ping"));
  auto unterminated = parse_features(R"(feature myname="Fairy)");
  REQUIRE_FALSE(unterminated);
  CHECK(unterminated.error().find("unterminated") != std::string::npos);
  CHECK_FALSE(parse_features("feature =1"));
  // A name of only a carriage return trims to nothing (found by fuzz_xboard_line: a feature
  // with an empty name was returned).
  auto blank_name = parse_features("feature done=1 \r=0");
  REQUIRE_FALSE(blank_name);
  CHECK(blank_name.error().find("has no NAME=VALUE") != std::string::npos);
  CHECK_FALSE(parse_features("move e2e4"));
}

TEST_CASE("features are accepted or rejected as the runner behaves", "[players][xboard]") {
  Features fs;
  CHECK_FALSE(fs.ping);
  CHECK(fs.time);  // CECP 2's default
  CHECK(fs.supports_variant("normal"));
  CHECK(apply_feature(fs, {"ping", "1"}));
  CHECK(fs.ping);
  CHECK(apply_feature(fs, {"usermove", "1"}));
  CHECK(apply_feature(fs, {"san", "1"}));
  CHECK(apply_feature(fs, {"setboard", "1"}));
  CHECK(fs.usermove);
  CHECK(fs.san);
  CHECK(fs.setboard);
  CHECK(apply_feature(fs, {"time", "0"}));
  CHECK_FALSE(fs.time);
  CHECK(apply_feature(fs, {"myname", "GNU Chess"}));
  CHECK(fs.myname == "GNU Chess");
  CHECK(apply_feature(fs, {"variants", "normal, fischerandom,shatranj"}));
  CHECK(fs.supports_variant("fischerandom"));
  CHECK(fs.supports_variant("shatranj"));
  CHECK_FALSE(fs.supports_variant("crazyhouse"));
  CHECK(apply_feature(fs, {"option", "Resign Threshold -spin 800 200 1200"}));
  CHECK(fs.has_option("Resign Threshold"));
  CHECK_FALSE(fs.has_option("Resign"));
  // The runner sends no signals and never `white`/`black`.
  CHECK(apply_feature(fs, {"sigint", "0"}));
  CHECK_FALSE(apply_feature(fs, {"sigint", "1"}));
  CHECK_FALSE(apply_feature(fs, {"sigterm", "1"}));
  CHECK(apply_feature(fs, {"colors", "0"}));
  CHECK_FALSE(apply_feature(fs, {"colors", "1"}));
  CHECK_FALSE(apply_feature(fs, {"ping", "yes"}));
  CHECK_FALSE(apply_feature(fs, {"egt", "syzygy"}));
  CHECK_FALSE(fs.done.has_value());
  CHECK(apply_feature(fs, {"done", "0"}));
  CHECK(fs.done == false);
  CHECK(apply_feature(fs, {"done", "1"}));
  CHECK(fs.done == true);
}

TEST_CASE("move, pong and claim lines", "[players][xboard]") {
  CHECK(parse_move("move e7e5") == "e7e5");
  CHECK(parse_move("move  Nf3  ") == "Nf3");
  CHECK(classify("My move is : b1c3") == LineKind::Move);
  CHECK(parse_move("My move is : b1c3") == "b1c3");
  CHECK(parse_move("My move is: Nf3") == "Nf3");
  CHECK(classify("My name is") == LineKind::Unknown);
  CHECK_FALSE(parse_move("move"));
  CHECK(parse_pong("pong 17") == 17);
  CHECK_FALSE(parse_pong("pong x"));
  CHECK_FALSE(parse_pong("pong"));

  auto c = parse_claim("0-1 {Black mates}");
  REQUIRE(c);
  CHECK(c->kind == Claim::Kind::BlackWins);
  CHECK(c->text == "0-1 {Black mates}");
  CHECK(parse_claim("1-0")->kind == Claim::Kind::WhiteWins);
  CHECK(parse_claim("1/2-1/2 {50 move rule}")->kind == Claim::Kind::Draw);
  CHECK(parse_claim("resign")->kind == Claim::Kind::Resign);
  CHECK_FALSE(parse_claim("2-0"));
}

TEST_CASE("thinking output becomes the move's evaluation", "[players][xboard]") {
  auto t = parse_thinking("7 +17 35 60702 Nc6 Nc3 Nf6 Nf3 d5 e5 Ng4");
  REQUIRE(t);
  CHECK(t->eval.depth == 7);
  CHECK(t->eval.score_cp == 17);
  CHECK_FALSE(t->eval.mate);
  CHECK(t->eval.engine_time_ms == 350);
  CHECK(t->eval.nodes == 60702);
  CHECK(t->pv == "Nc6 Nc3 Nf6 Nf3 d5 e5 Ng4");

  auto marked = parse_thinking("12. -40 3 2");
  REQUIRE(marked);
  CHECK(marked->eval.depth == 12);
  CHECK(marked->eval.score_cp == -40);
  CHECK(marked->pv.empty());

  // CECP's mate convention: 100000 + N = mate in N moves, -100000 - N = mated in N.
  auto mate = parse_thinking("9 100003 10 5000 Qh5 g6 Qxg6");
  REQUIRE(mate);
  CHECK(mate->eval.mate == 3);
  CHECK_FALSE(mate->eval.score_cp);
  auto mated = parse_thinking("9 -100002 10 5000 Kh8");
  REQUIRE(mated);
  CHECK(mated->eval.mate == -2);

  CHECK_FALSE(parse_thinking("1. e2e4"));  // gnuchess echoes the move it was told
  CHECK_FALSE(parse_thinking("5 15 x 100"));
  CHECK_FALSE(parse_thinking("5 15 10"));
  CHECK_FALSE(parse_thinking("5x 15 10 100"));
}

TEST_CASE("a thinking line's time past what milliseconds can hold is held at the largest",
          "[players][xboard]") {
  // Found by fuzz_xboard_line: 1273888888888888888 centiseconds overflowed when made
  // milliseconds (undefined behaviour, caught by UBSan).
  auto huge = parse_thinking("2 7037 1273888888888888888 7037");
  REQUIRE(huge);
  CHECK(huge->eval.engine_time_ms == std::numeric_limits<std::int64_t>::max() / 10 * 10);
  CHECK(huge->eval.engine_time_ms > 0);
  auto negative = parse_thinking("2 7037 -5 7037");
  REQUIRE(negative);
  CHECK(negative->eval.engine_time_ms == 0);
}

TEST_CASE("time controls become level, st and centiseconds", "[players][xboard]") {
  TimeControl sudden;
  sudden.time_ms = 10000;
  sudden.increment_ms = 100;
  CHECK(level_command(sudden) == "level 0 0:10 0.1");
  TimeControl classic;
  classic.moves = 40;
  classic.time_ms = 90 * 60000;
  classic.increment_ms = 30000;
  CHECK(level_command(classic) == "level 40 90 30");
  TimeControl odd;
  odd.time_ms = 61500;  // whole seconds only
  CHECK(level_command(odd) == "level 0 1:01 0");
  CHECK(st_command(3000) == "st 3");
  CHECK(st_command(200) == "st 1");
  CHECK(centiseconds(12345) == 1234);
  CHECK(centiseconds(-5) == 0);
}

TEST_CASE("moves are told in coordinates or SAN and read in either", "[players][xboard]") {
  chess::Position start;
  auto e4 = chess::parse_uci(start, "e2e4");
  REQUIRE(e4);
  CHECK(move_text(start, *e4, false, false) == "e2e4");
  CHECK(move_text(start, *e4, true, false) == "e4");

  auto pos = chess::Position::from_fen("r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1");
  REQUIRE(pos);
  auto oo = chess::parse_uci(*pos, "e1g1");
  REQUIRE(oo);
  CHECK(move_text(*pos, *oo, false, false) == "e1g1");
  CHECK(move_text(*pos, *oo, true, false) == "O-O");
  CHECK(move_text(*pos, *oo, false, true) == "O-O");  // Chess960 castling: xboard's word

  for (const char* text : {"e1g1", "e1h1", "O-O", "0-0", "O-O+"}) {
    INFO(text);
    auto m = parse_engine_move(*pos, text);
    REQUIRE(m);
    CHECK(*m == *oo);
  }
  CHECK(parse_engine_move(*pos, "O-O-O") == chess::parse_uci(*pos, "e1c1"));
  CHECK(parse_engine_move(start, "e2-e4") == *e4);
  CHECK(parse_engine_move(start, "e4") == *e4);
  CHECK(parse_engine_move(start, "Nf3") == chess::parse_uci(start, "g1f3"));

  auto promo = chess::Position::from_fen("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
  REQUIRE(promo);
  auto queen = chess::parse_uci(*promo, "e7e8q");
  REQUIRE(queen);
  CHECK(parse_engine_move(*promo, "e7e8q") == *queen);
  CHECK(parse_engine_move(*promo, "e7e8Q") == *queen);
  CHECK(parse_engine_move(*promo, "e8=Q+") == *queen);
  CHECK(move_text(*promo, *queen, false, false) == "e7e8q");
  CHECK(move_text(*promo, *queen, true, false) == "e8=Q");

  auto bad = parse_engine_move(start, "e2e5");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("'e2e5'") != std::string::npos);
  CHECK_FALSE(parse_engine_move(start, "xyz"));
  CHECK_FALSE(parse_engine_move(start, ""));
}

TEST_CASE("edit: the position for an engine without setboard, as cutechess sends it",
          "[xboard_parser]") {
  auto white = chess::Position::from_fen("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
  REQUIRE(white);
  CHECK(edit_commands(*white, false) == "edit\n#\nKe1\nRh1\nPe2\nc\nKe8\n.\n");
  auto black = chess::Position::from_fen("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1");
  REQUIRE(black);
  CHECK(edit_commands(*black, false) == "b2b3\nedit\n#\nKe1\nc\nPd7\nKe8\n.\n");
  CHECK(edit_commands(*black, true).starts_with("usermove b2b3\nedit\n"));
}
