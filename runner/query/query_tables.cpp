// The tables of `knightly query` read straight from the store: tournaments, standings,
// games, h2h, engines, ratings, terminations, health.
#include "runner/query/query_tables.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "runner/query/engine_identity.h"
#include "runner/run/run_options.h"
#include "runner/run/two_engine_tally.h"
#include "runner/stats/counts.h"
#include "runner/stats/elo.h"
#include "runner/stats/ratings.h"

namespace knightly::runner {

Cell text_or_null(const std::string& s) {
  return s.empty() ? null_cell() : cell(s);
}

int print(const Table& t, const QueryOptions& q, const char* name) {
  *q.out << t.render(q.format, name);
  return ExitOk;
}

int query_tournaments(const db::Store& store, const QueryOptions& q) {
  Table t({"id", "name", "kind", "status", "games", "seed", "started", "finished"});
  for (const auto& s : store.catalog().tournaments()) {
    const auto& x = s.tournament;
    t.add_row({cell((long long)x.id), cell(x.name), cell(db::kind_text(x.kind)),
               cell(db::status_text(x.status)), cell((long long)s.games),
               cell(std::to_string(x.seed)), cell(x.started_at), text_or_null(x.finished_at)});
  }
  return print(t, q, "tournaments");
}

int query_standings(const db::Store& store, const QueryOptions& q) {
  Table t({"rank", "engine", "games", "points", "wins", "draws", "losses", "score", "elo", "elo95",
           "note"});
  long long rank = 0;
  for (const auto& s : db::standings_from(player_pair_counts(store, q.filter, q.merge_by_name))) {
    const EloCells elo = elo_cells(stats::get_elo(stats::Trinomial{s.losses, s.draws, s.wins}), 1);
    t.add_row({cell(++rank), cell(s.engine), cell((long long)s.games), cell(s.points(), 1),
               cell((long long)s.wins), cell((long long)s.draws), cell((long long)s.losses),
               cell(100.0 * s.score(), 1), elo.elo, elo.error, text_or_null(elo.note)});
  }
  return print(t, q, "standings");
}

int query_games(const db::Store& store, QueryOptions q) {
  q.filter.newest_first = true;
  const bool default_limit = q.filter.limit == 0 && q.format == OutputFormat::Table;
  if (default_limit) q.filter.limit = 50;
  Table t({"id", "tournament", "round", "pair", "game", "white", "black", "result", "termination",
           "reason", "plies", "started", "duration_ms", "opening"});
  for (const auto& g : store.queries().games(q.filter))
    t.add_row({cell((long long)g.id), cell(g.tournament), cell((long long)g.game_id.round + 1),
               cell((long long)g.game_id.pair + 1), cell((long long)g.game_id.game_in_pair + 1),
               cell(g.white), cell(g.black), cell(result_token(g.result)),
               cell(termination_name(g.termination)), cell(g.reason), cell((long long)g.plies),
               cell(g.started_at), cell((long long)g.duration_ms), text_or_null(g.opening_source)});
  const int code = print(t, q, "games");
  // A cut list says so: on stderr, so that csv and json stay one document.
  if (q.filter.limit > 0 && static_cast<std::int64_t>(t.size()) == q.filter.limit) {
    const std::int64_t all = store.queries().count_games(q.filter);
    if (all > q.filter.limit)
      *q.err << "knightly: query games: " << t.size() << " of " << all
             << " games shown, newest first; " << all - q.filter.limit << " left out ("
             << (default_limit ? "a table shows 50: " : "") << "--limit " << all
             << " shows them all, --format csv or json shows all without --limit)\n";
  }
  return code;
}

namespace {

// The game pairs (same opening, colours reversed) between each two engines, by name, from the
// side of the name that sorts first, and how many of their games are in no such pair.
struct NamePairs {
  stats::Pentanomial pairs;
  std::int64_t unpaired = 0;
};

std::map<std::pair<std::string, std::string>, NamePairs> name_pairs(const db::Store& store,
                                                                    const db::GameFilter& filter) {
  std::map<std::pair<std::string, std::string>, NamePairs> out;
  store.queries().for_each_pair_result(filter, [&](const db::PairResult& p) {
    const auto& g = p.games;
    if (g.size() == 2 && g[0].white == g[1].black && g[0].black == g[1].white &&
        g[0].white != g[0].black) {
      const auto key = std::minmax(g[0].white, g[0].black);
      out[key].pairs.add_pair(outcome_for(key.first, g[0]), outcome_for(key.first, g[1]));
      return;
    }
    for (const auto& x : g) ++out[std::minmax(x.white, x.black)].unpaired;
  });
  return out;
}

}  // namespace

int query_h2h(const db::Store& store, const QueryOptions& q) {
  auto rows = db::head_to_head_from(player_pair_counts(store, q.filter, q.merge_by_name));
  if (q.format != OutputFormat::Table) {
    // Elo from the pairs when every game of the two is in a pair (pentanomial, as docs/
    // statistics.md says for paired games), else from the games. A row's label is a name
    // unless the name has several identities; those rows are never matched by name here.
    const auto paired = name_pairs(store, q.filter);
    Table t({"engine", "opponent", "games", "wins", "draws", "losses", "points", "score", "pairs",
             "ll", "ld", "wl_dd", "wd", "ww", "model", "elo", "elo95", "note"});
    for (const auto& h : rows) {
      long long n = h.wins + h.draws + h.losses;
      double pts = double(h.wins) + 0.5 * double(h.draws);
      const stats::Trinomial games{h.losses, h.draws, h.wins};
      stats::Pentanomial pairs;
      const auto it = paired.find(std::minmax(h.engine, h.opponent));
      if (it != paired.end() && it->second.unpaired == 0) {
        pairs = it->second.pairs;
        if (h.engine != it->first.first) {  // the other side's view
          std::swap(pairs.ll, pairs.ww);
          std::swap(pairs.ld, pairs.wd);
        }
      }
      const bool penta = pairs.pairs() > 0 && pairs.games() == games;
      const EloCells elo = elo_cells(penta ? stats::get_elo(pairs) : stats::get_elo(games), 1);
      const auto count = [&](std::int64_t c) { return penta ? cell((long long)c) : null_cell(); };
      t.add_row({cell(h.engine), cell(h.opponent), cell(n), cell((long long)h.wins),
                 cell((long long)h.draws), cell((long long)h.losses), cell(pts, 1),
                 cell(n ? 100.0 * pts / double(n) : 0.0, 1), count(pairs.pairs()), count(pairs.ll),
                 count(pairs.ld), count(pairs.wl + pairs.dd), count(pairs.wd), count(pairs.ww),
                 cell(penta ? "pentanomial" : "trinomial"), elo.elo, elo.error,
                 text_or_null(elo.note)});
    }
    return print(t, q, "h2h");
  }
  // A matrix: row engine's points against the column engine, out of the games they played.
  std::set<std::string> names;
  std::map<std::pair<std::string, std::string>, db::HeadToHead> cells;
  for (const auto& h : rows) {
    names.insert(h.engine);
    names.insert(h.opponent);
    cells[{h.engine, h.opponent}] = h;
  }
  std::vector<std::string> columns{"engine"};
  columns.insert(columns.end(), names.begin(), names.end());
  Table t(columns);
  for (const auto& a : names) {
    std::vector<Cell> row{cell(a)};
    for (const auto& b : names) {
      auto it = cells.find({a, b});
      if (a == b || it == cells.end()) {
        row.push_back(cell(std::string(a == b ? "-" : "")));
        continue;
      }
      const auto& h = it->second;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f/%lld", double(h.wins) + 0.5 * double(h.draws),
                    (long long)(h.wins + h.draws + h.losses));
      row.push_back(cell(std::string(buf)));
    }
    t.add_row(row);
  }
  return print(t, q, "h2h");
}

