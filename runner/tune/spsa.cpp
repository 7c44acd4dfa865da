#include "runner/tune/spsa.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/chess/splitmix64.h"

namespace knightly::tune {
namespace {

// The generator of parameter `i` in iteration `k`: its first draw is delta, its second u. A stored
// tune's later iterations are drawn the same way when it resumes: keep both.
chess::SplitMix64 draws(std::uint64_t seed, int k, std::size_t i) {
  constexpr std::uint64_t kSpsa = 0x7370736100000000ULL;  // "spsa"
  return chess::SplitMix64(chess::mix64(seed ^ kSpsa) ^
                           chess::mix64((std::uint64_t(k) << 20) + std::uint64_t(i)));
}

double clamp(const Param& p, double x) {
  return std::clamp(x, p.min, p.max);
}

// floor(x + u), kept within the parameter's integer range.
double rounded(const Param& p, double x, double u) {
  const double v = std::floor(x + u);
  return std::clamp(v, std::ceil(p.min), std::floor(p.max));
}

std::string number_text(double v) {
  char buf[64];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

}  // namespace

Gains gains(const Settings& s, const Param& p, int k) {
  const double n = s.iterations;
  const double big_a = s.a_ratio * n;
  const double c = p.c_end * std::pow(n, s.gamma);
  const double a = p.r_end * p.c_end * p.c_end * std::pow(big_a + n, s.alpha);
  return {c / std::pow(k + 1.0, s.gamma), a / std::pow(big_a + k + 1.0, s.alpha)};
}

int applied_before(const Settings& s, int k) {
  return std::max(0, k - s.delay);
}

std::vector<double> start_values(std::span<const Param> params) {
  std::vector<double> out;
  for (const Param& p : params) out.push_back(p.start);
  return out;
}

std::vector<Step> perturb(const Settings& s, std::span<const Param> params,
                          std::span<const double> theta, std::uint64_t seed, int k) {
  std::vector<Step> out;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    auto rng = draws(seed, k, i);
    Step st;
    st.theta = theta[i];
    st.flip = (rng.next() & 1) ? 1 : -1;
    const double u = rng.uniform();
    const Gains g = gains(s, p, k);
    st.c = g.c;
    st.a = g.a;
    st.plus = clamp(p, st.theta + st.c * st.flip);
    st.minus = clamp(p, st.theta - st.c * st.flip);
    if (p.integer) {
      st.plus = rounded(p, st.plus, u);
      st.minus = rounded(p, st.minus, u);
    }
    out.push_back(st);
  }
  return out;
}

std::vector<double> advance(std::span<const Param> params, std::span<const double> theta,
                            std::span<const Step> steps, double result) {
  std::vector<double> out;
  for (std::size_t i = 0; i < params.size(); ++i)
    out.push_back(clamp(params[i], theta[i] + steps[i].a * result * steps[i].flip / steps[i].c));
  return out;
}

std::vector<std::vector<double>> replay(std::span<const Param> params,
                                        std::span<const std::vector<Step>> steps,
                                        std::span<const double> results) {
  std::vector<std::vector<double>> path;
  std::vector<double> theta = start_values(params);
  for (std::size_t j = 0; j < results.size() && j < steps.size(); ++j) {
    theta = advance(params, theta, steps[j], results[j]);
    path.push_back(theta);
  }
  return path;
}

std::string option_text(const Param& p, double value) {
  if (p.integer) return std::to_string(std::llround(value));
  return number_text(value);
}

std::string check_param(const Param& p) {
  const std::string v = "'" + p.name + "'";
  for (double x : {p.start, p.min, p.max, p.c_end, p.r_end})
    if (!std::isfinite(x)) return v + ": every number must be finite";
  if (!(p.min < p.max))
    return v + ": min (" + number_text(p.min) + ") must be less than max (" + number_text(p.max) +
           ")";
  if (p.start < p.min || p.start > p.max)
    return v + ": start " + number_text(p.start) + " is outside [" + number_text(p.min) + ", " +
           number_text(p.max) + "]";
  if (!(p.c_end > 0)) return v + ": c_end must be more than 0";
  if (p.r_end < 0) return v + ": r_end must not be negative";
  if (p.integer && std::ceil(p.min) > std::floor(p.max))
    return v + ": an integer parameter needs an integer in [min, max]";
  return "";
}

std::string check_settings(const Settings& s) {
  if (s.iterations < 1) return "iterations must be at least 1";
  if (s.pairs_per_iteration < 1) return "pairs_per_iteration must be at least 1";
  if (s.delay < 0) return "delay must not be negative";
  if (!(s.a_ratio >= 0) || !(s.alpha >= 0) || !(s.gamma >= 0))
    return "a_ratio, alpha and gamma must not be negative";
  return "";
}

}  // namespace knightly::tune
