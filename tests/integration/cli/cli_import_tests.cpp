// knightly import / export as a user runs them, on real files and databases: binary input,
// directories, games cut off, game endings in the export, and Knightly's own export read back
// into the database it came from.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>

#include "engine/chess/pgn.h"
#include "sqlite_probe.h"
#include "tests/support/process.h"

using namespace knightly::test;

namespace {

const std::string mate_game =
    "[Event \"t\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n"
    "[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";

ProcessResult import(const TempDir& dir, const std::string& file,
                     const std::vector<std::string>& extra = {}) {
  std::vector<std::string> cmd = {knightly_binary(), "import", file, "--db", dir.file("k.db")};
  cmd.insert(cmd.end(), extra.begin(), extra.end());
  return run_process(cmd);
}

long long games_in(const TempDir& dir) {
  if (!std::filesystem::exists(dir.file("k.db"))) return 0;
  SqliteProbe p(dir.file("k.db"));
  return p.count("SELECT count(*) FROM games");
}

bool has_raw_control_bytes(const std::string& text) {
  for (char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7F) return true;
  return false;
}

}  // namespace

TEST_CASE("import of a binary file says what and where, escaped, exit 2, nothing imported",
          "[cli][import]") {
  TempDir dir;
  // An executable's first bytes: "\x7fELF" then NULs and other control bytes.
  write_file(dir.file("prog.pgn"), read_file("/bin/ls").substr(0, 4096));
  auto r = import(dir, dir.file("prog.pgn"));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("prog.pgn:1:1: byte 0x7f: not a PGN text file") != std::string::npos);
  CHECK_FALSE(has_raw_control_bytes(r.err));
  CHECK_FALSE(has_raw_control_bytes(r.out));
  CHECK(games_in(dir) == 0);

  // A NUL after good games: refused whole, located.
  write_file(dir.file("nul.pgn"), mate_game + std::string("1. e4 \0", 7));
  r = import(dir, dir.file("nul.pgn"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("nul.pgn:11:7: byte 0x00") != std::string::npos);
  CHECK(games_in(dir) == 0);

  // Past the first megabyte read (the check reads a block at a time), in a line that a block
  // boundary cuts: still its line and column in the file.
  std::string text;
  const std::size_t line_at = (1u << 20) - 15;  // the bad byte at 1 MB + 15
  while (text.size() + mate_game.size() <= line_at) text += mate_game;
  text.append(line_at - text.size(), '\n');
  const int line = int(std::count(text.begin(), text.end(), '\n')) + 1;
  text += "1. e4 e5 {" + std::string(20, 'x') + std::string("\x01", 1) + "}\n";
  write_file(dir.file("late.pgn"), text);
  r = import(dir, dir.file("late.pgn"));
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("late.pgn:" + std::to_string(line) + ":31: byte 0x01") != std::string::npos);
  CHECK(games_in(dir) == 0);
}

TEST_CASE(
    "a pipe's binary byte past its first batch: its line in the input, the batches before "
    "it kept and said so",
    "[cli][import]") {
  TempDir dir;
  // A pipe is read once: the batches before the byte are imported by the time it is met.
  // Games of a long comment each (few games, many bytes), more than a batch (8 MB) of them.
  std::string text;
  int games = 0;
  while (text.size() < (9u << 20)) {
    text += "[Event \"t\"]\n[Round \"" + std::to_string(++games) +
            "\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 {" +
            std::string(8000, 'x') + "} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
  }
  constexpr int lines_per_game = 8;
  const int bad_line = int(std::count(text.begin(), text.end(), '\n')) + 1;
  text += "1. e4 e5 {" + std::string(20, 'x') + std::string("\x01", 1) + "}";

  ChildProcess import({knightly_binary(), "import", "/dev/stdin", "--db", dir.file("k.db")}, true);
  for (std::size_t at = 0; at < text.size();) {  // a line at a time (send adds its newline)
    const std::size_t end = std::min(text.find('\n', at), text.size());
    import.send(text.substr(at, end - at));
    at = end + 1;
  }
  import.close_input();
  const std::string out = import.all_output(60000);
  INFO(out);
  CHECK(import.wait_exit(10000) == 2);
  CHECK(out.find("/dev/stdin:" + std::to_string(bad_line) + ":31: byte 0x01") != std::string::npos);
  // The games before the batch the byte is in are imported, and the message names its line.
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("the games before line ([0-9]+) are imported")));
  const int kept_before = std::stoi(m[1]);
  CHECK(kept_before > 1);
  CHECK(kept_before < bad_line);
  CHECK((kept_before - 1) % lines_per_game == 0);
  CHECK(games_in(dir) == (kept_before - 1) / lines_per_game);
  CHECK(games_in(dir) < games);
}

