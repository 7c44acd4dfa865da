// The one reader of a ranged integer: the whole text, the range, and one message form that
// names what was read and its range.
#include "engine/base/int_text.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

using knightly::base::parse_int;

TEST_CASE("int_text: the whole text is an integer within both bounds", "[base]") {
  CHECK(parse_int("-n", "1", 1, 1024).value() == 1);
  CHECK(parse_int("-n", "1024", 1, 1024).value() == 1024);
  CHECK(parse_int("-n", "-1000000", -1000000, 1000000).value() == -1000000);
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  CHECK(parse_int("x", "9223372036854775807", 0, kMax).value() == kMax);
  CHECK(parse_int("x", "-9223372036854775808", kMin, kMax).value() == kMin);
}

TEST_CASE("int_text: anything else names the key, the text and the range in one form", "[base]") {
  for (const char* text : {"", "two", "5x", " 5", "5 ", "+5", "1.5", "0x10", "-", "0", "1025", "-3",
                           "99999999999999999999"}) {
    INFO("'" << text << "'");
    auto v = parse_int("-concurrency", text, 1, 1024);
    REQUIRE_FALSE(v.has_value());
    CHECK(v.error() == "-concurrency: '" + std::string(text) + "' is not an integer in [1, 1024]");
  }
}

TEST_CASE("int_text: no upper bound is said by the lower bound alone", "[base]") {
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  CHECK(parse_int("nodes", "many", 1, kMax).error() == "nodes: 'many' is not an integer >= 1");
  CHECK(parse_int("nodes", "0", 1, kMax).error() == "nodes: '0' is not an integer >= 1");
  CHECK(parse_int("nodes", "9223372036854775808", 1, kMax).error() ==
        "nodes: '9223372036854775808' is not an integer >= 1");
}

TEST_CASE("int_text: an empty name leaves the where to the caller", "[base]") {
  CHECK(parse_int("", "x", 0, 9).error() == "'x' is not an integer in [0, 9]");
  CHECK(parse_int("", "10", 0, 9).error() == "'10' is not an integer in [0, 9]");
}
