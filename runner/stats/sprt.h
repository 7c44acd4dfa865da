#pragma once
// The sequential probability ratio test as fishtest runs it: the GSPRT log-likelihood ratio
// against Wald's bounds log(beta/(1-alpha)) and log((1-beta)/alpha).
#include <expected>
#include <span>
#include <string>

#include "runner/stats/counts.h"
#include "runner/stats/llr.h"

namespace knightly::runner::stats {

struct SprtConfig {
  double elo0 = 0;
  double elo1 = 5;
  double alpha = 0.05;  // false positive rate: accepting H1 when Elo = elo0
  double beta = 0.05;   // false negative rate: accepting H0 when Elo = elo1
  EloModel model = EloModel::Normalized;
};

// elo0 < elo1, 0 < alpha, beta < 1, alpha + beta < 1; otherwise a message saying which.
std::expected<void, std::string> validate(const SprtConfig& config);

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };
const char* decision_name(SprtDecision d);  // "continue", "H0", "H1"

struct SprtBounds {
  double lower = 0;  // log(beta / (1 - alpha)); at or below it H0 is accepted
  double upper = 0;  // log((1 - beta) / alpha); at or above it H1 is accepted
};
SprtBounds sprt_bounds(double alpha, double beta);

struct SprtStatus {
  double llr = 0;
  SprtBounds bounds;
  SprtDecision decision = SprtDecision::Continue;
  // How far the LLR has gone towards the bound it is heading for, as fastchess prints it:
  // llr / upper when llr >= 0, otherwise -llr / lower (so negative towards H0).
  double fraction() const;
};

SprtDecision decide(double llr, const SprtBounds& bounds);

// counts: 3 or 5 frequencies as llr() takes them.
SprtStatus sprt_status(const SprtConfig& config, std::span<const double> counts);
// A trinomial-only model (llr.h) reads the games of the pairs.
SprtStatus sprt_status(const SprtConfig& config, const Pentanomial& pairs);
SprtStatus sprt_status(const SprtConfig& config, const Trinomial& games);

}  // namespace knightly::runner::stats
