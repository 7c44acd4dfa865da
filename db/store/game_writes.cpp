// The Store's game writes: a finished game and its moves in one transaction, a claimed
// pair's game, imported games by batches.
#include "db/store/game_writes.h"

#include <algorithm>
#include <array>
#include <bit>

#include "db/store/sha256.h"
#include "db/store/store_core.h"
#include "engine/chess/pgn.h"

namespace knightly::db {

namespace {

constexpr int kMoveColumns = 18;  // values bound per row of moves

// The moves' `field` (uci or san) separated by spaces; with `book_only`, the leading book
// moves only (games.opening_moves).
std::string joined(const GameRecord& g, std::string MoveRecord::*field, bool book_only = false) {
  std::string out;
  for (const auto& m : g.moves) {
    if (book_only && !m.book) break;
    if (!out.empty()) out += ' ';
    out += m.*field;
  }
  return out;
}

void check_game(const Database& db, const GameRecord& g) {
  if (g.result == Result::None)
    throw StoreException(plain_error(ErrorKind::Invalid, db.path(),
                                     "a game without a result (*) is not stored; it is replayed"));
}

constexpr const char* kGameColumns =
    "INSERT INTO games (tournament_id, round, pair, game_in_pair, schedule_index, white_id, "
    "black_id, opening_fen, opening_moves, opening_source, result, termination, reason, "
    "plies, started_at, duration_ms, time_control, pgn, content_hash, worker_id, moves_uci, "
    "moves_san, pgn_tags, white_latency_moves, white_latency_sum_ms, white_latency_max_ms, "
    "black_latency_moves, black_latency_sum_ms, black_latency_max_ms) ";

// Each side's moves with a latency: their count, sum and largest (games.white_latency_*,
// black_latency_*), what engine health reads instead of every move.
struct SideLatency {
  std::int64_t moves = 0, sum_ms = 0, max_ms = 0;
};

std::array<SideLatency, 2> side_latency(const GameRecord& g) {
  // An empty start FEN is the initial position: White first.
  const bool black_first = chess::fen_side_and_number(g.start_fen).first;
  std::array<SideLatency, 2> out{};
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    const auto& latency = g.moves[i].latency_ms;
    if (!latency) continue;
    SideLatency& s = out[(i + (black_first ? 1 : 0)) % 2];
    s.max_ms = s.moves ? std::max(s.max_ms, *latency) : *latency;
    ++s.moves;
    s.sum_ms += *latency;
  }
  return out;
}

// Whether an imported game's moves go in its own row (games.moves_uci, moves_san) rather
// than a row of `moves` each: when they hold nothing but the move, and the book moves (the
// ones `opening_moves` lists) are the first ones, as a reader rebuilds them.
bool moves_in_game_row(const GameRecord& g) {
  MoveListsOrder order;
  for (const auto& m : g.moves)
    if (m.eval != MoveEval{} || m.time_ms || m.clock_left_ms >= 0 || m.latency_ms ||
        !m.lines.empty() || !order.admits(m.book, m.uci, m.san))
      return false;
  return true;
}

}  // namespace

GameWrites::GameWrites(StoreCore& core) : core_(core) {}
GameWrites::~GameWrites() = default;

