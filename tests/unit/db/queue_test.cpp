// The test queue in the store (db/store/store_queue.cpp), on both backends: submission in one
// transaction, the order workers take tests in, the first resolution of a commit winning,
// worker speeds and the stop epoch of `knightly stop --all`.
#include <catch2/catch.hpp>
#include <chrono>

#include "db/store/store.h"
#include "db_test_util.h"
#include "test_database.h"

using namespace knightly;
using namespace std::chrono_literals;
using knightly::test::synthetic_game;

namespace {

db::NewTest new_test(const std::string& name, int priority) {
  db::NewTest t;
  t.tournament = {name, db::TournamentKind::Sprt, "knightly sprt --name " + name, 9, ""};
  t.sprt = db::SprtSettings{0, 5, 0.05, 0.05, "normalized"};
  t.priority = priority;
  t.submitter = "ada";
  t.format = "sprt";
  t.definition = "--new ./a --base ./b --depth 2 --name " + name;
  db::SourceCommitRecord r;
  r.engine = 0;
  r.name = "New";
  r.repo = "/src/engine";
  r.ref = "dev";
  r.commit = std::string(40, 'a');
  r.subject = "Search deeper";
  r.bench = 1234;
  t.sources.push_back(r);
  return t;
}

}  // namespace

STORE_TEST("a submitted test is its tournament, SPRT settings, definition and commits") {
  db::Store store = database.open();
  const db::Tournament t = store.test_queue().submit_test(new_test("t1", 3));
  CHECK(t.name == "t1");
  CHECK(t.kind == db::TournamentKind::Sprt);
  CHECK(t.status == db::TournamentStatus::Running);
  REQUIRE(store.work().sprt_settings(t.id));
  CHECK(store.work().sprt_settings(t.id)->elo1 == 5.0);
  auto q = store.test_queue().test(t.id);
  REQUIRE(q);
  CHECK(q->priority == 3);
  CHECK(q->submitter == "ada");
  CHECK(q->format == "sprt");
  CHECK(q->definition == "--new ./a --base ./b --depth 2 --name t1");
  CHECK(q->games == 0);
  CHECK(q->live_pairs == 0);
  CHECK_FALSE(q->submitted_at.empty());
  const auto sources = store.test_queue().source_commits(t.id);
  REQUIRE(sources.size() == 1);
  CHECK(sources[0].commit == std::string(40, 'a'));
  CHECK(sources[0].bench == 1234);
  // The name is taken: nothing of the second submission is written.
  try {
    store.test_queue().submit_test(new_test("t1", 1));
    FAIL("a second test of the same name was accepted");
  } catch (const db::StoreException& e) {
    CHECK(e.kind() == db::ErrorKind::Conflict);
  }
  CHECK(store.test_queue().tests().size() == 1);
  CHECK(database.value("SELECT count(*) FROM tournaments") == "1");
}

STORE_TEST("workers take open tests by priority, then fewest games, then the oldest") {
  db::Store store = database.open();
  const auto low = store.test_queue().submit_test(new_test("low", 1)).id;
  const auto busy = store.test_queue().submit_test(new_test("busy", 5)).id;
  const auto fresh = store.test_queue().submit_test(new_test("fresh", 5)).id;
  const auto done = store.test_queue().submit_test(new_test("done", 9)).id;
  const auto stopped = store.test_queue().submit_test(new_test("stopped", 9)).id;
  store.work().finish_tournament(done, db::TournamentStatus::Finished, "sprt: H1 accepted");
  REQUIRE(store.work().request_stop("stopped", "stopped: knightly stop after 0 of 2 games"));
  const auto a = store.catalog().upsert_engine({"Alpha", "", "", "", "", "", true});
  const auto b = store.catalog().upsert_engine({"Beta", "", "", "", "", "", true});
  store.games().insert_game(busy, synthetic_game(0, 8), a, b);
  // An interrupted test (its last worker left) is open too.
  store.catalog().set_tournament_status(low, db::TournamentStatus::Aborted);

  std::vector<std::string> order;
  for (const auto& t : store.test_queue().open_tests()) order.push_back(t.tournament.name);
  CHECK(order == std::vector<std::string>{"fresh", "busy", "low"});
  (void)fresh;
  auto busy_test = store.test_queue().test(busy);
  REQUIRE(busy_test);
  CHECK(busy_test->games == 1);
  CHECK(store.test_queue().test(done)->decision == "sprt: H1 accepted");
  CHECK(store.test_queue().test(stopped)->stop_requested);
  // Listed newest first.
  CHECK(store.test_queue().tests().front().tournament.name == "stopped");
}

