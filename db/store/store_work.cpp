// Store's shared work: workers, pairs claimed under leases, superseded attempts, and the one
// decision every worker reads. The lease clock is the database's (now_ms(), see dialect.h).
#include <algorithm>
#include <ctime>

#include "db/store/game_filter.h"
#include "db/store/store.h"
#include "db/store/store_impl.h"

namespace knightly::db {

namespace {

// A pair's stored_mask has bit 0 for game 0 and bit 1 for game 1; a pair is done when every
// one of its games is stored. Written with CASE rather than shifts, which PostgreSQL types
// strictly.
constexpr const char* kFullMask = "(CASE WHEN games = 2 THEN 3 ELSE 1 END)";

std::vector<int> mask_games(std::int64_t mask) {
  std::vector<int> out;
  for (int g = 0; g < 2; ++g)
    if (mask & (std::int64_t{1} << g)) out.push_back(g);
  return out;
}

std::string pair_text(const Claim& c) {
  return "pair (round " + std::to_string(c.round) + ", pair " + std::to_string(c.pair) +
         ") of tournament " + std::to_string(c.tournament_id);
}

std::string moves_text(const GameRecord& g) {
  std::string out;
  for (const auto& m : g.moves) {
    if (!out.empty()) out += ' ';
    out += m.uci;
  }
  return out;
}

}  // namespace

std::int64_t Store::register_worker(const WorkerIdentity& w) {
  std::lock_guard lock(impl_->mutex);
  return impl_->write(
      "registering worker " + w.host + ":" + std::to_string(w.pid),
      [&] {
        Statement st(impl_->db,
                     "INSERT INTO workers (host, pid, started_at, last_seen_ms) "
                     "VALUES (?, ?, ?, now_ms())" +
                         std::string(returning_id(impl_->db.dialect())));
        st.bind(1, w.host).bind(2, w.pid).bind(3,
                                               w.started_at.empty() ? utc_now_iso() : w.started_at);
        return st.inserted_id();
      },
      Commit::Lazy);
}

bool Store::add_pairs(std::int64_t tournament_id, std::span<const PairSlot> pairs,
                      const std::function<bool()>& stop) {
  std::lock_guard lock(impl_->mutex);
  for (const PairSlot& p : pairs)
    if (p.games != 1 && p.games != 2)
      throw StoreException(describe_error(
          ErrorKind::Invalid, impl_->db.path(),
          "recording the pairs of tournament " + std::to_string(tournament_id),
          "pair (round " + std::to_string(p.round) + ", pair " + std::to_string(p.pair) + ") has " +
              std::to_string(p.games) + " games; a pair has 1 or 2"));
  const std::string what = "recording the pairs of tournament " + std::to_string(tournament_id);
  const auto count = [&] {
    Statement st(impl_->db, "SELECT count(*) FROM pairs WHERE tournament_id = ?");
    st.bind(1, tournament_id).step();
    return st.int64(0);
  };
  // Every worker calls this at start: when the pairs are there already, one read suffices.
  const std::int64_t before = impl_->read(what, count);
  if (before == static_cast<std::int64_t>(pairs.size())) return true;
  // Many rows per statement (one round trip per block on a server), many blocks per
  // transaction, and between transactions the caller may stop it: a large schedule is
  // written in batches that a signal interrupts. Every writer writes the same batches in the
  // same order, each in one transaction, so a batch whose last pair is there is there whole:
  // workers that start together (or one stopped half way and resumed) lock the tournament's
  // row, find the batches the first wrote and skip them, instead of each inserting every pair
  // again behind the first (64 workers: 64 times). Rows already there are skipped anyway.
  constexpr std::size_t kBlock = 200;
  constexpr std::size_t kBatch = 50 * kBlock;
  std::optional<Statement> full;
  for (std::size_t batch = 0; batch < pairs.size(); batch += kBatch) {
    if (stop && stop()) return false;
    const std::size_t end = std::min(batch + kBatch, pairs.size());
    if (static_cast<std::size_t>(before) >= end) continue;
    const bool last = end == pairs.size();
    impl_->write(
        what,
        [&] {
          Statement lock(impl_->db, "SELECT id FROM tournaments WHERE id = ? FOR UPDATE");
          lock.bind(1, tournament_id).step();
          lock.run();
          Statement there(impl_->db,
                          "SELECT 1 FROM pairs WHERE tournament_id = ? AND round = ? AND pair = ?");
          there.bind(1, tournament_id).bind(2, pairs[end - 1].round).bind(3, pairs[end - 1].pair);
          if (there.step()) return;
          for (std::size_t first = batch; first < end; first += kBlock) {
            const std::size_t n = std::min(kBlock, end - first);
            std::string sql =
                "INSERT INTO pairs (tournament_id, round, pair, games, schedule_index) VALUES ";
            for (std::size_t i = 0; i < n; ++i) sql += i ? ", (?, ?, ?, ?, ?)" : "(?, ?, ?, ?, ?)";
            sql += " ON CONFLICT (tournament_id, round, pair) DO NOTHING";
            std::optional<Statement> partial;
            Statement& st = n == kBlock ? (full ? *full : full.emplace(impl_->db, sql))
                                        : partial.emplace(impl_->db, sql);
            st.reset();
            for (std::size_t i = 0; i < n; ++i) {
              const PairSlot& p = pairs[first + i];
              const int base = static_cast<int>(5 * i);
              st.bind(base + 1, tournament_id)
                  .bind(base + 2, p.round)
                  .bind(base + 3, p.pair)
                  .bind(base + 4, p.games)
                  .bind(base + 5, p.schedule_index);
            }
            st.run();
          }
          if (!last) return;
          // With the last batch, in its transaction: games stored before the pairs were
          // recorded (a tournament begun by an older knightly, or by insert_game) count: their
          // pairs start with those games done.
          Statement stored(
              impl_->db,
              "UPDATE pairs SET stored_mask = (SELECT COALESCE(sum(CASE WHEN "
              "g.game_in_pair = 0 THEN 1 ELSE 2 END), 0) FROM games g WHERE "
              "g.tournament_id = pairs.tournament_id AND g.round = pairs.round AND "
              "g.pair = pairs.pair) WHERE tournament_id = ? AND state = 'free' "
              "AND EXISTS (SELECT 1 FROM games g WHERE g.tournament_id = "
              "pairs.tournament_id AND g.round = pairs.round AND g.pair = pairs.pair)");
          stored.bind(1, tournament_id).run();
          Statement done(impl_->db,
                         std::string("UPDATE pairs SET state = 'done' WHERE tournament_id = ? "
                                     "AND state = 'free' AND stored_mask = ") +
                             kFullMask);
          done.bind(1, tournament_id).run();
        },
        Commit::Lazy);
  }
  return true;
}

ClaimResult Store::claim_pair(std::int64_t tournament_id, std::int64_t worker_id,
                              std::chrono::milliseconds lease, std::optional<int> round_window) {
  std::lock_guard lock(impl_->mutex);
  return impl_->write(
      "claiming a pair of tournament " + std::to_string(tournament_id),
      [&]() -> ClaimResult {
        // The first open pair in schedule order whose lease is free or expired, taken with a
        // new attempt; SKIP LOCKED lets PostgreSQL claimers pass rows another one is taking.
        // With a window, only from the rounds up to `round_window` past the first open pair's.
        const std::string window =
            round_window ? "  AND round <= (SELECT q.round FROM pairs q WHERE q.tournament_id = ? "
                           "  AND q.state <> 'done' ORDER BY q.schedule_index LIMIT 1) + ? "
                         : "";
        Statement st(impl_->db,
                     "UPDATE pairs SET state = 'leased', worker_id = ?, attempt = attempt + 1, "
                     "lease_until_ms = now_ms() + ? "
                     "WHERE tournament_id = ? AND (round, pair) = ("
                     "  SELECT round, pair FROM pairs WHERE tournament_id = ? "
                     "  AND state <> 'done' AND (state = 'free' OR lease_until_ms < now_ms()) " +
                         window +
                         "  ORDER BY schedule_index LIMIT 1 FOR UPDATE SKIP LOCKED) "
                         "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = "
                         "'running' AND stop_requested = 0) "
                         "RETURNING round, pair, games, schedule_index, attempt, stored_mask");
        st.bind(1, worker_id)
            .bind(2, static_cast<std::int64_t>(lease.count()))
            .bind(3, tournament_id)
            .bind(4, tournament_id);
        if (round_window) st.bind(5, tournament_id).bind(6, *round_window);
        st.bind(round_window ? 7 : 5, tournament_id);
        if (st.step()) {
          Claim c;
          c.tournament_id = tournament_id;
          c.round = st.int32(0);
          c.pair = st.int32(1);
          c.games = st.int32(2);
          c.schedule_index = st.int32(3);
          c.attempt = st.int64(4);
          c.stored = mask_games(st.int64(5));
          c.worker_id = worker_id;
          st.run();
          return {ClaimStatus::Claimed, std::move(c)};
        }
        Statement why(impl_->db,
                      "SELECT t.status, t.stop_requested, (SELECT count(*) FROM pairs p "
                      "WHERE p.tournament_id = t.id AND p.state <> 'done') "
                      "FROM tournaments t WHERE t.id = ?");
        why.bind(1, tournament_id);
        if (!why.step())
          throw StoreException(describe_error(ErrorKind::Invalid, impl_->db.path(),
                                              "claiming a pair",
                                              "no tournament " + std::to_string(tournament_id)));
        if (why.text(0) != "running" || why.int64(1) != 0) return {ClaimStatus::Stopped, {}};
        return {why.int64(2) > 0 ? ClaimStatus::Busy : ClaimStatus::Exhausted, {}};
      },
      Commit::Lazy);
}

std::vector<std::pair<std::int64_t, WorkerIdentity>> Store::lease_holders(
    std::int64_t tournament_id) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->read("reading the lease holders of tournament " + std::to_string(tournament_id),
                     [&] {
                       Statement st(impl_->db,
                                    "SELECT DISTINCT w.id, w.host, w.pid, w.started_at "
                                    "FROM pairs p JOIN workers w ON w.id = p.worker_id "
                                    "WHERE p.tournament_id = ? AND p.state = 'leased' "
                                    "ORDER BY w.id");
                       st.bind(1, tournament_id);
                       std::vector<std::pair<std::int64_t, WorkerIdentity>> out;
                       while (st.step())
                         out.push_back({st.int64(0), {st.text(1), st.int64(2), st.text(3)}});
                       return out;
                     });
}

