// Shared work in the store: pairs claimed under leases, takeovers, superseded attempts, one
// decision for all workers, and many processes on one database.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "db/store/store.h"
#include "db_test_util.h"
#include "test_database.h"

using namespace knightly;
using namespace std::chrono_literals;
using db::ClaimStatus;
using db::StoreOutcome;
using knightly::test::synthetic_game;

namespace {

struct Setup {
  std::int64_t tournament = 0;
  std::int64_t alpha = 0;
  std::int64_t beta = 0;
};

Setup setup(db::Store& store, const std::string& name = "shared") {
  Setup s;
  s.tournament =
      store.catalog().create_tournament({name, db::TournamentKind::Run, "cfg", 7, ""}).id;
  s.alpha = store.catalog().upsert_engine({"Alpha", "", "", "", "", "", true});
  s.beta = store.catalog().upsert_engine({"Beta", "", "", "", "", "", true});
  return s;
}

// Pairs of synthetic_game's schedule: game index i is round i/4, pair (i%4)/2, game i%2.
std::vector<db::PairSlot> slots(int pairs, int last_pair_games = 2) {
  std::vector<db::PairSlot> out;
  for (int p = 0; p < pairs; ++p)
    out.push_back({p / 2, p % 2, p + 1 == pairs ? last_pair_games : 2, 2 * p});
  return out;
}

GameRecord game_of(const db::Claim& c, int game_in_pair, int plies = 12) {
  GameRecord g = synthetic_game(c.schedule_index + game_in_pair, plies);
  REQUIRE(g.id.round == c.round);
  REQUIRE(g.id.pair == c.pair);
  return g;
}

db::WorkerIdentity identity(std::int64_t pid) {
  return {"host-" + std::to_string(pid), pid, "2026-11-21T10:00:00.000Z"};
}

std::int64_t superseded_rows(const db::Store& store) {
  std::int64_t n = 0;
  for (const auto& w : store.work().workers({})) n += w.superseded;
  return n;
}

}  // namespace

