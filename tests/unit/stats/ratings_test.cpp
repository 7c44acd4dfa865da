// N-engine maximum-likelihood ratings: known answers, recovery of ratings the test itself
// simulated from, anchoring, perfect scores, bad input, and speed on 1M aggregated games.
#include "runner/stats/ratings.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <concepts>
#include <cstdlib>
#include <random>
#include <vector>

#include "engine/chess/splitmix64.h"
#include "runner/stats/elo.h"

using namespace knightly::runner::stats;

namespace {

bool quick() {
  const char* q = std::getenv("KNIGHTLY_QUICK");
  return q && *q && std::string(q) != "0";
}

double expected(double diff) {
  return 1.0 / (1.0 + std::pow(10.0, -diff / 400.0));
}

// Plays `games` games between every two engines with the given true ratings: a draw with
// probability draw_rate (capped so both decisive outcomes stay possible), otherwise a win
// drawn so that the expected score is the logistic one.
std::vector<PairResults> simulate(const std::vector<double>& truth, int games, double draw_rate,
                                  std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<PairResults> out;
  for (int a = 0; a < static_cast<int>(truth.size()); ++a) {
    for (int b = a + 1; b < static_cast<int>(truth.size()); ++b) {
      const double s =
          expected(truth[static_cast<std::size_t>(a)] - truth[static_cast<std::size_t>(b)]);
      const double d = std::min(draw_rate, 2.0 * std::min(s, 1.0 - s) * 0.9);
      const double pw = s - d / 2.0;
      PairResults p{a, b, 0, 0, 0};
      for (int g = 0; g < games; ++g) {
        const double x = u(rng);
        if (x < pw)
          ++p.a_wins;
        else if (x < pw + d)
          ++p.draws;
        else
          ++p.b_wins;
      }
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("two engines: the MLE is the score's Elo, split around the average", "[stats][ratings]") {
  // 60 wins, 20 draws, 20 losses: score 0.7, Elo difference 400 log10(0.7 / 0.3) = 147.19.
  const std::vector<PairResults> pairs{{0, 1, 60, 20, 20}};
  RatingOptions o;
  o.simulations = 0;
  const auto r = compute_ratings(2, pairs, o);
  REQUIRE(r.has_value());
  CHECK(r->engines[0].rating - r->engines[1].rating == Approx(147.1906).epsilon(1e-6));
  CHECK(r->engines[0].rating + r->engines[1].rating == Approx(0).margin(1e-9));
  CHECK(r->engines[0].games == 100);
  CHECK(r->engines[0].points == 70);
  CHECK(r->engines[1].points == 30);
  CHECK_FALSE(r->engines[0].regularized);
}

TEST_CASE("three engines in a cycle: known closed form", "[stats][ratings]") {
  // A beats B, B beats C, C beats A, each 3:1 in 4 games: by symmetry all ratings equal.
  const std::vector<PairResults> pairs{{0, 1, 3, 0, 1}, {1, 2, 3, 0, 1}, {0, 2, 1, 0, 3}};
  RatingOptions o;
  o.simulations = 0;
  const auto r = compute_ratings(3, pairs, o);
  REQUIRE(r.has_value());
  for (const auto& e : r->engines) CHECK(e.rating == Approx(0).margin(1e-7));
}

TEST_CASE("simulation error matches the analytic standard error", "[stats][ratings]") {
  // 1000 decisive games at an even score: sd of the difference = (400/ln10) / sqrt(n/4) =
  // 10.99 Elo; with the average anchored at 0 each engine carries half of it.
  const std::vector<PairResults> pairs{{0, 1, 500, 0, 500}};
  RatingOptions o;
  o.simulations = quick() ? 300 : 2000;
  o.seed = 7;
  const auto r = compute_ratings(2, pairs, o);
  REQUIRE(r.has_value());
  const double analytic = 400.0 / std::log(10.0) / std::sqrt(250.0) / 2.0;
  CHECK(r->engines[0].stdev == Approx(analytic).epsilon(0.1));
  CHECK(r->engines[0].error95 == Approx(1.959964 * r->engines[0].stdev));
}

TEST_CASE("ratings simulated from known values are recovered within their error bars",
          "[stats][ratings]") {
  // 16 engines spread over 800 Elo, true average 0, 120 games per pair, 30% draws.
  std::vector<double> truth;
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> spread(-400.0, 400.0);
  for (int i = 0; i < 16; ++i) truth.push_back(spread(rng));
  double mean = 0;
  for (double t : truth) mean += t;
  mean /= static_cast<double>(truth.size());
  for (double& t : truth) t -= mean;

  const auto pairs = simulate(truth, 120, 0.3, 99);
  RatingOptions o;
  o.simulations = quick() ? 100 : 400;
  o.seed = 5;
  const auto r = compute_ratings(static_cast<int>(truth.size()), pairs, o);
  REQUIRE(r.has_value());
  int inside = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    const auto& e = r->engines[i];
    INFO("engine " << i << " true " << truth[i] << " fitted " << e.rating << " +/- " << e.error95);
    CHECK(std::isfinite(e.rating));
    CHECK(e.error95 > 5);
    CHECK(e.error95 < 100);
    CHECK(std::abs(e.rating - truth[i]) < 2.0 * e.error95);  // never far outside
    if (std::abs(e.rating - truth[i]) <= e.error95) ++inside;
    CHECK_FALSE(e.regularized);
  }
  CHECK(inside >= 14);  // a 95% interval: about 15 of 16 inside
}

TEST_CASE("anchoring fixes one engine and keeps every difference", "[stats][ratings]") {
  const std::vector<double> truth{0, 100, 200, -150, 50};
  const auto pairs = simulate(truth, 200, 0.4, 3);
  RatingOptions avg;
  avg.simulations = 50;
  RatingOptions anchored = avg;
  anchored.anchor = 3;
  anchored.anchor_rating = 2000;
  const auto a = compute_ratings(5, pairs, avg);
  const auto b = compute_ratings(5, pairs, anchored);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  double sum = 0;
  for (const auto& e : a->engines) sum += e.rating;
  CHECK(sum == Approx(0).margin(1e-6));
  CHECK(b->engines[3].rating == 2000);
  CHECK(b->engines[3].stdev == 0);  // the anchor does not move in any simulation
  for (int i = 0; i < 5; ++i) {
    CHECK(
        b->engines[static_cast<std::size_t>(i)].rating - 2000 ==
        Approx(a->engines[static_cast<std::size_t>(i)].rating - a->engines[3].rating).margin(1e-6));
    if (i != 3) CHECK(b->engines[static_cast<std::size_t>(i)].stdev > 0);
  }
  // The anchor's uncertainty moves onto the others: relative to a fixed engine they spread more.
  CHECK(b->engines[1].stdev > a->engines[1].stdev);
}

TEST_CASE("an engine with all wins or all losses gets a finite rating, wide interval, note",
          "[stats][ratings]") {
  // Engines 1..4 are a normal field; engine 0 wins every game, engine 5 loses every game.
  const std::vector<double> truth{0, 0, 30, -30, 60, 0};
  auto pairs = simulate({0, 30, -30, 60}, 100, 0.3, 11);
  for (auto& p : pairs) {
    p.a += 1;
    p.b += 1;
  }
  for (int b = 1; b <= 4; ++b) pairs.push_back({0, b, 100, 0, 0});
  for (int a = 1; a <= 4; ++a) pairs.push_back({a, 5, 100, 0, 0});
  pairs.push_back({0, 5, 100, 0, 0});
  RatingOptions o;
  o.simulations = 200;
  const auto r = compute_ratings(6, pairs, o);
  REQUIRE(r.has_value());
  const auto& top = r->engines[0];
  const auto& bottom = r->engines[5];
  for (const auto& e : r->engines) {
    CHECK(std::isfinite(e.rating));
    CHECK(std::isfinite(e.error95));
  }
  CHECK(top.regularized);
  CHECK(bottom.regularized);
  CHECK(top.note.find("100%") != std::string::npos);
  CHECK(bottom.note.find("0%") != std::string::npos);
  for (int i = 1; i <= 4; ++i) {
    const auto& e = r->engines[static_cast<std::size_t>(i)];
    CHECK_FALSE(e.regularized);
    CHECK(e.note.empty());
    CHECK(top.rating > e.rating + 300);
    CHECK(bottom.rating < e.rating - 300);
    CHECK(top.error95 > 2 * e.error95);  // wide
    CHECK(bottom.error95 > 2 * e.error95);
  }
}

TEST_CASE("two engines, one perfect score", "[stats][ratings]") {
  const std::vector<PairResults> pairs{{0, 1, 0, 0, 30}};
  const auto r = compute_ratings(2, pairs);
  REQUIRE(r.has_value());
  CHECK(std::isfinite(r->engines[0].rating));
  CHECK(r->engines[0].rating < r->engines[1].rating);
  CHECK(r->engines[0].regularized);
  CHECK(r->engines[1].regularized);
  CHECK(r->engines[1].error95 > 50);
}

TEST_CASE("a game list aggregates into the same ratings", "[stats][ratings]") {
  std::vector<GameOutcome> games;
  // 0 vs 1: 0 scores 3/4 over both colours; 1 vs 2 and 2 vs 0 some draws.
  games.push_back({0, 1, 1.0});
  games.push_back({1, 0, 0.0});
  games.push_back({0, 1, 0.5});
  games.push_back({1, 0, 0.5});
  games.push_back({1, 2, 1.0});
  games.push_back({2, 1, 0.5});
  games.push_back({2, 0, 1.0});
  games.push_back({0, 2, 0.5});
  const auto pairs = aggregate(games);
  REQUIRE(pairs.size() == 3);
  CHECK(pairs[0].a == 0);
  CHECK(pairs[0].b == 1);
  CHECK(pairs[0].a_wins == 2);
  CHECK(pairs[0].draws == 2);
  CHECK(pairs[0].b_wins == 0);
  CHECK(pairs[1].a == 0);
  CHECK(pairs[1].b == 2);
  CHECK(pairs[1].draws == 1);
  CHECK(pairs[1].b_wins == 1);
  CHECK(pairs[2].a_wins == 1);
  CHECK(pairs[2].draws == 1);
  RatingOptions o;
  o.simulations = 0;
  const auto r = compute_ratings(3, pairs, o);
  REQUIRE(r.has_value());
  for (const auto& e : r->engines) CHECK(std::isfinite(e.rating));
}

TEST_CASE("engines in groups that never met are rated group by group, as Ordo does",
          "[stats][ratings]") {
  // Group {0, 1}: 1 scores 40 of 60; group {2, 3, 4}: a cycle plus a perfect score for 4 over 3.
  const std::vector<PairResults> split{
      {0, 1, 10, 20, 30}, {2, 3, 6, 3, 1}, {3, 4, 0, 0, 8}, {2, 4, 4, 2, 4}};
  RatingOptions o;
  o.simulations = 50;
  o.anchor_rating = 1000;
  o.names = {"a", "b", "c", "d", "e"};
  const auto r = compute_ratings(5, split, o);
  REQUIRE(r.has_value());
  CHECK(r->groups == 2);
  // The larger group is group 1.
  for (int i : {2, 3, 4}) CHECK(r->engines[i].group == 1);
  for (int i : {0, 1}) CHECK(r->engines[i].group == 2);
  // Each group is centred on the anchor rating, and a group's ratings are those it gets alone.
  CHECK(r->engines[0].rating + r->engines[1].rating == Approx(2000.0));
  CHECK(r->engines[2].rating + r->engines[3].rating + r->engines[4].rating == Approx(3000.0));
  const std::vector<PairResults> alone{{0, 1, 10, 20, 30}};
  RatingOptions a;
  a.simulations = 0;
  a.anchor_rating = 1000;
  const auto two = compute_ratings(2, alone, a);
  REQUIRE(two.has_value());
  CHECK(r->engines[1].rating == Approx(two->engines[1].rating));
  CHECK(r->engines[1].rating - r->engines[0].rating ==
        Approx(score_to_elo(40.0 / 60.0)).epsilon(1e-6));
  for (const auto& e : r->engines) CHECK(std::isfinite(e.rating));
  CHECK(r->engines[0].error95 > 0);
  // The anchor fixes its own group only.
  o.anchor = 0;
  o.anchor_rating = 0;
  const auto anchored = compute_ratings(5, split, o);
  REQUIRE(anchored.has_value());
  CHECK(anchored->engines[0].rating == Approx(0.0).margin(1e-9));
  CHECK(anchored->engines[2].rating + anchored->engines[3].rating + anchored->engines[4].rating ==
        Approx(0.0).margin(1e-6));
}

TEST_CASE("bad input is an error value, naming the engine", "[stats][ratings]") {
  RatingOptions named;
  named.names = {"alpha", "beta", "gamma"};
  auto r = compute_ratings(3, std::vector<PairResults>{{0, 1, 1, 1, 1}}, named);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("'gamma' has no games") != std::string::npos);
  r = compute_ratings(2, std::vector<PairResults>{{0, 7, 1, 1, 1}});
  CHECK_FALSE(r.has_value());
  RatingOptions o;
  o.anchor = 9;
  r = compute_ratings(2, std::vector<PairResults>{{0, 1, 1, 1, 1}}, o);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("anchor") != std::string::npos);
}

TEST_CASE("same seed, same error bars - another seed, other error bars", "[stats][ratings]") {
  const auto pairs = simulate({0, 50, 100, 150}, 100, 0.3, 8);
  RatingOptions o;
  o.simulations = 100;
  o.seed = 42;
  const auto a = compute_ratings(4, pairs, o);
  const auto b = compute_ratings(4, pairs, o);
  o.seed = 43;
  const auto c = compute_ratings(4, pairs, o);
  REQUIRE((a && b && c));
  CHECK(a->engines[2].stdev == b->engines[2].stdev);
  CHECK(a->engines[2].stdev != c->engines[2].stdev);
  CHECK(a->engines[2].rating == c->engines[2].rating);
}

TEST_CASE("20 engines, 1M games aggregated, 200 simulations: the true ratings within the bars",
          "[stats][ratings]") {
  std::vector<double> truth;
  for (int i = 0; i < 20; ++i) truth.push_back(-300.0 + 30.0 * i);
  // 190 pairs, 5263 games each (about 1M games), drawn as binomial counts.
  std::mt19937_64 rng(77);
  std::vector<PairResults> pairs;
  std::int64_t total = 0;
  for (int a = 0; a < 20; ++a)
    for (int b = a + 1; b < 20; ++b) {
      const double s =
          expected(truth[static_cast<std::size_t>(a)] - truth[static_cast<std::size_t>(b)]);
      const double d = std::min(0.4, 2.0 * std::min(s, 1.0 - s) * 0.9);
      const std::int64_t n = 5263;
      std::binomial_distribution<std::int64_t> wins(n, s - d / 2.0);
      const std::int64_t w = wins(rng);
      std::binomial_distribution<std::int64_t> draws(n - w, d / (1.0 - (s - d / 2.0)));
      const std::int64_t dr = draws(rng);
      pairs.push_back({a, b, w, dr, n - w - dr});
      total += n;
    }
  REQUIRE(total > 999'000);
  RatingOptions o;
  o.simulations = 200;
  o.anchor = 0;
  o.anchor_rating = -300;
  // Its speed is scripts/bench-stats' to measure, not a timed assertion on a shared machine.
  const auto r = compute_ratings(20, pairs, o);
  REQUIRE(r.has_value());
  for (int i = 0; i < 20; ++i) {
    const auto& e = r->engines[static_cast<std::size_t>(i)];
    CHECK(std::abs(e.rating - truth[static_cast<std::size_t>(i)]) < 3 * e.error95 + 1e-9);
  }
}

// The simulations draw from the project's one seeded generator (engine/chess/splitmix64.h),
// through the standard distributions: SplitMix64 is a UniformRandomBitGenerator whose draws
// are its own sequence.
static_assert(std::uniform_random_bit_generator<knightly::chess::SplitMix64>);

TEST_CASE("SplitMix64 as the simulations' generator draws its own sequence", "[stats][ratings]") {
  knightly::chess::SplitMix64 a(2024), b(2024);
  for (int i = 0; i < 100; ++i) CHECK(a() == b.next());
  // Its whole range: std::binomial_distribution with p = 0.5 over many games is centred.
  knightly::chess::SplitMix64 rng(7);
  std::binomial_distribution<std::int64_t> half(1000000, 0.5);
  const auto wins = half(rng);
  CHECK(wins > 497000);
  CHECK(wins < 503000);
}
