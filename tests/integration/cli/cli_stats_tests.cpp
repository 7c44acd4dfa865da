// SPRT gate, queries, import and export against databases made by real runs.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <regex>
#include <thread>

#include "sqlite_probe.h"
#include "tests/support/process.h"
#include "tests/test_data.h"

using namespace knightly::test;

namespace {

const std::string strong = "builtin=ab option.Search=alphabeta option.Eval=material+pst";
const std::string weak = "builtin=rnd option.Search=random";

std::vector<std::string> sprt_cmd(const std::string& db, const std::string& new_spec,
                                  const std::string& base_spec) {
  return {knightly_binary(), "sprt", "--new",  new_spec, "--base",        base_spec, "--depth", "2",
          "--elo0",          "0",    "--elo1", "50",     "--concurrency", "2",       "--db",    db,
          "--max-games",     "400",  "--quiet"};
}

// A three-engine tournament database for the query tests (made once per test run).
const std::string& query_db() {
  static TempDir dir;
  static std::string path = dir.file("q.db");
  static bool made = false;
  if (!made) {
    write_file(dir.file("q.toml"),
               "[tournament]\nname = \"qt\"\nrounds = 2\nconcurrency = 2\nseed = 11\n"
               "maxmoves = 50\n[openings]\nrandom_plies = 4\n"
               "[[engine]]\nname = \"ab\"\nbuiltin = true\noptions = { Search = \"alphabeta\" }\n"
               "depth = 2\n"
               "[[engine]]\nname = \"greedy\"\nbuiltin = true\noptions = { Search = \"greedy\" }\n"
               "depth = 1\n"
               "[[engine]]\nname = \"rnd\"\nbuiltin = true\noptions = { Search = \"random\" }\n"
               "depth = 1\n");
    auto r = run_process({knightly_binary(), "run", dir.file("q.toml"), "--db", path, "--pgn",
                          dir.file("q.pgn"), "--quiet"});
    REQUIRE(r.exit_code == 0);
    made = true;
  }
  return path;
}

std::string query(const std::vector<std::string>& extra, int expect = 0) {
  std::vector<std::string> cmd = {knightly_binary(), "query"};
  cmd.insert(cmd.end(), extra.begin(), extra.end());
  auto r = run_process(cmd);
  INFO(r.err);
  CHECK(r.exit_code == expect);
  return r.out;
}

}  // namespace

TEST_CASE("sprt gate: a clearly stronger engine accepts H1 (exit 0), reversed H0 (exit 1)",
          "[cli][sprt]") {
  TempDir dir;
  auto h1 = run_process(sprt_cmd(dir.file("s.db"), strong, weak), 600);
  INFO(h1.out << h1.err);
  CHECK(h1.exit_code == 0);
  CHECK(h1.out.find("Decision: sprt: H1 accepted") != std::string::npos);
  CHECK(h1.out.find("Results of New vs Base (depth 2") != std::string::npos);
  CHECK(std::regex_search(
      h1.out, std::regex(R"(LLR: [0-9.]+ \([0-9.]+%\) \(-2\.94, 2\.94\) \[0\.00, 50\.00\])")));
  CHECK(h1.out.find("Ptnml(0-2): [") != std::string::npos);

  auto h0 = run_process(sprt_cmd(dir.file("s.db"), weak, strong), 600);
  INFO(h0.out << h0.err);
  CHECK(h0.exit_code == 1);
  CHECK(h0.out.find("Decision: sprt: H0 accepted") != std::string::npos);
}

TEST_CASE("sprt gate: max games reached undecided exits 3 - bad arguments exit 2", "[cli][sprt]") {
  TempDir dir;
  auto r = run_process(
      {knightly_binary(), "sprt", "--new", weak, "--base", "builtin=rnd2 option.Search=random",
       "--depth", "1", "--max-games", "4", "--db", dir.file("u.db"), "--quiet"},
      300);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 3);
  auto bad = run_process({knightly_binary(), "sprt", "--new", weak, "--depth", "1"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--base") != std::string::npos);
  auto missing = run_process({knightly_binary(), "sprt", "--new", "/no/such/engine", "--base", weak,
                              "--depth", "1", "--db", dir.file("m.db")});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("/no/such/engine") != std::string::npos);
}

