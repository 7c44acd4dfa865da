#include "runner/run/claim_loop.h"

#include <algorithm>
#include <thread>

#include "db/records/utc_time.h"
#include "runner/config/variant.h"
#include "runner/players/cpu_affinity.h"
#include "runner/players/line_channel.h"
#include "runner/run/heartbeat.h"
#include "runner/run/run_outputs.h"

namespace knightly::runner {
namespace {

using SteadyClock = std::chrono::steady_clock;

// The limits an engine plays with: its own, else the tournament's defaults.
EngineLimits effective_limits(const EngineConfig& e, const EngineLimits& defaults) {
  EngineLimits l;
  l.tc = e.limits.tc ? e.limits.tc : defaults.tc;
  l.depth = e.limits.depth ? e.limits.depth : defaults.depth;
  l.nodes = e.limits.nodes ? e.limits.nodes : defaults.nodes;
  l.time_margin_ms = e.limits.time_margin_ms ? e.limits.time_margin_ms : defaults.time_margin_ms;
  return l;
}

std::string game_label(const ScheduledGame& sg, const Config& config) {
  return "game " + std::to_string(sg.id.index + 1) + " (" + config.engines[sg.white].name + " vs " +
         config.engines[sg.black].name + ")";
}

}  // namespace

ClaimLoop::ClaimLoop(const GameInputs& in, const GameSinks& out)
    : in_(in),
      out_(out),
      player_options_(player_options_for(in.config, in.options.log_dir)),
      starts_(in.config.engines.size(), out.versions, out.events) {}

void ClaimLoop::run() {
  Heartbeat heartbeat(
      out_.store, out_.worker_id, in_.options.lease,
      [this] {
        // Between games every worker looks after each game it stores; this is for one deep in
        // a long game: a decision, or a stop with --on-stop abandon, reaches it now.
        if (!out_.stop.stopping()) out_.decider.decide();
      },
      [this](const std::string& e) { out_.events.fail(Failure::Store, e); });
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < in_.schedule.total(); ++i)
    if (in_.schedule.at(i).id.game_in_pair == 0) ++pairs;
  const TournamentConfig& t = in_.config.tournament;
  const int threads = std::max(1, std::min<int>(t.concurrency, int(pairs)));
  threads_ = threads;
  if (t.affinity)
    cpu_slots_ =
        affinity_slots(t.affinity_cpus.empty() ? available_cpus() : t.affinity_cpus, threads);
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) pool.emplace_back([this] { game_thread(); });
  for (auto& th : pool) th.join();
  heartbeat.stop();
}

void ClaimLoop::game_thread() noexcept {
  PlayerPool players(in_.config, player_options_, starts_);  // quits its players when it goes
  // -use-affinity: this thread, and the engines it starts, run on CPUs of their own.
  const int me = next_thread_.fetch_add(1);
  if (!cpu_slots_.empty()) {
    if (auto e = pin_this_thread(cpu_slots_[std::size_t(me) % cpu_slots_.size()])) {
      out_.events.fail(Failure::Setup, *e);
      return;
    }
  }
  Held held;
  try {
    claim_and_play(players, held);
  } catch (const db::StoreException& e) {
    out_.events.fail(Failure::Store, e.what());
  } catch (const std::exception& e) {
    out_.events.fail(Failure::Setup, std::string("internal error: ") + e.what());
  } catch (...) {
    out_.events.fail(Failure::Setup, "internal error (unknown exception)");
  }
}

void ClaimLoop::claim_and_play(PlayerPool& players, Held& held) {
  try {
    claim_and_play_held(players, held);
  } catch (...) {
    // The games finished before the failure are stored when the store still takes them.
    try {
      store_held(held);
    } catch (...) {
    }
    throw;
  }
  store_held(held);
}

