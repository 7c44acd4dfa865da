// The reader on every file of tests/data/pgn (the edge cases fastchess collected) and on the
// 34,700-game opening book. Expectations come from reading each file by eye, from the files' own
// PlyCount tags, and from pgn-extract's reading of the same files.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>

#include "tests/unit/pgn/pgn_test_util.h"

using namespace knightly::chess;
using knightly::test::data_path;
using knightly::test::read_file;
using knightly::test::sans;
using knightly::test::uci_moves;
using Moves = std::vector<std::string>;

namespace {

PgnReadResult read_data(const std::string& name) {
  return read_pgn(read_file(data_path("pgn/" + name)));
}

// The single game of a file that must read without errors.
PgnGame only_game(const std::string& name) {
  INFO(name);
  return knightly::test::only_game(read_data(name));
}

std::size_t ply_count_tag(const PgnGame& g) {
  return std::stoul(g.tag("PlyCount"));
}

}  // namespace

TEST_CASE("backslash_header.pgn: a value ending in a lone backslash", "[pgn][files]") {
  PgnGame g = only_game("backslash_header.pgn");
  CHECK(g.tag("Event") == "Tournament \\");
  CHECK(g.tag("Site") == "Madrid ESP");
  CHECK(g.moves.size() == 95);  // 48.Rd6+ is White's 48th move
  CHECK(g.moves.back().san == "Rd6+");
  CHECK(g.result == "1-0");
}

TEST_CASE("basic.pgn: FEN start and cutechess comments", "[pgn][files]") {
  PgnGame g = only_game("basic.pgn");
  CHECK(g.start_fen == g.tag("FEN"));
  CHECK(g.moves.size() == ply_count_tag(g));
  REQUIRE(g.moves.size() >= 4);
  CHECK(g.moves[0].san == "Bg2");
  CHECK(g.moves[1].san == "O-O");
  CHECK(to_uci(g.moves[1].move) == "e8g8");
  CHECK(g.moves[0].comment == "+1.55/16 0.70s");
  CHECK(g.moves.back().san == "Kxh3");
  CHECK(g.moves.back().comment == "0.00/40 0.099s, Draw by insufficient mating material");
  CHECK(g.result == "1/2-1/2");
  CHECK(g.tags.size() == 14);
}

TEST_CASE("black2move.pgn: an illegal castling is rejected", "[pgn][files]") {
  // The FEN has Black's queen on d8, so 1...O-O-O is illegal (pgn-extract rejects it too).
  PgnReadResult r = read_data("black2move.pgn");
  CHECK(r.games.empty());
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].game == 1);
  CHECK(r.errors[0].line == 4);
  CHECK(r.errors[0].move == "0-0-0");
  CHECK_THAT(r.errors[0].message, Catch::Contains("ply 1 (move 1... Black)"));
  CHECK_THAT(r.errors[0].message, Catch::Contains("castling"));
}

TEST_CASE("black2move.pgn with a legal first move: Black starts with zero castling",
          "[pgn][files]") {
  std::string text = read_file(data_path("pgn/black2move.pgn"));
  text.replace(text.find("1...0-0-0"), 9, "1...0-0");
  PgnReadResult r = read_pgn(text);
  REQUIRE(r.errors.empty());
  REQUIRE(r.games.size() == 1);
  CHECK(sans(r.games[0]) == Moves{"O-O", "O-O", "Nc5"});
  CHECK(uci_moves(r.games[0]) == Moves{"e8g8", "e1g1", "a6c5"});
  CHECK(r.games[0].tag("Event") == "*");
  CHECK(r.games[0].result == "*");
}

TEST_CASE("book.pgn: an 8-move opening", "[pgn][files]") {
  PgnGame g = only_game("book.pgn");
  CHECK(sans(g) == Moves{"e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5", "exd5", "Na5", "d3",
                         "Nxc4", "dxc4", "h6", "Nf3", "e4"});
  CHECK(g.tag("Annotator") == "depth=18 eval=+101");
  CHECK(g.result == "1/2-1/2");
}

