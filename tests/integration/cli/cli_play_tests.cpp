// `knightly play` against real engine processes: the mock engine's faults, two
// knightly-engine processes, builtin players, and Debian's stockfish. Every PGN written is
// checked by pgn-extract and read back by our reader with the moves the database holds.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "pgn_checks.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;

namespace {

struct FaultCase {
  std::vector<std::string> flags;
  std::string reason;  // cutechess's reason after the side name ("White disconnects")
};

}  // namespace

TEST_CASE("every engine fault loses its game, the engine restarts, the match completes",
          "[cli][faults]") {
  auto fault = GENERATE(FaultCase{{"--crash-on-go", "3"}, " disconnects"},
                        FaultCase{{"--stall-after-go"}, "'s connection stalls"},
                        FaultCase{{"--illegal-move"}, " makes an illegal move"},
                        FaultCase{{"--unparsable-move"}, " makes an illegal move"},
                        FaultCase{{"--readyok-count", "1"}, "'s connection stalls"});
  TempDir dir;
  std::vector<std::string> cmd = {knightly_binary(), "play", "-engine",
                                  "cmd=" + mock_engine_binary(), "name=faulty"};
  for (const auto& f : fault.flags) cmd.push_back("arg=" + f);
  for (const std::string& w :
       {std::string("-engine"), "cmd=" + mock_engine_binary(), std::string("name=steady"),
        std::string("arg=--seed"), std::string("arg=5"), std::string("-each"),
        std::string("depth=1"), std::string("-rounds"), std::string("3"), std::string("-maxmoves"),
        std::string("20"), std::string("-recover"), std::string("-db"), dir.file("f.db"),
        // An engine that stops answering isready stalls after 2 s, not fastchess's 60 s (these
        // options make it a fastchess line: -rounds 3 is three pairs).
        std::string("-ping-ms"), std::string("2000"), std::string("-ucinewgame-ms"),
        std::string("2000"), std::string("-pgnout"), dir.file("f.pgn"),
        std::string("--stall-timeout"), std::string("0.5")})
    cmd.push_back(w);
  auto r = run_process(cmd, 300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Finished game 6 ") != std::string::npos);
  SqliteProbe db(dir.file("f.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 6);
  // Reasons name the side as cutechess does ("Black's connection stalls", "White makes an
  // illegal move: a1b1"); the side named is always the faulty engine, and it lost.
  auto rows = db.rows(
      "SELECT g.reason, w.name, b.name, g.result, g.termination FROM games g "
      "JOIN engines w ON w.id = g.white_id JOIN engines b ON b.id = g.black_id");
  int faults = 0;
  for (const auto& row : rows) {
    INFO(row[0]);
    bool white = row[0].rfind("White" + fault.reason, 0) == 0;
    bool black = row[0].rfind("Black" + fault.reason, 0) == 0;
    if (!white && !black) {
      // The steady engine never faults.
      CHECK(row[4] != "disconnect");
      CHECK(row[4] != "stall");
      CHECK(row[4] != "illegal move");
      continue;
    }
    ++faults;
    CHECK((white ? row[1] : row[2]) == "faulty");
    CHECK(row[3] == (white ? "0-1" : "1-0"));
  }
  CHECK(faults >= 1);
  check_with_pgn_extract(dir.file("f.pgn"), 6);
  check_pgn_matches_db(dir.file("f.pgn"), dir.file("f.db"));
}

TEST_CASE("without -recover a crashed engine ends the match, keeping the finished games",
          "[cli][faults]") {
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=steady",
                        "arg=--seed",
                        "arg=3",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=faulty",
                        "arg=--crash-on-go",
                        "arg=30",
                        "-each",
                        "depth=1",
                        "-games",
                        "10",
                        "-maxmoves",
                        "10",
                        "-db",
                        dir.file("n.db")},
                       300);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("-recover") != std::string::npos);
  SqliteProbe db(dir.file("n.db"));
  long long games = db.count("SELECT count(*) FROM games");
  CHECK(games >= 1);
  CHECK(games < 10);
  CHECK(db.count("SELECT count(*) FROM games WHERE termination = 'disconnect'") == 1);
}

