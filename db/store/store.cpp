#include "db/store/store.h"

#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <ctime>

#include "db/store/database_url.h"
#include "db/store/sha256.h"
#include "db/store/store_impl.h"
#include "db/store/transaction.h"

namespace knightly::db {


namespace {

StoreError make_error(ErrorKind kind, const std::string& path, const std::string& what) {
  return StoreError{kind, path, "database " + path + ": " + what, 0, "", false};
}

std::int64_t as_int64(std::uint64_t v) {
  return std::bit_cast<std::int64_t>(v);
}

}  // namespace

// ---------------------------------------------------------------- tournaments

Tournament Store::Impl::read_tournament(const Statement& st) const {
  Tournament t;
  t.id = st.int64(0);
  t.name = st.text(1);
  t.kind = parse_kind(st.text(2)).value_or(TournamentKind::Run);
  t.config_text = st.text(3);
  t.config_hash = st.text(4);
  t.seed = std::bit_cast<std::uint64_t>(st.int64(5));
  t.status = parse_status(st.text(6)).value_or(TournamentStatus::Running);
  t.started_at = st.text(7);
  t.finished_at = st.text(8);
  return t;
}

std::optional<Tournament> Store::find_tournament(std::string_view name) const {
  std::lock_guard lock(impl_->mutex);
  Statement st(impl_->db, std::string("SELECT ") + kTournamentColumns +
                              " FROM tournaments WHERE name = ? AND status <> 'restarted'");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  return impl_->read_tournament(st);
}

std::optional<Tournament> Store::tournament(std::int64_t id) const {
  std::lock_guard lock(impl_->mutex);
  Statement st(impl_->db,
               std::string("SELECT ") + kTournamentColumns + " FROM tournaments WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) return std::nullopt;
  return impl_->read_tournament(st);
}

std::int64_t insert_tournament(Database& db, const NewTournament& t) {
  Statement st(db,
               "INSERT INTO tournaments (name, kind, config_text, config_hash, seed, status, "
               "started_at) VALUES (?, ?, ?, ?, ?, 'running', ?)" +
                   std::string(returning_id(db.dialect())));
  // A config naming its database by URL keeps the URL, never its password.
  const std::string config = redact_urls_in_text(t.config_text);
  st.bind(1, t.name)
      .bind(2, kind_text(t.kind))
      .bind(3, config)
      .bind(4, sha256_hex(config))
      .bind(5, as_int64(t.seed))
      .bind(6, t.started_at.empty() ? utc_now_iso() : t.started_at);
  std::int64_t id = 0;
  try {
    id = st.inserted_id();
  } catch (const StoreException& e) {
    if (e.kind() != ErrorKind::Conflict) throw;
    StoreError err = e.error();
    err.message = "database " + db.path() + ": a tournament named '" + t.name +
                  "' already exists (resume it, or restart it)";
    throw StoreException(err);
  }
  return id;
}

Tournament Store::create_tournament(const NewTournament& t) {
  std::lock_guard lock(impl_->mutex);
  const std::int64_t id = impl_->write("creating tournament '" + t.name + "'",
                                       [&] { return insert_tournament(impl_->db, t); });
  return *tournament(id);
}

Tournament Store::restart_tournament(std::int64_t old_id, const NewTournament& t) {
  std::lock_guard lock(impl_->mutex);
  const std::int64_t id = impl_->write("restarting tournament '" + t.name + "'", [&] {
    Statement mark(impl_->db,
                   "UPDATE tournaments SET status = 'restarted', "
                   "finished_at = COALESCE(finished_at, ?) WHERE id = ?");
    mark.bind(1, utc_now_iso()).bind(2, old_id).run();
    return insert_tournament(impl_->db, t);
  });
  return *tournament(id);
}

void Store::set_tournament_status(std::int64_t id, TournamentStatus status) {
  std::lock_guard lock(impl_->mutex);
  impl_->write("setting the status of tournament " + std::to_string(id), [&] {
    // Running again (a resume) also forgets a stop request and the old decision.
    Statement st(impl_->db,
                 status == TournamentStatus::Running
                     ? "UPDATE tournaments SET status = ?, finished_at = ?, stop_requested = 0, "
                       "decision = NULL WHERE id = ?"
                     : "UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ?");
    st.bind(1, status_text(status));
    if (status == TournamentStatus::Running)
      st.bind_null(2);
    else
      st.bind(2, utc_now_iso());
    st.bind(3, id).run();
  });
}

// ---------------------------------------------------------------- engines

std::int64_t Store::upsert_engine(const EngineInfo& e) {
  std::lock_guard lock(impl_->mutex);
  const std::string what = "registering engine " + e.name;
  const std::int64_t id = impl_->write(what, [&] {
    Statement st(impl_->db,
                 "INSERT INTO engines (name, command, options, uci_name, uci_author, "
                 "binary_sha256, builtin, first_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (name, command, options, binary_sha256) DO UPDATE SET "
                 "uci_name = CASE WHEN engines.uci_name = '' THEN excluded.uci_name "
                 "ELSE engines.uci_name END, "
                 "uci_author = CASE WHEN engines.uci_author = '' THEN excluded.uci_author "
                 "ELSE engines.uci_author END "
                 "RETURNING id");
    st.bind(1, e.name)
        .bind(2, e.command)
        .bind(3, e.options)
        .bind(4, e.uci_name)
        .bind(5, e.uci_author)
        .bind(6, e.binary_sha256)
        .bind(7, e.builtin ? 1 : 0)
        .bind(8, utc_now_iso());
    if (!st.step())
      throw StoreException(describe_error(ErrorKind::Io, impl_->db.path(), what, "no id returned"));
    const std::int64_t row = st.int64(0);
    st.run();  // finish the statement before the commit
    return row;
  });
  impl_->engine_names[id] = e.name;
  return id;
}

std::optional<std::string> Store::binary_sha256(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  const std::int64_t size = info.st_size;
  const std::int64_t mtime_ns =
      std::int64_t(info.st_mtim.tv_sec) * 1000000000 + std::int64_t(info.st_mtim.tv_nsec);
  std::lock_guard lock(impl_->mutex);
  {
    Statement st(impl_->db,
                 "SELECT sha256 FROM binary_hashes WHERE path = ? AND size = ? AND mtime_ns = ?");
    st.bind(1, path).bind(2, size).bind(3, mtime_ns);
    if (st.step()) return st.text(0);
  }
  auto hash = sha256_file(path);
  if (!hash || impl_->options.mode == OpenMode::ReadOnly) return hash;
  impl_->write("remembering the hash of " + path, [&] {
    Statement put(impl_->db,
                  "INSERT INTO binary_hashes (path, size, mtime_ns, sha256) VALUES (?, ?, ?, ?) "
                  "ON CONFLICT (path) DO UPDATE SET size = excluded.size, "
                  "mtime_ns = excluded.mtime_ns, sha256 = excluded.sha256");
    put.bind(1, path).bind(2, size).bind(3, mtime_ns).bind(4, *hash);
    put.run();
  });
  return hash;
}

std::optional<std::int64_t> Store::find_engine(std::string_view name) const {
  std::lock_guard lock(impl_->mutex);
  Statement st(impl_->db, "SELECT max(id) FROM engines WHERE name = ?");
  st.bind(1, name);
  if (!st.step()) return std::nullopt;
  return st.opt_int64(0);
}

// ---------------------------------------------------------------- games

std::string game_text(std::int64_t tournament_id, const GameId& id) {
  return "storing game (round " + std::to_string(id.round) + ", pair " + std::to_string(id.pair) +
         ", game " + std::to_string(id.game_in_pair) + ") of tournament " +
         std::to_string(tournament_id);
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

MoveRecord read_move(const Statement& ms) {
  MoveRecord m;
  m.uci = ms.text(0);
  m.san = ms.text(1);
  if (!ms.is_null(2)) m.eval.score_cp = ms.int32(2);
  if (!ms.is_null(3)) m.eval.mate = ms.int32(3);
  m.eval.depth = ms.int32(4);
  m.eval.seldepth = ms.int32(5);
  m.eval.nodes = std::bit_cast<std::uint64_t>(ms.int64(6));
  m.time_ms = ms.int64(7);
  m.clock_left_ms = ms.is_null(8) ? -1 : ms.int64(8);
  m.book = ms.int64(9) != 0;
  if (!ms.is_null(10)) m.eval.nps = std::bit_cast<std::uint64_t>(ms.int64(10));
  if (!ms.is_null(11)) m.eval.hashfull = ms.int32(11);
  if (!ms.is_null(12)) m.eval.tbhits = std::bit_cast<std::uint64_t>(ms.int64(12));
  if (!ms.is_null(13)) m.latency_ms = ms.int64(13);
  if (!ms.is_null(14)) m.eval.pv = ms.text(14);
  if (!ms.is_null(15)) {
    const std::string lines = ms.text(15);
    for (std::size_t at = 0; at <= lines.size();) {
      const std::size_t end = std::min(lines.find('\n', at), lines.size());
      m.lines.push_back(lines.substr(at, end - at));
      at = end + 1;
    }
  }
  return m;
}

namespace {

std::string opening_moves_text(const GameRecord& g) {
  std::string out;
  for (const auto& m : g.moves) {
    if (!m.book) break;
    if (!out.empty()) out += ' ';
    out += m.uci;
  }
  return out;
}

}  // namespace

void check_game(const Database& db, const GameRecord& g) {
  if (g.result == Result::None)
    throw StoreException(make_error(ErrorKind::Invalid, db.path(),
                                    "a game without a result (*) is not stored; it is replayed"));
}

namespace {

constexpr const char* kGameColumns =
    "INSERT INTO games (tournament_id, round, pair, game_in_pair, schedule_index, white_id, "
    "black_id, opening_fen, opening_moves, opening_source, result, termination, reason, "
    "plies, started_at, duration_ms, time_control, pgn, content_hash, worker_id) ";

}  // namespace

std::int64_t insert_game_rows(Store::Impl& s, std::int64_t tournament_id, const GameRecord& g,
                              const GameId& id, std::int64_t white, std::int64_t black,
                              const std::string* content_hash, std::int64_t worker_id,
                              const Claim* claim) {
  std::optional<Statement>& slot = claim ? s.insert_claimed_game : s.insert_game;
  if (!slot && !claim)
    slot.emplace(s.db, kGameColumns +
                           std::string("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                       "?, ?, ?, ?)") +
                           returning_id(s.db.dialect()));
  if (!slot && claim)
    // Only while the claim is the pair's current attempt, whose row it locks (FOR UPDATE;
    // SQLite's write lock already holds it): the same round trip checks and inserts. The
    // values are cast because PostgreSQL types a SELECT's parameters from their use.
    slot.emplace(s.db,
                 kGameColumns +
                     std::string("SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
                                 "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
                                 "CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), "
                                 "CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), "
                                 "CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), "
                                 "CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), "
                                 "CAST(? AS TEXT), CAST(? AS BIGINT) "
                                 "WHERE EXISTS (SELECT 1 FROM pairs WHERE tournament_id = ? AND "
                                 "round = ? AND pair = ? AND attempt = ? AND worker_id = ? AND "
                                 "state = 'leased' FOR UPDATE)") +
                     returning_id(s.db.dialect()));
  Statement& gs = *slot;
  gs.reset();
  gs.bind(1, tournament_id)
      .bind(2, id.round)
      .bind(3, id.pair)
      .bind(4, id.game_in_pair)
      .bind(5, id.index)
      .bind(6, white)
      .bind(7, black)
      .bind(8, g.start_fen)
      .bind(9, opening_moves_text(g))
      .bind(10, g.opening_source)
      .bind(11, result_token(g.result))
      .bind(12, termination_name(g.termination))
      .bind(13, g.reason)
      .bind(14, static_cast<std::int64_t>(g.moves.size()))
      .bind(15, g.start_time.empty() ? utc_now_iso() : g.start_time)
      .bind(16, g.duration_ms)
      .bind(17, g.time_control)
      .bind(18, g.pgn);
  if (content_hash)
    gs.bind(19, *content_hash);
  else
    gs.bind_null(19);
  if (worker_id > 0)
    gs.bind(20, worker_id);
  else
    gs.bind_null(20);
  if (claim)
    gs.bind(21, claim->tournament_id)
        .bind(22, claim->round)
        .bind(23, claim->pair)
        .bind(24, claim->attempt)
        .bind(25, claim->worker_id);
  std::int64_t game_id = 0;
  try {
    game_id = gs.inserted_id();
  } catch (const StoreException& e) {
    if (e.kind() != ErrorKind::Conflict) throw;
    StoreError err = e.error();
    err.message = "database " + s.db.path() + ": game (round " + std::to_string(id.round) +
                  ", pair " + std::to_string(id.pair) + ", game " +
                  std::to_string(id.game_in_pair) + ") of tournament " +
                  std::to_string(tournament_id) +
                  " refused: already stored, or unknown tournament/engine (" + e.what() + ")";
    throw StoreException(err);
  }
  if (game_id == 0) return 0;  // not the claim's pair any more: nothing inserted
  const auto bind_move = [&](Statement& st, int base, int ply, const MoveRecord& m) {
    st.bind(base + 1, game_id)
        .bind(base + 2, ply)
        .bind(base + 3, m.uci)
        .bind(base + 4, m.san)
        .bind(base + 5, m.eval.score_cp)
        .bind(base + 6, m.eval.mate)
        .bind(base + 7, m.eval.depth)
        .bind(base + 8, m.eval.seldepth)
        .bind(base + 9, std::bit_cast<std::int64_t>(m.eval.nodes))
        .bind(base + 10, m.time_ms);
    if (m.clock_left_ms >= 0)
      st.bind(base + 11, m.clock_left_ms);
    else
      st.bind_null(base + 11);
    st.bind(base + 12, m.book ? 1 : 0);
    const auto u64 = [](const std::optional<std::uint64_t>& v) -> std::optional<std::int64_t> {
      if (!v) return std::nullopt;
      return std::bit_cast<std::int64_t>(*v);
    };
    st.bind(base + 13, u64(m.eval.nps))
        .bind(base + 14, m.eval.hashfull)
        .bind(base + 15, u64(m.eval.tbhits))
        .bind(base + 16, m.latency_ms);
    if (m.eval.pv.empty())
      st.bind_null(base + 17);
    else
      st.bind(base + 17, m.eval.pv);
    if (m.lines.empty())
      st.bind_null(base + 18);
    else
      st.bind(base + 18, join_lines(m.lines));
  };
  // Many rows per statement: statement runs (and round trips to a server) are most of a
  // game's cost, not the rows.
  const int n = static_cast<int>(g.moves.size());
  for (int i = 0; i < n;) {
    const int rows = std::min(Store::Impl::kMoveBlock, n - i);
    auto& slot = s.insert_moves[static_cast<std::size_t>(rows)];
    if (!slot) {
      std::string sql =
          "INSERT INTO moves (game_id, ply, uci, san, score_cp, mate, depth, seldepth, nodes, "
          "time_ms, clock_left_ms, book, nps, hashfull, tbhits, latency_ms, pv, lines) VALUES ";
      for (int k = 0; k < rows; ++k)
        sql += k ? ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                 : "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
      slot.emplace(s.db, sql);
    }
    Statement& st = *slot;
    st.reset();
    for (int k = 0; k < rows; ++k)
      bind_move(st, kMoveColumns * k, i + k + 1, g.moves[static_cast<std::size_t>(i + k)]);
    st.run();
    i += rows;
  }
  return game_id;
}

std::int64_t Store::insert_game(std::int64_t tournament_id, const GameRecord& game,
                                std::int64_t white_engine_id, std::int64_t black_engine_id) {
  std::lock_guard lock(impl_->mutex);
  check_game(impl_->db, game);
  return impl_->write(game_text(tournament_id, game.id), [&] {
    return insert_game_rows(*impl_, tournament_id, game, game.id, white_engine_id, black_engine_id,
                            nullptr, 0, nullptr);
  });
}

std::vector<GameId> Store::stored_game_ids(std::int64_t tournament_id) const {
  std::lock_guard lock(impl_->mutex);
  Statement st(impl_->db,
               "SELECT round, pair, game_in_pair, schedule_index FROM games "
               "WHERE tournament_id = ? ORDER BY schedule_index, round, pair, game_in_pair");
  st.bind(1, tournament_id);
  std::vector<GameId> out;
  while (st.step()) out.push_back({st.int32(0), st.int32(1), st.int32(2), st.int32(3)});
  return out;
}

// ---------------------------------------------------------------- import

std::string Store::content_hash(const GameRecord& g, std::string_view dedup_key) {
  // Fields separated by a byte that cannot occur in any of them.
  Sha256 h;
  const char sep = '\x1f';
  h.update(dedup_key);
  h.update(&sep, 1);
  h.update(g.white);
  h.update(&sep, 1);
  h.update(g.black);
  h.update(&sep, 1);
  h.update(g.start_fen);
  h.update(&sep, 1);
  for (const auto& m : g.moves) {
    h.update(m.uci);
    h.update(" ", 1);
  }
  h.update(&sep, 1);
  h.update(std::string_view(result_token(g.result)));
  return h.hex_digest();
}

namespace {

std::vector<ImportOutcome> import_rows(Store::Impl& s, std::int64_t tournament_id,
                                       std::span<const ImportItem> games) {
  std::vector<ImportOutcome> out;
  out.reserve(games.size());
  Statement seen(s.db, "SELECT 1 FROM games WHERE content_hash = ?");
  Statement next(s.db,
                 "SELECT COALESCE(max(schedule_index) + 1, 0) FROM games WHERE tournament_id = ?");
  next.bind(1, tournament_id);
  next.step();
  int index = next.int32(0);
  next.reset();
  for (const auto& item : games) {
    const std::string hash = Store::content_hash(item.record, item.dedup_key);
    seen.reset();
    seen.bind(1, hash);
    if (seen.step()) {
      out.push_back(ImportOutcome::Duplicate);
      continue;
    }
    const GameId id{0, index / 2, index % 2, index};
    insert_game_rows(s, tournament_id, item.record, id, item.white_engine_id, item.black_engine_id,
                     &hash, 0, nullptr);
    ++index;
    out.push_back(ImportOutcome::Inserted);
  }
  return out;
}

}  // namespace

std::vector<ImportOutcome> Store::import_games(std::int64_t tournament_id,
                                               std::span<const ImportItem> games) {
  std::lock_guard lock(impl_->mutex);
  for (const auto& item : games) check_game(impl_->db, item.record);
  return impl_->write("importing " + std::to_string(games.size()) + " games into tournament " +
                          std::to_string(tournament_id),
                      [&] { return import_rows(*impl_, tournament_id, games); });
}

}  // namespace knightly::db
