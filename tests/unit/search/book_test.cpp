// The opening dictionary (seed 004): PGN lines and EPD positions, played at random.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/search/book.h"
#include "search_test_util.h"
#include "tests/test_data.h"

using namespace knightly;

namespace {

std::set<std::string> uci_set(const std::vector<chess::Move>& moves) {
  std::set<std::string> s;
  for (auto m : moves) s.insert(chess::to_uci(m));
  return s;
}

}  // namespace

TEST_CASE("a PGN book maps every position of its lines to the moves played there") {
  auto book = search::Book::parse(
      "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. e4 c5 *\n\n[Event \"c\"]\n\n1. d4 d5 *\n");
  REQUIRE(book);
  chess::Position pos;
  CHECK(uci_set(book->moves(pos)) == std::set<std::string>{"e2e4", "d2d4"});
  pos.do_move(*chess::parse_uci(pos, "e2e4"));
  CHECK(uci_set(book->moves(pos)) == std::set<std::string>{"e7e5", "c7c5"});
  pos.do_move(*chess::parse_uci(pos, "a7a6"));
  CHECK(book->moves(pos).empty());
}

TEST_CASE("an EPD book gives bm moves / and moves into listed positions") {
  auto book = search::Book::parse(
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Nf3 c4;\n"
      "# a comment\n"
      "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n");
  REQUIRE(book);
  chess::Position pos;
  CHECK(uci_set(book->moves(pos)) == std::set<std::string>{"g1f3", "c2c4", "d2d4"});
}

TEST_CASE("bad book text is an error that says where") {
  auto bad = search::Book::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Ke5;\n");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("line 1") != std::string::npos);
  auto bad2 = search::Book::parse("8/8/8/8 w - -\n");
  REQUIRE_FALSE(bad2);
  auto missing = search::read_book_file("/nonexistent/book.pgn");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("/nonexistent/book.pgn") != std::string::npos);
}

TEST_CASE("OwnBook plays book moves at random / and searches once out of book") {
  search::SearchConfig c;
  c.own_book = true;
  c.book_file = test::data_path("books/8moves_v3.pgn");
  std::size_t min_positions = 10000;
  std::string temp_book;
  if (test::quick()) {
    // The sanitized build reads only the file's first 500 games, from a copy.
    std::ifstream in(c.book_file);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    std::size_t cut = 0;
    for (int games = 0; games <= 500 && cut != std::string::npos; ++games) cut = text.find("[Event ", cut + 1);
    temp_book = (std::filesystem::temp_directory_path() /
                 ("knightly_book_" + std::to_string(::getpid()) + ".pgn"))
                    .string();
    std::ofstream(temp_book) << text.substr(0, cut);
    c.book_file = temp_book;
    min_positions = 1000;
  }
  search::Search s(c);
  REQUIRE(s.book_status().empty());
  CHECK(s.book_positions() > min_positions);
  std::set<std::string> firsts;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    c.seed = seed;
    s.set_config(c);
    auto r = test::run(s, chess::Position(), {});
    CHECK(r.from_book);
    CHECK(chess::Position().is_legal(r.best));
    firsts.insert(chess::to_uci(r.best));
  }
  CHECK(firsts.size() >= 2);
  // A position no book line reaches.
  auto out = test::fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  search::Limits l;
  l.depth = 3;
  auto r = test::run(s, out, l);
  CHECK_FALSE(r.from_book);
  CHECK(out.is_legal(r.best));
  // A book that cannot be read is reported, and the search still plays.
  c.book_file = "/nonexistent/book.epd";
  s.set_config(c);
  CHECK_FALSE(s.book_status().empty());
  CHECK(chess::Position().is_legal(test::run(s, chess::Position(), l).best));
  if (!temp_book.empty()) std::remove(temp_book.c_str());
}
