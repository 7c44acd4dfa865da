#include "engine/base/int_text.h"

#include <charconv>
#include <limits>

namespace knightly::base {

std::expected<std::int64_t, std::string> parse_int(std::string_view name, std::string_view text,
                                                   std::int64_t min, std::int64_t max) {
  const std::string where = name.empty() ? std::string() : std::string(name) + ": ";
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || end != text.data() + text.size() || ec != std::errc() || v < min || v > max) {
    // With no upper bound but the type's, the range is said by its lower bound alone.
    const std::string range = max == std::numeric_limits<std::int64_t>::max()
                                  ? ">= " + std::to_string(min)
                                  : "in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    return std::unexpected(where + "'" + std::string(text) + "' is not an integer " + range);
  }
  return v;
}

}  // namespace knightly::base
