#include "runner/run/run.h"

#include <signal.h>

#include <cerrno>
#include <csignal>
#include <ctime>
#include <filesystem>

#include "runner/config/engine_check.h"
#include "runner/run/claim_loop.h"
#include "runner/run/decision.h"
#include "runner/run/run_sources.h"
#include "runner/run/two_engine_tally.h"
#include "runner/run/worker_identity.h"
#include "runner/tablebase/fathom_prober.h"

namespace knightly::runner {
namespace {

using SteadyClock = std::chrono::steady_clock;

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

}  // namespace

Run::Run(Config config, RunOptions options, RunObserver& observer)
    : config_(std::move(config)),
      options_(std::move(options)),
      events_(observer, stop_, options_.on_stop),
      outputs_(config_),
      decider_(config_, events_, stop_) {
  if (config_.tune.enabled) tune_ = std::make_unique<TunePlan>(config_);
  store_options_.sync_every_commit = config_.output.sync == SyncMode::Full;
}

Run::~Run() = default;

RunSummary Run::execute() {
  const auto t0 = SteadyClock::now();
  try {
    if (prepare()) play();
  } catch (const db::StoreException& e) {
    events_.fail(Failure::Store, e.what());
  } catch (const std::exception& e) {
    events_.fail(Failure::Setup, std::string("internal error: ") + e.what());
  }
  versions_.reset();  // joins the hashing thread
  report();
  summary_.wall_seconds = std::chrono::duration<double>(SteadyClock::now() - t0).count();
  return summary_;
}

// ------------------------------------------------------------------------------ prepare

bool Run::prepare() {
  if (!check_inputs() || !open_store()) return false;
  if (auto claimed = outputs_.claim(*store_); !claimed) {
    events_.fail(Failure::Setup, claimed.error());
    return false;
  }
  OpenedTournament opened;
  if (!open_tournament(opened)) return false;
  if (has_sources(config_) && !prepare_sources(tournament_id_)) return false;
  const auto stored = std::size_t(opened.stored);
  if (stored > 0 && stored < schedule_->total())
    events_.message("Resuming tournament '" + opened.tournament.name +
                    "': " + std::to_string(stored) + " of " + std::to_string(schedule_->total()) +
                    " games already played");
  RunObserver& observer = events_.observer();
  observer.on_schedule(schedule_->total(), stored);
  if (stored > 0) {
    db::GameFilter filter;
    filter.tournament_ids = {tournament_id_};
    observer.on_stored(store_->queries().standings(filter));
  }
  decider_.start(*store_, tournament_id_, opened.created);
  versions_ = std::make_unique<EngineVersions>(config_, *store_, config_.output.database,
                                               store_options_, options_.source_cache);
  return open_outputs(opened.created);
}

bool Run::check_inputs() {
  // Everything that can be checked before the first game is checked now, the size first:
  // nothing is allocated for, or written of, a schedule too large to play.
  if (auto too_big = check_schedule_limits(config_))
    return events_.fail(Failure::Setup, too_big->to_string()), false;
  if (auto missing = find_missing_engines(config_); !missing.empty()) {
    for (std::size_t i = 1; i < missing.size(); ++i)
      events_.observer().on_error(missing[i].to_string());
    return events_.fail(Failure::Setup, missing[0].to_string()), false;
  }
  if (!options_.log_dir.empty()) {
    // Engine logs go into DIR/NAME.log: the directory is made here, as --pgn's file is.
    std::error_code ec;
    std::filesystem::create_directories(options_.log_dir, ec);
    if (ec || !std::filesystem::is_directory(options_.log_dir))
      return events_.fail(Failure::Setup, "--log-dir " + options_.log_dir + ": " +
                                              (ec ? ec.message() : std::string("not a directory"))),
             false;
  }
  if (!config_.openings.file.empty()) {
    // Only finds where each opening starts; a line is parsed when a game uses it.
    auto b = load_opening_book(config_.openings);
    if (!b) return events_.fail(Failure::Setup, b.error().to_string()), false;
    book_ = std::move(*b);
  }
  const std::string& match_line = config_.output.pgn_options.match_line;
  if (!match_line.empty()) {
    try {
      match_line_.emplace(match_line);
    } catch (const std::regex_error& e) {
      return events_.fail(Failure::Setup, "-pgnout match_line=" + match_line +
                                              ": not a regular expression (" + e.what() + ")"),
             false;
    }
  }
  if (config_.tournament.adjudication.tablebase.enabled) {
    auto tables = FathomProber::open(config_.tournament.adjudication.tablebase.path);
    if (!tables) return events_.fail(Failure::Setup, tables.error()), false;
    tablebase_ = std::move(*tables);
  }
  return true;
}

bool Run::open_store() {
  auto opened = db::Store::open(config_.output.database, store_options_);
  if (!opened) {
    // What may be gone by the next run: a lock, a server that is down, a full disk, I/O.
    const auto kind = opened.error().kind;
    const bool transient = kind == db::ErrorKind::Locked || kind == db::ErrorKind::Unavailable ||
                           kind == db::ErrorKind::DiskFull || kind == db::ErrorKind::Io;
    events_.fail(transient ? Failure::Store : Failure::Setup, opened.error().message);
    return false;
  }
  store_.emplace(std::move(*opened));
  summary_.database = store_->path();  // a URL without its password
  return true;
}

bool Run::open_tournament(OpenedTournament& opened) {
  TournamentOpener opener(*store_, config_, options_, events_);
  auto found = opener.open();
  if (!found) return events_.fail(Failure::Setup, found.error()), false;
  opened = std::move(*found);
  const db::Tournament& t = opened.tournament;
  tournament_id_ = t.id;
  summary_.tournament = t;
  schedule_.emplace(config_, t.seed, book_ ? book_->size() : 0);
  summary_.games_scheduled = int(schedule_->total());
  if (opener.finished(opened)) {
    decider_.already(opened.control.decision);
    return false;  // before registering: a run that plays nothing is no worker
  }
  auto worker = opener.join(opened, *schedule_, stop_);
  if (!worker) return false;
  worker_id_ = *worker;
  if (tune_) {
    try {
      tune_->prepare(*store_, t.id, t.seed);
    } catch (const std::runtime_error& e) {
      return events_.fail(Failure::Setup, e.what()), false;
    }
  }
  opener.resume(opened);
  return true;
}

bool Run::prepare_sources(std::int64_t id) {
  SourceCache cache(SourceCache::root_or_default(options_.source_cache),
                    [this] { return stop_.stopping(); });
  auto prepared = runner::prepare_sources(
      config_, *store_, id, cache, [this](const std::string& line) { events_.message(line); },
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
    events_.fail(Failure::Setup, why);
    return false;
  }
  if (prepared->nps)
    store_->test_queue().set_worker_speed(worker_id_, id, *prepared->nps, prepared->tc_factor);
  return true;
}

bool Run::open_outputs(bool created) {
  if (!config_.output.log_file.empty()) {
    if (auto e = events_.log().open(config_.output.log_file, config_.output.log_append))
      return events_.fail(Failure::Output, *e), false;
  }
  if (auto r = outputs_.open(*store_, tournament_id_, created); !r)
    return events_.fail(Failure::Output, r.error()), false;
  return true;
}

// ------------------------------------------------------------------------------ play

void Run::play() {
  GameInputs in{config_,
                options_,
                *schedule_,
                book_ ? &*book_ : nullptr,
                match_line_ ? &*match_line_ : nullptr,
                tablebase_.get()};
  GameSinks out{*store_,  tournament_id_, worker_id_, *versions_, outputs_,
                decider_, events_,        stop_,      tune_.get()};
  ClaimLoop loop(in, out);
  loop.run();
  const PlayedHere& played = loop.played();
  summary_.games_played = played.games;
  summary_.games_superseded = played.superseded;
  summary_.plies_played = played.plies;
  summary_.latency_ns = played.latency_ns;
  summary_.store_transactions = played.store_transactions;
  summary_.pairs_claimed = played.pairs_claimed;
  summary_.claim_transactions = played.claim_transactions;
  summary_.engine_failures = loop.engine_failures();
  moved_on_ = played.moved_on;
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
    events_.observer().on_message("Other workers are still playing '" + config_.tournament.name +
                                  "': it stays running.");
    return;
  }
  store_->catalog().set_tournament_status(tournament_id_, db::TournamentStatus::Aborted);
}

