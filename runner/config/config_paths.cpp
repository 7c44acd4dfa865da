#include "runner/config/config_paths.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "runner/config/engine_source.h"

namespace knightly::runner {

std::string resolve_path(const std::string& base, const std::string& path) {
  if (base.empty() || path.empty()) return path;
  std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(base) / p).lexically_normal().string();
}

std::string directory_of(const std::string& file) {
  return std::filesystem::path(file).parent_path().string();
}

void resolve_engine_paths(EngineConfig& engine, const std::string& base_dir) {
  engine.workdir = resolve_path(base_dir, engine.workdir);
  if (engine.source) resolve_source_path(*engine.source, base_dir);
  // A builtin engine's book is an input file of the config like the openings: taken from the
  // config's directory. (A UCI engine reads its options from its own working directory.)
  if (engine.builtin)
    for (auto& [name, value] : engine.options)
      if (name.size() == 8 && std::equal(name.begin(), name.end(), "bookfile", [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == b;
          }))
        value = resolve_path(base_dir, value);
  // A bare name is searched in PATH like execvp does; a path with '/' is a file.
  if (engine.command.find('/') == std::string::npos) return;
  engine.command = resolve_path(engine.workdir.empty() ? base_dir : engine.workdir, engine.command);
  // The child changes to its workdir before exec: a relative program path would then be taken
  // from there, so anchor it to the current directory now.
  if (!engine.workdir.empty() && std::filesystem::path(engine.command).is_relative())
    engine.command = std::filesystem::absolute(engine.command).lexically_normal().string();
}

void resolve_config_paths(Config& config, const std::string& base_dir) {
  config.base_dir = base_dir;
  for (auto& engine : config.engines) resolve_engine_paths(engine, base_dir);
  config.openings.file = resolve_path(base_dir, config.openings.file);
  // Fathom takes several table directories separated by ':'; each is resolved.
  auto& tb = config.tournament.adjudication.tablebase.path;
  std::string resolved;
  for (std::size_t start = 0; start <= tb.size();) {
    const std::size_t end = std::min(tb.find(':', start), tb.size());
    if (!resolved.empty()) resolved += ':';
    resolved += resolve_path(base_dir, tb.substr(start, end - start));
    start = end + 1;
  }
  if (!tb.empty()) tb = resolved;
}

}  // namespace knightly::runner
