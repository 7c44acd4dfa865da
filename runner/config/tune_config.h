#pragma once
// A [tune] section as the games it is played by (docs/tuning.md): the tuned engine becomes two
// engines, NAME+ and NAME- (the values + and - c_k of each iteration; their options are set
// per iteration by the run), and the schedule `iterations` rounds of `pairs_per_iteration`
// game pairs between them, so that round k is iteration k and a run claims, plays, stores and
// resumes it like any tournament's pairs. Pure: the config in, the config out.
#include <optional>
#include <string>

#include "runner/config/config.h"
#include "runner/config/config_error.h"

namespace knightly::runner {

// "kn+" and "kn-": the engines of a tune of "kn".
std::string tune_plus_name(const std::string& engine);
std::string tune_minus_name(const std::string& engine);

// Checks `config.tune` against the rest of the config (the engine it names is its only
// engine, no SPRT, no option both tuned and fixed, a builtin engine has each tuned option
// over the whole range) and expands it. The error's key names where ("tune.engine",
// "tune.param[2].name", "sprt"); the TOML reader turns it into a line and column.
std::optional<ConfigError> expand_tune(Config& config);

}  // namespace knightly::runner