void ClaimLoop::claim_and_play_held(PlayerPool& players, Held& held) {
  int busy = 0;               // claims in a row that found every free pair in play
  std::deque<Claimed> ahead;  // pairs claimed here and not played yet, in schedule order
  try {
    while (!out_.stop.stopping()) {
      if (ahead.empty()) {
        // Short games are held to be stored together (may_hold): their pairs are claimed
        // several at a time too, so that neither costs a transaction every game or two.
        const auto status = claim_into(ahead, held.batching ? kClaimAhead : 1);
        if (status == db::ClaimStatus::Claimed) {
          busy = 0;
        } else if (status == db::ClaimStatus::Busy) {
          store_held(held);
          // Every free pair is in play: one may be given back or expire, or the last ones be
          // stored by other workers (the run is then over). A queue's worker goes to another
          // test instead when one wants it.
          if (in_.options.other_work && in_.options.other_work()) {
            {
              std::lock_guard lock(out_.events.mutex());
              played_.moved_on = true;
            }
            out_.stop.request(StopLevel::Drain);
            out_.events.wake();
            break;
          }
          wait_for_work(busy++);
          continue;
        } else if (status == db::ClaimStatus::Exhausted) {
          store_held(held);
          out_.decider.exhausted();
          break;
        } else {
          store_held(held);
          if (out_.decider.not_running()) wait_for_work(8);
          continue;
        }
      }
      Claimed next = std::move(ahead.front());
      ahead.pop_front();
      // While short games are held, the next pairs are claimed before the last one is played,
      // at a moment no other thread of this process is in the store: a claim made only once
      // none is left waits out another thread's store of many games, this thread idle. A
      // process of one game thread waits for nobody: it claims when it has none left, and
      // holds fewer pairs from other processes at the end of a run.
      if (threads_ > 1 && held.batching && ahead.size() < kClaimAhead)
        if (auto free = out_.store.try_hold()) claim_into(ahead, kClaimAhead, std::move(free));
      play_pair(players, next.claim, next.todo, held);
    }
  } catch (...) {
    give_back(ahead, false);
    throw;
  }
  give_back(ahead, true);
}

db::ClaimStatus ClaimLoop::claim_into(std::deque<Claimed>& ahead, int count,
                                      std::unique_lock<std::recursive_mutex> store) {
  auto r = out_.store.work().claim_pairs(
      out_.tournament_id, out_.worker_id, in_.options.lease, count,
      out_.tune ? std::optional<int>(out_.tune->window()) : std::nullopt);
  if (store) store.unlock();
  if (r.status != db::ClaimStatus::Claimed) return r.status;
  if (!r.claim) return db::ClaimStatus::Exhausted;
  ahead.push_back({*r.claim, hold(*r.claim)});
  for (const db::Claim& c : r.more) ahead.push_back({c, hold(c)});
  std::lock_guard lock(out_.events.mutex());
  ++played_.claim_transactions;
  played_.pairs_claimed += 1 + int(r.more.size());
  return db::ClaimStatus::Claimed;
}

void ClaimLoop::give_back(std::deque<Claimed>& ahead, bool release) {
  // Pairs claimed ahead of the run's stop (or of a failure) are anyone's at once again; after
  // a failure the store may not take it, and their leases run out instead.
  std::deque<Claimed> pairs = std::move(ahead);
  ahead.clear();
  for (const Claimed& c : pairs)
    for (int i : c.todo) unhold(i);
  out_.events.wake();
  if (release)
    for (const Claimed& c : pairs)
      if (!out_.events.store_failed()) out_.store.work().release_claim(c.claim);
}

void ClaimLoop::wait_for_work(int waited) {
  // Other processes' pairs end without a word to this one: it looks again soon at first (the
  // last pairs of a run are often minutes from done, but a run of short games ends within
  // milliseconds of its last claim), then less often, at most every lease / 4 and 1 s. This
  // process's own threads wake the waiters when they give a pair back or finish one.
  const auto longest = std::clamp(in_.options.lease / 4, std::chrono::milliseconds(50),
                                  std::chrono::milliseconds(1000));
  out_.events.wait(std::min(longest, std::chrono::milliseconds(5 << std::min(waited, 8))));
}

std::vector<int> ClaimLoop::hold(const db::Claim& claim) {
  std::vector<int> todo;
  for (int k = 0; k < claim.games; ++k)
    if (std::find(claim.stored.begin(), claim.stored.end(), k) == claim.stored.end())
      todo.push_back(claim.schedule_index + k);
  std::lock_guard lock(out_.events.mutex());
  for (int i : todo) held_.insert(i);
  return todo;
}

void ClaimLoop::unhold(int index) {
  std::lock_guard lock(out_.events.mutex());
  if (auto it = held_.find(index); it != held_.end()) held_.erase(it);
}

