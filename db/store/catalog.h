#pragma once
// The Store's catalog (Store::catalog()): the tournaments, and the engine versions that play
// them. Every method throws StoreException on failure.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/records/store_types.h"

namespace knightly::db {

struct StoreCore;

class Catalog {
 public:
  explicit Catalog(StoreCore& core) : core_(core) {}

  // --- tournaments
  // The live (not restarted) tournament of that name.
  std::optional<Tournament> find_tournament(std::string_view name) const;
  std::optional<Tournament> tournament(std::int64_t id) const;
  // Fails with ErrorKind::Conflict when a live tournament already has the name.
  Tournament create_tournament(const NewTournament& tournament);
  // Marks `old_id` restarted (kept with its games under its id) and creates the new one,
  // in one transaction.
  Tournament restart_tournament(std::int64_t old_id, const NewTournament& tournament);
  // Finished/aborted set finished_at to now; running clears it, the stop request and the
  // decision (a resumed tournament).
  void set_tournament_status(std::int64_t id, TournamentStatus status);
  std::vector<TournamentSummary> tournaments() const;

  // --- engines
  // The id of the row for this exact version, created if new. A known version gets its
  // uci_name/uci_author filled in when they were empty.
  std::int64_t upsert_engine(const EngineInfo& engine);
  // The SHA-256 of the program at `path`, read from the file only when its size or
  // modification time changed since it was last hashed (or it never was); nullopt when the
  // file cannot be read. In a read-only store nothing is remembered. `hash` is how a program
  // not remembered here is hashed (sha256_file when empty; the runner asks a cache kept
  // across databases).
  using Hasher = std::function<std::optional<std::string>(const std::string& path)>;
  std::optional<std::string> binary_sha256(const std::string& path, const Hasher& hash = {});
  // The newest version with that name (import matches engines by name).
  std::optional<std::int64_t> find_engine(std::string_view name) const;
  std::vector<EngineVersion> engines() const;

 private:
  StoreCore& core_;
};

}  // namespace knightly::db
