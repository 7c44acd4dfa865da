#pragma once
// An error in a configuration: what is wrong and where, as `file:line:column: key: message`.
// From command-line flags there is no file; `key` is then the flag ("-games").
#include <string>
#include <utility>

namespace knightly::runner {

struct ConfigError {
  std::string file;     // "" when not from a file
  int line = 0;         // 1-based; 0 = unknown
  int column = 0;       // 1-based; 0 = unknown
  std::string key;      // "tournament.concurrency", "engine[2].name", "-games"
  std::string message;  // "unknown key; did you mean 'concurrency'?"

  std::string to_string() const {
    std::string out;
    if (!file.empty()) out += file + ":";
    if (line > 0) out += std::to_string(line) + ":" + std::to_string(column) + ":";
    if (!out.empty()) out += " ";
    if (!key.empty()) out += key + ": ";
    return out + message;
  }
};

// An error about a key with no place in a file (checks after parsing: engine[2].name, tune).
inline ConfigError key_error(std::string key, std::string message) {
  ConfigError e;
  e.key = std::move(key);
  e.message = std::move(message);
  return e;
}

}  // namespace knightly::runner
