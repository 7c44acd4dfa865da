#pragma once
// A tune's values as the store keeps them and SPSA (runner/tune/spsa.h) computes them: each
// parameter's settings, the tune's settings, and one parameter's step of one iteration
// (docs/tuning.md). Plain values: the arithmetic is runner/tune's.
#include <string>

namespace knightly::tune {

// fishtest's and OpenBench's defaults.
inline constexpr double kDefaultARatio = 0.1;
inline constexpr double kDefaultAlpha = 0.602;
inline constexpr double kDefaultGamma = 0.101;
// Knightly's: nine iterations in flight at most (Settings::delay).
inline constexpr int kDefaultDelay = 8;

struct Param {
  std::string name;  // the engine's option
  double start = 0;
  double min = 0, max = 0;
  double c_end = 0;  // the perturbation at the last iteration
  double r_end = 0;  // a_k / c_k^2 at the last iteration
  bool integer = true;
  bool operator==(const Param&) const = default;
};

struct Settings {
  int iterations = 1;  // N
  int pairs_per_iteration = 1;
  double a_ratio = kDefaultARatio;  // A = a_ratio * N
  double alpha = kDefaultAlpha;
  double gamma = kDefaultGamma;
  // Iteration k is played around the values after the first k - delay iterations (all of
  // them for delay 0), so up to delay + 1 iterations can be played at once by any number of
  // workers, and the values never depend on how many there are.
  int delay = kDefaultDelay;
  bool operator==(const Settings&) const = default;
};

// One parameter's part of one iteration.
struct Step {
  double theta = 0;  // the value the iteration is played around
  int flip = 1;      // delta: +1 or -1
  double c = 0;      // c_k
  double a = 0;      // a_k
  double plus = 0;   // what the engine with theta + c_k * delta is given (rounded when integer)
  double minus = 0;  // and the one with theta - c_k * delta
  bool operator==(const Step&) const = default;
};

}  // namespace knightly::tune
