#include "runner/run/run.h"

#include <signal.h>

#include <cerrno>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <random>
#include <sstream>
#include <thread>

#include "db/store/database_url.h"
#include "runner/config/engine_check.h"
#include "runner/config/variant.h"
#include "runner/players/cpu_affinity.h"
#include "runner/players/line_channel.h"
#include "runner/players/player_factory.h"
#include "runner/run/decision.h"
#include "runner/run/heartbeat.h"
#include "runner/run/run_sources.h"
#include "runner/run/worker_identity.h"
#include "runner/tablebase/fathom_prober.h"

namespace knightly::runner {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The limits an engine plays with: its own, else the tournament's defaults.
EngineLimits effective_limits(const EngineConfig& e, const EngineLimits& defaults) {
  EngineLimits l;
  l.tc = e.limits.tc ? e.limits.tc : defaults.tc;
  l.depth = e.limits.depth ? e.limits.depth : defaults.depth;
  l.nodes = e.limits.nodes ? e.limits.nodes : defaults.nodes;
  l.time_margin_ms = e.limits.time_margin_ms ? e.limits.time_margin_ms : defaults.time_margin_ms;
  return l;
}

// "2026-11-21T23:59:00.123Z" (or without the fraction) as seconds since the epoch; 0 if unreadable.
std::time_t parse_iso_utc(const std::string& text) {
  std::tm tm{};
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
    return 0;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return timegm(&tm);
}

std::string game_label(const ScheduledGame& sg, const Config& config) {
  return "game " + std::to_string(sg.id.index + 1) + " (" + config.engines[sg.white].name + " vs " +
         config.engines[sg.black].name + ")";
}

}  // namespace

std::vector<db::PairSlot> pair_slots(const Schedule& schedule) {
  std::vector<db::PairSlot> slots;
  for (const auto& g : schedule.games()) {
    if (!slots.empty() && slots.back().round == g.id.round && slots.back().pair == g.id.pair) {
      ++slots.back().games;
      continue;
    }
    slots.push_back({g.id.round, g.id.pair, 1, g.id.index});
  }
  return slots;
}

std::string describe_config_change(const std::string& before, const std::string& after) {
  auto a = split_lines(before), b = split_lines(after);
  std::multiset<std::string> sa(a.begin(), a.end()), sb(b.begin(), b.end());
  std::string out;
  for (const auto& l : a)
    if (!sb.count(l)) out += "  - " + l + "\n";
  for (const auto& l : b)
    if (!sa.count(l)) out += "  + " + l + "\n";
  if (out.empty()) out = "  (the lines are the same but in another order)\n";
  return out;
}

Run::Run(Config config, RunOptions options, RunObserver& observer)
    : config_(std::move(config)), options_(std::move(options)), observer_(observer) {
  two_engines_ = config_.engines.size() == 2;
  if (two_engines_ && config_.sprt.enabled) sprt_ = stats_sprt_config(config_.sprt);
  if (config_.tune.enabled) tune_ = std::make_unique<TunePlan>(config_);
  paired_ = schedule_has_pairs(config_.tournament) && config_.output.report_penta;
}

Run::~Run() = default;

RunSummary Run::execute() {
  const auto t0 = SteadyClock::now();
  try {
    if (prepare()) play();
  } catch (const db::StoreException& e) {
    fail(Failure::Store, e.what());
  } catch (const std::exception& e) {
    fail(Failure::Setup, std::string("internal error: ") + e.what());
  }
  versions_.reset();  // joins the hashing thread
  report();
  summary_.wall_seconds = std::chrono::duration<double>(SteadyClock::now() - t0).count();
  return summary_;
}

// ------------------------------------------------------------------------------ prepare

