#pragma once
// The Store's test queue (Store::test_queue()): tests submitted for `knightly work`, the
// commits of engines built from their source, the speed of each worker, the stop epoch of
// `knightly stop --all` (docs/regression-testing.md). Every method throws StoreException on
// failure.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/records/queue_types.h"
#include "db/records/store_types.h"

namespace knightly::db {

struct StoreCore;

class TestQueue {
 public:
  explicit TestQueue(StoreCore& core) : core_(core) {}

  // The commits a tournament's engines are built from, by engine index.
  std::vector<SourceCommitRecord> source_commits(std::int64_t tournament_id) const;
  // Records `record` unless the engine has a commit already; returns the one stored (the first
  // worker's resolution wins).
  SourceCommitRecord record_source_commit(std::int64_t tournament_id,
                                          const SourceCommitRecord& record);
  // Marks an engine version (Catalog::upsert_engine's id) as built from `commit` of `repo`.
  void set_engine_source(std::int64_t engine_id, const std::string& repo,
                         const std::string& commit);
  // The engine versions built from source, with their commits.
  std::vector<EngineSourceRow> engine_sources() const;
  // What this worker measured for the tournament it plays.
  void set_worker_speed(std::int64_t worker_id, std::int64_t tournament_id, double nps,
                        double tc_factor);
  // Every worker that measured its speed, by worker id.
  std::vector<WorkerSpeed> worker_speeds() const;
  // Adds a test to the queue: its tournament (Conflict when the name is taken), SPRT settings,
  // definition and the commits already resolved, in one transaction.
  Tournament submit_test(const NewTest& test);
  // Every submitted test, the newest first.
  std::vector<QueuedTest> tests() const;
  std::optional<QueuedTest> test(std::int64_t tournament_id) const;
  // The tests a worker may take (not finished, no stop requested), in the order it takes
  // them: the highest priority first, then the fewest stored games, then the oldest.
  std::vector<QueuedTest> open_tests() const;
  // `knightly stop --all`: raises the queue's stop epoch and returns it.
  std::int64_t request_stop_all();
  std::int64_t stop_epoch() const;

 private:
  StoreCore& core_;
};

}  // namespace knightly::db
