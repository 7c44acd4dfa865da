#include "runner/stats/ratings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <utility>

#include "engine/chess/splitmix64.h"

namespace knightly::runner::stats {
namespace {

constexpr double kLogisticScale = 2.302585092994046 / 400.0;  // ln(10) / 400: Elo to logits

// One pair as the fit sees it: points of each side, virtual draws included.
struct FitPair {
  int a = 0;
  int b = 0;
  double sa = 0;
  double sb = 0;
};

double expected_score(double diff) {
  return 1.0 / (1.0 + std::exp(-kLogisticScale * diff));
}

// log(1 + e^x) without overflow.
double softplus(double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

double log_likelihood(const std::vector<FitPair>& pairs, const std::vector<double>& r) {
  double ll = 0;
  for (const auto& p : pairs) {
    const double x =
        kLogisticScale * (r[static_cast<std::size_t>(p.a)] - r[static_cast<std::size_t>(p.b)]);
    ll -= p.sa * softplus(-x) + p.sb * softplus(x);
  }
  return ll;
}

// Solves the symmetric positive definite system m x = g in place (Cholesky). m is n*n.
bool cholesky_solve(std::vector<double>& m, std::vector<double>& g, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    double d = m[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= m[j * n + k] * m[j * n + k];
    if (!(d > 0)) return false;
    d = std::sqrt(d);
    m[j * n + j] = d;
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = m[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= m[i * n + k] * m[j * n + k];
      m[i * n + j] = s / d;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = g
    double s = g[i];
    for (std::size_t k = 0; k < i; ++k) s -= m[i * n + k] * g[k];
    g[i] = s / m[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    double s = g[i];
    for (std::size_t k = i + 1; k < n; ++k) s -= m[k * n + i] * g[k];
    g[i] = s / m[i * n + i];
  }
  return true;
}

// Newton's method with backtracking on the (concave) log-likelihood. Engine 0's rating is
// held still during the fit (the likelihood only sees differences); the caller anchors.
int fit(const std::vector<FitPair>& pairs, std::vector<double>& r) {
  const std::size_t n = r.size();
  if (n < 2) return 0;
  const std::size_t m = n - 1;  // unknowns: engines 1..n-1
  std::vector<double> hess(m * m), grad(m), step(n), trial(n);
  double ll = log_likelihood(pairs, r);
  int iter = 0;
  for (; iter < 100; ++iter) {
    std::fill(hess.begin(), hess.end(), 0.0);
    std::fill(grad.begin(), grad.end(), 0.0);
    for (const auto& p : pairs) {
      const double f =
          expected_score(r[static_cast<std::size_t>(p.a)] - r[static_cast<std::size_t>(p.b)]);
      const double g = kLogisticScale * (p.sa - (p.sa + p.sb) * f);
      const double w = kLogisticScale * kLogisticScale * (p.sa + p.sb) * f * (1.0 - f);
      const std::size_t ia = static_cast<std::size_t>(p.a), ib = static_cast<std::size_t>(p.b);
      if (ia > 0) {
        grad[ia - 1] += g;
        hess[(ia - 1) * m + (ia - 1)] += w;
      }
      if (ib > 0) {
        grad[ib - 1] -= g;
        hess[(ib - 1) * m + (ib - 1)] += w;
      }
      if (ia > 0 && ib > 0) {
        hess[(ia - 1) * m + (ib - 1)] -= w;
        hess[(ib - 1) * m + (ia - 1)] -= w;
      }
    }
    if (!cholesky_solve(hess, grad, m)) break;
    step[0] = 0;
    double biggest = 0;
    for (std::size_t i = 0; i < m; ++i) {
      step[i + 1] = grad[i];
      biggest = std::max(biggest, std::abs(grad[i]));
    }
    // Far from the optimum a full Newton step can overshoot: halve until it improves.
    double scale = 1.0;
    double ll_new = ll;
    for (int half = 0; half < 40; ++half) {
      for (std::size_t i = 0; i < n; ++i) trial[i] = r[i] + scale * step[i];
      ll_new = log_likelihood(pairs, trial);
      if (ll_new >= ll - 1e-12 * std::abs(ll)) break;
      scale /= 2;
    }
    r.swap(trial);
    ll = ll_new;
    if (biggest * scale < 1e-9) {
      ++iter;
      break;
    }
  }
  return iter;
}

// Strongly connected components of "a took points from b" (Tarjan, iterative enough for the
// engine counts we see: recursion depth is at most the engine count).
struct Scc {
  const std::vector<std::vector<int>>& adj;
  std::vector<int> index, low, comp, stack;
  std::vector<bool> on_stack;
  int counter = 0, comps = 0;

  explicit Scc(const std::vector<std::vector<int>>& g)
      : adj(g), index(g.size(), -1), low(g.size(), 0), comp(g.size(), -1), on_stack(g.size()) {
    for (std::size_t v = 0; v < g.size(); ++v)
      if (index[v] < 0) visit(static_cast<int>(v));
  }
  void visit(int v) {
    const auto uv = static_cast<std::size_t>(v);
    index[uv] = low[uv] = counter++;
    stack.push_back(v);
    on_stack[uv] = true;
    for (int w : adj[uv]) {
      const auto uw = static_cast<std::size_t>(w);
      if (index[uw] < 0) {
        visit(w);
        low[uv] = std::min(low[uv], low[uw]);
      } else if (on_stack[uw]) {
        low[uv] = std::min(low[uv], index[uw]);
      }
    }
    if (low[uv] == index[uv]) {
      int w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[static_cast<std::size_t>(w)] = false;
        comp[static_cast<std::size_t>(w)] = comps;
      } while (w != v);
      ++comps;
    }
  }
};

// The pairs as the fit sees them. Pairs between different strongly connected components of
// the "took points from" graph are the one-sided ones that push ratings to infinity: they
// (only they) get the virtual draws. Returns the component of each engine in `comp`.
std::vector<FitPair> fit_pairs(int engines, std::span<const PairResults> pairs,
                               double virtual_draws, std::vector<int>& comp, int& comps) {
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(engines));
  for (const auto& p : pairs) {
    if (p.games() == 0) continue;
    if (p.a_wins + p.draws > 0) adj[static_cast<std::size_t>(p.a)].push_back(p.b);
    if (p.b_wins + p.draws > 0) adj[static_cast<std::size_t>(p.b)].push_back(p.a);
  }
  Scc scc(adj);
  comp = scc.comp;
  comps = scc.comps;
  std::vector<FitPair> out;
  out.reserve(pairs.size());
  for (const auto& p : pairs) {
    if (p.games() == 0) continue;
    FitPair f{p.a, p.b, static_cast<double>(p.a_wins) + 0.5 * static_cast<double>(p.draws),
              static_cast<double>(p.b_wins) + 0.5 * static_cast<double>(p.draws)};
    if (comps > 1 && comp[static_cast<std::size_t>(p.a)] != comp[static_cast<std::size_t>(p.b)]) {
      f.sa += 0.5 * virtual_draws;
      f.sb += 0.5 * virtual_draws;
    }
    out.push_back(f);
  }
  return out;
}

void anchor_ratings(std::vector<double>& r, const RatingOptions& o) {
  double shift = 0;
  if (o.anchor) {
    shift = o.anchor_rating - r[static_cast<std::size_t>(*o.anchor)];
  } else {
    double mean = 0;
    for (double x : r) mean += x;
    mean /= static_cast<double>(r.size());
    shift = o.anchor_rating - mean;
  }
  for (double& x : r) x += shift;
}

}  // namespace

std::vector<PairResults> aggregate(std::span<const GameOutcome> games) {
  std::map<std::pair<int, int>, PairResults> by_pair;
  for (const auto& g : games) {
    const bool white_first = g.white < g.black;
    const int a = white_first ? g.white : g.black;
    const int b = white_first ? g.black : g.white;
    auto [it, fresh] = by_pair.try_emplace({a, b});
    if (fresh) {
      it->second.a = a;
      it->second.b = b;
    }
    const double a_score = white_first ? g.white_score : 1.0 - g.white_score;
    if (a_score > 0.75)
      ++it->second.a_wins;
    else if (a_score < 0.25)
      ++it->second.b_wins;
    else
      ++it->second.draws;
  }
  std::vector<PairResults> out;
  out.reserve(by_pair.size());
  for (auto& [key, value] : by_pair) out.push_back(value);
  return out;
}

namespace {

// One connected group: engines 0..n-1 all joined by chains of games, totals already summed.
Ratings rate_group(int engine_count, std::span<const PairResults> pairs,
                   const RatingOptions& options, Ratings out) {
  const auto n = static_cast<std::size_t>(engine_count);
  std::vector<int> comp;
  int comps = 0;
  const auto fp = fit_pairs(engine_count, pairs, options.virtual_draws, comp, comps);
  std::vector<double> r(n, 0.0);
  out.iterations = fit(fp, r);
  anchor_ratings(r, options);

  if (comps > 1) {
    // Engines outside the largest component owe their finite rating to the virtual draws.
    std::vector<int> size(static_cast<std::size_t>(comps), 0);
    for (int c : comp) ++size[static_cast<std::size_t>(c)];
    const int largest = static_cast<int>(std::max_element(size.begin(), size.end()) - size.begin());
    const bool tie =
        std::count(size.begin(), size.end(), size[static_cast<std::size_t>(largest)]) > 1;
    for (std::size_t i = 0; i < n; ++i) {
      if (!tie && comp[i] == largest) continue;
      auto& e = out.engines[i];
      e.regularized = true;
      if (e.points == static_cast<double>(e.games))
        e.note =
            "100% score: the likelihood has no finite maximum; rating regularized with "
            "virtual draws, the interval is wide";
      else if (e.points == 0)
        e.note =
            "0% score: the likelihood has no finite maximum; rating regularized with "
            "virtual draws, the interval is wide";
      else
        e.note =
            "one-sided results against part of the field: rating regularized with "
            "virtual draws";
    }
  }

  // Simulation: redraw every pair's games from the fitted expected score and the pair's
  // observed draw rate, refit, and take the spread of the refitted (anchored) ratings.
  const int sims = std::max(0, options.simulations);
  if (sims > 0) {
    chess::SplitMix64 rng(options.seed);
    std::vector<double> sum(n, 0.0), sum_sq(n, 0.0), sim_r(n);
    std::vector<PairResults> drawn(pairs.begin(), pairs.end());
    std::vector<int> sim_comp;
    int sim_comps = 0;
    for (int s = 0; s < sims; ++s) {
      for (std::size_t k = 0; k < drawn.size(); ++k) {
        const auto& p = pairs[k];
        const std::int64_t games = p.games();
        if (games == 0) continue;
        const double score =
            expected_score(r[static_cast<std::size_t>(p.a)] - r[static_cast<std::size_t>(p.b)]);
        double draw_rate = static_cast<double>(p.draws) / static_cast<double>(games);
        draw_rate = std::min(draw_rate, 2.0 * std::min(score, 1.0 - score));
        const double p_win = std::clamp(score - draw_rate / 2.0, 0.0, 1.0);
        std::binomial_distribution<std::int64_t> wins_dist(games, p_win);
        const std::int64_t wins = wins_dist(rng);
        const double p_draw_given_not_win =
            p_win < 1.0 ? std::clamp(draw_rate / (1.0 - p_win), 0.0, 1.0) : 0.0;
        std::binomial_distribution<std::int64_t> draws_dist(games - wins, p_draw_given_not_win);
        const std::int64_t draws = draws_dist(rng);
        drawn[k].a_wins = wins;
        drawn[k].draws = draws;
        drawn[k].b_wins = games - wins - draws;
      }
      const auto sim_pairs =
          fit_pairs(engine_count, drawn, options.virtual_draws, sim_comp, sim_comps);
      sim_r = r;  // warm start: the refit is a few Newton steps away
      fit(sim_pairs, sim_r);
      anchor_ratings(sim_r, options);
      for (std::size_t i = 0; i < n; ++i) {  // deviations from the fit keep the sums small
        const double d = sim_r[i] - r[i];
        sum[i] += d;
        sum_sq[i] += d * d;
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      const double mean = sum[i] / sims;
      const double var =
          sims > 1 ? std::max(0.0, (sum_sq[i] - sims * mean * mean) / (sims - 1)) : 0.0;
      out.engines[i].stdev = std::sqrt(var);
      out.engines[i].error95 = 1.959963984540054 * out.engines[i].stdev;
    }
  }
  out.simulations = sims;
  for (std::size_t i = 0; i < n; ++i) out.engines[i].rating = r[i];
  return out;
}

std::string engine_name(const RatingOptions& o, int i) {
  const auto u = static_cast<std::size_t>(i);
  return u < o.names.size() ? "'" + o.names[u] + "'" : "engine " + std::to_string(i);
}

}  // namespace

std::expected<Ratings, std::string> compute_ratings(int engine_count,
                                                    std::span<const PairResults> pairs,
                                                    const RatingOptions& options) {
  if (engine_count < 1) return std::unexpected("ratings: no engines");
  const auto n = static_cast<std::size_t>(engine_count);
  if (options.anchor && (*options.anchor < 0 || *options.anchor >= engine_count))
    return std::unexpected("ratings: anchor engine " + std::to_string(*options.anchor) +
                           " is not one of the " + std::to_string(engine_count) + " engines");

  Ratings out;
  out.engines.resize(n);
  // Connectivity of the game graph (union-find) and per-engine totals.
  std::vector<int> parent(n);
  for (std::size_t i = 0; i < n; ++i) parent[i] = static_cast<int>(i);
  auto find = [&](int x) {
    while (parent[static_cast<std::size_t>(x)] != x) {
      parent[static_cast<std::size_t>(x)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
      x = parent[static_cast<std::size_t>(x)];
    }
    return x;
  };
  for (const auto& p : pairs) {
    if (p.a < 0 || p.b < 0 || p.a >= engine_count || p.b >= engine_count || p.a == p.b)
      return std::unexpected("ratings: bad engine pair (" + std::to_string(p.a) + ", " +
                             std::to_string(p.b) + ")");
    if (p.a_wins < 0 || p.draws < 0 || p.b_wins < 0)
      return std::unexpected("ratings: negative game count between " + engine_name(options, p.a) +
                             " and " + engine_name(options, p.b));
    if (p.games() == 0) continue;
    auto& ea = out.engines[static_cast<std::size_t>(p.a)];
    auto& eb = out.engines[static_cast<std::size_t>(p.b)];
    ea.games += p.games();
    eb.games += p.games();
    ea.points += static_cast<double>(p.a_wins) + 0.5 * static_cast<double>(p.draws);
    eb.points += static_cast<double>(p.b_wins) + 0.5 * static_cast<double>(p.draws);
    parent[static_cast<std::size_t>(find(p.a))] = find(p.b);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (out.engines[i].games == 0 && n > 1)
      return std::unexpected("ratings: " + engine_name(options, static_cast<int>(i)) +
                             " has no games");

  // The groups, largest first (ties: the one with the lowest engine index first).
  std::map<int, std::vector<int>> by_root;
  for (std::size_t i = 0; i < n; ++i)
    by_root[find(static_cast<int>(i))].push_back(static_cast<int>(i));
  std::vector<std::vector<int>> groups;
  for (auto& [root, members] : by_root) groups.push_back(std::move(members));
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.size() == b.size() ? a.front() < b.front() : a.size() > b.size();
  });
  out.groups = static_cast<int>(groups.size());
  if (groups.size() == 1) return rate_group(engine_count, pairs, options, std::move(out));

  // Each group on its own: its engines renumbered 0..k-1, its pairs alone.
  std::vector<int> group_of(n), local(n);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t k = 0; k < groups[g].size(); ++k) {
      group_of[static_cast<std::size_t>(groups[g][k])] = static_cast<int>(g);
      local[static_cast<std::size_t>(groups[g][k])] = static_cast<int>(k);
    }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& members = groups[g];
    std::vector<PairResults> sub;
    for (const auto& p : pairs)
      if (group_of[static_cast<std::size_t>(p.a)] == static_cast<int>(g)) {
        PairResults q = p;
        q.a = local[static_cast<std::size_t>(p.a)];
        q.b = local[static_cast<std::size_t>(p.b)];
        sub.push_back(q);
      }
    RatingOptions o = options;
    o.anchor.reset();
    if (options.anchor &&
        group_of[static_cast<std::size_t>(*options.anchor)] == static_cast<int>(g))
      o.anchor = local[static_cast<std::size_t>(*options.anchor)];
    o.names.clear();
    for (int e : members)
      o.names.push_back(static_cast<std::size_t>(e) < options.names.size()
                            ? options.names[static_cast<std::size_t>(e)]
                            : "engine " + std::to_string(e));
    Ratings part;
    part.engines.resize(members.size());
    for (std::size_t k = 0; k < members.size(); ++k)
      part.engines[k] = out.engines[static_cast<std::size_t>(members[k])];
    part = rate_group(static_cast<int>(members.size()), sub, o, std::move(part));
    if (g == 0) out.iterations = part.iterations;
    out.simulations = part.simulations;
    for (std::size_t k = 0; k < members.size(); ++k) {
      auto& e = out.engines[static_cast<std::size_t>(members[k])];
      e = part.engines[k];
      e.group = static_cast<int>(g) + 1;
    }
  }
  return out;
}

}  // namespace knightly::runner::stats