TEST_CASE("query sprt reads the bounds the test was run with from the store", "[cli][sprt]") {
  TempDir dir;
  // The book's file name holds what a search of the stored command line took for bounds.
  const std::string book = dir.file("b --elo1 99 .epd");
  write_file(book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n");
  auto r = run_process({knightly_binary(),
                        "sprt",
                        "--new",
                        weak,
                        "--base",
                        "builtin=rnd2 option.Search=random",
                        "--depth",
                        "1",
                        "--max-games",
                        "4",
                        "--book",
                        book,
                        "--elo0",
                        "-2",
                        "--elo1",
                        "8",
                        "--alpha",
                        "0.1",
                        "--beta",
                        "0.2",
                        "--model",
                        "logistic",
                        "--name",
                        "bounds",
                        "--db",
                        dir.file("b.db"),
                        "--quiet"},
                       300);
  INFO(r.out << r.err);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3));  // not an error
  const std::string csv =
      query({"sprt", "--db", dir.file("b.db"), "--format", "csv", "--tournament", "bounds"});
  INFO(csv);
  CHECK(csv.find(",-2.00,8.00,0.100,0.200,logistic,") != std::string::npos);
}

TEST_CASE("sprt resumed after SIGKILL gives the LLR of the same games played in one go",
          "[cli][sprt][resume]") {
  TempDir dir;
  // concurrency 1 and seeded deterministic players: the same games in the same order.
  auto cmd = [&](const std::string& db) {
    auto c = sprt_cmd(db, strong, "builtin=greedy option.Search=greedy option.Eval=material");
    c[std::find(c.begin(), c.end(), "--concurrency") - c.begin() + 1] = "1";
    return c;
  };
  auto once = run_process(cmd(dir.file("once.db")), 600);
  REQUIRE((once.exit_code == 0 || once.exit_code == 1 || once.exit_code == 3));
  for (int i = 0; i < 3; ++i) {
    pid_t pid = spawn_background(cmd(dir.file("twice.db")));
    std::this_thread::sleep_for(std::chrono::milliseconds(300 + 200 * i));
    ::kill(pid, SIGKILL);
    wait_child(pid);
  }
  auto resumed = run_process(cmd(dir.file("twice.db")), 600);
  CHECK(resumed.exit_code == once.exit_code);
  auto llr = [](const std::string& out) {
    std::smatch m;
    REQUIRE(std::regex_search(out, m, std::regex(R"(LLR: (-?[0-9.]+))")));
    return m[1].str();
  };
  CHECK(llr(resumed.out) == llr(once.out));
  SqliteProbe a(dir.file("once.db")), b(dir.file("twice.db"));
  CHECK(a.count("SELECT count(*) FROM games") == b.count("SELECT count(*) FROM games"));
}

TEST_CASE("every query subcommand in every format against a real tournament", "[cli][query]") {
  const std::string& db = query_db();
  auto format = GENERATE(as<std::string>{}, "table", "csv", "json");
  for (const std::string sub :
       {"tournaments", "standings", "games", "h2h", "engines", "ratings", "terminations"}) {
    INFO(sub << " " << format);
    std::string out = query({sub, "--db", db, "--format", format});
    REQUIRE(!out.empty());
    if (format == "json") {
      CHECK(out.front() == '{');
      CHECK(out.find("\"" + sub + "\": [") == 1);
      CHECK(out.substr(out.size() - 3) == "]}\n");
    }
    if (format == "csv") CHECK(out.find(',') < out.find('\n'));
  }
  std::string standings = query({"standings", "--db", db, "--format", "csv"});
  CHECK(standings.find("ab,") != std::string::npos);
  // 3 engines, 2 rounds, 3 pairs of 2 games: 12 games, each engine plays 8.
  CHECK(std::regex_search(standings, std::regex(R"(\n1,ab,8,)")));
  std::string games =
      query({"games", "--db", db, "--format", "csv", "--engine", "rnd", "--result", "1-0"});
  CHECK(games.find("rnd") != std::string::npos);
  std::string ratings = query({"ratings", "--db", db, "--anchor", "rnd", "--format", "json"});
  CHECK(ratings.find("\"engine\": \"rnd\", \"rating\": 0.0") != std::string::npos);
}