int query_engines(const db::Store& store, const QueryOptions& q) {
  Table t({"id", "name", "builtin", "command", "options", "uci_name", "uci_author", "sha256",
           "first_seen", "games", "last_played", "repo", "commit"});
  std::map<std::int64_t, db::EngineSourceRow> sources;  // engines built from source
  for (auto& r : store.test_queue().engine_sources()) sources[r.engine_id] = r;
  for (const auto& e : store.catalog().engines()) {
    if (!q.filter.engines.empty() && std::find(q.filter.engines.begin(), q.filter.engines.end(),
                                               e.info.name) == q.filter.engines.end())
      continue;
    t.add_row({cell((long long)e.id), cell(e.info.name), cell(e.info.builtin ? "yes" : "no"),
               text_or_null(e.info.command), text_or_null(e.info.options),
               text_or_null(e.info.uci_name), text_or_null(e.info.uci_author),
               text_or_null(e.info.binary_sha256), cell(e.first_seen), cell((long long)e.games),
               text_or_null(e.last_played),
               sources.count(e.id) ? cell(sources[e.id].repo) : null_cell(),
               sources.count(e.id) ? cell(sources[e.id].commit) : null_cell()});
  }
  return print(t, q, "engines");
}

int query_ratings(const db::Store& store, QueryOptions q) {
  if (!q.filter.engines.empty()) q.filter.both_engines_in_set = true;
  auto counts = player_pair_counts(store, q.filter, q.merge_by_name);
  std::map<std::string, int> index;
  std::vector<std::string> names;
  for (const auto& c : counts)
    for (const auto& n : {c.white, c.black})
      if (!index.count(n)) {
        index[n] = int(names.size());
        names.push_back(n);
      }
  if (names.size() < 2) {
    *q.err << "knightly: query ratings: fewer than two engines in the selected games\n";
    return ExitError;
  }
  std::map<std::pair<int, int>, stats::PairResults> agg;
  for (const auto& c : counts) {
    int w = index[c.white], b = index[c.black];
    int a = std::min(w, b), z = std::max(w, b);
    auto& p = agg[{a, z}];
    p.a = a;
    p.b = z;
    std::int64_t a_wins = w == a ? c.white_wins : c.black_wins;
    std::int64_t b_wins = w == a ? c.black_wins : c.white_wins;
    p.a_wins += a_wins;
    p.b_wins += b_wins;
    p.draws += c.draws;
  }
  std::vector<stats::PairResults> pairs;
  for (auto& [k, p] : agg) pairs.push_back(p);
  stats::RatingOptions options;
  options.names = names;
  options.simulations = q.simulations;
  options.anchor_rating = q.anchor_rating;
  if (!q.anchor.empty()) {
    auto it = index.find(q.anchor);
    if (it == index.end()) {
      *q.err << "knightly: query ratings: --anchor: no engine '" << q.anchor
             << "' in the selected games\n";
      return ExitError;
    }
    options.anchor = it->second;
  }
  auto ratings = stats::compute_ratings(int(names.size()), pairs, options);
  if (!ratings) {
    *q.err << "knightly: query ratings: " << ratings.error() << "\n";
    return ExitError;
  }
  // Group by group (Ordo's groups: engines joined by a chain of games), best rating first.
  std::vector<int> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const auto &x = ratings->engines[a], &y = ratings->engines[b];
    if (x.group != y.group) return x.group < y.group;
    return x.rating != y.rating ? x.rating > y.rating : names[a] < names[b];
  });
  const bool grouped = ratings->groups > 1;
  if (grouped) {
    // Each group named by its engines, so a reader knows which ratings compare.
    *q.err << "knightly: query ratings: " << ratings->groups
           << " groups of engines never played each other; each is rated on its own and ratings "
              "compare only within a group:\n";
    for (int g = 1; g <= ratings->groups; ++g) {
      std::string members;
      for (int i : order)
        if (ratings->engines[i].group == g) members += (members.empty() ? "" : ", ") + names[i];
      *q.err << "  group " << g << ": " << members << "\n";
    }
  }
  std::vector<std::string> columns{"rank",  "engine", "rating", "error95",
                                   "games", "points", "score",  "note"};
  if (grouped) columns.insert(columns.begin(), "group");
  Table t(columns);
  long long rank = 0;
  int group = 0;
  for (int i : order) {
    const auto& r = ratings->engines[i];
    if (r.group != group) rank = 0;  // ranks count within a group
    group = r.group;
    std::vector<Cell> row{cell(++rank),
                          cell(names[i]),
                          cell(r.rating, 1),
                          q.simulations > 0 ? cell(r.error95, 1) : null_cell(),
                          cell((long long)r.games),
                          cell(r.points, 1),
                          cell(r.games ? 100.0 * r.points / double(r.games) : 0.0, 1),
                          text_or_null(r.note)};
    if (grouped) row.insert(row.begin(), cell((long long)r.group));
    t.add_row(std::move(row));
  }
  return print(t, q, "ratings");
}

