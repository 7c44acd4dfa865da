// Times as the store keeps them: ISO 8601 UTC, to the second or to the millisecond.
#include "db/records/utc_time.h"

#include <catch2/catch.hpp>
#include <regex>

using namespace knightly::db;

TEST_CASE("utc_iso writes ISO 8601 UTC, with milliseconds when asked") {
  CHECK(utc_iso(0, false) == "1970-01-01T00:00:00Z");
  CHECK(utc_iso(0, true) == "1970-01-01T00:00:00.000Z");
  CHECK(utc_iso(1795305540123, false) == "2026-11-21T23:59:00Z");
  CHECK(utc_iso(1795305540123, true) == "2026-11-21T23:59:00.123Z");
  CHECK(utc_iso(951825605007, true) == "2000-02-29T12:00:05.007Z");  // a leap day
}

TEST_CASE("the current time in both forms") {
  CHECK(std::regex_match(utc_now_iso(), std::regex(R"(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  CHECK(std::regex_match(utc_now_iso_millis(),
                         std::regex(R"(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ)")));
}

TEST_CASE("parse_utc reads the stored form, with or without a fraction") {
  CHECK(parse_utc("1970-01-01T00:00:00Z") == 0.0);
  CHECK(parse_utc("2026-11-21T23:59:00Z") == 1795305540.0);
  CHECK(parse_utc("2026-11-21T23:59:00.250Z") == 1795305540.25);
  CHECK_FALSE(parse_utc("2026-11-21 23:59:00Z"));
  CHECK_FALSE(parse_utc("2026-02-30T00:00:00Z"));
  CHECK_FALSE(parse_utc("2026-11-21T23:59:00"));
  CHECK_FALSE(parse_utc("2026-11-21T23:59:00.xZ"));
  CHECK_FALSE(parse_utc(""));
}