STORE_TEST("pairs are claimed in schedule order, each once, until every pair is stored") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto w1 = store.work().register_worker(identity(1));
  const auto w2 = store.work().register_worker(identity(2));
  CHECK(w1 != w2);
  const auto all = slots(3, 1);  // pairs 0 and 1 of two games, pair 2 of one game
  store.work().add_pairs(s.tournament, all);
  store.work().add_pairs(s.tournament, all);  // idempotent

  auto a = store.work().claim_pair(s.tournament, w1, 60s);
  auto b = store.work().claim_pair(s.tournament, w2, 60s);
  auto c = store.work().claim_pair(s.tournament, w1, 60s);
  REQUIRE(a.status == ClaimStatus::Claimed);
  REQUIRE(b.status == ClaimStatus::Claimed);
  REQUIRE(c.status == ClaimStatus::Claimed);
  CHECK(a.claim->schedule_index == 0);
  CHECK(b.claim->schedule_index == 2);
  CHECK(c.claim->schedule_index == 4);
  CHECK(c.claim->games == 1);
  CHECK(a.claim->attempt == 1);
  CHECK(a.claim->stored.empty());
  CHECK(a.claim->worker_id == w1);
  // Everything is leased: another worker must wait.
  CHECK(store.work().claim_pair(s.tournament, w2, 60s).status == ClaimStatus::Busy);

  CHECK(store.games().store_game(*a.claim, game_of(*a.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Stored);
  CHECK(store.games().store_game(*a.claim, game_of(*a.claim, 1), s.beta, s.alpha) ==
        StoreOutcome::Stored);
  CHECK(store.games().store_game(*c.claim, game_of(*c.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Stored);
  CHECK(store.work().claim_pair(s.tournament, w1, 60s).status == ClaimStatus::Busy);
  CHECK(store.games().store_game(*b.claim, game_of(*b.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Stored);
  CHECK(store.games().store_game(*b.claim, game_of(*b.claim, 1), s.beta, s.alpha) ==
        StoreOutcome::Stored);
  CHECK(store.work().claim_pair(s.tournament, w2, 60s).status == ClaimStatus::Exhausted);

  const auto ids = store.queries().stored_game_ids(s.tournament);
  REQUIRE(ids.size() == 5);
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(ids[i].index == static_cast<int>(i));
  const auto workers = store.work().workers({});
  REQUIRE(workers.size() == 2);
  CHECK(workers[0].id == w1);
  CHECK(workers[0].games == 3);
  CHECK(workers[1].games == 2);
  CHECK(workers[0].identity.host == "host-1");
  CHECK(workers[0].identity.pid == 1);
  CHECK(workers[0].identity.started_at == "2026-11-21T10:00:00.000Z");
  CHECK(superseded_rows(store) == 0);
  CHECK(store.integrity_check() == "ok");
}

STORE_TEST("an expired lease is taken over and the late result is superseded, counted nowhere") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto slow = store.work().register_worker(identity(10));
  const auto quick = store.work().register_worker(identity(11));
  store.work().add_pairs(s.tournament, slots(1));

  auto first = store.work().claim_pair(s.tournament, slow, 50ms);
  REQUIRE(first.status == ClaimStatus::Claimed);
  std::this_thread::sleep_for(150ms);
  auto second = store.work().claim_pair(s.tournament, quick, 60s);
  REQUIRE(second.status == ClaimStatus::Claimed);
  CHECK(second.claim->schedule_index == 0);
  CHECK(second.claim->attempt == first.claim->attempt + 1);

  // The slow worker's game arrives after the takeover: kept, not counted.
  auto late = game_of(*first.claim, 0);
  late.result = Result::BlackWins;
  CHECK(store.games().store_game(*first.claim, late, s.alpha, s.beta) == StoreOutcome::Superseded);
  CHECK(store.queries().count_games() == 0);
  // Its release changes nothing either: the pair is the quick worker's.
  store.work().release_claim(*first.claim);
  CHECK(store.work().claim_pair(s.tournament, slow, 60s).status == ClaimStatus::Busy);

  CHECK(store.games().store_game(*second.claim, game_of(*second.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Stored);
  CHECK(store.games().store_game(*second.claim, game_of(*second.claim, 1), s.beta, s.alpha) ==
        StoreOutcome::Stored);
  CHECK(store.queries().count_games() == 2);
  CHECK(store.queries().standings({}).at(0).games == 2);
  // One game 0 counted, the quick worker's (a white win), not the superseded black win.
  db::GameFilter black_wins;
  black_wins.result = "0-1";
  CHECK(store.queries().count_games(black_wins) == 0);
  const auto workers = store.work().workers({});
  REQUIRE(workers.size() == 2);
  CHECK(workers[0].id == slow);
  CHECK(workers[0].games == 0);
  CHECK(workers[0].superseded == 1);
  CHECK(workers[1].games == 2);
  CHECK(workers[1].superseded == 0);
  CHECK(store.work().claim_pair(s.tournament, slow, 60s).status == ClaimStatus::Exhausted);
}

STORE_TEST("a taken-over pair resumes after the games already stored") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto a = store.work().register_worker(identity(1));
  const auto b = store.work().register_worker(identity(2));
  store.work().add_pairs(s.tournament, slots(1));
  auto first = store.work().claim_pair(s.tournament, a, 50ms);
  REQUIRE(first.claim);
  CHECK(store.games().store_game(*first.claim, game_of(*first.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Stored);
  std::this_thread::sleep_for(150ms);
  auto second = store.work().claim_pair(s.tournament, b, 60s);
  REQUIRE(second.claim);
  CHECK(second.claim->stored == std::vector<int>{0});
  CHECK(store.games().store_game(*second.claim, game_of(*second.claim, 1), s.beta, s.alpha) ==
        StoreOutcome::Stored);
  CHECK(store.work().claim_pair(s.tournament, a, 60s).status == ClaimStatus::Exhausted);
  const auto workers = store.work().workers({});
  CHECK(workers[0].games == 1);
  CHECK(workers[1].games == 1);
}

STORE_TEST("renewed leases stay held and a released pair is anyone's at once") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto a = store.work().register_worker(identity(1));
  const auto b = store.work().register_worker(identity(2));
  store.work().add_pairs(s.tournament, slots(1));
  auto held = store.work().claim_pair(s.tournament, a, 200ms);
  REQUIRE(held.claim);
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(100ms);
    store.work().renew_leases(a, 200ms);
    CHECK(store.work().claim_pair(s.tournament, b, 60s).status == ClaimStatus::Busy);
  }
  store.work().release_claim(*held.claim);
  auto taken = store.work().claim_pair(s.tournament, b, 60s);
  REQUIRE(taken.status == ClaimStatus::Claimed);
  CHECK(taken.claim->attempt == 2);
  // The old holder's game no longer counts once the pair changed hands.
  CHECK(store.games().store_game(*held.claim, game_of(*held.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Superseded);
}

STORE_TEST("several pairs claimed at once: the next ones in schedule order, each its own") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto a = store.work().register_worker(identity(1));
  const auto b = store.work().register_worker(identity(2));
  store.work().add_pairs(s.tournament, slots(6));
  auto first = store.work().claim_pair(s.tournament, b, 60s);
  REQUIRE(first.claim);
  CHECK(first.more.empty());
  // b's pair is 0 (the first open one); a takes the next three.
  CHECK(first.claim->schedule_index == 0);
  auto three = store.work().claim_pairs(s.tournament, a, 60s, 3);
  REQUIRE(three.status == ClaimStatus::Claimed);
  REQUIRE(three.claim);
  REQUIRE(three.more.size() == 2);
  CHECK(three.claim->schedule_index == 2);
  CHECK(three.more[0].schedule_index == 4);
  CHECK(three.more[1].schedule_index == 6);
  for (const db::Claim* c : {&*three.claim, &three.more[0], &three.more[1]}) {
    CHECK(c->worker_id == a);
    CHECK(c->attempt == 1);
    CHECK(c->games == 2);
  }
  CHECK(database.number("SELECT count(*) FROM pairs WHERE state = 'leased' AND worker_id = " +
                        std::to_string(a)) == 3);
  // More than are left: what is left (pairs 4 and 5).
  auto rest = store.work().claim_pairs(s.tournament, b, 60s, 8);
  REQUIRE(rest.claim);
  CHECK(rest.claim->schedule_index == 8);
  REQUIRE(rest.more.size() == 1);
  CHECK(rest.more[0].schedule_index == 10);
  CHECK(store.work().claim_pairs(s.tournament, b, 60s, 8).status == ClaimStatus::Busy);
  // One of a's given back is anyone's at once; the others stay a's, and store as claimed.
  store.work().release_claim(three.more[1]);
  auto again = store.work().claim_pairs(s.tournament, b, 60s, 4);
  REQUIRE(again.claim);
  CHECK(again.claim->schedule_index == 6);
  CHECK(again.claim->attempt == 2);
  CHECK(again.more.empty());
  CHECK(store.games().store_game(three.more[0], game_of(three.more[0], 0), s.alpha, s.beta) ==
        StoreOutcome::Stored);
}

STORE_TEST("a game outside the claimed pair is refused") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto w = store.work().register_worker(identity(1));
  store.work().add_pairs(s.tournament, slots(2));
  auto c = store.work().claim_pair(s.tournament, w, 60s);
  REQUIRE(c.claim);
  try {
    store.games().store_game(*c.claim, synthetic_game(2, 8), s.alpha, s.beta);  // pair 1's game
    FAIL("a game of another pair was stored");
  } catch (const db::StoreException& e) {
    CHECK(e.kind() == db::ErrorKind::Invalid);
    CHECK(std::string(e.what()).find("not part of the claimed pair") != std::string::npos);
  }
  CHECK(store.queries().count_games() == 0);
}

STORE_TEST("the tournament is finished exactly once, and every worker then stops claiming") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto w = store.work().register_worker(identity(1));
  store.work().add_pairs(s.tournament, slots(4));
  CHECK(store.work().control(s.tournament).status == db::TournamentStatus::Running);
  CHECK(store.work().finish_tournament(s.tournament, db::TournamentStatus::Finished,
                                       "sprt: H1 accepted (LLR 2.95, 120 games)"));
  CHECK_FALSE(store.work().finish_tournament(s.tournament, db::TournamentStatus::Finished,
                                             "max games (200)"));
  CHECK_FALSE(store.work().finish_tournament(s.tournament, db::TournamentStatus::Aborted, "stop"));
  const auto control = store.work().control(s.tournament);
  CHECK(control.status == db::TournamentStatus::Finished);
  CHECK(control.decision == "sprt: H1 accepted (LLR 2.95, 120 games)");
  CHECK(store.work().claim_pair(s.tournament, w, 60s).status == ClaimStatus::Stopped);
  CHECK_FALSE(store.catalog().tournament(s.tournament)->finished_at.empty());
}

STORE_TEST("several processes race to finish: one wins") {
  const std::string target = database.target();
  std::int64_t tournament = 0;
  {
    db::Store store = database.open();
    tournament = setup(store).tournament;
  }
  std::vector<pid_t> children;
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  for (int i = 0; i < 6; ++i) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::close(ready[1]);
      char c;
      if (::read(ready[0], &c, 1) != 0) _exit(3);  // wait for the start (EOF)
      auto store = db::Store::open(target);
      if (!store) _exit(4);
      try {
        const bool won = store->work().finish_tournament(tournament, db::TournamentStatus::Finished,
                                                         "worker " + std::to_string(i));
        _exit(won ? 0 : 1);
      } catch (...) {
        _exit(5);
      }
    }
    children.push_back(pid);
  }
  ::close(ready[0]);
  ::close(ready[1]);
  int winners = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) <= 1);
    winners += WEXITSTATUS(status) == 0;
  }
  CHECK(winners == 1);
  db::Store store = database.open();
  CHECK(store.work().control(tournament).decision.rfind("worker ", 0) == 0);
}

