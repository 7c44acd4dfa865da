// Secrets stay secret: a PostgreSQL password given in a URL (holding a raw '@', which libpq
// would split) appears in no output of any command, in no file they write, in no row they
// store and in no answer of `knightly serve`; engines inherit none of the database's
// credentials, neither from the environment nor from the runner's command line.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "database.h"
#include "tests/integration/serve/serve_process.h"
#include "tests/support/postgres_server.h"
#include "tests/support/process.h"

using namespace knightly::test;

namespace {

// The password's two halves around its raw '@': a masking that stops at the first '@' shows
// the tail, one that trusts libpq's split shows it in "could not translate host name".
const std::string kHead = "h3adSecret";
const std::string kTail = "t4ilSecret";
const std::string kPassword = kHead + "@" + kTail;

// A login role of its own with kPassword, and the test schema's URL logging in as it.
class SecretRole {
 public:
  explicit SecretRole(const PostgresSchema& schema) : name_("sec_" + schema.name()) {
    postgres_exec(postgres_url(),
                  "CREATE ROLE " + name_ + " LOGIN SUPERUSER PASSWORD '" + kPassword + "'");
    // postgresql://knightly:PW@127.0.0.1:PORT/knightly?options=... as the new role.
    const std::string& base = schema.url();
    const auto user = base.find("://") + 3;
    url_ = base.substr(0, user) + name_ + ":" + kPassword + base.substr(base.find('@', user));
  }
  ~SecretRole() {
    try {
      postgres_exec(postgres_url(), "DROP OWNED BY " + name_ + " CASCADE");
      postgres_exec(postgres_url(), "DROP ROLE " + name_);
    } catch (...) {
    }
  }
  const std::string& url() const { return url_; }
  // The same URL with another password (authentication fails).
  std::string wrong_url() const {
    std::string u = url_;
    return u.replace(u.find(kTail), kTail.size(), "t4ilWr0ng");
  }

 private:
  std::string name_;
  std::string url_;
};

// Where a secret leaked, or "" when it did not.
std::string leak(const std::string& what, const std::string& text) {
  for (const std::string& s : {kHead, kTail, std::string("t4ilWr0ng"), std::string("%40")})
    if (text.find(s) != std::string::npos) return what + " shows '" + s + "':\n" + text;
  return "";
}

std::string all(const ProcessResult& r) {
  return r.out + r.err;
}

const std::string kConfig =
    "[tournament]\nname = \"secret\"\nrounds = 1\ngames = 2\nseed = 5\nmaxmoves = 30\n"
    "[[engine]]\nname = \"ab\"\nbuiltin = true\noptions = { Search = \"alphabeta\" }\n"
    "depth = 1\n"
    "[[engine]]\nname = \"greedy\"\nbuiltin = true\noptions = { Search = \"greedy\" }\n";

}  // namespace