bool Run::prepare() {
  // Everything that can be checked before the first game is checked now, the size first:
  // nothing is allocated for, or written of, a schedule too large to play.
  if (auto too_big = check_schedule_limits(config_)) {
    fail(Failure::Setup, too_big->to_string());
    return false;
  }
  if (auto missing = find_missing_engines(config_); !missing.empty()) {
    for (std::size_t i = 1; i < missing.size(); ++i) observer_.on_error(missing[i].to_string());
    fail(Failure::Setup, missing[0].to_string());
    return false;
  }
  if (!options_.log_dir.empty()) {
    // Engine logs go into DIR/NAME.log: the directory is made here, as --pgn's file is.
    std::error_code ec;
    std::filesystem::create_directories(options_.log_dir, ec);
    if (ec || !std::filesystem::is_directory(options_.log_dir)) {
      fail(Failure::Setup, "--log-dir " + options_.log_dir + ": " +
                               (ec ? ec.message() : std::string("not a directory")));
      return false;
    }
  }
  if (!config_.openings.file.empty()) {
    // Only finds where each opening starts; a line is parsed when a game uses it.
    auto b = load_opening_book(config_.openings);
    if (!b) return fail(Failure::Setup, b.error().to_string()), false;
    book_ = std::move(*b);
  }
  if (!config_.output.pgn_options.match_line.empty()) {
    try {
      match_line_.emplace(config_.output.pgn_options.match_line);
    } catch (const std::regex_error& e) {
      return fail(Failure::Setup, "-pgnout match_line=" + config_.output.pgn_options.match_line +
                                      ": not a regular expression (" + e.what() + ")"),
             false;
    }
  }
  if (config_.tournament.adjudication.tablebase.enabled) {
    auto tables = FathomProber::open(config_.tournament.adjudication.tablebase.path);
    if (!tables) return fail(Failure::Setup, tables.error()), false;
    tablebase_ = std::move(*tables);
  }
  db::StoreOptions store_options;
  const bool full_sync = config_.output.sync == SyncMode::Full;
  store_options.sync_every_commit = full_sync;
  auto opened = db::Store::open(config_.output.database, store_options);
  if (!opened) {
    // What may be gone by the next run: a lock, a server that is down, a full disk, I/O.
    const auto kind = opened.error().kind;
    const bool transient = kind == db::ErrorKind::Locked || kind == db::ErrorKind::Unavailable ||
                           kind == db::ErrorKind::DiskFull || kind == db::ErrorKind::Io;
    fail(transient ? Failure::Store : Failure::Setup, opened.error().message);
    return false;
  }
  store_.emplace(std::move(*opened));
  db::Store& store = *store_;

  summary_.database = store.path();  // a URL without its password
  // One writer per output file: this tournament's workers share them, another is refused.
  {
    std::error_code ec;
    const std::string db_identity =
        store.is_postgres() ? store.path()
                            : std::filesystem::weakly_canonical(store.path(), ec).string();
    for (const std::string* path : {&config_.output.pgn, &config_.output.epd}) {
      if (path->empty()) continue;
      auto claim = OutputClaim::take(*path, db_identity + "\n" + config_.tournament.name);
      if (!claim) return fail(Failure::Setup, claim.error()), false;
      output_claims_.push_back(std::move(*claim));
    }
  }
  // The tournament row: new, joined (another worker plays it too), resumed, or restarted.
  // The store keeps the config with any database URL's password taken out: compare like that.
  const std::string& text = config_.source_text;
  const std::string stored_text = db::redact_urls_in_text(text);
  const std::uint64_t seed = config_.tournament.seed.value_or(
      std::random_device{}() | (std::uint64_t(std::random_device{}()) << 32));
  db::NewTournament fresh{config_.tournament.name, options_.kind, text, seed, ""};
  auto existing = store.catalog().find_tournament(config_.tournament.name);
  db::Tournament t;
  bool created = false;
  auto refuse_changed = [&](const db::Tournament& old) {
    fail(Failure::Setup, "tournament '" + config_.tournament.name + "' in " + store.path() +
                             " was started with a different configuration:\n" +
                             describe_config_change(old.config_text, stored_text) +
                             "Use --restart to start it over (the old one is kept under id " +
                             std::to_string(old.id) + "), or give it another name.");
  };
  if (existing && existing->config_text != stored_text && !options_.restart) {
    refuse_changed(*existing);
    return false;
  }
  if (existing && options_.restart) {
    t = store.catalog().restart_tournament(existing->id, fresh);
    created = true;
    observer_.on_message("Restarting tournament '" + t.name + "' (the previous one is kept as id " +
                         std::to_string(existing->id) + ")");
  } else if (existing) {
    t = *existing;
  } else {
    try {
      t = store.catalog().create_tournament(fresh);
      created = true;
    } catch (const db::StoreException& e) {
      // Another worker created it a moment ago: join that one.
      if (e.kind() != db::ErrorKind::Conflict) throw;
      auto other = store.catalog().find_tournament(config_.tournament.name);
      if (!other) throw;
      if (other->config_text != stored_text) {
        refuse_changed(*other);
        return false;
      }
      t = *other;
    }
  }
  tournament_id_ = t.id;
  summary_.tournament = t;
  if (created && config_.sprt.enabled) {
    const auto& s = config_.sprt;
    store.work().set_sprt_settings(
        t.id, db::SprtSettings{s.elo0, s.elo1, s.alpha, s.beta, stats::model_name(s.model)});
  }

  schedule_.emplace(config_, t.seed, book_ ? book_->size() : 0);
  summary_.games_scheduled = int(schedule_->total());
  db::GameFilter filter;
  filter.tournament_ids = {t.id};
  const std::int64_t stored = store.queries().count_games(filter);
  const auto control = store.work().control(t.id);
  if (control.status == db::TournamentStatus::Finished) {
    decision_ = control.decision;
    observer_.on_message(
        "Tournament '" + t.name + "' is already finished (" + std::to_string(stored) + " games" +
        (control.decision.empty() ? "" : ": " + control.decision) + "); nothing to play.");
    return false;  // before registering: a run that plays nothing is no worker
  }
  const db::WorkerIdentity me = this_worker();
  worker_id_ = store.work().register_worker(me);
  const auto slots = pair_slots(*schedule_);
  // A large schedule takes a while to write: a signal stops it between batches.
  if (!store.work().add_pairs(t.id, slots, [this] { return stop_.stopping(); })) return false;
  // A run killed on this machine left leases that would hold its pairs until they ran out:
  // free them now, so that a resumed run plays the games in the order a single run would.
  for (const auto& [id, holder] : store.work().lease_holders(t.id))
    if (id != worker_id_ && worker_is_gone(holder, me)) store.work().expire_leases(id);
  if (tune_) {
    try {
      tune_->prepare(store, t.id, t.seed);
    } catch (const std::runtime_error& e) {
      return fail(Failure::Setup, e.what()), false;
    }
  }

  // Aborted (interrupted, or `knightly stop`): this run resumes it, for every worker, and the
  // stop is forgotten.
  if (control.status == db::TournamentStatus::Aborted || control.stop_requested) {
    store.catalog().set_tournament_status(t.id, db::TournamentStatus::Running);
    if (control.stop_requested)
      observer_.on_message("Tournament '" + t.name + "' was stopped (" + control.decision +
                           "): playing the rest");
  }
  if (has_sources(config_) && !prepare_sources(t.id)) return false;
  if (stored > 0 && std::size_t(stored) < schedule_->total())
    observer_.on_message("Resuming tournament '" + t.name + "': " + std::to_string(stored) +
                         " of " + std::to_string(schedule_->total()) + " games already played");
  observer_.on_schedule(schedule_->total(), std::size_t(stored));
  if (stored > 0) observer_.on_stored(store.queries().standings(filter));

  if (two_engines_) {
    tally_.emplace(config_.engines[0].name, t.id);
    tally_->recount(store);
  }
  versions_ =
      std::make_unique<EngineVersions>(config_, store, config_.output.database, store_options);
  ever_started_ = std::make_unique<std::atomic<bool>[]>(config_.engines.size());

  if (!config_.output.log_file.empty()) {
    if (auto e = log_.open(config_.output.log_file, config_.output.log_append))
      return fail(Failure::Output, *e), false;
  }
  if (!config_.output.pgn.empty()) {
    // The stored text, or the game written again with -pgnout's options.
    const bool rewrite = !(config_.output.pgn_options == PgnOptions{});
    pgn_.emplace(
        config_.output.pgn,
        [this](const GameRecord& r) {
          return output_pgn(r, pgn_header_for(r, config_), config_.output) + "\n";
        },
        rewrite, full_sync, config_.output.pgn_append);
    if (created) {
      // A new tournament's games follow what the file holds (append), or stand alone.
      if (auto r = pgn_->start_new(); !r) return fail(Failure::Output, r.error()), false;
    }
    // The file is brought up to date from the database first: nothing a killed run left
    // unwritten is lost, and nothing is there twice.
    if (auto r = pgn_->rebuild(store, t.id); !r) return fail(Failure::Output, r.error()), false;
  }
  if (!config_.output.epd.empty()) {
    epd_.emplace(
        config_.output.epd, [this](const GameRecord& r) { return output_epd(r, config_.output); },
        true, full_sync, config_.output.epd_append);
    if (created) {
      if (auto r = epd_->start_new(); !r) return fail(Failure::Output, r.error()), false;
    }
    if (auto r = epd_->rebuild(store, t.id); !r) return fail(Failure::Output, r.error()), false;
  }
  return true;
}