STORE_TEST("a stop request stops claims until the tournament runs again") {
  db::Store store = database.open();
  const Setup s = setup(store, "nightly");
  const auto w = store.work().register_worker(identity(1));
  store.work().add_pairs(s.tournament, slots(2));
  CHECK_FALSE(store.work().request_stop("nobody", "stopped"));
  CHECK(store.work().request_stop("nightly", "stopped: knightly stop after 0 of 4 games"));
  // Aborted at once, with the stop and what it counted: resumable, not finished.
  const auto stopped = store.work().control(s.tournament);
  CHECK(stopped.stop_requested);
  CHECK(stopped.status == db::TournamentStatus::Aborted);
  CHECK(stopped.decision == "stopped: knightly stop after 0 of 4 games");
  CHECK(store.work().scheduled_games(s.tournament) == 4);
  CHECK(store.work().claim_pair(s.tournament, w, 60s).status == ClaimStatus::Stopped);
  // A decision cannot be recorded over it.
  CHECK_FALSE(
      store.work().finish_tournament(s.tournament, db::TournamentStatus::Finished, "complete"));
  // A resume runs it again and forgets the request and its text.
  store.catalog().set_tournament_status(s.tournament, db::TournamentStatus::Running);
  CHECK_FALSE(store.work().control(s.tournament).stop_requested);
  CHECK(store.work().control(s.tournament).decision.empty());
  CHECK(store.work().claim_pair(s.tournament, w, 60s).status == ClaimStatus::Claimed);
}

