#include "runner/stats/sprt.h"

#include <cmath>

namespace knightly::runner::stats {

std::expected<void, std::string> validate(const SprtConfig& c) {
  if (!(c.elo0 < c.elo1)) return std::unexpected("sprt: elo0 must be less than elo1");
  if (!(c.alpha > 0 && c.alpha < 1)) return std::unexpected("sprt: alpha must be in (0, 1)");
  if (!(c.beta > 0 && c.beta < 1)) return std::unexpected("sprt: beta must be in (0, 1)");
  if (!(c.alpha + c.beta < 1)) return std::unexpected("sprt: alpha + beta must be less than 1");
  return {};
}

const char* decision_name(SprtDecision d) {
  switch (d) {
    case SprtDecision::AcceptH0:
      return "H0";
    case SprtDecision::AcceptH1:
      return "H1";
    default:
      return "continue";
  }
}

SprtBounds sprt_bounds(double alpha, double beta) {
  return {std::log(beta / (1.0 - alpha)), std::log((1.0 - beta) / alpha)};
}

double SprtStatus::fraction() const {
  if (llr >= 0) return bounds.upper != 0 ? llr / bounds.upper : 0;
  return bounds.lower != 0 ? -llr / bounds.lower : 0;
}

SprtDecision decide(double llr, const SprtBounds& bounds) {
  if (llr >= bounds.upper) return SprtDecision::AcceptH1;
  if (llr <= bounds.lower) return SprtDecision::AcceptH0;
  return SprtDecision::Continue;
}

SprtStatus sprt_status(const SprtConfig& config, std::span<const double> counts) {
  SprtStatus s;
  s.bounds = sprt_bounds(config.alpha, config.beta);
  s.llr = llr(config.model, config.elo0, config.elo1, counts);
  s.decision = decide(s.llr, s.bounds);
  return s;
}

SprtStatus sprt_status(const SprtConfig& config, const Pentanomial& pairs) {
  if (trinomial_only(config.model)) return sprt_status(config, pairs.games());
  const auto a = pairs.as_array();
  return sprt_status(config, std::span<const double>(a));
}

SprtStatus sprt_status(const SprtConfig& config, const Trinomial& games) {
  const auto a = games.as_array();
  return sprt_status(config, std::span<const double>(a));
}

}  // namespace knightly::runner::stats
