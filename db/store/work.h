#pragma once
// The Store's shared work (Store::work()): any number of workers (threads or processes, on
// one SQLite file or one PostgreSQL database) play one tournament, a pair of games at a time
// under a lease, and one of them decides it. See docs/distributed.md. Every method throws
// StoreException on failure.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "db/records/store_types.h"

namespace knightly::db {

struct StoreCore;

class Work {
 public:
  explicit Work(StoreCore& core) : core_(core) {}

  // Registers this worker (one per process) and returns its id.
  std::int64_t register_worker(const WorkerIdentity& worker);
  // Records the tournament's units of work; idempotent (every worker calls it at start).
  // Written in batches of 10,000, each its own transaction; `stop` (may be empty) is asked
  // before each: false when it said stop before all were written (the next call writes the
  // rest). `stored_before`: whether the tournament may hold games stored without their pairs
  // (begun by an older knightly, or by insert_game), whose pairs the last batch marks; false
  // when the caller knows it had no game when it opened it.
  bool add_pairs(std::int64_t tournament_id, std::span<const PairSlot> pairs,
                 const std::function<bool()>& stop = {}, bool stored_before = true);
  // Atomically claims the first pair, in schedule order, that is neither stored nor under a
  // live lease (an expired lease is anyone's), leased to `worker_id` for `lease`. With a
  // `round_window` (a tune's delay), only a pair at most that many rounds after the first
  // round with a pair not done: later ones wait (Busy) for the earlier rounds' results.
  // A claimed pair's games go in through GameWrites::store_game.
  ClaimResult claim_pair(std::int64_t tournament_id, std::int64_t worker_id,
                         std::chrono::milliseconds lease,
                         std::optional<int> round_window = std::nullopt);
  // The same for up to `count` pairs at once, in one transaction: the first in `claim`, the
  // others in `more`, all in schedule order, each leased and given back on its own. For a
  // worker of short games, whose claims would otherwise be a transaction every game or two.
  ClaimResult claim_pairs(std::int64_t tournament_id, std::int64_t worker_id,
                          std::chrono::milliseconds lease, int count,
                          std::optional<int> round_window = std::nullopt);
  // The workers holding live or expired leases on pairs of the tournament, with their ids.
  std::vector<std::pair<std::int64_t, WorkerIdentity>> lease_holders(
      std::int64_t tournament_id) const;
  // Ends every lease `worker_id` holds now (a worker known to be gone: its process no longer
  // exists): its pairs are anyone's at once instead of when the lease runs out.
  void expire_leases(std::int64_t worker_id);
  // Heartbeat: extends every lease `worker_id` holds and marks the worker seen.
  void renew_leases(std::int64_t worker_id, std::chrono::milliseconds lease);
  // Gives an unfinished pair back (the worker stops): anyone may claim it at once.
  void release_claim(const Claim& claim);
  // The position of the claim's game `game_in_pair` as it is being played (`ply` plies from
  // its start), for whoever watches (knightly serve). Nothing when the claim is no longer the
  // pair's, or when another thread is using the store at that moment (the game does not wait
  // for it); committed without waiting for the disk.
  void set_live_position(const Claim& claim, int game_in_pair, int ply, const std::string& fen);
  // Marks the tournament finished (or aborted) once: true when this call did it, false when
  // another worker had already decided. `decision` says why, with the counts that decided it.
  bool finish_tournament(std::int64_t id, TournamentStatus status, const std::string& decision);
  // `knightly stop NAME`: the tournament is aborted with the stop flag set and `decision`
  // saying so (decision.h's stop text): every worker starts no new pair, and the next run of
  // it clears both (Catalog::set_tournament_status Running) and plays the rest. False when no
  // running or aborted tournament has that name.
  bool request_stop(std::string_view name, const std::string& decision);
  // The games the tournament's recorded pairs hold: its schedule's size (0 before a worker
  // recorded them).
  std::int64_t scheduled_games(std::int64_t tournament_id) const;
  TournamentControl control(std::int64_t tournament_id) const;
  void set_sprt_settings(std::int64_t tournament_id, const SprtSettings& sprt);
  std::optional<SprtSettings> sprt_settings(std::int64_t tournament_id) const;
  std::vector<WorkerSummary> workers(const GameFilter& filter) const;
  // Every registered worker's state, by id.
  std::vector<WorkerState> worker_states() const;

 private:
  StoreCore& core_;
};

}  // namespace knightly::db