void ClaimLoop::play_pair(PlayerPool& players, const db::Claim& claim, const std::vector<int>& todo,
                          Held& held) {
  // A tune's pair is played by its iteration's values: players made for others are replaced.
  if (out_.tune) players.use(out_.tune->engines(out_.store, claim.round, in_.config.engines));
  std::size_t next = 0;  // todo[next] on are not played; store_held unholds the played ones
  bool ours = true;      // false once another worker has the pair (or the store cannot be used)
  try {
    while (next < todo.size() && !out_.stop.stopping()) {
      const int index = todo[next];
      auto record = play_one(players, index, claim, held);
      if (!record) break;
      ++next;
      const Hold keep = may_hold(*record, held);
      held.batching = keep != Hold::Store || !held.games.empty();
      if (held.games.empty()) held.since = SteadyClock::now();
      held.games.push_back({claim, index, std::move(*record)});
      if (!store_now(keep)) continue;
      if (store_held(held, &claim) != Kept::Stored) {
        ours = false;
        break;
      }
      if (out_.tune && index == claim.schedule_index + claim.games - 1)
        out_.tune->pair_done(out_.store);
    }
    // A pair left unfinished (the run stops) is given back at once for anyone to play, once
    // its games played here are stored.
    if (ours && next < todo.size() && !out_.events.store_failed() &&
        store_held(held, &claim) == Kept::Stored)
      out_.store.work().release_claim(claim);
  } catch (...) {
    for (std::size_t i = next; i < todo.size(); ++i) unhold(todo[i]);
    out_.events.wake();
    throw;
  }
  for (std::size_t i = next; i < todo.size(); ++i) unhold(todo[i]);
  out_.events.wake();
}

ClaimLoop::Hold ClaimLoop::may_hold(const GameRecord& record, const Held& held) const {
  // A tune's iteration needs its pair stored before the next one reads the values. On
  // PostgreSQL a game's id is drawn when it is inserted, not when it is committed, and a
  // decision's standings are of the first games by id ("after N games"): a longer transaction
  // would let more games of lower ids commit after another worker read them.
  if (out_.tune || out_.stop.stopping() || out_.store.is_postgres()) return Hold::Store;
  // A game the run acts on as soon as it is stored is not kept: an SPRT may end the run with
  // any game, and without -recover an engine's crash or stall ends it; games played on after
  // it would be stored after the decision.
  if (out_.decider.sprt() || record.termination == Termination::Disconnect ||
      record.termination == Termination::Stall)
    return Hold::Store;
  if (record.duration_ms >= kShortGame.count()) return Hold::Store;
  if (held.games.empty()) return Hold::Keep;
  return hold_limit(held.games.size() + 1, SteadyClock::now() - held.since);
}

ClaimLoop::Hold ClaimLoop::hold_limit(std::size_t games, SteadyClock::duration held_for) {
  if (games >= 2 * kHoldMost || held_for >= 2 * kHoldFor) return Hold::Store;
  return games >= kHoldMost || held_for >= kHoldFor ? Hold::Full : Hold::Keep;
}

bool ClaimLoop::store_now(Hold hold) const {
  return hold == Hold::Store || (hold == Hold::Full && !out_.store.busy());
}

