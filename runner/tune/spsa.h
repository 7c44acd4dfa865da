#pragma once
// SPSA (Spall's simultaneous perturbation stochastic approximation) as fishtest and OpenBench
// tune an engine's parameters by self-play. Iteration k (0-based) plays the engine with
// theta + c_k * delta against itself with theta - c_k * delta (delta a random +-1 per
// parameter) as game pairs, each from one opening, and moves theta by
//   theta <- clamp(theta + a_k * r * delta / c_k, min, max)
// where r = wins - losses of the theta + c_k * delta side (fishtest's R_k * c_k * result * flip
// with R_k = a_k / c_k^2). The gains, for N iterations and A = a_ratio * N, are fishtest's
// (server/fishtest/spsa_workflow.py) with OpenBench's iteration count (OpenBench/spsa_utils.py):
//   c = c_end * N^gamma                    c_k = c / (k + 1)^gamma
//   a = r_end * c_end^2 * (A + N)^alpha    a_k = a / (A + k + 1)^alpha
// so the last iteration's c_k is c_end and its a_k / c_k^2 is r_end. An integer parameter is
// given to the engine rounded stochastically (floor(x + u), u uniform in [0, 1), the same u
// for both sides) as both tools do.
//
// Pure: delta and u of iteration k are functions of the seed and k alone, so every worker that
// plays an iteration computes the same values, and theta after any number of iterations is a
// function of their results alone, applied in iteration order (docs/tuning.md).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "db/records/tune_values.h"

namespace knightly::tune {

// c_k and a_k of one parameter at iteration k (0-based).
struct Gains {
  double c = 0;
  double a = 0;
};
Gains gains(const Settings& settings, const Param& param, int k);

// How many iterations' results the values iteration k is played around include.
int applied_before(const Settings& settings, int k);

// The start values, one per parameter.
std::vector<double> start_values(std::span<const Param> params);

// Iteration k around `theta` (one value per parameter): delta and the rounding from `seed` and k.
std::vector<Step> perturb(const Settings& settings, std::span<const Param> params,
                          std::span<const double> theta, std::uint64_t seed, int k);

// The values after one iteration played with `steps` whose theta + c_k * delta side scored `result`
// (wins - losses over the iteration's games).
std::vector<double> advance(std::span<const Param> params, std::span<const double> theta,
                            std::span<const Step> steps, double result);

// The values after each of the first `results.size()` iterations, applied in order from the
// start values: iteration j was played with `steps[j]` and scored `results[j]`.
std::vector<std::vector<double>> replay(std::span<const Param> params,
                                        std::span<const std::vector<Step>> steps,
                                        std::span<const double> results);

// The value as the engine's option text: an integer for an integer parameter (round to
// nearest), else the shortest decimal that reads back as `value`.
std::string option_text(const Param& param, double value);

// What is wrong with a parameter or the settings ("" when nothing): min < max, start within,
// c_end > 0, r_end >= 0, iterations and pairs at least 1, 0 <= delay, the exponents and
// a_ratio not negative.
std::string check_param(const Param& param);
std::string check_settings(const Settings& settings);

}  // namespace knightly::tune
