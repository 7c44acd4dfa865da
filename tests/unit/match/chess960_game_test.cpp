// A Chess960 game in the match: engines are told castlings as king takes rook whatever form
// they answer in, the start position is named even when it is the classical one, and the PGN
// carries [Variant "fischerandom"] with SetUp/FEN, read back by our reader and pgn-extract.
#include <catch2/catch.hpp>

#include "engine/chess/chess960.h"
#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "runner/match/game.h"
#include "runner/match/game_pgn.h"
#include "tests/unit/pgn/pgn_test_util.h"

using namespace knightly;
using namespace knightly::runner;
namespace chess = knightly::chess;
namespace test = knightly::test;

namespace {

MoveReply reply(const std::string& uci) {
  MoveReply r;
  r.bestmove = uci;
  r.eval.score_cp = 10;
  r.eval.depth = 5;
  r.elapsed_ms = 100;
  return r;
}

Game play(GameSetup setup, const std::vector<std::string>& moves) {
  auto created = Game::create(setup);
  INFO((created ? std::string() : created.error()));
  REQUIRE(created.has_value());
  Game game = std::move(*created);
  for (const auto& m : moves) {
    REQUIRE_FALSE(game.finished());
    game.on_reply(reply(m));
    INFO(m << ": " << game.reason());
    REQUIRE_FALSE(game.finished());
  }
  return game;
}

}  // namespace

TEST_CASE("chess960 from the classical set-up: O-O is e1h1 to the engines, FEN named",
          "[match][chess960]") {
  GameSetup s;
  s.white = "A";
  s.black = "B";
  s.chess960 = true;
  // White answers castling in the classical form, Black as king takes rook: both are read.
  Game game = play(s, {"g1f3", "g8f6", "g2g3", "g7g6", "f1g2", "f8g7", "e1g1", "e8h8"});
  CHECK(game.setup().start_fen == chess::Position::StartFen);
  REQUIRE(game.uci_moves().size() == 8u);
  CHECK(game.uci_moves()[6] == "e1h1");
  CHECK(game.uci_moves()[7] == "e8h8");
  CHECK(game.next_command().start_fen == chess::Position::StartFen);
  CHECK(game.moves()[6].san == "O-O");
  CHECK(game.moves()[7].san == "O-O");
  game.interrupt();
  GameRecord rec = game.record({});
  INFO(rec.pgn);
  CHECK(rec.pgn.find("[Variant \"fischerandom\"]") != std::string::npos);
  CHECK(rec.pgn.find("[SetUp \"1\"]") != std::string::npos);
  CHECK(rec.pgn.find("[FEN \"" + std::string(chess::Position::StartFen) + "\"]") !=
        std::string::npos);

  // The same moves in standard chess: e1g1 and no Variant tag, no FEN.
  s.chess960 = false;
  Game standard = play(s, {"g1f3", "g8f6", "g2g3", "g7g6", "f1g2", "f8g7", "e1h1", "e8g8"});
  CHECK(standard.uci_moves()[6] == "e1g1");
  CHECK(standard.uci_moves()[7] == "e8g8");
  standard.interrupt();
  const std::string pgn = standard.record({}).pgn;
  CHECK(pgn.find("Variant") == std::string::npos);
  CHECK(pgn.find("FEN") == std::string::npos);
}

TEST_CASE("a DFRC game's PGN reads back: our reader and pgn-extract", "[match][chess960]") {
  GameSetup s;
  s.white = "A";
  s.black = "B";
  s.chess960 = true;
  // White: NRKBBQRN (king c1, rooks b1 and g1); Black: RBBQNKRN (king f8, rooks a8 and g8),
  // castling rights in Shredder-FEN.
  s.start_fen = "rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBga - 0 1";
  // O-O-O for White once d1 is free: the king stays on c1, the rook goes b1 -> d1; the
  // engines say c1b1 (king takes rook).
  Game game = play(s, {"c2c4", "e7e5", "d1c2", "d7d5", "c1b1"});
  CHECK(game.uci_moves().back() == "c1b1");
  CHECK(game.moves().back().san == "O-O-O");
  CHECK(game.position().fen().starts_with("rbbqnkrn/ppp2ppp/8/3pp3/2P5/8/PPBPPPPP/N1KRBQRN b"));
  game.interrupt();
  GameRecord rec = game.record({});
  // Stored in X-FEN, the canonical form.
  CHECK(rec.start_fen == "rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1");

  auto read = chess::read_pgn(rec.pgn);
  INFO(rec.pgn);
  REQUIRE(read.errors.empty());
  REQUIRE(read.games.size() == 1u);
  const auto& g = read.games[0];
  CHECK(g.tag("Variant") == "fischerandom");
  REQUIRE(g.moves.size() == rec.moves.size());
  for (std::size_t i = 0; i < g.moves.size(); ++i)
    CHECK(chess::to_uci(g.moves[i].move, true) == rec.moves[i].uci);

  // A record read back from the database (no chess::Move, no SAN) writes the same PGN.
  GameRecord stored = rec;
  for (auto& m : stored.moves) {
    m.move = chess::Move();
    m.san.clear();
  }
  PgnHeader header = game.pgn_header({});
  CHECK(to_pgn(stored, header) == rec.pgn);

  test::TempDir dir;
  const std::string path = dir.file("dfrc.pgn");
  test::write_file(path, rec.pgn);
  CHECK(test::pgn_extract_errors(path) == "");
}
