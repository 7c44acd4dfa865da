// History a user can trust, against databases the tests make with real runs and imports:
// coordinate-notation imports, engines told apart across tournaments, standings by score,
// queries that explain themselves, workers' state, and progress after a resume.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <regex>
#include <thread>

#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;

namespace {

ProcessResult kn(std::vector<std::string> words) {
  words.insert(words.begin(), knightly_binary());
  return run_process(words, 300);
}

std::string game_pgn(const std::string& white, const std::string& black, const std::string& result,
                     int round, const std::string& moves = "1. e4 e5") {
  return "[Event \"h\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"" + std::to_string(round) +
         "\"]\n[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result +
         "\"]\n\n" + moves + " " + result + "\n\n";
}

std::string tournament_toml(const std::string& name, int depth) {
  return "[tournament]\nname = \"" + name +
         "\"\nrounds = 1\nconcurrency = 2\nseed = 3\nmaxmoves = 30\n"
         "[openings]\nrandom_plies = 2\n"
         "[[engine]]\nname = \"ab\"\nbuiltin = true\noptions = { Search = \"alphabeta\" }\n"
         "depth = " +
         std::to_string(depth) +
         "\n[[engine]]\nname = \"rnd\"\nbuiltin = true\noptions = { Search = \"random\" }\n"
         "depth = 1\n";
}

// Changes a database file behind Knightly's back, as a crash or another tool would leave it.
void sql_exec(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &h) == SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &error);
  INFO((error ? error : ""));
  sqlite3_free(error);
  sqlite3_close(h);
  REQUIRE(rc == SQLITE_OK);
}

}  // namespace

TEST_CASE("import reads coordinate notation: Knightly's notation=uci PGN and pgn-extract -Wlalg",
          "[cli][import][history]") {
  TempDir dir;
  // A game in Knightly's own UCI notation, with castling as the king's move and a promotion.
  const std::string uci =
      "[Event \"u\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n"
      "[Black \"b\"]\n[Result \"1-0\"]\n[GameDuration \"01:02:03\"]\n\n"
      "1. e2e4 e7e5 2. g1f3 b8c6 3. f1c4 g8f6 4. e1g1 f8e7 5. b1c3 d7d6 1-0\n\n";
  write_file(dir.file("uci.pgn"), uci);
  auto r = kn({"import", dir.file("uci.pgn"), "--db", dir.file("k.db")});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Imported 1 of 1 games") != std::string::npos);
  // GameDuration is kept: 1 h 2 min 3 s.
  SqliteProbe p(dir.file("k.db"));
  CHECK(p.value("SELECT duration_ms FROM games") == "3723000");
  // An imported game's moves are lists in its own row (schema 8), not rows of `moves`.
  CHECK(p.value("SELECT moves_uci FROM games") ==
        "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8e7 b1c3 d7d6");
  CHECK(p.value("SELECT moves_san FROM games") == "e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Be7 Nc3 d6");
  CHECK(p.count("SELECT count(*) FROM moves") == 0);

  // pgn-extract's long algebraic output of a SAN game imports as the same moves.
  const std::string san = game_pgn("c", "d", "1-0", 2,
                                   "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Be7 5. d4 exd4 6. e5 d5 "
                                   "7. exf6 dxc4 8. fxe7 Qxe7 9. Re1 Be6 10. Ng5 O-O-O");
  write_file(dir.file("san.pgn"), san);
  auto lalg = run_process({"/usr/games/pgn-extract", "-Wlalg", "-s", dir.file("san.pgn")});
  REQUIRE(lalg.exit_code == 0);
  REQUIRE(lalg.out.find("e1g1") != std::string::npos);
  write_file(dir.file("lalg.pgn"), lalg.out);
  r = kn({"import", dir.file("lalg.pgn"), "--db", dir.file("l.db")});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  r = kn({"import", dir.file("san.pgn"), "--db", dir.file("s.db")});
  CHECK(r.exit_code == 0);
  SqliteProbe l(dir.file("l.db")), s(dir.file("s.db"));
  CHECK(l.rows("SELECT moves_uci, moves_san, plies FROM games") ==
        s.rows("SELECT moves_uci, moves_san, plies FROM games"));
  CHECK(l.count("SELECT plies FROM games") == 20);

  // Nothing importable: exit 1, with the reason.
  write_file(dir.file("bad.pgn"), game_pgn("a", "b", "1-0", 1, "1. e4 e5 2. Ke3"));
  r = kn({"import", dir.file("bad.pgn"), "--db", dir.file("b.db")});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("Imported 0 of 1 games") != std::string::npos);
  CHECK(r.err.find("Ke3") != std::string::npos);
}

