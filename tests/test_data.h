#pragma once
// Where the tests find ../shared/data and the built programs.
#include <cstdlib>
#include <string>

namespace knightly::test {

// KNIGHTLY_DATA overrides the default ../shared/data next to the project root.
inline std::string data_dir() {
  if (const char* env = std::getenv("KNIGHTLY_DATA"); env && *env) return env;
  return KNIGHTLY_DEFAULT_DATA_DIR;
}
inline std::string data_path(const std::string& rel) {
  return data_dir() + "/" + rel;
}
inline std::string binary_dir() {
  return KNIGHTLY_BINARY_DIR;
}
inline std::string source_dir() {
  return KNIGHTLY_SOURCE_DIR;
}

}  // namespace knightly::test
