// Opening books against real files: lazy EPD loading, bad lines with file:line, PGN plies.
#include "runner/tournament/opening_book.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "runner/tournament/schedule.h"
#include "tests/test_data.h"

using namespace knightly;
using namespace knightly::runner;

namespace {

bool quick() {
  const char* q = std::getenv("KNIGHTLY_QUICK");
  return q && *q && std::string(q) != "0";
}

}  // namespace

TEST_CASE("an EPD book counts lines, skips blanks and comments, and labels sources") {
  const std::string text =
      "# a comment\n"
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
      "\n"
      "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\r\n"
      "this is not a position\n";
  const auto book = OpeningBook::from_epd(text, "mini.epd");
  REQUIRE(book.size() == 3u);
  auto first = book.at(0);
  REQUIRE(first.has_value());
  CHECK(first->fen == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  CHECK(first->moves.empty());
  CHECK(first->source == "mini.epd:2");
  auto second = book.at(1);
  REQUIRE(second.has_value());
  CHECK(second->source == "mini.epd:4");
  auto bad = book.at(2);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().file == "mini.epd");
  CHECK(bad.error().line == 5);
  CHECK(bad.error().to_string().rfind("mini.epd:5: bad EPD line", 0) == 0);
  CHECK_FALSE(book.at(3).has_value());
}

TEST_CASE("a bad book line used by the schedule is reported with file:line") {
  std::string text;
  for (int i = 0; i < 9; ++i)
    text += "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
  text += "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR x KQkq - 0 1\n";  // line 10: bad side
  const auto book = OpeningBook::from_epd(text, "broken.epd");
  Config c;
  c.engines.resize(2);
  c.engines[0].name = "a";
  c.engines[1].name = "b";
  c.openings.order = BookOrder::Sequential;
  c.tournament.rounds = 10;
  Schedule s(c, 1, book.size());
  int failures = 0;
  for (const auto& g : s.games()) {
    auto o = opening_for(g, &book, c.openings);
    if (!o) {
      ++failures;
      CHECK(o.error().to_string().rfind("broken.epd:10:", 0) == 0);
    }
  }
  CHECK(failures == 2);  // one pair uses line 10
}

TEST_CASE("noob_3moves.epd loads fast and every sampled line is a legal position") {
  OpeningsConfig o;
  o.file = knightly::test::data_path("books/noob_3moves.epd");
  const auto start = std::chrono::steady_clock::now();
  auto book = load_opening_book(o);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(book.has_value());
  // Count the lines independently of the loader.
  std::ifstream in(o.file);
  std::string line;
  std::size_t lines = 0;
  while (std::getline(in, line))
    if (!line.empty()) ++lines;
  CHECK(book->size() == lines);
  if (!quick()) CHECK(seconds < 0.5);
  for (std::size_t i = 0; i < book->size(); i += 997) {
    auto opening = book->at(i);
    INFO(i);
    REQUIRE(opening.has_value());
    CHECK(knightly::chess::Position::from_fen(opening->fen).has_value());
  }
  CHECK(book->at(0)->source == "noob_3moves.epd:1");
}

TEST_CASE("a PGN book yields each game's moves, cut at `plies`") {
  const std::string text =
      "[Event \"a\"]\n[Site \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n"
      "[Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 *\n";
  const auto full = OpeningBook::from_pgn(text, "mini.pgn", 0);
  REQUIRE(full.size() == 2u);
  auto a = full.at(0);
  REQUIRE(a.has_value());
  CHECK(a->fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  CHECK(a->moves == std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"});
  CHECK(a->source == "mini.pgn:1");
  auto b = full.at(1);
  REQUIRE(b.has_value());
  CHECK(b->moves == std::vector<std::string>{"d2d4", "d7d5", "c2c4"});
  CHECK(b->source == "mini.pgn:7");

  const auto cut = OpeningBook::from_pgn(text, "mini.pgn", 2);
  CHECK(cut.at(0)->moves == std::vector<std::string>{"e2e4", "e7e5"});
  CHECK(cut.at(1)->moves == std::vector<std::string>{"d2d4", "d7d5"});
}

TEST_CASE("a bad PGN game is reported with its file line") {
  const std::string text =
      "[Event \"a\"]\n\n1. e4 e5 *\n\n"
      "[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n";
  const auto book = OpeningBook::from_pgn(text, "bad.pgn", 0);
  REQUIRE(book.size() == 2u);
  CHECK(book.at(0).has_value());
  auto bad = book.at(1);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().file == "bad.pgn");
  CHECK(bad.error().line >= 5);
  CHECK(bad.error().line <= 7);
  CHECK(bad.error().message.find("Ke3") != std::string::npos);
}

TEST_CASE("8moves_v3.pgn: plies cut keeps the first plies of each game") {
  OpeningsConfig o;
  o.file = knightly::test::data_path("books/8moves_v3.pgn");
  o.format = BookFormat::Pgn;
  o.plies = 6;
  auto cut = load_opening_book(o);
  REQUIRE(cut.has_value());
  o.plies = 0;
  auto full = load_opening_book(o);
  REQUIRE(full.has_value());
  REQUIRE(cut->size() == full->size());
  CHECK(cut->size() > 1000u);
  const std::size_t step = quick() ? 3001 : 307;
  for (std::size_t i = 0; i < cut->size(); i += step) {
    INFO(i);
    auto c = cut->at(i);
    auto f = full->at(i);
    REQUIRE(c.has_value());
    REQUIRE(f.has_value());
    CHECK(f->moves.size() == 16u);  // 8 moves each side
    REQUIRE(c->moves.size() == 6u);
    CHECK(std::equal(c->moves.begin(), c->moves.end(), f->moves.begin()));
    // The moves replay legally from the start FEN.
    auto pos = knightly::chess::Position::from_fen(f->fen);
    REQUIRE(pos.has_value());
    for (const auto& m : f->moves) {
      auto move = knightly::chess::parse_uci(*pos, m);
      REQUIRE(move.has_value());
      pos->do_move(*move);
    }
  }
}
