// knightly-bench-workers: N worker processes share one tournament through the real Store,
// as `knightly run` workers do: claim a pair, store its games (synthetic, 60 plies, with
// moves and PGN text), the last one releasing the claim in the same transaction; until every
// pair is stored. Reports the store's overhead per game (claim + insert + release, as each
// worker waited for it) and the claims and games per second of all of them together. Run by
// scripts/bench-workers.
//
//   knightly-bench-workers --db TARGET [--workers N] [--games G] [--plies P] [--play-ms M]
//                          [--sync full|normal] [--tests T]
// TARGET: an SQLite path or a postgresql:// URL. --play-ms: each worker sleeps about M ms per
// game before storing it, as if it played it (0: workers do nothing but claim and store). The
// sleep is drawn from M/2 to 3M/2 per game: real games end at different moments, and the same
// sleep everywhere would have every worker store in the same millisecond, every game, which
// measures a queue no tournament forms (64 workers waited 35 ms each behind one another).
// --tests T: the games are T tests of the queue (docs/regression-testing.md) instead of one
// tournament, and every worker goes through it as `knightly work` does: the open test that
// needs games most (Store::open_tests), registered on it, its pairs recorded, its speed
// stored, its pairs played until none is left, the test marked finished, the next one. The
// queue's own work per test is counted into the store overhead of that test's games.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bench_games.h"
#include "db/store/store.h"