void Store::expire_leases(std::int64_t worker_id) {
  std::lock_guard lock(impl_->mutex);
  impl_->write("ending the leases of worker " + std::to_string(worker_id), [&] {
    Statement st(impl_->db,
                 "UPDATE pairs SET lease_until_ms = 0 WHERE worker_id = ? AND state = 'leased'");
    st.bind(1, worker_id).run();
  });
}

void Store::renew_leases(std::int64_t worker_id, std::chrono::milliseconds lease) {
  std::lock_guard lock(impl_->mutex);
  impl_->write(
      "renewing the leases of worker " + std::to_string(worker_id),
      [&] {
        Statement st(impl_->db,
                     "UPDATE pairs SET lease_until_ms = now_ms() + ? "
                     "WHERE worker_id = ? AND state = 'leased'");
        st.bind(1, static_cast<std::int64_t>(lease.count())).bind(2, worker_id).run();
        Statement seen(impl_->db, "UPDATE workers SET last_seen_ms = now_ms() WHERE id = ?");
        seen.bind(1, worker_id).run();
      },
      Commit::Lazy);
}

StoreOutcome Store::store_game(const Claim& claim, const GameRecord& game,
                               std::int64_t white_engine_id, std::int64_t black_engine_id) {
  std::lock_guard lock(impl_->mutex);
  check_game(impl_->db, game);
  const std::string what = game_text(claim.tournament_id, game.id);
  if (game.id.round != claim.round || game.id.pair != claim.pair || game.id.game_in_pair < 0 ||
      game.id.game_in_pair >= claim.games)
    throw StoreException(describe_error(ErrorKind::Invalid, impl_->db.path(), what,
                                        "the game is not part of the claimed " + pair_text(claim)));
  const std::int64_t bit = std::int64_t{1} << game.id.game_in_pair;
  return impl_->write(what, [&] {
    // Inserted only while the claim is still the pair's current attempt, with the pair's row
    // locked; then the pair records the game, and is done (its lease released) when this was
    // its last one, all in this transaction. Two round trips on a server.
    if (insert_game_rows(*impl_, claim.tournament_id, game, game.id, white_engine_id,
                         black_engine_id, nullptr, claim.worker_id, &claim) != 0) {
      Statement up(impl_->db, std::string("UPDATE pairs SET stored_mask = stored_mask | ?, "
                                          "state = CASE WHEN (stored_mask | ?) = ") +
                                  kFullMask +
                                  " THEN 'done' ELSE state END, "
                                  "lease_until_ms = CASE WHEN (stored_mask | ?) = " +
                                  kFullMask +
                                  " THEN NULL ELSE lease_until_ms END "
                                  "WHERE tournament_id = ? AND round = ? AND pair = ?");
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
    Statement st(impl_->db,
                 "INSERT INTO superseded_games (tournament_id, round, pair, game_in_pair, "
                 "schedule_index, worker_id, attempt, white_id, black_id, opening_fen, "
                 "opening_moves, opening_source, moves, result, termination, reason, plies, "
                 "started_at, duration_ms, time_control, pgn) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::string opening;
    for (const auto& m : game.moves) {
      if (!m.book) break;
      if (!opening.empty()) opening += ' ';
      opening += m.uci;
    }
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
        .bind(11, opening)
        .bind(12, game.opening_source)
        .bind(13, moves_text(game))
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
  });
}

void Store::release_claim(const Claim& claim) {
  std::lock_guard lock(impl_->mutex);
  impl_->write(
      "releasing " + pair_text(claim),
      [&] {
        Statement st(impl_->db,
                     "UPDATE pairs SET state = 'free', lease_until_ms = NULL "
                     "WHERE tournament_id = ? AND round = ? AND pair = ? AND attempt = ? "
                     "AND worker_id = ? AND state = 'leased'");
        st.bind(1, claim.tournament_id)
            .bind(2, claim.round)
            .bind(3, claim.pair)
            .bind(4, claim.attempt)
            .bind(5, claim.worker_id)
            .run();
      },
      Commit::Lazy);
}

void Store::set_live_position(const Claim& claim, int game_in_pair, int ply,
                              const std::string& fen) {
  // Best effort: while another thread writes (or waits for a lock held by another process),
  // this position is skipped rather than the game made to wait; the next move records one.
  std::unique_lock lock(impl_->mutex, std::try_to_lock);
  if (!lock.owns_lock()) return;
  impl_->write(
      "recording the position of a game of " + pair_text(claim),
      [&] {
        Statement st(impl_->db,
                     "UPDATE pairs SET live_game = ?, live_ply = ?, live_fen = ? "
                     "WHERE tournament_id = ? AND round = ? AND pair = ? AND attempt = ? "
                     "AND worker_id = ? AND state = 'leased'");
        st.bind(1, game_in_pair)
            .bind(2, ply)
            .bind(3, fen)
            .bind(4, claim.tournament_id)
            .bind(5, claim.round)
            .bind(6, claim.pair)
            .bind(7, claim.attempt)
            .bind(8, claim.worker_id)
            .run();
      },
      Commit::Lazy);
}

bool Store::finish_tournament(std::int64_t id, TournamentStatus status,
                              const std::string& decision) {
  std::lock_guard lock(impl_->mutex);
  const std::string what = "finishing tournament " + std::to_string(id);
  if (status != TournamentStatus::Finished && status != TournamentStatus::Aborted)
    throw StoreException(describe_error(ErrorKind::Invalid, impl_->db.path(), what,
                                        "a tournament finishes as finished or aborted"));
  return impl_->write(what, [&] {
    // Exactly once: only the call that sees it running changes it.
    Statement st(impl_->db,
                 "UPDATE tournaments SET status = ?, finished_at = ?, decision = ? "
                 "WHERE id = ? AND status = 'running' RETURNING id");
    st.bind(1, status_text(status)).bind(2, utc_now_iso()).bind(3, decision).bind(4, id);
    const bool changed = st.step();
    st.run();
    return changed;
  });
}

bool Store::request_stop(std::string_view name, const std::string& decision) {
  std::lock_guard lock(impl_->mutex);
  return impl_->write("requesting a stop of tournament '" + std::string(name) + "'", [&] {
    // Stopped at once for everyone: no worker claims a pair of an aborted tournament, each
    // reads the stop after its game, and the next run that starts resumes it.
    Statement st(impl_->db,
                 "UPDATE tournaments SET stop_requested = 1, status = 'aborted', decision = ?, "
                 "finished_at = ? WHERE name = ? AND status IN ('running', 'aborted') "
                 "RETURNING id");
    st.bind(1, decision).bind(2, utc_now_iso()).bind(3, name);
    const bool found = st.step();
    st.run();
    return found;
  });
}

std::int64_t Store::scheduled_games(std::int64_t tournament_id) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->read("reading the pairs of tournament " + std::to_string(tournament_id), [&] {
    Statement st(impl_->db, "SELECT COALESCE(sum(games), 0) FROM pairs WHERE tournament_id = ?");
    st.bind(1, tournament_id);
    st.step();
    return st.int64(0);
  });
}

TournamentControl Store::control(std::int64_t tournament_id) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->read("reading the state of tournament " + std::to_string(tournament_id), [&] {
    Statement st(impl_->db,
                 "SELECT status, stop_requested, COALESCE(decision, '') FROM tournaments "
                 "WHERE id = ?");
    st.bind(1, tournament_id);
    if (!st.step())
      throw StoreException(describe_error(ErrorKind::Invalid, impl_->db.path(),
                                          "reading the state of a tournament",
                                          "no tournament " + std::to_string(tournament_id)));
    TournamentControl c;
    c.status = parse_status(st.text(0)).value_or(TournamentStatus::Running);
    c.stop_requested = st.int64(1) != 0;
    c.decision = st.text(2);
    return c;
  });
}

