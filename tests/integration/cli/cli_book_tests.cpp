// `knightly play -openings file=B.bin format=bin`: Polyglot books built in the test by
// Debian's polyglot from games of the shared 8moves_v3.pgn. Every game starts with a line of
// the book (each move a book move of positive weight), a pair shares its line, a second run of
// the same command replays nothing, and a broken book stops the run naming the file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/chess/polyglot_book.h"
#include "engine/chess/position.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;
namespace chess = knightly::chess;

namespace {

// The first `games` games of the shared book, cut at a game's start.
std::string first_games(const std::string& text, int games) {
  std::size_t pos = 0;
  for (int n = 0; n <= games; ++n) {
    pos = text.find("[Event ", pos + 1);
    if (pos == std::string::npos) return text;
  }
  return text.substr(0, pos);
}

std::string make_book(const TempDir& dir) {
  const std::string polyglot = "/usr/games/polyglot";
  REQUIRE(std::filesystem::exists(polyglot));
  write_file(dir.file("games.pgn"), first_games(read_file(data_path("books/8moves_v3.pgn")), 3000));
  auto r = run_process({polyglot, "make-book", "-pgn", dir.file("games.pgn"), "-bin",
                        dir.file("book.bin"), "-max-ply", "12", "-min-game", "1"},
                       300, dir.path());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(std::filesystem::file_size(dir.file("book.bin")) > 1000);
  return dir.file("book.bin");
}

}  // namespace

TEST_CASE("a Polyglot book built by polyglot make-book opens every game", "[cli][book]") {
  TempDir dir;
  const std::string bin = make_book(dir);
  auto book = chess::PolyglotBook::from_bytes(read_file(bin));
  REQUIRE(book.has_value());
  const std::vector<std::string> cmd = {knightly_binary(),
                                        "play",
                                        "-engine",
                                        "cmd=" + engine_binary(),
                                        "name=knightly",
                                        "depth=2",
                                        "-engine",
                                        "builtin=alphabeta",
                                        "name=builtin",
                                        "depth=2",
                                        "-games",
                                        "2",
                                        "-rounds",
                                        "8",
                                        "-repeat",
                                        "-maxmoves",
                                        "30",
                                        "-srand",
                                        "42",
                                        "-openings",
                                        "file=" + bin,
                                        "format=bin",
                                        "order=random",
                                        "plies=8",
                                        "-db",
                                        dir.file("b.db"),
                                        "-pgnout",
                                        dir.file("b.pgn")};
  auto r = run_process(cmd, 600);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);

  auto read = chess::read_pgn(read_file(dir.file("b.pgn")));
  REQUIRE(read.errors.empty());
  REQUIRE(read.games.size() == 16u);
  std::set<std::string> lines;
  for (std::size_t i = 0; i < read.games.size(); ++i) {
    const auto& g = read.games[i];
    REQUIRE(g.moves.size() >= 8u);
    // The first 8 plies are book moves of the book, each of positive weight there.
    chess::Position pos;
    std::string line;
    for (std::size_t k = 0; k < 8; ++k) {
      CHECK(g.moves[k].comment == "book");
      bool in_book = false;
      for (const auto& bm : book->moves(pos))
        in_book = in_book || (bm.move == g.moves[k].move && bm.weight > 0);
      CHECK(in_book);
      line += chess::to_uci(g.moves[k].move) + " ";
      pos.do_move(g.moves[k].move);
    }
    CHECK(g.moves[8].comment != "book");
    if (i % 2 == 1) {
      // The pair's other game played the same line.
      std::string other;
      for (std::size_t k = 0; k < 8; ++k)
        other += chess::to_uci(read.games[i - 1].moves[k].move) + " ";
      CHECK(other == line);
    }
    lines.insert(line);
  }
  CHECK(lines.size() >= 4u);  // weighted random lines: 8 pairs, several lines
  SqliteProbe db(dir.file("b.db"));
  CHECK(db.count("SELECT count(*) FROM games WHERE opening_source = 'book.bin'") == 16);
  auto pe = run_process({"/usr/games/pgn-extract", "-r", dir.file("b.pgn")});
  CHECK((pe.out + pe.err).find("16 games matched out of 16") != std::string::npos);

  // The same command again: nothing left to play, the same games.
  const std::string before = read_file(dir.file("b.pgn"));
  auto again = run_process(cmd, 600);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(db.count("SELECT count(*) FROM games") == 16);
  CHECK(read_file(dir.file("b.pgn")) == before);

  // sequential: the heaviest move each ply, the same line for every pair.
  auto best = cmd;
  for (auto& w : best) {
    if (w == "order=random") w = "order=sequential";
    if (w == dir.file("b.db")) w = dir.file("s.db");
    if (w == dir.file("b.pgn")) w = dir.file("s.pgn");
  }
  auto s = run_process(best, 600);
  INFO(s.out << s.err);
  REQUIRE(s.exit_code == 0);
  SqliteProbe sdb(dir.file("s.db"));
  CHECK(sdb.count("SELECT count(DISTINCT opening_moves) FROM games") == 1);
}

TEST_CASE("a broken or missing Polyglot book stops the run naming the file", "[cli][book]") {
  TempDir dir;
  write_file(dir.file("torn.bin"), std::string(21, 'x'));
  for (const std::string& file : {dir.file("torn.bin"), dir.file("missing.bin")}) {
    auto r = run_process(
        {knightly_binary(), "play", "-engine", "builtin=random", "name=a", "-engine",
         "builtin=random", "name=b", "-openings", "file=" + file, "-db", dir.file("x.db")},
        120);
    INFO(r.out << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(file) != std::string::npos);
  }
}
