// The SPSA update rule against a worked example computed by hand, and against a noise-free
// objective it must climb to its top.
#include "runner/tune/spsa.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>

using namespace knightly::tune;

namespace {

// Ten iterations with fishtest's defaults: A = 0.1 * 10 = 1, alpha = 0.602, gamma = 0.101.
Settings ten() {
  Settings s;
  s.iterations = 10;
  return s;
}

// start 100 in [0, 200], c_end 10, r_end 0.05.
Param knight() {
  return {"KnightValue", 100, 0, 200, 10, 0.05, true};
}

}  // namespace

TEST_CASE("the gains of a worked example, computed by hand", "[tune]") {
  const Settings s = ten();
  const Param p = knight();
  // c = c_end * N^gamma = 10 * 10^0.101 = 10 * 1.2618275 = 12.618275
  // a = r_end * c_end^2 * (A + N)^alpha = 0.05 * 100 * 11^0.602 = 5 * 4.2356337 = 21.178169
  // k = 0: c_0 = c / 1^0.101 = 12.618275
  //        a_0 = a / (A + 1)^0.602 = 21.178169 / 2^0.602 = 21.178169 / 1.5178193 = 13.953024
  const Gains g0 = gains(s, p, 0);
  CHECK(g0.c == Approx(12.618275).epsilon(1e-7));
  CHECK(g0.a == Approx(13.953024).epsilon(1e-7));
  // k = 1: c_1 = c / 2^0.101 = 12.618275 / 1.0725166 = 11.765109
  //        a_1 = a / (A + 2)^0.602 = 21.178169 / 3^0.602 = 21.178169 / 1.9374343 = 10.931038
  const Gains g1 = gains(s, p, 1);
  CHECK(g1.c == Approx(11.765109).epsilon(1e-7));
  CHECK(g1.a == Approx(10.931038).epsilon(1e-7));
  // k = 9, the last: c_9 = c / 10^0.101 = c_end = 10, a_9 = a / 11^0.602 = 5, and
  // a_9 / c_9^2 = 5 / 100 = 0.05 = r_end: what c_end and r_end mean.
  const Gains g9 = gains(s, p, 9);
  CHECK(g9.c == Approx(10.0).epsilon(1e-12));
  CHECK(g9.a / (g9.c * g9.c) == Approx(0.05).epsilon(1e-12));
}

TEST_CASE("the update of a worked example, computed by hand", "[tune]") {
  const Settings s = ten();
  const std::vector<Param> params{knight()};
  std::vector<double> theta{100};
  // Iteration 0, delta = +1: theta+ played 112.62 (rounded to 112 or 113), theta- 87.38. It
  // scored two wins of the pair: r = 2 - 0 = +2.
  //   theta <- 100 + a_0 * r * delta / c_0 = 100 + 13.953024 * 2 * 1 / 12.618275
  //          = 100 + 2.211558 = 102.211558
  const Gains g0 = gains(s, params[0], 0);
  Step step0{100, +1, g0.c, g0.a, 113, 87};
  theta = advance(params, theta, std::vector<Step>{step0}, 2);
  CHECK(theta[0] == Approx(102.211558).epsilon(1e-8));
  // Iteration 1, delta = -1 (theta + c_1 * delta is the lower value, 90): it lost once more
  // than it won, r = -1, so the higher value did better and theta goes up:
  //   theta <- 102.211558 + a_1 * r * delta / c_1 = 102.211558 + 10.931038 * (-1) * (-1)
  //   / 11.765109
  //          = 102.211558 + 0.929106 = 103.140664
  const Gains g1 = gains(s, params[0], 1);
  Step step1{theta[0], -1, g1.c, g1.a, 90, 114};
  theta = advance(params, theta, std::vector<Step>{step1}, -1);
  CHECK(theta[0] == Approx(103.140664).epsilon(1e-8));
  // A step past a bound stops at it: with iteration 0's gains and delta = +1, r = -200 gives
  // 103.140664 - 13.953024 * 200 / 12.618275 = 103.140664 - 221.155803 < 0: clamped to 0.
  theta = advance(params, theta, std::vector<Step>{step0}, -200);
  CHECK(theta[0] == 0.0);
}

