// One source for every figure: the run's own output, `knightly query`, the report file and
// `knightly serve` show the same Elo, 95% bound, LLR and ratings on three databases the tests
// make: a 100% match (a real run against a mock engine that plays an illegal move every game),
// an SPRT decided by a real `knightly sprt`, and an import of two groups that never met.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <regex>
#include <thread>

#include "http_client.h"
#include "runner/report/json.h"
#include "tests/support/process.h"

using namespace knightly::test;

namespace {

class Serve {
 public:
  Serve(const std::string& db, const TempDir& dir) : out_(dir.file("serve.out")) {
    pid_ = spawn_background({knightly_binary(), "serve", "--db", db, "--bind", "127.0.0.1:0"}, "",
                            false, out_, out_ + ".err");
    REQUIRE(pid_ > 0);
    for (int i = 0; i < 300 && port_ == 0; ++i) {
      const std::string text = read_file(out_);
      const auto at = text.find("http://127.0.0.1:");
      if (at != std::string::npos && text.find('/', at + 7) != std::string::npos)
        port_ = std::stoi(text.substr(at + 17));
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    INFO(read_file(out_ + ".err"));
    REQUIRE(port_ > 0);
  }
  ~Serve() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  std::string get(const std::string& target, const std::string& status = "200") const {
    RawConnection c(port_);
    c.send("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const std::string response = c.receive([](const std::string&) { return false; });
    INFO(target << "\n" << response);
    REQUIRE(status_line(response).find(" " + status + " ") != std::string::npos);
    return body_of(response);
  }

 private:
  std::string out_;
  pid_t pid_ = -1;
  int port_ = 0;
};

std::string report_file(const std::string& db, const TempDir& dir) {
  auto r = run_process({knightly_binary(), "report", "--db", db, "-o", dir.file("r.html")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return read_file(dir.file("r.html"));
}

ProcessResult query(const std::string& db, std::vector<std::string> words) {
  std::vector<std::string> cmd{knightly_binary(), "query"};
  cmd.insert(cmd.end(), words.begin(), words.end());
  cmd.push_back("--db");
  cmd.push_back(db);
  return run_process(cmd);
}

// The first capture of `re` in `text`, "" when it does not match.
std::string find(const std::string& text, const std::string& re) {
  std::smatch m;
  return std::regex_search(text, m, std::regex(re)) ? m[1].str() : std::string();
}

// A text as the JSON documents hold it (escaped for a page's <script>), with its quotes or not.
std::string in_json(const std::string& text, bool quoted = true) {
  const std::string s = knightly::runner::report::json_string(text);
  return quoted ? s : s.substr(1, s.size() - 2);
}

std::string two_decimals(const std::string& number) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::stod(number));
  return buf;
}

}  // namespace

TEST_CASE("figures: a 100% match is +inf with the same 95% bound in run, query, report, serve",
          "[figures][report][serve][cli]") {
  TempDir dir;
  const std::string db = dir.file("p.db");
  write_file(dir.file("p.toml"),
             "[tournament]\nname = \"perfect\"\nrounds = 5\nconcurrency = 2\nseed = 5\n"
             "[openings]\nrandom_plies = 2\n"
             "[[engine]]\nname = \"good\"\nbuiltin = true\noptions = { Search = \"greedy\" }\n"
             "depth = 1\n"
             "[[engine]]\nname = \"cheat\"\ncommand = \"" +
                 mock_engine_binary() + "\"\nargs = [\"--illegal-move\"]\ndepth = 1\n");
  auto run = run_process({knightly_binary(), "run", dir.file("p.toml"), "--db", db});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // The run: "Elo difference: +inf (100% score, >= 140.2 at 95%), ... (from 5 game pairs)".
  const std::string bound = find(
      run.out,
      R"(Elo difference: \+inf \(100% score, >= ([0-9.]+) at 95%\), LOS: 100\.0 %, DrawRatio: )"
      R"(0\.0 % \(from 5 game pairs\))");
  REQUIRE_FALSE(bound.empty());
  const std::string text = "+inf (100% score, >= " + bound + " at 95%)";
  // Its standings (each engine against the field) as query standings shows them.
  const std::string engine_bound = find(run.out, R"(\n +1 +good .* \+inf +>=([0-9.]+) )");
  REQUIRE_FALSE(engine_bound.empty());
  auto standings = query(db, {"standings", "--format", "json"});
  REQUIRE(standings.exit_code == 0);
  CHECK(standings.out.find(in_json("100% score: no finite Elo; >=" + engine_bound + " at 95%",
                                   false)) != std::string::npos);
  // And the 0% engine: the same bound below, in the run, query standings and the report.
  const std::string zero_bound = find(run.out, R"(\n +2 +cheat .* -inf +<=-([0-9.]+) )");
  REQUIRE_FALSE(zero_bound.empty());
  const std::string zero_note =
      in_json("0% score: no finite Elo; <=-" + zero_bound + " at 95%", false);
  CHECK(standings.out.find(zero_note) != std::string::npos);

  // query sprt: the same estimate, in fastchess's two decimals.
  auto sprt = query(db, {"sprt", "--tournament", "perfect"});
  INFO(sprt.err);
  REQUIRE(sprt.exit_code == 0);
  const std::string sprt_bound =
      find(sprt.out, R"(\nElo: \+inf \(100% score, >= ([0-9.]+) at 95%\))");
  REQUIRE_FALSE(sprt_bound.empty());
  CHECK(std::abs(std::stod(sprt_bound) - std::stod(bound)) <= 0.05);

  // The report's Match section and its chart: the same text, never the clamped 1199.8.
  const std::string elo_text = "\"elo_text\":" + in_json(text);
  const std::string page = report_file(db, dir);
  CHECK(page.find(elo_text) != std::string::npos);
  CHECK(page.find("1199.") == std::string::npos);
  CHECK(page.find(zero_note) != std::string::npos);
  const Serve serve(db, dir);
  const std::string doc = serve.get("/api/report");
  CHECK(doc.find(elo_text) != std::string::npos);
  CHECK(doc.find("1199.") == std::string::npos);
  // The chart's last point: no Elo, its lower bound the one every output prints.
  CHECK(doc.find("[10,null," + sprt_bound + ",null]],") != std::string::npos);
  CHECK(serve.get("/api/query/standings") == standings.out);
}

TEST_CASE("figures: a finite Elo and its interval are the same in run, query, report, serve",
          "[figures][report][serve][cli]") {
  // Two builtin engines close enough to share the points (fixed depth and seed: the same
  // games every time).
  TempDir dir;
  const std::string db = dir.file("f.db");
  write_file(dir.file("f.toml"),
             "[tournament]\nname = \"finite\"\nrounds = 10\nconcurrency = 2\nseed = 7\n"
             "[openings]\nrandom_plies = 4\n"
             "[[engine]]\nname = \"pst\"\nbuiltin = true\n"
             "options = { Search = \"alphabeta\", Eval = \"material+pst\" }\ndepth = 2\n"
             "[[engine]]\nname = \"mat\"\nbuiltin = true\n"
             "options = { Search = \"alphabeta\", Eval = \"material\", EvalNoise = \"50\" }\n"
             "depth = 2\n");
  auto run = run_process({knightly_binary(), "run", dir.file("f.toml"), "--db", db});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // The match's estimate: "Elo difference: 168.3 +/- 119.4, LOS: ...".
  std::smatch m;
  REQUIRE(std::regex_search(run.out, m,
                            std::regex(R"(Elo difference: ([0-9.+-]+) \+/- ([0-9.]+), LOS)")));
  const double elo = std::stod(m[1]), interval = std::stod(m[2]);
  REQUIRE(std::isfinite(elo));
  CHECK(std::abs(elo) < 1000);
  CHECK(interval > 0);
  const std::string text = m[1].str() + " +/- " + m[2].str();

  // query sprt: the same, in two decimals.
  auto sprt = query(db, {"sprt", "--tournament", "finite"});
  REQUIRE(sprt.exit_code == 0);
  REQUIRE(std::regex_search(sprt.out, m, std::regex(R"(\nElo: ([0-9.+-]+) \+/- ([0-9.]+),)")));
  CHECK(std::abs(std::stod(m[1]) - elo) <= 0.05);
  CHECK(std::abs(std::stod(m[2]) - interval) <= 0.05);

  // The standings row of each engine, as the run printed it, is query's.
  auto standings = query(db, {"standings", "--format", "json"});
  REQUIRE(standings.exit_code == 0);
  for (const char* engine : {"pst", "mat"}) {
    std::smatch row;
    REQUIRE(std::regex_search(
        run.out, row,
        std::regex(std::string(R"(\n +[12] +)") + engine + R"( .* ([0-9.-]+) +([0-9.]+)\n)")));
    INFO(engine);
    CHECK(std::regex_search(standings.out, std::regex(std::string("\"engine\": \"") + engine +
                                                      "\".*\"elo\": " + row[1].str() +
                                                      ", \"elo95\": " + row[2].str())));
  }

  // The report and serve: the run's text, and serve's standings are query's.
  const std::string elo_text = "\"elo_text\":" + in_json(text);
  CHECK(report_file(db, dir).find(elo_text) != std::string::npos);
  const Serve serve(db, dir);
  CHECK(serve.get("/api/report").find(elo_text) != std::string::npos);
  CHECK(serve.get("/api/query/standings") == standings.out);
}

TEST_CASE("figures: a decided SPRT shows the LLR at its decision in run, query, report, serve",
          "[figures][report][serve][cli][sprt]") {
  TempDir dir;
  const std::string db = dir.file("s.db");
  auto run = run_process({knightly_binary(), "sprt", "--new",
                          "builtin=ab option.Search=alphabeta option.Eval=material+pst", "--base",
                          "builtin=rnd option.Search=random", "--depth", "2", "--elo0", "0",
                          "--elo1", "50", "--concurrency", "3", "--db", db, "--max-games", "400"},
                         600);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::string decided = find(run.out, R"(Decision: sprt: H1 accepted \(LLR ([0-9.-]+) >=)");
  REQUIRE_FALSE(decided.empty());
  // One final block: one LLR line, one DrawRatio, and its LLR is the decision's.
  CHECK(find(run.out, R"(\nLLR: ([0-9.-]+) )") == decided);
  CHECK(std::regex_search(run.out, std::regex("DrawRatio")));
  CHECK(run.out.find("DrawRatio") == run.out.rfind("DrawRatio"));
  CHECK(run.out.find("\nLLR: ") == run.out.rfind("\nLLR: "));

  // `query sprt` finds the only SPRT by itself, with the header filled from the stored test.
  auto table = query(db, {"sprt"});
  INFO(table.err);
  REQUIRE(table.exit_code == 0);
  CHECK(find(table.out, R"(LLR: ([0-9.-]+) )") == decided);
  CHECK(table.out.find("Results of New vs Base (depth 2, 1t, NULL):") != std::string::npos);
  CHECK(table.out.find("(, NULL, NULL)") == std::string::npos);
  auto json = query(db, {"sprt", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK(two_decimals(find(json.out, R"("llr": ([0-9.-]+))")) == decided);

  const std::string page = report_file(db, dir);
  CHECK(two_decimals(find(page, R"("llr":([0-9.-]+),"decision")")) == decided);
  const Serve serve(db, dir);
  CHECK(two_decimals(find(serve.get("/api/report"), R"("llr":([0-9.-]+),"decision")")) == decided);
  CHECK(serve.get("/api/query/sprt") == json.out);
}

TEST_CASE("figures: two groups that never met are rated per group in query, report and serve",
          "[figures][report][serve][cli][ratings]") {
  TempDir dir;
  const std::string db = dir.file("i.db");
  std::string pgn;
  int round = 0;
  auto game = [&](const std::string& white, const std::string& black, const std::string& result) {
    pgn += "[Event \"groups\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"" +
           std::to_string(++round) + "\"]\n[White \"" + white + "\"]\n[Black \"" + black +
           "\"]\n[Result \"" + result + "\"]\n\n1. e4 e5 " + result + "\n\n";
  };
  for (int i = 0; i < 3; ++i) {
    game("alpha", "beta", "1-0");
    game("beta", "alpha", "1/2-1/2");
    game("gamma", "delta", "0-1");
    game("delta", "gamma", "1/2-1/2");
    game("gamma", "delta", "1-0");
  }
  write_file(dir.file("g.pgn"), pgn);
  auto imported = run_process({knightly_binary(), "import", dir.file("g.pgn"), "--db", db});
  INFO(imported.out << imported.err);
  REQUIRE(imported.exit_code == 0);

  auto ratings = query(db, {"ratings", "--format", "json"});
  INFO(ratings.err);
  REQUIRE(ratings.exit_code == 0);
  for (const char* name : {"alpha", "beta", "gamma", "delta"})
    CHECK(ratings.out.find(std::string("\"engine\": \"") + name + "\"") != std::string::npos);
  CHECK(ratings.out.find("\"group\": 1") != std::string::npos);
  CHECK(ratings.out.find("\"group\": 2") != std::string::npos);
  auto table = query(db, {"ratings"});
  // Two groups of two: the tie goes to the group of the first engine seen (alpha).
  CHECK(table.err.find("group 1: alpha, beta") != std::string::npos);
  const auto group2 = table.err.find("group 2: ");
  REQUIRE(group2 != std::string::npos);
  CHECK(table.err.find("gamma", group2) != std::string::npos);
  CHECK(table.err.find("delta", group2) != std::string::npos);
  CHECK(table.err.find("not connected") == std::string::npos);

  const std::string page = report_file(db, dir);
  CHECK(page.find("\"ratings\":" + ratings.out) != std::string::npos);
  const Serve serve(db, dir);
  CHECK(serve.get("/api/query/ratings") == ratings.out);
  CHECK(serve.get("/api/report").find("\"ratings\":" + ratings.out) != std::string::npos);
}

TEST_CASE("figures: serve's /api/query takes --merge-by-name as the command does",
          "[figures][serve][cli][query]") {
  TempDir dir;
  const std::string db = dir.file("m.db");
  // The same name at two depths: two players, unless merged by name.
  for (int depth : {1, 2}) {
    const std::string name = "d" + std::to_string(depth);
    write_file(
        dir.file(name + ".toml"),
        "[tournament]\nname = \"" + name +
            "\"\nrounds = 1\nconcurrency = 2\nseed = 3\nmaxmoves = 30\n"
            "[openings]\nrandom_plies = 2\n"
            "[[engine]]\nname = \"ab\"\nbuiltin = true\noptions = { Search = \"alphabeta\" }\n"
            "depth = " +
            std::to_string(depth) +
            "\n[[engine]]\nname = \"rnd\"\nbuiltin = true\noptions = { Search = \"random\" }\n"
            "depth = 1\n");
    auto r =
        run_process({knightly_binary(), "run", dir.file(name + ".toml"), "--db", db, "--quiet"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
  }
  const Serve serve(db, dir);
  for (const char* what : {"standings", "h2h", "ratings"}) {
    INFO(what);
    auto apart = query(db, {what, "--format", "json"});
    auto merged = query(db, {what, "--format", "json", "--merge-by-name"});
    REQUIRE(apart.exit_code == 0);
    REQUIRE(merged.exit_code == 0);
    CHECK(apart.out.find("ab (depth 2)") != std::string::npos);
    CHECK(merged.out.find("(depth") == std::string::npos);
    const std::string path = std::string("/api/query/") + what;
    CHECK(serve.get(path) == apart.out);
    CHECK(serve.get(path + "?merge-by-name") == merged.out);
    CHECK(serve.get(path + "?merge-by-name=1") == merged.out);
    CHECK(serve.get(path + "?merge-by-name=true&tournament=d2&tournament=d1") ==
          query(db, {what, "--format", "json", "--merge-by-name", "--tournament", "d2",
                     "--tournament", "d1"})
              .out);
    CHECK(serve.get(path + "?merge-by-name=0") == apart.out);
  }
  CHECK(serve.get("/api/query/standings?merge-by-name=yes", "400").find("merge-by-name") !=
        std::string::npos);
  // A switch of the command that does not apply to the kind is refused as the command does.
  CHECK(serve.get("/api/query/games?merge-by-name", "400").find("does not apply") !=
        std::string::npos);
}
