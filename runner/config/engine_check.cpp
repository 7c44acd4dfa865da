#include "runner/config/engine_check.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace knightly::runner {

namespace {

bool is_executable_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> find_program(const std::string& command, const std::string& path_env) {
  if (command.empty()) return std::nullopt;
  if (command.find('/') != std::string::npos)
    return is_executable_file(command) ? std::optional(command) : std::nullopt;
  std::size_t start = 0;
  while (start <= path_env.size()) {
    auto end = path_env.find(':', start);
    if (end == std::string::npos) end = path_env.size();
    // An empty PATH entry means the current directory.
    const std::string dir = end > start ? path_env.substr(start, end - start) : std::string(".");
    const std::string candidate = dir + "/" + command;
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::vector<ConfigError> find_missing_engines(const Config& config) {
  const char* path = std::getenv("PATH");
  return find_missing_engines(config, path ? path : "/usr/local/bin:/usr/bin:/bin");
}

std::vector<ConfigError> find_missing_engines(const Config& config, const std::string& path_env) {
  std::vector<ConfigError> errors;
  for (std::size_t i = 0; i < config.engines.size(); ++i) {
    const auto& e = config.engines[i];
    if (e.builtin || (e.source && e.command.empty())) continue;  // a source is built by the run
    const std::string key = "engine[" + std::to_string(i + 1) + "]";
    ConfigError err;
    err.file = config.source_path;
    std::error_code ec;
    if (!e.workdir.empty() && !std::filesystem::is_directory(e.workdir, ec)) {
      err.key = key + ".workdir";
      err.message = "engine '" + e.name + "': working directory '" + e.workdir + "' does not exist";
      errors.push_back(err);
      continue;
    }
    if (find_program(e.command, path_env)) continue;
    err.key = key + ".command";
    if (e.command.find('/') == std::string::npos) {
      err.message = "engine '" + e.name + "': program '" + e.command + "' was not found in PATH";
    } else if (std::filesystem::exists(e.command, ec)) {
      err.message = "engine '" + e.name + "': '" + e.command + "' is not an executable file";
    } else {
      err.message = "engine '" + e.name + "': '" + e.command + "' does not exist";
      if (!config.base_dir.empty())
        err.message +=
            " (relative paths in the config are resolved against " + config.base_dir + ")";
    }
    errors.push_back(err);
  }
  // Point into the file where the key (or its engine table) was written.
  for (auto& err : errors) {
    for (std::string key = err.key; !key.empty();) {
      if (auto it = config.positions.at.find(key); it != config.positions.at.end()) {
        err.line = it->second.first;
        err.column = it->second.second;
        break;
      }
      const auto cut = key.find_last_of('.');
      key = cut == std::string::npos ? std::string() : key.substr(0, cut);
    }
  }
  return errors;
}

}  // namespace knightly::runner
