#include "runner/stats/llr.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "runner/stats/elo.h"

namespace knightly::runner::stats {
namespace {

// At most five outcome classes, so everything lives on the stack.
struct Pdf {
  std::size_t n = 0;
  std::array<double, 5> a{};  // class values in [0, 1]
  std::array<double, 5> p{};  // probabilities
};

std::pair<double, double> mean_var(const std::array<double, 5>& a, const std::array<double, 5>& p,
                                   std::size_t n) {
  double mu = 0;
  for (std::size_t i = 0; i < n; ++i) mu += p[i] * a[i];
  double var = 0;
  for (std::size_t i = 0; i < n; ++i) var += p[i] * (a[i] - mu) * (a[i] - mu);
  return {mu, var};
}

// Root of the secular equation sum_i p_i v_i / (1 + x v_i) = 0 on the interval where every
// denominator is positive, (-1/max v, -1/min v). The function is strictly decreasing there,
// so a Newton step kept inside a shrinking bracket converges to full double precision.
double secular(const std::array<double, 5>& v, const std::array<double, 5>& p, std::size_t n) {
  double vmin = v[0], vmax = v[0];
  for (std::size_t i = 1; i < n; ++i) {
    vmin = std::min(vmin, v[i]);
    vmax = std::max(vmax, v[i]);
  }
  if (!(vmin < 0 && vmax > 0)) return 0;  // no interior root: leave the distribution as is
  double lo = -1.0 / vmax, hi = -1.0 / vmin;
  double x = 0;  // always inside the bracket
  for (int iter = 0; iter < 200; ++iter) {
    double f = 0, df = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = 1.0 + x * v[i];
      f += p[i] * v[i] / d;
      df -= p[i] * v[i] * v[i] / (d * d);
    }
    if (f == 0) return x;
    if (f > 0)
      lo = x;
    else
      hi = x;
    double next = x - f / df;
    if (!(next > lo && next < hi)) next = lo + (hi - lo) / 2.0;
    if (next == x || std::abs(next - x) <= 1e-17 * std::max(1.0, std::abs(x))) return next;
    x = next;
  }
  return x;
}

Pdf to_pdf(std::span<const double> counts, double& total) {
  Pdf pdf;
  pdf.n = counts.size();
  total = 0;
  for (std::size_t i = 0; i < pdf.n; ++i) {
    const double c = counts[i] == 0 ? kZeroCount : counts[i];
    pdf.p[i] = c;
    total += c;
  }
  for (std::size_t i = 0; i < pdf.n; ++i) {
    pdf.a[i] = static_cast<double>(i) / static_cast<double>(pdf.n - 1);
    pdf.p[i] /= total;
  }
  return pdf;
}

bool usable(std::span<const double> counts) {
  if (counts.size() != 3 && counts.size() != 5) return false;
  double sum = 0;
  for (double c : counts) sum += c;
  return sum > 0;
}

// Maximum-likelihood distribution with expectation s near the empirical one
// (support_MLE_multinomial.pdf, Proposition 1.1).
std::array<double, 5> mle_expected(const Pdf& hat, double s) {
  std::array<double, 5> v{};
  for (std::size_t i = 0; i < hat.n; ++i) v[i] = hat.a[i] - s;
  const double x = secular(v, hat.p, hat.n);
  std::array<double, 5> out{};
  for (std::size_t i = 0; i < hat.n; ++i) out[i] = hat.p[i] / (1.0 + x * v[i]);
  return out;
}

// Maximum-likelihood distribution with t-value (mu - ref) / sigma = t
// (normalized_elo_practical.pdf, section 4.1): the same fixed-point iteration as fishtest,
// from the uniform distribution, at most 10 rounds, stopping below 1e-9 change.
std::array<double, 5> mle_t_value(const Pdf& hat, double ref, double t) {
  std::array<double, 5> cur{};
  for (std::size_t i = 0; i < hat.n; ++i) cur[i] = 1.0 / static_cast<double>(hat.n);
  for (int round = 0; round < 10; ++round) {
    const auto [mu, var] = mean_var(hat.a, cur, hat.n);
    const double sigma = std::sqrt(var);
    std::array<double, 5> phi{};
    for (std::size_t i = 0; i < hat.n; ++i) {
      const double z = (mu - hat.a[i]) / sigma;
      phi[i] = hat.a[i] - ref - t * sigma * (1.0 + z * z) / 2.0;
    }
    const double x = secular(phi, hat.p, hat.n);
    double change = 0;
    for (std::size_t i = 0; i < hat.n; ++i) {
      const double next = hat.p[i] / (1.0 + x * phi[i]);
      change = std::max(change, std::abs(next - cur[i]));
      cur[i] = next;
    }
    if (change < 1e-9) break;
  }
  return cur;
}

double llr_of(const Pdf& hat, double total, const std::array<double, 5>& p0,
              const std::array<double, 5>& p1) {
  double sum = 0;
  for (std::size_t i = 0; i < hat.n; ++i) sum += hat.p[i] * (std::log(p1[i]) - std::log(p0[i]));
  return total * sum;
}

}  // namespace

