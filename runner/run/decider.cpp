#include "runner/run/decider.h"

#include "runner/run/decision.h"

namespace knightly::runner {

Decider::Decider(const Config& config, RunEvents& events, StopToken& stop)
    : config_(config),
      events_(events),
      stop_(stop),
      two_engines_(config.engines.size() == 2),
      paired_(schedule_has_pairs(config.tournament) && config.output.report_penta) {
  if (two_engines_ && config.sprt.enabled) sprt_ = stats_sprt_config(config.sprt);
}

void Decider::start(db::Store& store, std::int64_t id, bool created) {
  store_ = &store;
  id_ = id;
  if (two_engines_) {
    tally_.emplace(config_.engines[0].name, id);
    // Games other workers store from now on are read when this one stores its first.
    if (!created) tally_->recount(store);
  }
}

void Decider::will_store(const ScheduledGame& sg) {
  if (!tally_) return;
  std::lock_guard lock(events_.mutex());
  tally_->will_add_own(sg.id.round, sg.id.pair, sg.id.game_in_pair);
}

void Decider::not_stored(const ScheduledGame& sg) {
  if (!tally_) return;
  std::lock_guard lock(events_.mutex());
  tally_->drop_own(sg.id.round, sg.id.pair, sg.id.game_in_pair);
}

void Decider::stored(std::span<const StoredGame> games,
                     const std::function<void(std::size_t)>& report) {
  if (games.empty()) return;
  // Other workers' games and the control row are read when the store is free, or once the
  // last read is kDecideEvery old (an SPRT reads the games every time: its decision counts
  // them): not after another thread's whole batch, with the run's lock held meanwhile.
  const bool due = std::chrono::steady_clock::now() - read_at_.load() >= kDecideEvery;
  bool read = false;
  std::optional<std::string> decision;
  {
    std::lock_guard lock(events_.mutex());
    for (std::size_t i = 0; i < games.size(); ++i) {
      if (tally_) {
        const ScheduledGame& sg = *games[i].sg;
        tally_->add_own(sg.id.round, sg.id.pair,
                        db::PairGame{sg.id.game_in_pair, games[i].record->white,
                                     games[i].record->black, games[i].record->result});
        if (i == 0) {
          // Not waited for while the run's lock is held, unless due: the store is taken after
          // the run's lock, never before it.
          if (const auto free = store_->try_hold(); free || due || sprt_) {
            tally_->refresh(*store_);
            read = true;
          }
        }
      }
      report(i);
    }
    if (tally_ && sprt_)
      decision = paired_ ? sprt_decision(*sprt_, tally_->tally().pairs(), tally_->games())
                         : sprt_decision(*sprt_, tally_->tally().games());
  }
  if (decision) finish(*decision);
  if (stop_.stopping()) return;
  if (!read && !due && store_->busy()) return;
  decide();
}

void Decider::decide() {
  read_at_ = std::chrono::steady_clock::now();
  const auto control = store_->work().control(id_);
  if (control.status == db::TournamentStatus::Finished) {
    finish(control.decision);  // another worker decided: only read it back
    return;
  }
  if (control.stop_requested) stop_requested(control.decision);
}

void Decider::exhausted() {
  db::GameFilter f;
  f.tournament_ids = {id_};
  stats::Trinomial games;
  const auto pairs = sprt_ ? current_pairs(&games) : stats::Pentanomial{};
  finish(paired_ ? complete_decision(store_->queries().count_games(f), sprt(), pairs)
                 : complete_decision(store_->queries().count_games(f), sprt(), games));
}

bool Decider::not_running() {
  const auto control = store_->work().control(id_);
  switch (control.status) {
    case db::TournamentStatus::Finished:
      finish(control.decision);
      return false;
    case db::TournamentStatus::Aborted:
      if (control.stop_requested) {
        stop_requested(control.decision);
        return false;
      }
      // A worker that was interrupted thought nobody else was playing: we are.
      store_->catalog().set_tournament_status(id_, db::TournamentStatus::Running);
      return false;
    case db::TournamentStatus::Restarted:
      events_.fail(Failure::Setup,
                   "tournament '" + config_.tournament.name +
                       "' was restarted by another run (--restart); this worker stops");
      return false;
    case db::TournamentStatus::Running:
      break;
  }
  decide();
  // Stopped with nothing to say why: do not spin on the store.
  return !stop_.stopping();
}

void Decider::finish(const std::string& decision) {
  const bool first =
      store_->work().finish_tournament(id_, db::TournamentStatus::Finished, decision);
  std::string stored_decision = decision;
  if (!first) {
    auto control = store_->work().control(id_);
    if (!control.decision.empty()) stored_decision = control.decision;
  }
  {
    std::lock_guard lock(events_.mutex());
    if (decision_.empty()) decision_ = stored_decision;
  }
  events_.stop();
}

void Decider::stop_requested(const std::string& decision) {
  {
    std::lock_guard lock(events_.mutex());
    stopped_ = true;
    if (decision_.empty()) decision_ = decision;
  }
  events_.stop();
}

stats::Pentanomial Decider::current_pairs(stats::Trinomial* games) {
  std::lock_guard lock(events_.mutex());
  tally_->refresh(*store_);
  if (games) *games = tally_->tally().games();
  return tally_->tally().pairs();
}

}  // namespace knightly::runner