bool Run::prepare_sources(std::int64_t id) {
  SourceCache cache(options_.source_cache.empty() ? SourceCache::default_root()
                                                  : std::filesystem::path(options_.source_cache),
                    [this] { return stop_.stopping(); });
  auto prepared = runner::prepare_sources(
      config_, *store_, id, cache, [this](const std::string& line) { observer_.on_message(line); },
      [this] { return stop_.stopping(); });
  if (!prepared) {
    const std::string& why = prepared.error().message;
    if (prepared.error().kind == SourceError::Kind::Refused) {
      // The test's own sources: it is over for every worker, with the reason as its decision.
      summary_.test_refused = true;
      store_->work().finish_tournament(id, db::TournamentStatus::Finished, failed_decision(why));
    } else {
      summary_.sources_unavailable = true;
    }
    fail(Failure::Setup, why);
    return false;
  }
  if (prepared->nps)
    store_->test_queue().set_worker_speed(worker_id_, id, *prepared->nps, prepared->tc_factor);
  return true;
}

// ------------------------------------------------------------------------------ play

void Run::play() {
  Heartbeat heartbeat(
      *store_, worker_id_, options_.lease,
      [this] {
        // Between games every worker looks after each game it stores; this is for one deep in
        // a long game: a decision, or a stop with --on-stop abandon, reaches it now.
        if (!stop_.stopping()) decide();
      },
      [this](const std::string& e) { fail(Failure::Store, e); });
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < schedule_->total(); ++i)
    if (schedule_->at(i).id.game_in_pair == 0) ++pairs;
  const int threads = std::max(1, std::min<int>(config_.tournament.concurrency, int(pairs)));
  if (config_.tournament.affinity)
    cpu_slots_ =
        affinity_slots(config_.tournament.affinity_cpus.empty() ? available_cpus()
                                                                : config_.tournament.affinity_cpus,
                       threads);
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) pool.emplace_back([this] { game_thread(); });
  for (auto& th : pool) th.join();
  heartbeat.stop();
}