void Store::set_sprt_settings(std::int64_t tournament_id, const SprtSettings& sprt) {
  std::lock_guard lock(impl_->mutex);
  impl_->write("recording the SPRT settings of tournament " + std::to_string(tournament_id), [&] {
    Statement st(impl_->db,
                 "UPDATE tournaments SET sprt_elo0 = ?, sprt_elo1 = ?, sprt_alpha = ?, "
                 "sprt_beta = ?, sprt_model = ? WHERE id = ?");
    st.bind(1, sprt.elo0)
        .bind(2, sprt.elo1)
        .bind(3, sprt.alpha)
        .bind(4, sprt.beta)
        .bind(5, sprt.model)
        .bind(6, tournament_id)
        .run();
  });
}

std::optional<SprtSettings> Store::sprt_settings(std::int64_t tournament_id) const {
  std::lock_guard lock(impl_->mutex);
  Statement st(impl_->db,
               "SELECT sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, sprt_model FROM tournaments "
               "WHERE id = ?");
  st.bind(1, tournament_id);
  if (!st.step() || st.is_null(0)) return std::nullopt;
  SprtSettings s;
  s.elo0 = st.real(0);
  s.elo1 = st.real(1);
  s.alpha = st.real(2);
  s.beta = st.real(3);
  s.model = st.text(4);
  return s;
}

