#pragma once
// How relative paths in a configuration are resolved (lexically; nothing is touched):
// input files are taken relative to the config file's directory, an engine command that
// contains '/' relative to the engine's workdir (or that directory when there is none), and a
// bare command name is left for the PATH search at start. Output paths stay as written.
// A program path used with a workdir is made absolute (the child chdirs before exec).
#include <string>

#include "runner/config/config.h"

namespace knightly::runner {

// `base` "" leaves `path` unchanged; absolute paths are unchanged.
std::string resolve_path(const std::string& base, const std::string& path);

// Resolves one engine's workdir and command against `base_dir` ("" = current directory).
void resolve_engine_paths(EngineConfig& engine, const std::string& base_dir);

// Resolves workdir, command, openings file of `config` against `base_dir` (and records it).
void resolve_config_paths(Config& config, const std::string& base_dir);

// The directory holding `file` ("" for a bare file name).
std::string directory_of(const std::string& file);

}  // namespace knightly::runner
