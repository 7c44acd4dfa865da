// Limits hold and outputs stay sound: a schedule too large to play (10,000 engines, a billion
// rounds) is refused with the key and the bound, exit 2, before any file is written; one that
// is large but allowed is written in batches that a signal interrupts; a PGN file has one
// writing tournament; and what reaches the terminal from files is printable.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <thread>

#include "sqlite_probe.h"
#include "tests/support/process.h"

using namespace knightly::test;

namespace {

std::string engines_config(int engines, long long rounds, const std::string& name = "big") {
  std::string text = "[tournament]\nname = \"" + name + "\"\nrounds = " + std::to_string(rounds) +
                     "\ngames = 2\nseed = 1\nmaxmoves = 10\n";
  for (int i = 0; i < engines; ++i)
    text += "[[engine]]\nname = \"e" + std::to_string(i) +
            "\"\nbuiltin = true\noptions = { Search = \"random\" }\ndepth = 1\n";
  return text;
}

}  // namespace

TEST_CASE("a schedule over the bound is refused naming the key and the limit, nothing written",
          "[cli][limits]") {
  TempDir dir;
  const auto refused = [&](const std::string& config, const std::string& expected) {
    write_file(dir.file("t.toml"), config);
    auto r = run_process({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("t.db"),
                          "--pgn", dir.file("t.pgn")},
                         120);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK(r.err.find("bad_alloc") == std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir.file("t.db")));
    CHECK_FALSE(std::filesystem::exists(dir.file("t.pgn")));
  };
  refused(engines_config(10000, 1), "engine: 10000 engines: a tournament has at most 1000");
  refused(engines_config(2, 1000000000),
          "tournament.rounds: 1000000000 rounds of 1 encounter of 2 games make 1000000000 pairs "
          "of games: a tournament has at most 1000000");
  refused(engines_config(1000, 5),
          "tournament.rounds: 5 rounds of 499500 encounters of 2 games make 2497500 pairs of "
          "games: a tournament has at most 1000000");

  // A play command line, the same.
  auto play =
      run_process({knightly_binary(), "play", "-engine", "builtin=a", "option.Search=random",
                   "depth=1", "-engine", "builtin=b", "option.Search=random", "depth=1", "-rounds",
                   "1000000000", "-games", "2", "-db", dir.file("p.db")});
  INFO(play.out << play.err);
  CHECK(play.exit_code == 2);
  CHECK(play.err.find("1000000000 pairs of games: a tournament has at most 1000000") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("p.db")));
}