const std::vector<std::string>& model_names() {
  static const std::vector<std::string> names = {"normalized", "logistic", "bayesian", "cutechess"};
  return names;
}

const char* model_name(EloModel m) {
  return model_names()[static_cast<std::size_t>(m)].c_str();
}

std::optional<EloModel> parse_model(std::string_view name) {
  const auto& names = model_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<EloModel>(i);
  return std::nullopt;
}

bool trinomial_only(EloModel m) {
  return m == EloModel::Bayesian || m == EloModel::Cutechess;
}

double llr_logistic(double elo0, double elo1, std::span<const double> counts) {
  if (!usable(counts)) return 0;
  double total = 0;
  const Pdf hat = to_pdf(counts, total);
  return llr_of(hat, total, mle_expected(hat, elo_to_score(elo0)),
                mle_expected(hat, elo_to_score(elo1)));
}

double llr_normalized(double nelo0, double nelo1, std::span<const double> counts) {
  if (!usable(counts)) return 0;
  // A pair's t-value is sqrt(2) times a game's.
  const double scale = counts.size() == 5 ? std::sqrt(2.0) : 1.0;
  const double t0 = nelo0 / kNeloPerT * scale;
  const double t1 = nelo1 / kNeloPerT * scale;
  double total = 0;
  const Pdf hat = to_pdf(counts, total);
  return llr_of(hat, total, mle_t_value(hat, 0.5, t0), mle_t_value(hat, 0.5, t1));
}

double llr_cutechess(double elo0, double elo1, std::span<const double> counts) {
  if (counts.size() != 3) return 0;
  const double losses = counts[0] + 0.5, draws = counts[1] + 0.5, wins = counts[2] + 0.5;
  const double n = wins + losses + draws;
  const double p_win = wins / n, p_loss = losses / n;
  const double draw_elo = 200.0 * std::log10((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win);
  const double x = std::pow(10.0, -draw_elo / 400.0);
  const double scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
  struct Law {
    double win, loss, draw;
  };
  auto law = [&](double bayes_elo) {
    Law l;
    l.win = 1.0 / (1.0 + std::pow(10.0, (draw_elo - bayes_elo) / 400.0));
    l.loss = 1.0 / (1.0 + std::pow(10.0, (draw_elo + bayes_elo) / 400.0));
    l.draw = 1.0 - l.win - l.loss;
    return l;
  };
  const Law p0 = law(elo0 / scale), p1 = law(elo1 / scale);
  return wins * std::log(p1.win / p0.win) + losses * std::log(p1.loss / p0.loss) +
         draws * std::log(p1.draw / p0.draw);
}

double llr_bayesian(double elo0, double elo1, std::span<const double> counts) {
  if (counts.size() != 3 || counts[0] == 0 || counts[2] == 0) return 0;
  double total = 0;
  const Pdf hat = to_pdf(counts, total);
  const double p_loss = hat.p[0], p_win = hat.p[2];
  const double draw_elo = 200.0 * std::log10((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win);
  auto score = [&](double bayes_elo) {
    const double win = 1.0 / (1.0 + std::pow(10.0, (draw_elo - bayes_elo) / 400.0));
    const double loss = 1.0 / (1.0 + std::pow(10.0, (draw_elo + bayes_elo) / 400.0));
    return win + 0.5 * (1.0 - win - loss);
  };
  return llr_of(hat, total, mle_expected(hat, score(elo0)), mle_expected(hat, score(elo1)));
}

double llr(EloModel model, double elo0, double elo1, std::span<const double> counts) {
  switch (model) {
    case EloModel::Logistic:
      return llr_logistic(elo0, elo1, counts);
    case EloModel::Bayesian:
      return llr_bayesian(elo0, elo1, counts);
    case EloModel::Cutechess:
      return llr_cutechess(elo0, elo1, counts);
    default:
      return llr_normalized(elo0, elo1, counts);
  }
}

}  // namespace knightly::runner::stats
