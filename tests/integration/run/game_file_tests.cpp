// GameFile: the PGN file derived from the database, on real files with a real SQLite store.
#include <sys/mount.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "db/store/store.h"
#include "runner/run/game_file.h"
#include "tests/support/process.h"

using namespace knightly;
using knightly::test::TempDir;

namespace {

std::string read_bytes(const std::string& path) {
  return knightly::test::read_file(path);
}

// A finished game with `plies` moves.
GameRecord synthetic_game(int plies) {
  GameRecord g;
  g.white = "A";
  g.black = "B";
  g.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  g.result = Result::WhiteWins;
  g.termination = Termination::Checkmate;
  g.reason = "White mates";
  g.start_time = "2026-11-21T10:00:00Z";
  for (int p = 0; p < plies; ++p) {
    MoveRecord m;
    m.uci = p % 2 ? "g8f6" : "g1f3";
    m.san = p % 2 ? "Nf6" : "Nf3";
    g.moves.push_back(m);
  }
  return g;
}

}  // namespace

namespace {

std::string text_of(int index) {
  return "[Event \"t\"]\n[Round \"" + std::to_string(index) + "\"]\n\n1. e4 *\n";
}

// A store with tournament "t" and two engines; games go in under their schedule index.
struct Fixture {
  TempDir dir;
  db::Store store;
  std::int64_t tournament = 0, a = 0, b = 0;
  Fixture() : store(open(dir.file("t.db"))) {
    tournament = store.catalog().create_tournament({"t", db::TournamentKind::Run, "cfg", 1, ""}).id;
    a = store.catalog().upsert_engine({"A", "", "", "", "", "", true});
    b = store.catalog().upsert_engine({"B", "", "", "", "", "", true});
  }
  static db::Store open(const std::string& path) {
    auto s = db::Store::open(path);
    if (!s) throw std::runtime_error(s.error().message);
    return std::move(*s);
  }
  GameRecord store_game(int index) {
    auto g = synthetic_game(4);
    g.id = {index / 2, 0, index % 2, index};
    g.id.pair = index / 2;
    g.id.round = 0;
    g.pgn = text_of(index);
    store.games().insert_game(tournament, g, a, b);
    return g;
  }
  std::string export_text() {
    std::string out;
    db::GameFilter f;
    f.tournament_ids = {tournament};
    store.queries().for_each_game(
        f, [&](const db::StoredGame& g) { out += g.record.pgn + "\n"; }, false);
    return out;
  }
};

runner::GameFile pgn_file(const std::string& path) {
  return runner::GameFile(
      path, [](const GameRecord& r) { return r.pgn + "\n"; }, false, true);
}

std::string expected(std::initializer_list<int> indices) {
  std::string s;
  for (int i : indices) s += text_of(i) + "\n";
  return s;
}

}  // namespace

TEST_CASE("a rebuilt game file equals the export, in schedule order", "[run][game_file]") {
  Fixture f;
  for (int i : {3, 0, 5, 1}) f.store_game(i);  // stored out of order, with gaps (2, 4)
  const std::string path = f.dir.file("games.pgn");
  // Whatever a killed run left behind (a game cut mid-tag) is replaced.
  {
    FILE* fp = std::fopen(path.c_str(), "w");
    std::fputs("[Event \"t\"]\n[Rou", fp);
    std::fclose(fp);
  }
  auto file = pgn_file(path);
  REQUIRE(file.rebuild(f.store, f.tournament));
  CHECK(read_bytes(path) == f.export_text());
  CHECK(read_bytes(path) == expected({0, 1, 3, 5}));
  // No temporary file is left beside it.
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(f.dir.path()))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) ++entries;
  CHECK(entries == 0);
}

TEST_CASE("games are appended in schedule order as the gaps before them fill", "[run][game_file]") {
  Fixture f;
  const std::string path = f.dir.file("games.pgn");
  auto file = pgn_file(path);
  REQUIRE(file.rebuild(f.store, f.tournament));
  CHECK(read_bytes(path).empty());
  std::set<int> held{0, 1, 2, 3};  // this process plays games 0-3
  auto here = [&](int i) { return held.count(i) > 0; };
  auto add = [&](int i) {
    auto g = f.store_game(i);
    held.erase(i);
    REQUIRE(file.add(f.store, f.tournament, i, g, here));
  };
  add(1);
  CHECK(read_bytes(path).empty());  // game 0 is still being played here
  add(2);
  add(0);
  CHECK(read_bytes(path) == expected({0, 1, 2}));
  add(3);
  CHECK(read_bytes(path) == expected({0, 1, 2, 3}));
  CHECK(read_bytes(path) == f.export_text());
  REQUIRE(file.finish(f.store, f.tournament));
  CHECK(read_bytes(path) == f.export_text());
}

