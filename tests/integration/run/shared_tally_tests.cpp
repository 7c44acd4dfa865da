// SharedTally against a real SQLite store with two connections (two workers): own games are
// counted without a read, other workers' games are found by what is new since the last look.
#include <catch2/catch.hpp>

#include "db/store/store.h"
#include "runner/run/shared_tally.h"
#include "tests/support/process.h"

using namespace knightly;
using knightly::test::TempDir;

namespace {

db::Store open_store(const std::string& path) {
  auto s = db::Store::open(path);
  if (!s) throw std::runtime_error(s.error().message);
  return std::move(*s);
}

// Game `g` (0 or 1) of pair `pair`: A is White in game 0.
GameRecord game(int pair, int g, Result result) {
  GameRecord r;
  r.id = {0, pair, g, pair * 2 + g};
  r.white = g == 0 ? "A" : "B";
  r.black = g == 0 ? "B" : "A";
  r.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  r.result = result;
  r.termination = result == Result::Draw ? Termination::Repetition : Termination::Checkmate;
  r.reason = "x";
  r.start_time = "2026-11-21T10:00:00Z";
  return r;
}

}  // namespace

TEST_CASE("a shared tally counts own games without reading and finds other workers' games",
          "[run][tally]") {
  TempDir dir;
  auto mine = open_store(dir.file("t.db"));
  auto theirs = open_store(dir.file("t.db"));
  const auto tid =
      mine.catalog().create_tournament({"t", db::TournamentKind::Sprt, "cfg", 1, ""}).id;
  const auto a = mine.catalog().upsert_engine({"A", "", "", "", "", "", true});
  const auto b = mine.catalog().upsert_engine({"B", "", "", "", "", "", true});
  auto store_game = [&](db::Store& s, const GameRecord& r) {
    s.games().insert_game(tid, r, r.white == "A" ? a : b, r.white == "A" ? b : a);
  };

  runner::SharedTally tally("A", tid);
  tally.recount(mine);
  CHECK(tally.games() == 0);

  // Pair 0, both games here: A wins with White, draws with Black.
  for (auto [g, result] : {std::pair{0, Result::WhiteWins}, {1, Result::Draw}}) {
    auto r = game(0, g, result);
    store_game(mine, r);
    tally.add_own(0, 0, db::PairGame{g, r.white, r.black, r.result});
    tally.refresh(mine);
  }
  CHECK(tally.games() == 2);
  CHECK(tally.tally().games().wins == 1);
  CHECK(tally.tally().games().draws == 1);
  CHECK(tally.tally().pairs().wd == 1);

  // Another worker stores 70 games (35 pairs, A loses them all).
  for (int pair = 1; pair <= 35; ++pair)
    for (int g = 0; g < 2; ++g)
      store_game(theirs, game(pair, g, g == 0 ? Result::BlackWins : Result::WhiteWins));
  tally.refresh(mine);
  CHECK(tally.games() == 72);
  CHECK(tally.tally().games().losses == 70);
  CHECK(tally.tally().pairs().ll == 35);
  CHECK(tally.tally().pairs().pairs() == 36);
  CHECK(tally.full_recounts() == 1);  // the first; the news was read page by page
  // On SQLite each game stored since the last look, by anyone, is read once: ours, theirs.
  CHECK(tally.games_read() == 72);

  // Two more from them: the refresh reads those two, not the tournament's 74 games.
  for (int g = 0; g < 2; ++g) store_game(theirs, game(36, g, Result::Draw));
  tally.refresh(mine);
  CHECK(tally.games_read() == 74);
  CHECK(tally.games() == 74);
  CHECK(tally.tally().pairs().dd == 1);
  // Nobody else wrote since: nothing read.
  tally.refresh(mine);
  CHECK(tally.games_read() == 74);

  // A game of this process committed but not yet reported by its thread: a refresh that
  // reads it leaves it to add_own, which counts it once.
  tally.will_add_own(0, 37, 0);
  auto pending = game(37, 0, Result::WhiteWins);
  store_game(mine, pending);
  store_game(theirs, game(37, 1, Result::WhiteWins));  // B wins with White
  tally.refresh(mine);
  CHECK(tally.games() == 75);
  tally.add_own(0, 37, db::PairGame{0, pending.white, pending.black, pending.result});
  CHECK(tally.games() == 76);
  CHECK(tally.tally().games().wins == 2);
  CHECK(tally.tally().pairs().wl == 1);

  // Half a pair from them, the other half here: the pair counts once both are in.
  store_game(theirs, game(40, 0, Result::Draw));
  auto own = game(40, 1, Result::Draw);
  store_game(mine, own);
  tally.add_own(0, 40, db::PairGame{1, own.white, own.black, own.result});
  tally.refresh(mine);
  CHECK(tally.games() == 78);
  CHECK(tally.tally().pairs().dd == 2);

  // A recount from scratch gives the same figures.
  runner::SharedTally fresh("A", tid);
  fresh.recount(theirs);
  CHECK(fresh.games() == tally.games());
  CHECK(fresh.tally().pairs() == tally.tally().pairs());
  CHECK(fresh.tally().games() == tally.tally().games());
}
