// PGN import into a real (in-memory) SQLite store: what is imported, what is refused and
// where, the ending of each game, and the games recognised as already stored.
#include "runner/import/pgn_import.h"

#include <catch2/catch.hpp>

#include "engine/chess/pgn.h"

using namespace knightly;
using runner::import_pgn;
using runner::ImportOptions;

namespace {

db::Store memory_store() {
  auto store = db::Store::open(":memory:");
  REQUIRE(store);
  return std::move(*store);
}

std::string game(const std::string& round, const std::string& moves, const std::string& result,
                 const std::string& extra_tags = "") {
  return "[Event \"e\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"" + round +
         "\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"" + result + "\"]\n" + extra_tags + "\n" +
         moves + "\n\n";
}

// The one game stored, exported as the CLI exports it and read back.
chess::PgnGame exported_game(const db::Store& store) {
  std::string text;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& g) { text += g.record.pgn; }, false);
  auto read = chess::read_pgn(text);
  REQUIRE(read.errors.empty());
  REQUIRE(read.games.size() == 1);
  return read.games[0];
}

}  // namespace

TEST_CASE("a game cut off mid-moves is refused with its file and line, the others go in",
          "[cli][import]") {
  db::Store store = memory_store();
  const std::string text = game("1", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", "1-0") +
                           game("2", "1. d4 d5 2. c4", "0-1");  // truncated file
  auto r = import_pgn(store, text, ImportOptions{"cut.pgn", ""});
  REQUIRE(r);
  CHECK(r->inserted == 1);
  CHECK(r->refused == 1);
  REQUIRE(r->messages.size() == 1);
  CHECK(r->messages[0] ==
        "cut.pgn:11: game 2 (a vs b): cut off after 3 plies: no termination marker (1-0, 0-1, "
        "1/2-1/2 or *) ends its moves (skipped)");
  CHECK(r->tournament == "import cut.pgn");
  CHECK(store.queries().count_games() == 1);
}

TEST_CASE("binary input is refused whole, with the byte and its place", "[cli][import]") {
  db::Store store = memory_store();
  const std::string text = game("1", "1. e4 e5 1-0", "1-0") + std::string("\0\x01\x02", 3);
  auto r = import_pgn(store, text, ImportOptions{"x.pgn", ""});
  REQUIRE_FALSE(r);
  CHECK(r.error() == "x.pgn:11:1: byte 0x00: not a PGN text file (binary data?); nothing imported");
  CHECK(store.queries().count_games() == 0);
}

TEST_CASE("messages echo input bytes escaped", "[cli][import]") {
  db::Store store = memory_store();
  // A name with a tab and a Latin-1 byte, an unreadable move with a Latin-1 byte.
  auto r = import_pgn(store,
                      "[White \"B\xf6hm\tX\"]\n[Black \"b\"]\n\n1. e4 *\n\n"
                      "[White \"c\"]\n[Black \"d\"]\n\n1. e4 K\xe9 1-0\n",
                      ImportOptions{"m.pgn", ""});
  REQUIRE(r);
  REQUIRE(r->messages.size() == 2);
  CHECK(r->messages[0] ==
        "m.pgn:1: game 1 (B\\xf6hm\\x09X vs b): result '*', not a finished game (skipped)");
  CHECK(r->messages[1].starts_with("m.pgn:9: game 2, move \"K\\xe9\": cannot play"));
  CHECK(r->unfinished == 1);
  CHECK(r->refused == 1);
}

TEST_CASE("a game ending in mate without a reason gets its ending from the final position",
          "[cli][import]") {
  db::Store store = memory_store();
  auto r = import_pgn(store, game("1", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", "1-0"),
                      ImportOptions{"m.pgn", ""});
  REQUIRE(r);
  REQUIRE(r->inserted == 1);
  store.queries().for_each_game({}, [](const db::StoredGame& g) {
    CHECK(g.record.termination == Termination::Checkmate);
    CHECK(g.record.reason == "White mates");
    CHECK(g.record.start_fen == "");  // the initial position, as a played game stores it
  });
  chess::PgnGame g = exported_game(store);
  CHECK(g.tag("Termination") == "normal");
  CHECK(g.tag("FEN") == "");
  CHECK(g.moves.back().comment == "White mates");
}

TEST_CASE("a resignation without a reason is exported without a Termination tag", "[cli][import]") {
  db::Store store = memory_store();
  // Not mate, and the final position does not agree with a draw either.
  auto r = import_pgn(store, game("1", "1. e4 e5 2. Nf3 0-1", "0-1"), ImportOptions{"r.pgn", ""});
  REQUIRE(r);
  REQUIRE(r->inserted == 1);
  chess::PgnGame g = exported_game(store);
  CHECK(g.tag("Termination") == "");
  CHECK(g.result == "0-1");
}

TEST_CASE("cutechess's time controls per side are kept and exported as they came",
          "[cli][import]") {
  db::Store store = memory_store();
  const std::string moves = "1. e4 e5 2. Nf3 0-1";
  auto r = import_pgn(
      store,
      game("1", moves, "0-1", "[WhiteTimeControl \"40/60\"]\n[BlackTimeControl \"10+0.1\"]\n"),
      ImportOptions{"tc.pgn", ""});
  REQUIRE(r);
  REQUIRE(r->inserted == 1);
  chess::PgnGame g = exported_game(store);
  CHECK(g.tag("WhiteTimeControl") == "40/60");
  CHECK(g.tag("BlackTimeControl") == "10+0.1");
  CHECK(g.tag("TimeControl") == "");
  std::string stored;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& s) { stored = s.record.time_control; }, false);
  CHECK(stored == "40/60 / 10+0.1");  // as the run stores a game whose sides differ

  // The same on both sides is one TimeControl tag.
  db::Store same = memory_store();
  REQUIRE(import_pgn(
      same, game("1", moves, "0-1", "[WhiteTimeControl \"5+0\"]\n[BlackTimeControl \"5+0\"]\n"),
      ImportOptions{"tc.pgn", ""}));
  chess::PgnGame one = exported_game(same);
  CHECK(one.tag("TimeControl") == "5+0");
  CHECK(one.tag("WhiteTimeControl") == "");
}

