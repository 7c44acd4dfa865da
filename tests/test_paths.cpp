// The directories the tests were configured with. Compiled once (here), not into every suite,
// so that the suites' objects do not depend on where the checkout lives.
#include "tests/test_data.h"

namespace knightly::test {

std::string default_data_dir() {
  return KNIGHTLY_DEFAULT_DATA_DIR;
}
std::string binary_dir() {
  return KNIGHTLY_BINARY_DIR;
}
std::string source_dir() {
  return KNIGHTLY_SOURCE_DIR;
}

}  // namespace knightly::test
