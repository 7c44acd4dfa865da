// Command lines of cutechess-cli and fastchess run by `knightly play` and a SPEC with spaces run
// by `knightly sprt`, against real engine processes and real database files.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/chess/position.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;

namespace {

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Two quick mock engines at depth 1; `extra` goes after them.
std::vector<std::string> mock_match(const std::string& db, const std::vector<std::string>& extra) {
  return with({knightly_binary(), "play", "-engine", "cmd=" + mock_engine_binary(), "name=m1",
               "arg=--seed", "arg=1", "-engine", "cmd=" + mock_engine_binary(), "name=m2",
               "arg=--seed", "arg=2", "-each", "depth=1", "-maxmoves", "20", "-db", db},
              extra);
}

}  // namespace

TEST_CASE("knightly sprt: a SPEC names an option with a space, with or without quotes",
          "[cli][dialects]") {
  TempDir dir;
  const std::string mock = mock_engine_binary();
  // The issue's form: `option.Skill Level=3` inside the SPEC, unquoted.
  auto r =
      run_process({knightly_binary(), "sprt", "--new", "cmd=" + mock + " option.Mock Style=wild",
                   "--base", "cmd=" + mock + " 'option.Mock Style=solid' option.Hash=8", "--depth",
                   "1", "--max-games", "4", "--db", dir.file("s.db")},
                  120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 3);  // undecided after 4 games
  CHECK(r.out.find("Warning") == std::string::npos);
  SqliteProbe db(dir.file("s.db"));
  CHECK(db.value("SELECT options FROM engines WHERE name = 'New'") == "Mock Style=wild");
  CHECK(db.value("SELECT options FROM engines WHERE name = 'Base'") == "Mock Style=solid Hash=8");
  CHECK(db.count("SELECT count(*) FROM games") == 4);

  // A name the engine does not list is warned about in full: the space reached the player.
  auto typo =
      run_process({knightly_binary(), "sprt", "--new", "cmd=" + mock + " option.Mock Stile=x",
                   "--base", mock, "--depth", "1", "--max-games", "2", "--db", dir.file("t.db")},
                  120);
  INFO(typo.out << typo.err);
  CHECK(typo.out.find("Mock Stile") != std::string::npos);
}

TEST_CASE("knightly play: the same command resumes its match, another command is a new one",
          "[cli][dialects]") {
  TempDir dir;
  const std::string db = dir.file("p.db");
  auto first = run_process(mock_match(db, {"-games", "2"}), 120);
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  auto again = run_process(mock_match(db, {"-games", "2"}), 120);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(again.out.find("already finished") != std::string::npos);
  // Other flags in the same directory: a new match, not "started with a different config".
  auto other = run_process(mock_match(db, {"-games", "4"}), 120);
  INFO(other.out << other.err);
  REQUIRE(other.exit_code == 0);
  SqliteProbe probe(db);
  CHECK(probe.count("SELECT count(*) FROM tournaments") == 2);
  CHECK(probe.count("SELECT count(*) FROM tournaments WHERE name LIKE 'play-%'") == 2);
  CHECK(probe.count("SELECT count(*) FROM games") == 6);

  // -tournament NAME keeps the strict check.
  auto named = run_process(mock_match(db, {"-games", "2", "-tournament", "nightly"}), 120);
  REQUIRE(named.exit_code == 0);
  auto changed = run_process(mock_match(db, {"-games", "4", "-tournament", "nightly"}), 120);
  INFO(changed.out << changed.err);
  CHECK(changed.exit_code == 2);
  CHECK(changed.err.find("tournament 'nightly'") != std::string::npos);
  CHECK(changed.err.find("different configuration") != std::string::npos);
}

TEST_CASE("a 100% score prints an unbounded Elo with its 95% bound, never a clamped number",
          "[cli][dialects]") {
  TempDir dir;
  // The second engine plays an illegal move in every game: 6-0 for the first.
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=good",
                        "arg=--seed",
                        "arg=1",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=bad",
                        "arg=--illegal-move",
                        "-each",
                        "depth=1",
                        "-rounds",
                        "3",
                        "-repeat",
                        "-recover",
                        "-ratinginterval",
                        "2",
                        "-sprt",
                        "elo0=0",
                        "elo1=5",
                        "-db",
                        dir.file("w.db")},
                       120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 3);
  CHECK(r.out.find("Score of good vs bad: 6 - 0 - 0") != std::string::npos);
  // -rounds 3 -repeat: three complete pairs (the issue's line played unpaired games), as the
  // decision says (cutechess's output has no pentanomial).
  CHECK(r.out.find("after 6 games, pentanomial 0 0 0 0 3") != std::string::npos);
  CHECK(r.out.find("Elo difference: +inf (100% score, >= ") != std::string::npos);
  CHECK(r.out.find("1199") == std::string::npos);
  CHECK(r.out.find("nan") == std::string::npos);
  CHECK(r.out.find("+inf") != std::string::npos);

  auto q = run_process(
      {knightly_binary(), "query", "standings", "--db", dir.file("w.db"), "--format", "json"});
  INFO(q.out << q.err);
  CHECK(q.out.find("\"elo\": null") != std::string::npos);
  CHECK(q.out.find("100% score: no finite Elo") != std::string::npos);
  CHECK(q.out.find("0% score: no finite Elo") != std::string::npos);
  CHECK(q.out.find("1199") == std::string::npos);
  auto table = run_process({knightly_binary(), "query", "standings", "--db", dir.file("w.db")});
  CHECK(table.out.find("+inf") != std::string::npos);
  CHECK(table.out.find("-inf") != std::string::npos);
  auto sprt =
      run_process({knightly_binary(), "query", "sprt", "--db", dir.file("w.db"), "--tournament",
                   SqliteProbe(dir.file("w.db")).value("SELECT name FROM tournaments")});
  INFO(sprt.out << sprt.err);
  CHECK(sprt.out.find("Elo: +inf (100% score") != std::string::npos);
  CHECK(sprt.out.find("Ptnml(0-2): [0, 0, 0, 0, 3]") != std::string::npos);
  CHECK(sprt.out.find("Games: 6, Wins: 6, Losses: 0, Draws: 0") != std::string::npos);
  CHECK(sprt.out.find("nan") == std::string::npos);
}

