// Missing engine programs are found before the first game, against the real file system.
#include "runner/config/engine_check.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "runner/config/config_toml.h"
#include "tests/test_data.h"

using namespace knightly::runner;

namespace {

Config two_uci(const std::string& a, const std::string& b, const std::string& path = "") {
  auto c = parse_config_toml("[tournament]\ndepth = 1\n[[engine]]\nname = \"a\"\ncommand = \"" + a +
                                 "\"\n[[engine]]\nname = \"b\"\ncommand = \"" + b + "\"\n",
                             path);
  REQUIRE(c.has_value());
  return *c;
}

}  // namespace

TEST_CASE("find_program looks like execvp") {
  CHECK(find_program("sh", "/nonexistent-dir:/bin:/usr/bin") ==
        std::optional<std::string>("/bin/sh"));
  CHECK_FALSE(find_program("sh", "/nonexistent-dir").has_value());
  CHECK(find_program("/bin/sh", "").has_value());
  CHECK_FALSE(find_program("/bin/no-such-program-knightly", "/bin").has_value());
}

TEST_CASE("every engine present gives no error") {
  CHECK(find_missing_engines(two_uci("/bin/sh", "sh"), "/bin:/usr/bin").empty());
}

TEST_CASE("a missing program is named with its engine") {
  auto errors =
      find_missing_engines(two_uci("/bin/sh", "no-such-engine-knightly"), "/bin:/usr/bin");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].key == "engine[2].command");
  CHECK(errors[0].message == "engine 'b': program 'no-such-engine-knightly' was not found in PATH");

  auto absolute = find_missing_engines(two_uci("/opt/none/engine", "/bin/sh", "/x/t.toml"), "/bin");
  REQUIRE(absolute.size() == 1);
  CHECK(absolute[0].message.rfind("engine 'a': '/opt/none/engine' does not exist", 0) == 0);
  // The error points at the `command` key in the file (line 5 of two_uci's text).
  CHECK(absolute[0].file == "/x/t.toml");
  CHECK(absolute[0].line == 5);
  CHECK(absolute[0].column == 11);
  CHECK(absolute[0].to_string().rfind("/x/t.toml:5:11: engine[1].command: ", 0) == 0);
}

TEST_CASE("a file that is not executable is reported as such") {
  const auto dir = std::filesystem::path(knightly::test::binary_dir()) / "engine_check_test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "not-executable";
  std::ofstream(file) << "plain text\n";
  std::filesystem::permissions(
      file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  auto errors = find_missing_engines(two_uci(file.string(), "/bin/sh"), "/bin");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("is not an executable file") != std::string::npos);
}

TEST_CASE("relative commands are looked up against the config's directory") {
  // scripts/build is an executable file in the source tree: reachable from configs/ as
  // ../scripts/build.
  const std::string config_path = knightly::test::source_dir() + "/configs/x.toml";
  auto found = find_missing_engines(two_uci("../scripts/build", "/bin/sh", config_path), "/bin");
  CHECK(found.empty());
  auto missing =
      find_missing_engines(two_uci("../scripts/no-such", "/bin/sh", config_path), "/bin");
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].message.find("relative paths in the config are resolved against " +
                                knightly::test::source_dir() + "/configs") != std::string::npos);
}

TEST_CASE("a missing working directory is reported") {
  auto c = parse_config_toml(
      "[tournament]\ndepth = 1\n[[engine]]\nname = \"a\"\ncommand = \"sh\"\n"
      "workdir = \"/nonexistent-knightly-dir\"\n[[engine]]\nname = \"b\"\nbuiltin = true\n");
  REQUIRE(c.has_value());
  auto errors = find_missing_engines(*c, "/bin");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].key == "engine[1].workdir");
}
