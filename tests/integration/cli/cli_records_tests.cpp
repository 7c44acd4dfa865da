// What the engines said with each move, as `knightly play` stores and writes it: fastchess's
// per-move PGN fields for a game rebuilt from the database after a resume, match_line, and
// -check-mate-pvs; real engine processes (Debian's stockfish, the mock), real SQLite files,
// every PGN checked by pgn-extract and read back.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <thread>

#include "engine/chess/pgn.h"
#include "pgn_checks.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"

using namespace knightly::test;

namespace {

const std::string stockfish = "/usr/games/stockfish";

// Waits until the database holds at least `games` games (or 120 s pass).
void wait_for_games(const std::string& db, long long games) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < until) {
    if (std::filesystem::exists(db)) {
      try {
        SqliteProbe probe(db);
        if (probe.count("SELECT count(*) FROM games") >= games) return;
      } catch (...) {
        // not created yet
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("no " << games << " games stored in " << db);
}

}  // namespace

TEST_CASE("a resumed run: games rebuilt from the database write the live PGN fields, no more",
          "[cli][resume][pgn]") {
  INFO(stockfish << " is missing: scripts/setup --tests installs it");
  REQUIRE(std::filesystem::exists(stockfish));
  TempDir dir;
  const std::string db = dir.file("r.db");
  const std::string pgn = dir.file("r.pgn");
  // Stockfish reports nps, hashfull, tbhits, seldepth and a PV; the mock only a score, a
  // depth, nodes, time 0 and a PV, plus the line match_line picks (OpenBench's form).
  const std::vector<std::string> cmd = {
      knightly_binary(),
      "play",
      "-engine",
      "cmd=" + stockfish,
      "name=sf",
      "option.Hash=8",
      "-engine",
      "cmd=" + mock_engine_binary(),
      "name=mock",
      "args=--seed 3 --delay 20 --info-string 'pgncomment hi {x}'",
      "-each",
      "depth=5",
      "-rounds",
      "4",
      "-games",
      "2",
      "-repeat",
      "-maxmoves",
      "16",
      "-pgnout",
      "file=" + pgn,
      "nodes=true",
      "seldepth=true",
      "nps=true",
      "hashfull=true",
      "tbhits=true",
      "latency=true",
      "pv=true",
      "match_line=^info string pgncomment .*",
      "-db",
      db};
  pid_t pid = spawn_background(cmd);
  wait_for_games(db, 2);
  ::kill(pid, SIGINT);  // the running game ends and is stored; the rest waits for the resume
  CHECK(wait_child(pid) == 130);
  const std::string live = read_file(pgn);
  long long first_run = 0;
  {
    SqliteProbe probe(db);
    first_run = probe.count("SELECT count(*) FROM games");
  }
  REQUIRE(first_run >= 2);
  REQUIRE(first_run < 8);
  REQUIRE(knightly::chess::read_pgn(live).games.size() == std::size_t(first_run));

  auto resumed = run_process(cmd, 300);
  INFO(resumed.out << resumed.err);
  REQUIRE(resumed.exit_code == 0);
  const std::string rebuilt = read_file(pgn);
  // The games of the first run, now written from the database, are the text they were.
  CHECK(rebuilt.substr(0, live.size()) == live);

  check_with_pgn_extract(pgn, 8);
  check_pgn_matches_db(pgn, db);
  auto read = knightly::chess::read_pgn(rebuilt);
  REQUIRE(read.games.size() == 8);
  long long sf_moves = 0, mock_moves = 0;
  for (const auto& game : read.games) {
    const bool sf_white = game.tag("White") == "sf";
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
      const std::string& c = game.moves[i].comment;
      INFO(c);
      if (c.starts_with("book")) continue;
      const bool white_move = i % 2 == 0;
      if (white_move == sf_white) {
        ++sf_moves;
        CHECK(c.find(", nps=") != std::string::npos);
        CHECK(c.find(", hashfull=") != std::string::npos);
        CHECK(c.find(", tbhits=") != std::string::npos);
        CHECK(c.find(", sd=") != std::string::npos);
        CHECK(c.find(", pv=\"") != std::string::npos);
        CHECK(c.find("line=") == std::string::npos);
      } else {
        ++mock_moves;
        // Never a made-up figure: what the mock did not report is not there.
        CHECK(c.find("nps=") == std::string::npos);
        CHECK(c.find("hashfull=") == std::string::npos);
        CHECK(c.find("tbhits=") == std::string::npos);
        CHECK(c.find("sd=") == std::string::npos);
        CHECK(c.find(", latency=") != std::string::npos);  // it reported `time 0`
        CHECK(c.find(", line=\"info string pgncomment hi (x)\"") != std::string::npos);
      }
    }
  }
  CHECK(sf_moves > 20);
  CHECK(mock_moves > 20);
  // What the database holds: NULL where the mock said nothing.
  SqliteProbe probe(db);
  CHECK(probe.count("SELECT count(*) FROM moves WHERE book = 0 AND nps IS NULL") == mock_moves);
  CHECK(probe.count("SELECT count(*) FROM moves WHERE lines LIKE 'info string pgncomment%'") ==
        mock_moves);
}

