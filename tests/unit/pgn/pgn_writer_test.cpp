// The writer: exact export format on small games, then round trips through our reader and
// validation by pgn-extract on random games and on every game of tests/data/pgn.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <random>
#include <sstream>

#include "tests/unit/pgn/pgn_test_util.h"

using namespace knightly::chess;
using knightly::test::TempDir;

namespace {

using Tag = std::pair<std::string, std::string>;

// A game from SAN text played on `fen` (moves checked by the core, san left as written).
PgnGame make_game(std::string fen, const std::vector<std::string>& san, std::string result) {
  PgnGame g;
  g.start_fen = fen;
  auto pos = Position::from_fen(fen);
  REQUIRE(pos);
  for (const auto& s : san) {
    auto m = parse_san(*pos, s);
    REQUIRE(m);
    g.moves.push_back(PgnMove{*m, s, ""});
    pos->do_move(*m);
  }
  g.result = std::move(result);
  return g;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// Movetext lines (tag pairs cannot be wrapped, a FEN or URL may be long).
void check_export_lines(const std::string& text) {
  const std::size_t blank = text.find("\n\n");
  const std::size_t movetext = text.starts_with("[") && blank != std::string::npos ? blank + 2 : 0;
  for (const auto& line : lines_of(text.substr(movetext))) {
    INFO(line);
    CHECK(line.size() < 80);
    if (!line.empty()) {
      CHECK(line.front() != ' ');
      CHECK(line.back() != ' ');
      CHECK(line.front() != '%');
    }
  }
}

bool quick() {
  const char* q = std::getenv("KNIGHTLY_QUICK");
  return q && *q && std::string(q) != "0";
}

// Fields compared by a round trip: everything the reader gives back.
void check_same_game(const PgnGame& a, const PgnGame& b) {
  CHECK(a.tags == b.tags);
  CHECK(a.start_fen == b.start_fen);
  CHECK(a.result == b.result);
  CHECK(a.comment == b.comment);
  REQUIRE(a.moves.size() == b.moves.size());
  for (std::size_t i = 0; i < a.moves.size(); ++i) {
    INFO("ply " << i + 1);
    CHECK(a.moves[i].move == b.moves[i].move);
    CHECK(a.moves[i].san == b.moves[i].san);
    CHECK(a.moves[i].comment == b.moves[i].comment);
  }
}

std::string result_of(const Position& pos) {
  switch (pos.game_end()) {
    case GameEnd::Checkmate:
      return pos.side_to_move() == White ? "0-1" : "1-0";
    case GameEnd::None:
      return "*";
    default:
      return "1/2-1/2";
  }
}

// Random legal games with runner-like tags and comments; seeded, so failures reproduce.
std::vector<PgnGame> random_games(int count, std::uint32_t seed) {
  const std::vector<std::string> fens{
      std::string(Position::StartFen),
      "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
      "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
      "8/2P3k1/8/8/8/8/5p2/K7 b - - 0 57", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"};
  const std::vector<std::string> words{
      "+0.35/12", "0.52s",       "book", "-M5/20", "\"quoted\"", "semi;colon", "(paren)", "[%eval",
      "0.2]",     "Caf\xc3\xa9", "50%",  "%clk",   "a\\b",       "1-0",        "*",       "Nf3"};
  std::mt19937 rng(seed);
  std::vector<PgnGame> games;
  for (int n = 0; n < count; ++n) {
    PgnGame g;
    g.start_fen = fens[n % fens.size()];
    auto pos = Position::from_fen(g.start_fen);
    REQUIRE(pos);
    auto comment = [&] {
      std::string c;
      int len = int(rng() % 12) + 1;
      for (int i = 0; i < len; ++i) c += (i ? " " : "") + words[rng() % words.size()];
      return c;
    };
    if (rng() % 4 == 0) g.comment = comment();
    const int max_plies = int(rng() % 160);
    while (int(g.moves.size()) < max_plies && pos->game_end() == GameEnd::None) {
      MoveList legal = pos->legal_moves();
      Move m = legal[rng() % legal.size()];
      PgnMove pm{m, to_san(*pos, m), rng() % 3 == 0 ? comment() : ""};
      pos->do_move(m);
      g.moves.push_back(std::move(pm));
    }
    g.result = result_of(*pos);
    g.tags = {{"Event", "Random \"game\" " + std::to_string(n)},
              {"Site", "C:\\knightly\\ [x]"},
              {"Date", "2026.11.21"},
              {"Round", std::to_string(n + 1)},
              {"White", "Jos\xc3\xa9"},
              {"Black", "knightly-engine"},
              {"Result", g.result}};
    if (g.start_fen != Position::StartFen) {
      g.tags.emplace_back("SetUp", "1");
      g.tags.emplace_back("FEN", g.start_fen);
    }
    g.tags.emplace_back("PlyCount", std::to_string(g.moves.size()));
    games.push_back(std::move(g));
  }
  return games;
}

}  // namespace

TEST_CASE("export format: tags and move numbers and comments and result", "[pgn][writer]") {
  PgnGame g = make_game(std::string(Position::StartFen), {"e4", "e5", "Nf3", "Nc6", "Bb5"}, "*");
  g.tags = {Tag{"Event", "Test"}, Tag{"Result", "*"}};
  g.moves[2].comment = "book";
  CHECK(write_pgn(g) ==
        "[Event \"Test\"]\n"
        "[Result \"*\"]\n"
        "\n"
        "1. e4 e5 2. Nf3 {book} 2... Nc6 3. Bb5 *\n"
        "\n");
}

TEST_CASE("numbering starts from the FEN's side and fullmove number", "[pgn][writer]") {
  PgnGame g = make_game("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 12",
                        {"Nc6", "Bb5", "a6"}, "1/2-1/2");
  CHECK(write_pgn(g) == "12... Nc6 13. Bb5 a6 1/2-1/2\n\n");
  g.comment = "from a book";
  g.start_fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
  CHECK(write_pgn(g) == "{from a book} 2... Nc6 3. Bb5 a6 1/2-1/2\n\n");
}

TEST_CASE("a game without moves is its comment and result", "[pgn][writer]") {
  PgnGame g;
  g.start_fen = std::string(Position::StartFen);
  g.comment = "White's connection stalls";
  g.result = "0-1";
  CHECK(write_pgn(g) == "{White's connection stalls} 0-1\n\n");
  g.result = "nonsense";
  g.comment.clear();
  CHECK(write_pgn(g) == "*\n\n");
}

TEST_CASE("missing SAN is computed from the moves", "[pgn][writer]") {
  PgnGame g = make_game(std::string(Position::StartFen), {"e4", "f5", "Qh5"}, "1-0");
  for (auto& m : g.moves) m.san.clear();
  CHECK(write_pgn(g) == "1. e4 f5 2. Qh5+ 1-0\n\n");
}

TEST_CASE("tag values are escaped", "[pgn][writer]") {
  CHECK(escape_pgn_tag("plain") == "plain");
  CHECK(escape_pgn_tag("a \"b\" c\\d") == "a \\\"b\\\" c\\\\d");
  CHECK(escape_pgn_tag("two\nlines\tand tab") == "two lines and tab");
  PgnGame g;
  g.tags = {Tag{"White", "Smith, \"The King\""}};
  g.result = "*";
  CHECK(write_pgn(g) == "[White \"Smith, \\\"The King\\\"\"]\n\n*\n\n");
}

TEST_CASE("braces in comments are replaced so the comment stays one comment", "[pgn][writer]") {
  PgnGame g = make_game(std::string(Position::StartFen), {"d4"}, "*");
  g.moves[0].comment = "a {nested} }closing\n\tnewline";
  const std::string text = write_pgn(g);
  CHECK(text == "1. d4 {a (nested) )closing newline} *\n\n");
  PgnReadResult back = read_pgn(text);
  REQUIRE(back.games.size() == 1);
  CHECK(back.games[0].moves[0].comment == "a (nested) )closing newline");
}

TEST_CASE("lines stay under 80 columns and never start with %", "[pgn][writer]") {
  std::vector<std::string> san;
  // 60 plies of knight shuffles: long enough to wrap many times.
  for (int i = 0; i < 15; ++i) {
    san.insert(san.end(), {"Nf3", "Nf6", "Ng1", "Ng8"});
  }
  PgnGame g = make_game(std::string(Position::StartFen), san, "*");
  for (std::size_t i = 0; i < g.moves.size(); i += 3) g.moves[i].comment = "+0.35/12 0.52s";
  g.moves[7].comment = std::string(200, 'x');  // one word too long for any line
  g.moves[9].comment =
      "a comment long enough to need wrapping inside itself, with %percent "
      "words %that must not begin a line %ever and more words to wrap on";
  g.tags = {Tag{"Event", std::string(120, 'e')}};
  const std::string text = write_pgn(g);
  for (const auto& line : lines_of(text)) {
    INFO(line);
    if (line.find(std::string(120, 'e')) != std::string::npos) continue;  // tag: cannot wrap
    if (line.find(std::string(200, 'x')) != std::string::npos) {
      CHECK(line == "{" + std::string(200, 'x') + "}");  // alone on its line
      continue;
    }
    CHECK(line.size() < 80);
    if (!line.empty()) {
      CHECK(line.front() != ' ');
      CHECK(line.back() != ' ');
      CHECK(line.front() != '%');
    }
  }
  PgnReadResult back = read_pgn(text);
  REQUIRE(back.errors.empty());
  REQUIRE(back.games.size() == 1);
  check_same_game(back.games[0], g);
}

TEST_CASE("random games round-trip through writer and reader", "[pgn][writer]") {
  for (const PgnGame& g : random_games(quick() ? 20 : 200, 20261121)) {
    const std::string text = write_pgn(g);
    check_export_lines(text);
    PgnReadResult back = read_pgn(text);
    INFO(text);
    REQUIRE(back.errors.empty());
    REQUIRE(back.games.size() == 1);
    check_same_game(back.games[0], g);
  }
}

TEST_CASE("pgn-extract accepts our output and reads the same moves", "[pgn][writer][pgn-extract]") {
  const std::vector<PgnGame> games = random_games(quick() ? 20 : 100, 7);
  std::string file_text;
  for (const auto& g : games) file_text += write_pgn(g);
  TempDir dir;
  const std::string path = dir.file("random.pgn");
  knightly::test::write_file(path, file_text);
  CHECK(knightly::test::pgn_extract_errors(path) == "");
  auto reference = knightly::test::pgn_extract_uci(path, dir);
  std::vector<std::vector<std::string>> ours;
  for (const auto& g : games)
    if (!g.moves.empty()) ours.push_back(knightly::test::uci_moves(g));
  CHECK(reference.games == ours);
  // Our reader reads the whole file back.
  PgnReadResult back = read_pgn(file_text);
  CHECK(back.errors.empty());
  REQUIRE(back.games.size() == games.size());
  for (std::size_t i = 0; i < games.size(); ++i) check_same_game(back.games[i], games[i]);
}

TEST_CASE("every data file game is rewritten validly and reads back the same",
          "[pgn][writer][pgn-extract]") {
  TempDir dir;
  std::string all;
  std::vector<PgnGame> originals;
  for (const auto& entry : std::filesystem::directory_iterator(knightly::test::data_path("pgn"))) {
    if (entry.path().extension() != ".pgn") continue;
    PgnReadResult r = read_pgn(knightly::test::read_file(entry.path().string()));
    for (PgnGame& g : r.games) {
      // The caller keeps the Result tag in step with the result and writes SetUp only with a
      // FEN, as the runner does.
      if (g.tag("FEN").empty())
        std::erase_if(g.tags, [](const Tag& t) { return t.first == "SetUp"; });
      bool has_result = false;
      for (auto& [name, value] : g.tags)
        if (name == "Result") value = g.result, has_result = true;
      if (!has_result) g.tags.emplace_back("Result", g.result);
      const std::string text = write_pgn(g);
      INFO(entry.path().filename().string() << "\n" << text);
      check_export_lines(text);
      PgnReadResult back = read_pgn(text);
      REQUIRE(back.errors.empty());
      REQUIRE(back.games.size() == 1);
      check_same_game(back.games[0], g);
      all += text;
      originals.push_back(std::move(g));
    }
  }
  CHECK(originals.size() >= 30);
  const std::string path = dir.file("rewritten.pgn");
  knightly::test::write_file(path, all);
  CHECK(knightly::test::pgn_extract_errors(path) == "");
  PgnReadResult back = read_pgn(all);
  CHECK(back.errors.empty());
  CHECK(back.games.size() == originals.size());
}