TEST_CASE("an engine that cannot be restarted loses its games - the match completes",
          "[cli][faults]") {
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=faulty",
                        "arg=--crash-on-go",
                        "arg=3",
                        "arg=--start-once",
                        "arg=" + dir.file("started"),
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=steady",
                        "arg=--seed",
                        "arg=3",
                        "-each",
                        "depth=1",
                        "-games",
                        "6",
                        "-maxmoves",
                        "10",
                        "-recover",
                        "-db",
                        dir.file("r.db")},
                       300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("r.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 6);
  // Game 1: crash on the 3rd go; games 2-6: the restart fails, faulty loses before a move.
  CHECK(db.count("SELECT count(*) FROM games WHERE termination = 'disconnect'") == 6);
  CHECK(db.count("SELECT count(*) FROM games WHERE termination = 'disconnect' AND plies = 0") == 5);
  // Those games say why, in the database and the output, and the report names the engine.
  CHECK(db.count("SELECT count(*) FROM games WHERE reason LIKE '%disconnects: could not be "
                 "restarted: %'") == 5);
  CHECK(r.out.find("could not be restarted") != std::string::npos);
  CHECK(r.out.find("Engines that could not be restarted:") != std::string::npos);
  CHECK(r.out.find("faulty: ") != std::string::npos);
  CHECK(r.out.find("(5 games lost by forfeit)") != std::string::npos);
}

TEST_CASE("garbage and floods of info lines are ignored", "[cli][faults]") {
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=noisy",
                        "arg=--garbage",
                        "arg=--info-flood",
                        "arg=200",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=quiet",
                        "arg=--seed",
                        "arg=9",
                        "arg=--quit-delay",
                        "arg=3000",
                        "-each",
                        "depth=1",
                        "-games",
                        "4",
                        "-maxmoves",
                        "15",
                        "-db",
                        dir.file("g.db")},
                       300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("g.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 4);
  CHECK(db.count("SELECT count(*) FROM games WHERE reason LIKE '%noisy%'") == 0);
  // The flood's last info line (depth 200, score cp 200) is what was recorded.
  CHECK(db.count("SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id "
                 "JOIN engines w ON w.id = g.white_id WHERE w.name = 'noisy' AND m.ply % 2 = 1 "
                 "AND m.book = 0 AND m.depth = 200") >= 1);
}

TEST_CASE("two knightly-engine processes and two builtin players play valid PGN", "[cli][pgn]") {
  TempDir dir;
  SECTION("UCI processes with a clock") {
    auto r = run_process({knightly_binary(),
                          "play",
                          "-engine",
                          "cmd=" + engine_binary(),
                          "name=ab",
                          "option.Search=alphabeta",
                          "-engine",
                          "cmd=" + engine_binary(),
                          "name=mm",
                          "option.Search=minimax",
                          "option.Eval=material",
                          "-each",
                          "tc=2+0.05",
                          "-games",
                          "2",
                          "-openings",
                          "file=" + data_path("books/noob_3moves.epd"),
                          "order=random",
                          "-srand",
                          "3",
                          "-maxmoves",
                          "40",
                          "-db",
                          dir.file("u.db"),
                          "-pgnout",
                          dir.file("u.pgn")},
                         300);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("Score of ab vs mm") != std::string::npos);
    check_with_pgn_extract(dir.file("u.pgn"), 2);
    check_pgn_matches_db(dir.file("u.pgn"), dir.file("u.db"));
    std::string pgn = read_file(dir.file("u.pgn"));
    CHECK(pgn.find("[TimeControl \"2+0.05\"]") != std::string::npos);
    SqliteProbe db(dir.file("u.db"));
    // Clock left is recorded for every engine move.
    CHECK(db.count("SELECT count(*) FROM moves WHERE book = 0 AND clock_left_ms IS NULL") == 0);
    // The runner charges the measured think time: clock left = 2000 + 50 per move - time used.
    CHECK(db.count("SELECT count(*) FROM moves WHERE book = 0 AND time_ms > 0") > 0);
    CHECK(db.count("SELECT count(*) FROM moves m WHERE book = 0 AND clock_left_ms != 2000 + "
                   "50 * ((ply + 1) / 2) - (SELECT sum(time_ms) FROM moves p WHERE "
                   "p.game_id = m.game_id AND p.ply <= m.ply AND p.ply % 2 = m.ply % 2)") == 0);
  }
  SECTION("builtin players") {
    auto r = run_process({knightly_binary(),
                          "play",
                          "-engine",
                          "builtin=ab",
                          "option.Search=alphabeta",
                          "depth=3",
                          "-engine",
                          "builtin=greedy",
                          "option.Search=greedy",
                          "depth=1",
                          "-games",
                          "4",
                          "-repeat",
                          "-concurrency",
                          "2",
                          "-openings",
                          "file=" + data_path("books/8moves_v3.pgn"),
                          "format=pgn",
                          "plies=6",
                          "-db",
                          dir.file("b.db"),
                          "-pgnout",
                          dir.file("b.pgn")},
                         300);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    check_with_pgn_extract(dir.file("b.pgn"), 4);
    // PGN book lines are played as book moves: 6 plies each, marked {book}.
    std::string pgn = read_file(dir.file("b.pgn"));
    CHECK(pgn.find("{book}") != std::string::npos);
    SqliteProbe db(dir.file("b.db"));
    CHECK(db.count("SELECT count(*) FROM moves WHERE book = 1") == 4 * 6);
    check_pgn_matches_db(dir.file("b.pgn"), dir.file("b.db"));
  }
}

