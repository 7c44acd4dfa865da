#include "runner/config/config_paths.h"

#include <filesystem>

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

void resolve_config_paths(Config& config, const std::string& base_dir) {
  config.base_dir = base_dir;
  for (auto& engine : config.engines) {
    engine.workdir = resolve_path(base_dir, engine.workdir);
    // A bare name is searched in PATH like execvp does; a path with '/' is a file.
    if (engine.command.find('/') != std::string::npos)
      engine.command = resolve_path(engine.workdir.empty() ? base_dir : engine.workdir, engine.command);
  }
  config.openings.file = resolve_path(base_dir, config.openings.file);
}

}  // namespace knightly::runner