STORE_TEST("pairs are written in batches that a stop interrupts, the next call writing the rest") {
  db::Store store = database.open();
  const Setup s = setup(store, "large");
  std::vector<db::PairSlot> many;
  for (int i = 0; i < 25000; ++i) many.push_back({i, 0, 2, 2 * i});
  int asked = 0;
  CHECK_FALSE(store.work().add_pairs(s.tournament, many, [&] { return ++asked > 1; }));
  CHECK(store.work().scheduled_games(s.tournament) == 2 * 10000);  // one batch, then the stop
  CHECK(store.work().add_pairs(s.tournament, many));
  CHECK(store.work().scheduled_games(s.tournament) == 2 * 25000);
  CHECK(store.work().add_pairs(s.tournament, many));  // all there: nothing more
  CHECK(store.work().scheduled_games(s.tournament) == 2 * 25000);
}

STORE_TEST("a filter can take only the first games stored, as a decision counted them") {
  db::Store store = database.open();
  const Setup s = setup(store, "cut");
  const auto w = store.work().register_worker(identity(1));
  store.work().add_pairs(s.tournament, slots(3));
  for (int k = 0; k < 3; ++k) {
    auto c = store.work().claim_pair(s.tournament, w, 60s);
    REQUIRE(c.claim);
    for (int g = 0; g < 2; ++g)
      store.games().store_game(*c.claim, game_of(*c.claim, g), s.alpha, s.beta);
  }
  db::GameFilter f;
  f.tournament_ids = {s.tournament};
  CHECK(store.queries().count_games(f) == 6);
  f.first_stored = 4;
  CHECK(store.queries().count_games(f) == 4);
  std::int64_t games = 0;
  for (const auto& st : store.queries().standings(f)) games += st.games;
  CHECK(games == 8);  // two players each
  f.result = "1-0";
  CHECK(store.queries().count_games(f) <= 4);
}

