#include "runner/run/tune_plan.h"

#include <stdexcept>

#include "runner/config/tune_config.h"

namespace knightly::runner {

TunePlan::TunePlan(const Config& config)
    : settings_(config.tune.settings), params_(config.tune.params) {
  setup_.engine = config.tune.engine;
  setup_.plus_engine = config.engines.at(0).name;
  setup_.minus_engine = config.engines.at(1).name;
  setup_.settings = settings_;
  theta_ = tune::start_values(params_);
}

void TunePlan::prepare(db::Store& store, std::int64_t tournament_id, std::uint64_t seed) {
  tournament_id_ = tournament_id;
  seed_ = seed;
  store.tunes().create_tune(tournament_id, setup_, params_);
  const auto stored = store.tunes().tune(tournament_id, 0);
  if (!stored || !(stored->setup == setup_) || !(stored->params == params_))
    throw std::runtime_error("tournament " + std::to_string(tournament_id) +
                             " holds another tune than its config says");
  store.tunes().finish_tune_iterations(tournament_id);
}

std::vector<double> TunePlan::theta_for(db::Store& store, int k) {
  const int needed = tune::applied_before(settings_, k);
  if (applied_ < needed) {
    const auto stored = store.tunes().tune(tournament_id_, applied_);
    auto it = stored->iterations.begin();
    for (; applied_ < needed; ++applied_, ++it) {
      if (it == stored->iterations.end() || it->iteration != applied_ || !it->finished() ||
          it->steps.size() != params_.size())
        throw std::runtime_error("iteration " + std::to_string(k + 1) +
                                 " of the tune needs the "
                                 "result of iteration " +
                                 std::to_string(applied_ + 1) + ", which the store does not hold");
      theta_ = tune::advance(params_, theta_, it->steps, static_cast<double>(it->result()));
    }
  }
  // An iteration whose delay reaches further back than this plan has gone (a resumed run's
  // first claims, or another worker's order): from the start.
  if (applied_ > needed) {
    applied_ = 0;
    theta_ = tune::start_values(params_);
    return theta_for(store, k);
  }
  return theta_;
}

std::vector<EngineConfig> TunePlan::engines(db::Store& store, int k,
                                            std::vector<EngineConfig> base) {
  std::vector<tune::Step> steps;
  {
    std::lock_guard lock(mutex_);
    // Recorded already (another worker's claim, or a pair of it played before a resume)?
    if (const auto stored = store.tunes().tune(tournament_id_, k);
        stored && !stored->iterations.empty() && stored->iterations[0].iteration == k &&
        stored->iterations[0].steps.size() == params_.size()) {
      steps = stored->iterations[0].steps;
    } else {
      store.tunes().finish_tune_iterations(tournament_id_);
      const std::vector<double> theta = theta_for(store, k);
      steps = store.tunes().begin_tune_iteration(
          tournament_id_, k, tune::perturb(settings_, params_, theta, seed_, k));
    }
  }
  std::vector<EngineConfig> out = std::move(base);
  for (std::size_t i = 0; i < params_.size(); ++i) {
    out[0].options.emplace_back(params_[i].name, tune::option_text(params_[i], steps[i].plus));
    out[1].options.emplace_back(params_[i].name, tune::option_text(params_[i], steps[i].minus));
  }
  return out;
}

void TunePlan::pair_done(db::Store& store) {
  store.tunes().finish_tune_iterations(tournament_id_);
}

std::vector<std::vector<double>> tune_path(const db::StoredTune& tune) {
  std::vector<std::vector<tune::Step>> steps;
  std::vector<double> results;
  for (const auto& it : tune.iterations) {
    if (it.iteration != static_cast<int>(results.size()) || !it.finished() ||
        it.steps.size() != tune.params.size())
      break;
    steps.push_back(it.steps);
    results.push_back(static_cast<double>(it.result()));
  }
  return tune::replay(tune.params, steps, results);
}

}  // namespace knightly::runner