TEST_CASE("engines are told apart by what defines their play, --merge-by-name joins them",
          "[cli][query][history]") {
  TempDir dir;
  const std::string db = dir.file("t.db");
  write_file(dir.file("d1.toml"), tournament_toml("d1", 1));
  write_file(dir.file("d2.toml"), tournament_toml("d2", 2));
  for (const char* t : {"d1.toml", "d2.toml"}) {
    auto r = kn({"run", dir.file(t), "--db", db, "--quiet"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
  auto standings = kn({"query", "standings", "--db", db, "--format", "csv"});
  INFO(standings.out << standings.err);
  REQUIRE(standings.exit_code == 0);
  CHECK(standings.out.find(",ab (depth 1),2,") != std::string::npos);
  CHECK(standings.out.find(",ab (depth 2),2,") != std::string::npos);
  CHECK(standings.out.find(",rnd,4,") != std::string::npos);
  auto merged = kn({"query", "standings", "--db", db, "--format", "csv", "--merge-by-name"});
  CHECK(merged.out.find(",ab,4,") != std::string::npos);
  CHECK(merged.out.find("(depth") == std::string::npos);
  auto h2h = kn({"query", "h2h", "--db", db, "--format", "csv"});
  CHECK(h2h.out.find("ab (depth 2),rnd,2,") != std::string::npos);
  auto ratings = kn({"query", "ratings", "--db", db, "--format", "csv"});
  CHECK(ratings.exit_code == 0);
  CHECK(ratings.out.find("ab (depth 1)") != std::string::npos);

  // The same name at the same depth with another option, and as another program (a UCI
  // engine): each its own row, told apart by the option, the command and the binary's hash.
  const std::string other = dir.file("other.db");
  std::string options = tournament_toml("o1", 1);
  options.replace(options.find("Search = \"alphabeta\""), 20,
                  "Search = \"alphabeta\", Eval = \"material\"");
  std::string program = tournament_toml("c1", 1);
  program.replace(program.find("builtin = true\noptions = { Search = \"alphabeta\" }"), 49,
                  "command = \"" + mock_engine_binary() + "\"");
  write_file(dir.file("o1.toml"), options);
  write_file(dir.file("c1.toml"), program);
  for (const char* t : {"d1.toml", "o1.toml", "c1.toml"}) {
    auto r = kn({"run", dir.file(t), "--db", other, "--quiet"});
    INFO(t << r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
  auto three = kn({"query", "standings", "--db", other, "--format", "csv"});
  INFO(three.out << three.err);
  REQUIRE(three.exit_code == 0);
  CHECK(three.out.find("\"ab (Search=alphabeta, no command") != std::string::npos);
  CHECK(three.out.find("\"ab (Search=alphabeta Eval=material, no command") != std::string::npos);
  CHECK(std::regex_search(three.out, std::regex("\"ab \\(default options, [^,]*mock-engine, "
                                                "binary [0-9a-f]{8}\\)\",2,")));
  CHECK(kn({"query", "standings", "--db", other, "--format", "csv", "--merge-by-name"})
            .out.find(",ab,6,") != std::string::npos);
}

TEST_CASE("standings rank by score when the engines played different numbers of games",
          "[cli][query][history]") {
  TempDir dir;
  std::string pgn;
  int round = 0;
  // many: 6 of 10 against weak; few: 2 of 2 against weak.
  for (int i = 0; i < 6; ++i) pgn += game_pgn("many", "weak", "1-0", ++round);
  for (int i = 0; i < 4; ++i) pgn += game_pgn("many", "weak", "0-1", ++round);
  for (int i = 0; i < 2; ++i) pgn += game_pgn("few", "weak", "1-0", ++round);
  write_file(dir.file("s.pgn"), pgn);
  REQUIRE(kn({"import", dir.file("s.pgn"), "--db", dir.file("s.db")}).exit_code == 0);
  auto r = kn({"query", "standings", "--db", dir.file("s.db"), "--format", "csv"});
  INFO(r.out);
  CHECK(r.out.find("1,few,2,2.0") != std::string::npos);
  CHECK(r.out.find("2,many,10,6.0") != std::string::npos);
}

TEST_CASE("queries explain themselves: help lists every filter, no match says so and exits 1",
          "[cli][query][history]") {
  auto help = kn({"help", "query"});
  CHECK(help.exit_code == 0);
  for (const char* word :
       {"--engine NAME", "--tournament NAME", "--termination NAME", "--since", "--merge-by-name",
        "--anchor", "checkmate", "time forfeit", "workers", "1-0|0-1|1/2-1/2"})
    CHECK(help.out.find(word) != std::string::npos);
  auto kind = kn({"query", "standings", "--help"});
  CHECK(kind.exit_code == 0);
  CHECK(kind.out.find("--engine NAME") != std::string::npos);
  CHECK(kind.out.find("--anchor") == std::string::npos);  // a ratings option
  for (const auto& [command, option] : std::vector<std::pair<std::string, std::string>>{
           {"report", "--move-games"}, {"serve", "--threads"}}) {
    auto h = kn({"help", command});
    CHECK(h.out.find(option) != std::string::npos);
  }

  TempDir dir;
  const std::string db = dir.file("q.db");
  write_file(dir.file("q.toml"), tournament_toml("qt", 1));
  REQUIRE(kn({"run", dir.file("q.toml"), "--db", db, "--quiet"}).exit_code == 0);
  auto engine = kn({"query", "standings", "--db", db, "--engine", "abb"});
  CHECK(engine.exit_code == 1);
  CHECK(engine.err.find("--engine 'abb': no engine of that name") != std::string::npos);
  CHECK(engine.err.find("'ab'") != std::string::npos);
  auto tournament = kn({"query", "games", "--db", db, "--tournament", "qq"});
  CHECK(tournament.exit_code == 1);
  CHECK(tournament.err.find("no tournament of that name") != std::string::npos);
  auto termination = kn({"query", "games", "--db", db, "--termination", "mate"});
  CHECK(termination.exit_code == 1);
  CHECK(termination.err.find("'checkmate'") != std::string::npos);

  // A cut list says how many rows were left out and how to see them.
  auto games = kn({"query", "games", "--db", db, "--limit", "1"});
  CHECK(games.exit_code == 0);
  CHECK(games.err.find("1 of 2 games shown") != std::string::npos);
  CHECK(games.err.find("--limit 2") != std::string::npos);
}

TEST_CASE("query workers shows each worker's state and tournament, a refused run adds none",
          "[cli][query][history]") {
  TempDir dir;
  const std::string db = dir.file("w.db");
  write_file(dir.file("w.toml"), tournament_toml("wt", 1));
  REQUIRE(kn({"run", dir.file("w.toml"), "--db", db, "--quiet"}).exit_code == 0);
  // Run again: the tournament is finished, nothing is played, no worker is added.
  auto again = kn({"run", dir.file("w.toml"), "--db", db, "--quiet"});
  CHECK(again.exit_code == 0);
  auto w = kn({"query", "workers", "--db", db, "--format", "csv"});
  INFO(w.out << w.err);
  REQUIRE(w.exit_code == 0);
  CHECK(w.out.find("state,tournament") != std::string::npos);
  CHECK(w.out.find(",finished,wt,") != std::string::npos);
  SqliteProbe p(db);
  CHECK(p.count("SELECT count(*) FROM workers") == 1);

  // A worker that stopped heartbeating while holding a pair has lost its lease.
  sql_exec(
      db,
      "INSERT INTO workers (host, pid, started_at, last_seen_ms) VALUES ('gone', 1, "
      "'2026-01-01T00:00:00.000Z', 0);"
      "UPDATE tournaments SET status = 'running';"
      "INSERT INTO pairs (tournament_id, round, pair, games, schedule_index, state, worker_id, "
      "attempt, lease_until_ms) VALUES (1, 99, 0, 2, 99, 'leased', 2, 1, 1)");
  w = kn({"query", "workers", "--db", db, "--format", "csv"});
  CHECK(w.out.find("gone,1,lease lost,wt,") != std::string::npos);
  // One holding a pair whose lease runs on is alive.
  sql_exec(db,
           "INSERT INTO workers (host, pid, started_at, last_seen_ms) VALUES ('busy', 2, "
           "'2026-01-01T00:00:00.000Z', 0);"
           "INSERT INTO pairs (tournament_id, round, pair, games, schedule_index, state, "
           "worker_id, attempt, lease_until_ms) VALUES (1, 98, 0, 2, 98, 'leased', 3, 1, "
           "9000000000000)");
  w = kn({"query", "workers", "--db", db, "--format", "csv"});
  INFO(w.out);
  CHECK(w.out.find("busy,2,alive,wt,") != std::string::npos);
  CHECK(w.out.find("gone,1,lease lost,wt,") != std::string::npos);
}

TEST_CASE("the progress line after a resume counts the whole tournament's games",
          "[cli][resume][history]") {
  TempDir dir;
  const std::string toml =
      "[tournament]\nname = \"p\"\nrounds = 4\nconcurrency = 1\nseed = 3\nmaxmoves = 20\n"
      "[openings]\nrandom_plies = 2\n"
      "[[engine]]\nname = \"x\"\nbuiltin = true\noptions = { Search = \"greedy\" }\ndepth = 1\n"
      "[[engine]]\nname = \"y\"\nbuiltin = true\noptions = { Search = \"random\" }\ndepth = 1\n"
      "[[engine]]\nname = \"z\"\nbuiltin = true\noptions = { Search = \"random\" }\ndepth = 1\n";
  write_file(dir.file("p.toml"), toml);
  // The whole tournament, then its last two rounds taken out again, as a run stopped halfway
  // leaves it: 12 of 24 games stored, the tournament aborted. The same command resumes it.
  const std::string db = dir.file("p.db");
  REQUIRE(kn({"run", dir.file("p.toml"), "--db", db, "--quiet"}).exit_code == 0);
  sql_exec(db,
           "DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE round >= 2);"
           "DELETE FROM games WHERE round >= 2;"
           "UPDATE pairs SET state = 'free', stored_mask = 0, worker_id = NULL WHERE round >= 2;"
           "UPDATE tournaments SET status = 'aborted', decision = NULL, finished_at = NULL");
  auto r = kn({"run", dir.file("p.toml"), "--db", db});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // The last progress line: [24/24] leader NAME P/16 (each engine plays 16 of the 24 games).
  const std::regex line(R"(\[24/24\] leader \S+ [0-9.]+/([0-9]+))");
  std::string last;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), line);
       it != std::sregex_iterator(); ++it)
    last = (*it)[1].str();
  CHECK(last == "16");
}

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A cutechess-style SPRT that H1 accepts after 20 games (10 pairs won twice): the second engine
// plays an illegal move in every game, and one game at a time leaves no game after the decision.
ProcessResult perfect_sprt(const TempDir& dir, const std::string& rating_interval) {
  return kn({"play",
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
             "50",
             "-repeat",
             "-ratinginterval",
             rating_interval,
             "-sprt",
             "elo0=0",
             "elo1=100",
             "-db",
             dir.file("s" + rating_interval + ".db")});
}

}  // namespace

TEST_CASE(
    "a cutechess-style SPRT prints its SPRT line at every -ratinginterval and ends as "
    "cutechess-cli does",
    "[cli][sprt][history]") {
  for (const int interval : {4, 3}) {
    TempDir dir;
    auto r = perfect_sprt(dir, std::to_string(interval));
    INFO("-ratinginterval " << interval << "\n" << r.out << r.err);
    CHECK(r.exit_code == 0);
    // H1 is accepted after n games (the LLR's model decides which n; one game at a time, so no
    // game is stored after the decision).
    std::smatch decision;
    REQUIRE(std::regex_search(
        r.out, decision,
        std::regex(R"(\nDecision: sprt: H1 accepted \(LLR ([0-9.]+) >= [0-9.]+\) after ([0-9]+) )"
                   R"(games)")));
    const int n = std::stoi(decision[2].str());
    REQUIRE(n >= 2 * interval);
    // The Elo and SPRT lines after every `interval` games, and once more at the end unless
    // game n was at the interval (cutechess-cli's EngineMatch::onTournamentFinished).
    const std::size_t lines = std::size_t(n / interval + (n % interval != 0 ? 1 : 0));
    CHECK(occurrences(r.out, "\nSPRT: llr ") == lines);
    CHECK(occurrences(r.out, "\nElo difference: ") == lines);
    for (int at = interval; at < n; at += interval)
      CHECK(r.out.find("[1.000] " + std::to_string(at) + "\nElo difference: +inf (100% score, ") !=
            std::string::npos);
    // The last: right after game n's score line, the decision's LLR, then the standings.
    std::smatch last;
    REQUIRE(std::regex_search(
        r.out, last,
        std::regex(R"(Score of good vs bad: )" + std::to_string(n) + " - 0 - 0  \\[1\\.000\\] " +
                   std::to_string(n) +
                   R"(\nElo difference: \+inf \(100% score, >= [0-9.]+ at 95%\), LOS: [0-9.]+ %, )"
                   R"(DrawRatio: 0\.0 %\nSPRT: llr ([0-9.]+) \([0-9.]+%\), lbound -2\.94, )"
                   R"(ubound 2\.94 - H1 was accepted\n\nStandings of )")));
    CHECK(std::abs(std::stod(last[1].str()) - std::stod(decision[1].str())) < 0.01);
    CHECK(occurrences(r.out, " - H1 was accepted") == 1);
    CHECK(occurrences(r.out, "Score of good vs bad: " + std::to_string(n) + " - 0 - 0") == 1);
    // One final block: cutechess's lines, no fastchess block beside them.
    CHECK(r.out.find("Results of ") == std::string::npos);
    CHECK(r.out.find("Ptnml") == std::string::npos);
    CHECK(r.out.ends_with("Finished match\n"));
  }
}

TEST_CASE("the README's demo sample is what the demo prints", "[cli][demo][history]") {
  // The demo is deterministic (its seed is in the config, its engines are builtin and limited
  // by depth or iterations): its standings and terminations are the README's, line for line.
  const std::string readme = read_file(source_dir() + "/README.md");
  const auto intro = readme.find("The demo ends like this");
  REQUIRE(intro != std::string::npos);
  const auto open = readme.find("```\n", intro);
  const auto close = readme.find("```\n", open + 4);
  REQUIRE((open != std::string::npos && close != std::string::npos));
  const std::string sample = readme.substr(open + 4, close - open - 4);
  REQUIRE(sample.find("Standings of 'demo'") != std::string::npos);

  TempDir dir;
  write_file(dir.file("demo.toml"), read_file(source_dir() + "/configs/demo.toml"));
  auto r = run_process({knightly_binary(), "run", "demo.toml"}, 600, dir.path().string());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Which game finishes last depends on the threads; from the standings on it is all fixed.
  const std::string from = "Standings of 'demo'";
  REQUIRE(r.out.find(from) != std::string::npos);
  CHECK(r.out.substr(r.out.find(from)) == sample.substr(sample.find(from)));
}