TEST_CASE("castling.pgn and newline.pgn: no termination marker", "[pgn][files]") {
  for (const char* name : {"castling.pgn", "newline.pgn"}) {
    PgnGame g = only_game(name);
    CHECK(sans(g) == Moves{"Bg2", "O-O", "O-O", "a5", "Nd4", "Na6"});
    CHECK(g.result == "1/2-1/2");  // from the Result tag
  }
}

TEST_CASE("comment_before_moves.pgn: game comment and double comments and UTF-8", "[pgn][files]") {
  PgnGame g = only_game("comment_before_moves.pgn");
  CHECK(g.comment ==
        "The original result of the game (1-0) was overturned by an arbiter decision.");
  REQUIRE(g.moves.size() == 139);  // 70. Kc6 is the last move
  CHECK(g.moves[0].comment == "[%eval 0.2]");
  CHECK(g.moves[11].san == "e6");
  CHECK(g.moves[11].comment == "[%eval 1.21] Inaccuracy. Bb7 was best.");
  CHECK(g.moves[80].san == "c8=Q");
  CHECK(g.moves.back().comment ==
        "[%eval 3.42] The original result of the game (1-0) was overturned by an arbiter "
        "decision.");
  CHECK(g.tag("Event") ==
        "FB1 2324 SK Schw\xc3\xa4"
        "bisch Hall - SG Soling");
  CHECK(g.tag("Site") == "\xc3\xb8");
  CHECK(g.result == "0-1");
}

TEST_CASE("corrupted.pgn: a truncated last move is reported", "[pgn][files]") {
  PgnReadResult r = read_data("corrupted.pgn");
  CHECK(r.games.empty());
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].game == 1);
  CHECK(r.errors[0].line == 57);
  CHECK(r.errors[0].move == "Kx");
  CHECK_THAT(r.errors[0].message, Catch::Contains("ply 125"));
  CHECK_THAT(r.errors[0].message, Catch::Contains("move 63. White"));
}

TEST_CASE("empty_body.pgn: a game with tags only then a game from Black", "[pgn][files]") {
  PgnReadResult r = read_data("empty_body.pgn");
  REQUIRE(r.errors.empty());
  REQUIRE(r.games.size() == 2);
  CHECK(r.games[0].moves.empty());
  CHECK(r.games[0].tags.size() == 7);
  CHECK(r.games[0].result == "*");  // Result "?" is no result
  const PgnGame& g = r.games[1];
  CHECK(g.moves.size() == ply_count_tag(g));
  CHECK(g.moves[0].san == "Nge7");
  CHECK(g.moves[250].comment == "+M39/28 1.6s");
  CHECK(g.moves.back().comment == "-13.60/16 0.18s, Black wins by adjudication");
  CHECK(g.result == "0-1");
}

TEST_CASE("multiple.pgn: four games", "[pgn][files]") {
  PgnReadResult r = read_data("multiple.pgn");
  REQUIRE(r.errors.empty());
  REQUIRE(r.games.size() == 4);
  const Moves results{"1/2-1/2", "1-0", "1/2-1/2", "1/2-1/2"};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(r.games[i].moves.size() == ply_count_tag(r.games[i]));
    CHECK(r.games[i].result == results[i]);
    CHECK(r.games[i].result == r.games[i].tag("Result"));
  }
}

TEST_CASE("no_moves.pgn: tags and nothing else", "[pgn][files]") {
  PgnGame g = only_game("no_moves.pgn");
  CHECK(g.moves.empty());
  CHECK(g.tags.size() == 14);
  CHECK(g.start_fen == "rn1qk2r/pbpp2pp/4pn2/3P1p2/1bP5/2N2NP1/1P2PP1P/R1BQKB1R w KQkq - 0 1");
  CHECK(g.result == "1/2-1/2");
}

