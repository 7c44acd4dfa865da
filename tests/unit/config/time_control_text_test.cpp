#include <catch2/catch.hpp>

#include "runner/config/time_control_text.h"

using namespace knightly::runner;

TEST_CASE("cutechess time-control text") {
  auto a = parse_tc_text("40/60+0.6");
  REQUIRE(a.has_value());
  CHECK(a->moves == 40);
  CHECK(a->time_ms == 60000);
  CHECK(a->increment_ms == 600);
  auto b = parse_tc_text("1:30+1");
  REQUIRE(b.has_value());
  CHECK(b->moves == 0);
  CHECK(b->time_ms == 90000);
  CHECK(b->increment_ms == 1000);
  auto c = parse_tc_text("0.5");
  REQUIRE(c.has_value());
  CHECK(c->time_ms == 500);
  CHECK(c->increment_ms == 0);
  auto d = parse_tc_text("40/1:00");
  REQUIRE(d.has_value());
  CHECK(d->moves == 40);
  CHECK(d->time_ms == 60000);
  CHECK(parse_tc_text("inf")->infinite);
}

TEST_CASE("bad time-control text is an error naming it") {
  for (const char* text : {"", "abc", "40/", "/60", "0/60", "-5", "60+", "60+x", "1:75", "0", "1/2/3"}) {
    INFO(text);
    auto r = parse_tc_text(text);
    CHECK_FALSE(r.has_value());
  }
  CHECK(parse_tc_text("40/abc").error().find("40/abc") != std::string::npos);
}

TEST_CASE("seconds text") {
  CHECK(parse_seconds_text("0.25").value() == 250);
  CHECK(parse_seconds_text("2").value() == 2000);
  CHECK(parse_seconds_text("2:05").value() == 125000);
  CHECK_FALSE(parse_seconds_text("-1").has_value());
  CHECK_FALSE(parse_seconds_text("1e3").has_value());
}
