#include "runner/query/page_data.h"

#include <map>
#include <set>
#include <sstream>

#include "runner/config/config_toml.h"
#include "runner/output/tune_view.h"
#include "runner/query/query.h"
#include "runner/report/datasets.h"
#include "runner/report/game_view.h"
#include "runner/report/json.h"
#include "runner/report/match_series.h"
#include "runner/run/decision.h"
#include "runner/run/two_engine_tally.h"
#include "runner/tournament/schedule.h"

namespace knightly::runner {

namespace {

using report::JsonWriter;

// The query options that select the same games as `filter` (report and serve select by
// tournament only).
std::vector<std::string> filter_args(const db::GameFilter& filter) {
  std::vector<std::string> args;
  for (const auto& t : filter.tournaments) {
    args.push_back("--tournament");
    args.push_back(t);
  }
  return args;
}

// The tournaments the filter selects, with their game counts.
std::vector<db::TournamentSummary> selected_tournaments(const db::Store& store,
                                                        const db::GameFilter& filter) {
  std::vector<db::TournamentSummary> out;
  const std::set<std::string> names(filter.tournaments.begin(), filter.tournaments.end());
  for (auto& s : store.catalog().tournaments()) {
    const bool live = s.tournament.status != db::TournamentStatus::Restarted;
    if (names.empty() ? s.games > 0 || live : live && names.count(s.tournament.name))
      out.push_back(std::move(s));
  }
  return out;
}

// The first engine's results against the second over the filtered games, in stored order,
// sampled to about 300 points; nullopt unless exactly two engines played.
std::optional<std::string> match_section(const db::Store& store, const db::GameFilter& filter,
                                         std::int64_t games_total) {
  const auto standings = store.queries().standings(filter);
  if (standings.size() != 2) return std::nullopt;
  // The figures take the side of the config's first engine, or else (as `knightly query sprt`)
  // of White in the first game of the schedule.
  db::GameFilter first_game = filter;
  first_game.limit = 1;
  const auto firsts = store.queries().games(first_game);
  std::string first = firsts.empty() ? standings[0].engine : firsts[0].white;
  std::optional<stats::SprtConfig> sprt;
  std::optional<report::DecidedPoint> decided;
  const auto tournaments = selected_tournaments(store, filter);
  std::vector<const db::TournamentSummary*> played;
  for (const auto& t : tournaments)
    if (t.games > 0) played.push_back(&t);
  if (played.size() == 1) {
    const StoredMatch stored = stored_match(store, played[0]->tournament);
    sprt = stored.sprt;
    if (sprt)
      if (auto d = decided_sprt(*sprt, store.work().control(played[0]->tournament.id).decision))
        decided = report::DecidedPoint{d->games, d->status};
    if (stored.first == standings[0].engine || stored.first == standings[1].engine)
      first = stored.first;
  }
  const std::string second =
      standings[0].engine == first ? standings[1].engine : standings[0].engine;

  // Pairs are told apart by tournament as well as (round, pair).
  std::map<std::int64_t, TwoEngineTally> tallies;
  std::vector<report::MatchPoint> points;
  const std::int64_t stride = report::sample_stride(games_total);
  std::int64_t seen = 0;
  auto snapshot = [&] {
    report::MatchPoint p;
    p.games = seen;
    for (const auto& [id, t] : tallies) {
      p.wdl.wins += t.games().wins;
      p.wdl.draws += t.games().draws;
      p.wdl.losses += t.games().losses;
      p.ptnml.ll += t.pairs().ll;
      p.ptnml.ld += t.pairs().ld;
      p.ptnml.wl += t.pairs().wl;
      p.ptnml.dd += t.pairs().dd;
      p.ptnml.wd += t.pairs().wd;
      p.ptnml.ww += t.pairs().ww;
    }
    points.push_back(p);
  };
  store.queries().for_each_result(filter, [&](const db::StoredResult& r) {
    auto it = tallies.try_emplace(r.tournament_id, first).first;
    it->second.add(r.round, r.pair, {r.game_in_pair, r.white, r.black, r.result});
    if (++seen % stride == 0) snapshot();
  });
  if (seen % stride != 0) snapshot();
  return report::match_json(first, second, points, sprt, decided);
}

// The tune of the one tournament the filter names (or of the database's only tune), as
// `knightly query tune --format json` gives it; none when there is no such tune.
std::optional<std::string> tune_section(const db::Store& store, const db::GameFilter& filter) {
  std::optional<db::Tournament> t;
  if (filter.tournaments.size() == 1) {
    t = store.catalog().find_tournament(filter.tournaments[0]);
  } else if (filter.tournaments.empty()) {
    std::vector<db::Tournament> tunes;
    for (const std::int64_t id : store.tunes().tune_ids())
      if (auto x = store.catalog().tournament(id);
          x && x->status != db::TournamentStatus::Restarted)
        tunes.push_back(*x);
    if (tunes.size() == 1) t = tunes[0];
  }
  if (!t) return std::nullopt;
  const auto tune = store.tunes().tune(t->id);
  if (!tune) return std::nullopt;
  std::string json = tune_json(*t, *tune);
  while (!json.empty() && json.back() == '\n') json.pop_back();
  return json;
}

}  // namespace

std::expected<std::string, std::string> query_json(const db::Store& store, const std::string& what,
                                                   std::vector<std::string> flags) {
  flags.push_back("--format");
  flags.push_back("json");
  Args args(std::move(flags));
  std::ostringstream out, err;
  if (run_query(store, what, args, out, err) == 0) return out.str();
  std::string message = err.str();
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return std::unexpected(message);
}

std::string query_json(const db::Store& store, const std::string& what,
                       const db::GameFilter& filter) {
  auto json = query_json(store, what, filter_args(filter));
  return json ? *json : "{\"error\":" + report::json_string(json.error()) + "}";
}

std::string games_page_json(const db::Store& store, const db::GameFilter& filter,
                            std::int64_t before_id, int limit) {
  const auto rows = store.queries().game_page(filter, before_id, limit + 1);
  const bool more = static_cast<int>(rows.size()) > limit;
  const std::span<const db::GameSummary> shown(rows.data(), more ? rows.size() - 1 : rows.size());
  return report::game_list_json(shown, store.queries().count_games(filter), more);
}

std::optional<std::string> game_detail_json(const db::Store& store, std::int64_t id) {
  auto game = store.queries().game(id);
  if (!game) return std::nullopt;
  auto t = store.catalog().tournament(game->tournament_id);
  return report::game_json(id, t ? t->name : std::string(), game->record);
}

std::string report_document(const db::Store& store, const ReportOptions& options,
                            const std::string& now) {
  const db::GameFilter& filter = options.filter;
  // Read first: the data below is at least this new, so a reader comparing generations never
  // misses a change.
  const std::string generation = store.queries().data_generation();
  const std::int64_t total = store.queries().count_games(filter);
  JsonWriter w;
  w.begin_object();
  w.key("version").value(1);
  w.key("generation").value(generation);
  w.key("title").value(options.title);
  w.key("generated_at").value(now);
  w.key("filter").begin_object().key("tournaments").begin_array();
  for (const auto& t : filter.tournaments) w.value(t);
  w.end_array().end_object();
  w.key("games_total").value(total);
  for (const char* what : {"standings", "ratings", "h2h", "terminations", "health", "workers"})
    w.key(what).raw(query_json(store, what, filter));
  w.key("tune");
  if (auto t = tune_section(store, filter))
    w.raw(*t);
  else
    w.null();
  w.key("match");
  if (auto m = match_section(store, filter, total))
    w.raw(*m);
  else
    w.null();
  const std::int64_t covered =
      options.move_stats_games > 0 ? std::min(options.move_stats_games, total) : total;
  w.key("moves").raw(report::move_stats_json(
      store.queries().move_stats(filter,
                                 options.move_stats_games > 0 ? options.move_stats_games : 0),
      covered, total));
  const auto rows = store.queries().game_page(filter, 0, options.games);
  const bool more = static_cast<std::int64_t>(rows.size()) < total;
  w.key("games").raw(report::game_list_json(rows, total, more));
  w.key("details").begin_object();
  if (options.details) {
    for (const auto& row : rows) {
      auto game = store.queries().game(row.id);
      if (!game) continue;
      w.key(std::to_string(row.id)).raw(report::game_json(row.id, row.tournament, game->record));
    }
  }
  w.end_object();
  w.end_object();
  return w.take();
}

std::optional<std::int64_t> scheduled_games(const db::Tournament& t) {
  if (auto cfg = parse_config_toml(t.config_text); cfg) {
    const auto encounters =
        Schedule::encounters(cfg->tournament, static_cast<int>(cfg->engines.size()));
    return static_cast<std::int64_t>(cfg->tournament.rounds) *
           static_cast<std::int64_t>(encounters.size()) * cfg->tournament.games_per_encounter;
  }
  // `knightly sprt` stores its command line: at most --max-games games.
  const std::string flag = " --max-games ";
  const auto p = t.config_text.find(flag);
  if (p == std::string::npos) return std::nullopt;
  try {
    return std::stoll(t.config_text.substr(p + flag.size()));
  } catch (...) {
    return std::nullopt;
  }
}

std::string summary_document(const db::Store& store, const db::GameFilter& filter,
                             const std::string& now) {
  report::Summary s;
  s.generation = store.queries().data_generation();
  s.now = now;
  s.games = store.queries().count_games(filter);
  std::map<std::int64_t, const db::Tournament*> selected;
  const auto tournaments = selected_tournaments(store, filter);
  for (const auto& ts : tournaments) {
    const db::Tournament& t = ts.tournament;
    selected[t.id] = &t;
    report::TournamentProgress p;
    p.id = t.id;
    p.name = t.name;
    p.kind = db::kind_text(t.kind);
    p.status = db::status_text(t.status);
    p.started_at = t.started_at;
    p.finished_at = t.finished_at;
    p.games = ts.games;
    p.total = scheduled_games(t);
    if (t.status == db::TournamentStatus::Running && ts.games >= 2) {
      db::GameFilter recent;
      recent.tournament_ids = {t.id};
      recent.limit = 50;
      recent.newest_first = true;
      p.rate = report::finish_rate(store.queries().games(recent));
    }
    s.tournaments.push_back(std::move(p));
  }

  // The games being played: the pairs workers hold under a live lease. Who plays which
  // colour comes from the schedule of the stored config (built once per tournament here).
  std::map<std::int64_t, std::optional<std::pair<Config, Schedule>>> schedules;
  for (const auto& l : store.queries().leased_pairs()) {
    auto t = selected.find(l.tournament_id);
    if (t == selected.end()) continue;
    report::ActiveGame a;
    a.tournament = t->second->name;
    a.round = l.round + 1;
    a.pair = l.pair + 1;
    int game = 0;
    while (game + 1 < l.games && (l.stored_mask & (1 << game))) ++game;
    a.game = game + 1;
    a.worker = l.host + ":" + std::to_string(l.pid);
    a.heartbeat_ago_ms = l.seen_ago_ms;
    if (l.live_game == game) {  // a position of an earlier game of the pair is not this one's
      a.fen = l.live_fen;
      a.ply = l.live_ply;
    }
    auto it = schedules.find(l.tournament_id);
    if (it == schedules.end()) {
      std::optional<std::pair<Config, Schedule>> sched;
      if (auto cfg = parse_config_toml(t->second->config_text); cfg) {
        Schedule schedule(*cfg, t->second->seed, 0);
        sched.emplace(std::move(*cfg), std::move(schedule));
      }
      it = schedules.emplace(l.tournament_id, std::move(sched)).first;
    }
    if (it->second) {
      const auto& [cfg, schedule] = *it->second;
      const std::size_t index = static_cast<std::size_t>(l.schedule_index + game);
      if (index < schedule.total()) {
        const ScheduledGame& g = schedule.at(index);
        a.white = cfg.engines.at(static_cast<std::size_t>(g.white)).name;
        a.black = cfg.engines.at(static_cast<std::size_t>(g.black)).name;
      }
    }
    s.active.push_back(std::move(a));
  }
  if (s.active.empty()) s.active_note = "No pair is claimed by a worker now.";
  return report::summary_json(s);
}

}  // namespace knightly::runner
