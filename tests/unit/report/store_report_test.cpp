// The Store's report queries on both backends: each case runs on a fresh SQLite file and on a
// fresh schema of the PostgreSQL server the tests start (tests/unit/db/test_database.h).

#include <catch2/catch.hpp>
#include <thread>

#include "db/store/store.h"
#include "tests/unit/db/test_database.h"

using namespace knightly;
using db::GameFilter;
using db::Store;
using knightly::Result;

namespace {

// A game whose plies carry depth = ply + 1, nodes = 100 * (ply + 1), time 10 ms (0 for the
// first engine move of White), clock 1000 - ply; the first `book` plies are book moves.
GameRecord game(int index, const std::string& white, const std::string& black, int plies, int book,
                const std::string& start_fen = "") {
  GameRecord g;
  g.id = {index / 2, index / 2, index % 2, index};
  g.white = white;
  g.black = black;
  g.start_fen = start_fen;
  g.result = index % 3 == 0 ? Result::WhiteWins : index % 3 == 1 ? Result::Draw : Result::BlackWins;
  g.termination = Termination::Checkmate;
  g.reason = "r";
  g.start_time = "2026-01-01T00:00:0" + std::to_string(index % 10) + "Z";
  static const char* kMoves[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};
  for (int p = 0; p < plies; ++p) {
    MoveRecord m;
    m.uci = kMoves[p % 6];
    m.san = "x";
    m.book = p < book;
    m.eval.depth = p + 1;
    m.eval.nodes = static_cast<std::uint64_t>(100 * (p + 1));
    m.time_ms = p == book ? 0 : 10;
    m.clock_left_ms = 1000 - p;
    g.moves.push_back(m);
  }
  return g;
}

struct Fixture {
  Store store;
  std::int64_t t = 0, a = 0, a2 = 0, b = 0;
  explicit Fixture(const test::TestDatabase& database) : store(database.open()) {
    t = store.catalog().create_tournament({"night", db::TournamentKind::Run, "", 1, ""}).id;
    a = store.catalog().upsert_engine({"alpha", "/bin/a", "Hash=1", "", "", "", false});
    a2 = store.catalog().upsert_engine(
        {"alpha", "/bin/a", "Hash=2", "", "", "", false});  // 2nd version
    b = store.catalog().upsert_engine({"beta", "/bin/b", "", "", "", "", false});
  }
};

const db::MoveStats* find(const std::vector<db::MoveStats>& rows, const std::string& engine,
                          int move) {
  for (const auto& r : rows)
    if (r.engine == engine && r.move_number == move) return &r;
  return nullptr;
}

}  // namespace

STORE_TEST("report: move_stats: per engine and move number, book moves left out, versions merged") {
  Fixture f(database);
  // Game 1: alpha (version 1) White, 6 plies, 2 of them book.
  f.store.games().insert_game(f.t, game(0, "alpha", "beta", 6, 2), f.a, f.b);
  // Game 2: beta White against alpha's 2nd version, no book.
  f.store.games().insert_game(f.t, game(1, "beta", "alpha", 4, 0), f.b, f.a2);
  const auto rows = f.store.queries().move_stats({});
  // alpha: game 1 plies 2, 4 (moves 2, 3); game 2 plies 1, 3 (moves 1, 2).
  const auto* a1 = find(rows, "alpha", 1);
  const auto* a2 = find(rows, "alpha", 2);
  const auto* a3 = find(rows, "alpha", 3);
  REQUIRE(a1);
  REQUIRE(a2);
  REQUIRE(a3);
  CHECK(a1->moves == 1);
  CHECK(a1->depth_sum == 2);
  CHECK(a2->moves == 2);
  CHECK(a2->depth_sum == 3 + 4);  // game 1 ply 2, game 2 ply 3
  CHECK(a2->nodes_sum == 300 + 400);
  CHECK(a2->time_ms_sum == 0 + 10);  // ply 2 of game 1 is its first engine move: 0 ms
  CHECK(a2->timed_moves == 1);
  CHECK(a2->timed_nodes == 400);
  CHECK(a2->timed_ms == 10);
  CHECK(a2->clock_moves == 2);
  CHECK(a2->clock_left_sum == 998 + 997);
  CHECK(a3->moves == 1);
  CHECK(a3->depth_sum == 5);
  // beta: game 1 plies 3, 5 (moves 2, 3); game 2 plies 0, 2 (moves 1, 2).
  REQUIRE(find(rows, "beta", 1));
  CHECK(find(rows, "beta", 1)->moves == 1);
  CHECK(find(rows, "beta", 2)->moves == 2);
  CHECK(find(rows, "beta", 3)->moves == 1);
  std::int64_t total = 0;
  for (const auto& r : rows) total += r.moves;
  CHECK(total == 4 + 4);  // every non-book move once
  // The newest game only.
  const auto newest = f.store.queries().move_stats({}, 1);
  total = 0;
  for (const auto& r : newest) total += r.moves;
  CHECK(total == 4);
  CHECK_FALSE(find(newest, "alpha", 3));
  // A filter that matches nothing.
  GameFilter none;
  none.engines = {"nobody"};
  CHECK(f.store.queries().move_stats(none).empty());
}