void Run::game_thread() noexcept {
  Players players(config_.engines.size());
  std::vector<EngineConfig> made_for = config_.engines;
  // -use-affinity: this thread, and the engines it starts, run on CPUs of their own.
  const int me = next_thread_.fetch_add(1);
  if (!cpu_slots_.empty()) {
    if (auto e = pin_this_thread(cpu_slots_[std::size_t(me) % cpu_slots_.size()])) {
      fail(Failure::Setup, *e);
      return;
    }
  }
  try {
    int busy = 0;  // claims in a row that found every free pair in play
    while (!stop_.stopping()) {
      auto r =
          store_->work().claim_pair(tournament_id_, worker_id_, options_.lease,
                                    tune_ ? std::optional<int>(tune_->window()) : std::nullopt);
      if (r.status == db::ClaimStatus::Claimed && r.claim) {
        busy = 0;
        play_pair(players, made_for, *r.claim);
      } else if (r.status == db::ClaimStatus::Busy) {
        // Every free pair is in play: one may be given back or expire, or the last ones be
        // stored by other workers (the run is then over). A queue's worker goes to another
        // test instead when one wants it.
        if (options_.other_work && options_.other_work()) {
          {
            std::lock_guard lock(mutex_);
            moved_on_ = true;
          }
          stop_.request(StopLevel::Drain);
          work_cv_.notify_all();
          break;
        }
        wait_for_work(busy++);
      } else if (r.status == db::ClaimStatus::Exhausted) {
        decide_exhausted();
        break;
      } else {
        decide_stopped();
        if (stop_.stopping()) break;
      }
    }
  } catch (const db::StoreException& e) {
    fail(Failure::Store, e.what());
  } catch (const std::exception& e) {
    fail(Failure::Setup, std::string("internal error: ") + e.what());
  } catch (...) {
    fail(Failure::Setup, "internal error (unknown exception)");
  }
  for (auto& p : players) {
    try {
      if (p) p->quit();
    } catch (...) {
    }
  }
}

void Run::wait_for_work(int waited) {
  // Other processes' pairs end without a word to this one: it looks again soon at first (the
  // last pairs of a run are often minutes from done, but a run of short games ends within
  // milliseconds of its last claim), then less often, at most every lease / 4 and 1 s. This
  // process's own threads notify work_cv_ when they give a pair back or finish one.
  const auto longest = std::clamp(options_.lease / 4, std::chrono::milliseconds(50),
                                  std::chrono::milliseconds(1000));
  const auto period = std::min(longest, std::chrono::milliseconds(5 << std::min(waited, 8)));
  std::unique_lock lock(mutex_);
  work_cv_.wait_for(lock, period);
}