TEST_CASE("check-mate-pvs: a mate score whose PV does not mate is warned of in fastchess's words",
          "[cli][pgn]") {
  TempDir dir;
  auto match = [&](const std::string& name, bool check) {
    std::vector<std::string> cmd = {knightly_binary(),
                                    "play",
                                    "-engine",
                                    "cmd=" + mock_engine_binary(),
                                    "name=bad",
                                    "args=--seed 1 --bad-mate-pv",
                                    "-engine",
                                    "cmd=" + mock_engine_binary(),
                                    "name=good",
                                    "args=--seed 2",
                                    "-each",
                                    "depth=1",
                                    "-games",
                                    "2",
                                    "-maxmoves",
                                    "6",
                                    "-db",
                                    dir.file(name + ".db")};
    if (check) cmd.push_back("-check-mate-pvs");
    return run_process(cmd, 120);
  };
  auto r = match("checked", true);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Warning; Incomplete mating PV - from bad\nInfo; info depth 3 score mate 2 "
                   "nodes 20 time 0 pv ") != std::string::npos);
  CHECK(r.out.find("\nPosition; startpos\nMoves; ") != std::string::npos);
  CHECK(r.out.find("from good") == std::string::npos);
  // Without the flag nothing is checked.
  auto quiet = match("unchecked", false);
  INFO(quiet.out << quiet.err);
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.out.find("Warning;") == std::string::npos);
}

TEST_CASE("ponder: Stockfish thinks on the opponent's time, each clock runs only on its own move",
          "[cli][stockfish][ponder]") {
  INFO(stockfish << " is missing: scripts/setup --tests installs it");
  REQUIRE(std::filesystem::exists(stockfish));
  TempDir dir;
  const std::string db = dir.file("p.db");
  // Two engines think at once here, on a machine other tests load too: an increment and a
  // Move Overhead that keep the clocks off the last few milliseconds.
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + stockfish,
                        "name=pondering",
                        "ponder",
                        "-engine",
                        "cmd=" + stockfish,
                        "name=plain",
                        "-each",
                        "option.Hash=8",
                        "option.Move Overhead=100",
                        "tc=3+0.15",
                        "-rounds",
                        "1",
                        "-games",
                        "2",
                        "-maxmoves",
                        "20",
                        "-pgnout",
                        "file=" + dir.file("p.pgn"),
                        "timeleft=true",
                        "-log",
                        "file=" + dir.file("run.log"),
                        "engine=true",
                        "-db",
                        db},
                       300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe probe(db);
  REQUIRE(probe.count("SELECT count(*) FROM games") == 2);
  CHECK(probe.count("SELECT count(*) FROM games WHERE termination IN ('time forfeit', 'stall', "
                    "'disconnect', 'illegal move')") == 0);

  // The dialogue: only the pondering engine is told Ponder, `go ponder` and `ponderhit`;
  // every `go ponder` ends in a `ponderhit` or a `stop`.
  const std::string log = read_file(dir.file("run.log"));
  std::size_t ponders = 0, hits = 0, stops = 0, plain_ponders = 0;
  bool told = false;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const bool mine = line.rfind("pondering [", 0) == 0;
    if (line.find("] > go ponder ") != std::string::npos) (mine ? ponders : plain_ponders)++;
    if (!mine) continue;
    if (line.ends_with("] > ponderhit")) ++hits;
    if (line.ends_with("] > stop")) ++stops;
    if (line.ends_with("] > setoption name Ponder value true")) told = true;
  }
  CHECK(told);
  CHECK(plain_ponders == 0);
  CHECK(ponders >= 10);
  CHECK(hits >= 1);
  CHECK(ponders == hits + stops);

  // Each clock: the base, plus an increment per move, less the time charged for each of its
  // own moves (the pondering engine's from ponderhit), never below zero; the PGN says so too.
  for (const auto& game : probe.rows("SELECT id FROM games")) {
    for (int side : {0, 1}) {
      auto moves =
          probe.rows("SELECT time_ms, clock_left_ms FROM moves WHERE game_id = " + game[0] +
                     " AND ply % 2 = " + std::to_string(1 - side) + " AND book = 0 ORDER BY ply");
      REQUIRE(moves.size() >= 5);
      long long clock = 3000;
      for (const auto& m : moves) {
        clock = clock - std::stoll(m[0]) + 150;
        CHECK(std::stoll(m[1]) == clock);
        CHECK(clock > 0);
      }
    }
  }
  check_with_pgn_extract(dir.file("p.pgn"), 2);
  check_pgn_matches_db(dir.file("p.pgn"), db);
  const auto pgn = knightly::chess::read_pgn(read_file(dir.file("p.pgn")));
  const auto left = probe.rows(
      "SELECT clock_left_ms FROM moves m JOIN games g ON g.id = m.game_id ORDER BY "
      "g.schedule_index, m.ply");
  std::size_t at = 0;
  for (const auto& game : pgn.games)
    for (const auto& move : game.moves) {
      REQUIRE(at < left.size());
      char tl[32];
      std::snprintf(tl, sizeof tl, "tl=%.3fs", std::stoll(left[at++][0]) / 1000.0);
      CHECK(move.comment.find(tl) != std::string::npos);
    }
}

