// A file replaced whole: readers see the old text or the new, never a mix; two writers at
// once each leave a whole file; a failure names the file and leaves no temporary file behind.
#include "runner/run/replace_file.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/process.h"

using knightly::runner::replace_file;
using knightly::test::read_file;
using knightly::test::TempDir;

namespace {

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("replace_file writes a new file and replaces an old one whole") {
  TempDir dir;
  const std::string path = dir.file("report.html");
  REQUIRE(replace_file(path, "first"));
  CHECK(read_file(path) == "first");
  REQUIRE(replace_file(path, std::string(100000, 'x')));
  CHECK(read_file(path) == std::string(100000, 'x'));
  REQUIRE(replace_file(path, ""));
  CHECK(read_file(path).empty());
  CHECK(names_in(dir.path()) == std::vector<std::string>{"report.html"});
}

TEST_CASE("two writers replacing one file at once leave one of their texts, whole") {
  TempDir dir;
  const std::string path = dir.file("cache");
  const std::string a(200000, 'a'), b(300000, 'b');
  REQUIRE(replace_file(path, a));
  std::atomic<bool> failed{false}, done{false};
  auto writer = [&](const std::string& text) {
    for (int i = 0; i < 200; ++i)
      if (!replace_file(path, text)) failed = true;
  };
  std::vector<std::string> seen;
  std::thread reader([&] {
    while (!done) seen.push_back(read_file(path));
  });
  std::thread wa(writer, std::cref(a)), wb(writer, std::cref(b));
  wa.join();
  wb.join();
  done = true;
  reader.join();
  CHECK_FALSE(failed);
  const std::string last = read_file(path);
  CHECK((last == a || last == b));
  for (const auto& s : seen) REQUIRE((s == a || s == b));
  CHECK(names_in(dir.path()) == std::vector<std::string>{"cache"});
}

TEST_CASE("replace_file's failure names the file and leaves nothing behind") {
  TempDir dir;
  // Its directory does not exist: the temporary file cannot be made.
  auto missing = replace_file(dir.file("no/such/dir/file"), "text");
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error(), Catch::Contains("cannot write " + dir.file("no/such/dir/file")));
  // A directory in the way: the text is written, the rename fails, the temporary file goes.
  std::filesystem::create_directories(dir.file("taken/inside"));
  auto taken = replace_file(dir.file("taken"), "text");
  REQUIRE_FALSE(taken);
  CHECK_THAT(taken.error(), Catch::StartsWith("cannot write " + dir.file("taken") + ": "));
  CHECK(names_in(dir.path()) == std::vector<std::string>{"taken"});
}
