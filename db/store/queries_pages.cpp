// The Store's read queries for the pages of `knightly report` and `knightly serve`: move statistics
// per engine, results in stored order, the game list by pages, one game with its moves, and a
// generation key for caches. Plain SQL with bound parameters (no PRAGMAs, no SQLite-only
// functions), so the same text serves every backend.
#include <algorithm>
#include <bit>
#include <map>
#include <utility>

#include "db/store/game_filter.h"
#include "db/store/queries.h"
#include "db/store/store_core.h"

namespace knightly::db {

namespace {

// " WHERE <filter> AND <term>" whether or not the filter has terms.
std::string and_where(const FilterSql& f, const std::string& term) {
  return f.where.empty() ? " WHERE " + term : f.where + " AND " + term;
}

// 1 when the game starts with Black to move, else 0 (an empty opening_fen is the initial
// position). A FEN's castling field holds only KQkq, file letters or '-': " w " can only be the
// side to move, and " b " is unless the castling field is a lone b-file right.
constexpr const char* kBlackFirst =
    "(CASE WHEN g.opening_fen LIKE '% b %' AND g.opening_fen NOT LIKE '% w %' THEN 1 ELSE 0 "
    "END)";

}  // namespace

std::vector<MoveStats> Queries::move_stats(const GameFilter& filter,
                                           std::int64_t newest_games) const {
  std::lock_guard lock(core_.mutex);
  FilterSql f = filter_sql(filter);
  std::vector<Value> params = f.params;
  std::string where = and_where(f, "m.book = 0");
  if (newest_games > 0) {
    // The newest N filtered games are those with an id at or above the N-th newest one's.
    where += " AND g.id >= (SELECT min(x.id) FROM (SELECT g.id FROM games g" + f.where +
             " ORDER BY g.id DESC LIMIT ?) x)";
    params.insert(params.end(), f.params.begin(), f.params.end());
    params.emplace_back(newest_games);
  }
  // moves.ply counts from 1; `side` is even for White's moves.
  const std::string side = std::string("(m.ply - 1 + ") + kBlackFirst + ")";
  Statement st(core_.db,
               "SELECT CASE WHEN " + side +
                   " % 2 = 0 THEN g.white_id ELSE g.black_id END AS eid, " + side +
                   " / 2 + 1 AS mv, count(*), "
                   "CAST(sum(CASE WHEN m.mate IS NULL THEN m.depth ELSE 0 END) AS BIGINT), "
                   "CAST(sum(m.nodes) AS BIGINT), "
                   "CAST(sum(m.time_ms) AS BIGINT), "
                   "CAST(sum(CASE WHEN m.time_ms > 0 THEN 1 ELSE 0 END) AS BIGINT), "
                   "CAST(sum(CASE WHEN m.time_ms > 0 THEN m.nodes ELSE 0 END) AS BIGINT), "
                   "CAST(sum(CASE WHEN m.time_ms > 0 THEN m.time_ms ELSE 0 END) AS BIGINT), "
                   "count(m.clock_left_ms), CAST(COALESCE(sum(m.clock_left_ms), 0) AS BIGINT), "
                   "CAST(sum(CASE WHEN m.mate IS NULL THEN 1 ELSE 0 END) AS BIGINT) "
                   "FROM games g JOIN moves m ON m.game_id = g.id" +
                   where + " GROUP BY eid, mv");
  st.bind_all(params);
  // Versions of one engine count as one engine: merged by name.
  std::map<std::pair<std::string, int>, MoveStats> merged;
  while (st.step()) {
    const std::string& name = core_.engine_name(st.int64(0));
    const int mv = st.int32(1);
    MoveStats& s = merged[{name, mv}];
    s.engine = name;
    s.move_number = mv;
    s.moves += st.int64(2);
    s.depth_sum += st.int64(3);
    s.nodes_sum += st.int64(4);
    s.time_ms_sum += st.int64(5);
    s.timed_moves += st.int64(6);
    s.timed_nodes += st.int64(7);
    s.timed_ms += st.int64(8);
    s.clock_moves += st.int64(9);
    s.clock_left_sum += st.int64(10);
    s.depth_moves += st.int64(11);
  }
  std::vector<MoveStats> out;
  out.reserve(merged.size());
  for (auto& [key, s] : merged) out.push_back(std::move(s));
  return out;
}

std::vector<EngineHealth> Queries::engine_health(const GameFilter& filter) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql f = filter_sql(filter);
  std::map<std::string, EngineHealth> merged;
  auto of = [&](std::int64_t engine_id) -> EngineHealth& {
    const std::string& name = core_.engine_name(engine_id);
    EngineHealth& h = merged[name];
    h.engine = name;
    return h;
  };
  // Games played, lost by each fault (the loser is the side the result goes against), and
  // the latency of each side's moves as its game's row sums it (games.*_latency_*).
  const auto side = [&](const char* colour, const char* lost_when) {
    return std::string("SELECT g.") + colour + "_id AS eid, g.termination, CASE WHEN g.result = '" +
           lost_when + "' THEN 1 ELSE 0 END AS lost, g." + colour + "_latency_moves AS lm, g." +
           colour + "_latency_sum_ms AS ls, g." + colour + "_latency_max_ms AS lx FROM games g" +
           f.where;
  };
  Statement games(core_.db,
                  "SELECT e.eid, count(*), "
                  "CAST(sum(CASE WHEN e.lost = 1 AND e.termination = 'time forfeit' THEN 1 ELSE 0 "
                  "END) AS BIGINT), "
                  "CAST(sum(CASE WHEN e.lost = 1 AND e.termination = 'disconnect' THEN 1 ELSE 0 "
                  "END) AS BIGINT), "
                  "CAST(sum(CASE WHEN e.lost = 1 AND e.termination = 'stall' THEN 1 ELSE 0 END) "
                  "AS BIGINT), "
                  "CAST(sum(CASE WHEN e.lost = 1 AND e.termination = 'illegal move' THEN 1 ELSE 0 "
                  "END) AS BIGINT), "
                  "CAST(sum(e.lm) AS BIGINT), CAST(sum(e.ls) AS BIGINT), "
                  "CAST(coalesce(max(CASE WHEN e.lm > 0 THEN e.lx END), 0) AS BIGINT) "
                  "FROM (" +
                      side("white", "0-1") + " UNION ALL " + side("black", "1-0") +
                      ") e GROUP BY e.eid");
  std::vector<Value> twice = f.params;
  twice.insert(twice.end(), f.params.begin(), f.params.end());
  games.bind_all(twice);
  while (games.step()) {
    EngineHealth& h = of(games.int64(0));
    h.games += games.int64(1);
    h.time_losses += games.int64(2);
    h.disconnects += games.int64(3);
    h.stalls += games.int64(4);
    h.illegal_moves += games.int64(5);
    const std::int64_t moves = games.int64(6), max = games.int64(8);
    if (moves == 0) continue;
    h.latency_max_ms = h.latency_moves > 0 ? std::max(h.latency_max_ms, max) : max;
    h.latency_moves += moves;
    h.latency_sum_ms += games.int64(7);
  }
  std::vector<EngineHealth> out;
  out.reserve(merged.size());
  for (auto& [name, h] : merged) out.push_back(std::move(h));
  return out;
}

