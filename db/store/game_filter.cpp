#include "db/store/game_filter.h"

namespace knightly::db {

namespace {

std::string placeholders(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += i ? ",?" : "?";
  return s;
}

}  // namespace

FilterSql filter_sql(const GameFilter& f) {
  FilterSql out;
  std::vector<std::string> terms;

  if (!f.tournaments.empty() || !f.tournament_ids.empty()) {
    std::vector<std::string> any;
    if (!f.tournaments.empty()) {
      any.push_back(
          "g.tournament_id IN (SELECT id FROM tournaments WHERE status <> 'restarted' "
          "AND name IN (" +
          placeholders(f.tournaments.size()) + "))");
      for (const auto& name : f.tournaments) out.params.emplace_back(name);
    }
    if (!f.tournament_ids.empty()) {
      any.push_back("g.tournament_id IN (" + placeholders(f.tournament_ids.size()) + ")");
      for (auto id : f.tournament_ids) out.params.emplace_back(id);
    }
    terms.push_back(any.size() == 1 ? any[0] : "(" + any[0] + " OR " + any[1] + ")");
  }
  if (!f.engines.empty()) {
    const std::string set =
        "(SELECT id FROM engines WHERE name IN (" + placeholders(f.engines.size()) + "))";
    terms.push_back(std::string("(g.white_id IN ") + set +
                    (f.both_engines_in_set ? " AND " : " OR ") + "g.black_id IN " + set + ")");
    for (int side = 0; side < 2; ++side)
      for (const auto& name : f.engines) out.params.emplace_back(name);
  }
  if (!f.result.empty()) {
    terms.push_back("g.result = ?");
    out.params.emplace_back(f.result);
  }
  if (!f.termination.empty()) {
    terms.push_back("g.termination = ?");
    out.params.emplace_back(f.termination);
  }
  if (!f.since.empty()) {
    terms.push_back("g.started_at >= ?");
    out.params.emplace_back(f.since);
  }
  if (!f.until.empty()) {
    terms.push_back("g.started_at < ?");
    out.params.emplace_back(f.until);
  }
  if (f.first_stored > 0) {
    // The same filter inside (its alias g shadows the outer one), cut to the first N stored.
    GameFilter all = f;
    all.first_stored = 0;
    FilterSql inner = filter_sql(all);
    terms.push_back("g.id IN (SELECT g.id FROM games g" + inner.where + " ORDER BY g.id LIMIT ?)");
    out.params.insert(out.params.end(), inner.params.begin(), inner.params.end());
    out.params.emplace_back(f.first_stored);
  }
  for (std::size_t i = 0; i < terms.size(); ++i) out.where += (i ? " AND " : " WHERE ") + terms[i];
  return out;
}

}  // namespace knightly::db
