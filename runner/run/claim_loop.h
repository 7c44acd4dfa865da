#pragma once
// The game threads of a run and its heartbeat: each of `concurrency` threads claims the next
// free pair under a lease (renewed by one heartbeat thread per process), plays the games of it
// the store does not hold yet with its own PlayerPool, stores each as it ends (the last one
// releases the pair), hands it to the output files and the Decider, and claims again until the
// run stops or no pair is left. A pair the run stops in is given back at once for anyone.
//
// Short games are stored together (SQLite): a thread keeps the games it finished in under
// kShortGame for up to kHoldFor (at most kHoldMost of them; up to twice as long and as many
// while another thread of this process is storing) and stores them in one transaction,
// so a run of millisecond games pays one commit per batch rather than one per game. A game is
// reported (progress, output files, the Decider) only once it is stored, so a kill loses no
// game reported finished; a game held is stored before the thread waits, claims nothing more,
// gives its pair back or ends, and while a longer game that follows it plays, by the same
// rule as between games: once kHoldFor old if the store is free, at twice that in any case.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <vector>

#include "db/store/store.h"
#include "runner/config/config.h"
#include "runner/match/game.h"
#include "runner/match/tablebase_adjudication.h"
#include "runner/run/decider.h"
#include "runner/run/driver.h"
#include "runner/run/engine_versions.h"
#include "runner/run/output_files.h"
#include "runner/run/player_pool.h"
#include "runner/run/run_events.h"
#include "runner/run/run_options.h"
#include "runner/run/tune_plan.h"
#include "runner/tournament/opening_book.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {

// What the run's prepare set up for the games: read by every game thread, changed by none.
struct GameInputs {
  const Config& config;
  const RunOptions& options;
  const Schedule& schedule;
  const OpeningBook* book = nullptr;       // the openings file, when there is one
  const std::regex* match_line = nullptr;  // -pgnout match_line=, compiled once
  TablebaseProber* tablebase = nullptr;    // the Syzygy tables when adjudication uses them
};

// Where the games go and who hears of them: the run's objects, outliving the loop.
struct GameSinks {
  db::Store& store;
  std::int64_t tournament_id;
  std::int64_t worker_id;
  EngineVersions& versions;
  OutputFiles& outputs;
  Decider& decider;
  RunEvents& events;
  StopToken& stop;
  TunePlan* tune = nullptr;  // a [tune]: SPSA over the rounds (tune_plan.h)
};

// What this process did, for the summary.
struct PlayedHere {
  int games = 0;                         // stored
  int superseded = 0;                    // played after the lease was lost: kept aside, not counted
  bool moved_on = false;                 // options.other_work said to go to another test
  std::uint64_t plies = 0;               // --perf-stats
  std::vector<std::int64_t> latency_ns;  // --perf-stats
  int store_transactions = 0;            // in which the games were stored (--perf-stats)
  int pairs_claimed = 0;                 // --perf-stats
  int claim_transactions = 0;            // in which the pairs were claimed (--perf-stats)
};

class ClaimLoop {
 public:
  static constexpr std::chrono::milliseconds kShortGame{20};
  static constexpr std::chrono::milliseconds kHoldFor{50};
  static constexpr std::size_t kHoldMost = 64;
  // Pairs claimed in one transaction while this thread's games are short (held): 16 games of
  // under kShortGame, a fraction of a second of play that other workers cannot take.
  static constexpr int kClaimAhead = 8;

  ClaimLoop(const GameInputs& in, const GameSinks& out);

  // Plays until the run stops or no pair is left; the game threads are gone when it returns.
  void run();

  // Once run() has returned.
  const PlayedHere& played() const { return played_; }
  const std::vector<EngineFailure>& engine_failures() const { return starts_.failures(); }