void Queries::for_each_result(const GameFilter& filter,
                              const std::function<void(const StoredResult&)>& callback) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql f = filter_sql(filter);
  Statement st(core_.db,
               "SELECT g.id, g.tournament_id, g.round, g.pair, g.game_in_pair, g.white_id, "
               "g.black_id, g.result FROM games g" +
                   f.where + " ORDER BY g.id");
  st.bind_all(f.params);
  StoredResult r;
  while (st.step()) {
    r.id = st.int64(0);
    r.tournament_id = st.int64(1);
    r.round = st.int32(2);
    r.pair = st.int32(3);
    r.game_in_pair = st.int32(4);
    r.white = core_.engine_name(st.int64(5));
    r.black = core_.engine_name(st.int64(6));
    r.result = parse_result(st.text(7)).value_or(Result::None);
    callback(r);
  }
}

std::vector<GameSummary> Queries::page_by_id(const GameFilter& filter, std::int64_t bound,
                                             bool newest_first, int limit) const {
  std::lock_guard lock(core_.mutex);
  FilterSql f = filter_sql(filter);
  std::string where = f.where;
  if (bound > 0) {
    where = and_where(f, newest_first ? "g.id < ?" : "g.id > ?");
    f.params.emplace_back(bound);
  }
  f.params.emplace_back(static_cast<std::int64_t>(limit));
  Statement st(core_.db, std::string(kSummarySelect) + where + " ORDER BY g.id" +
                             (newest_first ? " DESC" : "") + " LIMIT ?");
  st.bind_all(f.params);
  std::vector<GameSummary> out;
  while (st.step()) out.push_back(read_summary(st));
  return out;
}

