// The pure parts of a run's engines from source (runner/run/run_sources.h): fishtest's scaling
// of the time controls, and the decision of a test whose engines could not be built.
#include "runner/run/run_sources.h"

#include <catch2/catch.hpp>

#include "runner/run/decision.h"
#include "runner/run/run_options.h"

using namespace knightly::runner;

TEST_CASE("time controls scale by the worker's factor, moves per period unchanged",
          "[run][source]") {
  auto tc = parse_time_control("40/60+0.6");
  REQUIRE(tc);
  const TimeControl slow = scale_time_control(*tc, 2.5);
  CHECK(slow.moves == 40);
  CHECK(slow.time_ms == 150000);
  CHECK(slow.increment_ms == 1500);
  CHECK(format_time_control(slow) == "40/150+1.5");
  CHECK(format_time_control(scale_time_control(*parse_time_control("10+0.1"), 0.5)) == "5+0.05");
  auto st = parse_move_time("0.2");
  REQUIRE(st);
  CHECK(scale_time_control(*st, 1.5).movetime_ms == 300);
  // No clock stays no clock; a tiny time does not become 0.
  auto inf = parse_time_control("inf");
  REQUIRE(inf);
  CHECK(scale_time_control(*inf, 3.0).infinite);
  CHECK(scale_time_control(*parse_time_control("1+0.001"), 0.1).increment_ms == 1);
}

TEST_CASE("a test whose engines failed is decided 'failed', exit code 2", "[run][source]") {
  const std::string d = failed_decision("the build of /r at abc failed (exit code 2)");
  CHECK(d == "failed: the build of /r at abc failed (exit code 2)");
  CHECK(exit_code_of(d) == ExitError);
}