namespace {

using knightly::bench::fill_game;
using knightly::db::ClaimStatus;
using clock_type = std::chrono::steady_clock;

struct Totals {
  std::int64_t games = 0;
  std::int64_t claims = 0;
  std::int64_t busy = 0;
  std::int64_t superseded = 0;
  std::int64_t claim_us = 0;
  std::int64_t store_us = 0;
  std::int64_t queue_us = 0;  // --tests: picking, joining and finishing tests
  std::int64_t tests = 0;     // tests joined
  std::int64_t samples = 0;   // per-game overheads that follow, as uint32 microseconds
  // When this worker stored its last game (steady_clock, which is CLOCK_MONOTONIC: one clock
  // for every process of the machine). The run's wall time ends at the last of these, not when
  // the last worker has seen there is nothing left (it may be sleeping off a busy answer).
  std::int64_t last_store_ns = 0;
};

std::int64_t micros(clock_type::duration d) {
  return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

// One worker process: returns its exit code.
// The pairs of a tournament of `games` games.
std::vector<knightly::db::PairSlot> pair_slots(int games) {
  std::vector<knightly::db::PairSlot> slots;
  for (int p = 0; p < games / 2; ++p) slots.push_back({p / 1000, p % 1000, 2, 2 * p});
  return slots;
}

int worker(const std::string& target, const knightly::db::StoreOptions& options,
           std::int64_t tournament, int plies, int play_ms, int go_fd, int out_fd, int test_games,
           const std::string& prefix) {
  try {
    auto opened = knightly::db::Store::open(target, options);
    if (!opened) {
      std::fprintf(stderr, "worker: %s\n", opened.error().message.c_str());
      return 3;
    }
    knightly::db::Store& store = *opened;
    const auto alpha = *store.find_engine("Alpha");
    const auto beta = *store.find_engine("Beta");
    auto id = store.register_worker({"bench", ::getpid(), ""});
    char c;
    if (::read(go_fd, &c, 1) != 0) return 4;  // everyone starts at once (EOF)
    const bool queue = test_games > 0;
    const auto slots = pair_slots(test_games);

    Totals t;
    std::vector<std::uint32_t> samples;
    knightly::GameRecord g;
    std::minstd_rand rng(static_cast<std::uint32_t>(::getpid()));
    std::uniform_int_distribution<int> play(play_ms / 2, play_ms + play_ms / 2);
    // Paced workers join at moments spread over one game, as workers of a running tournament
    // are found: 64 first claims in the same millisecond are a start-up queue, not the
    // steady state whose cost per game is measured.
    if (play_ms > 0)
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::uniform_int_distribution<int>(0, play_ms)(rng)));
    int busy = 0;  // claims in a row that found every free pair in play
    // --tests: the test this worker plays, and what joining it cost (charged to its games).
    std::int64_t joined_us = 0, joined_games = 0;
    const auto join_next = [&](std::int64_t leaving = 0) -> bool {
      const auto q0 = clock_type::now();
      // This run's tests only (a server's database may hold other runs').
      // The first that has a pair to give, else the first (as knightly work picks).
      std::int64_t next = 0, wanting = 0;
      for (const auto& q : store.open_tests())
        if (q.tournament.name.starts_with(prefix) && q.tournament.id != leaving) {
          if (next == 0) next = q.tournament.id;
          if (wanting == 0 && q.wants_workers()) wanting = q.tournament.id;
        }
      if (wanting != 0) next = wanting;
      if (next == 0) return false;
      tournament = next;
      id = store.register_worker({"bench", ::getpid(), ""});
      store.add_pairs(tournament, slots);
      store.set_worker_speed(id, tournament, 1000000.0, 1.0);
      joined_us = micros(clock_type::now() - q0);
      t.queue_us += joined_us;
      ++t.tests;
      joined_games = 0;
      return true;
    };
    if (queue && !join_next()) tournament = 0;
    for (;;) {
      if (tournament == 0) break;
      const auto c0 = clock_type::now();
      auto r = store.claim_pair(tournament, id, std::chrono::minutes(5));
      const std::int64_t claim_us = micros(clock_type::now() - c0);
      if (queue && (r.status == ClaimStatus::Exhausted || r.status == ClaimStatus::Stopped)) {
        // Decided: the first to see it marks it (as Run::finish), then the next test.
        const auto f0 = clock_type::now();
        if (r.status == ClaimStatus::Exhausted)
          store.finish_tournament(tournament, knightly::db::TournamentStatus::Finished,
                                  "complete: all games played");
        store.control(tournament);
        t.queue_us += micros(clock_type::now() - f0);
        if (!join_next()) break;
        continue;
      }
      if (r.status == ClaimStatus::Exhausted || r.status == ClaimStatus::Stopped) break;
      if (r.status == ClaimStatus::Busy) {
        // The last pairs are in play elsewhere: a queue's worker goes to another test that has
        // a free pair (as Run's other_work); else it waits as Run::wait_for_work does (5 ms,
        // doubling, at most 1 s). Looking for work that is not there is not a game's cost.
        if (queue) {
          const auto q0 = clock_type::now();
          bool elsewhere = false;
          for (const auto& q : store.open_tests())
            elsewhere = elsewhere || (q.tournament.name.starts_with(prefix) &&
                                      q.tournament.id != tournament && q.wants_workers());
          t.queue_us += micros(clock_type::now() - q0);
          if (elsewhere && join_next(tournament)) continue;
        }
        ++t.busy;
        std::this_thread::sleep_for(std::chrono::milliseconds(5 << std::min(busy++, 7)));
        continue;
      }
      busy = 0;
      t.claim_us += claim_us;
      ++t.claims;
      const auto& claim = *r.claim;
      const int games = claim.games - static_cast<int>(claim.stored.size());
      for (int k = 0; k < claim.games; ++k) {
        if (std::find(claim.stored.begin(), claim.stored.end(), k) != claim.stored.end()) continue;
        if (play_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(play(rng)));
        const int index = claim.schedule_index + k;
        fill_game(g, index, plies, {claim.round, claim.pair, k, index});
        const auto s0 = clock_type::now();
        const auto outcome = store.store_game(claim, g, k ? beta : alpha, k ? alpha : beta);
        const std::int64_t store_us = micros(clock_type::now() - s0);
        t.store_us += store_us;
        t.last_store_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                              clock_type::now().time_since_epoch())
                              .count();
        ++t.games;
        if (outcome != knightly::db::StoreOutcome::Stored) ++t.superseded;
        // The claim's cost is shared by the games it brought; joining a test by the first games
        // this worker played of it (the test's share of the queue's work).
        std::int64_t join_share = 0;
        if (queue && joined_games++ == 0) join_share = joined_us;
        samples.push_back(
            static_cast<std::uint32_t>(store_us + claim_us / std::max(games, 1) + join_share));
      }
    }
    t.samples = static_cast<std::int64_t>(samples.size());
    if (!write_all(out_fd, &t, sizeof t) ||
        !write_all(out_fd, samples.data(), samples.size() * sizeof(std::uint32_t)))
      return 5;
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "worker: %s\n", e.what());
    return 6;
  }
}

