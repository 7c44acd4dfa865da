#include "runner/output/args.h"

#include <charconv>
#include <cstdlib>

namespace knightly::runner {

std::expected<long long, std::string> parse_int(const std::string& flag, const std::string& text,
                                                long long min, long long max) {
  long long v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    return std::unexpected(flag + ": '" + text + "' is not an integer");
  if (v < min || v > max)
    return std::unexpected(flag + ": " + text + " is out of range [" + std::to_string(min) + ", " +
                           std::to_string(max) + "]");
  return v;
}

std::expected<double, std::string> parse_double(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    return std::unexpected(flag + ": '" + text + "' is not a number");
  return v;
}

}  // namespace knightly::runner