namespace {

// zlib's CRC-32 bit by bit, independent of the runner's table-driven one.
std::uint32_t bitwise_crc32(const std::string& data) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : data) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

}  // namespace

TEST_CASE("a fastchess command line: PGN options, EPD, shared log, CRC-32, interval reports",
          "[cli][dialects]") {
  TempDir dir;
  const std::string mock = mock_engine_binary();
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock,
                        "name=m1",
                        "args=--seed 1",
                        "restart=on",
                        "-engine",
                        "cmd=" + mock,
                        "name=m2",
                        "args=--seed 2",
                        "-each",
                        "plies=1",
                        "-maxmoves",
                        "20",
                        "-rounds",
                        "3",
                        "-repeat",
                        "-pgnout",
                        "file=" + dir.file("g.pgn"),
                        "notation=uci",
                        "nodes=true",
                        "seldepth=true",
                        "-epdout",
                        "file=" + dir.file("end.epd"),
                        "-log",
                        "file=" + dir.file("run.log"),
                        "engine=true",
                        "-ratinginterval",
                        "2",
                        "-crc32",
                        "pgn=true",
                        "-sprt",
                        "elo0=0",
                        "elo1=5",
                        "-site",
                        "lab",
                        "-event",
                        "Unit run",
                        "-wait",
                        "5",
                        "-use-affinity",
                        "-db",
                        dir.file("f.db")},
                       120);
  INFO(r.out << r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3));
  // fastchess's output: its block every 2 games and at the end, no cutechess score lines.
  const std::string dashes(50, '-');
  std::size_t blocks = 0;
  for (auto at = r.out.find(dashes + "\nResults of m1 vs m2 (1 plies, NULL, NULL):");
       at != std::string::npos; at = r.out.find(dashes + "\nResults of m1 vs m2", at + 1))
    ++blocks;
  CHECK(blocks == 3);
  CHECK(r.out.find("Ptnml(0-2): [") != std::string::npos);
  CHECK(r.out.find("Score of m1 vs m2") == std::string::npos);
  CHECK(r.out.find("Finished match") != std::string::npos);
  CHECK(r.out.find("nan") == std::string::npos);

  // The PGN: UCI moves with n= and sd=, the Site and Event given.
  const std::string pgn = read_file(dir.file("g.pgn"));
  CHECK(pgn.find("[Site \"lab\"]") != std::string::npos);
  CHECK(pgn.find("[Event \"Unit run\"]") != std::string::npos);
  CHECK(pgn.find(", n=20, sd=0}") != std::string::npos);
  const std::regex uci_move(R"(\b1\. [a-h][1-8][a-h][1-8] )");
  CHECK(std::regex_search(pgn, uci_move));
  // fishtest's check: the printed CRC-32 is the file's.
  char expected[64];
  std::snprintf(expected, sizeof expected, "has CRC32: 0x%x\n", bitwise_crc32(pgn));
  CHECK(r.out.find(expected) != std::string::npos);

  // The EPD: one legal final position per stored game, each the end of its game.
  SqliteProbe db(dir.file("f.db"));
  auto ids = db.rows("SELECT id, opening_fen FROM games ORDER BY schedule_index");
  REQUIRE(ids.size() == 6);
  std::istringstream epd(read_file(dir.file("end.epd")));
  for (const auto& row : ids) {
    std::string fen;
    REQUIRE(std::getline(epd, fen));
    auto pos =
        row[1].empty() ? knightly::chess::Position() : *knightly::chess::Position::from_fen(row[1]);
    for (const auto& m :
         db.rows("SELECT uci FROM moves WHERE game_id = " + row[0] + " ORDER BY ply"))
      pos.do_move(*knightly::chess::parse_uci(pos, m[0]));
    CHECK(fen == pos.fen());
  }

  // One log: the runner's lines and every line to and from both engines, named; restart=on
  // starts m1 once per game, m2 (restart off) once.
  const std::string log = read_file(dir.file("run.log"));
  CHECK(log.find("] Started game 1 of 6 (m1 vs m2)") != std::string::npos);
  CHECK(log.find("] Finished game 6 (m2 vs m1): ") != std::string::npos);
  CHECK(log.find("m2 [") != std::string::npos);
  CHECK(log.find("] > go depth 1") != std::string::npos);
  std::size_t m1_starts = 0, m2_starts = 0;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("m1 [", 0) == 0 && line.find("] > uci") != std::string::npos &&
        line.find("ucinewgame") == std::string::npos)
      ++m1_starts;
    if (line.rfind("m2 [", 0) == 0 && line.find("] > uci") != std::string::npos &&
        line.find("ucinewgame") == std::string::npos)
      ++m2_starts;
  }
  CHECK(m1_starts == 6);
  CHECK(m2_starts == 1);
}