ClaimLoop::Kept ClaimLoop::store_held(Held& held, const db::Claim* claim) {
  if (held.games.empty()) return Kept::Stored;
  std::vector<Held::Game> games = std::move(held.games);
  held.games.clear();
  const std::size_t n = games.size();
  std::vector<Kept> kept(n, Kept::Failed);
  std::vector<db::GameWrites::ClaimedGame> items;
  items.reserve(n);
  // The first failure ends the run; the message names its game, and the games not stored
  // after it.
  const auto failed = [&](std::size_t i, const std::string& error, bool rest_too = true) {
    const ScheduledGame& sg = in_.schedule.at(std::size_t(games[i].index));
    std::string text = game_label(sg, in_.config) + " of '" + in_.config.tournament.name +
                       "' could not be stored: " + error;
    if (rest_too && n - i > 1)
      text += " (nor " + std::to_string(n - i - 1) + " more finished game" +
              (n - i > 2 ? "s" : "") + " after it: they are played again on resume)";
    // The store fails: the lease runs out on its own, nothing to give back.
    out_.events.fail(Failure::Store, text);
  };
  // Stores games[first, first + count) in one transaction, setting their outcomes.
  const auto store = [&](std::size_t first, std::size_t count) {
    const auto outcomes = out_.store.games().store_games(std::span(&items[first], count));
    for (std::size_t i = 0; i < count; ++i)
      kept[first + i] =
          outcomes[i] == db::StoreOutcome::Superseded ? Kept::Superseded : Kept::Stored;
    std::lock_guard lock(out_.events.mutex());
    ++played_.store_transactions;
  };
  // A game the store refuses (already stored, not the claim's), not a store that cannot be
  // used.
  const auto refused_alone = [](const db::StoreException& e) {
    return e.kind() == db::ErrorKind::Conflict || e.kind() == db::ErrorKind::Invalid;
  };
  try {
    for (const Held::Game& g : games) {
      const ScheduledGame& sg = in_.schedule.at(std::size_t(g.index));
      items.push_back(
          {&g.claim, &g.record, out_.versions.id(sg.white), out_.versions.id(sg.black)});
    }
    for (const Held::Game& g : games)
      out_.decider.will_store(in_.schedule.at(std::size_t(g.index)));
    try {
      store(0, n);
    } catch (const db::StoreException& e) {
      // One game the store refuses costs only itself: the others go in one by one. A store
      // that cannot be used is not tried again.
      if (n == 1 || !refused_alone(e)) {
        failed(0, e.what());
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          try {
            store(i, 1);
          } catch (const db::StoreException& e1) {
            failed(i, e1.what(), !refused_alone(e1));
            if (!refused_alone(e1)) break;
          }
        }
      }
    }
  } catch (const db::StoreException& e) {
    // The engines' versions could not be registered.
    failed(0, e.what());
  }
  Kept mine = Kept::Stored;
  std::vector<Decider::StoredGame> done;
  for (std::size_t i = 0; i < n; ++i) {
    const ScheduledGame& sg = in_.schedule.at(std::size_t(games[i].index));
    unhold(games[i].index);
    if (kept[i] == Kept::Stored)
      done.push_back({&sg, &games[i].record});
    else if (kept[i] == Kept::Superseded)
      superseded(sg);
    else
      out_.decider.not_stored(sg);
    if (claim && kept[i] != Kept::Stored && mine == Kept::Stored &&
        games[i].claim.same_attempt(*claim))
      mine = kept[i];
  }
  out_.decider.stored(done, [&](std::size_t k) {
    report_stored(*done[k].sg, *done[k].record, done[k].sg->id.index);
  });
  return mine;
}

void ClaimLoop::superseded(const ScheduledGame& sg) {
  out_.decider.not_stored(sg);
  std::lock_guard lock(out_.events.mutex());
  ++played_.superseded;
  out_.events.observer().on_warning(game_label(sg, in_.config) +
                                    " ended after this worker's lease on its pair ran out; "
                                    "another worker has the pair, so the game is kept aside, "
                                    "not counted");
}

void ClaimLoop::report_stored(const ScheduledGame& sg, const GameRecord& record, int index) {
  ++played_.games;
  const SharedTally* tally = out_.decider.tally();
  RunObserver& observer = out_.events.observer();
  observer.on_game_finished(record, tally ? &tally->tally().games() : nullptr);
  if (tally) observer.on_tally(tally->tally().games(), tally->tally().pairs());
  out_.events.log().line("Finished game " + std::to_string(sg.id.index + 1) + " (" + record.white +
                         " vs " + record.black + "): " + result_token(record.result) + " {" +
                         record.reason + "}");
  for (const std::string& e : out_.outputs.add(out_.store, out_.tournament_id, index, record,
                                               [this](int i) { return held_.count(i) > 0; }))
    out_.events.fail_locked(Failure::Output, e);
  // Without recover (cutechess's default for `play`), a crashed or stalled engine ends the
  // run once the games in progress are stored.
  const bool engine_fault =
      record.termination == Termination::Disconnect || record.termination == Termination::Stall;
  if (engine_fault && !in_.config.tournament.recover)
    out_.events.fail_locked(
        Failure::EngineFault,
        game_label(sg, in_.config) + ": " + record.reason +
            "; engines are not restarted without -recover ([tournament] recover = true)");
}

std::optional<Game> ClaimLoop::make_game(const ScheduledGame& sg) {
  const Config& config = in_.config;
  const bool chess960 = is_chess960(config.tournament);
  auto opening = opening_for(sg, in_.book, config.openings, chess960);
  if (!opening) {
    out_.events.fail(Failure::Setup, opening.error().to_string());
    return std::nullopt;
  }
  GameSetup setup;
  setup.id = sg.id;
  setup.white = config.engines[sg.white].name;
  setup.black = config.engines[sg.black].name;
  setup.start_fen = opening->fen;
  setup.opening_uci = opening->moves;
  setup.opening_source = opening->source;
  setup.limits = {effective_limits(config.engines[sg.white], config.tournament.defaults),
                  effective_limits(config.engines[sg.black], config.tournament.defaults)};
  setup.adjudication = config.tournament.adjudication;
  setup.chess960 = chess960;
  setup.tablebase = in_.tablebase;
  setup.match_line = in_.match_line;
  setup.check_mate_pvs = config.tournament.check_mate_pvs;
  auto game = Game::create(setup);
  if (!game) {
    out_.events.fail(Failure::Setup,
                     "game " + std::to_string(sg.id.index + 1) + ": " + game.error());
    return std::nullopt;
  }
  return std::move(*game);
}