std::vector<WorkerSummary> Store::workers(const GameFilter& filter) const {
  std::lock_guard lock(impl_->mutex);
  const FilterSql games = filter_sql(filter);
  const FilterSql superseded = filter_sql(filter);
  const auto with_worker = [](const std::string& where) {
    return where.empty() ? std::string(" WHERE g.worker_id IS NOT NULL")
                         : where + " AND g.worker_id IS NOT NULL";
  };
  // Unfiltered: every worker ever registered; filtered: those with a game or a superseded
  // attempt among the filtered ones.
  Statement st(
      impl_->db,
      "SELECT w.id, w.host, w.pid, w.started_at, w.last_seen_ms, COALESCE(c.games, 0), "
      "COALESCE(c.crashes, 0), COALESCE(c.time_losses, 0), COALESCE(c.illegal, 0), "
      "COALESCE(s.n, 0) FROM workers w "
      "LEFT JOIN (SELECT g.worker_id AS wid, count(*) AS games, "
      "  sum(CASE WHEN g.termination IN ('disconnect', 'stall') THEN 1 ELSE 0 END) AS crashes, "
      "  sum(CASE WHEN g.termination = 'time forfeit' THEN 1 ELSE 0 END) AS time_losses, "
      "  sum(CASE WHEN g.termination = 'illegal move' THEN 1 ELSE 0 END) AS illegal "
      "  FROM games g" +
          with_worker(games.where) +
          " GROUP BY g.worker_id) c ON c.wid = w.id "
          "LEFT JOIN (SELECT g.worker_id AS wid, count(*) AS n FROM superseded_games g" +
          superseded.where + " GROUP BY g.worker_id) s ON s.wid = w.id" +
          (games.where.empty() ? "" : " WHERE c.wid IS NOT NULL OR s.wid IS NOT NULL") +
          " ORDER BY w.id");
  st.bind_all(games.params);
  st.bind_all(superseded.params, 1 + static_cast<int>(games.params.size()));
  std::vector<WorkerSummary> out;
  while (st.step()) {
    WorkerSummary w;
    w.id = st.int64(0);
    w.identity.host = st.text(1);
    w.identity.pid = st.int64(2);
    w.identity.started_at = st.text(3);
    w.last_seen = utc_iso(st.int64(4), true);
    w.games = st.int64(5);
    w.crashes = st.int64(6);
    w.time_losses = st.int64(7);
    w.illegal_moves = st.int64(8);
    w.superseded = st.int64(9);
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace knightly::db