TEST_CASE("no-move games with only a comment or a marker", "[pgn][files]") {
  {
    PgnReadResult r = read_data("no_moves_but_comment_followed_by_termination_marker.pgn");
    REQUIRE(r.errors.empty());
    REQUIRE(r.games.size() == 2);
    for (const auto& g : r.games) {
      CHECK(g.moves.empty());
      CHECK(g.comment == "White's connection stalls");
      CHECK(g.result == "0-1");
      CHECK(g.start_fen == Position::StartFen);  // SetUp "1" without a FEN tag
    }
  }
  CHECK(only_game("no_moves_but_game_termination.pgn").result == "0-1");
  // The marker wins over a Result tag that disagrees.
  CHECK(only_game("no_moves_but_game_termination_2.pgn").result == "1/2-1/2");
  CHECK(only_game("no_moves_but_game_termination_3.pgn").result == "*");
  {
    PgnReadResult r = read_data("no_moves_but_game_termination_multiple.pgn");
    REQUIRE(r.errors.empty());
    REQUIRE(r.games.size() == 2);
    CHECK(r.games[0].moves.empty());
    CHECK(r.games[0].result == "0-1");
    CHECK(r.games[1].moves.size() == 126);  // 63. Rd2+ Ke4
    CHECK(r.games[1].moves.back().san == "Ke4");
    CHECK(r.games[1].tag("White") == "Flavinn");
  }
  {
    PgnReadResult r = read_data("no_moves_but_game_termination_multiple_2.pgn");
    REQUIRE(r.errors.empty());
    REQUIRE(r.games.size() == 3);
    CHECK(r.games[1].start_fen == "5k2/5p2/4B2p/r5pn/4P3/5PPP/2NR2K1/8 b - - 0 59");
    for (const auto& g : r.games) {
      CHECK(g.moves.empty());
      CHECK(g.result == "1/2-1/2");
    }
  }
  {
    PgnReadResult r = read_data("no_moves_two_games.pgn");
    REQUIRE(r.errors.empty());
    REQUIRE(r.games.size() == 2);
    CHECK(r.games[0].tag("White") == r.games[1].tag("Black"));
    for (const auto& g : r.games) CHECK(g.result == "*");
  }
  {
    PgnGame g = only_game("no_result.pgn");
    CHECK(g.moves.empty());
    CHECK(g.comment == "No result");
    CHECK(g.result == "*");
  }
}

TEST_CASE("non_ascii.pgn: names kept byte for byte", "[pgn][files]") {
  PgnGame g = only_game("non_ascii.pgn");
  CHECK(g.tag("Event") == "Tournoi Fran\xc3\xa7ois");
  CHECK(g.tag("Site") == "Caf\xc3\xa9");
  CHECK(g.tag("White") ==
        "Jos\xc3\xa9 Mar\xc3\xad"
        "a");
  CHECK(g.tag("Black") ==
        "\xd0\x92\xd0\xbb\xd0\xb0\xd0\xb4\xd0\xb8\xd0\xbc\xd0\xb8\xd1\x80 "
        "\xd0\x9f\xd0\xb5\xd1\x82\xd1\x80\xd0\xbe\xd0\xb2");
  CHECK(g.moves.size() == 20);
  CHECK(g.result == "1-0");
}

TEST_CASE("skip.pgn: two games with markers that beat the Result tag", "[pgn][files]") {
  PgnReadResult r = read_data("skip.pgn");
  REQUIRE(r.errors.empty());
  REQUIRE(r.games.size() == 2);
  CHECK(r.games[0].tag("Result") == "*");
  for (const auto& g : r.games) {
    CHECK(g.moves.size() == 130);
    CHECK(g.result == "1/2-1/2");
  }
  CHECK(uci_moves(r.games[0]) == uci_moves(r.games[1]));
}

TEST_CASE("square_bracket_in_header.pgn: closing brackets and escaped quotes in values",
          "[pgn][files]") {
  PgnGame g = only_game("square_bracket_in_header.pgn");
  CHECK(g.tag("Event") == "Batch 10: s20red4c4_t3 vs master[!important]");
  CHECK(g.tag("Variation") == "closing ] opening");
  CHECK(g.tag("White") == "New-cfe8\"dsadsa\"ce842c");
  CHECK(g.moves.size() == 130);
  CHECK(g.result == "1/2-1/2");
}

