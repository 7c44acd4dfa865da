#pragma once
// TOML -> Config. parse_config_toml is pure (text in, value out; paths are only joined, never
// touched); load_config_file reads the file and calls it. Every error names
// file:line:column and the key; unknown keys get the closest valid name.
#include <expected>
#include <string>
#include <string_view>

#include "runner/config/config.h"
#include "runner/config/config_error.h"

namespace knightly::runner {

// `source_path` names the file in messages; relative input paths in the config (openings
// file, engine workdir, engine command containing '/') are resolved against its directory.
// An empty source_path leaves paths as written.
std::expected<Config, ConfigError> parse_config_toml(std::string_view text,
                                                     std::string_view source_path = "");

// Reads `path` and parses it; a file that cannot be read is a ConfigError too.
std::expected<Config, ConfigError> load_config_file(const std::string& path);

}  // namespace knightly::runner
