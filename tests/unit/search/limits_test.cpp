// Limits of one `go`: depth, nodes, movetime, clock (never losing on time), stop.
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <thread>

#include "engine/search/time_manager.h"
#include "search_test_util.h"

using namespace knightly;
using search::Algorithm;
using Clock = std::chrono::steady_clock;

namespace {

const char* const Middlegame = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";

// CPU time of this thread (the search runs on it), in ms.
std::int64_t thread_cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// A first shallow search, so that the measured one does not pay for the transposition
// table's first page faults (slow and counted as CPU time on a machine short of memory).
void warm_up(search::Search& s, const chess::Position& pos) {
  search::Limits l;
  l.depth = 3;
  test::run(s, pos, l);
  s.new_game();
}

std::int64_t ms_since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

}  // namespace

TEST_CASE("the time plan keeps the overhead reserve and spends more with more time") {
  for (std::int64_t t : {1, 5, 10, 11, 50, 100, 1000, 60000, 3600000}) {
    for (int mtg : {0, 1, 2, 40}) {
      for (std::int64_t inc : {0, 100}) {
        search::Limits l;
        l.time_ms[chess::White] = t;
        l.inc_ms[chess::White] = inc;
        l.movestogo = mtg;
        auto b = search::plan_time(l, chess::White);
        INFO("time " << t << " movestogo " << mtg << " inc " << inc);
        CHECK(b.hard_ms >= 1);
        CHECK(b.soft_ms >= 1);
        CHECK(b.soft_ms <= b.hard_ms);
        if (t > search::OverheadMs + 1) CHECK(b.hard_ms <= t - search::OverheadMs);
      }
    }
  }
  search::Limits small, big;
  small.time_ms[chess::Black] = 10000;
  big.time_ms[chess::Black] = 100000;
  CHECK(search::plan_time(small, chess::Black).soft_ms <
        search::plan_time(big, chess::Black).soft_ms);
  // The other side's clock is not ours.
  search::Limits other;
  other.time_ms[chess::White] = 100;
  other.time_ms[chess::Black] = 100000;
  CHECK(search::plan_time(other, chess::White).hard_ms <= 90);
  search::Limits inf;
  inf.infinite = true;
  CHECK_FALSE(search::plan_time(inf, chess::White).limited());
}

TEST_CASE("Move Overhead: the reserve the time plan keeps is the option's") {
  for (std::int64_t overhead : {0, 10, 100, 1000}) {
    for (std::int64_t t : {50, 500, 5000, 60000}) {
      search::Limits l;
      l.time_ms[chess::White] = t;
      l.inc_ms[chess::White] = 50;
      const auto b = search::plan_time(l, chess::White, overhead);
      INFO("overhead " << overhead << " time " << t);
      CHECK(b.soft_ms <= b.hard_ms);
      if (t > overhead + 1) CHECK(b.hard_ms <= t - overhead);
      if (t <= overhead) CHECK(b.hard_ms == 1);  // nothing left to spend: move at once
    }
  }
  // A larger reserve leaves less to spend.
  search::Limits l;
  l.time_ms[chess::Black] = 2000;
  CHECK(search::plan_time(l, chess::Black, 500).hard_ms <
        search::plan_time(l, chess::Black, 10).hard_ms);
  // The search reads it from its configuration: 9.9 s of a 10 s clock kept back leaves a
  // 12 ms budget, where the default reserve would have it think a third of a second or more.
  auto pos = test::fen(Middlegame);
  search::SearchConfig c;
  c.move_overhead_ms = 9900;
  search::Search s(c);
  warm_up(s, pos);
  search::Limits clock;
  clock.time_ms[chess::White] = clock.time_ms[chess::Black] = 10000;
  const auto t0 = Clock::now();
  const std::int64_t cpu0 = thread_cpu_ms();
  auto r = test::run(s, pos, clock);
  const auto took = ms_since(t0);
  const std::int64_t cpu = thread_cpu_ms() - cpu0;
  INFO("took " << took << " ms, " << cpu << " ms of CPU");
  CHECK(pos.is_legal(r.best));
  // As below: the CPU it used shows whether the search stopped in time on a loaded machine.
  CHECK(std::min(took, cpu) < (test::quick() ? 250 : 150));
}