std::vector<GameSummary> Queries::game_page(const GameFilter& filter, std::int64_t before_id,
                                            int limit) const {
  return page_by_id(filter, before_id, true, limit);
}

std::vector<GameSummary> Queries::game_page_after(const GameFilter& filter, std::int64_t after_id,
                                                  int limit) const {
  return page_by_id(filter, after_id, false, limit);
}

std::optional<StoredGame> Queries::game(std::int64_t id) const {
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db, std::string(kStoredGameSelect) + " WHERE g.id = ?");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  StoredGame game;
  read_stored_game(st, game);
  read_moves(st, game);
  return game;
}

std::string Queries::data_generation() const {
  std::lock_guard lock(core_.mutex);
  // The newest game id is found in the primary key; the tournaments table is small, and so
  // is the set of leased pairs (the index pairs_leased holds only them).
  Statement g(core_.db, "SELECT COALESCE(max(id), 0) FROM games");
  g.step();
  std::string out = "g" + std::to_string(g.int64(0));
  Statement p(core_.db,
              "SELECT count(*), COALESCE(sum(attempt), 0) FROM pairs WHERE state = 'leased'");
  p.step();
  out += " p" + std::to_string(p.int64(0)) + ":" + std::to_string(p.int64(1));
  Statement t(core_.db, "SELECT id, status FROM tournaments ORDER BY id");
  while (t.step()) out += " t" + std::to_string(t.int64(0)) + ":" + t.text(1);
  return out;
}

std::optional<std::int64_t> Queries::others_wrote_version() const {
  if (core_.db.dialect() != Dialect::Sqlite) return std::nullopt;
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db, "PRAGMA data_version");
  st.step();
  return st.int64(0);
}

std::vector<LeasedPair> Queries::leased_pairs() const {
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db,
               "SELECT p.tournament_id, p.round, p.pair, p.games, p.schedule_index, p.stored_mask, "
               "COALESCE(w.host, ''), COALESCE(w.pid, 0), p.lease_until_ms - now_ms(), "
               "COALESCE(now_ms() - w.last_seen_ms, 0), p.live_game, p.live_ply, p.live_fen "
               "FROM pairs p LEFT JOIN workers w ON w.id = p.worker_id "
               "WHERE p.state = 'leased' AND p.lease_until_ms > now_ms() "
               "ORDER BY p.tournament_id, p.schedule_index");
  std::vector<LeasedPair> out;
  while (st.step()) {
    LeasedPair l;
    l.tournament_id = st.int64(0);
    l.round = st.int32(1);
    l.pair = st.int32(2);
    l.games = st.int32(3);
    l.schedule_index = st.int32(4);
    l.stored_mask = st.int32(5);
    l.host = st.text(6);
    l.pid = st.int64(7);
    l.lease_left_ms = st.int64(8);
    l.seen_ago_ms = st.int64(9);
    l.live_game = st.int32(10);
    l.live_ply = st.int32(11);
    l.live_fen = st.text(12);
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace knightly::db
