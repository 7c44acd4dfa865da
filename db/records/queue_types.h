#pragma once
// Plain structs of the test queue (db/store/store_queue.cpp; docs/regression-testing.md):
// tests submitted for `knightly work`, the commits their engines were built from, and the
// speed each worker measured. No formatting here: the CLI shows them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/records/store_types.h"

namespace knightly::db {

// The commit one engine of a tournament is built from (tournament_sources).
struct SourceCommitRecord {
  int engine = 0;  // the engine's index in the config (0 = the first, a test's new engine)
  std::string name;
  std::string repo;
  std::string ref;
  std::string commit;                 // full SHA-1
  std::string subject;                // the commit message's first line
  std::optional<std::int64_t> bench;  // the node count its bench must print, when known
  std::string resolved_at;
};

// What `knightly submit` adds: a tournament, its SPRT settings, and how a worker rebuilds its
// config. All written in one transaction.
struct NewTest {
  NewTournament tournament;
  std::optional<SprtSettings> sprt;
  int priority = 0;
  std::string submitter;
  std::string format;       // "toml" | "sprt"
  std::string definition;   // the TOML text, or the words of `knightly sprt` (shell-quoted)
  std::string source_path;  // the TOML file as submitted: relative paths are from its directory
  std::vector<SourceCommitRecord> sources;  // commits resolved at submission (may be empty)
};

// A submitted test as a worker or a listing reads it.
struct QueuedTest {
  Tournament tournament;
  int priority = 0;
  std::string submitter;
  std::string submitted_at;
  std::string format;
  std::string definition;
  std::string source_path;
  bool stop_requested = false;
  std::string decision;         // tournaments.decision, "" while open
  std::int64_t games = 0;       // stored
  std::int64_t live_pairs = 0;  // pairs under a live lease now
  std::int64_t pairs = 0;       // pairs recorded (0 until a worker has joined it)
  std::int64_t free_pairs = 0;  // pairs a worker could claim now
  // Whether a worker joining now would find something to play.
  bool wants_workers() const { return pairs == 0 || free_pairs > 0; }
};

// An engine version built from its source (engines.source_repo, source_commit).
struct EngineSourceRow {
  std::int64_t engine_id = 0;
  std::string repo;
  std::string commit;
};

// One worker's speed on one tournament (fishtest's scaling).
struct WorkerSpeed {
  std::int64_t worker_id = 0;
  std::int64_t tournament_id = 0;
  double nps = 0;
  double tc_factor = 1;
};

}  // namespace knightly::db
