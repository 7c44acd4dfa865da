// xboard (CECP 2) engines through `knightly play` and `knightly run`: Debian's fairymax,
// phalanx and hoichess against knightly-engine (UCI) and each other, and the xboard mock's
// faults and claims. Every PGN is checked by pgn-extract and read back against the database.
#include <catch2/catch.hpp>
#include <filesystem>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "pgn_checks.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;

namespace {

const std::string fairymax = "/usr/games/fairymax";
const std::string phalanx = "/usr/games/phalanx";
const std::string hoichess = "/usr/games/hoichess";

void require_engine(const std::string& path) {
  INFO(path << " is missing: scripts/setup --tests installs it");
  REQUIRE(std::filesystem::exists(path));
}

}  // namespace

TEST_CASE("knightly play: fairymax over xboard against knightly-engine over UCI", "[cli][xboard]") {
  require_engine(fairymax);
  TempDir dir;
  auto r = run_process(
      {knightly_binary(), "play", "-engine", "cmd=" + fairymax, "proto=xboard", "name=fairymax",
       "-engine", "cmd=" + engine_binary(), "name=ke", "-each", "tc=2+0.05",
       // The suites run two at a time on two cores: an engine descheduled past its clock is
       // the machine's load, not the dialogue under test.
       "timemargin=1000", "-games", "2", "-maxmoves", "30", "-db", dir.file("p.db"), "-pgnout",
       dir.file("p.pgn")},
      120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Finished game 2 ") != std::string::npos);
  SqliteProbe db(dir.file("p.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 2);
  // No game lost by a fault: the dialogue worked both ways.
  CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('disconnect', 'stall', "
                 "'illegal move', 'time forfeit', 'false claim')") == 0);
  // fairymax's thinking output became the evaluations of its moves.
  CHECK(db.count("SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id JOIN engines e "
                 "ON e.id = CASE m.ply % 2 WHEN 1 THEN g.white_id ELSE g.black_id END "
                 "WHERE e.name = 'fairymax' AND m.depth > 0 AND m.nodes > 0") >= 10);
  // ...its PV and its time (so the move's latency) too; nps, hashfull and tbhits, which
  // thinking output does not carry, are stored as unknown, not 0.
  CHECK(db.count("SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id JOIN engines e "
                 "ON e.id = CASE m.ply % 2 WHEN 1 THEN g.white_id ELSE g.black_id END "
                 "WHERE e.name = 'fairymax' AND m.pv <> '' AND m.latency_ms IS NOT NULL AND "
                 "m.nps IS NULL AND m.hashfull IS NULL AND m.tbhits IS NULL") >= 10);
  CHECK(db.count("SELECT count(*) FROM engines WHERE name = 'fairymax' AND uci_name LIKE "
                 "'Fairy-Max%'") == 1);
  check_with_pgn_extract(dir.file("p.pgn"), 2);
  check_pgn_matches_db(dir.file("p.pgn"), dir.file("p.db"));
}

TEST_CASE("knightly run: a round robin of phalanx, hoichess and knightly-engine", "[cli][xboard]") {
  require_engine(phalanx);
  require_engine(hoichess);
  TempDir dir;
  write_file(dir.file("xb.toml"),
             "[tournament]\nname = \"xboard\"\nrounds = 1\ngames = 2\nconcurrency = 2\n"
             "tc = \"2+0.05\"\nmaxmoves = 20\n"
             "[[engine]]\nname = \"phalanx\"\ncommand = \"" +
                 phalanx +
                 "\"\nproto = \"xboard\"\n"
                 "[[engine]]\nname = \"hoichess\"\ncommand = \"" +
                 hoichess +
                 "\"\nargs = [\"-x\"]\nprotocol = \"xboard\"\n"
                 "[[engine]]\nname = \"ke\"\ncommand = \"" +
                 engine_binary() + "\"\n");
  auto r = run_process({knightly_binary(), "run", dir.file("xb.toml"), "--db", dir.file("x.db"),
                        "--pgn", dir.file("x.pgn")},
                       180);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("x.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 6);
  CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('disconnect', 'stall', "
                 "'illegal move', 'false claim')") == 0);
  // Each pairing played both colours: xboard against xboard, and each against UCI.
  for (const char* pair : {"'phalanx', 'hoichess'", "'phalanx', 'ke'", "'hoichess', 'ke'"}) {
    INFO(pair);
    CHECK(db.count(std::string("SELECT count(*) FROM games g JOIN engines w ON w.id = g.white_id "
                               "JOIN engines b ON b.id = g.black_id WHERE w.name IN (") +
                   pair + ") AND b.name IN (" + pair + ")") == 2);
  }
  CHECK(db.count("SELECT count(*) FROM moves WHERE book = 0") >= 60);
  check_with_pgn_extract(dir.file("x.pgn"), 6);
  check_pgn_matches_db(dir.file("x.pgn"), dir.file("x.db"));
}

TEST_CASE("knightly play: the xboard mock's faults and claims lose its games",
          "[cli][xboard][faults]") {
  struct Case {
    std::vector<std::string> flags;
    std::string termination;
    std::string reason;  // after the side's name
  };
  auto c = GENERATE(Case{{"--crash-on-go", "2"}, "disconnect", " disconnects"},
                    Case{{"--illegal-move"}, "illegal move", " makes an illegal move: e2e5"},
                    Case{{"--false-claim"}, "false claim", " forfeits by invalid victory claim: "},
                    Case{{"--resign-on-go", "2"}, "resignation", " resigns"},
                    Case{{"--draw-claim"}, "false claim", " forfeits by invalid draw claim"});
  TempDir dir;
  std::vector<std::string> cmd = {knightly_binary(), "play",
                                  "-engine",         "cmd=" + mock_xboard_binary(),
                                  "proto=xboard",    "name=xb"};
  for (const auto& f : c.flags) cmd.push_back("arg=" + f);
  for (const std::string& w :
       {std::string("-engine"), "cmd=" + mock_engine_binary(), std::string("name=uci"),
        std::string("arg=--seed"), std::string("arg=5"), std::string("-each"),
        std::string("depth=1"), std::string("-games"), std::string("4"), std::string("-maxmoves"),
        std::string("20"), std::string("-recover"), std::string("-db"), dir.file("f.db"),
        std::string("-pgnout"), dir.file("f.pgn")})
    cmd.push_back(w);
  auto r = run_process(cmd, 120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("f.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 4);
  auto rows = db.rows(
      "SELECT g.termination, g.reason, g.result, w.name FROM games g "
      "JOIN engines w ON w.id = g.white_id");
  REQUIRE(rows.size() == 4);
  for (const auto& row : rows) {
    INFO(row[1]);
    CHECK(row[0] == c.termination);
    const bool xb_white = row[3] == "xb";
    CHECK(row[1].rfind(std::string(xb_white ? "White" : "Black") + c.reason, 0) == 0);
    CHECK(row[2] == (xb_white ? "0-1" : "1-0"));
  }
  check_with_pgn_extract(dir.file("f.pgn"), 4);
  check_pgn_matches_db(dir.file("f.pgn"), dir.file("f.db"));
}

TEST_CASE("knightly play: a true mate claim changes nothing", "[cli][xboard]") {
  TempDir dir;
  // White mates in one (Ra8#): the mock finds the mate, plays it and claims it.
  write_file(dir.file("m.epd"), "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - id \"mate\";\n");
  auto r = run_process({knightly_binary(),
                        "play",
                        "-engine",
                        "cmd=" + mock_xboard_binary(),
                        "proto=xboard",
                        "name=xb",
                        "arg=--mate-claim",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=uci",
                        "arg=--seed",
                        "arg=4",
                        "-each",
                        "depth=1",
                        "-games",
                        "2",
                        "-maxmoves",
                        "20",
                        "-openings",
                        "file=" + dir.file("m.epd"),
                        "format=epd",
                        "-db",
                        dir.file("m.db"),
                        "-pgnout",
                        dir.file("m.pgn")},
                       120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("m.db"));
  auto rows = db.rows(
      "SELECT g.termination, g.reason, g.result, g.plies FROM games g JOIN "
      "engines w ON w.id = g.white_id WHERE w.name = 'xb'");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0] == "checkmate");
  CHECK(rows[0][1] == "White mates");
  CHECK(rows[0][2] == "1-0");
  CHECK(rows[0][3] == "1");
  check_with_pgn_extract(dir.file("m.pgn"), 2);
}

TEST_CASE("knightly play: Chess960 with the xboard mock", "[cli][xboard]") {
  TempDir dir;
  auto r = run_process({knightly_binary(),
                        "play",
                        "-variant",
                        "fischerandom",
                        "-engine",
                        "cmd=" + mock_xboard_binary(),
                        "proto=xboard",
                        "name=xb",
                        "arg=--variants",
                        "arg=normal,fischerandom",
                        "arg=--seed",
                        "arg=9",
                        "-engine",
                        "cmd=" + mock_engine_binary(),
                        "name=uci",
                        "arg=--seed",
                        "arg=4",
                        "-each",
                        "depth=1",
                        "-games",
                        "4",
                        "-maxmoves",
                        "60",
                        "-db",
                        dir.file("c.db"),
                        "-pgnout",
                        dir.file("c.pgn")},
                       120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  SqliteProbe db(dir.file("c.db"));
  CHECK(db.count("SELECT count(*) FROM games") == 4);
  CHECK(db.count("SELECT count(*) FROM games WHERE termination IN ('disconnect', 'stall', "
                 "'illegal move', 'false claim')") == 0);
  const std::string pgn = read_file(dir.file("c.pgn"));
  CHECK(pgn.find("[Variant \"fischerandom\"]") != std::string::npos);
  check_with_pgn_extract(dir.file("c.pgn"), 4);
  check_pgn_matches_db(dir.file("c.pgn"), dir.file("c.db"));
}

TEST_CASE("knightly play: fairymax, without setboard, gets book positions by edit",
          "[cli][xboard][book]") {
  require_engine(fairymax);
  TempDir dir;
  // Positions with either side to move (Black's through cutechess's dummy move), castling
  // rights on both sides, and a bare king ending; then a book of the test data.
  write_file(dir.file("o.epd"),
             "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"open\";\n"
             "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - id \"black\";\n"
             "4k3/8/8/8/8/8/4P3/4K3 w - - id \"kpk\";\n");
  for (const std::string& book : {dir.file("o.epd"), data_path("books/noob_3moves.epd")}) {
    const std::string db = dir.file(std::to_string(book.size()) + ".db");
    const std::string pgn = dir.file(std::to_string(book.size()) + ".pgn");
    auto r = run_process({knightly_binary(),
                          "play",
                          "-engine",
                          "cmd=" + fairymax,
                          "proto=xboard",
                          "name=fairymax",
                          "-engine",
                          "cmd=" + engine_binary(),
                          "name=ke",
                          "-each",
                          "tc=2+0.05",
                          "-rounds",
                          "3",
                          "-games",
                          "2",
                          "-repeat",
                          "-maxmoves",
                          "12",  // a move fairymax thought legal elsewhere shows well before
                          "-openings",
                          "file=" + book,
                          "format=epd",
                          "order=sequential",
                          "-db",
                          db,
                          "-pgnout",
                          pgn},
                         180);
    INFO(book << "\n" << r.out << r.err);
    REQUIRE(r.exit_code == 0);
    SqliteProbe probe(db);
    CHECK(probe.count("SELECT count(*) FROM games") == 6);
    // No forfeit: fairymax knew each position, so every move it made was legal in it.
    CHECK(probe.count("SELECT count(*) FROM games WHERE termination IN ('disconnect', 'stall', "
                      "'illegal move', 'time forfeit', 'false claim')") == 0);
    check_with_pgn_extract(pgn, 6);
    check_pgn_matches_db(pgn, db);
  }
}

TEST_CASE("knightly play: what an xboard engine cannot play is a clear error",
          "[cli][xboard][faults]") {
  require_engine(fairymax);
  TempDir dir;
  // fairymax offers no fischerandom: the run stops before any game, naming the engine.
  auto frc = run_process(
      {knightly_binary(), "play", "-variant", "fischerandom", "-engine", "cmd=" + fairymax,
       "proto=xboard", "name=fairymax", "-engine", "cmd=" + engine_binary(), "name=ke", "-each",
       "tc=2+0.05", "-games", "2", "-db", dir.file("frc.db")},
      60);
  INFO(frc.out << frc.err);
  CHECK(frc.exit_code == 2);
  CHECK(frc.err.find("'fairymax' could not be started") != std::string::npos);
  CHECK(frc.err.find("variant fischerandom") != std::string::npos);

  // st in fractions of a second cannot be said in CECP.
  auto st = run_process(
      {knightly_binary(), "play", "-engine", "cmd=" + fairymax, "proto=xboard", "-engine",
       "cmd=" + engine_binary(), "-each", "st=0.5", "-db", dir.file("st.db")},
      60);
  CHECK(st.exit_code != 0);
  CHECK(st.err.find("whole seconds") != std::string::npos);
}
