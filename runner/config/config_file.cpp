// The only part of the TOML loading that touches the file system.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "runner/config/config_toml.h"

namespace knightly::runner {

std::expected<Config, ConfigError> load_config_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ConfigError e;
    e.file = path;
    e.message = std::string("cannot read the config file: ") + std::strerror(errno);
    return std::unexpected(e);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_config_toml(text.str(), path);
}

}  // namespace knightly::runner
