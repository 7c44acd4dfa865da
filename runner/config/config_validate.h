#pragma once
// Checks that need the whole configuration (engine count, duplicate names, gauntlet seeds,
// SPRT with two engines, limits, builtin option names). Shared by the TOML and flag parsers:
// the error's `key` is a path ("engine[2].name", "tournament.seeds", "sprt") that each parser
// turns into a file position or a flag. Engine indices in paths are 1-based.
#include <optional>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/config/config_error.h"

namespace knightly::runner {

std::optional<ConfigError> validate_config(const Config& config);

// The options a builtin (in-process knightly-engine) configuration understands: the UCI front
// end's table (engine/uci/options.h); names compare case-insensitively as UCI says.
const std::vector<std::string>& builtin_option_names();
// Checks one builtin option name and value; the message suggests the closest valid name.
std::optional<std::string> check_builtin_option(const std::string& name, const std::string& value);

}  // namespace knightly::runner