 private:
  enum class Kept { Stored, Superseded, Failed };
  // A game thread's finished games not stored yet (short ones, stored together).
  struct Held {
    struct Game {
      db::Claim claim;
      int index = 0;
      GameRecord record;
    };
    std::vector<Game> games;
    std::chrono::steady_clock::time_point since;  // when the first of them was held
    // The last game was kept to be stored with others, or stored in such a batch: games are
    // short, and their pairs are claimed several at a time (also right after a batch).
    bool batching = false;
  };

  void game_thread() noexcept;
  // Claims and plays until the run stops; the games it holds are stored when it ends, even
  // by an exception.
  void claim_and_play(PlayerPool& players, Held& held);
  void claim_and_play_held(PlayerPool& players, Held& held);
  // Waits for a pair to be given back or to expire; `waited`: the waits before this one in a row.
  void wait_for_work(int waited);
  // A pair claimed here and the games of it to play (hold()).
  struct Claimed {
    db::Claim claim;
    std::vector<int> todo;
  };
  // Claims up to `count` free pairs in one transaction, appended to `ahead` (held); what the
  // claim found.
  // `store`: the store held for this thread (Store::try_hold), let go once the claim is made,
  // before the run's lock is taken (which Decider::stored holds while it reads the store).
  db::ClaimStatus claim_into(std::deque<Claimed>& ahead, int count,
                             std::unique_lock<std::recursive_mutex> store = {});
  // The games of `todo` (held), stored; the pair given back if the run stops before its end.
  void play_pair(PlayerPool& players, const db::Claim& claim, const std::vector<int>& todo,
                 Held& held);
  // Pairs claimed ahead and not played: unheld, and with `release` given back in the store.
  void give_back(std::deque<Claimed>& ahead, bool release);
  // Whether a game just finished may wait in `held` for the next ones: Keep; Full (the held
  // games are many or old enough: stored now, unless another thread of this process is in
  // the store, then kept a while longer rather than waiting for it); Store (now).
  enum class Hold { Keep, Full, Store };
  Hold may_hold(const GameRecord& record, const Held& held) const;
  // The one rule of how long games are held, between games (may_hold) and during a longer
  // game (play): `games` held, the first `held_for` ago. Full: many or old enough; Store: twice.
  static Hold hold_limit(std::size_t games, std::chrono::steady_clock::duration held_for);
  // Whether held games of that state are stored now: Store, or Full with the store free.
  bool store_now(Hold hold) const;
  // Stores the held games (one transaction), reports each; what became of the games of
  // `claim` among them (Stored when all were stored, or none was held).
  Kept store_held(Held& held, const db::Claim* claim = nullptr);
  // The games of `claim` the store does not hold, marked as held by this process.
  std::vector<int> hold(const db::Claim& claim);
  void unhold(int index);
  // A game the store did not take: its lease lost (kept aside) or its store failed.
  void superseded(const ScheduledGame& sg);
  // The stored game to the summary, the observer, the log and the output files (the run's lock
  // held, the counts including it).
  void report_stored(const ScheduledGame& sg, const GameRecord& record, int index);

  std::optional<GameRecord> play_one(PlayerPool& players, int index, const db::Claim& claim,
                                     Held& held);
  std::optional<Game> make_game(const ScheduledGame& sg);
  void play(Game& game, PlayerPool& players, const ScheduledGame& sg, const db::Claim& claim,
            DriverStats* stats, Held& held);
  void after_game(Game& game, PlayerPool& players, const ScheduledGame& sg);

  GameInputs in_;
  GameSinks out_;
  PlayerOptions player_options_;
  EngineStarts starts_;
  std::vector<std::vector<int>> cpu_slots_;  // -use-affinity: each game thread's CPUs
  std::atomic<int> next_thread_{0};
  int threads_ = 1;  // the game threads run() starts
  // Under the run's lock (events.mutex()):
  std::multiset<int> held_;  // schedule indices of games of pairs claimed here
  PlayedHere played_;
};

}  // namespace knightly::runner
