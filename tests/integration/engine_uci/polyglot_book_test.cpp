// Polyglot books built by Debian's Polyglot (`polyglot make-book`) from the shared PGN, read
// by chess::PolyglotBook: every position of every game is found under its key with the move
// played; the weights match what `polyglot dump-book` prints; and knightly-engine plays from
// the book with OwnBook and BookFile.
#include "engine/chess/polyglot_book.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/uci/book_file.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly;
using knightly::test::ChildProcess;

namespace {

const char* const PolyglotPath = "/usr/games/polyglot";

bool quick() {
  const char* q = std::getenv("KNIGHTLY_QUICK");
  return q && *q && std::string(q) != "0";
}

// The first `games` games of 8moves_v3.pgn (cut at a game's start, as Polyglot needs).
std::string pgn_head(int games) {
  const std::string text = test::read_file(test::data_path("books/8moves_v3.pgn"));
  std::size_t cut = 0;
  for (int g = 0; g <= games && cut != std::string::npos; ++g) cut = text.find("[Event ", cut + 1);
  return text.substr(0, cut);
}

// polyglot make-book; REQUIREs that it worked.
void make_book(const std::string& pgn, const std::string& bin, int max_ply) {
  auto r = test::run_process({PolyglotPath, "make-book", "-pgn", pgn, "-bin", bin, "-max-ply",
                              std::to_string(max_ply), "-min-game", "1"},
                             120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(std::filesystem::exists(bin));
}

}  // namespace

TEST_CASE("a book made by polyglot make-book holds every game position under its key",
          "[polyglot]") {
  if (!std::filesystem::exists(PolyglotPath))
    FAIL("Polyglot is not installed at " << PolyglotPath << " (scripts/setup --tests)");
  test::TempDir dir;
  const int games = quick() ? 1000 : 2000;  // tests/data holds the book's first 2,000 lines
  const std::string pgn = dir.file("games.pgn");
  std::ofstream(pgn) << pgn_head(games);
  const std::string bin = dir.file("book.bin");
  const int max_ply = 16;
  make_book(pgn, bin, max_ply);

  auto loaded = engine::load_book_file(bin);
  REQUIRE(loaded.has_value());
  REQUIRE((*loaded)->is_polyglot());
  CHECK((*loaded)->positions() == std::filesystem::file_size(bin) / 16);
  auto book = chess::PolyglotBook::from_bytes(test::read_file(bin));
  REQUIRE(book.has_value());

  chess::PgnReadResult read = chess::read_pgn(test::read_file(pgn));
  REQUIRE(read.errors.empty());
  REQUIRE(int(read.games.size()) >= games - 1);
  std::size_t checked = 0, castles = 0;
  for (const auto& g : read.games) {
    chess::Position pos;
    for (std::size_t ply = 0; ply < g.moves.size() && ply < std::size_t(max_ply); ++ply) {
      const chess::Move m = g.moves[ply].move;
      const chess::MoveList legal = pos.legal_moves();
      bool found = false;
      for (const auto& e : book->entries(pos.key()))
        found |= chess::PolyglotBook::decode_move(pos, e.move, legal) == m;
      INFO(pos.fen() << " " << chess::to_uci(m));
      REQUIRE(found);
      castles += m.kind() == chess::Move::Castling;
      ++checked;
      pos.do_move(m);
    }
  }
  CHECK(checked > std::size_t(games) * 15);
  CHECK(castles > 100);  // castling entries (stored e1h1) were among them
  // Every entry decodes to a legal move of some position: spot-check the start position.
  const chess::Position start;
  auto moves = book->moves(start);
  CHECK(moves.size() == book->entries(start.key()).size());
  CHECK(moves.size() >= 4);
}

TEST_CASE("book weights agree with polyglot dump-book's lines", "[polyglot]") {
  if (!std::filesystem::exists(PolyglotPath))
    FAIL("Polyglot is not installed at " << PolyglotPath << " (scripts/setup --tests)");
  test::TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  std::ofstream(pgn) << pgn_head(300);
  const std::string bin = dir.file("book.bin");
  make_book(pgn, bin, 10);
  auto book = chess::PolyglotBook::from_bytes(test::read_file(bin));
  REQUIRE(book.has_value());
  int weighed = 0;
  for (const char* color : {"white", "black"}) {
    const std::string out = dir.file(std::string("dump_") + color + ".txt");
    auto r = test::run_process(
        {PolyglotPath, "dump-book", "-bin", bin, "-color", color, "-out", out}, 60);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    // Lines like "3: 1. d4 Nf6{65%} 2. c4 e6{100%}": the book side's moves carry their share.
    std::istringstream dump(test::read_file(out));
    std::string line;
    int lines = 0;
    while (std::getline(dump, line)) {
      if (line.rfind("Dump of", 0) == 0 || line.empty()) continue;
      ++lines;
      // "{trans: line=8, ply=7}" marks a transposition into another line: the end of this one.
      if (auto trans = line.find(" {trans:"); trans != std::string::npos) line.resize(trans);
      std::istringstream tokens(line.substr(line.find(':') + 1));
      chess::Position pos;
      std::string t;
      while (tokens >> t) {
        if (t.back() == '.') continue;  // a move number
        std::string san = t;
        int percent = -1;
        if (auto brace = t.find('{'); brace != std::string::npos) {
          san = t.substr(0, brace);
          percent = std::stoi(t.substr(brace + 1));
        }
        INFO(color << " line: " << line << " at " << san);
        auto m = chess::parse_san(pos, san);
        REQUIRE(m.has_value());
        if (percent >= 0) {
          std::uint64_t total = 0, mine = 0;
          for (const auto& bm : book->moves(pos)) {
            total += bm.weight;
            if (bm.move == *m) mine = bm.weight;
          }
          REQUIRE(total > 0);
          const double share = 100.0 * double(mine) / double(total);
          CHECK(std::abs(share - percent) <= 1.0);
          ++weighed;
        }
        pos.do_move(*m);
      }
    }
    CHECK(lines > 10);
  }
  CHECK(weighed > 50);
}

TEST_CASE("knightly-engine plays from a Polyglot book with OwnBook and BookFile", "[polyglot]") {
  if (!std::filesystem::exists(PolyglotPath))
    FAIL("Polyglot is not installed at " << PolyglotPath << " (scripts/setup --tests)");
  test::TempDir dir;
  const std::string pgn = dir.file("games.pgn");
  std::ofstream(pgn) << pgn_head(quick() ? 500 : 5000);
  const std::string bin = dir.file("book.bin");
  make_book(pgn, bin, 12);
  auto book = chess::PolyglotBook::from_bytes(test::read_file(bin));
  REQUIRE(book.has_value());
  const chess::Position start;
  auto root = book->moves(start);
  REQUIRE(root.size() >= 2);
  chess::Move heaviest = root[0].move;
  std::uint32_t top = 0;
  for (const auto& bm : root)
    if (bm.weight > top) top = bm.weight, heaviest = bm.move;

  ChildProcess e({test::engine_binary()});
  e.send("uci");
  REQUIRE(e.expect("uciok") == "uciok");
  e.send("setoption name OwnBook value true");
  e.send("setoption name BookFile value " + bin);
  e.send("isready");
  const std::string loaded = e.expect("info string book");
  CHECK(loaded ==
        "info string book " + bin + ": " + std::to_string(book->size()) + " entries (Polyglot)");
  REQUIRE(e.expect("readyok") == "readyok");
  // Weighted picks: always a book move, and more than one of them over a few games.
  std::set<std::string> seen;
  for (int i = 0; i < 12; ++i) {
    e.send("ucinewgame");
    e.send("setoption name Seed value " + std::to_string(i + 1));
    e.send("position startpos");
    e.send("go depth 6");
    const std::string said = e.expect("info string book move", 10000);
    const std::string best = e.expect("bestmove", 10000);
    REQUIRE(best.size() > 9);
    const std::string text = best.substr(9);
    CHECK(said == "info string book move " + text);
    auto m = chess::parse_uci(start, text);
    REQUIRE(m.has_value());
    bool in_book = false;
    for (const auto& bm : root) in_book |= bm.move == *m && bm.weight > 0;
    CHECK(in_book);
    seen.insert(text);
  }
  CHECK(seen.size() >= 2);
  // The best move: the heaviest.
  e.send("setoption name BookBestMove value true");
  e.send("position startpos");
  e.send("go depth 6");
  CHECK(e.expect("bestmove", 10000) == "bestmove " + chess::to_uci(heaviest));
  // Out of book, and past BookDepth: a search.
  e.send("position startpos moves a2a3 h7h6 h2h3 a7a6");
  e.send("go depth 2");
  CHECK(e.expect("info depth", 10000).size() > 0);
  CHECK(e.expect("bestmove", 10000).size() > 0);
  e.send("setoption name BookDepth value 1");
  e.send("position startpos moves " + chess::to_uci(heaviest));
  e.send("go depth 2");
  CHECK(e.expect("info depth", 10000).size() > 0);
  e.expect("bestmove", 10000);
  e.send("quit");
  CHECK(e.wait_exit(5000) == 0);
}
