// Command lines of cutechess-cli and fastchess run by `knightly play` and a SPEC with spaces run
// by `knightly sprt`, against real engine processes and real database files.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/chess/position.h"
#include "pgn_checks.h"
#include "runner/stats/match_text.h"
#include "runner/stats/sprt.h"
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

  // --tournament NAME keeps the strict check; -tournament NAME is no name but a format, refused.
  auto swiss = run_process(mock_match(db, {"-games", "2", "-tournament", "nightly"}), 120);
  CHECK(swiss.exit_code == 2);
  CHECK(swiss.err.find("-tournament: 'nightly' is not round-robin or gauntlet") !=
        std::string::npos);
  auto named = run_process(mock_match(db, {"-games", "2", "--tournament", "nightly"}), 120);
  REQUIRE(named.exit_code == 0);
  auto changed = run_process(mock_match(db, {"-games", "4", "--tournament", "nightly"}), 120);
  INFO(changed.out << changed.err);
  CHECK(changed.exit_code == 2);
  CHECK(changed.err.find("tournament 'nightly'") != std::string::npos);
  CHECK(changed.err.find("different configuration") != std::string::npos);
}

TEST_CASE("a 100% score prints an unbounded Elo with its 95% bound, never a clamped number",
          "[cli][dialects]") {
  TempDir dir;
  // The second engine plays an illegal move in every game: 6-0 for the first. A cutechess-cli
  // line (arg=): -games 2 -rounds 3 -repeat is three pairs, its SPRT counts single games.
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
                        "-games",
                        "2",
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
  // Undecided after 6 games, and still 0: play exits as both tools do, whatever the SPRT said.
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Decision: sprt: undecided") != std::string::npos);
  CHECK(r.out.find("Score of good vs bad: 6 - 0 - 0") != std::string::npos);
  // -rounds 3 -repeat: three complete pairs; cutechess's SPRT is defined on single games, so
  // the decision counts the six games (and cutechess's output has no fastchess block).
  CHECK(r.out.find("after 6 games, trinomial 0 0 6") != std::string::npos);
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
  for (auto at = r.out.find(dashes + "\nResults of m1 vs m2 (depth 1, NULL, NULL):");
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
  CHECK(pgn.find(", n=20}") != std::string::npos);  // no sd=: the mock reports none
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
                                    "-rounds",
                                    "1",
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
  // A cutechess-cli line (arg=): six games, each its own opening, cutechess's SPRT on them;
  // undecided at the end, and play exits 0 as both tools do.
  REQUIRE(r.exit_code == 0);
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

TEST_CASE("play -srand 0: a fixed seed, so two identical runs play the same openings",
          "[cli][dialects]") {
  TempDir dir;
  auto cmd = [&](const std::string& db) {
    return mock_match(db,
                      {"-games", "2", "-rounds", "4", "-repeat", "-openings",
                       "file=" + data_path("books/2moves_v1.epd"), "order=random", "-srand", "0"});
  };
  auto a = run_process(cmd(dir.file("a.db")), 120);
  INFO(a.out << a.err);
  REQUIRE(a.exit_code == 0);
  auto b = run_process(cmd(dir.file("b.db")), 120);
  INFO(b.out << b.err);
  REQUIRE(b.exit_code == 0);
  const std::string q = "SELECT schedule_index, opening_fen FROM games ORDER BY schedule_index";
  const auto first = SqliteProbe(dir.file("a.db")).rows(q);
  const auto second = SqliteProbe(dir.file("b.db")).rows(q);
  REQUIRE(first.size() == 8);
  CHECK(first == second);
  CHECK(SqliteProbe(dir.file("a.db")).value("SELECT seed FROM tournaments") == "0");
  // Random order from a 2,000-line book: the four pairs did not all start alike.
  std::set<std::string> openings;
  for (const auto& row : first) openings.insert(row[1]);
  CHECK(openings.size() == 4);
}

TEST_CASE("a fastchess line's -games 2 -rounds N plays each round as a pair from one opening",
          "[cli][dialects]") {
  TempDir dir;
  // -report penta=true is fastchess's alone: a fastchess line, without -repeat.
  auto r = run_process(
      mock_match(dir.file("p.db"),
                 {"-games", "2", "-rounds", "3", "-report", "penta=true", "-openings",
                  "file=" + data_path("books/2moves_v1.epd"), "order=random", "-srand", "42"}),
      120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto rows = SqliteProbe(dir.file("p.db"))
                        .rows(
                            "SELECT schedule_index, opening_fen, round || ':' || pair FROM games "
                            "ORDER BY schedule_index");
  REQUIRE(rows.size() == 6);
  for (std::size_t k = 0; k < rows.size(); k += 2) {
    INFO("games " << k + 1 << " and " << k + 2);
    CHECK(rows[k][1] == rows[k + 1][1]);  // one opening per pair
    CHECK(rows[k][2] == rows[k + 1][2]);
  }
  CHECK(rows[0][1] != rows[2][1]);
  // The pentanomial line fastchess prints for pairs.
  CHECK(r.out.find("Ptnml(0-2): [") != std::string::npos);
  CHECK(r.out.find("Games: 6,") != std::string::npos);
}

TEST_CASE("play again with another -concurrency, -pgnout and -db spelling resumes the same match",
          "[cli][dialects]") {
  TempDir dir;
  const std::string db = dir.file("r.db");
  // Interrupted after its first games (Ctrl-C: the games in progress finish and are stored),
  // then run again with other worker options: the same match goes on, no game is played again.
  auto first = mock_match(db, {"-games", "2", "-rounds", "6", "-repeat", "-concurrency", "1",
                               "-pgnout", dir.file("one.pgn"), "-wait", "300"});
  const pid_t pid = spawn_background(first);
  for (int i = 0; i < 1000; ++i) {
    try {
      if (std::filesystem::exists(db) && SqliteProbe(db).count("SELECT count(*) FROM games") >= 2)
        break;
    } catch (const std::exception&) {
      // the runner holds the write lock a moment: look again
    }
    ::usleep(20000);
  }
  ::kill(pid, SIGINT);
  CHECK(wait_child(pid) == 130);
  SqliteProbe probe(db);
  const auto stored = probe.count("SELECT count(*) FROM games");
  REQUIRE(stored >= 2);
  REQUIRE(stored < 12);

  const std::string spelled = dir.path().string() + "/./r.db";
  auto again =
      run_process(mock_match(spelled, {"-games", "2", "-rounds", "6", "-repeat", "--concurrency",
                                       "3", "-pgnout", dir.file("two.pgn")}),
                  120);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(again.out.find("Resuming tournament") != std::string::npos);
  CHECK(probe.count("SELECT count(*) FROM tournaments") == 1);
  CHECK(probe.count("SELECT count(*) FROM games") == 12);
  CHECK(probe.count("SELECT count(DISTINCT schedule_index) FROM games") == 12);
  // The second run's PGN holds the whole match, rebuilt from the database.
  auto read = knightly::chess::read_pgn(read_file(dir.file("two.pgn")));
  CHECK(read.games.size() == 12);
}

TEST_CASE("play stopped by knightly stop exits 3, not the 0 of a match run to its end",
          "[cli][dialects][sprt]") {
  TempDir dir;
  const std::string db = dir.file("s.db");
  // An SPRT that cannot decide within its games (the anchors exit 0 however it ends, as
  // `play` does: tested above), stopped after its first games.
  auto cmd =
      mock_match(db, {"-games", "2", "-rounds", "500", "-repeat", "-concurrency", "1", "-sprt",
                      "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", "-wait", "100"});
  const pid_t pid = spawn_background(cmd, "", false, dir.file("p.out"), dir.file("p.out"));
  std::string name;
  for (int i = 0; i < 1000 && name.empty(); ++i) {
    try {
      if (std::filesystem::exists(db) && SqliteProbe(db).count("SELECT count(*) FROM games") >= 2)
        name = SqliteProbe(db).value("SELECT name FROM tournaments");
    } catch (const std::exception&) {
      // the runner holds the write lock a moment: look again
    }
    if (name.empty()) ::usleep(20000);
  }
  REQUIRE_FALSE(name.empty());
  auto stop = run_process({knightly_binary(), "stop", name, "--db", db});
  INFO(stop.out << stop.err);
  CHECK(stop.exit_code == 0);
  CHECK(wait_child(pid) == 3);
  const std::string out = read_file(dir.file("p.out"));
  INFO(out);
  CHECK(out.find("Stopped before the end") != std::string::npos);
  CHECK(SqliteProbe(db).count("SELECT count(*) FROM games") < 1000);
}

TEST_CASE("a cutechess-cli line's -sprt is cutechess's test: its LLR from its own formula",
          "[cli][dialects]") {
  TempDir dir;
  auto r =
      run_process(mock_match(dir.file("c.db"), {"-games", "2", "-rounds", "4", "-repeat", "-sprt",
                                                "elo0=0", "elo1=5", "-pgnout", dir.file("c.pgn")}),
                  120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // The last "Score of" line's counts, and the LLR cutechess-cli prints for them (its sprt.cpp:
  // tests/data/sprt_vectors_anchors.json holds 25 such cases).
  std::smatch m;
  std::string score, sprt;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Score of m1 vs m2: ", 0) == 0) score = line;
    if (line.rfind("SPRT: llr ", 0) == 0) sprt = line;
  }
  REQUIRE(std::regex_search(score, m, std::regex(R"(: (\d+) - (\d+) - (\d+) )")));
  knightly::runner::stats::Trinomial t;
  t.wins = std::stoll(m[1]);
  t.losses = std::stoll(m[2]);
  t.draws = std::stoll(m[3]);
  REQUIRE(t.games() == 8);
  const knightly::runner::stats::SprtConfig cutechess{0, 5, 0.05, 0.05,
                                                      knightly::runner::stats::EloModel::Cutechess};
  CHECK(sprt == knightly::runner::stats::cutechess_sprt_line(
                    knightly::runner::stats::sprt_status(cutechess, t)));
  CHECK(SqliteProbe(dir.file("c.db")).value("SELECT sprt_model FROM tournaments") == "cutechess");
}

TEST_CASE(
    "play: -pgnout append=true keeps what the file held, append=false and -epdout append=false "
    "start it over, no file is fastchess's name",
    "[cli][dialects]") {
  TempDir dir;
  const std::string pgn = dir.file("games.pgn"), epd = dir.file("end.epd");
  auto match = [&](const std::string& seed, const std::string& append) {
    return run_process(mock_match(dir.file("a.db"), {"-rounds", "1", "-srand", seed, "-pgnout",
                                                     "file=" + pgn, "append=" + append, "-epdout",
                                                     "file=" + epd, "append=" + append}),
                       120);
  };
  auto a = match("1", "true");
  INFO(a.out << a.err);
  REQUIRE(a.exit_code == 0);
  const std::string first = read_file(pgn);
  auto b = match("2", "true");  // another match (another seed), the same file
  INFO(b.out << b.err);
  REQUIRE(b.exit_code == 0);
  const std::string both = read_file(pgn);
  CHECK(both.rfind(first, 0) == 0);  // the first match's games, untouched, then the second's
  check_with_pgn_extract(pgn, 4);
  // The second match's part is the database's export of that match.
  SqliteProbe db(dir.file("a.db"));
  const auto names = db.rows("SELECT name FROM tournaments ORDER BY id");
  REQUIRE(names.size() == 2);
  auto exported = run_process(
      {knightly_binary(), "export", "--db", dir.file("a.db"), "--tournament", names[1][0]});
  CHECK(both.substr(first.size()) == exported.out);
  const std::string positions = read_file(epd);
  CHECK(std::count(positions.begin(), positions.end(), '\n') == 4);

  auto c = match("3", "false");  // fastchess's append=false: the new match's games alone
  INFO(c.out << c.err);
  REQUIRE(c.exit_code == 0);
  check_with_pgn_extract(pgn, 2);
  const std::string ends = read_file(epd);
  CHECK(std::count(ends.begin(), ends.end(), '\n') == 2);

  // -pgnout without a file: fastchess_DATE_TIME.pgn in the current directory.
  auto unnamed = run_process(mock_match(dir.file("u.db"), {"-rounds", "1", "-pgnout"}), 120,
                             dir.path().string());
  INFO(unnamed.out << unnamed.err);
  REQUIRE(unnamed.exit_code == 0);
  int named_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    if (std::regex_match(entry.path().filename().string(),
                         std::regex(R"(fastchess_\d{8}_\d{6}\.pgn)")))
      ++named_files;
  CHECK(named_files == 1);
}