TEST_CASE("a perturbation: theta +- c_k, within the bounds, integers rounded the same way",
          "[tune]") {
  const Settings s = ten();
  std::vector<Param> params{knight(), {"Margin", 0.5, 0, 1, 0.1, 0.01, false}};
  // Near the top: 195 + 12.6 is clamped to 200.
  const std::vector<double> theta{195, 0.5};
  std::set<int> flips;
  for (int k = 0; k < 10; ++k) {
    const auto steps = perturb(s, params, theta, 7, k);
    REQUIRE(steps.size() == 2);
    const Gains g = gains(s, params[0], k);
    const double up = std::min(200.0, 195 + g.c * steps[0].flip);
    const double down = std::min(200.0, 195 - g.c * steps[0].flip);
    flips.insert(steps[0].flip);
    CHECK((steps[0].flip == 1 || steps[0].flip == -1));
    CHECK(steps[0].theta == 195);
    CHECK(steps[0].c == g.c);
    CHECK(steps[0].a == g.a);
    // floor(x + u): the integer just below or above, never further.
    CHECK(steps[0].plus == std::round(steps[0].plus));
    CHECK(std::abs(steps[0].plus - up) < 1);
    CHECK(std::abs(steps[0].minus - down) < 1);
    CHECK(steps[0].plus <= 200);
    // A float parameter is given exactly: 0.5 +- c_k.
    const Gains f = gains(s, params[1], k);
    CHECK(steps[1].plus == Approx(0.5 + f.c * steps[1].flip));
    CHECK(steps[1].minus == Approx(0.5 - f.c * steps[1].flip));
    // The same seed and iteration give the same draws, another iteration (or seed) others.
    CHECK(perturb(s, params, theta, 7, k) == steps);
  }
  CHECK(flips.size() == 2);
  int differ = 0;
  for (int k = 0; k < 10; ++k)
    differ += perturb(s, params, theta, 7, k)[0].flip != perturb(s, params, theta, 8, k)[0].flip;
  CHECK(differ > 0);
  CHECK(option_text(params[0], 112.5) == "113");
  CHECK(option_text(params[1], 0.25) == "0.25");
}

TEST_CASE("on a noise-free objective SPSA climbs to its top", "[tune]") {
  // f(theta) = -sum ((theta_i - top_i) / c_end_i)^2; an iteration's "result" is
  // f(theta+) - f(theta-), what a match would measure without noise.
  Settings s;
  s.iterations = 400;
  std::vector<Param> params{{"KnightValue", 107, 0, 1000, 20, 0.01, true},
                            {"Margin", 0.9, 0, 1, 0.05, 0.01, false},
                            {"Noise", 10, 0, 300, 8, 0.01, true}};
  const std::vector<double> top{320, 0.25, 120};
  auto f = [&](const std::vector<double>& x) {
    double v = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double d = (x[i] - top[i]) / params[i].c_end;
      v -= d * d;
    }
    return v;
  };
  std::vector<double> theta = start_values(params);
  for (int k = 0; k < s.iterations; ++k) {
    const auto steps = perturb(s, params, theta, 2026, k);
    std::vector<double> plus, minus;
    for (const Step& st : steps) {
      plus.push_back(st.plus);
      minus.push_back(st.minus);
    }
    theta = advance(params, theta, steps, f(plus) - f(minus));
  }
  INFO("theta " << theta[0] << " " << theta[1] << " " << theta[2]);
  CHECK(std::abs(theta[0] - top[0]) < 3);
  CHECK(std::abs(theta[1] - top[1]) < 0.01);
  CHECK(std::abs(theta[2] - top[2]) < 2);
}

TEST_CASE("a replay applies the iterations in order from the start values", "[tune]") {
  const Settings s = ten();
  const std::vector<Param> params{knight()};
  const Gains g0 = gains(s, params[0], 0), g1 = gains(s, params[0], 1);
  const std::vector<std::vector<Step>> steps{{{100, +1, g0.c, g0.a, 113, 87}},
                                             {{102.2, -1, g1.c, g1.a, 90, 114}}};
  const std::vector<double> results{2, -1};
  const auto path = replay(params, steps, results);
  REQUIRE(path.size() == 2);
  // The worked example's values: 102.211558, then 103.140664.
  CHECK(path[0][0] == Approx(102.211558).epsilon(1e-8));
  CHECK(path[1][0] == Approx(103.140664).epsilon(1e-8));
  CHECK(replay(params, steps, std::vector<double>{2}).size() == 1);
}

TEST_CASE("bad parameters and settings are named", "[tune]") {
  CHECK(check_param(knight()).empty());
  Param p = knight();
  p.min = 300;
  CHECK(check_param(p).find("min (300) must be less than max (200)") != std::string::npos);
  p = knight();
  p.start = 250;
  CHECK(check_param(p).find("start 250 is outside [0, 200]") != std::string::npos);
  p = knight();
  p.c_end = 0;
  CHECK(check_param(p).find("c_end") != std::string::npos);
  p = knight();
  p.r_end = -1;
  CHECK(check_param(p).find("r_end") != std::string::npos);
  p = {"x", 0.5, 0.2, 0.8, 0.1, 0.1, true};
  CHECK(check_param(p).find("integer") != std::string::npos);
  Settings s = ten();
  CHECK(check_settings(s).empty());
  s.iterations = 0;
  CHECK(check_settings(s).find("iterations") != std::string::npos);
  s = ten();
  s.delay = -1;
  CHECK(check_settings(s).find("delay") != std::string::npos);
}

TEST_CASE("iteration k is played around the values after k - delay iterations", "[tune]") {
  Settings s = ten();
  s.delay = 0;
  CHECK(applied_before(s, 0) == 0);
  CHECK(applied_before(s, 5) == 5);
  s.delay = 3;
  CHECK(applied_before(s, 2) == 0);
  CHECK(applied_before(s, 5) == 2);
}