TEST_CASE("a stalemate whose result says otherwise keeps the result and no rules ending",
          "[cli][import]") {
  db::Store store = memory_store();
  // Black to move is stalemated; a PGN claiming 1-0 is stored as it says, the ending unknown.
  const std::string fen = "[FEN \"k7/8/1Q6/8/8/8/8/7K w - - 0 1\"]\n[SetUp \"1\"]\n";
  auto r = import_pgn(store, game("1", "1. Qc7 1-0", "1-0", fen), ImportOptions{"s.pgn", ""});
  REQUIRE(r);
  REQUIRE(r->inserted == 1);
  store.queries().for_each_game({}, [](const db::StoredGame& g) {
    CHECK(g.record.result == Result::WhiteWins);
    CHECK(g.record.termination == Termination::None);
  });
  db::Store other = memory_store();
  r = import_pgn(other, game("1", "1. Qc7 1/2-1/2", "1/2-1/2", fen), ImportOptions{"s.pgn", ""});
  REQUIRE(r);
  other.queries().for_each_game({}, [](const db::StoredGame& g) {
    CHECK(g.record.termination == Termination::Stalemate);
    CHECK(g.record.reason == "Draw by stalemate");
  });
}

TEST_CASE("names are stored as the PGN writes them: a tab in a tag becomes a space",
          "[cli][import]") {
  db::Store store = memory_store();
  auto r = import_pgn(store, "[White \"Deep\tBlue\"]\n[Black \"b\"]\n\n1. e4 1-0\n",
                      ImportOptions{"t.pgn", ""});
  REQUIRE(r);
  REQUIRE(r->inserted == 1);
  CHECK(store.catalog().find_engine("Deep Blue"));
  CHECK(exported_game(store).tag("White") == "Deep Blue");
}

TEST_CASE("a tournament name with a control character is refused", "[cli][import]") {
  db::Store store = memory_store();
  auto r = import_pgn(store, game("1", "1. e4 1-0", "1-0"), ImportOptions{"t.pgn", "a\nb"});
  REQUIRE_FALSE(r);
  CHECK(r.error() == "tournament name \"a\\x0ab\" holds a control character");
}

TEST_CASE("importing the same text twice adds nothing the second time", "[cli][import]") {
  db::Store store = memory_store();
  const std::string text = game("1", "1. e4 e5 1-0", "1-0") + game("2", "1. d4 d5 0-1", "0-1");
  auto first = import_pgn(store, text, ImportOptions{"a.pgn", ""});
  REQUIRE(first);
  CHECK(first->inserted == 2);
  auto second = import_pgn(store, text, ImportOptions{"a.pgn", "elsewhere"});
  REQUIRE(second);
  CHECK(second->inserted == 0);
  CHECK(second->duplicates == 2);
  CHECK(store.queries().count_games() == 2);
}

