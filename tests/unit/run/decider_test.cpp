// The Decider reads the tournament's control row (`knightly stop`, another worker's decision)
// after each batch of stored games: at once when the store is free, and while another thread
// of the process is in the store, no later than Decider::kDecideEvery after its last read.
#include "runner/run/decider.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "db/store/store.h"
#include "runner/run/run_events.h"
#include "runner/run/run_observer.h"
#include "runner/run/stop_token.h"
#include "tests/support/process.h"

using namespace knightly;
using namespace knightly::runner;
using knightly::test::TempDir;
using SteadyNow = std::chrono::steady_clock;

namespace {

struct Fixture {
  TempDir dir;
  db::Store store;
  std::int64_t tournament = 0;
  Config config;
  RunObserver observer;
  StopToken stop;
  RunEvents events{observer, stop, OnStop::Finish};
  GameRecord game;
  ScheduledGame sg;

  static db::Store open(const std::string& path) {
    auto s = db::Store::open(path, {});
    if (!s) FAIL(s.error().message);
    return std::move(*s);
  }

  Fixture() : store(open(dir.file("decider.db"))) {
    config.tournament.name = "decided";
    // Three engines: no two-engine tally, whose refresh would read the store as well.
    for (const char* name : {"a", "b", "c"}) {
      EngineConfig e;
      e.name = name;
      e.builtin = true;
      config.engines.push_back(e);
    }
    db::NewTournament t;
    t.name = "decided";
    tournament = store.catalog().create_tournament(t).id;
    const auto engine = [&](const char* name) {
      db::EngineInfo info;
      info.name = name;
      info.builtin = true;
      return store.catalog().upsert_engine(info);
    };
    const auto a = engine("a"), b = engine("b");
    game.white = "a";
    game.black = "b";
    game.result = Result::Draw;
    game.termination = Termination::Repetition;
    game.reason = "Draw by 3-fold repetition";
    // A stored game, for a streamed read that holds the store from another thread.
    store.games().insert_game(tournament, game, a, b);
    sg.id = game.id;
  }
};

}  // namespace

TEST_CASE("the control row is read after a batch at once when the store is free") {
  Fixture f;
  Decider d(f.config, f.events, f.stop);
  d.start(f.store, f.tournament, true);
  REQUIRE(f.store.work().request_stop("decided", "stopped by the test"));
  const Decider::StoredGame one{&f.sg, &f.game};
  d.stored(std::span(&one, 1), [](std::size_t) {});
  CHECK(d.stopped());
  CHECK(d.decision() == "stopped by the test");
  CHECK(f.stop.stopping());
}

TEST_CASE("while another thread is in the store, the control row waits at most kDecideEvery") {
  Fixture f;
  Decider d(f.config, f.events, f.stop);
  d.start(f.store, f.tournament, true);
  d.decide();  // read: running, no stop
  const auto read_at = SteadyNow::now();
  REQUIRE_FALSE(d.stopped());
  REQUIRE(f.store.work().request_stop("decided", "stopped by the test"));
  const Decider::StoredGame one{&f.sg, &f.game};

  // Soon after the last read, with the store held elsewhere: the batch does not wait for the
  // store to read the row again.
  std::atomic<bool> done{false};
  bool done_while_held = false;
  SteadyNow::time_point stored_at;
  std::thread first;
  f.store.queries().for_each_game({}, [&](const db::StoredGame&) {
    first = std::thread([&] {
      stored_at = SteadyNow::now();
      d.stored(std::span(&one, 1), [](std::size_t) {});
      done = true;
    });
    // Held until the batch is through, or long past the bound if it waits for the store.
    for (int i = 0; i < 2000 && !done; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    done_while_held = done;
  });
  first.join();
  // (A machine so slow that the batch came kDecideEvery after the read reads the row.)
  const bool soon = stored_at - read_at < Decider::kDecideEvery;
  CHECK((done_while_held || !soon));
  if (soon) CHECK_FALSE(d.stopped());
  if (d.stopped()) return;

  // Once the last read is kDecideEvery old, the row is read even though the store is held
  // (the batch waits for it).
  std::this_thread::sleep_for(Decider::kDecideEvery);
  done = false;
  std::thread later;
  f.store.queries().for_each_game({}, [&](const db::StoredGame&) {
    later = std::thread([&] {
      d.stored(std::span(&one, 1), [](std::size_t) {});
      done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(done);  // waiting for the store this thread holds, let go on return
  });
  later.join();
  REQUIRE(done);
  CHECK(d.stopped());
  CHECK(d.decision() == "stopped by the test");
}