TEST_CASE("play: -ping-ms and -ucinewgame-ms let an engine slow at isready play",
          "[cli][dialects]") {
  TempDir dir;
  const std::string mock = mock_engine_binary();
  auto cmd = [&](const std::string& ms, const std::string& db) {
    return std::vector<std::string>{knightly_binary(),
                                    "play",
                                    "-engine",
                                    "cmd=" + mock,
                                    "name=slow",
                                    "arg=--slow-readyok",
                                    "arg=1200",
                                    "-engine",
                                    "cmd=" + mock,
                                    "name=quick",
                                    "-each",
                                    "depth=1",
                                    "-maxmoves",
                                    "5",
                                    "-games",
                                    "2",
                                    "-ping-ms",
                                    ms,
                                    "-ucinewgame-ms",
                                    ms,
                                    "-db",
                                    dir.file(db)};
  };
  auto fails = run_process(cmd("400", "a.db"), 120);
  INFO(fails.out << fails.err);
  CHECK(fails.exit_code == 2);
  CHECK(fails.err.find("'slow' could not be started") != std::string::npos);
  CHECK(fails.err.find("no readyok within 400 ms") != std::string::npos);
  auto plays = run_process(cmd("5000", "b.db"), 120);
  INFO(plays.out << plays.err);
  CHECK(plays.exit_code == 0);
  CHECK(SqliteProbe(dir.file("b.db")).count("SELECT count(*) FROM games") == 2);
  CHECK(SqliteProbe(dir.file("b.db"))
            .count("SELECT count(*) FROM games WHERE termination = 'stall'") == 0);
}

TEST_CASE("play: an SPRT over single games (no -repeat) counts them, no pair is waited for",
          "[cli][dialects]") {
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=good",
                        "arg=--seed",
                        "arg=1",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=bad",
                        "arg=--illegal-move",
                        "-each",
                        "depth=1",
                        "-rounds",
                        "6",
                        "-recover",
                        "-sprt",
                        "elo0=0",
                        "elo1=5",
                        "-db",
                        dir.file("u.db")},
                       120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 3);
  CHECK(r.out.find("Note: -rounds 6 without -games or -repeat") != std::string::npos);
  CHECK(r.out.find("Ptnml") == std::string::npos);
  CHECK(r.out.find("nan") == std::string::npos);
  CHECK(r.out.find("after 6 games, trinomial 0 0 6") != std::string::npos);
  CHECK(r.out.find("Elo difference: +inf (100% score, >= 28.4 at 95%)") != std::string::npos);
  CHECK(r.out.find("SPRT: llr ") != std::string::npos);
  // The LLR as the decision holds it (whichever model the line's SPRT is read in).
  std::smatch decided;
  REQUIRE(std::regex_search(
      r.out, decided, std::regex(R"(Decision: sprt: undecided at max games \(LLR ([0-9.-]+),)")));
  const std::string llr = decided[1].str();

  // `query sprt` shows the same test in fastchess's single-game form: its figures from the
  // games, no Ptnml, no PairsRatio, no NaN (not a 0.00 Elo from the pairs there are none of).
  auto q = run_process({knightly_binary(), "query", "sprt", "--db", dir.file("u.db")});
  INFO(q.out << q.err);
  REQUIRE(q.exit_code == 0);
  CHECK(q.out.find("Games: 6, Wins: 6, Losses: 0, Draws: 0") != std::string::npos);
  CHECK(q.out.find("Elo: +inf (100% score, >= 28.37 at 95%)") != std::string::npos);
  CHECK(q.out.find("\nLLR: " + llr + " (") != std::string::npos);
  CHECK(q.out.find("Ptnml") == std::string::npos);
  CHECK(q.out.find("PairsRatio") == std::string::npos);
  CHECK(q.out.find("nan") == std::string::npos);
  auto json = run_process(
      {knightly_binary(), "query", "sprt", "--db", dir.file("u.db"), "--format", "json"});
  CHECK(json.out.find("\"elo\": null") != std::string::npos);
  std::smatch json_llr;
  REQUIRE(std::regex_search(json.out, json_llr, std::regex(R"("llr": ([0-9.-]+))")));
  char rounded[32];
  std::snprintf(rounded, sizeof rounded, "%.2f", std::stod(json_llr[1].str()));
  CHECK(rounded == llr);
}
