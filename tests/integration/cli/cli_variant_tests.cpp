// `knightly play -variant fischerandom` against real engines: Debian's stockfish with
// UCI_Chess960, knightly-engine and a builtin player, from the 960 positions, from DFRC
// positions and from a book in Shredder-FEN. The PGN file is read back by our reader (its
// moves are those the database holds, castlings as king takes rook) and by pgn-extract;
// `knightly export` gives the same games, and running the command again replays nothing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/chess/position.h"
#include "pgn_checks.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"

using namespace knightly::test;
namespace chess = knightly::chess;

namespace {

const std::string stockfish = "/usr/games/stockfish";

// Every game of the PGN file: Variant fischerandom, SetUp/FEN, its moves those the database
// holds (king takes rook for castlings) and in schedule order. Returns the FEN of each game.
std::vector<std::string> check_frc_pgn(const std::string& pgn_path, const std::string& db_path,
                                       std::size_t games) {
  const std::string text = read_file(pgn_path);
  auto read = chess::read_pgn(text);
  INFO(text.substr(0, 3000));
  for (const auto& e : read.errors) FAIL_CHECK(e.message);
  REQUIRE(read.games.size() == games);
  SqliteProbe db(db_path);
  auto rows = db.rows("SELECT id, opening_fen FROM games ORDER BY schedule_index");
  REQUIRE(rows.size() == games);
  std::vector<std::string> fens;
  for (std::size_t i = 0; i < games; ++i) {
    const auto& g = read.games[i];
    CHECK(g.tag("Variant") == "fischerandom");
    CHECK(g.tag("SetUp") == "1");
    CHECK(g.tag("FEN") == rows[i][1]);
    REQUIRE(chess::Position::from_fen(g.tag("FEN")).has_value());
    auto moves = db.rows("SELECT uci FROM moves WHERE game_id = " + rows[i][0] + " ORDER BY ply");
    REQUIRE(g.moves.size() == moves.size());
    for (std::size_t k = 0; k < moves.size(); ++k)
      CHECK(chess::to_uci(g.moves[k].move, true) == moves[k][0]);
    fens.push_back(g.tag("FEN"));
  }
  return fens;
}

}  // namespace

TEST_CASE("fischerandom: stockfish with UCI_Chess960 against knightly-engine and a builtin",
          "[cli][chess960][stockfish]") {
  REQUIRE(std::filesystem::exists(stockfish));
  TempDir dir;
  const std::vector<std::string> cmd = {knightly_binary(),
                                        "play",
                                        "-variant",
                                        "fischerandom",
                                        "-engine",
                                        "cmd=" + stockfish,
                                        "name=stockfish",
                                        "option.Threads=1",
                                        "option.Hash=16",
                                        "depth=5",
                                        "-engine",
                                        "cmd=" + engine_binary(),
                                        "name=knightly",
                                        "depth=3",
                                        "-engine",
                                        "builtin=alphabeta",
                                        "name=builtin",
                                        "depth=2",
                                        "-games",
                                        "2",
                                        "-rounds",
                                        "2",
                                        "-repeat",
                                        "-maxmoves",
                                        "40",
                                        "-srand",
                                        "960",
                                        "-db",
                                        dir.file("f.db"),
                                        "-pgnout",
                                        dir.file("f.pgn")};
  auto r = run_process(cmd, 600);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // 3 engines, 3 encounters, 2 rounds of a pair each.
  const std::size_t games = 12;
  auto fens = check_frc_pgn(dir.file("f.pgn"), dir.file("f.db"), games);
  check_with_pgn_extract(dir.file("f.pgn"), games);
  // A pair shares its start position; pairs draw their own.
  std::set<std::string> distinct;
  for (std::size_t i = 0; i < games; i += 2) {
    CHECK(fens[i] == fens[i + 1]);
    distinct.insert(fens[i]);
  }
  CHECK(distinct.size() >= 4u);
  SqliteProbe db(dir.file("f.db"));
  CHECK(db.count("SELECT count(*) FROM games WHERE opening_source LIKE 'chess960 #%'") ==
        static_cast<long long>(games));
  // Every engine played its games to the end by the rules or the move limit, none lost by an
  // illegal move (a castling written in the wrong form would be one).
  CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('illegal move', "
                 "'disconnect', 'stall')") == 0);

  // export gives the file's games; the same command again replays nothing.
  auto exported = run_process({knightly_binary(), "export", "--db", dir.file("f.db")});
  REQUIRE(exported.exit_code == 0);
  auto from_export = chess::read_pgn(exported.out);
  CHECK(from_export.errors.empty());
  CHECK(from_export.games.size() == games);
  auto again = run_process(cmd, 600);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(db.count("SELECT count(*) FROM games") == static_cast<long long>(games));
  CHECK(check_frc_pgn(dir.file("f.pgn"), dir.file("f.db"), games) == fens);
}

