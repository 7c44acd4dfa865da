#pragma once
// Before the first game: is every UCI engine's program there and executable? Looks where
// execvp would: a command containing '/' is a file path (already resolved against the engine's
// workdir or the config's directory by the parser), a bare name is searched in PATH.
// Touches the file system, so it is apart from the pure parsers.
#include <optional>
#include <string>
#include <vector>

#include "runner/config/config.h"
#include "runner/config/config_error.h"

namespace knightly::runner {

// The program that would be exec'd for `command`, or nothing when none is found.
// `path_env` is the PATH value to search (the caller passes getenv("PATH")).
std::optional<std::string> find_program(const std::string& command, const std::string& path_env);

// One error per engine whose program is missing, not executable, or whose workdir does not
// exist, e.g. "engine[2].command: engine 'sf': '/usr/games/stockfis' does not exist".
std::vector<ConfigError> find_missing_engines(const Config& config);
std::vector<ConfigError> find_missing_engines(const Config& config, const std::string& path_env);

}  // namespace knightly::runner