STORE_TEST("SPRT settings are stored with the tournament") {
  db::Store store = database.open();
  const Setup s = setup(store);
  CHECK_FALSE(store.work().sprt_settings(s.tournament));
  store.work().set_sprt_settings(s.tournament, {-1.5, 3.25, 0.05, 0.1, "logistic"});
  const auto got = store.work().sprt_settings(s.tournament);
  REQUIRE(got);
  CHECK(got->elo0 == -1.5);
  CHECK(got->elo1 == 3.25);
  CHECK(got->alpha == 0.05);
  CHECK(got->beta == 0.1);
  CHECK(got->model == "logistic");
}

STORE_TEST("query workers counts games, crashes, time losses and illegal moves per worker") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const Setup other = setup(store, "other");
  const auto good = store.work().register_worker(identity(1));
  const auto bad = store.work().register_worker(identity(2));
  const auto idle = store.work().register_worker(identity(3));
  store.work().add_pairs(s.tournament, slots(2));
  store.work().add_pairs(other.tournament, slots(1));
  auto c1 = store.work().claim_pair(s.tournament, good, 60s);
  auto c2 = store.work().claim_pair(s.tournament, bad, 60s);
  auto c3 = store.work().claim_pair(other.tournament, bad, 60s);
  REQUIRE((c1.claim && c2.claim && c3.claim));
  auto put = [&](const db::Claim& c, int g, Termination t) {
    auto game = game_of(c, g);
    game.termination = t;
    store.games().store_game(c, game, s.alpha, s.beta);
  };
  put(*c1.claim, 0, Termination::Checkmate);
  put(*c1.claim, 1, Termination::TimeForfeit);
  put(*c2.claim, 0, Termination::Disconnect);
  put(*c2.claim, 1, Termination::IllegalMove);
  put(*c3.claim, 0, Termination::Stall);
  put(*c3.claim, 1, Termination::TimeForfeit);

  auto all = store.work().workers({});
  REQUIRE(all.size() == 3);
  CHECK((all[0].games == 2 && all[0].crashes == 0 && all[0].time_losses == 1 &&
         all[0].illegal_moves == 0));
  CHECK((all[1].games == 4 && all[1].crashes == 2 && all[1].time_losses == 1 &&
         all[1].illegal_moves == 1));
  CHECK(all[2].id == idle);
  CHECK(all[2].games == 0);
  CHECK(all[2].last_seen.size() == std::string("2026-11-21T10:00:00.000Z").size());

  db::GameFilter in_shared;
  in_shared.tournaments = {"shared"};
  auto some = store.work().workers(in_shared);
  REQUIRE(some.size() == 2);  // the idle worker played nothing there
  CHECK((some[1].id == bad && some[1].games == 2 && some[1].crashes == 1 &&
         some[1].time_losses == 0 && some[1].illegal_moves == 1));
  // Filters bind hostile text as a value.
  db::GameFilter hostile;
  hostile.tournaments = {"x' OR '1'='1"};
  CHECK(store.work().workers(hostile).empty());
}

