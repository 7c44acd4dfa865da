#include "runner/run/tournament_opener.h"

#include <set>
#include <sstream>

#include "db/store/database_url.h"
#include "engine/chess/splitmix64.h"
#include "runner/run/worker_identity.h"

namespace knightly::runner {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
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

std::expected<OpenedTournament, std::string> TournamentOpener::open() {
  // The store keeps the config with any database URL's password taken out: compare like that.
  const std::string& text = config_.source_text;
  const std::string stored_text = db::redact_urls_in_text(text);
  // A seed drawn only when the config names none (value_or would draw one every time).
  const std::uint64_t seed =
      config_.tournament.seed ? *config_.tournament.seed : chess::random_seed();
  db::NewTournament fresh{config_.tournament.name, options_.kind, text, seed, ""};
  OpenedTournament opened;
  auto t = create(fresh, stored_text, opened.created);
  if (!t) return std::unexpected(t.error());
  opened.tournament = std::move(*t);
  if (opened.created && config_.sprt.enabled) {
    const auto& s = config_.sprt;
    store_.work().set_sprt_settings(
        opened.tournament.id,
        db::SprtSettings{s.elo0, s.elo1, s.alpha, s.beta, stats::model_name(s.model)});
  }
  // A tournament this run has just created has no game, pair or stop yet: nothing to read.
  if (!opened.created) {
    db::GameFilter filter;
    filter.tournament_ids = {opened.tournament.id};
    opened.stored = store_.queries().count_games(filter);
    opened.control = store_.work().control(opened.tournament.id);
  }
  return opened;
}

// The tournament row: new, joined (another worker plays it too), resumed, or restarted.
std::expected<db::Tournament, std::string> TournamentOpener::create(const db::NewTournament& fresh,
                                                                    const std::string& stored_text,
                                                                    bool& created) {
  auto existing = store_.catalog().find_tournament(config_.tournament.name);
  if (existing && existing->config_text != stored_text && !options_.restart)
    return std::unexpected(changed(*existing, stored_text));
  if (existing && options_.restart) {
    auto t = store_.catalog().restart_tournament(existing->id, fresh);
    created = true;
    events_.message("Restarting tournament '" + t.name + "' (the previous one is kept as id " +
                    std::to_string(existing->id) + ")");
    return t;
  }
  if (existing) return *existing;
  try {
    auto t = store_.catalog().create_tournament(fresh);
    created = true;
    return t;
  } catch (const db::StoreException& e) {
    // Another worker created it a moment ago: join that one.
    if (e.kind() != db::ErrorKind::Conflict) throw;
    auto other = store_.catalog().find_tournament(config_.tournament.name);
    if (!other) throw;
    if (other->config_text != stored_text) return std::unexpected(changed(*other, stored_text));
    return *other;
  }
}

std::string TournamentOpener::changed(const db::Tournament& old,
                                      const std::string& stored_text) const {
  return "tournament '" + config_.tournament.name + "' in " + store_.path() +
         " was started with a different configuration:\n" +
         describe_config_change(old.config_text, stored_text) +
         "Use --restart to start it over (the old one is kept under id " + std::to_string(old.id) +
         "), or give it another name.";
}

bool TournamentOpener::finished(const OpenedTournament& t) {
  if (t.control.status != db::TournamentStatus::Finished) return false;
  const std::string& decision = t.control.decision;
  events_.message("Tournament '" + t.tournament.name + "' is already finished (" +
                  std::to_string(t.stored) + " games" + (decision.empty() ? "" : ": " + decision) +
                  "); nothing to play.");
  return true;
}

std::optional<std::int64_t> TournamentOpener::join(const OpenedTournament& t,
                                                   const Schedule& schedule,
                                                   const StopToken& stop) {
  const db::WorkerIdentity me = this_worker();
  const std::int64_t worker_id = store_.work().register_worker(me);
  const std::int64_t id = t.tournament.id;
  // A large schedule takes a while to write: a signal stops it between batches. Games stored
  // without their pairs are only in a tournament that had games when it was opened.
  if (!store_.work().add_pairs(
          id, pair_slots(schedule), [&stop] { return stop.stopping(); }, t.stored > 0))
    return std::nullopt;
  // A run killed on this machine left leases that would hold its pairs until they ran out:
  // free them now, so that a resumed run plays the games in the order a single run would. A
  // tournament just created has only the leases of workers that joined it since, all alive.
  if (!t.created)
    for (const auto& [holder_id, holder] : store_.work().lease_holders(id))
      if (holder_id != worker_id && worker_is_gone(holder, me))
        store_.work().expire_leases(holder_id);
  return worker_id;
}

void TournamentOpener::resume(const OpenedTournament& t) {
  const auto& control = t.control;
  if (control.status != db::TournamentStatus::Aborted && !control.stop_requested) return;
  store_.catalog().set_tournament_status(t.tournament.id, db::TournamentStatus::Running);
  if (control.stop_requested)
    events_.message("Tournament '" + t.tournament.name + "' was stopped (" + control.decision +
                    "): playing the rest");
}

}  // namespace knightly::runner
