#pragma once
// Times as the store keeps them, and as every other part of the runner writes and reads them:
// ISO 8601 UTC text, "2026-11-21T23:59:00Z", or with milliseconds "2026-11-21T23:59:00.123Z".
// The one time-text module (utc_now_* read the clock; the rest is pure).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace knightly::db {

// Milliseconds since 1970 (0 or later) as ISO 8601 UTC, with or without the milliseconds.
std::string utc_iso(std::int64_t unix_ms, bool with_millis);
// The current time, to the second / to the millisecond.
std::string utc_now_iso();
std::string utc_now_iso_millis();
// Seconds since 1970 of a stored time ("2026-11-21T23:59:00Z", "2026-11-21T23:59:00.123Z");
// nullopt when it is not in that form.
std::optional<double> parse_utc(std::string_view iso);

}  // namespace knightly::db