STORE_TEST("the first commit recorded for an engine is every worker's") {
  db::Store store = database.open();
  const auto id =
      store.catalog().create_tournament({"t", db::TournamentKind::Run, "cfg", 1, ""}).id;
  CHECK(store.test_queue().source_commits(id).empty());
  db::SourceCommitRecord first;
  first.engine = 1;
  first.name = "base";
  first.repo = "/r";
  first.ref = "main";
  first.commit = std::string(40, 'b');
  db::SourceCommitRecord second = first;
  second.commit = std::string(40, 'c');  // the branch moved on before this worker looked
  CHECK(store.test_queue().record_source_commit(id, first).commit == std::string(40, 'b'));
  CHECK(store.test_queue().record_source_commit(id, second).commit == std::string(40, 'b'));
  REQUIRE(store.test_queue().source_commits(id).size() == 1);

  const auto e = store.catalog().upsert_engine({"base", "/cache/base", "", "", "", "", false});
  store.test_queue().set_engine_source(e, "/r", std::string(40, 'b'));
  const auto rows = store.test_queue().engine_sources();
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].engine_id == e);
  CHECK(rows[0].commit == std::string(40, 'b'));
}

STORE_TEST("worker speeds and the stop epoch") {
  db::Store store = database.open();
  const auto id =
      store.catalog().create_tournament({"t", db::TournamentKind::Run, "cfg", 1, ""}).id;
  const auto w1 = store.work().register_worker({"h1", 1, ""});
  const auto w2 = store.work().register_worker({"h2", 2, ""});
  store.test_queue().set_worker_speed(w2, id, 250000.0, 4.0);
  const auto speeds = store.test_queue().worker_speeds();
  REQUIRE(speeds.size() == 1);
  CHECK(speeds[0].worker_id == w2);
  CHECK(speeds[0].tournament_id == id);
  CHECK(speeds[0].nps == 250000.0);
  CHECK(speeds[0].tc_factor == 4.0);
  (void)w1;
  CHECK(store.test_queue().stop_epoch() == 0);
  CHECK(store.test_queue().request_stop_all() == 1);
  CHECK(store.test_queue().request_stop_all() == 2);
  CHECK(store.test_queue().stop_epoch() == 2);
}

STORE_TEST("a test wants workers while it has a pair to give, or none recorded yet") {
  db::Store store = database.open();
  const auto id = store.test_queue().submit_test(new_test("t", 1)).id;
  auto fresh = store.test_queue().test(id);
  REQUIRE(fresh);
  CHECK(fresh->pairs == 0);
  CHECK(fresh->wants_workers());  // nobody has joined it: its pairs are not recorded yet
  store.work().add_pairs(id, std::vector<db::PairSlot>{{0, 0, 2, 0}, {0, 1, 2, 2}});
  const auto w = store.work().register_worker({"h", 1, ""});
  REQUIRE(store.work().claim_pair(id, w, 60s).claim);
  CHECK(store.test_queue().test(id)->free_pairs == 1);
  CHECK(store.test_queue().test(id)->wants_workers());
  REQUIRE(store.work().claim_pair(id, w, 60s).claim);
  auto busy = store.test_queue().test(id);
  CHECK(busy->pairs == 2);
  CHECK(busy->free_pairs == 0);
  CHECK(busy->live_pairs == 2);
  CHECK_FALSE(busy->wants_workers());  // every pair in play: a worker would only wait
}
