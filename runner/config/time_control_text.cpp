#include "runner/config/time_control_text.h"

#include <charconv>
#include <cmath>

namespace knightly::runner {

namespace {

// Built by appending: `"'" + std::string(...)` trips GCC 12's -Wrestrict false positive.
std::string quoted(std::string_view text) {
  std::string out(1, '\'');
  out.append(text);
  out += '\'';
  return out;
}

// A non-negative decimal number of seconds, at most millisecond precision is kept.
std::expected<double, std::string> parse_decimal(std::string_view text) {
  if (text.empty()) return std::unexpected("empty number");
  for (char c : text)
    if (!(c >= '0' && c <= '9') && c != '.')
      return std::unexpected(quoted(text) + " is not a number of seconds");
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size())
    return std::unexpected(quoted(text) + " is not a number of seconds");
  return value;
}

}  // namespace

std::expected<std::int64_t, std::string> parse_seconds_text(std::string_view text) {
  double seconds = 0;
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    auto minutes = parse_decimal(text.substr(0, colon));
    auto secs = parse_decimal(text.substr(colon + 1));
    if (!minutes) return std::unexpected(minutes.error());
    if (!secs) return std::unexpected(secs.error());
    if (*minutes != std::floor(*minutes) || *secs >= 60)
      return std::unexpected(quoted(text) + " is not minutes:seconds");
    seconds = *minutes * 60 + *secs;
  } else {
    auto value = parse_decimal(text);
    if (!value) return std::unexpected(value.error());
    seconds = *value;
  }
  return static_cast<std::int64_t>(std::llround(seconds * 1000.0));
}

std::expected<TimeControl, std::string> parse_tc_text(std::string_view text) {
  TimeControl tc;
  if (text == "inf" || text == "infinite") {
    tc.infinite = true;
    return tc;
  }
  const std::string whole(text);
  if (text.empty()) return std::unexpected("empty time control");
  std::string_view rest = text;
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    std::string_view moves = rest.substr(0, slash);
    int value = 0;
    auto [ptr, ec] = std::from_chars(moves.data(), moves.data() + moves.size(), value);
    if (moves.empty() || ec != std::errc() || ptr != moves.data() + moves.size() || value <= 0)
      return std::unexpected("time control '" + whole + "': moves before '/' must be a positive integer");
    tc.moves = value;
    rest = rest.substr(slash + 1);
  }
  std::string_view base = rest;
  if (auto plus = rest.find('+'); plus != std::string_view::npos) {
    base = rest.substr(0, plus);
    auto inc = parse_seconds_text(rest.substr(plus + 1));
    if (!inc) return std::unexpected("time control '" + whole + "': increment: " + inc.error());
    tc.increment_ms = *inc;
  }
  auto time = parse_seconds_text(base);
  if (!time) return std::unexpected("time control '" + whole + "': " + time.error());
  if (*time <= 0) return std::unexpected("time control '" + whole + "': the base time must be positive");
  tc.time_ms = *time;
  return tc;
}

}  // namespace knightly::runner
