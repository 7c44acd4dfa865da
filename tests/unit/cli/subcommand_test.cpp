// The subcommand table: every entry found by its name and listed in the usage text; the
// version is CMake's.
#include "runner/cli/subcommand.h"

#include <catch2/catch.hpp>
#include <set>

using namespace knightly::runner;

TEST_CASE("every subcommand is found by its name and listed in the usage") {
  const std::string usage = usage_text();
  std::set<std::string_view> names;
  for (const Subcommand& c : subcommands()) {
    INFO(c.name);
    CHECK(names.insert(c.name).second);  // no name twice
    REQUIRE(find_subcommand(c.name) == &c);
    CHECK(c.run != nullptr);
    CHECK(usage.find("  knightly " + std::string(c.name) + " ") != std::string::npos);
    CHECK(usage_of(c).starts_with("usage: knightly " + std::string(c.name) + " "));
  }
  for (const char* name : {"run", "play", "sprt", "submit", "work", "stop", "query", "import",
                           "export", "report", "serve"})
    CHECK(names.count(name) == 1);
  CHECK(find_subcommand("bogus") == nullptr);
  CHECK(find_subcommand("") == nullptr);
  CHECK(find_subcommand("RUN") == nullptr);
}

TEST_CASE("the version is the project's") {
  CHECK(version() == KNIGHTLY_PROJECT_VERSION);
  CHECK(usage_text().starts_with("knightly " + std::string(KNIGHTLY_PROJECT_VERSION) + ": "));
}