std::optional<GameRecord> ClaimLoop::play_one(PlayerPool& players, int index,
                                              const db::Claim& claim, Held& held) {
  const ScheduledGame& sg = in_.schedule.at(std::size_t(index));
  auto game = make_game(sg);
  if (!game) return std::nullopt;
  if (!players.start(*game, sg.white, sg.black)) return std::nullopt;
  if (out_.stop.stopping() && !game->finished()) return std::nullopt;

  const std::string& white = in_.config.engines[sg.white].name;
  const std::string& black = in_.config.engines[sg.black].name;
  {
    std::lock_guard lock(out_.events.mutex());
    out_.events.observer().on_game_started(sg.id.index, white, black);
  }
  out_.events.log().line("Started game " + std::to_string(sg.id.index + 1) + " of " +
                         std::to_string(in_.schedule.total()) + " (" + white + " vs " + black +
                         ")");
  GameInfo info;
  const OutputConfig& output = in_.config.output;
  info.event = output.event.empty() ? in_.config.tournament.name : output.event;
  if (!output.site.empty()) info.site = output.site;
  info.start_time = db::utc_now_iso();
  const auto t0 = SteadyClock::now();
  DriverStats game_stats;
  play(*game, players, sg, claim, in_.options.perf_stats ? &game_stats : nullptr, held);
  after_game(*game, players, sg);
  info.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - t0).count();
  if (game->result() == Result::None) return std::nullopt;  // abandoned: replayed later
  if (in_.options.perf_stats) {
    std::lock_guard lock(out_.events.mutex());
    played_.plies += game_stats.moves;
    played_.latency_ns.insert(played_.latency_ns.end(), game_stats.latency_ns.begin(),
                              game_stats.latency_ns.end());
  }
  return game->record(info);
}

void ClaimLoop::play(Game& game, PlayerPool& players, const ScheduledGame& sg,
                     const db::Claim& claim, DriverStats* stats, Held& held) {
  // Whoever watches (knightly serve) sees the game's position, recorded about once a second,
  // the first time a second into the game: a game over sooner is never written twice (its
  // position and then itself), which made short games take the write lock twice each and
  // workers in other processes wait for it. A position not recorded costs nothing: a store
  // that fails is reported when the game is stored.
  SteadyClock::time_point last_position = SteadyClock::now();
  auto on_move = [&](const Game& g) {
    const auto now = SteadyClock::now();
    // The short games before this longer one are not kept waiting for it: stored by the
    // rule between games (hold_limit), without the game playing now among them.
    if (!held.games.empty() && store_now(hold_limit(held.games.size(), now - held.since)))
      store_held(held);
    // Not while the run stops: a failing store would make each move wait for it.
    if (out_.stop.stopping()) return;
    if (now - last_position < std::chrono::seconds(1)) return;
    last_position = now;
    try {
      out_.store.work().set_live_position(claim, sg.id.game_in_pair,
                                          static_cast<int>(g.moves().size()), g.position().fen());
    } catch (const db::StoreException&) {
    }
  };
  DriverOptions driver = in_.options.driver;
  driver.ready_timeout = std::chrono::milliseconds(in_.config.tournament.timeouts.ucinewgame_ms);
  play_game(game, players[sg.white], players[sg.black], driver, &out_.stop, stats, on_move);
}

void ClaimLoop::after_game(Game& game, PlayerPool& players, const ScheduledGame& sg) {
  for (const std::string& w : game.take_warnings()) {
    std::lock_guard lock(out_.events.mutex());
    out_.events.observer().on_message(w);  // fastchess's own words ("Warning; ..."), as they are
    out_.events.log().line(w);
  }
  // restart=on: a new process for every game.
  players.game_over(sg.white, sg.black);
  // The engines' reads are over until the next game: no deadline signal during the store, the
  // PGN and the progress lines.
  disarm_read_deadline();
  // -wait N: a pause between this thread's games.
  if (in_.config.tournament.wait_ms > 0 && !out_.stop.stopping())
    std::this_thread::sleep_for(std::chrono::milliseconds(in_.config.tournament.wait_ms));
}

}  // namespace knightly::runner
