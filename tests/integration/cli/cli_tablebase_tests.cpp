// `knightly play -tb PATH`: a tables path that cannot serve stops the run before any game,
// naming the directory, with a non-zero exit (no Syzygy tables exist on this machine to play
// with; see tests/integration/tablebase).
#include <catch2/catch.hpp>

#include "sqlite_probe.h"
#include "tests/support/process.h"

using namespace knightly::test;

TEST_CASE("play with -tb and a missing or empty directory is a clear error", "[cli][tablebase]") {
  TempDir dir;
  for (const auto& [path, words] : std::vector<std::pair<std::string, std::string>>{
           {dir.file("nowhere"), "does not exist"}, {dir.path(), "no Syzygy WDL tables"}}) {
    auto r = run_process(
        {knightly_binary(), "play", "-engine", "builtin=random", "name=a", "-engine",
         "builtin=random", "name=b", "-tb", path, "-tbpieces", "5", "-db", dir.file("t.db")},
        120);
    INFO(r.out << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(path) != std::string::npos);
    CHECK(r.err.find(words) != std::string::npos);
    CHECK(r.out.find("Finished game") == std::string::npos);
  }
}