void Run::report() {
  events_.observer().on_done();
  const int signal = stop_.signal();
  std::lock_guard lock(events_.mutex());  // the game threads are gone; fail_locked needs it held
  if (store_ && tournament_id_ != 0) {
    try {
      // Brought up to date from the database whatever happened (unless writing it failed).
      for (const std::string& e : outputs_.finish(*store_, tournament_id_))
        events_.fail_locked(Failure::Output, e);
      read_figures(signal);
    } catch (const db::StoreException& e) {
      events_.fail_locked(Failure::Store, e.what());
    }
  }
  summary_.error = events_.first_error();
  summary_.resumable = events_.resumable();
  events_.report_dropped();
  set_exit_code(signal);
}

void Run::read_figures(int signal) {
  if (signal != 0 && !decider_.stopped()) mark_interrupted();
  const auto control = store_->work().control(tournament_id_);
  summary_.finished = control.status == db::TournamentStatus::Finished;
  summary_.stopped = !summary_.finished && decider_.stopped();
  // What this worker saw decide (a later run may have resumed a stop and cleared it).
  summary_.decision =
      summary_.finished && !control.decision.empty() ? control.decision : decider_.decision();
  // One standings for every worker under one decision: of the games it counted, not of
  // those others stored while finishing their last game.
  db::GameFilter filter;
  filter.tournament_ids = {tournament_id_};
  if (summary_.finished || summary_.stopped)
    if (auto n = decided_games(summary_.decision)) filter.first_stored = *n;
  summary_.games_stored = int(store_->queries().count_games(filter));
  if (filter.first_stored > 0) {
    db::GameFilter all = filter;
    all.first_stored = 0;
    summary_.games_after_decision = int(store_->queries().count_games(all)) - summary_.games_stored;
  }
  if (auto t = store_->catalog().tournament(tournament_id_)) summary_.tournament = *t;
  RunReport report;
  report.standings = store_->queries().standings(filter);
  report.terminations = store_->queries().termination_counts(filter, true);
  report.health = store_->queries().engine_health(filter);
  if (decider_.two_engines()) {
    TwoEngineTally tally(config_.engines[0].name);
    store_->queries().for_each_pair_result(filter, [&](const db::PairResult& p) {
      for (const auto& g : p.games) tally.add(p.round, p.pair, g);
    });
    report.first_vs_second = tally.games();
    report.pairs = tally.pairs();
    if (const stats::SprtConfig* sprt = decider_.sprt())
      summary_.sprt = decider_.paired() ? stats::sprt_status(*sprt, report.pairs)
                                        : stats::sprt_status(*sprt, report.first_vs_second);
  }
  summary_.report = std::move(report);
  if (tune_) summary_.tune = store_->tunes().tune(tournament_id_);
}

void Run::set_exit_code(int signal) {
  if (events_.failed()) {
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