TEST_CASE("threefold_repetition.pgn: ends in a threefold repetition", "[pgn][files]") {
  PgnGame g = only_game("threefold_repetition.pgn");
  CHECK(sans(g) == Moves{"h5", "Rh6", "Rh7", "Re6", "Rg7", "Rh6", "Rh7", "Re6", "Rg7"});
  CHECK(g.result == "*");
  auto pos = Position::from_fen(g.start_fen);
  REQUIRE(pos);
  for (const auto& m : g.moves) pos->do_move(m.move);
  CHECK(pos->game_end() == GameEnd::ThreefoldRepetition);
}

TEST_CASE("unescaped_quote_header.pgn: quotes inside values", "[pgn][files]") {
  PgnGame g = only_game("unescaped_quote_header.pgn");
  CHECK(g.tag("Event") == "Tournament \"Championship\" Finals");
  CHECK(g.tag("Site") == "Club \"Victory\"");
  CHECK(g.tag("White") == "Smith, John \"The King\"");
  CHECK(g.tag("Black") == "Jones, \"Lightning\" Mike");
  CHECK(g.tag("Round") == "5");
  CHECK(g.moves.size() == 20);
  CHECK(g.result == "*");
}

TEST_CASE("variations.pgn: nested variations and NAGs skipped", "[pgn][files]") {
  PgnGame g = only_game("variations.pgn");
  CHECK(g.moves.size() == ply_count_tag(g));
  REQUIRE(g.moves.size() >= 8);
  const Moves all = sans(g);
  CHECK(Moves(all.begin(), all.begin() + 8) ==
        Moves{"e4", "e5", "f4", "b6", "d3", "Nc6", "fxe5", "Nxe5"});
  CHECK(g.moves.back().san == "Kg7");
  CHECK(g.result == "1/2-1/2");
}

TEST_CASE("our moves equal pgn-extract's for the files it reads", "[pgn][files][pgn-extract]") {
  knightly::test::TempDir dir;
  for (const char* name :
       {"backslash_header.pgn", "basic.pgn", "book.pgn", "comment_before_moves.pgn",
        "empty_body.pgn", "multiple.pgn", "no_moves_but_game_termination_multiple.pgn",
        "non_ascii.pgn", "skip.pgn", "square_bracket_in_header.pgn", "variations.pgn"}) {
    INFO(name);
    auto reference = knightly::test::pgn_extract_uci(data_path(std::string("pgn/") + name), dir);
    PgnReadResult ours = read_data(name);
    REQUIRE(ours.errors.empty());
    std::vector<Moves> mine;
    for (const auto& g : ours.games)
      if (!g.moves.empty()) mine.push_back(uci_moves(g));
    CHECK(mine == reference.games);
  }
}

// tests/data holds the first 2,000 of the book's 34,700 games (tests/data/SOURCES.md).
TEST_CASE("8moves_v3.pgn: all 2000 games of 16 plies", "[pgn][files][book]") {
  const std::string text = read_file(data_path("books/8moves_v3.pgn"));
  const auto start = std::chrono::steady_clock::now();
  PgnReader reader(text);
  std::size_t games = 0;
  std::size_t errors = 0;
  std::size_t wrong_length = 0;
  std::size_t wrong_result = 0;
  std::vector<std::string> first;
  while (auto g = reader.next()) {
    if (!*g) {
      if (errors++ < 5) FAIL_CHECK(to_string(g->error()));
      continue;
    }
    if (games == 0) first = uci_moves(**g);
    ++games;
    if ((*g)->moves.size() != 16) ++wrong_length;
    if ((*g)->result != "1/2-1/2") ++wrong_result;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("8moves_v3.pgn: %zu games read in %.3f s\n", games, seconds);
  CHECK(errors == 0);
  CHECK(games == 2000);
  CHECK(wrong_length == 0);
  CHECK(wrong_result == 0);
  // 1. Nf3 d5 2. g3 c6 3. Bg2 Nf6 4. d3 Bg4 5. h3 Bh5 6. b3 e6 7. Bb2 Qa5+ 8. Qd2 Qxd2+
  CHECK(first == Moves{"g1f3", "d7d5", "g2g3", "c7c6", "f1g2", "g8f6", "d2d3", "c8g4", "h2h3",
                       "g4h5", "b2b3", "e7e6", "c1b2", "d8a5", "d1d2", "a5d2"});
}