TEST_CASE("postgresql: no command shows or stores the password of its database URL",
          "[secrets][postgresql]") {
  if (auto why = postgres_absent()) {
    skip(*why);
    return;
  }
  PostgresSchema schema;
  SecretRole role(schema);
  const std::string& url = role.url();
  TempDir dir;
  write_file(dir.file("t.toml"), kConfig);
  std::vector<std::pair<std::string, std::string>> outputs;  // what, text
  const auto run = [&](const std::string& what, std::vector<std::string> argv) {
    argv.insert(argv.begin(), knightly_binary());
    auto r = run_process(argv, 300);
    outputs.emplace_back(what + " (exit " + std::to_string(r.exit_code) + ")", all(r));
    return r;
  };

  auto played = run("run", {"run", dir.file("t.toml"), "--db", url, "--pgn", dir.file("t.pgn")});
  INFO(all(played));
  REQUIRE(played.exit_code == 0);
  // It names the database, masked.
  CHECK(played.out.find(":***@127.0.0.1:") != std::string::npos);
  run("play", {"play", "-engine", "builtin=a", "option.Search=random", "depth=1", "-engine",
               "builtin=b", "option.Search=greedy", "depth=1", "-games", "2", "-db", url});
  run("query", {"query", "tournaments", "--db", url});
  run("query json", {"query", "standings", "--db", url, "--format", "json"});
  run("export", {"export", "--db", url});
  run("export of a missing tournament", {"export", "--db", url, "--tournament", "nope"});
  run("report", {"report", "--db", url, "-o", dir.file("r.html")});
  outputs.emplace_back("the report file", read_file(dir.file("r.html")));
  outputs.emplace_back("the PGN file", read_file(dir.file("t.pgn")));
  run("report of a missing tournament",
      {"report", "--db", url, "--tournament", "nope", "-o", dir.file("x.html")});
  run("serve of a missing tournament", {"serve", "--db", url, "--tournament", "nope"});
  write_file(dir.file("i.pgn"),
             "[Event \"imp\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n\n"
             "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n");
  run("import", {"import", dir.file("i.pgn"), "--db", url});
  run("stop", {"stop", "secret", "--db", url});
  run("stop of a missing tournament", {"stop", "nope", "--db", url});
  // The test queue: a config naming the URL, and knightly sprt's words with it, submitted;
  // a worker that plays them; the queue listed; every worker stopped.
  write_file(dir.file("q.toml"), std::string(kConfig).replace(kConfig.find("secret"), 6, "queued") +
                                     "[output]\ndatabase = \"" + url + "\"\n");
  auto submitted = run("submit", {"submit", dir.file("q.toml"), "--cache", dir.file("cache")});
  CHECK(submitted.exit_code == 0);
  auto sprt = run("sprt --submit",
                  {"sprt", "--new", "builtin=a option.Search=random depth=1", "--base",
                   "builtin=b option.Search=greedy depth=1", "--depth", "1", "--max-games", "2",
                   "--name", "queued-sprt", "--db", url, "--submit", "--cache", dir.file("cache")});
  CHECK(sprt.exit_code == 0);
  auto worked = run("work", {"work", "--db", url, "--until-empty", "--cache", dir.file("cache")});
  CHECK(worked.exit_code == 0);
  run("query tests", {"query", "tests", "--db", url, "--format", "json"});
  run("stop --all", {"stop", "--all", "--db", url});
  // Failures: libpq's own messages quote what they could not use.
  auto wrong = run("a wrong password", {"query", "tournaments", "--db", role.wrong_url()});
  CHECK(wrong.exit_code == 2);
  run("an unreachable port",
      {"query", "tournaments", "--db", "postgresql://u:" + kPassword + "@127.0.0.1:1/k"});
  run("a malformed URL",
      {"query", "tournaments", "--db", "postgresql://u:" + kPassword + "@127.0.0.1:x/k"});

  {
    ServeProcess serve(url, dir);
    REQUIRE(serve.port() > 0);
    for (const char* target : {"/", "/api/report", "/api/summary", "/api/query/tournaments",
                               "/api/games?limit=5", "/tests", "/api/tests", "/tests/2/api/report"})
      outputs.emplace_back(std::string("serve ") + target, get(serve.port(), "GET", target));
    serve.terminate();
    outputs.emplace_back("serve's banner", serve.output() + serve.errors());
  }
  // Every text the database holds.
  std::string stored;
  for (const auto& row :
       pg_rows(schema.url(),
               "SELECT name || ' ' || config_text || ' ' || COALESCE(decision, "
               "'') FROM tournaments UNION ALL SELECT name || ' ' || command || "
               "' ' || options FROM engines UNION ALL SELECT pgn FROM games UNION ALL "
               "SELECT definition || ' ' || source_path FROM tests"))
    stored += row.at(0) + "\n";
  CHECK(stored.find("secret") != std::string::npos);
  CHECK(stored.find("queued-sprt") != std::string::npos);
  outputs.emplace_back("the stored rows", stored);

  for (const auto& [what, text] : outputs) {
    INFO(what);
    CHECK(leak(what, text) == "");
  }
}

