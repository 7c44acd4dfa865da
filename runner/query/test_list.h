#pragma once
// The tests of the queue (docs/regression-testing.md) as `knightly query tests`, `knightly
// serve`'s list and `knightly work` read them: each submitted test's config rebuilt from what
// the queue keeps, its state, and its figures (the first engine's games and pairs against the
// second, Elo, the SPRT's LLR against its bounds), computed by the same functions as `knightly
// query sprt` and the final report.
#include <optional>
#include <string>
#include <vector>

#include "db/store/store.h"
#include "runner/output/table.h"
#include "runner/stats/counts.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {

// queued (nothing played, no worker on it), running, H1, H0, undecided, stopped, complete (a
// test without SPRT that played all its games), failed (its engines could not be built or
// benched: tests.decision says why), restarted.
std::string test_state(const db::QueuedTest& test);

struct TestFigures {
  std::string first, second;  // the test's new and base engines (its first two)
  stats::Trinomial games;     // the first engine's, against the second
  stats::Pentanomial pairs;
  std::optional<stats::SprtConfig> sprt;
  std::optional<stats::SprtStatus> status;  // with sprt
  stats::EloEstimate elo;                   // from the pairs, else the games
};
TestFigures test_figures(const db::Store& store, const db::QueuedTest& test);

// `knightly query tests`: one row per test, the newest first; only the tests named in `names`
// (--tournament) unless it is empty.
Table tests_table(const db::Store& store, const std::vector<std::string>& names = {});

// The data document of `knightly serve`'s list of tests (/tests, /api/tests): the store's
// generation and tests_table's rows ("queue": {"tests": [...]}).
std::string tests_document(const db::Store& store, const std::string& title,
                           const std::string& now);

// Workers whose speed is more than `ratio` times away from the median of the workers that
// measured theirs on the same tournament: "slow: 0.48x the median 1003000 nps" ("" for the
// others), by worker id.
std::vector<std::pair<std::int64_t, std::string>> speed_notes(
    const std::vector<db::WorkerSpeed>& speeds, double ratio);

}  // namespace knightly::runner