TEST_CASE("fischerandom -dfrc and a Shredder-FEN book, knightly-engine against stockfish",
          "[cli][chess960][stockfish]") {
  REQUIRE(std::filesystem::exists(stockfish));
  TempDir dir;
  auto base = [&](const std::string& name) {
    return std::vector<std::string>{knightly_binary(),
                                    "play",
                                    "-variant",
                                    "fischerandom",
                                    "-engine",
                                    "cmd=" + stockfish,
                                    "name=stockfish",
                                    "option.Threads=1",
                                    "option.Hash=16",
                                    "depth=4",
                                    "-engine",
                                    "cmd=" + engine_binary(),
                                    "name=knightly",
                                    "depth=2",
                                    "-games",
                                    "2",
                                    "-rounds",
                                    "3",
                                    "-repeat",
                                    "-maxmoves",
                                    "30",
                                    "-db",
                                    dir.file(name + ".db"),
                                    "-pgnout",
                                    dir.file(name + ".pgn")};
  };
  SECTION("DFRC start positions") {
    auto cmd = base("d");
    cmd.push_back("-dfrc");
    auto r = run_process(cmd, 600);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    auto fens = check_frc_pgn(dir.file("d.pgn"), dir.file("d.db"), 6);
    check_with_pgn_extract(dir.file("d.pgn"), 6);
    SqliteProbe db(dir.file("d.db"));
    CHECK(db.count("SELECT count(*) FROM games WHERE opening_source LIKE 'dfrc #%/#%'") == 6);
    CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('illegal move', "
                   "'disconnect', 'stall')") == 0);
  }
  SECTION("a book of Shredder-FEN positions with castlings to play") {
    // King and rook side by side (castling possible at once) and the position.
    write_file(dir.file("frc.epd"),
               "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n"
               "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1\n"
               "qnrbkrbn/pppppppp/8/8/8/8/PPPPPPPP/QNRBKRBN w FCfc - 0 1\n");
    auto cmd = base("b");
    for (const std::string& w :
         {std::string("-openings"), "file=" + dir.file("frc.epd"), std::string("order=sequential")})
      cmd.push_back(w);
    auto r = run_process(cmd, 600);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    auto fens = check_frc_pgn(dir.file("b.pgn"), dir.file("b.db"), 6);
    check_with_pgn_extract(dir.file("b.pgn"), 6);
    CHECK(fens[0] == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    CHECK(fens[2] == "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - 0 1");
    SqliteProbe db(dir.file("b.db"));
    CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('illegal move', "
                   "'disconnect', 'stall')") == 0);
  }
}

TEST_CASE("fischerandom tells a UCI engine UCI_Chess960 and writes castlings as king takes rook",
          "[cli][chess960]") {
  // The mock refuses a Chess960 position unless UCI_Chess960 was set, and a castling not
  // written as king takes rook: either ends its game as a disconnect. It plays random legal
  // moves (castlings among them) against knightly-engine for 16 games.
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-variant",
                        "fischerandom",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=mock",
                        "arg=--seed",
                        "arg=7",
                        "depth=1",
                        "-engine",
                        "cmd=" + engine_binary(),
                        "name=knightly",
                        "depth=1",
                        "-games",
                        "2",
                        "-rounds",
                        "8",
                        "-repeat",
                        "-maxmoves",
                        "60",
                        "-db",
                        dir.file("m.db"),
                        "-pgnout",
                        "file=" + dir.file("m.pgn"),
                        "nodes=true"},
                       600);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  check_frc_pgn(dir.file("m.pgn"), dir.file("m.db"), 16);
  SqliteProbe db(dir.file("m.db"));
  CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('illegal move', "
                 "'disconnect', 'stall')") == 0);
  CHECK(db.count("SELECT count(*) FROM games WHERE opening_fen NOT LIKE "
                 "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%'") > 0);
}
