#include "runner/config/match_schema_rows.h"

namespace knightly::runner::schema_rows {

// When a match stops early (the SPRT) and a tune's settings.
std::span<const MatchKey> sprt_tune_rows() {
  // clang-format off
  static const MatchKey rows[] = {
    // ---------------------------------------------------------------- SPRT
    {.toml = "sprt.elo0", .flag = "-sprt", .word = "elo0", .knightly = "--elo0",
     .commands = CommandSprt, .type = T::Number, .fallback = "0",
     .meaning = "H0's Elo; an -sprt (or [sprt]) stops the match at a decision.",
     .cutechess = same, .fastchess = same, .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.sprt.elo0 = D(v); }},
    {.toml = "sprt.elo1", .flag = "-sprt", .word = "elo1", .knightly = "--elo1",
     .commands = CommandSprt, .type = T::Number, .fallback = "5", .meaning = "H1's Elo.",
     .cutechess = same, .fastchess = same, .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.sprt.elo1 = D(v); }},
    {.toml = "sprt.alpha", .flag = "-sprt", .word = "alpha", .knightly = "--alpha",
     .commands = CommandSprt, .type = T::Number, .fallback = "0.05",
     .meaning = "The false positive rate.", .cutechess = same, .fastchess = same,
     .role = Role::Match, .apply = [](Config& c, const Value& v) { c.sprt.alpha = D(v); }},
    {.toml = "sprt.beta", .flag = "-sprt", .word = "beta", .knightly = "--beta",
     .commands = CommandSprt, .type = T::Number, .fallback = "0.05",
     .meaning = "The false negative rate.", .cutechess = same, .fastchess = same,
     .role = Role::Match, .apply = [](Config& c, const Value& v) { c.sprt.beta = D(v); }},
    {.toml = "sprt.model", .flag = "-sprt", .word = "model", .knightly = "--model",
     .commands = CommandSprt, .type = T::Choice, .choices = &choice_names<stats::EloModel>,
     .fallback = "normalized; cutechess on a cutechess-cli line",
     .meaning = "The LLR's model: normalized or logistic (fishtest's, on pairs when the "
                "schedule has them), bayesian (fastchess's, on games), cutechess (cutechess-cli's "
                "BayesElo with the sample's draw Elo, on games). A cutechess-cli line's -sprt "
                "is cutechess's test, a fastchess line's fastchess's.",
     .cutechess = absent_but("no model=: always its own BayesElo test, cutechess here"),
     .fastchess = same_as("normalized, logistic or bayesian"), .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.sprt.model = C<stats::EloModel>(v); }},

    // ---------------------------------------------------------------- tune (docs/tuning.md)
    {.toml = "tune.engine", .type = T::Text, .placeholder = "NAME",
     .meaning = "Tunes this [[engine]]'s options by SPSA (fishtest's and OpenBench's): it plays "
                "itself as NAME+ and NAME- (its values + and - c_k), a game pair from one opening "
                "per pair of an iteration. `knightly tune` and `knightly run` play it.",
     .role = Role::Match, .apply = [](Config& c, const Value& v) {
       c.tune.enabled = true;
       c.tune.engine = S(v);
     }},
    {.toml = "tune.iterations", .type = T::Integer, .min = 1, .max = kIntMax,
     .meaning = "SPSA iterations (required): the values move once per iteration.",
     .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.settings.iterations = N(v); }},
    {.toml = "tune.pairs_per_iteration", .type = T::Integer, .min = 1, .max = 1000,
     .fallback = "1", .meaning = "Game pairs each iteration plays (OpenBench's pairs-per).",
     .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.settings.pairs_per_iteration = N(v); }},
    {.toml = "tune.delay", .type = T::Integer, .min = 0, .max = kIntMax, .fallback = "8",
     .meaning = "Iteration k is played around the values after the first k - delay iterations: "
                "up to delay + 1 iterations are played at once, and the values do not depend on "
                "how many workers play them.",
     .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.settings.delay = N(v); }},
    {.toml = "tune.a_ratio", .type = T::Number, .fallback = "0.1",
     .meaning = "A = a_ratio x iterations, the stability constant of a_k (fishtest's A ratio).",
     .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.settings.a_ratio = D(v); }},
    {.toml = "tune.alpha", .type = T::Number, .fallback = "0.602",
     .meaning = "a_k = a / (A + k + 1)^alpha.", .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.settings.alpha = D(v); }},
    {.toml = "tune.gamma", .type = T::Number, .fallback = "0.101",
     .meaning = "c_k = c / (k + 1)^gamma.", .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.settings.gamma = D(v); }},
    {.toml = "tune.param", .type = T::Words,
     .meaning = "One tuned option (one table each, at least one), with the keys below.",
     .role = Role::Match, .custom = CustomToml},
    {.toml = "tune.param.name", .type = T::Text, .placeholder = "OPTION",
     .meaning = "The engine's option (a UCI spin option for an integer).", .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.params.back().name = S(v); }},
    {.toml = "tune.param.start", .type = T::Number,
     .meaning = "The value the tune starts from (required).", .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.params.back().start = D(v); }},
    {.toml = "tune.param.min", .type = T::Number,
     .meaning = "The least value it is given (required).", .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.params.back().min = D(v); }},
    {.toml = "tune.param.max", .type = T::Number,
     .meaning = "The greatest value it is given (required).", .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.params.back().max = D(v); }},
    {.toml = "tune.param.c_end", .type = T::Number,
     .meaning = "The perturbation c_k at the last iteration (required, more than 0).",
     .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.params.back().c_end = D(v); }},
    {.toml = "tune.param.r_end", .type = T::Number,
     .meaning = "a_k / c_k^2 at the last iteration (required): the learning rate.",
     .role = Role::Match,
     .apply = [](Config& c, const Value& v) { c.tune.params.back().r_end = D(v); }},
    {.toml = "tune.param.type", .type = T::Choice, .choices = &param_types, .fallback = "int",
     .meaning = "int: the engine gets an integer, rounded stochastically as fishtest and "
                "OpenBench round it; float: the value as it is.",
     .role = Role::Match, .apply = [](Config& c, const Value& v) {
       c.tune.params.back().integer = I(v) == 0;
     }},
  };
  // clang-format on
  return rows;
}

}  // namespace knightly::runner::schema_rows