TEST_CASE("a large schedule is written in batches that SIGTERM interrupts", "[cli][limits]") {
  TempDir dir;
  // 1000 engines, one game pair each: 499,500 pairs to record before the first game.
  write_file(dir.file("t.toml"), engines_config(1000, 1));
  const std::string db = dir.file("t.db");
  const pid_t pid =
      spawn_background({knightly_binary(), "run", dir.file("t.toml"), "--db", db, "--quiet"}, "",
                       false, dir.file("out"), dir.file("err"));
  const auto pairs = [&]() -> long long {
    try {
      SqliteProbe p(db);
      return p.count("SELECT count(*) FROM pairs");
    } catch (...) {
      return 0;  // not created yet
    }
  };
  // Until the first batches are in.
  for (int i = 0; i < 6000 && pairs() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const long long before = pairs();
  ::kill(pid, SIGTERM);
  int signal = 0;
  const int code = wait_child(pid, &signal);
  INFO(read_file(dir.file("out")) << read_file(dir.file("err")));
  CHECK(before > 0);
  CHECK(code == 143);
  const long long written = pairs();
  CHECK(written < 499500);  // stopped between batches, not after all of them
  CHECK(written % 10000 == 0);
  SqliteProbe p(db);
  CHECK(p.count("SELECT count(*) FROM games") == 0);
}

TEST_CASE("a second tournament naming a PGN file in use is refused by name", "[cli][pgn]") {
  TempDir dir;
  // A match that lasts: mock engines thinking 100 ms a move.
  const std::string mock = mock_engine_binary();
  const auto config = [&](const std::string& name) {
    return "[tournament]\nname = \"" + name +
           "\"\nrounds = 20\ngames = 2\nseed = 3\nmaxmoves = 40\n"
           "[[engine]]\nname = \"m1\"\ncommand = \"" +
           mock + "\"\nargs = [\"--seed\", \"1\", \"--delay\", \"100\"]\ndepth = 1\n" +
           "[[engine]]\nname = \"m2\"\ncommand = \"" + mock +
           "\"\nargs = [\"--seed\", \"2\", \"--delay\", \"100\"]\ndepth = 1\n";
  };
  write_file(dir.file("a.toml"), config("first"));
  write_file(dir.file("b.toml"), config("second"));
  const std::string pgn = dir.file("shared.pgn");
  const pid_t first = spawn_background({knightly_binary(), "run", dir.file("a.toml"), "--db",
                                        dir.file("a.db"), "--pgn", pgn, "--quiet"},
                                       "", false, dir.file("a.out"), dir.file("a.err"));
  // Until the first holds the file.
  for (int i = 0; i < 3000 && read_file(pgn + ".writer").empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  // Another tournament (another database, or the same one) naming the same file.
  for (const std::string& db : {dir.file("b.db"), dir.file("a.db")}) {
    auto second = run_process(
        {knightly_binary(), "run", dir.file("b.toml"), "--db", db, "--pgn", pgn, "--quiet"}, 60);
    INFO(second.out << second.err);
    CHECK(second.exit_code == 2);
    CHECK(second.err.find(pgn + " is being written by tournament 'first' (database " +
                          dir.file("a.db") + ")") != std::string::npos);
    CHECK(second.err.find("another file (--pgn, -pgnout, [output] pgn)") != std::string::npos);
  }
  // A play command line too.
  auto play =
      run_process({knightly_binary(), "play", "-engine", "builtin=a", "option.Search=random",
                   "depth=1", "-engine", "builtin=b", "option.Search=random", "depth=1", "-games",
                   "2", "-db", dir.file("c.db"), "-pgnout", pgn},
                  60);
  CHECK(play.exit_code == 2);
  CHECK(play.err.find("is being written by tournament 'first'") != std::string::npos);
  // Its EPD output naming the file: the refusal names the options that name that file.
  auto epd =
      run_process({knightly_binary(), "play", "-engine", "builtin=a", "option.Search=random",
                   "depth=1", "-engine", "builtin=b", "option.Search=random", "depth=1", "-games",
                   "2", "-db", dir.file("d.db"), "-pgnout", dir.file("d.pgn"), "-epdout", pgn},
                  60);
  INFO(epd.err);
  CHECK(epd.exit_code == 2);
  CHECK(epd.err.find(pgn + " is being written by tournament 'first'") != std::string::npos);
  CHECK(epd.err.find("another file (-epdout, [output] epd)") != std::string::npos);
  // A second worker of the same tournament shares it: it plays (until the stop), exit 3.
  const pid_t helper = spawn_background({knightly_binary(), "run", dir.file("a.toml"), "--db",
                                         dir.file("a.db"), "--pgn", pgn, "--quiet"},
                                        "", false, dir.file("h.out"), dir.file("h.err"));
  const auto playing = [&] {
    try {
      SqliteProbe p(dir.file("a.db"));
      return p.count("SELECT count(DISTINCT worker_id) FROM pairs WHERE state = 'leased'");
    } catch (...) {
      return 0LL;
    }
  };
  for (int i = 0; i < 3000 && playing() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(playing() == 2);
  auto stop = run_process({knightly_binary(), "stop", "first", "--db", dir.file("a.db")});
  CHECK(stop.exit_code == 0);
  int signal = 0;
  CHECK(wait_child(first, &signal) == 3);
  INFO(read_file(dir.file("h.out")) << read_file(dir.file("h.err")));
  CHECK(wait_child(helper, &signal) == 3);
  // The file holds the first tournament's games, and only those.
  const std::string text = read_file(pgn);
  CHECK(text.find("[Event \"first\"]") != std::string::npos);
  CHECK(text.find("[Event \"second\"]") == std::string::npos);
}

TEST_CASE("bytes from a book reach the terminal escaped, never raw", "[cli][printable]") {
  TempDir dir;
  // A FEN tag holding an OSC that retitles the terminal and a CSI that clears it.
  const std::string hostile = "\x1b]0;pwned\x07\x1b[2J";
  write_file(dir.file("book.pgn"),
             "[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"" + hostile + "\"]\n\n1. e4 1-0\n");
  write_file(dir.file("t.toml"), "[tournament]\nname = \"esc\"\nrounds = 1\n[openings]\nfile = \"" +
                                     dir.file("book.pgn") +
                                     "\"\nformat = \"pgn\"\n"
                                     "[[engine]]\nname = \"a\"\nbuiltin = true\ndepth = 1\n"
                                     "[[engine]]\nname = \"b\"\nbuiltin = true\ndepth = 1\n");
  auto r = run_process({knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("t.db")});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("bad FEN tag \"\\x1b]0;pwned\\x07\\x1b[2J\"") != std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x07') == std::string::npos);
  // A name given on the command line and echoed back.
  auto named = run_process(
      {knightly_binary(), "export", "--db", dir.file("t.db"), "--tournament", "x" + hostile});
  CHECK(named.exit_code == 2);
  CHECK(named.err.find("no tournament 'x\\x1b]0;pwned") != std::string::npos);
  CHECK(named.err.find('\x1b') == std::string::npos);
}