TEST_CASE("games other workers store reach the file by a rebuild, never twice",
          "[run][game_file]") {
  Fixture f;
  const std::string path = f.dir.file("games.pgn");
  // Two writers on one path, as two processes of one tournament on one machine.
  auto mine = pgn_file(path);
  auto theirs = pgn_file(path);
  REQUIRE(mine.rebuild(f.store, f.tournament));
  REQUIRE(theirs.rebuild(f.store, f.tournament));
  auto nobody = [](int) { return false; };
  auto g0 = f.store_game(0);
  REQUIRE(theirs.add(f.store, f.tournament, 0, g0, nobody));
  auto g1 = f.store_game(1);
  // `mine` sees a file another process wrote: it rebuilds (its first rebuild is not yet
  // 2 s old, so it waits) - at the end the file is the export, each game once.
  REQUIRE(mine.add(f.store, f.tournament, 1, g1, nobody));
  auto g2 = f.store_game(2);
  REQUIRE(theirs.add(f.store, f.tournament, 2, g2, nobody));
  REQUIRE(mine.finish(f.store, f.tournament));
  REQUIRE(theirs.finish(f.store, f.tournament));
  CHECK(read_bytes(path) == expected({0, 1, 2}));
}

TEST_CASE("a game filling an earlier gap goes in its place at the next rebuild",
          "[run][game_file]") {
  Fixture f;
  for (int i : {0, 2}) f.store_game(i);
  const std::string path = f.dir.file("games.pgn");
  auto file = pgn_file(path);
  REQUIRE(file.rebuild(f.store, f.tournament));
  CHECK(read_bytes(path) == expected({0, 2}));
  auto g1 = f.store_game(1);  // replayed after an interruption
  REQUIRE(file.add(f.store, f.tournament, 1, g1, [](int) { return false; }));
  REQUIRE(file.finish(f.store, f.tournament));
  CHECK(read_bytes(path) == expected({0, 1, 2}));
}

TEST_CASE("append=false empties another tournament's file, append=true keeps it before the games",
          "[run][game_file]") {
  Fixture f;
  const std::string path = f.dir.file("games.pgn");
  auto write = [&](const char* text) {
    FILE* fp = std::fopen(path.c_str(), "w");
    std::fputs(text, fp);
    std::fclose(fp);
  };
  // fastchess's append=false: a new tournament's file holds its games alone.
  write("old games\n");
  auto alone = pgn_file(path);
  REQUIRE(alone.start_new());
  CHECK(read_bytes(path).empty());

  // append=true (both tools' default): the games go after what the file held, and every
  // rebuild (a resume, another worker's games) keeps that prefix once, byte for byte.
  write("[Event \"earlier\"]\n\n1. d4 *\n\n");
  auto after = runner::GameFile(
      path, [](const GameRecord& r) { return r.pgn + "\n"; }, false, true, true);
  REQUIRE(after.start_new());
  REQUIRE(after.rebuild(f.store, f.tournament));  // nothing stored yet: the file as it was
  CHECK(read_bytes(path) == "[Event \"earlier\"]\n\n1. d4 *\n\n");
  auto g0 = f.store_game(0);
  REQUIRE(after.add(f.store, f.tournament, 0, g0, [](int) { return false; }));
  f.store_game(1);
  REQUIRE(after.rebuild(f.store, f.tournament));
  const std::string want = "[Event \"earlier\"]\n\n1. d4 *\n\n" + f.export_text();
  CHECK(read_bytes(path) == want);
  // A resumed run (another GameFile on the same path) finds where the games start.
  auto resumed = runner::GameFile(
      path, [](const GameRecord& r) { return r.pgn + "\n"; }, false, true, true);
  f.store_game(2);
  REQUIRE(resumed.rebuild(f.store, f.tournament));
  CHECK(read_bytes(path) == "[Event \"earlier\"]\n\n1. d4 *\n\n" + f.export_text());
  // The part from the first game on is `knightly export --tournament t`.
  const std::string text = read_bytes(path);
  CHECK(text.substr(text.find(text_of(0))) == f.export_text());
}

TEST_CASE("a full disk is an error naming the file, and the file keeps whole games",
          "[run][game_file][disk]") {
  Fixture f;
  TempDir mnt;
  if (::geteuid() != 0 ||
      ::mount("knightly-test", mnt.path().c_str(), "tmpfs", 0, "size=64k") != 0) {
    WARN("skipped: mounting a small tmpfs needs root");
    return;
  }
  struct Unmount {
    std::string p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt.path()};
  const std::string path = mnt.file("games.pgn");
  auto file = runner::GameFile(
      path, [](const GameRecord& r) { return r.pgn + std::string(3000, ' ') + "\n"; }, false, true);
  REQUIRE(file.rebuild(f.store, f.tournament));
  std::string error;
  std::size_t whole = 0;  // bytes of the games written
  for (int i = 0; i < 100 && error.empty(); ++i) {
    auto g = f.store_game(i);
    auto r = file.add(f.store, f.tournament, i, g, [](int) { return false; });
    if (!r)
      error = r.error();
    else
      whole += text_of(i).size() + 3001;
  }
  INFO(error);
  REQUIRE(!error.empty());
  CHECK(error.find(path) != std::string::npos);
  CHECK(error.find("No space left on device") != std::string::npos);
  // What is in the file is whole games: the failed write was cut back off.
  const std::string text = read_bytes(path);
  CHECK(text.size() == whole);
  // A rebuild on the full disk fails too (and leaves no temporary file behind).
  auto r = file.rebuild(f.store, f.tournament);
  CHECK_FALSE(r);
  for (const auto& e : std::filesystem::directory_iterator(mnt.path()))
    CHECK(e.path().filename().string().find(".tmp.") == std::string::npos);
}