TEST_CASE("engine health: time losses, crashes, illegal moves and latency, at the end and in query",
          "[cli][faults]") {
  TempDir dir;
  const std::string db = dir.file("h.db");
  const std::string mock = mock_engine_binary();
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock,
                        "name=crasher",
                        "args=--seed 1 --crash-on-go 3",
                        "-engine",
                        "cmd=" + mock,
                        "name=cheat",
                        "args=--seed 2 --illegal-move",
                        "-engine",
                        "cmd=" + mock,
                        "name=slow",
                        "args=--seed 3 --delay 1500",
                        "-engine",
                        "cmd=" + mock,
                        "name=steady",
                        "args=--seed 4",
                        "-each",
                        "tc=1+0.01",  // the slow engine loses each of its games after 1 s
                        "-rounds",
                        "1",
                        "-games",
                        "2",
                        "-maxmoves",
                        "15",
                        "-recover",
                        "-db",
                        db},
                       300);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe probe(db);
  REQUIRE(probe.count("SELECT count(*) FROM games") == 12);
  // What each engine lost by, counted here from the games themselves.
  auto lost = [&](const std::string& engine, const std::string& termination) {
    return probe.count(
        "SELECT count(*) FROM games g JOIN engines w ON w.id = g.white_id JOIN engines b ON "
        "b.id = g.black_id WHERE g.termination = '" +
        termination + "' AND ((g.result = '0-1' AND w.name = '" + engine +
        "') OR (g.result = '1-0' AND b.name = '" + engine + "'))");
  };
  CHECK(lost("crasher", "disconnect") >= 2);
  CHECK(lost("cheat", "illegal move") >= 4);
  CHECK(lost("slow", "time forfeit") >= 1);
  const std::string json =
      run_process({knightly_binary(), "query", "health", "--db", db, "--format", "json"}).out;
  INFO(json);
  for (const std::string engine : {"crasher", "cheat", "slow", "steady"}) {
    const long long timeouts = lost(engine, "time forfeit");
    const long long crashes = lost(engine, "disconnect") + lost(engine, "stall");
    const long long illegal = lost(engine, "illegal move");
    // The latency of its moves: the measured time less the time the mock reported (0).
    const std::string side =
        "(CASE WHEN m.ply % 2 = 1 THEN g.white_id ELSE g.black_id END) = (SELECT id FROM "
        "engines WHERE name = '" +
        engine + "')";
    const auto latency = probe.rows(
        "SELECT count(m.latency_ms), sum(m.latency_ms), max(m.latency_ms) FROM moves m JOIN "
        "games g ON g.id = m.game_id WHERE m.book = 0 AND " +
        side);
    const long long moves = std::stoll(latency[0][0]);
    std::string block = "Player: " + engine + "\n  Timeouts: " + std::to_string(timeouts) +
                        "\n  Crashed: " + std::to_string(crashes) +
                        "\n  Stalls: " + std::to_string(lost(engine, "stall")) +
                        "\n  Illegal moves: " + std::to_string(illegal) + "\n  Latency: ";
    if (moves > 0) {
      char mean[64];
      std::snprintf(mean, sizeof mean, "mean %.1f ms, max %s ms (%lld move%s)",
                    std::stod(latency[0][1]) / double(moves), latency[0][2].c_str(), moves,
                    moves == 1 ? "" : "s");
      block += mean;
    } else {
      block += "unknown";
    }
    CHECK(r.out.find(block) != std::string::npos);
    CHECK(json.find("{\"engine\": \"" + engine +
                    "\", \"games\": 6, \"time_losses\": " + std::to_string(timeouts) +
                    ", \"crashes\": " + std::to_string(crashes)) != std::string::npos);
  }
}
