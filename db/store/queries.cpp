// The Store's read queries: export streaming and the `knightly query` aggregates.
#include "db/store/queries.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>

#include "db/store/game_filter.h"
#include "db/store/store_core.h"

namespace knightly::db {

Queries::Queries(StoreCore& core) : core_(core) {}
Queries::~Queries() = default;

std::vector<GameId> Queries::stored_game_ids(std::int64_t tournament_id) const {
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db,
               "SELECT round, pair, game_in_pair, schedule_index FROM games "
               "WHERE tournament_id = ? ORDER BY schedule_index, round, pair, game_in_pair");
  st.bind(1, tournament_id);
  std::vector<GameId> out;
  while (st.step()) out.push_back({st.int32(0), st.int32(1), st.int32(2), st.int32(3)});
  return out;
}

GameSummary Queries::read_summary(const Statement& st) const {
  GameSummary s;
  s.id = st.int64(0);
  s.tournament_id = st.int64(1);
  s.tournament = st.text(2);
  s.game_id = {st.int32(3), st.int32(4), st.int32(5), st.int32(6)};
  s.white = core_.engine_name(st.int64(7));
  s.black = core_.engine_name(st.int64(8));
  s.result = parse_result(st.text(9)).value_or(Result::None);
  s.termination = parse_termination(st.text(10)).value_or(Termination::None);
  s.reason = st.text(11);
  s.plies = st.int32(12);
  s.started_at = st.text(13);
  s.duration_ms = st.int64(14);
  s.time_control = st.text(15);
  s.opening_source = st.text(16);
  return s;
}

void Queries::read_stored_game(const Statement& st, StoredGame& game) const {
  game.id = st.int64(0);
  game.tournament_id = st.int64(1);
  auto& r = game.record;
  r.id = {st.int32(2), st.int32(3), st.int32(4), st.int32(5)};
  game.white_engine_id = st.int64(6);
  game.black_engine_id = st.int64(7);
  r.white = core_.engine_name(game.white_engine_id);
  r.black = core_.engine_name(game.black_engine_id);
  r.start_fen = st.text(8);
  game.opening_moves = st.text(9);
  r.opening_source = st.text(10);
  r.result = parse_result(st.text(11)).value_or(Result::None);
  r.termination = parse_termination(st.text(12)).value_or(Termination::None);
  r.reason = st.text(13);
  r.start_time = st.text(14);
  r.duration_ms = st.int64(15);
  r.time_control = st.text(16);
  r.moves.clear();
  game.moves_in_rows = st.is_null(18);
  if (st.is_null(20)) {
    r.pgn = st.text(17);
    return;
  }
  // An imported game kept as its tags: the movetext written from the row's lists.
  read_moves(st, game);
  r.pgn = st.text(20) + plain_movetext(r);
}

void Queries::read_moves(const Statement& st, StoredGame& game) const {
  auto& r = game.record;
  if (game.moves_in_rows) {
    if (!select_moves_) select_moves_.emplace(core_.db, kMoveSelect);
    Statement& ms = *select_moves_;
    ms.reset();
    ms.bind(1, game.id);
    while (ms.step()) r.moves.push_back(read_move(ms));
    return;
  }
  // An imported game's moves from its own row: UCI and SAN lists of one length, the first
  // ones the book moves opening_moves lists (read already when the PGN text needed them).
  if (!r.moves.empty()) return;
  const std::string uci = st.text(18), san = st.text(19);
  std::size_t book = 0;
  for (std::size_t at = 0; at < game.opening_moves.size(); ++at)
    book += at == 0 || game.opening_moves[at] == ' ';
  for (std::size_t u = 0, s = 0; u < uci.size() && s < san.size();) {
    const std::size_t ue = std::min(uci.find(' ', u), uci.size());
    const std::size_t se = std::min(san.find(' ', s), san.size());
    MoveRecord m;
    m.uci = uci.substr(u, ue - u);
    m.san = san.substr(s, se - s);
    m.book = r.moves.size() < book;
    r.moves.push_back(std::move(m));
    u = ue + 1;
    s = se + 1;
  }
}