double percentile(std::vector<std::uint32_t>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k] / 1000.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string target;
  int workers = 1;
  int games = 2000;
  int plies = 60;
  int play_ms = 0;
  int tests = 0;
  bool sync_full = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--db" && has_value)
      target = argv[++i];
    else if (a == "--workers" && has_value)
      workers = std::atoi(argv[++i]);
    else if (a == "--games" && has_value)
      games = std::atoi(argv[++i]);
    else if (a == "--plies" && has_value)
      plies = std::atoi(argv[++i]);
    else if (a == "--play-ms" && has_value)
      play_ms = std::atoi(argv[++i]);
    else if (a == "--sync" && has_value)
      sync_full = std::strcmp(argv[++i], "normal") != 0;
    else if (a == "--tests" && has_value)
      tests = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr,
                   "usage: knightly-bench-workers --db TARGET [--workers N] [--games G] "
                   "[--plies P] [--play-ms M] [--sync full|normal] [--tests T]\n");
      return 2;
    }
  }
  if (target.empty() || workers < 1 || games < 2 || tests < 0 || (tests && games / tests < 2)) {
    std::fprintf(stderr,
                 "knightly-bench-workers: --db, --workers >= 1, --games >= 2, at least 2 games "
                 "per test\n");
    return 2;
  }
  const int test_games = tests ? games / tests / 2 * 2 : 0;
  if (tests) games = test_games * tests;
  knightly::db::StoreOptions options;
  options.sync_every_commit = sync_full;
  options.busy_timeout_ms = 60000;

  // The tournament and its pairs, as the first worker of a run would record them.
  std::int64_t tournament = 0;
  const std::string name = "bench-workers-" + std::to_string(::getpid()) + "-" +
                           std::to_string(clock_type::now().time_since_epoch().count());
  {
    auto opened = knightly::db::Store::open(target, options);
    if (!opened) {
      std::fprintf(stderr, "%s\n", opened.error().message.c_str());
      return 2;
    }
    knightly::db::Store& store = *opened;
    store.upsert_engine({"Alpha", "/bin/alpha", "Hash=16", "Alpha 1", "", "", false});
    store.upsert_engine({"Beta", "/bin/beta", "Hash=16", "Beta 1", "", "", false});
    if (tests == 0) {
      tournament = store.create_tournament({name, knightly::db::TournamentKind::Run, "", 1, ""}).id;
      store.add_pairs(tournament, pair_slots(games));
    }
    // The queue: T tests submitted as `knightly submit` adds them; the workers record the pairs.
    for (int k = 0; k < tests; ++k) {
      knightly::db::NewTest test;
      test.tournament = {name + "-" + std::to_string(k), knightly::db::TournamentKind::Sprt, "", 1,
                         ""};
      test.format = "sprt";
      test.definition = "--new A --base B";
      // Its pairs recorded at submission, as `knightly submit` does.
      store.add_pairs(store.submit_test(test).id, pair_slots(test_games));
    }
  }

  // One pipe per worker for its figures (writes from several would interleave), one shared
  // pipe whose closing starts them all.
  int go[2];
  if (::pipe(go) != 0) return 2;
  std::vector<pid_t> children;
  std::vector<int> outs;
  for (int w = 0; w < workers; ++w) {
    int out[2];
    if (::pipe(out) != 0) return 2;
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("fork");
      return 2;
    }
    if (pid == 0) {
      ::close(go[1]);
      ::close(out[0]);
      for (int fd : outs) ::close(fd);
      _exit(worker(target, options, tournament, plies, play_ms, go[0], out[1], test_games,
                   name + "-"));
    }
    ::close(out[1]);
    outs.push_back(out[0]);
    children.push_back(pid);
  }
  ::close(go[0]);
  // Let every worker connect and register before the clock starts.
  std::this_thread::sleep_for(std::chrono::milliseconds(200 + 20 * workers));
  const auto start = clock_type::now();
  ::close(go[1]);

  Totals all;
  std::vector<std::uint32_t> samples;
  int failed = 0;
  for (int fd : outs) {
    Totals t;
    const bool ok = read_all(fd, &t, sizeof t) && t.samples >= 0 && t.samples <= games;
    std::vector<std::uint32_t> s(ok ? static_cast<std::size_t>(t.samples) : 0);
    if (!ok || !read_all(fd, s.data(), s.size() * sizeof(std::uint32_t))) {
      ++failed;
      ::close(fd);
      continue;
    }
    ::close(fd);
    samples.insert(samples.end(), s.begin(), s.end());
    all.games += t.games;
    all.claims += t.claims;
    all.busy += t.busy;
    all.superseded += t.superseded;
    all.claim_us += t.claim_us;
    all.store_us += t.store_us;
    all.queue_us += t.queue_us;
    all.tests += t.tests;
    all.last_store_ns = std::max(all.last_store_ns, t.last_store_ns);
  }
  const auto start_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
  const double wall = static_cast<double>(std::max(all.last_store_ns, start_ns) - start_ns) / 1e9;
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  // The workers' own CPU (the client side of every claim and store; all of it for SQLite).
  rusage usage{};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  const double worker_cpu_s =
      static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
      static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  const double worker_cpu_ms =
      worker_cpu_s * 1000.0 / static_cast<double>(std::max<std::int64_t>(all.games, 1));
  const double mean_ms =
      all.games
          ? static_cast<double>(all.claim_us + all.store_us + all.queue_us) / 1000.0 / all.games
          : 0;
  const double queue_ms_per_test =
      all.tests ? static_cast<double>(all.queue_us) / 1000.0 / static_cast<double>(all.tests) : 0;
  const double p50 = percentile(samples, 0.50);
  const double p95 = percentile(samples, 0.95);
  std::printf(
      "%d workers, %lld games (%lld claims, %lld busy answers) in %.2f s: %.0f games/s, %.0f "
      "claims/s; per game: %.3f ms of the server's time, store overhead %.3f ms mean "
      "(claim %.3f + store %.3f), p50 %.3f, p95 %.3f; workers' CPU %.3f ms per game\n",
      workers, static_cast<long long>(all.games), static_cast<long long>(all.claims),
      static_cast<long long>(all.busy), wall, all.games / wall, all.claims / wall,
      wall * 1000.0 / static_cast<double>(std::max<std::int64_t>(all.games, 1)), mean_ms,
      all.games ? all.claim_us / 1000.0 / all.games : 0.0,
      all.games ? all.store_us / 1000.0 / all.games : 0.0, p50, p95, worker_cpu_ms);
  std::printf(
      "RESULT workers=%d games=%lld games_per_s=%.1f claims_per_s=%.1f wall_ms_per_game=%.3f "
      "overhead_ms=%.3f overhead_p95_ms=%.3f worker_cpu_ms=%.3f tests=%d "
      "queue_ms_per_test=%.3f\n",
      workers, static_cast<long long>(all.games), all.games / wall, all.claims / wall,
      wall * 1000.0 / static_cast<double>(std::max<std::int64_t>(all.games, 1)), mean_ms, p95,
      worker_cpu_ms, tests, queue_ms_per_test);

  // Every game stored once, none superseded, nothing failed: otherwise the figures lie.
  auto check = knightly::db::Store::open(target, options);
  knightly::db::GameFilter f;
  if (tests == 0)
    f.tournament_ids = {tournament};
  else if (check)
    for (const auto& t : check->tests())
      if (t.tournament.name.starts_with(name + "-")) f.tournament_ids.push_back(t.tournament.id);
  const std::int64_t stored = check ? check->count_games(f) : -1;
  if (failed || all.superseded || all.games != games / 2 * 2 || stored != all.games) {
    std::fprintf(stderr,
                 "knightly-bench-workers: %d workers failed, %lld superseded, %lld games played, "
                 "%lld stored, %d expected\n",
                 failed, static_cast<long long>(all.superseded), static_cast<long long>(all.games),
                 static_cast<long long>(stored), games / 2 * 2);
    return 1;
  }
  return 0;
}
