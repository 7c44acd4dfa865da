// knightly query ...: reads the database (opened read-only, never written) and prints tables.
// The kinds that need more than one table's reading (sprt, tune, workers) are here, with the
// check of the filters and the dispatch; the rest are in query_tables.cpp.
#include "runner/query/query.h"

#include <algorithm>
#include <map>
#include <set>

#include "runner/config/closest_name.h"
#include "runner/config/config_toml.h"
#include "runner/config/engine_words.h"
#include "runner/config/play_flags.h"
#include "runner/output/interval_lines.h"
#include "runner/output/printable.h"
#include "runner/output/tune_view.h"
#include "runner/query/query_tables.h"
#include "runner/query/test_list.h"
#include "runner/run/decision.h"
#include "runner/run/run_options.h"
#include "runner/run/two_engine_tally.h"
#include "runner/stats/elo.h"
#include "runner/stats/match_text.h"

namespace knightly::runner {
namespace {

// What the fastchess block's first line names, from the stored settings: time control or limit,
// the first engine's Threads and Hash, the book (fields it cannot tell stay empty).
stats::MatchLabel stored_label(const db::Tournament& t) {
  const std::string& text = t.config_text;
  std::optional<Config> config;
  std::string tc_label;
  if (text.starts_with("knightly play ")) {
    if (auto words = split_words(std::string_view(text).substr(14)))
      if (auto play = parse_play_flags(*words)) config = play->config;
  } else if (text.starts_with("knightly sprt ")) {
    // "knightly sprt --new SPEC --base SPEC --tc TC --depth D --nodes N --book FILE ...".
    auto between = [&](const std::string& from, const std::string& to) {
      const auto a = text.find(" " + from + " ");
      if (a == std::string::npos) return std::string();
      const auto start = a + from.size() + 2;
      const auto b = text.find(" " + to + " ", start);
      return text.substr(start, b == std::string::npos ? std::string::npos : b - start);
    };
    Config c;
    for (const auto& spec : {between("--new", "--base"), between("--base", "--tc")})
      if (auto e = parse_engine_spec(spec)) c.engines.push_back(*e);
    c.openings.file = between("--book", "--elo0");
    if (const auto tc = between("--tc", "--depth"); !tc.empty()) tc_label = tc;
    if (const auto d = between("--depth", "--nodes"); !d.empty()) tc_label = "depth " + d;
    if (const auto n = between("--nodes", "--book"); !n.empty()) tc_label = n + " nodes";
    if (c.engines.size() == 2) config = std::move(c);
  } else if (auto cfg = parse_config_toml(text)) {
    config = std::move(*cfg);
  }
  if (!config || config->engines.size() != 2) return {};
  return interval_settings(*config, tc_label, true, true).label;
}

// SPRT figures of a stored two-engine tournament; its stored config gives the bounds unless
// flags override them.
int query_sprt(const db::Store& store, const QueryOptions& q) {
  std::optional<db::Tournament> t;
  if (q.filter.tournaments.empty()) {
    // The only SPRT in the database, or a list to choose from.
    std::vector<db::Tournament> tests;
    for (const auto& s : store.catalog().tournaments())
      if (s.tournament.status != db::TournamentStatus::Restarted &&
          stored_match(store, s.tournament).sprt)
        tests.push_back(s.tournament);
    if (tests.size() != 1) {
      *q.err << "knightly: query sprt: "
             << (tests.empty() ? "no tournament with an SPRT in " + store.path()
                               : std::to_string(tests.size()) + " SPRT tournaments in " +
                                     store.path() + "; name one with --tournament NAME:");
      for (const auto& x : tests) *q.err << "\n  " << x.name;
      *q.err << "\n";
      return ExitError;
    }
    t = tests[0];
  } else if (q.filter.tournaments.size() > 1) {
    *q.err << "knightly: query sprt: name one tournament with --tournament NAME\n";
    return ExitError;
  } else {
    t = store.catalog().find_tournament(q.filter.tournaments[0]);
  }
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
  if (!q.model.empty()) sprt.model = *stats::parse_model(q.model);
  if (auto v = stats::validate(sprt); !v) {
    *q.err << "knightly: query sprt: " << v.error() << "\n";
    return ExitError;
  }
  db::GameFilter f;
  f.tournament_ids = {t->id};
  auto results = store.queries().pair_results(f);
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
  // From the pairs when the games come in pairs (fishtest), else from the games, as the run
  // decided and as the report's Match section shows them.
  const bool penta = pairs.pairs() > 0;
  auto status = penta ? stats::sprt_status(sprt, pairs) : stats::sprt_status(sprt, games);
  // A decided test shows the LLR it was decided on (games stored after it do not move it).
  const std::string decision = store.work().control(t->id).decision;
  const auto decided = decided_sprt(sprt, decision);
  if (decided) status = decided->status;
  auto elo = penta ? stats::get_elo(pairs) : stats::get_elo(games);
  if (q.format == OutputFormat::Table) {
    stats::MatchLabel label = stored_label(*t);
    label.first = first;
    label.second = second;
    *q.out << stats::fastchess_report(label, games, pairs, sprt, penta, status.llr);
    if (!decision.empty()) *q.out << "Decision: " << decision << "\n";
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

// A tune's values: the one named, or the only one in the database.
int query_tune(const db::Store& store, const QueryOptions& q) {
  std::optional<db::Tournament> t;
  if (q.filter.tournaments.size() > 1) {
    *q.err << "knightly: query tune: name one tune\n";
    return ExitError;
  }
  if (q.filter.tournaments.empty()) {
    std::vector<db::Tournament> tunes;
    for (const std::int64_t id : store.tunes().tune_ids())
      if (auto x = store.catalog().tournament(id);
          x && x->status != db::TournamentStatus::Restarted)
        tunes.push_back(*x);
    if (tunes.size() != 1) {
      *q.err << "knightly: query tune: "
             << (tunes.empty() ? "no tune in " + store.path()
                               : std::to_string(tunes.size()) + " tunes in " + store.path() +
                                     "; name one (knightly query tune NAME):");
      for (const auto& x : tunes) *q.err << "\n  " << x.name;
      *q.err << "\n";
      return ExitError;
    }
    t = tunes[0];
  } else {
    t = store.catalog().find_tournament(q.filter.tournaments[0]);
  }
  if (!t) {
    *q.err << "knightly: query tune: no tournament '" << printable(q.filter.tournaments[0])
           << "' in " << store.path() << "\n";
    return ExitError;
  }
  const auto tune = store.tunes().tune(t->id);
  if (!tune) {
    *q.err << "knightly: query tune: tournament '" << t->name << "' in " << store.path()
           << " is not a tune\n";
    return ExitError;
  }
  if (q.format == OutputFormat::Json) {
    *q.out << tune_json(*t, *tune);
    return ExitOk;
  }
  return print(tune_table(*tune), q, "tune");
}

// Every worker that played the filtered games, with what went wrong on it (fishtest finds bad
// workers the same way: a machine whose engines crash or lose on time).
int query_workers(const db::Store& store, const QueryOptions& q) {
  std::map<std::int64_t, db::WorkerState> states;
  for (auto& w : store.work().worker_states()) states[w.id] = std::move(w);
  Table t({"id", "host", "pid", "state", "tournament", "started", "last_seen", "games", "crashes",
           "time_losses", "illegal_moves", "superseded", "nps", "tc_factor", "speed_note"});
  // Speeds measured for a scaled time control (fishtest's); an outlier is named.
  std::map<std::int64_t, db::WorkerSpeed> speeds;
  std::map<std::int64_t, std::string> notes;
  const auto measured = store.test_queue().worker_speeds();
  for (const auto& s : measured) speeds[s.worker_id] = s;
  for (auto& [id, note] : speed_notes(measured, q.speed_ratio)) notes[id] = note;
  // A worker renews its leases every quarter of the lease (30 s unless --lease says): one not
  // seen for two minutes while its tournament runs has stopped, killed or cut off.
  constexpr std::int64_t kGoneMs = 120000;
  for (const auto& w : store.work().workers(q.filter)) {
    const db::WorkerState& s = states[w.id];
    const auto measured_speed = speeds.find(w.id);
    const db::WorkerSpeed* speed =
        measured_speed == speeds.end() ? nullptr : &measured_speed->second;
    const char* state = "finished";
    if (s.leases_expired > 0)
      state = "lease lost";
    else if (s.leases > 0)
      state = "alive";
    else if (s.tournament_running)
      state = s.seen_ago_ms <= kGoneMs ? "alive" : "lease lost";
    std::string tournaments;
    for (const auto& name : s.tournaments) tournaments += (tournaments.empty() ? "" : ", ") + name;
    t.add_row({cell((long long)w.id), cell(w.identity.host), cell((long long)w.identity.pid),
               cell(state), text_or_null(tournaments), cell(w.identity.started_at),
               text_or_null(w.last_seen), cell((long long)w.games), cell((long long)w.crashes),
               cell((long long)w.time_losses), cell((long long)w.illegal_moves),
               cell((long long)w.superseded), speed ? cell(speed->nps, 0) : null_cell(),
               speed ? cell(speed->tc_factor, 3) : null_cell(), text_or_null(notes[w.id])});
  }
  return print(t, q, "workers");
}

// A filter that names no engine, tournament or termination the database has: a message with
// the close names and exit 1, never an empty table that looks like "no games".
constexpr int kNoMatch = 1;

std::optional<std::string> unmatched_filter(const db::Store& store, const QueryOptions& q) {
  const auto miss = [&](const std::string& flag, const std::string& value, const std::string& what,
                        const std::vector<std::string>& names) {
    // A typo gets the closest name; a part of a name ("mate") the names that hold it.
    std::string hint;
    if (!closest_name(value, names) && !value.empty())
      for (const auto& n : names)
        if (n.find(value) != std::string::npos)
          hint += (hint.empty() ? "" : ", ") + ("'" + n + "'");
    return flag + " '" + printable(value) + "': no " + what + " of that name in " + store.path() +
           (hint.empty() ? suggestion_text(value, names) : "; did you mean " + hint + "?");
  };
  if (!q.filter.tournaments.empty()) {
    std::vector<std::string> names;
    for (const auto& s : store.catalog().tournaments())
      if (s.tournament.status != db::TournamentStatus::Restarted)
        names.push_back(s.tournament.name);
    for (const auto& name : q.filter.tournaments)
      if (std::find(names.begin(), names.end(), name) == names.end())
        return miss("--tournament", name, "tournament", names);
  }
  if (!q.filter.engines.empty() || !q.anchor.empty()) {
    std::set<std::string> unique;
    for (const auto& e : store.catalog().engines()) unique.insert(e.info.name);
    const std::vector<std::string> names(unique.begin(), unique.end());
    for (const auto& name : q.filter.engines)
      if (!unique.count(name)) return miss("--engine", name, "engine", names);
  }
  if (!q.filter.termination.empty()) {
    std::vector<std::string> names = termination_names();
    for (const auto& c : store.queries().termination_counts(db::GameFilter{}))
      if (std::find(names.begin(), names.end(), c.termination) == names.end())
        names.push_back(c.termination);
    if (std::find(names.begin(), names.end(), q.filter.termination) == names.end())
      return miss("--termination", q.filter.termination, "termination", names);
  }
  return std::nullopt;
}

}  // namespace

int run_query(const db::Store& store, const std::string& what, const QueryOptions& q) {
  try {
    if (auto miss = unmatched_filter(store, q)) {
      *q.err << "knightly: query " << what << ": " << *miss << "\n";
      return kNoMatch;
    }
    if (what == "tournaments") return query_tournaments(store, q);
    if (what == "standings") return query_standings(store, q);
    if (what == "games") return query_games(store, q);
    if (what == "h2h") return query_h2h(store, q);
    if (what == "engines") return query_engines(store, q);
    if (what == "ratings") return query_ratings(store, q);
    if (what == "terminations") return query_terminations(store, q);
    if (what == "health") return query_health(store, q);
    if (what == "sprt") return query_sprt(store, q);
    if (what == "workers") return query_workers(store, q);
    if (what == "tests") return print(tests_table(store, q.filter.tournaments), q, "tests");
    if (what == "tune") return query_tune(store, q);
  } catch (const db::StoreException& e) {
    *q.err << "knightly: " << e.what() << "\n";
    return ExitError;
  }
  *q.err << "knightly: query: unknown subcommand '" << what << "'\n";
  return ExitError;
}

StoredMatch stored_match(const db::Store& store, const db::Tournament& t) {
  StoredMatch m;
  if (auto stored = store.work().sprt_settings(t.id)) {
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
    if (cfg->engines.size() >= 2) m.second = cfg->engines[1].name;
  }
  return m;
}

int run_query(const db::Store& store, const std::string& what, Args& args, std::ostream& out,
              std::ostream& err) {
  auto q = parse_query_options(args, what);
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
  return run_query(store, what, *q);
}

}  // namespace knightly::runner
