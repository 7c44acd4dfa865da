#pragma once
// Checks of a PGN file the runner wrote: an independent reader accepts it, and our reader gets
// back exactly the moves the database holds.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"

namespace knightly::test {

// pgn-extract, an independent PGN reader, must accept every game without a complaint.
inline void check_with_pgn_extract(const std::string& pgn_path, std::size_t games) {
  const std::string tool = "/usr/games/pgn-extract";
  REQUIRE(std::filesystem::exists(tool));
  auto r = run_process({tool, "-r", pgn_path});
  std::string all = r.out + r.err;
  INFO(all);
  CHECK(all.find("Failed") == std::string::npos);
  CHECK(all.find(std::to_string(games) + (games == 1 ? " game" : " games") + " matched out of " +
                 std::to_string(games)) != std::string::npos);
}

// The PGN file's games have exactly the moves stored in the database, in schedule order.
inline void check_pgn_matches_db(const std::string& pgn_path, const std::string& db_path) {
  auto read = knightly::chess::read_pgn(read_file(pgn_path));
  for (const auto& e : read.errors) FAIL_CHECK(e.message);
  REQUIRE(read.errors.empty());
  SqliteProbe db(db_path);
  auto games = db.rows("SELECT id FROM games ORDER BY schedule_index");
  REQUIRE(read.games.size() == games.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    auto moves = db.rows("SELECT uci FROM moves WHERE game_id = " + games[i][0] + " ORDER BY ply");
    REQUIRE(read.games[i].moves.size() == moves.size());
    // A Chess960 game's castling is king-takes-rook in UCI (e1a1), also when its king and rook
    // happen to stand where they do in the standard position (e1c1 there).
    const bool chess960 =
        !read.games[i].tag("Variant").empty() && read.games[i].tag("Variant") != "standard";
    for (std::size_t k = 0; k < moves.size(); ++k)
      CHECK(knightly::chess::to_uci(read.games[i].moves[k].move, chess960) == moves[k][0]);
  }
}

}  // namespace knightly::test