STORE_TEST("games stored before the pairs were recorded count when they are") {
  db::Store store = database.open();
  const Setup s = setup(store);
  // Pair 0 complete, pair 1 half played, by an older single-process run.
  for (int i : {0, 1, 2})
    store.games().insert_game(s.tournament, synthetic_game(i, 8), s.alpha, s.beta);
  store.work().add_pairs(s.tournament, slots(3));
  const auto w = store.work().register_worker(identity(1));
  auto c = store.work().claim_pair(s.tournament, w, 60s);
  REQUIRE(c.claim);
  CHECK(c.claim->schedule_index == 2);
  CHECK(c.claim->stored == std::vector<int>{0});
  auto d = store.work().claim_pair(s.tournament, w, 60s);
  REQUIRE(d.claim);
  CHECK(d.claim->schedule_index == 4);
  CHECK(d.claim->stored.empty());
}

STORE_TEST("a worker killed mid-pair leaves a lease that another worker takes over") {
  std::int64_t tournament = 0;
  {
    db::Store store = database.open();
    tournament = setup(store).tournament;
    store.work().add_pairs(tournament, slots(2));
  }
  const std::string target = database.target();
  int done[2];
  REQUIRE(::pipe(done) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(done[0]);
    auto store = db::Store::open(target);
    if (!store) _exit(3);
    const auto w = store->work().register_worker(identity(::getpid()));
    // Long enough that the survivor's first claim (its connection included, on a loaded
    // machine) comes while the lease holds; short enough to wait out below.
    auto c = store->work().claim_pair(tournament, w, 3s);
    if (!c.claim) _exit(4);
    store->games().store_game(*c.claim, synthetic_game(0, 10),
                              *store->catalog().find_engine("Alpha"),
                              *store->catalog().find_engine("Beta"));
    if (::write(done[1], "x", 1) != 1) _exit(5);
    for (;;) ::pause();  // killed mid-pair, holding the lease
  }
  ::close(done[1]);
  char c;
  REQUIRE(::read(done[0], &c, 1) == 1);
  ::close(done[0]);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(WIFSIGNALED(status));

  db::Store store = database.open();
  const auto w = store.work().register_worker(identity(2));
  // Pair 0 is still leased to the dead worker: the survivor gets pair 1 first.
  auto next = store.work().claim_pair(tournament, w, 60s);
  REQUIRE(next.claim);
  CHECK(next.claim->schedule_index == 2);
  std::this_thread::sleep_for(3100ms);
  auto taken = store.work().claim_pair(tournament, w, 60s);
  REQUIRE(taken.claim);
  CHECK(taken.claim->schedule_index == 0);
  CHECK(taken.claim->attempt == 2);
  CHECK(taken.claim->stored == std::vector<int>{0});
  CHECK(store.integrity_check() == "ok");
}