TEST_CASE("knightly-engine processes at depth 1 play clean games (no duplicated bestmove)",
          "[cli][engine]") {
  // Fast games stress the engine's output: a duplicated `bestmove` line would be read as the
  // answer to the next `go` and show up as an illegal move.
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + engine_binary(),
                        "name=a",
                        "-engine",
                        "cmd=" + engine_binary(),
                        "name=b",
                        "-each",
                        "depth=1",
                        "-games",
                        "40",
                        "-concurrency",
                        "2",
                        "-openings",
                        "file=" + data_path("books/noob_3moves.epd"),
                        "-repeat",
                        "-db",
                        dir.file("d1.db"),
                        "--quiet"},
                       300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("d1.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 40);
  CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('illegal move', "
                 "'disconnect', 'stall', 'time forfeit')") == 0);
}

TEST_CASE("a short game against Debian's stockfish", "[cli][stockfish]") {
  const std::string sf = "/usr/games/stockfish";
  REQUIRE(std::filesystem::exists(sf));
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + sf,
                        "name=stockfish",
                        "option.Threads=1",
                        "option.Hash=16",
                        "depth=4",
                        "-engine",
                        "cmd=" + engine_binary(),
                        "name=knightly",
                        "depth=3",
                        "-games",
                        "2",
                        "-maxmoves",
                        "60",
                        "-db",
                        dir.file("s.db"),
                        "-pgnout",
                        dir.file("s.pgn")},
                       300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  check_with_pgn_extract(dir.file("s.pgn"), 2);
  check_pgn_matches_db(dir.file("s.pgn"), dir.file("s.db"));
  SqliteProbe db(dir.file("s.db"));
  CHECK(db.value("SELECT uci_name FROM engines WHERE name = 'stockfish'").find("Stockfish") == 0);
  CHECK(db.value("SELECT length(binary_sha256) FROM engines WHERE name = 'stockfish'") == "64");
}

TEST_CASE("engine logs: --log-dir makes its directory and keeps one log per engine there",
          "[cli][logs]") {
  TempDir dir;
  const std::string logs = dir.file("logs/nested");
  auto play = [&](const std::string& log_dir) {
    return run_process(
        {knightly_binary(), "play", "-engine", "cmd=" + mock_engine_binary(), "name=a", "-engine",
         "cmd=" + mock_engine_binary(), "name=b", "-each", "depth=1", "-games", "2", "-maxmoves",
         "10", "-db", dir.file("g.db"), "--log-dir", log_dir},
        300);
  };
  auto r = play(logs);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* name : {"a", "b"}) {
    const std::string log = read_file(logs + "/" + name + ".log");
    CHECK(log.find("started: " + mock_engine_binary()) != std::string::npos);
    CHECK(std::filesystem::exists(logs + "/" + name + ".stderr.log"));
  }
  // A path that cannot be a directory stops the run before any game, naming it.
  write_file(dir.file("plain"), "x");
  auto bad = play(dir.file("plain/logs"));
  INFO(bad.out << bad.err);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--log-dir " + dir.file("plain/logs")) != std::string::npos);
}