TEST_CASE("postgresql: engines inherit no database credentials", "[secrets][postgresql]") {
  if (auto why = postgres_absent()) {
    skip(*why);
    return;
  }
  PostgresSchema schema;
  SecretRole role(schema);
  TempDir dir;
  // The engine: a script exec'd directly that keeps what it can see, then is the mock engine.
  write_file(dir.file("dump.sh"), "#!/bin/sh\nenv > " + dir.file("env.txt") +
                                      "\ntr '\\000' ' ' < /proc/$PPID/cmdline > " +
                                      dir.file("cmdline.txt") + "\nexec " + mock_engine_binary() +
                                      " \"$@\"\n");
  REQUIRE(::chmod(dir.file("dump.sh").c_str(), 0755) == 0);
  write_file(dir.file("t.toml"),
             "[tournament]\nname = \"env\"\nrounds = 1\ngames = 2\nseed = 5\nmaxmoves = 20\n"
             "[[engine]]\nname = \"dump\"\ncommand = \"" +
                 dir.file("dump.sh") +
                 "\"\nargs = [\"--seed\", \"1\"]\ndepth = 1\n"
                 "env = { PGAPPNAME = \"given back\" }\n"
                 "[[engine]]\nname = \"greedy\"\nbuiltin = true\n"
                 "options = { Search = \"greedy\" }\n");
  // The password three ways: in the runner's environment as libpq reads it, in a variable of
  // Knightly's that the location names (env:KNIGHTLY_DB), and on the command line (--pgn is
  // after it, so what follows the URL on the command line is checked to be intact).
  auto r = run_process({"/usr/bin/env", "PGPASSWORD=" + kPassword, "KNIGHTLY_DB=" + role.url(),
                        "PGCONNECT_TIMEOUT=7", knightly_binary(), "run", dir.file("t.toml"), "--db",
                        role.url(), "--pgn", dir.file("t.pgn"), "--quiet"},
                       300);
  INFO(all(r));
  REQUIRE(r.exit_code == 0);
  const std::string env = read_file(dir.file("env.txt"));
  const std::string cmdline = read_file(dir.file("cmdline.txt"));
  INFO("engine environment:\n" << env << "\nrunner's command line: " << cmdline);
  REQUIRE_FALSE(env.empty());
  CHECK(env.find("PGPASSWORD") == std::string::npos);
  CHECK(env.find("PGCONNECT_TIMEOUT") == std::string::npos);
  CHECK(env.find("KNIGHTLY_DB") == std::string::npos);
  CHECK(env.find("PGAPPNAME=given back") != std::string::npos);  // env.NAME adds it back
  CHECK(env.find("PATH=") != std::string::npos);                 // the rest is inherited
  CHECK(leak("the engine's environment", env) == "");
  CHECK(leak("the runner's command line", cmdline) == "");
  CHECK(cmdline.find("--pgn " + dir.file("t.pgn")) != std::string::npos);

  // env:NAME: the URL from the environment, never on a command line.
  auto from_env = run_process({"/usr/bin/env", "KNIGHTLY_DB=" + role.url(), knightly_binary(),
                               "query", "tournaments", "--db", "env:KNIGHTLY_DB"});
  INFO(all(from_env));
  CHECK(from_env.exit_code == 0);
  CHECK(from_env.out.find("env") != std::string::npos);
  // file:PATH: its first line.
  write_file(dir.file("db.url"), role.url() + "\n");
  auto from_file = run_process(
      {knightly_binary(), "query", "tournaments", "--db", "file:" + dir.file("db.url")});
  CHECK(from_file.exit_code == 0);
  CHECK(from_file.out.find("env") != std::string::npos);
  CHECK(leak("env: and file:", all(from_env) + all(from_file)) == "");
  auto unset = run_process({knightly_binary(), "query", "tournaments", "--db", "env:NO_SUCH_VAR"});
  CHECK(unset.exit_code == 2);
  CHECK(unset.err.find("the environment variable NO_SUCH_VAR is not set") != std::string::npos);
}

TEST_CASE("postgresql: a missing password points at the password file", "[secrets][postgresql]") {
  if (auto why = postgres_absent()) {
    skip(*why);
    return;
  }
  PostgresSchema schema;
  SecretRole role(schema);
  std::string url = role.url();
  url.erase(url.find(":" + kPassword), kPassword.size() + 1);
  auto r = run_process({"/usr/bin/env", "-u", "PGPASSWORD", "PGPASSFILE=/nonexistent",
                        knightly_binary(), "query", "tournaments", "--db", url});
  INFO(all(r));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no password supplied") != std::string::npos);
  CHECK(r.err.find("~/.pgpass") != std::string::npos);
  CHECK(r.err.find("PGPASSFILE") != std::string::npos);
}