STORE_TEST("many processes claim and store every pair exactly once") {
  const int pairs = std::getenv("KNIGHTLY_QUICK") ? 24 : 60;
  const int processes = 6;
  std::int64_t tournament = 0;
  {
    db::Store store = database.open();
    tournament = setup(store).tournament;
  }
  const std::string target = database.target();
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      try {
        db::StoreOptions options;
        options.sync_every_commit = false;
        auto store = db::Store::open(target, options);
        if (!store) _exit(3);
        // Every worker records the pairs, as every `knightly run` does at start.
        store->work().add_pairs(tournament, slots(pairs));
        const auto alpha = *store->catalog().find_engine("Alpha");
        const auto beta = *store->catalog().find_engine("Beta");
        const auto w = store->work().register_worker(identity(::getpid()));
        for (;;) {
          auto r = store->work().claim_pair(tournament, w, 30s);
          if (r.status == ClaimStatus::Exhausted) break;
          if (r.status != ClaimStatus::Claimed) {
            std::this_thread::sleep_for(2ms);
            continue;
          }
          for (int g = 0; g < r.claim->games; ++g) {
            auto game = synthetic_game(r.claim->schedule_index + g, 20);
            if (store->games().store_game(*r.claim, game, alpha, beta) != StoreOutcome::Stored)
              _exit(6);
          }
        }
        _exit(0);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "worker: %s\n", e.what());
        _exit(7);
      }
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  db::Store store = database.open();
  const auto ids = store.queries().stored_game_ids(tournament);
  REQUIRE(ids.size() == static_cast<std::size_t>(2 * pairs));
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(ids[i].index == static_cast<int>(i));
  const auto workers = store.work().workers({});
  CHECK(workers.size() == static_cast<std::size_t>(processes));
  std::int64_t played = 0;
  for (const auto& w : workers) played += w.games;
  CHECK(played == 2 * pairs);
  CHECK(superseded_rows(store) == 0);
  CHECK(store.integrity_check() == "ok");
}

STORE_TEST("a statement failing inside a transaction leaves nothing behind and the store usable") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto slow = store.work().register_worker(identity(1));
  const auto quick = store.work().register_worker(identity(2));
  store.work().add_pairs(s.tournament, slots(1));
  auto first = store.work().claim_pair(s.tournament, slow, 50ms);
  REQUIRE(first.claim);
  std::this_thread::sleep_for(150ms);
  auto second = store.work().claim_pair(s.tournament, quick, 60s);
  REQUIRE(second.claim);
  // The superseded row names an engine that does not exist: the foreign key refuses it (on
  // PostgreSQL only when the pipelined transaction is synchronised, at commit).
  try {
    store.games().store_game(*first.claim, game_of(*first.claim, 0), 999, s.beta);
    FAIL("a row with an unknown engine was stored");
  } catch (const db::StoreException& e) {
    CHECK(e.kind() == db::ErrorKind::Conflict);
    CHECK(std::string(e.what()).find("storing game (round 0, pair 0, game 0)") !=
          std::string::npos);
  }
  CHECK(superseded_rows(store) == 0);
  CHECK(store.games().store_game(*second.claim, game_of(*second.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Stored);
  CHECK(store.games().store_game(*first.claim, game_of(*first.claim, 1), s.alpha, s.beta) ==
        StoreOutcome::Superseded);
  CHECK(store.queries().count_games() == 1);
  CHECK(superseded_rows(store) == 1);
  CHECK(store.integrity_check() == "ok");
}

STORE_TEST("ending a gone worker's leases makes its pairs claimable at once, in schedule order") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto gone = store.work().register_worker(identity(1));
  const auto next = store.work().register_worker(identity(2));
  store.work().add_pairs(s.tournament, slots(3));
  auto a = store.work().claim_pair(s.tournament, gone, 600s);
  REQUIRE(a.status == ClaimStatus::Claimed);
  CHECK(a.claim->schedule_index == 0);

  const auto holders = store.work().lease_holders(s.tournament);
  REQUIRE(holders.size() == 1);
  CHECK(holders[0].first == gone);
  CHECK(holders[0].second.host == "host-1");
  CHECK(holders[0].second.pid == 1);
  CHECK(holders[0].second.started_at == "2026-11-21T10:00:00.000Z");

  // Under a live lease the first pair is not another worker's; once ended, it is the first
  // one claimed again, as a new attempt.
  store.work().expire_leases(gone);
  auto b = store.work().claim_pair(s.tournament, next, 600s);
  REQUIRE(b.status == ClaimStatus::Claimed);
  CHECK(b.claim->schedule_index == 0);
  CHECK(b.claim->attempt == a.claim->attempt + 1);
  CHECK(store.work().lease_holders(s.tournament).size() == 1);
  CHECK(store.work().lease_holders(s.tournament)[0].first == next);
  // The gone worker's late result is kept aside, counted nowhere.
  CHECK(store.games().store_game(*a.claim, game_of(*a.claim, 0), s.alpha, s.beta) ==
        StoreOutcome::Superseded);
}

