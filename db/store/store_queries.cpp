// Store's read side: export streaming and the `knightly query` aggregates.
#include <algorithm>
#include <bit>
#include <map>
#include <utility>

#include "db/store/game_filter.h"
#include "db/store/store.h"
#include "db/store/store_impl.h"

namespace knightly::db {

const std::string& Store::Impl::engine_name(std::int64_t id) const {
  auto it = engine_names.find(id);
  if (it == engine_names.end()) {
    Statement st(db, "SELECT id, name FROM engines");
    while (st.step()) engine_names[st.int64(0)] = st.text(1);
    it = engine_names.find(id);
    if (it == engine_names.end()) it = engine_names.emplace(id, "?").first;
  }
  return it->second;
}

std::vector<TournamentSummary> Store::tournaments() const {
  std::lock_guard lock(impl_->mutex);
  Statement st(impl_->db,
               "SELECT t.id, t.name, t.kind, t.config_text, t.config_hash, t.seed, t.status, "
               "t.started_at, t.finished_at, "
               "(SELECT count(*) FROM games g WHERE g.tournament_id = t.id) "
               "FROM tournaments t ORDER BY t.id");
  std::vector<TournamentSummary> out;
  while (st.step()) out.push_back({impl_->read_tournament(st), st.int64(9)});
  return out;
}

std::vector<EngineVersion> Store::engines() const {
  std::lock_guard lock(impl_->mutex);
  Statement st(
      impl_->db,
      "SELECT e.id, e.name, e.command, e.options, e.uci_name, e.uci_author, "
      "e.binary_sha256, e.builtin, e.first_seen, COALESCE(c.n, 0), COALESCE(c.last_at, '') "
      "FROM engines e LEFT JOIN ("
      "  SELECT eid, count(*) AS n, max(started_at) AS last_at FROM ("
      "    SELECT white_id AS eid, started_at FROM games"
      "    UNION ALL SELECT black_id, started_at FROM games) AS played GROUP BY eid"
      ") c ON c.eid = e.id ORDER BY e.name, e.id");
  std::vector<EngineVersion> out;
  while (st.step()) {
    EngineVersion v;
    v.id = st.int64(0);
    v.info.name = st.text(1);
    v.info.command = st.text(2);
    v.info.options = st.text(3);
    v.info.uci_name = st.text(4);
    v.info.uci_author = st.text(5);
    v.info.binary_sha256 = st.text(6);
    v.info.builtin = st.int64(7) != 0;
    v.first_seen = st.text(8);
    v.games = st.int64(9);
    v.last_played = st.text(10);
    out.push_back(std::move(v));
  }
  return out;
}

std::int64_t Store::count_games(const GameFilter& filter) const {
  std::lock_guard lock(impl_->mutex);
  const FilterSql f = filter_sql(filter);
  Statement st(impl_->db, "SELECT count(*) FROM games g" + f.where);
  st.bind_all(f.params);
  st.step();
  return st.int64(0);
}

namespace {

// Schedule order (export, resume) unless the newest games are asked for first.
const char* order_clause(const GameFilter& filter) {
  return filter.newest_first ? " ORDER BY g.started_at DESC, g.id DESC"
                             : " ORDER BY g.tournament_id, g.schedule_index";
}

std::string limit_clause(const GameFilter& filter, FilterSql& f) {
  if (filter.limit <= 0) return "";
  f.params.emplace_back(filter.limit);
  return " LIMIT ?";
}

}  // namespace

void Store::for_each_game(const GameFilter& filter,
                          const std::function<void(const StoredGame&)>& callback,
                          bool with_moves) const {
  std::lock_guard lock(impl_->mutex);
  FilterSql f = filter_sql(filter);
  Statement st(impl_->db,
               "SELECT g.id, g.tournament_id, g.round, g.pair, g.game_in_pair, g.schedule_index, "
               "g.white_id, g.black_id, g.opening_fen, g.opening_moves, g.opening_source, "
               "g.result, g.termination, g.reason, g.started_at, g.duration_ms, g.time_control, "
               "g.pgn FROM games g" +
                   f.where + order_clause(filter) + limit_clause(filter, f),
               Rows::Many);
  st.bind_all(f.params);
  if (with_moves && !impl_->select_moves) impl_->select_moves.emplace(impl_->db, kMoveSelect);
  StoredGame game;
  while (st.step()) {
    game.id = st.int64(0);
    game.tournament_id = st.int64(1);
    auto& r = game.record;
    r.id = {st.int32(2), st.int32(3), st.int32(4), st.int32(5)};
    game.white_engine_id = st.int64(6);
    game.black_engine_id = st.int64(7);
    r.white = impl_->engine_name(game.white_engine_id);
    r.black = impl_->engine_name(game.black_engine_id);
    r.start_fen = st.text(8);
    game.opening_moves = st.text(9);
    r.opening_source = st.text(10);
    r.result = parse_result(st.text(11)).value_or(Result::None);
    r.termination = parse_termination(st.text(12)).value_or(Termination::None);
    r.reason = st.text(13);
    r.start_time = st.text(14);
    r.duration_ms = st.int64(15);
    r.time_control = st.text(16);
    r.pgn = st.text(17);
    r.moves.clear();
    if (with_moves) {
      Statement& ms = *impl_->select_moves;
      ms.reset();
      ms.bind(1, game.id);
      while (ms.step()) r.moves.push_back(read_move(ms));
    }
    callback(game);
  }
}

std::vector<GameSummary> Store::games(const GameFilter& filter) const {
  std::lock_guard lock(impl_->mutex);
  FilterSql f = filter_sql(filter);
  Statement st(impl_->db,
               "SELECT g.id, g.tournament_id, t.name, g.round, g.pair, g.game_in_pair, "
               "g.schedule_index, g.white_id, g.black_id, g.result, g.termination, g.reason, "
               "g.plies, g.started_at, g.duration_ms, g.time_control, g.opening_source "
               "FROM games g JOIN tournaments t ON t.id = g.tournament_id" +
                   f.where + order_clause(filter) + limit_clause(filter, f));
  st.bind_all(f.params);
  std::vector<GameSummary> out;
  while (st.step()) {
    GameSummary s;
    s.id = st.int64(0);
    s.tournament_id = st.int64(1);
    s.tournament = st.text(2);
    s.game_id = {st.int32(3), st.int32(4), st.int32(5), st.int32(6)};
    s.white = impl_->engine_name(st.int64(7));
    s.black = impl_->engine_name(st.int64(8));
    s.result = parse_result(st.text(9)).value_or(Result::None);
    s.termination = parse_termination(st.text(10)).value_or(Termination::None);
    s.reason = st.text(11);
    s.plies = st.int32(12);
    s.started_at = st.text(13);
    s.duration_ms = st.int64(14);
    s.time_control = st.text(15);
    s.opening_source = st.text(16);
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<PairCount> Store::pair_counts(const GameFilter& filter) const {
  std::lock_guard lock(impl_->mutex);
  const FilterSql f = filter_sql(filter);
  // Grouped by engine ids in SQL (one pass, few groups), then merged by name here, since
  // the versions of one engine count as one player.
  Statement st(impl_->db,
               "SELECT g.white_id, g.black_id, "
               "sum(CASE WHEN g.result = '1-0' THEN 1 ELSE 0 END), "
               "sum(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END), "
               "sum(CASE WHEN g.result = '0-1' THEN 1 ELSE 0 END) FROM games g" +
                   f.where + " GROUP BY g.white_id, g.black_id");
  st.bind_all(f.params);
  std::map<std::pair<std::string, std::string>, PairCount> merged;
  while (st.step()) {
    const std::string& w = impl_->engine_name(st.int64(0));
    const std::string& b = impl_->engine_name(st.int64(1));
    PairCount& c = merged[{w, b}];
    c.white = w;
    c.black = b;
    c.white_wins += st.int64(2);
    c.draws += st.int64(3);
    c.black_wins += st.int64(4);
  }
  std::vector<PairCount> out;
  out.reserve(merged.size());
  for (auto& [key, c] : merged) out.push_back(std::move(c));
  return out;
}

std::vector<WorkerState> Store::worker_states() const {
  std::lock_guard lock(impl_->mutex);
  std::map<std::int64_t, WorkerState> by_id;
  {
    Statement st(impl_->db,
                 "SELECT w.id, now_ms() - w.last_seen_ms, "
                 "(SELECT count(*) FROM pairs p WHERE p.worker_id = w.id AND p.state = 'leased'), "
                 "(SELECT count(*) FROM pairs p WHERE p.worker_id = w.id AND p.state = 'leased' "
                 "AND p.lease_until_ms < now_ms()) FROM workers w ORDER BY w.id");
    while (st.step()) {
      WorkerState& w = by_id[st.int64(0)];
      w.id = st.int64(0);
      w.seen_ago_ms = st.int64(1);
      w.leases = st.int64(2);
      w.leases_expired = st.int64(3);
    }
  }
  Statement st(
      impl_->db,
      "SELECT DISTINCT x.wid, t.name, t.status FROM ("
      "SELECT worker_id AS wid, tournament_id AS tid FROM games WHERE worker_id IS NOT NULL "
      "UNION SELECT worker_id, tournament_id FROM pairs WHERE worker_id IS NOT NULL "
      "UNION SELECT worker_id, tournament_id FROM superseded_games) x "
      "JOIN tournaments t ON t.id = x.tid ORDER BY x.wid, t.name");
  while (st.step()) {
    auto it = by_id.find(st.int64(0));
    if (it == by_id.end()) continue;
    it->second.tournaments.push_back(st.text(1));
    if (st.text(2) == "running") it->second.tournament_running = true;
  }
  std::vector<WorkerState> out;
  for (auto& [id, w] : by_id) out.push_back(std::move(w));
  return out;
}

std::vector<VersionPairCount> Store::version_pair_counts(const GameFilter& filter) const {
  std::lock_guard lock(impl_->mutex);
  const FilterSql f = filter_sql(filter);
  Statement st(impl_->db,
               "SELECT g.tournament_id, g.white_id, g.black_id, g.time_control, "
               "sum(CASE WHEN g.result = '1-0' THEN 1 ELSE 0 END), "
               "sum(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END), "
               "sum(CASE WHEN g.result = '0-1' THEN 1 ELSE 0 END) FROM games g" +
                   f.where +
                   " GROUP BY g.tournament_id, g.white_id, g.black_id, g.time_control "
                   "ORDER BY g.tournament_id, g.white_id, g.black_id, g.time_control");
  st.bind_all(f.params);
  std::vector<VersionPairCount> out;
  while (st.step())
    out.push_back(
        {st.int64(0), st.int64(1), st.int64(2), st.text(3), st.int64(4), st.int64(5), st.int64(6)});
  return out;
}

std::vector<Standing> standings_from(const std::vector<PairCount>& counts) {
  std::map<std::string, Standing> by_name;
  for (const PairCount& c : counts) {
    Standing& w = by_name[c.white];
    w.engine = c.white;
    w.games += c.games();
    w.wins += c.white_wins;
    w.draws += c.draws;
    w.losses += c.black_wins;
    Standing& b = by_name[c.black];
    b.engine = c.black;
    b.games += c.games();
    b.wins += c.black_wins;
    b.draws += c.draws;
    b.losses += c.white_wins;
  }
  std::vector<Standing> out;
  for (auto& [name, s] : by_name) out.push_back(std::move(s));
  // Score first: 23.5 of 24 ranks above 24 of 40 (and so does its Elo, which grows with the
  // score); equal scores by points, then by name (the map's order, kept by the stable sort).
  std::stable_sort(out.begin(), out.end(), [](const Standing& a, const Standing& b) {
    if (a.score() != b.score()) return a.score() > b.score();
    return a.points() > b.points();
  });
  return out;
}

std::vector<Standing> Store::standings(const GameFilter& filter) const {
  return standings_from(pair_counts(filter));
}

std::vector<HeadToHead> head_to_head_from(const std::vector<PairCount>& counts) {
  std::map<std::pair<std::string, std::string>, HeadToHead> cells;
  auto cell = [&](const std::string& e, const std::string& o) -> HeadToHead& {
    HeadToHead& h = cells[{e, o}];
    h.engine = e;
    h.opponent = o;
    return h;
  };
  for (const PairCount& c : counts) {
    HeadToHead& w = cell(c.white, c.black);
    w.wins += c.white_wins;
    w.draws += c.draws;
    w.losses += c.black_wins;
    HeadToHead& b = cell(c.black, c.white);
    b.wins += c.black_wins;
    b.draws += c.draws;
    b.losses += c.white_wins;
  }
  std::vector<HeadToHead> out;
  for (auto& [key, h] : cells) out.push_back(std::move(h));
  return out;
}

std::vector<HeadToHead> Store::head_to_head(const GameFilter& filter) const {
  return head_to_head_from(pair_counts(filter));
}

std::vector<TerminationCount> Store::termination_counts(const GameFilter& filter,
                                                        bool by_reason) const {
  std::lock_guard lock(impl_->mutex);
  const FilterSql f = filter_sql(filter);
  const std::string cols = by_reason ? "g.termination, g.reason" : "g.termination, ''";
  const std::string group = by_reason ? "g.termination, g.reason" : "g.termination";
  Statement st(impl_->db, "SELECT " + cols + ", count(*) FROM games g" + f.where + " GROUP BY " +
                              group + " ORDER BY count(*) DESC, " + group);
  st.bind_all(f.params);
  std::vector<TerminationCount> out;
  while (st.step()) out.push_back({st.text(0), st.text(1), st.int64(2)});
  return out;
}

void Store::for_each_pair_result(const GameFilter& filter,
                                 const std::function<void(const PairResult&)>& callback) const {
  std::lock_guard lock(impl_->mutex);
  const FilterSql f = filter_sql(filter);
  Statement st(impl_->db,
               "SELECT g.tournament_id, g.round, g.pair, g.game_in_pair, g.white_id, g.black_id, "
               "g.result FROM games g" +
                   f.where + " ORDER BY g.tournament_id, g.round, g.pair, g.game_in_pair",
               Rows::Many);
  st.bind_all(f.params);
  PairResult current;
  bool open = false;
  while (st.step()) {
    const std::int64_t t = st.int64(0);
    const int round = st.int32(1);
    const int pair = st.int32(2);
    if (open && (t != current.tournament_id || round != current.round || pair != current.pair)) {
      callback(current);
      open = false;
    }
    if (!open) {
      current.tournament_id = t;
      current.round = round;
      current.pair = pair;
      current.games.clear();
      open = true;
    }
    current.games.push_back({st.int32(3), impl_->engine_name(st.int64(4)),
                             impl_->engine_name(st.int64(5)),
                             parse_result(st.text(6)).value_or(Result::None)});
  }
  if (open) callback(current);
}

std::vector<PairResult> Store::pair_results(const GameFilter& filter) const {
  std::vector<PairResult> out;
  for_each_pair_result(filter, [&](const PairResult& p) { out.push_back(p); });
  return out;
}

}  // namespace knightly::db