int query_terminations(const db::Store& store, const QueryOptions& q) {
  Table t({"termination", "reason", "count"});
  for (const auto& c : store.queries().termination_counts(q.filter, true))
    t.add_row({cell(c.termination), cell(c.reason), cell((long long)c.count)});
  return print(t, q, "terminations");
}

// Per engine: the games it lost by each fault and its moves' latency (Store::engine_health),
// the figures the end of a run prints.
int query_health(const db::Store& store, const QueryOptions& q) {
  Table t({"engine", "games", "time_losses", "crashes", "disconnects", "stalls", "illegal_moves",
           "latency_moves", "latency_mean_ms", "latency_max_ms"});
  for (const auto& h : store.queries().engine_health(q.filter)) {
    const bool known = h.latency_moves > 0;
    t.add_row({cell(h.engine), cell((long long)h.games), cell((long long)h.time_losses),
               cell((long long)(h.disconnects + h.stalls)), cell((long long)h.disconnects),
               cell((long long)h.stalls), cell((long long)h.illegal_moves),
               cell((long long)h.latency_moves), known ? cell(h.latency_mean_ms(), 1) : null_cell(),
               known ? cell((long long)h.latency_max_ms) : null_cell()});
  }
  return print(t, q, "health");
}

}  // namespace knightly::runner
