#include "runner/config/tune_config.h"

#include <algorithm>
#include <cctype>

#include "engine/base/ascii.h"
#include "runner/config/closest_name.h"
#include "runner/config/config_validate.h"

namespace knightly::runner {
namespace {

std::string param_key(std::size_t i) {
  return "tune.param[" + std::to_string(i + 1) + "]";
}

}  // namespace

std::string tune_plus_name(const std::string& engine) {
  return engine + "+";
}

std::string tune_minus_name(const std::string& engine) {
  return engine + "-";
}

std::optional<ConfigError> expand_tune(Config& config) {
  TuneConfig& tune = config.tune;
  if (!tune.enabled) return std::nullopt;
  if (auto problem = tune::check_settings(tune.settings); !problem.empty())
    return key_error("tune", problem);
  if (tune.params.empty())
    return key_error("tune.param", "a tune needs at least one [[tune.param]] table");
  std::vector<std::string> names;
  for (const auto& e : config.engines) names.push_back(e.name);
  const auto it = std::find_if(config.engines.begin(), config.engines.end(),
                               [&](const EngineConfig& e) { return e.name == tune.engine; });
  if (it == config.engines.end())
    return key_error("tune.engine", "no [[engine]] is named '" + tune.engine + "'" +
                                        suggestion_text(tune.engine, names));
  if (config.engines.size() != 1)
    return key_error("engine", "a tune plays engine '" + tune.engine +
                                   "' against itself: give only its [[engine]] table (found " +
                                   std::to_string(config.engines.size()) + " engines)");
  if (config.sprt.enabled)
    return key_error("sprt", "a tune has no SPRT: it plays tune.iterations iterations");
  if (!config.tournament.swap_sides)
    return key_error("tournament.noswap",
                     "a tune's pairs swap colours, so that neither side has White twice");
  const EngineConfig& engine = *it;
  for (std::size_t i = 0; i < tune.params.size(); ++i) {
    const tune::Param& p = tune.params[i];
    if (p.name.empty()) return key_error(param_key(i) + ".name", "the option's name is empty");
    if (auto problem = tune::check_param(p); !problem.empty())
      return key_error(param_key(i), problem);
    for (std::size_t j = 0; j < i; ++j)
      if (base::same_ignoring_case(tune.params[j].name, p.name))
        return key_error(param_key(i) + ".name",
                         "'" + p.name + "' is tuned twice (also " + param_key(j) + ")");
    for (const auto& [name, value] : engine.options)
      if (base::same_ignoring_case(name, p.name))
        return key_error(
            param_key(i) + ".name",
            "'" + p.name + "' is tuned: take it out of engine '" + engine.name + "''s options");
    // A builtin engine's option table says now whether every value the tune may give is one.
    if (engine.builtin)
      for (double v : {p.min, p.max})
        if (auto problem = check_builtin_option(p.name, tune::option_text(p, v)))
          return key_error(param_key(i) + ".name", *problem);
  }
  EngineConfig plus = engine, minus = engine;
  plus.name = tune_plus_name(engine.name);
  minus.name = tune_minus_name(engine.name);
  config.engines = {std::move(plus), std::move(minus)};
  TournamentConfig& t = config.tournament;
  t.format = TournamentFormat::RoundRobin;
  t.rounds = tune.settings.iterations;
  t.games_per_encounter = 2 * tune.settings.pairs_per_iteration;
  t.repeat = true;
  return std::nullopt;
}

}  // namespace knightly::runner
