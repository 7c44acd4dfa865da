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

TEST_CASE("help of sprt, submit and work lists the queue's options, and work refuses any other") {
  const auto has = [](const std::string& text, const std::string& usage) {
    INFO(usage);
    CHECK(text.find("\n  " + usage + " ") != std::string::npos);
  };
  const std::string sprt = usage_of(*find_subcommand("sprt"));
  for (const char* o : {"--submit", "--priority N", "--submitter NAME", "--reference-nps NPS",
                        "--cache DIR", "--new SPEC"})
    has(sprt, o);
  const std::string submit = usage_of(*find_subcommand("submit"));
  for (const char* o : {"--priority N", "--submitter NAME", "--db PATH|URL", "--cache DIR"})
    has(submit, o);
  CHECK(submit.find("knightly help sprt") != std::string::npos);
  const std::string work = usage_of(*find_subcommand("work"));
  for (const char* o :
       {"--db PATH|URL", "--concurrency N", "--cache DIR", "--until-empty", "--poll SECONDS",
        "--lease SECONDS", "--on-stop finish|abandon", "--log-dir DIR", "--quiet"})
    has(work, o);
  // Refused before any database is opened.
  CHECK(run_cli({"work", "--bogus"}) == 2);
  CHECK(run_cli({"work", "--poll", "0.1"}) == 2);
  CHECK(run_cli({"work", "--concurrency", "0"}) == 2);
}