void Run::play_pair(Players& players, std::vector<EngineConfig>& made_for, const db::Claim& claim) {
  // A tune's pair is played by its iteration's values: players made for others are replaced.
  if (tune_) {
    auto engines = tune_->engines(*store_, claim.round, config_.engines);
    for (std::size_t i = 0; i < players.size(); ++i)
      if (players[i] && !(engines[i] == made_for[i])) {
        players[i]->quit();
        players[i].reset();
      }
    made_for = std::move(engines);
  }
  std::vector<int> todo;
  for (int k = 0; k < claim.games; ++k)
    if (std::find(claim.stored.begin(), claim.stored.end(), k) == claim.stored.end())
      todo.push_back(claim.schedule_index + k);
  {
    std::lock_guard lock(mutex_);
    for (int i : todo) held_.insert(i);
  }
  auto unhold = [&](int index) {
    std::lock_guard lock(mutex_);
    if (auto it = held_.find(index); it != held_.end()) held_.erase(it);
  };
  std::size_t next = 0;
  bool ours = true;  // false once another worker has the pair (or the store cannot be used)
  try {
    for (; next < todo.size(); ++next) {
      if (stop_.stopping()) break;
      const int index = todo[next];
      auto record = play_one(players, index, &claim, made_for);
      if (!record) break;
      const ScheduledGame& sg = schedule_->at(std::size_t(index));
      db::StoreOutcome outcome;
      try {
        const auto white = versions_->id(sg.white), black = versions_->id(sg.black);
        outcome = store_->games().store_game(claim, *record, white, black);
      } catch (const db::StoreException& e) {
        fail(Failure::Store, game_label(sg, config_) + " of '" + config_.tournament.name +
                                 "' could not be stored: " + e.what());
        ours = false;  // the store fails: the lease runs out on its own, nothing to give back
        break;
      }
      unhold(index);
      if (outcome == db::StoreOutcome::Superseded) {
        ours = false;
        std::lock_guard lock(mutex_);
        ++summary_.games_superseded;
        observer_.on_warning(game_label(sg, config_) +
                             " ended after this worker's lease on its pair ran out; another "
                             "worker has the pair, so the game is kept aside, not counted");
        ++next;
        break;
      }
      stored(*record, index);
      if (tune_ && index == claim.schedule_index + claim.games - 1) tune_->pair_done(*store_);
    }
    // A pair left unfinished (the run stops) is given back at once for anyone to play.
    if (ours && next < todo.size() && !store_failed_) store_->work().release_claim(claim);
  } catch (...) {
    for (std::size_t i = next; i < todo.size(); ++i) unhold(todo[i]);
    work_cv_.notify_all();
    throw;
  }
  for (std::size_t i = next; i < todo.size(); ++i) unhold(todo[i]);
  work_cv_.notify_all();
}