STORE_TEST(
    "report: move_stats: a game starting with Black to move counts its first ply as Black's") {
  Fixture f(database);
  f.store.games().insert_game(
      f.t,
      game(0, "alpha", "beta", 3, 0, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
      f.a, f.b);
  const auto rows = f.store.queries().move_stats({});
  // Plies 0 and 2 are beta's (Black), moves 1 and 2; ply 1 is alpha's move 2.
  REQUIRE(find(rows, "beta", 1));
  CHECK(find(rows, "beta", 1)->depth_sum == 1);
  REQUIRE(find(rows, "beta", 2));
  CHECK(find(rows, "beta", 2)->depth_sum == 3);
  REQUIRE(find(rows, "alpha", 2));
  CHECK(find(rows, "alpha", 2)->depth_sum == 2);
  CHECK_FALSE(find(rows, "alpha", 1));
}

STORE_TEST(
    "report: move_stats: a move with a mate score adds no depth (engines report their "
    "maximum)") {
  Fixture f(database);
  GameRecord g = game(0, "alpha", "beta", 4, 0);
  g.moves[2].eval.mate = 3;  // alpha's move 2: Stockfish reports depth 245 with a mate
  g.moves[2].eval.depth = 245;
  f.store.games().insert_game(f.t, g, f.a, f.b);
  const auto rows = f.store.queries().move_stats({});
  const auto* a2 = find(rows, "alpha", 2);
  REQUIRE(a2);
  CHECK(a2->moves == 1);
  CHECK(a2->depth_sum == 0);
  CHECK(a2->depth_moves == 0);
  const auto* a1 = find(rows, "alpha", 1);
  REQUIRE(a1);
  CHECK(a1->depth_sum == 1);
  CHECK(a1->depth_moves == 1);
}

STORE_TEST("report: for_each_result: stored order, names, results") {
  Fixture f(database);
  // Stored out of schedule order: index 3 first.
  f.store.games().insert_game(f.t, game(3, "beta", "alpha", 2, 0), f.b, f.a);
  f.store.games().insert_game(f.t, game(0, "alpha", "beta", 2, 0), f.a, f.b);
  f.store.games().insert_game(f.t, game(1, "beta", "alpha", 2, 0), f.b, f.a2);
  std::vector<db::StoredResult> seen;
  f.store.queries().for_each_result({}, [&](const db::StoredResult& r) { seen.push_back(r); });
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].round == 1);
  CHECK(seen[0].game_in_pair == 1);
  CHECK(seen[0].white == "beta");
  CHECK(seen[0].result == Result::WhiteWins);  // index 3 % 3 == 0
  CHECK(seen[1].white == "alpha");
  CHECK(seen[2].black == "alpha");  // the second version by name
  CHECK(seen[2].result == Result::Draw);
  CHECK(seen[0].id < seen[1].id);
  CHECK(seen[1].id < seen[2].id);
}

STORE_TEST("report: game_page: newest first, keyed by id, filtered") {
  Fixture f(database);
  for (int i = 0; i < 7; ++i)
    f.store.games().insert_game(f.t,
                                game(i, i % 2 ? "beta" : "alpha", i % 2 ? "alpha" : "beta", 2, 0),
                                i % 2 ? f.b : f.a, i % 2 ? f.a : f.b);
  auto first = f.store.queries().game_page({}, 0, 3);
  REQUIRE(first.size() == 3);
  CHECK(first[0].id == 7);
  CHECK(first[2].id == 5);
  CHECK(first[0].tournament == "night");
  auto second = f.store.queries().game_page({}, first.back().id, 3);
  REQUIRE(second.size() == 3);
  CHECK(second[0].id == 4);
  auto last = f.store.queries().game_page({}, second.back().id, 3);
  REQUIRE(last.size() == 1);
  CHECK(last[0].id == 1);
  CHECK(f.store.queries().game_page({}, 1, 3).empty());
  GameFilter wins;
  wins.result = "1-0";
  for (const auto& g : f.store.queries().game_page(wins, 0, 10))
    CHECK(g.result == Result::WhiteWins);
  CHECK(f.store.queries().game_page(wins, 0, 10).size() == 3);  // indexes 0, 3, 6
}