TEST_CASE("import of a directory or a missing file is an error", "[cli][import]") {
  TempDir dir;
  auto r = import(dir, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("it is a directory, not a PGN file") != std::string::npos);
  r = import(dir, dir.file("missing.pgn"));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("missing.pgn': No such file or directory") != std::string::npos);
  CHECK(games_in(dir) == 0);
}

TEST_CASE("a game cut off mid-moves is skipped with file:line, the complete ones imported, exit 0",
          "[cli][import]") {
  TempDir dir;
  // The file ends after White's 3rd move: a PGN truncated while it was being written.
  write_file(dir.file("cut.pgn"), mate_game +
                                      "[Event \"t\"]\n[Round \"2\"]\n[White \"a\"]\n[Black \"b\"]\n"
                                      "[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 3. Nc3");
  auto r = import(dir, dir.file("cut.pgn"));
  INFO(r.out << r.err);
  // A partial import says how many of how many, lists what it skipped and exits 0.
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("cut.pgn:11: game 2 (a vs b): cut off after 5 plies") != std::string::npos);
  CHECK(r.out.find("Imported 1 of 2 games") != std::string::npos);
  CHECK(r.err.find("1 of 2 games were skipped") != std::string::npos);
  CHECK(r.out.find("1 unreadable or cut off") != std::string::npos);
  CHECK(games_in(dir) == 1);
}

TEST_CASE("export of an imported mate: a normal termination and the reason, not unterminated",
          "[cli][import][export]") {
  TempDir dir;
  write_file(dir.file("mate.pgn"), mate_game);
  REQUIRE(import(dir, dir.file("mate.pgn")).exit_code == 0);
  auto out = run_process({knightly_binary(), "export", "--db", dir.file("k.db")});
  INFO(out.out << out.err);
  REQUIRE(out.exit_code == 0);
  CHECK(out.out.find("[Termination \"normal\"]") != std::string::npos);
  CHECK(out.out.find("unterminated") == std::string::npos);
  CHECK(out.out.find("4. Qxf7# {White mates} 1-0") != std::string::npos);
  CHECK(out.out.find("[FEN") == std::string::npos);  // the initial position needs none
  SqliteProbe p(dir.file("k.db"));
  CHECK(p.value("SELECT termination FROM games") == "checkmate");
}

TEST_CASE("export of an imported game writes no time, duration or time control its source lacks",
          "[cli][import][export]") {
  // mate_game has a Date and nothing of its time: no GameStartTime at midnight, no
  // GameDuration of 00:00:00, no TimeControl "-" (untimed). A game that says them keeps them.
  TempDir dir;
  const std::string timed =
      "[Event \"t\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"2\"]\n[White \"c\"]\n"
      "[Black \"d\"]\n[Result \"1-0\"]\n[TimeControl \"40/60\"]\n"
      "[GameStartTime \"2026-01-02T10:11:12 +0000\"]\n[GameDuration \"00:01:05\"]\n\n"
      "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
  write_file(dir.file("two.pgn"), mate_game + timed);
  REQUIRE(import(dir, dir.file("two.pgn")).exit_code == 0);
  auto out = run_process({knightly_binary(), "export", "--db", dir.file("k.db")});
  INFO(out.out << out.err);
  REQUIRE(out.exit_code == 0);
  const auto second = out.out.find("[Event \"t\"]", 1);
  REQUIRE(second != std::string::npos);
  const std::string untimed_out = out.out.substr(0, second), timed_out = out.out.substr(second);
  CHECK(untimed_out.find("[Date \"2026.01.01\"]") != std::string::npos);
  CHECK(untimed_out.find("GameDuration") == std::string::npos);
  CHECK(untimed_out.find("GameStartTime") == std::string::npos);
  CHECK(untimed_out.find("TimeControl") == std::string::npos);
  CHECK(timed_out.find("[TimeControl \"40/60\"]") != std::string::npos);
  CHECK(timed_out.find("[GameStartTime \"2026-01-02T10:11:12Z\"]") != std::string::npos);
  CHECK(timed_out.find("[GameDuration \"00:01:05\"]") != std::string::npos);
  // The export read back: both games found present, nothing added.
  write_file(dir.file("again.pgn"), out.out);
  auto again = import(dir, dir.file("again.pgn"));
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("Imported 0 of 2 games") != std::string::npos);
  CHECK(games_in(dir) == 2);
}