TEST_CASE("depth and node limits are obeyed") {
  auto pos = test::fen(Middlegame);
  search::SearchConfig c;
  search::Search s(c);
  search::Limits l;
  l.depth = 5;
  auto r = test::run(s, pos, l);
  CHECK(r.info.depth == 5);
  search::Limits n;
  n.nodes = 5000;
  s.new_game();
  auto rn = test::run(s, pos, n);
  CHECK(rn.info.nodes <= 5000 + 1);
  CHECK(pos.is_legal(rn.best));
  // No limit at all: the configured default depth.
  c.default_depth = 3;
  search::Search s3(c);
  CHECK(test::run(s3, pos, {}).info.depth == 3);
}

TEST_CASE("movetime is respected by every depth-first algorithm") {
  auto pos = test::fen(Middlegame);
  for (auto a : {Algorithm::Minimax, Algorithm::Negamax, Algorithm::AlphaBeta, Algorithm::Mcts}) {
    INFO("algorithm " << int(a));
    search::SearchConfig c;
    c.algorithm = a;
    search::Search s(c);
    warm_up(s, pos);
    search::Limits l;
    l.movetime_ms = 100;
    auto t0 = Clock::now();
    const std::int64_t cpu0 = thread_cpu_ms();
    auto r = test::run(s, pos, l);
    auto took = ms_since(t0);
    const std::int64_t cpu = thread_cpu_ms() - cpu0;
    INFO("took " << took << " ms, " << cpu << " ms of CPU");
    CHECK(pos.is_legal(r.best));
    // Slack for a loaded or sanitized run; a thread kept waiting for a core shows it in its
    // CPU time, which a search that overran would not save.
    CHECK(std::min(took, cpu) <= 100 + (test::quick() ? 150 : 40));
    CHECK(took >= 50);
  }
}

TEST_CASE("a short clock never runs out") {
  auto pos = test::fen(Middlegame);
  for (std::int64_t t : {15, 50, 300}) {
    search::SearchConfig c;
    search::Search s(c);
    warm_up(s, pos);
    search::Limits l;
    l.time_ms[0] = l.time_ms[1] = t;
    auto t0 = Clock::now();
    const std::int64_t cpu0 = thread_cpu_ms();
    auto r = test::run(s, pos, l);
    auto took = ms_since(t0);
    const std::int64_t cpu = thread_cpu_ms() - cpu0;
    INFO("clock " << t << " took " << took << " ms, " << cpu << " ms of CPU");
    CHECK(pos.is_legal(r.best));
    // On a loaded machine the thread may wait for a core longer than the whole clock; the
    // CPU it used shows whether the search itself stopped in time.
    CHECK(std::min(took, cpu) < std::max<std::int64_t>(t - search::OverheadMs, 5));
  }
}

TEST_CASE("stop ends an infinite search within a few milliseconds") {
  auto pos = test::fen(Middlegame);
  for (auto a : {Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Mcts}) {
    INFO("algorithm " << int(a));
    search::SearchConfig c;
    c.algorithm = a;
    search::Search s(c);
    search::Limits l;
    l.infinite = true;
    std::atomic<bool> stop{false};
    Clock::time_point stopped_at;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(60));
      stopped_at = Clock::now();
      stop = true;
    });
    auto r = s.go(pos, l, stop);
    auto latency = ms_since(stopped_at);
    stopper.join();
    CHECK(pos.is_legal(r.best));
    CHECK(latency <=
          (test::quick() ? 100 : 25));  // 5 ms on an idle machine; slack for a shared one
  }
}