std::int64_t GameWrites::insert_rows(std::int64_t tournament_id, const GameRecord& g,
                                     const GameId& id, std::int64_t white, std::int64_t black,
                                     const ImportedRow* imported, std::int64_t worker_id,
                                     const Claim* claim) {
  std::optional<Statement>& slot = claim ? insert_claimed_game_ : insert_game_;
  if (!slot && !claim)
    slot.emplace(core_.db,
                 kGameColumns +
                     std::string("VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                 "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") +
                     returning_id(core_.db.dialect()));
  if (!slot && claim)
    // Only while the claim is the pair's current attempt, whose row it locks (FOR UPDATE;
    // SQLite's write lock already holds it): the same round trip checks and inserts. The
    // values are cast because PostgreSQL types a SELECT's parameters from their use.
    slot.emplace(core_.db,
                 kGameColumns +
                     std::string("SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
                                 "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
                                 "CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), "
                                 "CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), "
                                 "CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), "
                                 "CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), "
                                 "CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), "
                                 "CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), "
                                 "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
                                 "CAST(? AS BIGINT), CAST(? AS BIGINT) "
                                 "WHERE EXISTS (SELECT 1 FROM pairs WHERE tournament_id = ? AND "
                                 "round = ? AND pair = ? AND attempt = ? AND worker_id = ? AND "
                                 "state = 'leased' FOR UPDATE)") +
                     returning_id(core_.db.dialect()));
  Statement& gs = *slot;
  gs.reset();
  gs.bind(1, tournament_id)
      .bind(2, id.round)
      .bind(3, id.pair)
      .bind(4, id.game_in_pair)
      .bind(5, id.index)
      .bind(6, white)
      .bind(7, black)
      .bind(8, g.start_fen);
  const MoveLists* lists = imported ? imported->item.move_lists() : nullptr;
  if (lists)
    gs.bind(9, lists->book_uci).bind(14, std::int64_t{lists->plies});
  else
    gs.bind(9, joined(g, &MoveRecord::uci, true))
        .bind(14, static_cast<std::int64_t>(g.moves.size()));
  gs.bind(10, g.opening_source)
      .bind(11, result_token(g.result))
      .bind(12, termination_name(g.termination))
      .bind(13, g.reason)
      .bind(15, g.start_time.empty() ? utc_now_iso() : g.start_time)
      .bind(16, g.duration_ms)
      .bind(17, g.time_control);
  if (imported)
    gs.bind(19, imported->content_hash);
  else
    gs.bind_null(19);
  if (worker_id > 0)
    gs.bind(20, worker_id);
  else
    gs.bind_null(20);
  // Imported games only: a played game's moves carry its engines' figures.
  const bool in_row = lists || (imported && moves_in_game_row(g));
  if (lists) {
    gs.bind(21, lists->uci).bind(22, lists->san);
  } else if (in_row) {
    gs.bind(21, joined(g, &MoveRecord::uci)).bind(22, joined(g, &MoveRecord::san));
  } else {
    gs.bind_null(21);
    gs.bind_null(22);
  }
  // An imported game's PGN given as its tags: kept alone beside the lists (the movetext is
  // written from them when read), else whole.
  const std::string* pgn_tags =
      imported && !imported->item.pgn_tags.empty() ? &imported->item.pgn_tags : nullptr;
  if (pgn_tags && in_row)
    gs.bind(18, std::string()).bind(23, *pgn_tags);
  else if (pgn_tags)
    gs.bind(18, *pgn_tags + plain_movetext(g)).bind_null(23);
  else
    gs.bind(18, g.pgn).bind_null(23);
  const auto latency = side_latency(g);
  gs.bind(24, latency[0].moves)
      .bind(25, latency[0].sum_ms)
      .bind(26, latency[0].max_ms)
      .bind(27, latency[1].moves)
      .bind(28, latency[1].sum_ms)
      .bind(29, latency[1].max_ms);
  if (claim)
    gs.bind(30, claim->tournament_id)
        .bind(31, claim->round)
        .bind(32, claim->pair)
        .bind(33, claim->attempt)
        .bind(34, claim->worker_id);
  std::int64_t game_id = 0;
  try {
    game_id = gs.inserted_id();
  } catch (const StoreException& e) {
    if (e.kind() != ErrorKind::Conflict) throw;
    StoreError err = e.error();
    err.message = "database " + core_.db.path() + ": game (round " + std::to_string(id.round) +
                  ", pair " + std::to_string(id.pair) + ", game " +
                  std::to_string(id.game_in_pair) + ") of tournament " +
                  std::to_string(tournament_id) +
                  " refused: already stored, or unknown tournament/engine (" + e.what() + ")";
    throw StoreException(err);
  }
  if (game_id == 0) return 0;  // not the claim's pair any more: nothing inserted
  if (in_row) return game_id;
  const auto bind_move = [&](Statement& st, int base, int ply, const MoveRecord& m) {
    st.bind(base + 1, game_id)
        .bind(base + 2, ply)
        .bind_kept(base + 3, m.uci)
        .bind_kept(base + 4, m.san)
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
      st.bind_kept(base + 17, m.eval.pv);
    if (m.lines.empty())
      st.bind_null(base + 18);
    else
      st.bind(base + 18, join_lines(m.lines));
  };
  // Many rows per statement: statement runs (and round trips to a server) are most of a
  // game's cost, not the rows.
  const int n = static_cast<int>(g.moves.size());
  for (int i = 0; i < n;) {
    const int rows = std::min(kMoveBlock, n - i);
    auto& slot = insert_moves_[static_cast<std::size_t>(rows)];
    if (!slot) {
      std::string sql =
          "INSERT INTO moves (game_id, ply, uci, san, score_cp, mate, depth, seldepth, nodes, "
          "time_ms, clock_left_ms, book, nps, hashfull, tbhits, latency_ms, pv, lines) VALUES ";
      for (int k = 0; k < rows; ++k)
        sql += k ? ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                 : "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
      slot.emplace(core_.db, sql);
    }
    Statement& st = *slot;
    st.reset();
    for (int k = 0; k < rows; ++k)
      bind_move(st, kMoveColumns * k, i + k + 1, g.moves[static_cast<std::size_t>(i + k)]);
    st.run();
    st.reset();  // lets go of the moves' text, bound in place (bind_kept)
    i += rows;
  }
  return game_id;
}

std::int64_t GameWrites::insert_game(std::int64_t tournament_id, const GameRecord& game,
                                     std::int64_t white_engine_id, std::int64_t black_engine_id) {
  std::lock_guard lock(core_.mutex);
  check_game(core_.db, game);
  return core_.write(game_text(tournament_id, game.id), [&] {
    return insert_rows(tournament_id, game, game.id, white_engine_id, black_engine_id, nullptr, 0,
                       nullptr);
  });
}

std::string GameWrites::check_claimed(const Claim& claim, const GameRecord& game) const {
  check_game(core_.db, game);
  std::string what = game_text(claim.tournament_id, game.id);
  if (game.id.round != claim.round || game.id.pair != claim.pair || game.id.game_in_pair < 0 ||
      game.id.game_in_pair >= claim.games)
    throw StoreException(describe_error(ErrorKind::Invalid, core_.db.path(), what,
                                        "the game is not part of the claimed " + pair_text(claim)));
  return what;
}

StoreOutcome GameWrites::store_game(const Claim& claim, const GameRecord& game,
                                    std::int64_t white_engine_id, std::int64_t black_engine_id) {
  std::lock_guard lock(core_.mutex);
  const std::string what = check_claimed(claim, game);
  return core_.write(what,
                     [&] { return store_claimed(claim, game, white_engine_id, black_engine_id); });
}

std::vector<StoreOutcome> GameWrites::store_games(std::span<const ClaimedGame> games) {
  std::lock_guard lock(core_.mutex);
  for (const ClaimedGame& g : games) check_claimed(*g.claim, *g.game);
  // A message names the game when there is one.
  const std::string what = games.size() == 1
                               ? game_text(games[0].claim->tournament_id, games[0].game->id)
                               : "storing " + std::to_string(games.size()) + " games";
  return core_.write(what, [&] {
    std::vector<StoreOutcome> out;
    out.reserve(games.size());
    for (const ClaimedGame& g : games)
      out.push_back(store_claimed(*g.claim, *g.game, g.white_engine_id, g.black_engine_id));
    return out;
  });
}

StoreOutcome GameWrites::store_claimed(const Claim& claim, const GameRecord& game,
                                       std::int64_t white_engine_id, std::int64_t black_engine_id) {
  // Inserted only while the claim is still the pair's current attempt, with the pair's row
  // locked; then the pair records the game, and is done (its lease released) when this was
  // its last one, all in this transaction. Two round trips on a server.
  if (insert_rows(claim.tournament_id, game, game.id, white_engine_id, black_engine_id, nullptr,
                  claim.worker_id, &claim) != 0) {
    if (!record_in_pair_)
      record_in_pair_.emplace(core_.db,
                              std::string("UPDATE pairs SET stored_mask = stored_mask | ?, "
                                          "state = CASE WHEN (stored_mask | ?) = ") +
                                  kFullMask +
                                  " THEN 'done' ELSE state END, "
                                  "lease_until_ms = CASE WHEN (stored_mask | ?) = " +
                                  kFullMask +
                                  " THEN NULL ELSE lease_until_ms END "
                                  "WHERE tournament_id = ? AND round = ? AND pair = ?");
    const std::int64_t bit = std::int64_t{1} << game.id.game_in_pair;
    Statement& up = *record_in_pair_;
    up.reset();
    up.bind(1, bit)
        .bind(2, bit)
        .bind(3, bit)
        .bind(4, claim.tournament_id)
        .bind(5, claim.round)
        .bind(6, claim.pair)
        .run();
    return StoreOutcome::Stored;
  }
  // The lease was taken over: keep the result for the record, counted nowhere.
  Statement st(core_.db,
               "INSERT INTO superseded_games (tournament_id, round, pair, game_in_pair, "
               "schedule_index, worker_id, attempt, white_id, black_id, opening_fen, "
               "opening_moves, opening_source, moves, result, termination, reason, plies, "
               "started_at, duration_ms, time_control, pgn) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, claim.tournament_id)
      .bind(2, game.id.round)
      .bind(3, game.id.pair)
      .bind(4, game.id.game_in_pair)
      .bind(5, game.id.index)
      .bind(6, claim.worker_id)
      .bind(7, claim.attempt)
      .bind(8, white_engine_id)
      .bind(9, black_engine_id)
      .bind(10, game.start_fen)
      .bind(11, joined(game, &MoveRecord::uci, true))
      .bind(12, game.opening_source)
      .bind(13, joined(game, &MoveRecord::uci))
      .bind(14, result_token(game.result))
      .bind(15, termination_name(game.termination))
      .bind(16, game.reason)
      .bind(17, static_cast<std::int64_t>(game.moves.size()))
      .bind(18, game.start_time.empty() ? utc_now_iso() : game.start_time)
      .bind(19, game.duration_ms)
      .bind(20, game.time_control)
      .bind(21, game.pgn)
      .run();
  return StoreOutcome::Superseded;
}

std::string GameWrites::content_hash(const GameRecord& g, std::string_view dedup_key,
                                     const MoveLists* lists) {
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
  // Each move followed by a space.
  if (lists) {
    h.update(lists->uci);
    if (lists->plies > 0) h.update(" ", 1);
  } else {
    for (const auto& m : g.moves) {
      h.update(m.uci);
      h.update(" ", 1);
    }
  }
  h.update(&sep, 1);
  h.update(std::string_view(result_token(g.result)));
  return h.hex_digest();
}

std::vector<ImportOutcome> GameWrites::import_rows(std::int64_t tournament_id,
                                                   std::span<const ImportItem> games) {
  std::vector<ImportOutcome> out;
  out.reserve(games.size());
  Statement seen(core_.db, "SELECT 1 FROM games WHERE content_hash = ?");
  Statement next(core_.db,
                 "SELECT COALESCE(max(schedule_index) + 1, 0) FROM games WHERE tournament_id = ?");
  next.bind(1, tournament_id);
  next.step();
  int index = next.int32(0);
  next.reset();
  for (const auto& item : games) {
    const std::string hash =
        item.content_hash.empty()
            ? GameWrites::content_hash(item.record, item.dedup_key, item.move_lists())
            : item.content_hash;
    seen.reset();
    seen.bind(1, hash);
    if (seen.step()) {
      out.push_back(ImportOutcome::Duplicate);
      continue;
    }
    const GameId id{0, index / 2, index % 2, index};
    const ImportedRow imported{hash, item};
    insert_rows(tournament_id, item.record, id, item.white_engine_id, item.black_engine_id,
                &imported, 0, nullptr);
    ++index;
    out.push_back(ImportOutcome::Inserted);
  }
  return out;
}

std::vector<ImportOutcome> GameWrites::import_games(std::int64_t tournament_id,
                                                    std::span<const ImportItem> games) {
  std::lock_guard lock(core_.mutex);
  for (const auto& item : games) check_game(core_.db, item.record);
  return core_.write("importing " + std::to_string(games.size()) + " games into tournament " +
                         std::to_string(tournament_id),
                     [&] { return import_rows(tournament_id, games); });
}

}  // namespace knightly::db