std::optional<GameRecord> Run::play_one(Players& players, int index, const db::Claim* claim,
                                        const std::vector<EngineConfig>& engines) {
  const ScheduledGame& sg = schedule_->at(std::size_t(index));
  auto opening =
      opening_for(sg, book_ ? &*book_ : nullptr, config_.openings, is_chess960(config_.tournament));
  if (!opening) {
    fail(Failure::Setup, opening.error().to_string());
    return std::nullopt;
  }
  GameSetup setup;
  setup.id = sg.id;
  setup.white = config_.engines[sg.white].name;
  setup.black = config_.engines[sg.black].name;
  setup.start_fen = opening->fen;
  setup.opening_uci = opening->moves;
  setup.opening_source = opening->source;
  setup.limits = {effective_limits(config_.engines[sg.white], config_.tournament.defaults),
                  effective_limits(config_.engines[sg.black], config_.tournament.defaults)};
  setup.adjudication = config_.tournament.adjudication;
  setup.chess960 = is_chess960(config_.tournament);
  setup.tablebase = tablebase_.get();
  setup.match_line = match_line_ ? &*match_line_ : nullptr;
  setup.check_mate_pvs = config_.tournament.check_mate_pvs;
  auto game = Game::create(setup);
  if (!game) {
    fail(Failure::Setup, "game " + std::to_string(sg.id.index + 1) + ": " + game.error());
    return std::nullopt;
  }

  // Start whatever is not running. An engine that never started in this run stops the run (a
  // setup problem); one that ran before and cannot be restarted loses this game, and says why.
  const PlayerOptions player_options = player_options_for(config_, options_.log_dir);
  for (int idx : {sg.white, sg.black}) {
    auto& p = players[std::size_t(idx)];
    if (!p) p = make_player(engines[std::size_t(idx)], player_options);
    if (p->alive()) continue;
    const std::string& name = config_.engines[std::size_t(idx)].name;
    if (auto e = p->start()) {
      if (ever_started_[idx].load()) {
        game->forfeit(idx == sg.white ? chess::White : chess::Black, Termination::Disconnect,
                      "could not be restarted: " + *e);
        std::lock_guard lock(mutex_);
        auto it = std::find_if(engine_failures_.begin(), engine_failures_.end(),
                               [&](const EngineFailure& f) { return f.engine == name; });
        if (it == engine_failures_.end()) {
          engine_failures_.push_back({name, *e, 0});
          it = engine_failures_.end() - 1;
          observer_.on_warning("engine '" + name + "' could not be restarted: " + *e +
                               "; its games are lost by forfeit until it starts again");
        }
        ++it->games_lost;
        continue;
      }
      fail(Failure::Engine, "engine '" + name + "' could not be started: " + *e);
      return std::nullopt;
    }
    ever_started_[idx] = true;
    versions_->identified(idx, p->id_name(), p->id_author());
    for (const auto& w : p->take_warnings()) {
      std::lock_guard lock(mutex_);
      observer_.on_warning(name + ": " + w);
      log_.line("Warning: " + name + ": " + w);
    }
  }
  if (stop_.stopping() && !game->finished()) return std::nullopt;

  {
    std::lock_guard lock(mutex_);
    observer_.on_game_started(sg.id.index, setup.white, setup.black);
  }
  log_.line("Started game " + std::to_string(sg.id.index + 1) + " of " +
            std::to_string(schedule_->total()) + " (" + setup.white + " vs " + setup.black + ")");
  GameInfo info;
  info.event = config_.output.event.empty() ? config_.tournament.name : config_.output.event;
  if (!config_.output.site.empty()) info.site = config_.output.site;
  info.start_time = db::utc_now_iso();
  const auto t0 = SteadyClock::now();
  DriverStats game_stats;
  // Whoever watches (knightly serve) sees the game's position, recorded about once a second,
  // the first time a second into the game: a game over sooner is never written twice (its
  // position and then itself), which made short games take the write lock twice each and
  // workers in other processes wait for it. A position not recorded costs nothing: a store
  // that fails is reported when the game is stored.
  std::function<void(const Game&)> on_move;
  SteadyClock::time_point last_position = t0;
  if (claim)
    on_move = [&](const Game& g) {
      // Not while the run stops: a failing store would make each move wait for it.
      if (stop_.stopping()) return;
      const auto now = SteadyClock::now();
      if (now - last_position < std::chrono::seconds(1)) return;
      last_position = now;
      try {
        store_->work().set_live_position(*claim, sg.id.game_in_pair,
                                         static_cast<int>(g.moves().size()), g.position().fen());
      } catch (const db::StoreException&) {
      }
    };
  DriverOptions driver = options_.driver;
  driver.ready_timeout = std::chrono::milliseconds(config_.tournament.timeouts.ucinewgame_ms);
  play_game(*game, *players[std::size_t(sg.white)], *players[std::size_t(sg.black)], driver, &stop_,
            options_.perf_stats ? &game_stats : nullptr, on_move);
  for (const std::string& w : game->take_warnings()) {
    std::lock_guard lock(mutex_);
    observer_.on_message(w);  // fastchess's own words ("Warning; ..."), as they are
    log_.line(w);
  }
  // restart=on: a new process for every game.
  for (int idx : {sg.white, sg.black})
    if (config_.engines[std::size_t(idx)].restart && players[std::size_t(idx)])
      players[std::size_t(idx)]->quit();
  // The engines' reads are over until the next game: no deadline signal during the store, the
  // PGN and the progress lines.
  disarm_read_deadline();
  // -wait N: a pause between this thread's games.
  if (config_.tournament.wait_ms > 0 && !stop_.stopping())
    std::this_thread::sleep_for(std::chrono::milliseconds(config_.tournament.wait_ms));
  info.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - t0).count();
  if (game->result() == Result::None) return std::nullopt;  // abandoned: replayed later
  if (options_.perf_stats) {
    std::lock_guard lock(mutex_);
    summary_.plies_played += game_stats.moves;
    summary_.latency_ns.insert(summary_.latency_ns.end(), game_stats.latency_ns.begin(),
                               game_stats.latency_ns.end());
  }
  return game->record(info);
}

// ------------------------------------------------------------------------------ store, decide

void Run::stored(const GameRecord& record, int index) {
  const ScheduledGame& sg = schedule_->at(std::size_t(index));
  // The decision first: it reads the counts every worker's games make.
  std::optional<std::string> decision;
  if (tally_) {
    std::lock_guard lock(mutex_);
    tally_->add_own(sg.id.round, sg.id.pair,
                    db::PairGame{sg.id.game_in_pair, record.white, record.black, record.result});
    tally_->refresh(*store_);
    if (sprt_)
      decision = paired_ ? sprt_decision(*sprt_, tally_->tally().pairs(), tally_->games())
                         : sprt_decision(*sprt_, tally_->tally().games());
  }
  if (decision) finish(*decision);
  if (!stop_.stopping()) decide();

  std::lock_guard lock(mutex_);
  ++summary_.games_played;
  observer_.on_game_finished(record, tally_ ? &tally_->tally().games() : nullptr);
  if (tally_) observer_.on_tally(tally_->tally().games(), tally_->tally().pairs());
  log_.line("Finished game " + std::to_string(sg.id.index + 1) + " (" + record.white + " vs " +
            record.black + "): " + result_token(record.result) + " {" + record.reason + "}");
  for (GameFile* file : {pgn_ ? &*pgn_ : nullptr, epd_ ? &*epd_ : nullptr}) {
    if (!file) continue;
    auto r = file->add(*store_, tournament_id_, index, record,
                       [this](int i) { return held_.count(i) > 0; });
    if (!r) fail_locked(Failure::Output, r.error());
  }
  // Without recover (cutechess's default for `play`), a crashed or stalled engine ends the
  // run once the games in progress are stored.
  const bool engine_fault =
      record.termination == Termination::Disconnect || record.termination == Termination::Stall;
  if (engine_fault && !config_.tournament.recover)
    fail_locked(Failure::EngineFault,
                game_label(sg, config_) + ": " + record.reason +
                    "; engines are not restarted without -recover ([tournament] recover = true)");
}

