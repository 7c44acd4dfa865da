// A tune in the store (db/schema/007_tune.sql): its settings and parameters recorded once, each
// iteration's steps written by its first claimer only, its result counted from its games once
// they are all stored, and claims held to a window of rounds. On SQLite and PostgreSQL.
#include <catch2/catch.hpp>
#include <chrono>

#include "db/store/store.h"
#include "db_test_util.h"
#include "test_database.h"

using namespace knightly;
using namespace std::chrono_literals;
using db::ClaimStatus;
using knightly::test::synthetic_game;
using tune::Param;
using tune::Step;

namespace {

db::TuneSetup setup_of(int iterations, int delay) {
  db::TuneSetup s;
  s.engine = "kn";
  s.plus_engine = "kn+";
  s.minus_engine = "kn-";
  s.settings.iterations = iterations;
  s.settings.pairs_per_iteration = 2;
  s.settings.delay = delay;
  s.settings.a_ratio = 0.1;
  s.settings.alpha = 0.602;
  s.settings.gamma = 0.101;
  return s;
}

const std::vector<Param> kParams{{"KnightValue", 107, 0, 1000, 20, 0.002, true},
                                 {"Margin", 0.125, 0, 1, 0.05, 0.01, false}};

struct Tune {
  std::int64_t id = 0;
  std::int64_t plus = 0, minus = 0;
  std::int64_t worker = 0;
};

// A tune of `iterations` iterations of two pairs each: round r holds pairs 0 and 1, the games
// of synthetic_game's schedule (index i: round i / 4, pair (i % 4) / 2, game i % 2).
Tune make(db::Store& store, int iterations, int delay) {
  Tune t;
  t.id = store.catalog().create_tournament({"tune", db::TournamentKind::Run, "cfg", 7, ""}).id;
  store.tunes().create_tune(t.id, setup_of(iterations, delay), kParams);
  t.plus = store.catalog().upsert_engine({"kn+", "", "", "", "", "", true});
  t.minus = store.catalog().upsert_engine({"kn-", "", "", "", "", "", true});
  std::vector<db::PairSlot> slots;
  for (int r = 0; r < iterations; ++r)
    for (int p = 0; p < 2; ++p) slots.push_back({r, p, 2, 4 * r + 2 * p});
  store.work().add_pairs(t.id, slots);
  t.worker = store.work().register_worker({"host", 1, "2026-11-21T10:00:00.000Z"});
  return t;
}

// Plays a claimed pair: game 0 with kn+ White, game 1 with kn- White, each ending `results`.
void play(db::Store& store, const Tune& t, const db::Claim& c, Result first, Result second) {
  for (int g = 0; g < 2; ++g) {
    GameRecord record = synthetic_game(c.schedule_index + g, 10, g == 0 ? "kn+" : "kn-",
                                       g == 0 ? "kn-" : "kn+", g == 0 ? first : second);
    const bool plus_white = g == 0;
    REQUIRE(store.games().store_game(c, record, plus_white ? t.plus : t.minus,
                                     plus_white ? t.minus : t.plus) == db::StoreOutcome::Stored);
  }
}

std::vector<Step> steps(double theta, int flip) {
  return {{theta, flip, 20.5, 1.25, theta + 20, theta - 20},
          {0.125, -flip, 0.0625, 0.01, 0.0625, 0.1875}};
}

}  // namespace

STORE_TEST("a tune's settings and parameters are recorded once and read back") {
  db::Store store = database.open();
  const Tune t = make(store, 3, 1);
  // Every worker records it: the first record stays.
  store.tunes().create_tune(t.id, setup_of(99, 5), kParams);
  auto stored = store.tunes().tune(t.id);
  REQUIRE(stored);
  CHECK(stored->tournament_id == t.id);
  CHECK(stored->setup == setup_of(3, 1));
  CHECK(stored->params == kParams);
  CHECK(stored->iterations.empty());
  CHECK(store.tunes().tune_ids() == std::vector<std::int64_t>{t.id});
  const auto other =
      store.catalog().create_tournament({"plain", db::TournamentKind::Run, "cfg", 7, ""}).id;
  CHECK_FALSE(store.tunes().tune(other));
}

