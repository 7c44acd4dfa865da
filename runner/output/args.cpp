#include "runner/output/args.h"

#include <cstdlib>

namespace knightly::runner {

std::expected<double, std::string> parse_double(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    return std::unexpected(flag + ": '" + text + "' is not a number");
  return v;
}

}  // namespace knightly::runner
