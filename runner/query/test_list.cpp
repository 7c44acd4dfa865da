#include "runner/query/test_list.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "runner/query/query.h"
#include "runner/report/json.h"
#include "runner/run/decision.h"
#include "runner/run/two_engine_tally.h"
#include "runner/stats/elo.h"

namespace knightly::runner {

std::string test_state(const db::QueuedTest& t) {
  using S = db::TournamentStatus;
  if (t.tournament.status == S::Restarted) return "restarted";
  if (t.tournament.status == S::Finished) {
    const std::string& d = t.decision;
    if (d.starts_with("sprt: H1")) return "H1";
    if (d.starts_with("sprt: H0")) return "H0";
    if (d.starts_with("sprt: undecided")) return "undecided";
    if (d.starts_with("stopped:")) return "stopped";
    if (d.starts_with("failed:")) return "failed";
    return "complete";
  }
  if (t.stop_requested) return "stopped";
  if (t.games == 0 && t.live_pairs == 0) return "queued";
  return "running";
}

TestFigures test_figures(const db::Store& store, const db::QueuedTest& test) {
  TestFigures f;
  // The engines and the bounds as `knightly query sprt` reads them: from what the tournament
  // stores (the match of a `knightly sprt` test, or its TOML config).
  const StoredMatch stored = stored_match(store, test.tournament);
  if (!stored.second.empty()) {
    f.first = stored.first;
    f.second = stored.second;
  }
  f.sprt = stored.sprt;
  TwoEngineTally tally(f.first);
  db::GameFilter filter;
  filter.tournament_ids = {test.tournament.id};
  store.queries().for_each_pair_result(filter, [&](const db::PairResult& p) {
    for (const auto& g : p.games) tally.add(p.round, p.pair, g);
  });
  f.games = tally.games();
  f.pairs = tally.pairs();
  // From the pairs when the games come in pairs, else from the games, and a decided test's LLR
  // at its decision: as `knightly query sprt`, the final report and the report page show them.
  const bool penta = f.pairs.pairs() > 0;
  if (f.sprt) {
    f.status = penta ? stats::sprt_status(*f.sprt, f.pairs) : stats::sprt_status(*f.sprt, f.games);
    if (auto decided = decided_sprt(*f.sprt, test.decision)) f.status = decided->status;
  }
  f.elo = penta ? stats::get_elo(f.pairs) : stats::get_elo(f.games);
  return f;
}

Table tests_table(const db::Store& store, const std::vector<std::string>& names) {
  Table t({"id",      "name",        "state",        "priority",   "games",       "wins",
           "draws",   "losses",      "ll",           "ld",         "wl_dd",       "wd",
           "ww",      "elo",         "elo95",        "llr",        "lower",       "upper",
           "elo0",    "elo1",        "new",          "new_commit", "new_subject", "new_repo",
           "base",    "base_commit", "base_subject", "submitter",  "submitted",   "finished",
           "decision"});
  for (const auto& test : store.test_queue().tests()) {
    if (!names.empty() &&
        std::find(names.begin(), names.end(), test.tournament.name) == names.end())
      continue;
    const TestFigures f = test_figures(store, test);
    std::map<int, db::SourceCommitRecord> sources;
    for (auto& s : store.test_queue().source_commits(test.tournament.id)) sources[s.engine] = s;
    const auto source = [&](int engine, std::string db::SourceCommitRecord::*field) {
      auto it = sources.find(engine);
      return it == sources.end() ? null_cell() : cell(it->second.*field);
    };
    const EloCells elo = elo_cells(f.elo, 2);
    const auto num = [](const std::optional<double>& v, int decimals) {
      return v ? cell(*v, decimals) : null_cell();
    };
    t.add_row(
        {cell((long long)test.tournament.id),
         cell(test.tournament.name),
         cell(test_state(test)),
         cell((long long)test.priority),
         cell((long long)f.games.games()),
         cell((long long)f.games.wins),
         cell((long long)f.games.draws),
         cell((long long)f.games.losses),
         cell((long long)f.pairs.ll),
         cell((long long)f.pairs.ld),
         cell((long long)(f.pairs.wl + f.pairs.dd)),
         cell((long long)f.pairs.wd),
         cell((long long)f.pairs.ww),
         elo.elo,
         elo.error,
         num(f.status ? std::optional(f.status->llr) : std::nullopt, 2),
         num(f.status ? std::optional(f.status->bounds.lower) : std::nullopt, 2),
         num(f.status ? std::optional(f.status->bounds.upper) : std::nullopt, 2),
         num(f.sprt ? std::optional(f.sprt->elo0) : std::nullopt, 2),
         num(f.sprt ? std::optional(f.sprt->elo1) : std::nullopt, 2),
         f.first.empty() ? null_cell() : cell(f.first),
         source(0, &db::SourceCommitRecord::commit),
         source(0, &db::SourceCommitRecord::subject),
         source(0, &db::SourceCommitRecord::repo),
         f.second.empty() ? null_cell() : cell(f.second),
         source(1, &db::SourceCommitRecord::commit),
         source(1, &db::SourceCommitRecord::subject),
         cell(test.submitter),
         cell(test.submitted_at),
         test.tournament.finished_at.empty() ? null_cell() : cell(test.tournament.finished_at),
         test.decision.empty() ? null_cell() : cell(test.decision)});
  }
  return t;
}

std::string tests_document(const db::Store& store, const std::string& title,
                           const std::string& now) {
  // The generation first: what follows is at least this new.
  const std::string generation = store.queries().data_generation();
  report::JsonWriter w;
  w.begin_object();
  w.key("version").value(1);
  w.key("generation").value(generation);
  w.key("title").value(title);
  w.key("generated_at").value(now);
  w.key("queue").raw(tests_table(store).render(OutputFormat::Json, "tests"));
  w.end_object();
  return w.take();
}

std::vector<std::pair<std::int64_t, std::string>> speed_notes(
    const std::vector<db::WorkerSpeed>& speeds, double ratio) {
  std::map<std::int64_t, std::vector<double>> by_test;
  for (const auto& s : speeds) by_test[s.tournament_id].push_back(s.nps);
  std::map<std::int64_t, double> median;
  for (auto& [id, v] : by_test) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    median[id] = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
  std::vector<std::pair<std::int64_t, std::string>> out;
  for (const auto& s : speeds) {
    const double m = median[s.tournament_id];
    std::string note;
    if (by_test[s.tournament_id].size() > 1 && m > 0 && s.nps > 0 &&
        (s.nps * ratio < m || s.nps > m * ratio)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s: %.2fx the median %.0f nps", s.nps < m ? "slow" : "fast",
                    s.nps / m, m);
      note = buf;
    }
    out.emplace_back(s.worker_id, note);
  }
  return out;
}

}  // namespace knightly::runner
