// knightly query ...: reads the database (opened read-only, never written) and prints tables.
#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "db/store/store.h"
#include "runner/cli/printable.h"
#include "runner/cli/query.h"
#include "runner/cli/subcommand.h"
#include "runner/cli/table.h"
#include "runner/cli/test_list.h"
#include "runner/config/config_toml.h"
#include "runner/run/run_options.h"
#include "runner/run/two_engine_tally.h"
#include "runner/stats/counts.h"
#include "runner/stats/elo.h"
#include "runner/stats/ratings.h"
#include "runner/stats/report.h"
#include "runner/stats/sprt.h"

namespace knightly::runner {
namespace {

struct QueryOptions {
  std::string db = "knightly.db";
  bool db_given = false;
  OutputFormat format = OutputFormat::Table;
  db::GameFilter filter;
  std::string anchor;
  double anchor_rating = 0;
  int simulations = 200;
  std::optional<double> elo0, elo1, alpha, beta;
  std::string model;
  double speed_ratio = 1.5;  // query workers: a speed this far from the median is named
  // Where the command prints: the terminal, or a string for `knightly serve`'s JSON API.
  std::ostream* out = &std::cout;
  std::ostream* err = &std::cerr;
};

// --since/--until: an ISO 8601 date or UTC date and time (2026-11-01, 2026-11-01T18:30,
// 2026-11-01T18:30:15, a space for the T, a trailing Z), checked field by field, returned in
// the form stored start times compare with as text ("2026-11-01T18:30").
std::expected<std::string, std::string> iso_time_bound(const std::string& flag,
                                                       const std::string& text) {
  const auto fail = [&](const std::string& why) {
    return std::unexpected(flag + ": '" + printable(text) + "' " + why +
                           " (expected an ISO 8601 date or UTC time: 2026-11-01, "
                           "2026-11-01T18:30 or 2026-11-01T18:30:15Z)");
  };
  std::string t = text;
  if (t.size() > 10 && t[10] == ' ') t[10] = 'T';
  if (!t.empty() && (t.back() == 'Z' || t.back() == 'z') && t.size() > 10) t.pop_back();
  // Digits where the pattern has 'd'; the separators as written.
  static const std::string pattern = "dddd-dd-ddTdd:dd:dd";
  if (t.size() != 10 && t.size() != 16 && t.size() != 19) {
    if (t.size() > 19 && (t[19] == '+' || t[19] == '-' || t[19] == '.'))
      return fail("has a UTC offset or fractions of a second: times are UTC, to the second");
    return fail("is not a date or time");
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool digit = t[i] >= '0' && t[i] <= '9';
    if (pattern[i] == 'd' ? !digit : t[i] != pattern[i]) return fail("is not a date or time");
  }
  const auto number = [&](std::size_t at, std::size_t n) { return std::stoi(t.substr(at, n)); };
  const int year = number(0, 4), month = number(5, 2), day = number(8, 2);
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return fail("has no month " + t.substr(5, 2));
  if (day < 1 || day > days[month - 1])
    return fail("has no day " + t.substr(8, 2) + " in its month");
  if (t.size() > 10 &&
      (number(11, 2) > 23 || number(14, 2) > 59 || (t.size() == 19 && number(17, 2) > 59)))
    return fail("is not a time of day");
  return t;
}

std::expected<QueryOptions, std::string> parse_query_options(Args& args) {
  QueryOptions q;
  while (!args.empty()) {
    std::string a = args.take();
    auto v = args.value(a);
    if (!v) return std::unexpected(v.error());
    if (a == "--db") {
      q.db = *v;
      q.db_given = true;
    } else if (a == "--format") {
      auto f = parse_output_format(*v);
      if (!f) return std::unexpected("--format: " + f.error());
      q.format = *f;
    } else if (a == "--tournament")
      q.filter.tournaments.push_back(*v);
    else if (a == "--engine")
      q.filter.engines.push_back(*v);
    else if (a == "--result") {
      if (*v != "1-0" && *v != "0-1" && *v != "1/2-1/2")
        return std::unexpected("--result: '" + *v + "' (1-0, 0-1 or 1/2-1/2)");
      q.filter.result = *v;
    } else if (a == "--termination")
      q.filter.termination = *v;
    else if (a == "--since" || a == "--until") {
      auto bound = iso_time_bound(a, *v);
      if (!bound) return std::unexpected(bound.error());
      (a == "--since" ? q.filter.since : q.filter.until) = *bound;
    } else if (a == "--limit") {
      auto n = parse_int(a, *v, 1, 1LL << 40);
      if (!n) return std::unexpected(n.error());
      q.filter.limit = *n;
    } else if (a == "--anchor")
      q.anchor = *v;
    else if (a == "--anchor-rating") {
      auto d = parse_double(a, *v);
      if (!d) return std::unexpected(d.error());
      q.anchor_rating = *d;
    } else if (a == "--simulations") {
      auto n = parse_int(a, *v, 0, 100000);
      if (!n) return std::unexpected(n.error());
      q.simulations = int(*n);
    } else if (a == "--elo0" || a == "--elo1" || a == "--alpha" || a == "--beta") {
      auto d = parse_double(a, *v);
      if (!d) return std::unexpected(d.error());
      (a == "--elo0" ? q.elo0 : a == "--elo1" ? q.elo1 : a == "--alpha" ? q.alpha : q.beta) = *d;
    } else if (a == "--model")
      q.model = *v;
    else if (a == "--speed-ratio") {
      auto d = parse_double(a, *v);
      if (!d) return std::unexpected(d.error());
      if (!(*d > 1)) return std::unexpected("--speed-ratio: '" + *v + "' (a ratio above 1)");
      q.speed_ratio = *d;
    } else
      return std::unexpected("unknown option '" + a + "'");
  }
  return q;
}

Cell text_or_null(const std::string& s) {
  return s.empty() ? null_cell() : cell(s);
}

int print(const Table& t, const QueryOptions& q, const char* name) {
  *q.out << t.render(q.format, name);
  return ExitOk;
}

int query_tournaments(const db::Store& store, const QueryOptions& q) {
  Table t({"id", "name", "kind", "status", "games", "seed", "started", "finished"});
  for (const auto& s : store.tournaments()) {
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
  for (const auto& s : store.standings(q.filter)) {
    const EloCells elo = elo_cells(stats::get_elo(stats::Trinomial{s.losses, s.draws, s.wins}), 1);
    t.add_row({cell(++rank), cell(s.engine), cell((long long)s.games), cell(s.points(), 1),
               cell((long long)s.wins), cell((long long)s.draws), cell((long long)s.losses),
               cell(s.games ? 100.0 * s.points() / double(s.games) : 0.0, 1), elo.elo, elo.error,
               text_or_null(elo.note)});
  }
  return print(t, q, "standings");
}

int query_games(const db::Store& store, QueryOptions q) {
  q.filter.newest_first = true;
  if (q.filter.limit == 0 && q.format == OutputFormat::Table) q.filter.limit = 50;
  Table t({"id", "tournament", "round", "pair", "game", "white", "black", "result", "termination",
           "reason", "plies", "started", "duration_ms", "opening"});
  for (const auto& g : store.games(q.filter))
    t.add_row({cell((long long)g.id), cell(g.tournament), cell((long long)g.game_id.round + 1),
               cell((long long)g.game_id.pair + 1), cell((long long)g.game_id.game_in_pair + 1),
               cell(g.white), cell(g.black), cell(g.result), cell(g.termination), cell(g.reason),
               cell((long long)g.plies), cell(g.started_at), cell((long long)g.duration_ms),
               text_or_null(g.opening_source)});
  return print(t, q, "games");
}

int query_h2h(const db::Store& store, const QueryOptions& q) {
  auto rows = store.head_to_head(q.filter);
  if (q.format != OutputFormat::Table) {
    Table t({"engine", "opponent", "games", "wins", "draws", "losses", "points", "score"});
    for (const auto& h : rows) {
      long long n = h.wins + h.draws + h.losses;
      double pts = double(h.wins) + 0.5 * double(h.draws);
      t.add_row({cell(h.engine), cell(h.opponent), cell(n), cell((long long)h.wins),
                 cell((long long)h.draws), cell((long long)h.losses), cell(pts, 1),
                 cell(n ? 100.0 * pts / double(n) : 0.0, 1)});
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
  for (auto& r : store.engine_sources()) sources[r.engine_id] = r;
  for (const auto& e : store.engines()) {
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
  auto counts = store.pair_counts(q.filter);
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
  std::vector<int> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return ratings->engines[a].rating > ratings->engines[b].rating; });
  Table t({"rank", "engine", "rating", "error95", "games", "points", "score", "note"});
  long long rank = 0;
  for (int i : order) {
    const auto& r = ratings->engines[i];
    t.add_row({cell(++rank), cell(names[i]), cell(r.rating, 1),
               q.simulations > 0 ? cell(r.error95, 1) : null_cell(), cell((long long)r.games),
               cell(r.points, 1), cell(r.games ? 100.0 * r.points / double(r.games) : 0.0, 1),
               text_or_null(r.note)});
  }
  return print(t, q, "ratings");
}

int query_terminations(const db::Store& store, const QueryOptions& q) {
  Table t({"termination", "reason", "count"});
  for (const auto& c : store.termination_counts(q.filter, true))
    t.add_row({cell(c.termination), cell(c.reason), cell((long long)c.count)});
  return print(t, q, "terminations");
}

// SPRT figures of a stored two-engine tournament; its stored config gives the bounds unless
// flags override them.
int query_sprt(const db::Store& store, const QueryOptions& q) {
  if (q.filter.tournaments.size() != 1) {
    *q.err << "knightly: query sprt: name one tournament with --tournament NAME\n";
    return ExitError;
  }
  auto t = store.find_tournament(q.filter.tournaments[0]);
  if (!t) {
    *q.err << "knightly: query sprt: no tournament '" << q.filter.tournaments[0] << "' in "
           << store.path() << "\n";
    return ExitError;
  }
  const StoredMatch stored = stored_match(store, *t);
  stats::SprtConfig sprt = stored.sprt.value_or(stats::SprtConfig{});
  std::string first = stored.first;
  if (q.elo0) sprt.elo0 = *q.elo0;
  if (q.elo1) sprt.elo1 = *q.elo1;
  if (q.alpha) sprt.alpha = *q.alpha;
  if (q.beta) sprt.beta = *q.beta;
  if (!q.model.empty())
    sprt.model = q.model == "logistic" ? stats::EloModel::Logistic : stats::EloModel::Normalized;
  if (auto v = stats::validate(sprt); !v) {
    *q.err << "knightly: query sprt: " << v.error() << "\n";
    return ExitError;
  }
  db::GameFilter f;
  f.tournament_ids = {t->id};
  auto results = store.pair_results(f);
  std::set<std::string> names;
  for (const auto& p : results)
    for (const auto& g : p.games) {
      names.insert(g.white);
      names.insert(g.black);
      if (first.empty()) first = g.white;
    }
  if (names.size() != 2) {
    *q.err << "knightly: query sprt: tournament '" << t->name
           << "' does not have exactly two engines\n";
    return ExitError;
  }
  std::string second = *names.begin() == first ? *names.rbegin() : *names.begin();
  TwoEngineTally tally(first);
  for (const auto& p : results)
    for (const auto& g : p.games) tally.add(p.round, p.pair, g);
  const stats::Trinomial& games = tally.games();
  const stats::Pentanomial& pairs = tally.pairs();
  auto status = stats::sprt_status(sprt, pairs);
  auto elo = stats::get_elo(pairs);
  if (q.format == OutputFormat::Table) {
    stats::MatchLabel label{first, second, "", "", "", ""};
    *q.out << stats::fastchess_report(label, games, pairs, sprt);
    *q.out << stats::cutechess_elo_line(games) << "\n"
           << stats::cutechess_sprt_line(status) << "\n";
    return ExitOk;
  }
  Table t2({"tournament", "first", "second", "games", "wins",  "draws",    "losses",
            "pairs",      "ll",    "ld",     "wl_dd", "wd",    "ww",       "elo",
            "elo95",      "nelo",  "nelo95", "los",   "llr",   "lower",    "upper",
            "elo0",       "elo1",  "alpha",  "beta",  "model", "decision", "note"});
  const EloCells elo_text = elo_cells(elo, 2);
  t2.add_row({cell(t->name),
              cell(first),
              cell(second),
              cell((long long)games.games()),
              cell((long long)games.wins),
              cell((long long)games.draws),
              cell((long long)games.losses),
              cell((long long)pairs.pairs()),
              cell((long long)pairs.ll),
              cell((long long)pairs.ld),
              cell((long long)(pairs.wl + pairs.dd)),
              cell((long long)pairs.wd),
              cell((long long)pairs.ww),
              elo_text.elo,
              elo_text.error,
              elo.unbounded ? elo_text.elo : cell(elo.nelo, 2),
              elo.unbounded ? null_cell() : cell(elo.nelo95, 2),
              cell(elo.los * 100, 2),
              cell(status.llr, 4),
              cell(status.bounds.lower, 4),
              cell(status.bounds.upper, 4),
              cell(sprt.elo0, 2),
              cell(sprt.elo1, 2),
              cell(sprt.alpha, 3),
              cell(sprt.beta, 3),
              cell(stats::model_name(sprt.model)),
              cell(stats::decision_name(status.decision)),
              text_or_null(elo_text.note)});
  return print(t2, q, "sprt");
}

// Every worker that played the filtered games, with what went wrong on it (fishtest finds bad
// workers the same way: a machine whose engines crash or lose on time).
int query_workers(const db::Store& store, const QueryOptions& q) {
  Table t({"id", "host", "pid", "started", "last_seen", "games", "crashes", "time_losses",
           "illegal_moves", "superseded", "nps", "tc_factor", "speed_note"});
  // Speeds measured for a scaled time control (fishtest's); an outlier is named.
  std::map<std::int64_t, db::WorkerSpeed> speeds;
  std::map<std::int64_t, std::string> notes;
  const auto measured = store.worker_speeds();
  for (const auto& s : measured) speeds[s.worker_id] = s;
  for (auto& [id, note] : speed_notes(measured, q.speed_ratio)) notes[id] = note;
  for (const auto& w : store.workers(q.filter)) {
    const auto s = speeds.find(w.id);
    const bool has = s != speeds.end();
    t.add_row({cell((long long)w.id), cell(w.identity.host), cell((long long)w.identity.pid),
               cell(w.identity.started_at), text_or_null(w.last_seen), cell((long long)w.games),
               cell((long long)w.crashes), cell((long long)w.time_losses),
               cell((long long)w.illegal_moves), cell((long long)w.superseded),
               has ? cell(s->second.nps, 0) : null_cell(),
               has ? cell(s->second.tc_factor, 3) : null_cell(), text_or_null(notes[w.id])});
  }
  return print(t, q, "workers");
}

int dispatch(const db::Store& store, const std::string& what, const QueryOptions& q) {
  try {
    if (what == "tournaments") return query_tournaments(store, q);
    if (what == "standings") return query_standings(store, q);
    if (what == "games") return query_games(store, q);
    if (what == "h2h") return query_h2h(store, q);
    if (what == "engines") return query_engines(store, q);
    if (what == "ratings") return query_ratings(store, q);
    if (what == "terminations") return query_terminations(store, q);
    if (what == "sprt") return query_sprt(store, q);
    if (what == "workers") return query_workers(store, q);
    if (what == "tests") return print(tests_table(store), q, "tests");
  } catch (const db::StoreException& e) {
    *q.err << "knightly: " << e.what() << "\n";
    return ExitError;
  }
  *q.err << "knightly: query: unknown subcommand '" << what << "'\n";
  return ExitError;
}

}  // namespace

StoredMatch stored_match(const db::Store& store, const db::Tournament& t) {
  StoredMatch m;
  if (auto stored = store.sprt_settings(t.id)) {
    stats::SprtConfig sprt;
    sprt.elo0 = stored->elo0;
    sprt.elo1 = stored->elo1;
    sprt.alpha = stored->alpha;
    sprt.beta = stored->beta;
    sprt.model = stats::parse_model(stored->model).value_or(sprt.model);
    m.sprt = sprt;
  }
  if (auto cfg = parse_config_toml(t.config_text); cfg) {
    // A tournament stored before its SPRT settings were: its TOML config still says.
    if (!m.sprt && cfg->sprt.enabled) m.sprt = stats_sprt_config(cfg->sprt);
    if (!cfg->engines.empty()) m.first = cfg->engines[0].name;
  }
  return m;
}

int cmd_query(Args& args) {
  if (args.empty()) {
    std::cerr << "knightly: query: which? tournaments, standings, games, h2h, engines, ratings, "
                 "terminations, sprt, workers, tests\n";
    return ExitError;
  }
  std::string what = args.take();
  auto q = parse_query_options(args);
  if (!q) {
    std::cerr << "knightly: query " << what << ": " << q.error() << "\n";
    return ExitError;
  }
  db::StoreOptions so;
  so.mode = db::OpenMode::ReadOnly;
  auto store = db::Store::open(q->db, so);
  if (!store) {
    std::cerr << "knightly: " << store.error().message << "\n";
    return ExitError;
  }
  return dispatch(*store, what, *q);
}

int run_query(const db::Store& store, const std::string& what, Args& args, std::ostream& out,
              std::ostream& err) {
  auto q = parse_query_options(args);
  if (!q) {
    err << "knightly: query " << what << ": " << q.error() << "\n";
    return ExitError;
  }
  if (q->db_given) {
    err << "knightly: query " << what << ": --db is not accepted here (the database is open)\n";
    return ExitError;
  }
  q->out = &out;
  q->err = &err;
  return dispatch(store, what, *q);
}

}  // namespace knightly::runner
