#pragma once
// Where the tests find their data (tests/data) and the built programs.
#include <cstdlib>
#include <string>

namespace knightly::test {

// The directories the build was configured with (tests/test_paths.cpp).
std::string default_data_dir();
std::string binary_dir();
std::string source_dir();

// KNIGHTLY_DATA overrides the default, the project's tests/data.
inline std::string data_dir() {
  if (const char* env = std::getenv("KNIGHTLY_DATA"); env && *env) return env;
  return default_data_dir();
}
inline std::string data_path(const std::string& rel) {
  return data_dir() + "/" + rel;
}

}  // namespace knightly::test