void Run::decide() {
  const auto control = store_->work().control(tournament_id_);
  if (control.status == db::TournamentStatus::Finished) {
    finish(control.decision);  // another worker decided: only read it back
    return;
  }
  if (control.stop_requested) stopped(control.decision);
}

void Run::decide_exhausted() {
  db::GameFilter f;
  f.tournament_ids = {tournament_id_};
  stats::Trinomial games;
  const auto pairs = sprt_ ? current_pairs(&games) : stats::Pentanomial{};
  finish(paired_ ? complete_decision(store_->queries().count_games(f), sprt(), pairs)
                 : complete_decision(store_->queries().count_games(f), sprt(), games));
}

void Run::decide_stopped() {
  const auto control = store_->work().control(tournament_id_);
  switch (control.status) {
    case db::TournamentStatus::Finished:
      finish(control.decision);
      return;
    case db::TournamentStatus::Aborted:
      if (control.stop_requested) {
        stopped(control.decision);
        return;
      }
      // A worker that was interrupted thought nobody else was playing: we are.
      store_->catalog().set_tournament_status(tournament_id_, db::TournamentStatus::Running);
      return;
    case db::TournamentStatus::Restarted:
      fail(Failure::Setup, "tournament '" + config_.tournament.name +
                               "' was restarted by another run (--restart); this worker stops");
      return;
    case db::TournamentStatus::Running:
      break;
  }
  decide();
  if (!stop_.stopping()) {
    // Stopped with nothing to say why: do not spin on the store.
    wait_for_work();
  }
}

void Run::finish(const std::string& decision) {
  const bool first =
      store_->work().finish_tournament(tournament_id_, db::TournamentStatus::Finished, decision);
  std::string stored_decision = decision;
  if (!first) {
    auto control = store_->work().control(tournament_id_);
    if (!control.decision.empty()) stored_decision = control.decision;
  }
  {
    std::lock_guard lock(mutex_);
    if (decision_.empty()) decision_ = stored_decision;
  }
  stop_.request(options_.on_stop == OnStop::Abandon ? StopLevel::Abandon : StopLevel::Drain);
  work_cv_.notify_all();
}

void Run::stopped(const std::string& decision) {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    if (decision_.empty()) decision_ = decision;
  }
  stop_.request(options_.on_stop == OnStop::Abandon ? StopLevel::Abandon : StopLevel::Drain);
  work_cv_.notify_all();
}

stats::Pentanomial Run::current_pairs(stats::Trinomial* games) {
  std::lock_guard lock(mutex_);
  tally_->refresh(*store_);
  if (games) *games = tally_->tally().games();
  return tally_->tally().pairs();
}

// ------------------------------------------------------------------------------ errors

void Run::fail(Failure kind, const std::string& message) {
  std::lock_guard lock(mutex_);
  fail_locked(kind, message);
}

void Run::fail_locked(Failure kind, const std::string& message) {
  if (kind == Failure::Setup || kind == Failure::Engine) resumable_ = false;
  if (kind == Failure::Store) store_failed_ = true;
  log_.line("Error: " + message);
  if (!failed_) {
    failed_ = true;
    summary_.error = message;
    observer_.on_error(message);
  } else if (later_errors_ < 10) {
    ++later_errors_;
    observer_.on_error(message);
  } else {
    ++later_errors_;
  }
  stop_.request(options_.on_stop == OnStop::Abandon ? StopLevel::Abandon : StopLevel::Drain);
  work_cv_.notify_all();
}

// ------------------------------------------------------------------------------ report