TEST_CASE("query filters are bound parameters: injection text matches nothing", "[cli][query]") {
  const std::string& db = query_db();
  std::string before = read_file(db);
  // The text is a name like any other: no engine or tournament has it (exit 1, nothing printed).
  for (const auto& [flag, text] : std::vector<std::pair<std::string, std::string>>{
           {"--engine", "x' OR '1'='1"}, {"--tournament", "qt'; DROP TABLE games; --"}}) {
    auto r = run_process(
        {knightly_binary(), "query", "games", "--db", db, "--format", "csv", flag, text});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find(flag + " '" + text + "': no ") != std::string::npos);
  }
  CHECK(query({"standings", "--db", db, "--format", "csv"}).find("ab,") != std::string::npos);
  query({"nonsense", "--db", db}, 2);
  query({"standings", "--db", db + ".missing"}, 2);
  CHECK(!std::filesystem::exists(db + ".missing"));
}

TEST_CASE("import of Knightly's own PGN reproduces standings and ratings - re-import is a no-op",
          "[cli][import]") {
  const std::string& db = query_db();
  TempDir dir;
  auto exported = run_process({knightly_binary(), "export", "--db", db});
  REQUIRE(exported.exit_code == 0);
  write_file(dir.file("all.pgn"), exported.out);
  auto imp = run_process({knightly_binary(), "import", dir.file("all.pgn"), "--db",
                          dir.file("i.db"), "--tournament", "qt"});
  INFO(imp.out << imp.err);
  REQUIRE(imp.exit_code == 0);
  CHECK(imp.out.find("Imported 12 of 12 games") != std::string::npos);
  CHECK(query({"standings", "--db", dir.file("i.db"), "--format", "csv"}) ==
        query({"standings", "--db", db, "--format", "csv"}));
  CHECK(query({"ratings", "--db", dir.file("i.db"), "--format", "csv"}) ==
        query({"ratings", "--db", db, "--format", "csv"}));
  auto again = run_process({knightly_binary(), "import", dir.file("all.pgn"), "--db",
                            dir.file("i.db"), "--tournament", "qt"});
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("Imported 0 of 12 games") != std::string::npos);
  SqliteProbe p(dir.file("i.db"));
  CHECK(p.count("SELECT count(*) FROM games") == 12);
}

TEST_CASE("import of the PGN edge cases: unfinished games skipped, bad games located",
          "[cli][import]") {
  TempDir dir;
  int total = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_path("pgn"))) {
    auto r =
        run_process({knightly_binary(), "import", entry.path().string(), "--db", dir.file("e.db")});
    INFO(entry.path() << "\n" << r.out << r.err);
    CHECK((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2));
    CHECK(r.out.find("Imported ") != std::string::npos);
    if (r.err.find("result '*'") != std::string::npos)
      CHECK(r.err.find("skipped") != std::string::npos);
    if (r.exit_code != 0) CHECK(r.err.find(entry.path().filename().string()) != std::string::npos);
    ++total;
  }
  CHECK(total >= 25);
  SqliteProbe p(dir.file("e.db"));
  CHECK(p.count("SELECT count(*) FROM games") > 0);
  CHECK(p.value("PRAGMA integrity_check") == "ok");

  // A corrupted game in the middle of good ones: the good ones go in, the bad one is located.
  std::string good =
      "[Event \"t\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n"
      "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n"
      "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
  std::string bad =
      "[Event \"t\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"2\"]\n"
      "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n\n";
  std::string good2 = std::regex_replace(good, std::regex("Round \"1\""), "Round \"3\"");
  write_file(dir.file("mixed.pgn"), good + bad + good2);
  auto r =
      run_process({knightly_binary(), "import", dir.file("mixed.pgn"), "--db", dir.file("m.db")});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Imported 2 of 3 games") != std::string::npos);
  CHECK(r.err.find("game 2") != std::string::npos);
  CHECK(r.err.find("Ke3") != std::string::npos);
}
