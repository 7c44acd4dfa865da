#include "db/records/utc_time.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace knightly::db {
namespace {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string utc_iso(std::int64_t unix_ms, bool with_millis) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[96];
  const int n = std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
                              tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  if (with_millis)
    std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n), ".%03dZ",
                  static_cast<int>(unix_ms % 1000));
  else
    std::snprintf(buf + n, sizeof buf - static_cast<std::size_t>(n), "Z");
  return buf;
}

std::optional<double> parse_utc(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS[.fff]Z
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
      s.back() != 'Z')
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t len) -> std::optional<int> {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data() + at, s.data() + at + len, v);
    if (ec != std::errc() || p != s.data() + at + len) return std::nullopt;
    return v;
  };
  const auto y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2),
             sec = num(17, 2);
  if (!y || !mo || !d || !h || !mi || !sec || *h > 23 || *mi > 59 || *sec > 60) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(*y),
                                        std::chrono::month(static_cast<unsigned>(*mo)),
                                        std::chrono::day(static_cast<unsigned>(*d))};
  if (!ymd.ok()) return std::nullopt;
  double fraction = 0;
  const std::string_view rest = s.substr(19, s.size() - 20);
  if (!rest.empty()) {
    if (rest[0] != '.' || rest.size() < 2) return std::nullopt;
    double scale = 0.1;
    for (char c : rest.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      fraction += (c - '0') * scale;
      scale /= 10;
    }
  }
  const auto days = std::chrono::sys_days(ymd).time_since_epoch().count();
  return static_cast<double>(days) * 86400.0 + *h * 3600.0 + *mi * 60.0 + *sec + fraction;
}

std::string utc_now_iso() {
  return utc_iso(now_ms(), false);
}
std::string utc_now_iso_millis() {
  return utc_iso(now_ms(), true);
}

}  // namespace knightly::db