void Run::mark_interrupted() {
  const auto control = store_->work().control(tournament_id_);
  if (control.status != db::TournamentStatus::Running) return;
  // Other workers still playing it keep it running; the last one to go marks it aborted.
  const std::time_t now = std::time(nullptr);
  const auto lease_s = std::max<std::int64_t>(
      1, std::chrono::duration_cast<std::chrono::seconds>(options_.lease).count());
  db::GameFilter f;
  f.tournament_ids = {tournament_id_};
  const auto me = this_worker();
  for (const auto& w : store_->work().workers(f)) {
    if (w.id == worker_id_) continue;
    const std::time_t seen = parse_iso_utc(w.last_seen);
    if (seen <= 0 || now - seen > lease_s + 1) continue;
    // A process on this machine that has exited is not playing, however recently it was seen.
    if (w.identity.host == me.host && ::kill(pid_t(w.identity.pid), 0) != 0 && errno == ESRCH)
      continue;
    {
      observer_.on_message("Other workers are still playing '" + config_.tournament.name +
                           "': it stays running.");
      return;
    }
  }
  store_->catalog().set_tournament_status(tournament_id_, db::TournamentStatus::Aborted);
}

void Run::report() {
  observer_.on_done();
  const int signal = stop_.signal();
  std::lock_guard lock(mutex_);  // the game threads are gone; fail_locked below needs it held
  summary_.engine_failures = engine_failures_;
  if (store_ && tournament_id_ != 0) {
    try {
      db::GameFilter filter;
      filter.tournament_ids = {tournament_id_};
      // Brought up to date from the database whatever happened (unless writing it failed).
      for (GameFile* file : {pgn_ ? &*pgn_ : nullptr, epd_ ? &*epd_ : nullptr})
        if (file)
          if (auto r = file->finish(*store_, tournament_id_); !r)
            fail_locked(Failure::Output, r.error());
      if (signal != 0 && !stopped_) mark_interrupted();
      const auto control = store_->work().control(tournament_id_);
      summary_.finished = control.status == db::TournamentStatus::Finished;
      summary_.stopped = !summary_.finished && stopped_;
      // What this worker saw decide (a later run may have resumed a stop and cleared it).
      summary_.decision =
          summary_.finished && !control.decision.empty() ? control.decision : decision_;
      // One standings for every worker under one decision: of the games it counted, not of
      // those others stored while finishing their last game.
      if (summary_.finished || summary_.stopped)
        if (auto n = decided_games(summary_.decision)) filter.first_stored = *n;
      summary_.games_stored = int(store_->queries().count_games(filter));
      if (filter.first_stored > 0) {
        db::GameFilter all = filter;
        all.first_stored = 0;
        summary_.games_after_decision =
            int(store_->queries().count_games(all)) - summary_.games_stored;
      }
      if (auto t = store_->catalog().tournament(tournament_id_)) summary_.tournament = *t;
      RunReport report;
      report.standings = store_->queries().standings(filter);
      report.terminations = store_->queries().termination_counts(filter, true);
      report.health = store_->queries().engine_health(filter);
      if (two_engines_) {
        TwoEngineTally tally(config_.engines[0].name);
        store_->queries().for_each_pair_result(filter, [&](const db::PairResult& p) {
          for (const auto& g : p.games) tally.add(p.round, p.pair, g);
        });
        report.first_vs_second = tally.games();
        report.pairs = tally.pairs();
        if (sprt_)
          summary_.sprt = paired_ ? stats::sprt_status(*sprt_, report.pairs)
                                  : stats::sprt_status(*sprt_, report.first_vs_second);
      }
      summary_.report = std::move(report);
      if (tune_) summary_.tune = store_->tunes().tune(tournament_id_);
    } catch (const db::StoreException& e) {
      fail_locked(Failure::Store, e.what());
    }
  }
  summary_.resumable = failed_ && resumable_;
  if (later_errors_ > 10)
    observer_.on_error("... and " + std::to_string(later_errors_ - 10) + " more errors");

  if (failed_) {
    summary_.exit_code = ExitError;
  } else if (summary_.stopped) {
    summary_.exit_code = ExitUndecided;  // `knightly stop`: the rest is for the next run
  } else if (summary_.finished) {
    if (auto code = exit_code_of(summary_.decision)) {
      summary_.exit_code = *code;
    } else if (summary_.sprt) {
      // Finished before decisions were stored: the counts say it.
      switch (summary_.sprt->decision) {
        case stats::SprtDecision::AcceptH1:
          summary_.exit_code = ExitOk;
          break;
        case stats::SprtDecision::AcceptH0:
          summary_.exit_code = ExitH0;
          break;
        default:
          summary_.exit_code = ExitUndecided;
      }
    } else {
      summary_.exit_code = ExitOk;
    }
  } else if (moved_on_ && signal == 0) {
    summary_.moved_on = true;  // to another test: this one goes on without us
    summary_.exit_code = ExitOk;
  } else {
    summary_.interrupted = true;
    summary_.exit_code = signal == SIGTERM ? ExitTerminated : ExitInterrupted;
  }
}

}  // namespace knightly::runner
