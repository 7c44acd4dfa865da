// The test queue as the CLI shows it (runner/query/test_list.h): each test's state from what the
// store holds, and the workers whose speed is far from the others'.
#include "runner/query/test_list.h"

#include <catch2/catch.hpp>

#include "runner/cli/work_control.h"

using namespace knightly;
using namespace knightly::runner;

namespace {

db::QueuedTest test_with(db::TournamentStatus status, const std::string& decision,
                         std::int64_t games = 0, std::int64_t live = 0, bool stop = false) {
  db::QueuedTest t;
  t.tournament.status = status;
  t.decision = decision;
  t.games = games;
  t.live_pairs = live;
  t.stop_requested = stop;
  return t;
}

}  // namespace

TEST_CASE("a test's state: queued, running, H1, H0, undecided, stopped, complete, failed",
          "[cli][queue]") {
  using S = db::TournamentStatus;
  CHECK(test_state(test_with(S::Running, "")) == "queued");
  CHECK(test_state(test_with(S::Aborted, "")) == "queued");
  CHECK(test_state(test_with(S::Running, "", 0, 1)) == "running");  // a worker holds a pair
  CHECK(test_state(test_with(S::Aborted, "", 12)) == "running");    // paused between workers
  CHECK(test_state(test_with(S::Running, "", 12, 0, true)) == "stopped");
  CHECK(test_state(test_with(S::Finished, "sprt: H1 accepted (LLR 2.95 >= 2.94) after 8 games")) ==
        "H1");
  CHECK(test_state(test_with(S::Finished, "sprt: H0 accepted (LLR -2.95 <= -2.94)")) == "H0");
  CHECK(test_state(test_with(S::Finished, "sprt: undecided at max games (LLR 1.20)")) ==
        "undecided");
  CHECK(test_state(test_with(S::Finished, "stopped: knightly stop after 57 of 120 games")) ==
        "stopped");
  CHECK(test_state(test_with(S::Finished, "complete: all 120 games played")) == "complete");
  CHECK(test_state(test_with(S::Finished, "failed: the build of /r at abc failed")) == "failed");
  CHECK(test_state(test_with(S::Restarted, "")) == "restarted");
}

TEST_CASE("a worker far from the median speed of its test is named", "[cli][queue]") {
  const std::vector<db::WorkerSpeed> speeds = {
      {1, 7, 1000000, 1.0},
      {2, 7, 1100000, 0.91},
      {3, 7, 400000, 2.5},
      {4, 8, 400000, 2.5},  // alone on its test: nothing to compare with
  };
  auto notes = speed_notes(speeds, 1.5);
  REQUIRE(notes.size() == 4);
  CHECK(notes[0].second.empty());
  CHECK(notes[1].second.empty());
  CHECK(notes[2].second == "slow: 0.40x the median 1000000 nps");
  CHECK(notes[3].second.empty());
  auto strict = speed_notes(speeds, 1.05);
  CHECK(strict[1].second == "fast: 1.10x the median 1000000 nps");
}

TEST_CASE("a queued test's config comes back from its definition", "[cli][queue]") {
  db::QueuedTest sprt;
  sprt.format = "sprt";
  sprt.definition = "--new builtin=ab --base builtin=rnd --depth 2 --name gate";
  auto c = queued_config(sprt);
  REQUIRE(c);
  CHECK(c->tournament.name == "gate");
  CHECK(c->engines.size() == 2);
  CHECK(c->sprt.enabled);
  db::QueuedTest toml;
  toml.format = "toml";
  toml.source_path = "/x/t.toml";
  toml.definition =
      "[tournament]\nname = \"t\"\n[[engine]]\nname = \"a\"\nbuiltin = true\n"
      "[[engine]]\nname = \"b\"\nbuiltin = true\n";
  auto t = queued_config(toml);
  REQUIRE(t);
  CHECK(t->tournament.name == "t");
  CHECK(t->source_path == "/x/t.toml");
  db::QueuedTest bad;
  bad.format = "yaml";
  CHECK_FALSE(queued_config(bad));
}
