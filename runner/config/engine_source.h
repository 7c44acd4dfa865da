#pragma once
// The keys that make an engine one built from its source (EngineSource, config.h), in one
// place for every way a config is written: the TOML [[engine]] keys, `-engine` words of
// `knightly play` and a SPEC of `knightly sprt`/`submit` (key=value), all parsed here.
//
//   repo=PATH_OR_URL  ref=COMMIT_OR_BRANCH  build="make -j EXE={exe}"  subdir=DIR  bench=N
// Pure: nothing is fetched or built here (runner/source does that).
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "runner/config/config.h"

namespace knightly::runner {

// The keys, in the order docs/config.md lists them.
std::span<const std::string_view> source_keys();
bool is_source_key(std::string_view key);

// Applies `key` = `value` to e.source (made when absent); an error message naming the key
// when the value is not valid (an empty repo or ref, a build without {exe}, a bench that is
// not a count).
std::optional<std::string> apply_source_key(std::string_view key, std::string_view value,
                                            EngineConfig& e);

// Once every key of an engine is read: a source needs repo and ref, and is neither a
// command nor a builtin. nullopt for an engine without source.
std::optional<std::string> check_engine_source(const EngineConfig& e);

// Whether `repo` is a URL for git (scheme://, or scp's user@host:path) rather than a path.
bool is_repository_url(std::string_view repo);

// A relative repository path made absolute against `base_dir` ("" = the current directory).
void resolve_source_path(EngineSource& source, const std::string& base_dir);

// The name of an engine built from `source` when none is given: the repository's last path
// component without ".git", '@' and the ref ("myengine@main").
std::string source_engine_name(const EngineSource& source);

}  // namespace knightly::runner
