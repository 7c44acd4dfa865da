// `knightly report` and `knightly serve` as processes over a database made by a real run: the
// embedded and served tables are `knightly query --format json`'s own text, names with markup,
// quotes and backslashes stay escaped, bad arguments end with a message and exit 2.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

#include "db/store/store.h"
#include "http_client.h"
#include "serve_process.h"
#include "tests/support/postgres_server.h"
#include "tests/support/process.h"

using namespace knightly::test;

namespace {

// Engine names that must never turn into markup or break a JSON string.
const std::string kScript = "<script>alert(1)</script>";

// A real run of two builtin engines with hostile names into `db` (a file or a URL).
void hostile_run(const TempDir& dir, const std::string& db) {
  write_file(dir.file("h.toml"),
             "[tournament]\nname = \"hostile\"\nrounds = 2\nconcurrency = 2\nseed = 3\n"
             "maxmoves = 40\n[openings]\nrandom_plies = 2\n"
             "[[engine]]\nname = \"<script>alert(1)</script>\"\nbuiltin = true\n"
             "options = { Search = \"random\" }\ndepth = 1\n"
             "[[engine]]\nname = \"q\\\"uote\\\\slash\"\nbuiltin = true\n"
             "options = { Search = \"greedy\" }\ndepth = 1\n");
  auto r = run_process({knightly_binary(), "run", dir.file("h.toml"), "--db", db, "--quiet"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

// The SQLite database of hostile_run (made once).
const std::string& hostile_db() {
  static TempDir dir;
  static std::string path = dir.file("h.db");
  static bool made = false;
  if (!made) {
    hostile_run(dir, path);
    made = true;
  }
  return path;
}

std::string query_json(const std::string& db, const std::string& what) {
  auto r = run_process({knightly_binary(), "query", what, "--db", db, "--format", "json"});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

}  // namespace

TEST_CASE("report: the page embeds knightly query's JSON and escapes hostile names",
          "[report][cli]") {
  TempDir dir;
  const std::string& db = hostile_db();
  auto r = run_process({knightly_binary(), "report", "--db", db, "-o", dir.file("r.html")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("wrote " + dir.file("r.html")) != std::string::npos);
  const std::string page = read_file(dir.file("r.html"));
  for (const char* what : {"standings", "h2h", "terminations", "ratings"}) {
    INFO(what);
    CHECK(page.find(std::string("\"") + what + "\":" + query_json(db, what)) != std::string::npos);
  }
  CHECK(page.find(kScript) == std::string::npos);
  CHECK(page.find("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e") != std::string::npos);
  CHECK(page.find("q\\\"uote\\\\slash") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("r.html.tmp")));
}

TEST_CASE("report: bad arguments and missing things end with a message and exit 2",
          "[report][cli]") {
  TempDir dir;
  const std::string& db = hostile_db();
  auto no_output = run_process({knightly_binary(), "report", "--db", db});
  CHECK(no_output.exit_code == 2);
  CHECK(no_output.err.find("-o FILE") != std::string::npos);
  auto no_db = run_process(
      {knightly_binary(), "report", "--db", dir.file("none.db"), "-o", dir.file("x.html")});
  CHECK(no_db.exit_code == 2);
  CHECK(no_db.err.find(dir.file("none.db")) != std::string::npos);
  auto no_tournament = run_process(
      {knightly_binary(), "report", "--db", db, "--tournament", "nope", "-o", dir.file("x.html")});
  CHECK(no_tournament.exit_code == 2);
  CHECK(no_tournament.err.find("no tournament 'nope'") != std::string::npos);
  auto bad_dir =
      run_process({knightly_binary(), "report", "--db", db, "-o", dir.file("no/such/dir/x.html")});
  CHECK(bad_dir.exit_code == 2);
  CHECK(bad_dir.err.find("cannot write " + dir.file("no/such/dir/x.html")) != std::string::npos);
  auto bad_flag = run_process({knightly_binary(), "report", "--db", db, "--frobnicate", "1"});
  CHECK(bad_flag.exit_code == 2);
  CHECK(bad_flag.err.find("unknown option '--frobnicate'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("x.html")));
}

TEST_CASE("serve: the API answers as knightly query does, 404, 405, SIGTERM stops it",
          "[serve][cli]") {
  TempDir dir;
  const std::string& db = hostile_db();
  ServeProcess serve(db, dir);
  REQUIRE(serve.port() > 0);
  for (const char* what : {"standings", "h2h", "terminations", "tournaments"}) {
    INFO(what);
    const std::string r = get(serve.port(), "GET", std::string("/api/query/") + what);
    CHECK(status_line(r) == "HTTP/1.1 200 OK");
    CHECK(body_of(r) == query_json(db, what));
  }
  // The game list is bounded: 1000 rows unless asked for fewer (or more, up to 100000).
  const auto games_json = run_process(
      {knightly_binary(), "query", "games", "--db", db, "--format", "json", "--limit", "1000"});
  CHECK(body_of(get(serve.port(), "GET", "/api/query/games")) == games_json.out);
  CHECK(status_line(get(serve.port(), "GET", "/api/query/games?limit=0")) ==
        "HTTP/1.1 400 Bad Request");
  const std::string page = get(serve.port(), "GET", "/");
  CHECK(status_line(page) == "HTTP/1.1 200 OK");
  CHECK(page.find("Content-Type: text/html; charset=utf-8") != std::string::npos);
  CHECK(page.find("Content-Security-Policy: default-src 'none'") != std::string::npos);
  CHECK(body_of(page).find(kScript) == std::string::npos);
  CHECK(body_of(page).find("data-mode=\"live\"") != std::string::npos);

  const std::string head = get(serve.port(), "HEAD", "/api/query/standings");
  CHECK(status_line(head) == "HTTP/1.1 200 OK");
  CHECK(body_of(head).empty());
  CHECK(head.find("Content-Length: " + std::to_string(query_json(db, "standings").size())) !=
        std::string::npos);

  CHECK(status_line(get(serve.port(), "GET", "/nope")) == "HTTP/1.1 404 Not Found");
  CHECK(status_line(get(serve.port(), "GET", "/api/game/999999")) == "HTTP/1.1 404 Not Found");
  CHECK(status_line(get(serve.port(), "GET", "/api/query/drop")) == "HTTP/1.1 404 Not Found");
  const std::string echo = get(serve.port(), "GET", "/%3Cscript%3Ealert(1)%3C/script%3E");
  CHECK(status_line(echo) == "HTTP/1.1 404 Not Found");
  CHECK(echo.find(kScript) == std::string::npos);
  CHECK(echo.find("Content-Type: application/json") != std::string::npos);
  for (const char* method : {"POST", "PUT", "DELETE"})
    CHECK(status_line(get(serve.port(), method, "/api/query/standings")) ==
          "HTTP/1.1 405 Method Not Allowed");
  const std::string bad = get(serve.port(), "GET", "/api/query/standings?db=/etc/passwd");
  CHECK(status_line(bad) == "HTTP/1.1 400 Bad Request");
  CHECK(body_of(bad).find("unknown parameter 'db'") != std::string::npos);

  // One game: the final position is the chess rules' replay of the stored moves.
  const std::string games = body_of(get(serve.port(), "GET", "/api/games?limit=1"));
  const auto at = games.find("\"id\":");
  REQUIRE(at != std::string::npos);
  const std::string id = std::to_string(std::stoll(games.substr(at + 5)));
  const std::string game = body_of(get(serve.port(), "GET", "/api/game/" + id));
  CHECK(game.find("\"final_fen\":\"") != std::string::npos);
  CHECK(game.find("\"replay_error\":\"\"") != std::string::npos);

  CHECK(serve.terminate() == 0);
  CHECK(serve.output().find("knightly: serve: stopped") != std::string::npos);
}

TEST_CASE("serve: bad arguments end with a message and exit 2", "[serve][cli]") {
  TempDir dir;
  auto name =
      run_process({knightly_binary(), "serve", "--db", hostile_db(), "--bind", "localhost:8080"});
  CHECK(name.exit_code == 2);
  CHECK(name.err.find("'localhost' is not an IPv4 address") != std::string::npos);
  auto no_db = run_process({knightly_binary(), "serve", "--db", dir.file("none.db")});
  CHECK(no_db.exit_code == 2);
  CHECK(no_db.err.find(dir.file("none.db")) != std::string::npos);
  // A port already taken: the serve started here holds one.
  ServeProcess first(hostile_db(), dir);
  REQUIRE(first.port() > 0);
  auto clash = run_process({knightly_binary(), "serve", "--db", hostile_db(), "--bind",
                            "127.0.0.1:" + std::to_string(first.port())});
  CHECK(clash.exit_code == 2);
  CHECK(clash.err.find("cannot listen on 127.0.0.1:" + std::to_string(first.port())) !=
        std::string::npos);
}

TEST_CASE("postgresql: report and serve over a PostgreSQL database", "[report][serve][cli]") {
  if (auto why = postgres_absent()) {
    skip(*why);
    return;
  }
  PostgresSchema schema;
  TempDir dir;
  hostile_run(dir, schema.url());
  auto r =
      run_process({knightly_binary(), "report", "--db", schema.url(), "-o", dir.file("p.html")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string page = read_file(dir.file("p.html"));
  CHECK(page.find("\"standings\":" + query_json(schema.url(), "standings")) != std::string::npos);
  CHECK(page.find("\"games_total\":4,") != std::string::npos);
  CHECK(page.find(kScript) == std::string::npos);
  // The page holds each game's replay: the chess rules accepted every stored move.
  CHECK(page.find("\"replay_error\":\"\"") != std::string::npos);
  CHECK(page.find("\"replay_error\":\"ply") == std::string::npos);

  ServeProcess serve(schema.url(), dir);
  REQUIRE(serve.port() > 0);
  const std::string standings = get(serve.port(), "GET", "/api/query/standings");
  CHECK(status_line(standings) == "HTTP/1.1 200 OK");
  CHECK(body_of(standings) == query_json(schema.url(), "standings"));
  const std::string summary = body_of(get(serve.port(), "GET", "/api/summary"));
  CHECK(summary.find("\"name\":\"hostile\",\"kind\":\"run\",\"status\":\"finished\"") !=
        std::string::npos);
  CHECK(status_line(get(serve.port(), "GET", "/")) == "HTTP/1.1 200 OK");
  CHECK(serve.terminate() == 0);
}

namespace {

// A database of `n` games (no moves: the game list is what is heavy), written in one
// transaction through the real store.
void many_games(const std::string& path, int n) {
  auto store = knightly::db::Store::open(path);
  REQUIRE(store);
  const auto t =
      store->catalog().create_tournament({"many", knightly::db::TournamentKind::Import, "", 1, ""});
  const auto a = store->catalog().upsert_engine({"engine-a", "", "", "", "", "", false});
  const auto b = store->catalog().upsert_engine({"engine-b", "", "", "", "", "", false});
  std::vector<knightly::db::ImportItem> items(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto& item = items[static_cast<std::size_t>(i)];
    item.record.white = i % 2 ? "engine-a" : "engine-b";
    item.record.black = i % 2 ? "engine-b" : "engine-a";
    item.record.result = knightly::Result::Draw;
    item.record.reason = "Draw by adjudication";
    item.record.start_time = "2026-11-27T10:00:00Z";
    item.white_engine_id = i % 2 ? a : b;
    item.black_engine_id = i % 2 ? b : a;
    item.dedup_key = std::to_string(i);
  }
  store->games().import_games(t.id, items);
}

// The server's resident memory now, from /proc.
long rss_kb(pid_t pid) {
  const std::string status = read_file("/proc/" + std::to_string(pid) + "/status");
  const auto at = status.find("VmRSS:");
  return at == std::string::npos ? -1 : std::stol(status.substr(at + 6));
}

}  // namespace

TEST_CASE("serve: 200 distinct heavy queries leave its memory bounded", "[serve][cli]") {
  TempDir dir;
  many_games(dir.file("m.db"), 20000);
  ServeProcess serve(dir.file("m.db"), dir);
  REQUIRE(serve.port() > 0);
  // One heavy answer (every game, a few MB of JSON) to warm up, then the baseline.
  const std::string first = get(serve.port(), "GET", "/api/query/games?limit=100000");
  REQUIRE(status_line(first) == "HTTP/1.1 200 OK");
  REQUIRE(body_of(first).size() > 2000000);
  const long before = rss_kb(serve.pid());
  REQUIRE(before > 0);
  // 200 answers nobody asked for before, each as large: the cache keeps what fits its bytes.
  // Under AddressSanitizer, whose RSS is not the program's (below), 20 show it still answers:
  // 200 took two and a half minutes of the sanitizer run's ten.
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kAnswers = 20;
#else
  constexpr int kAnswers = 200;
#endif
  for (int i = 0; i < kAnswers; ++i) {
    const std::string r =
        get(serve.port(), "GET", "/api/query/games?limit=" + std::to_string(99999 - i));
    REQUIRE(status_line(r) == "HTTP/1.1 200 OK");
  }
  const long after = rss_kb(serve.pid());
  INFO("RSS " << before << " KB after one heavy answer, " << after << " KB after 200 more");
  // Held, 200 answers would be a gigabyte.
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer keeps freed memory in quarantine (256 MB by default): RSS measures it,
  // not the program. The bound is checked in the release build.
  WARN("RSS bound not checked under AddressSanitizer");
#else
  CHECK(after < before + 150 * 1024);
#endif
  CHECK(serve.terminate() == 0);
}

TEST_CASE("serve: a foreign Host is refused, an allowed one served", "[serve][cli]") {
  TempDir dir;
  ServeProcess serve(hostile_db(), dir, {"--allow-host", "knightly.lab.example"});
  REQUIRE(serve.port() > 0);
  const auto with_host = [&](const std::string& host, const std::string& target,
                             const std::string& more = "") {
    RawConnection c(serve.port());
    c.send("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + more +
           "Connection: close\r\n\r\n");
    return c.receive([](const std::string&) { return false; });
  };
  const std::string local = "localhost:" + std::to_string(serve.port());
  // The API, the test queue's list and its data, and a test's own pages: one check for all.
  for (const char* target : {"/api/query/standings", "/tests", "/api/tests", "/tests/1/"}) {
    INFO(target);
    const std::string foreign = with_host("attacker.example", target);
    CHECK(status_line(foreign) == "HTTP/1.1 403 Forbidden");
    CHECK(foreign.find("Content-Type: application/json") != std::string::npos);
    CHECK(body_of(foreign).find("engine") == std::string::npos);  // no data
    // Another site's page aiming at it through the browser: refused before anything is read.
    CHECK(status_line(with_host(local, target, "Sec-Fetch-Site: cross-site\r\n")) ==
          "HTTP/1.1 403 Forbidden");
  }
  CHECK(status_line(with_host("knightly.lab.example:8080", "/api/query/standings")) ==
        "HTTP/1.1 200 OK");
  CHECK(status_line(with_host(local, "/api/query/standings")) == "HTTP/1.1 200 OK");
  CHECK(status_line(with_host(local, "/api/tests")) == "HTTP/1.1 200 OK");
  CHECK(status_line(with_host(local, "/tests", "Sec-Fetch-Site: same-origin\r\n")) ==
        "HTTP/1.1 200 OK");
  // A test that is not there: a JSON error, as everywhere else.
  const std::string missing = with_host(local, "/tests/1/");
  CHECK(status_line(missing) == "HTTP/1.1 404 Not Found");
  CHECK(missing.find("Content-Type: application/json") != std::string::npos);
}

TEST_CASE("serve: while the database cannot be read every error is JSON naming no SQL",
          "[serve][cli]") {
  TempDir dir;
  std::filesystem::copy_file(hostile_db(), dir.file("bad.db"));
  ServeProcess serve(dir.file("bad.db"), dir);
  REQUIRE(serve.port() > 0);
  REQUIRE(status_line(get(serve.port(), "GET", "/api/query/standings")) == "HTTP/1.1 200 OK");
  // The file emptied under it (a disk that failed, a copy gone wrong): every read fails.
  std::filesystem::resize_file(dir.file("bad.db"), 0);
  // Answers not computed before must read the database.
  // The test queue's list, its data and a test's own API too.
  for (const char* target : {"/api/query/h2h?engine=x", "/api/games?limit=7", "/api/game/1",
                             "/api/tests", "/tests", "/tests/1/api/summary"}) {
    INFO(target);
    const std::string r = get(serve.port(), "GET", target);
    CHECK(status_line(r) == "HTTP/1.1 503 Service Unavailable");
    CHECK(r.find("Content-Type: application/json") != std::string::npos);
    CHECK(body_of(r).starts_with("{\"error\":\"the database cannot be read now"));
    for (const char* sql : {"SELECT", "FROM", "WHERE", "bad.db", "tests q"})
      CHECK(body_of(r).find(sql) == std::string::npos);
  }
  CHECK(serve.terminate() == 0);
}

TEST_CASE("postgresql: serve's errors while its schema is gone are JSON naming no SQL",
          "[serve][cli]") {
  if (auto why = postgres_absent()) {
    skip(*why);
    return;
  }
  auto schema = std::make_unique<PostgresSchema>();
  TempDir dir;
  hostile_run(dir, schema->url());
  const std::string url = schema->url();
  ServeProcess serve(url, dir);
  REQUIRE(serve.port() > 0);
  REQUIRE(status_line(get(serve.port(), "GET", "/api/query/standings")) == "HTTP/1.1 200 OK");
  schema.reset();  // DROP SCHEMA ... CASCADE: every table gone
  for (const char* target : {"/api/query/h2h?engine=x", "/api/games?limit=7"}) {
    INFO(target);
    const std::string r = get(serve.port(), "GET", target);
    CHECK(status_line(r) == "HTTP/1.1 503 Service Unavailable");
    CHECK(r.find("Content-Type: application/json") != std::string::npos);
    for (const char* sql : {"SELECT", "FROM", "relation", "LINE 1"})
      CHECK(body_of(r).find(sql) == std::string::npos);
  }
  CHECK(serve.terminate() == 0);
}