std::int64_t Queries::count_games(const GameFilter& filter) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql f = filter_sql(filter);
  Statement st(core_.db, "SELECT count(*) FROM games g" + f.where);
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

void Queries::for_each_game(const GameFilter& filter,
                            const std::function<void(const StoredGame&)>& callback,
                            bool with_moves) const {
  std::lock_guard lock(core_.mutex);
  FilterSql f = filter_sql(filter);
  Statement st(
      core_.db,
      std::string(kStoredGameSelect) + f.where + order_clause(filter) + limit_clause(filter, f),
      Rows::Many);
  st.bind_all(f.params);
  StoredGame game;
  while (st.step()) {
    read_stored_game(st, game);
    if (with_moves) read_moves(st, game);
    callback(game);
  }
}

std::vector<GameSummary> Queries::games(const GameFilter& filter) const {
  std::lock_guard lock(core_.mutex);
  FilterSql f = filter_sql(filter);
  Statement st(core_.db, std::string(kSummarySelect) + f.where + order_clause(filter) +
                             limit_clause(filter, f));
  st.bind_all(f.params);
  std::vector<GameSummary> out;
  while (st.step()) out.push_back(read_summary(st));
  return out;
}

std::vector<PairCount> Queries::pair_counts(const GameFilter& filter) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql f = filter_sql(filter);
  // Grouped by engine ids in SQL (one pass, few groups), then merged by name here, since
  // the versions of one engine count as one player.
  Statement st(core_.db,
               "SELECT g.white_id, g.black_id, "
               "sum(CASE WHEN g.result = '1-0' THEN 1 ELSE 0 END), "
               "sum(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END), "
               "sum(CASE WHEN g.result = '0-1' THEN 1 ELSE 0 END) FROM games g" +
                   f.where + " GROUP BY g.white_id, g.black_id");
  st.bind_all(f.params);
  std::map<std::pair<std::string, std::string>, PairCount> merged;
  while (st.step()) {
    const std::string& w = core_.engine_name(st.int64(0));
    const std::string& b = core_.engine_name(st.int64(1));
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

std::vector<VersionPairCount> Queries::version_pair_counts(const GameFilter& filter) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql f = filter_sql(filter);
  Statement st(core_.db,
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

std::vector<Standing> Queries::standings(const GameFilter& filter) const {
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

std::vector<HeadToHead> Queries::head_to_head(const GameFilter& filter) const {
  return head_to_head_from(pair_counts(filter));
}

std::vector<TerminationCount> Queries::termination_counts(const GameFilter& filter,
                                                          bool by_reason) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql f = filter_sql(filter);
  const std::string cols = by_reason ? "g.termination, g.reason" : "g.termination, ''";
  const std::string group = by_reason ? "g.termination, g.reason" : "g.termination";
  Statement st(core_.db, "SELECT " + cols + ", count(*) FROM games g" + f.where + " GROUP BY " +
                             group + " ORDER BY count(*) DESC, " + group);
  st.bind_all(f.params);
  std::vector<TerminationCount> out;
  while (st.step()) out.push_back({st.text(0), st.text(1), st.int64(2)});
  return out;
}

void Queries::for_each_pair_result(const GameFilter& filter,
                                   const std::function<void(const PairResult&)>& callback) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql f = filter_sql(filter);
  Statement st(core_.db,
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
    current.games.push_back({st.int32(3), core_.engine_name(st.int64(4)),
                             core_.engine_name(st.int64(5)),
                             parse_result(st.text(6)).value_or(Result::None)});
  }
  if (open) callback(current);
}

std::vector<PairResult> Queries::pair_results(const GameFilter& filter) const {
  std::vector<PairResult> out;
  for_each_pair_result(filter, [&](const PairResult& p) { out.push_back(p); });
  return out;
}

}  // namespace knightly::db