TEST_CASE("Knightly's own export imported into its database adds nothing", "[cli][import]") {
  TempDir dir;
  write_file(dir.file("t.toml"),
             "[tournament]\nname = \"own\"\nrounds = 2\nconcurrency = 2\nseed = 5\n"
             "maxmoves = 40\n[openings]\nrandom_plies = 4\n"
             "[[engine]]\nname = \"ab\"\nbuiltin = true\noptions = { Search = \"alphabeta\" }\n"
             "depth = 1\n"
             "[[engine]]\nname = \"rnd\"\nbuiltin = true\noptions = { Search = \"random\" }\n"
             "depth = 1\n");
  auto run = run_process(
      {knightly_binary(), "run", dir.file("t.toml"), "--db", dir.file("k.db"), "--quiet"});
  REQUIRE(run.exit_code == 0);
  const long long played = games_in(dir);
  REQUIRE(played == 4);
  auto exported = run_process({knightly_binary(), "export", "--db", dir.file("k.db")});
  REQUIRE(exported.exit_code == 0);
  write_file(dir.file("all.pgn"), exported.out);

  auto r = import(dir, dir.file("all.pgn"));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Imported 0 of 4 games") != std::string::npos);
  CHECK(r.out.find("(4 already present") != std::string::npos);
  CHECK(games_in(dir) == played);

  // Into the played tournament itself: refused (its schedule is the run's).
  r = import(dir, dir.file("all.pgn"), {"--tournament", "own"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("tournament 'own'") != std::string::npos);
  CHECK(r.err.find("was played by Knightly") != std::string::npos);
  CHECK(games_in(dir) == played);

  // A game changed by hand is a different game: it goes in, the others are recognised.
  auto games = knightly::chess::read_pgn(exported.out);
  REQUIRE(games.errors.empty());
  std::string edited = exported.out;
  const auto pos = edited.find("[GameStartTime \"");
  REQUIRE(pos != std::string::npos);
  edited.replace(pos + 16, 4, "1999");
  write_file(dir.file("edited.pgn"), edited);
  r = import(dir, dir.file("edited.pgn"));
  CHECK(r.out.find("Imported 1 of 4 games") != std::string::npos);
  CHECK(r.out.find("(3 already present") != std::string::npos);
  CHECK(games_in(dir) == played + 1);
}

namespace {

// `n` distinct mates (their Round differs), each with a long comment: megabytes of PGN in a
// few thousand games.
void write_long_pgn(const std::string& path, int n) {
  const std::string comment(10000, 'x');
  std::string text;
  text.reserve(std::size_t(n) * 10300);
  for (int i = 0; i < n; ++i)
    text += "[Event \"big\"]\n[Round \"" + std::to_string(i + 1) +
            "\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 {" + comment +
            "} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
  write_file(path, text);
}

// The import's peak RSS in KB (GNU time's %M) and its result.
std::pair<long, ProcessResult> import_measured(const std::string& file, const std::string& db) {
  auto r = run_process(
      {"/usr/bin/time", "-f", "peak-rss-kb %M", knightly_binary(), "import", file, "--db", db},
      600);
  const auto at = r.err.rfind("peak-rss-kb ");
  return {at == std::string::npos ? -1 : std::stol(r.err.substr(at + 12)), r};
}

}  // namespace

TEST_CASE("import streams: memory does not grow with the file, progress is shown",
          "[cli][import]") {
  TempDir dir;
  write_long_pgn(dir.file("small.pgn"), 400);   // 4 MB
  write_long_pgn(dir.file("large.pgn"), 4000);  // 40 MB
  auto [small_kb, small] = import_measured(dir.file("small.pgn"), dir.file("s.db"));
  auto [large_kb, large] = import_measured(dir.file("large.pgn"), dir.file("l.db"));
  INFO(small.out << small.err << large.out << large.err);
  REQUIRE(small.exit_code == 0);
  REQUIRE(large.exit_code == 0);
  CHECK(large.out.find("Imported 4000 of 4000 games") != std::string::npos);
  // Ten times the file, not ten times the memory: 36 MB more would be the file held.
  INFO("peak RSS: " << small_kb << " KB for 4 MB, " << large_kb << " KB for 40 MB");
  CHECK(small_kb > 0);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer keeps freed memory in quarantine (256 MB by default): RSS measures it,
  // not the program. The bound is checked in the release build.
  WARN("RSS bound not checked under AddressSanitizer");
#else
  CHECK(large_kb < small_kb + 20 * 1024);
#endif
  // A long file says how far it has come, on stderr.
  CHECK(large.err.find("knightly: import: " + dir.file("large.pgn") + ": 50% (") !=
        std::string::npos);
  CHECK(large.err.find(": 100% (") != std::string::npos);
  CHECK(small.err.find("% (") == std::string::npos);
}

TEST_CASE("import commits in batches: a killed import keeps them, the next one adds the rest",
          "[cli][import]") {
  TempDir dir;
  write_long_pgn(dir.file("large.pgn"), 8000);
  const std::string db = dir.file("k.db");
  const pid_t pid =
      spawn_background({knightly_binary(), "import", dir.file("large.pgn"), "--db", db}, "", false,
                       dir.file("out"), dir.file("err"));
  const auto stored = [&]() -> long long {
    try {
      SqliteProbe p(db);
      return p.count("SELECT count(*) FROM games");
    } catch (...) {
      return 0;
    }
  };
  for (int i = 0; i < 60000 && stored() == 0; ++i) usleep(1000);
  ::kill(pid, SIGKILL);
  int signal = 0;
  wait_child(pid, &signal);
  const long long kept = stored();
  INFO("kept " << kept);
  CHECK(kept > 0);
  CHECK(kept < 8000);
  // The same command again: what is there is skipped, the rest goes in.
  auto again = import(dir, dir.file("large.pgn"));
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("Imported " + std::to_string(8000 - kept) + " of 8000 games") !=
        std::string::npos);
  CHECK(again.out.find("(" + std::to_string(kept) + " already present") != std::string::npos);
  CHECK(stored() == 8000);
}

TEST_CASE("an import that cannot read its file to the end keeps the games before and exits 1",
          "[cli][import]") {
  // An unterminated comment: 64 MB in which no game ends. The import stops there (it never
  // holds more than that of one game), keeps the games before it and fails: the games after
  // it were not read, and a script must not take the import for done.
  TempDir dir;
  {
    std::ofstream out(dir.file("open.pgn"), std::ios::binary);
    out << mate_game;
    out << "[Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 { an open comment\n";
    const std::string line(1023, 'x');
    for (int i = 0; i < 66 * 1024; ++i) out << line << '\n';
    out << "}\n1-0\n\n" << mate_game;
  }
  auto r = import(dir, dir.file("open.pgn"));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find(dir.file("open.pgn") + ":11: no game ends with its result in the 64 MB") !=
        std::string::npos);
  CHECK(r.err.find("was not read to its end") != std::string::npos);
  CHECK(r.out.find("Imported 1 of 2 games") != std::string::npos);
  CHECK(games_in(dir) == 1);
}