STORE_TEST("report: game: one game with its moves, none for an unknown id") {
  Fixture f(database);
  const auto id = f.store.games().insert_game(f.t, game(0, "alpha", "beta", 5, 1), f.a, f.b);
  auto g = f.store.queries().game(id);
  REQUIRE(g);
  CHECK(g->record.white == "alpha");
  CHECK(g->record.black == "beta");
  CHECK(g->tournament_id == f.t);
  REQUIRE(g->record.moves.size() == 5);
  CHECK(g->record.moves[0].book);
  CHECK(g->record.moves[4].uci == "f1b5");
  CHECK(g->record.moves[4].clock_left_ms == 996);
  CHECK(g->record.result == Result::WhiteWins);
  CHECK_FALSE(f.store.queries().game(id + 1));
}

STORE_TEST("report: data_generation: changes with a stored game and a tournament's status") {
  auto writer = database.open();
  const auto t = writer.catalog().create_tournament({"gen", db::TournamentKind::Run, "", 1, ""});
  const auto a = writer.catalog().upsert_engine({"alpha", "", "", "", "", "", true});
  const auto b = writer.catalog().upsert_engine({"beta", "", "", "", "", "", true});
  db::StoreOptions ro;
  ro.mode = db::OpenMode::ReadOnly;
  auto reader = database.open(ro);
  const std::string g0 = reader.queries().data_generation();
  writer.games().insert_game(t.id, game(0, "alpha", "beta", 2, 0), a, b);
  const std::string g1 = reader.queries().data_generation();
  CHECK(g1 != g0);
  CHECK(reader.queries().data_generation() == g1);
  writer.catalog().set_tournament_status(t.id, db::TournamentStatus::Finished);
  CHECK(reader.queries().data_generation() != g1);
}

STORE_TEST("report: leased_pairs: the pairs under a live lease, their worker and position") {
  Fixture f(database);
  const auto w = f.store.work().register_worker({"hostA", 4242, "2026-01-01T00:00:00.000Z"});
  std::vector<db::PairSlot> slots{{0, 0, 2, 0}, {0, 1, 2, 2}, {1, 0, 1, 4}};
  f.store.work().add_pairs(f.t, slots);
  CHECK(f.store.queries().leased_pairs().empty());
  const std::string g0 = f.store.queries().data_generation();
  auto c = f.store.work().claim_pair(f.t, w, std::chrono::minutes(1));
  REQUIRE(c.status == db::ClaimStatus::Claimed);
  CHECK(f.store.queries().data_generation() != g0);  // a claim shows as a change
  auto leased = f.store.queries().leased_pairs();
  REQUIRE(leased.size() == 1);
  CHECK(leased[0].tournament_id == f.t);
  CHECK(leased[0].round == 0);
  CHECK(leased[0].pair == 0);
  CHECK(leased[0].games == 2);
  CHECK(leased[0].schedule_index == 0);
  CHECK(leased[0].stored_mask == 0);
  CHECK(leased[0].host == "hostA");
  CHECK(leased[0].pid == 4242);
  CHECK(leased[0].lease_left_ms > 0);
  CHECK(leased[0].lease_left_ms <= 60000);
  CHECK(leased[0].live_game == -1);  // no position recorded yet
  CHECK(leased[0].live_fen.empty());
  // The worker records its game's position; the newest one is listed.
  f.store.work().set_live_position(*c.claim, 0, 1, "fen after one ply");
  f.store.work().set_live_position(*c.claim, 0, 2, "fen after two plies");
  leased = f.store.queries().leased_pairs();
  REQUIRE(leased.size() == 1);
  CHECK(leased[0].live_game == 0);
  CHECK(leased[0].live_ply == 2);
  CHECK(leased[0].live_fen == "fen after two plies");
  // A claim that is no longer the pair's records nothing.
  db::Claim stale = *c.claim;
  stale.attempt -= 1;
  f.store.work().set_live_position(stale, 1, 9, "stale");
  CHECK(f.store.queries().leased_pairs().at(0).live_fen == "fen after two plies");
  // Its first game stored: still leased, with the game marked.
  GameRecord g = game(0, "alpha", "beta", 2, 0);
  f.store.games().store_game(*c.claim, g, f.a, f.b);
  leased = f.store.queries().leased_pairs();
  REQUIRE(leased.size() == 1);
  CHECK(leased[0].stored_mask == 1);
  // Released: no longer being played.
  f.store.work().release_claim(*c.claim);
  CHECK(f.store.queries().leased_pairs().empty());
  // A lease that has run out is not listed.
  auto d = f.store.work().claim_pair(f.t, w, std::chrono::milliseconds(1));
  REQUIRE(d.status == db::ClaimStatus::Claimed);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(f.store.queries().leased_pairs().empty());
}