STORE_TEST("an iteration's steps are the first claimer's, and its result counts its games once") {
  db::Store store = database.open();
  const Tune t = make(store, 3, 0);
  // Two workers begin iteration 0 with steps they computed: the first one's are recorded.
  CHECK(store.tunes().begin_tune_iteration(t.id, 0, steps(107, 1)) == steps(107, 1));
  CHECK(store.tunes().begin_tune_iteration(t.id, 0, steps(999, -1)) == steps(107, 1));
  auto a = store.work().claim_pair(t.id, t.worker, 60s, 0);
  REQUIRE(a.status == ClaimStatus::Claimed);
  REQUIRE(a.claim->round == 0);
  // kn+ wins with White, draws with Black: +1 =1 -0.
  play(store, t, *a.claim, Result::WhiteWins, Result::Draw);
  // One pair of two done: the iteration is not over.
  CHECK(store.tunes().finish_tune_iterations(t.id) == 0);
  CHECK_FALSE(store.tunes().tune(t.id)->iterations.at(0).finished());
  auto b = store.work().claim_pair(t.id, t.worker, 60s, 0);
  REQUIRE(b.status == ClaimStatus::Claimed);
  REQUIRE(b.claim->round == 0);
  // kn+ loses with White, wins with Black (kn- White loses): +1 =0 -1.
  play(store, t, *b.claim, Result::BlackWins, Result::BlackWins);
  CHECK(store.tunes().finish_tune_iterations(t.id) == 1);
  CHECK(store.tunes().finish_tune_iterations(t.id) == 0);  // counted once
  const auto stored = store.tunes().tune(t.id);
  REQUIRE(stored->iterations.size() == 1);
  const db::TuneIteration& it = stored->iterations[0];
  CHECK(it.iteration == 0);
  CHECK(it.steps == steps(107, 1));
  CHECK(it.wins == 2);
  CHECK(it.draws == 1);
  CHECK(it.losses == 1);
  CHECK(it.result() == 1);
  CHECK_FALSE(it.finished_at.empty());
}

STORE_TEST("a window of rounds holds claims until the earlier rounds are done") {
  db::Store store = database.open();
  const Tune t = make(store, 4, 1);
  // Delay 1: rounds 0 and 1 may be played at once, round 2 waits for round 0.
  std::vector<db::Claim> claims;
  for (int i = 0; i < 4; ++i) {
    auto r = store.work().claim_pair(t.id, t.worker, 60s, 1);
    REQUIRE(r.status == ClaimStatus::Claimed);
    claims.push_back(*r.claim);
  }
  CHECK(claims[0].round == 0);
  CHECK(claims[3].round == 1);
  CHECK(store.work().claim_pair(t.id, t.worker, 60s, 1).status == ClaimStatus::Busy);
  // Without a window the same tournament's next pair is round 2's.
  auto any = store.work().claim_pair(t.id, t.worker, 60s);
  REQUIRE(any.status == ClaimStatus::Claimed);
  CHECK(any.claim->round == 2);
  store.work().release_claim(*any.claim);
  // Round 1 done is not enough: round 0 still has a pair open.
  play(store, t, claims[2], Result::Draw, Result::Draw);
  play(store, t, claims[3], Result::Draw, Result::Draw);
  play(store, t, claims[0], Result::Draw, Result::Draw);
  CHECK(store.work().claim_pair(t.id, t.worker, 60s, 1).status == ClaimStatus::Busy);
  play(store, t, claims[1], Result::Draw, Result::Draw);
  // Rounds 0 and 1 done: rounds 2 and 3 open.
  auto next = store.work().claim_pair(t.id, t.worker, 60s, 1);
  REQUIRE(next.status == ClaimStatus::Claimed);
  CHECK(next.claim->round == 2);
}