STORE_TEST("games of several claims stored in one transaction: each as alone, or none of them") {
  db::Store store = database.open();
  const Setup s = setup(store);
  const auto w = store.work().register_worker(identity(20));
  const auto other = store.work().register_worker(identity(21));
  store.work().add_pairs(s.tournament, slots(3));
  auto a = store.work().claim_pair(s.tournament, w, 60s);
  auto lost = store.work().claim_pair(s.tournament, w, 50ms);
  REQUIRE(a.status == ClaimStatus::Claimed);
  REQUIRE(lost.status == ClaimStatus::Claimed);
  std::this_thread::sleep_for(150ms);
  auto taken = store.work().claim_pair(s.tournament, other, 60s);  // the expired one
  REQUIRE(taken.status == ClaimStatus::Claimed);
  CHECK(taken.claim->schedule_index == lost.claim->schedule_index);
  auto c = store.work().claim_pair(s.tournament, w, 60s);
  REQUIRE(c.status == ClaimStatus::Claimed);

  const GameRecord a0 = game_of(*a.claim, 0), a1 = game_of(*a.claim, 1),
                   l0 = game_of(*lost.claim, 0), c0 = game_of(*c.claim, 0);
  using Item = db::GameWrites::ClaimedGame;
  const std::vector<Item> batch = {{&*a.claim, &a0, s.alpha, s.beta},
                                   {&*lost.claim, &l0, s.alpha, s.beta},
                                   {&*a.claim, &a1, s.beta, s.alpha},
                                   {&*c.claim, &c0, s.alpha, s.beta}};
  const auto outcomes = store.games().store_games(batch);
  CHECK(outcomes == std::vector<StoreOutcome>{StoreOutcome::Stored, StoreOutcome::Superseded,
                                              StoreOutcome::Stored, StoreOutcome::Stored});
  CHECK(store.queries().count_games() == 3);
  CHECK(superseded_rows(store) == 1);
  // The pair whose two games were in the batch is done; the one with one game is not.
  CHECK(database.value("SELECT state FROM pairs WHERE schedule_index = " +
                       std::to_string(a.claim->schedule_index)) == "done");
  CHECK(database.value("SELECT state FROM pairs WHERE schedule_index = " +
                       std::to_string(c.claim->schedule_index)) == "leased");

  // A batch with a game already stored (its pair still leased: a conflict) is refused whole:
  // the new games in it, before and after it, are not stored.
  const GameRecord t0 = game_of(*taken.claim, 0), c1 = game_of(*c.claim, 1);
  const std::vector<Item> again = {{&*taken.claim, &t0, s.alpha, s.beta},
                                   {&*c.claim, &c0, s.alpha, s.beta},
                                   {&*c.claim, &c1, s.beta, s.alpha}};
  CHECK_THROWS_AS(store.games().store_games(again), db::StoreException);
  CHECK(store.queries().count_games() == 3);
  CHECK(database.value("SELECT state FROM pairs WHERE schedule_index = " +
                       std::to_string(c.claim->schedule_index)) == "leased");
  // Alone, the new ones go in; the last one finishes its pair.
  CHECK(store.games().store_games(std::span(&again[0], 1)) ==
        std::vector<StoreOutcome>{StoreOutcome::Stored});
  CHECK(store.games().store_games(std::span(&again[2], 1)) ==
        std::vector<StoreOutcome>{StoreOutcome::Stored});
  CHECK(store.queries().count_games() == 5);
  CHECK(database.value("SELECT state FROM pairs WHERE schedule_index = " +
                       std::to_string(c.claim->schedule_index)) == "done");
  CHECK(store.integrity_check() == "ok");
}