TEST_CASE("a book move after a played one keeps its flag, and the game reads back whole",
          "[cli][import]") {
  db::Store store = memory_store();
  // The second game's moves cannot be the row's lists (book moves come first there): they
  // are stored a row each. Both export as they came and import again as present.
  const std::string text =
      game("1", "1. e4 {book} e5 {book} 2. Nf3 {+0.30/10 0.1s} Nc6 1-0", "1-0") +
      game("2", "1. e4 {book} e5 2. Nf3 {book} Nc6 0-1", "0-1");
  auto first = import_pgn(store, text, ImportOptions{"a.pgn", ""});
  REQUIRE(first);
  REQUIRE(first->inserted == 2);
  std::vector<db::StoredGame> games;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& g) { games.push_back(g); }, true);
  REQUIRE(games.size() == 2);
  const std::vector<bool> book1 = {true, true, false, false}, book2 = {true, false, true, false};
  for (std::size_t k = 0; k < 4; ++k) {
    INFO("ply " << k + 1);
    CHECK(games[0].record.moves[k].book == book1[k]);
    CHECK(games[1].record.moves[k].book == book2[k]);
  }
  CHECK(games[1].record.moves[2].uci == "g1f3");
  CHECK(games[1].record.pgn.find("2. Nf3 {book} 2... Nc6 0-1") != std::string::npos);
  std::string exported;
  for (const auto& g : games) exported += g.record.pgn + "\n";
  auto again = import_pgn(store, exported, ImportOptions{"export.pgn", ""});
  REQUIRE(again);
  CHECK(again->inserted == 0);
  CHECK(again->duplicates == 2);
}

TEST_CASE("the export of imported games imports as already present", "[cli][import]") {
  db::Store store = memory_store();
  // No GameStartTime, a Date, an empty Site, a missing Round: the export writes them
  // differently (a start time from the date, "?"), and the games must still be known.
  const std::string text =
      "[Event \"x\"]\n[Site \"\"]\n[Date \"2026.03.04\"]\n[White \"a\"]\n[Black \"b\"]\n\n"
      "1. e4 e5 1-0\n\n"
      "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n\n"
      "[Event \"x\"]\n[GameStartTime \"2026-03-04T10:11:12.345 UTC\"]\n\n1. d4 0-1\n\n"
      "[Event \"x\ty\"]\n[GameStartTime \"soon\"]\n[Date \"2026.1.1\"]\n\n1. c4 1-0\n\n";
  auto first = import_pgn(store, text, ImportOptions{"a.pgn", ""});
  REQUIRE(first);
  REQUIRE(first->inserted == 4);
  std::string exported;
  store.queries().for_each_game(
      {}, [&](const db::StoredGame& g) { exported += g.record.pgn + "\n"; }, false);
  auto again = import_pgn(store, exported, ImportOptions{"export.pgn", ""});
  REQUIRE(again);
  CHECK(again->inserted == 0);
  CHECK(again->duplicates == 4);
  CHECK(store.queries().count_games() == 4);
}

TEST_CASE("a text of many batches: no game is split, lines and game numbers count on",
          "[cli][import]") {
  db::Store store = memory_store();
  // Over 8 MB (two batch lengths): games whose comments hold what looks like a tag line at
  // the start of a line, a ';' comment holding a brace, a '%' escape line.
  const std::string filler(3000, 'z');
  std::string text;
  int lines = 0;
  int n = 0;
  int bad_line = 0;
  while (text.size() < (9u << 20)) {
    ++n;
    std::string g;
    if (n % 997 == 0) {
      bad_line = lines + 9;  // the movetext's line below
      g = game(std::to_string(n), "1. e4 e5 2. Kxx 1-0", "1-0");
    } else {
      g = game(std::to_string(n),
               "1. e4 {" + filler + "\n[Event \"not a tag\"]\n} e5 ; a {brace\n% escape [x]\n" +
                   "2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
               "1-0");
    }
    for (char c : g) lines += c == '\n';
    text += g;
  }
  auto r = import_pgn(store, text, ImportOptions{"many.pgn", ""});
  REQUIRE(r);
  const int bad = n / 997;
  CHECK(r->inserted == n - bad);
  CHECK(r->refused == bad);
  CHECK(store.queries().count_games() == n - bad);
  // The last bad game is past the first batches: its line and number are the file's.
  REQUIRE_FALSE(r->messages.empty());
  CHECK(r->messages.back().starts_with("many.pgn:" + std::to_string(bad_line) + ": game " +
                                       std::to_string(bad * 997) + ", move \"Kxx\""));
}
