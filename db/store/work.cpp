// The Store's shared work: workers, pairs claimed under leases, superseded attempts, and the one
// decision every worker reads. The lease clock is the database's (now_ms(), see dialect.h).
#include "db/store/work.h"

#include <algorithm>
#include <ctime>
#include <iterator>
#include <map>

#include "db/store/game_filter.h"
#include "db/store/store_core.h"

namespace knightly::db {

namespace {

std::vector<int> mask_games(std::int64_t mask) {
  std::vector<int> out;
  for (int g = 0; g < 2; ++g)
    if (mask & (std::int64_t{1} << g)) out.push_back(g);
  return out;
}

}  // namespace

std::int64_t Work::register_worker(const WorkerIdentity& w) {
  std::lock_guard lock(core_.mutex);
  return core_.write(
      "registering worker " + w.host + ":" + std::to_string(w.pid),
      [&] {
        Statement st(core_.db,
                     "INSERT INTO workers (host, pid, started_at, last_seen_ms) "
                     "VALUES (?, ?, ?, now_ms())" +
                         std::string(returning_id(core_.db.dialect())));
        st.bind(1, w.host).bind(2, w.pid).bind(3,
                                               w.started_at.empty() ? utc_now_iso() : w.started_at);
        return st.inserted_id();
      },
      Commit::Lazy);
}

bool Work::add_pairs(std::int64_t tournament_id, std::span<const PairSlot> pairs,
                     const std::function<bool()>& stop, bool stored_before) {
  std::lock_guard lock(core_.mutex);
  for (const PairSlot& p : pairs)
    if (p.games != 1 && p.games != 2)
      throw StoreException(describe_error(
          ErrorKind::Invalid, core_.db.path(),
          "recording the pairs of tournament " + std::to_string(tournament_id),
          "pair (round " + std::to_string(p.round) + ", pair " + std::to_string(p.pair) + ") has " +
              std::to_string(p.games) + " games; a pair has 1 or 2"));
  const std::string what = "recording the pairs of tournament " + std::to_string(tournament_id);
  const auto count = [&] {
    Statement st(core_.db, "SELECT count(*) FROM pairs WHERE tournament_id = ?");
    st.bind(1, tournament_id).step();
    return st.int64(0);
  };
  // Every worker calls this at start: when the pairs are there already, one read suffices.
  const std::int64_t before = core_.read(what, count);
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
    core_.write(
        what,
        [&] {
          Statement lock(core_.db, "SELECT id FROM tournaments WHERE id = ? FOR UPDATE");
          lock.bind(1, tournament_id).step();
          lock.run();
          Statement there(core_.db,
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
            Statement& st = n == kBlock ? (full ? *full : full.emplace(core_.db, sql))
                                        : partial.emplace(core_.db, sql);
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
          if (!last || !stored_before) return;
          // With the last batch, in its transaction: games stored before the pairs were
          // recorded (a tournament begun by an older knightly, or by insert_game) count: their
          // pairs start with those games done.
          Statement stored(
              core_.db,
              "UPDATE pairs SET stored_mask = (SELECT COALESCE(sum(CASE WHEN "
              "g.game_in_pair = 0 THEN 1 ELSE 2 END), 0) FROM games g WHERE "
              "g.tournament_id = pairs.tournament_id AND g.round = pairs.round AND "
              "g.pair = pairs.pair) WHERE tournament_id = ? AND state = 'free' "
              "AND EXISTS (SELECT 1 FROM games g WHERE g.tournament_id = "
              "pairs.tournament_id AND g.round = pairs.round AND g.pair = pairs.pair)");
          stored.bind(1, tournament_id).run();
          Statement done(core_.db,
                         std::string("UPDATE pairs SET state = 'done' WHERE tournament_id = ? "
                                     "AND state = 'free' AND stored_mask = ") +
                             kFullMask);
          done.bind(1, tournament_id).run();
        },
        Commit::Lazy);
  }
  return true;
}

ClaimResult Work::claim_pair(std::int64_t tournament_id, std::int64_t worker_id,
                             std::chrono::milliseconds lease, std::optional<int> round_window) {
  return claim_pairs(tournament_id, worker_id, lease, 1, round_window);
}

ClaimResult Work::claim_pairs(std::int64_t tournament_id, std::int64_t worker_id,
                              std::chrono::milliseconds lease, int count,
                              std::optional<int> round_window) {
  std::lock_guard lock(core_.mutex);
  return core_.write(
      "claiming a pair of tournament " + std::to_string(tournament_id),
      [&]() -> ClaimResult {
        // The first `count` open pairs in schedule order whose lease is free or expired, each
        // taken with a new attempt; SKIP LOCKED lets PostgreSQL claimers pass rows another one
        // is taking. With a window, only from the rounds up to `round_window` past the first
        // open pair's.
        const std::string window =
            round_window ? "  AND round <= (SELECT q.round FROM pairs q WHERE q.tournament_id = ? "
                           "  AND q.state <> 'done' ORDER BY q.schedule_index LIMIT 1) + ? "
                         : "";
        Statement st(core_.db,
                     "UPDATE pairs SET state = 'leased', worker_id = ?, attempt = attempt + 1, "
                     "lease_until_ms = now_ms() + ? "
                     "WHERE tournament_id = ? AND (round, pair) IN ("
                     "  SELECT round, pair FROM pairs WHERE tournament_id = ? "
                     "  AND state <> 'done' AND (state = 'free' OR lease_until_ms < now_ms()) " +
                         window +
                         "  ORDER BY schedule_index LIMIT ? FOR UPDATE SKIP LOCKED) "
                         "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = "
                         "'running' AND stop_requested = 0) "
                         "RETURNING round, pair, games, schedule_index, attempt, stored_mask");
        st.bind(1, worker_id)
            .bind(2, static_cast<std::int64_t>(lease.count()))
            .bind(3, tournament_id)
            .bind(4, tournament_id);
        int next = 5;
        if (round_window) {
          st.bind(5, tournament_id).bind(6, *round_window);
          next = 7;
        }
        st.bind(next, std::int64_t{std::max(count, 1)}).bind(next + 1, tournament_id);
        std::vector<Claim> claims;
        while (st.step()) {
          Claim c;
          c.tournament_id = tournament_id;
          c.round = st.int32(0);
          c.pair = st.int32(1);
          c.games = st.int32(2);
          c.schedule_index = st.int32(3);
          c.attempt = st.int64(4);
          c.stored = mask_games(st.int64(5));
          c.worker_id = worker_id;
          claims.push_back(std::move(c));
        }
        if (!claims.empty()) {
          // RETURNING gives the rows in no promised order.
          std::sort(claims.begin(), claims.end(), [](const Claim& a, const Claim& b) {
            return a.schedule_index < b.schedule_index;
          });
          ClaimResult r{ClaimStatus::Claimed, std::move(claims.front()), {}};
          r.more.assign(std::make_move_iterator(claims.begin() + 1),
                        std::make_move_iterator(claims.end()));
          return r;
        }
        Statement why(core_.db,
                      "SELECT t.status, t.stop_requested, (SELECT count(*) FROM pairs p "
                      "WHERE p.tournament_id = t.id AND p.state <> 'done') "
                      "FROM tournaments t WHERE t.id = ?");
        why.bind(1, tournament_id);
        if (!why.step())
          throw StoreException(describe_error(ErrorKind::Invalid, core_.db.path(),
                                              "claiming a pair",
                                              "no tournament " + std::to_string(tournament_id)));
        if (why.text(0) != "running" || why.int64(1) != 0) return {ClaimStatus::Stopped, {}, {}};
        return {why.int64(2) > 0 ? ClaimStatus::Busy : ClaimStatus::Exhausted, {}, {}};
      },
      Commit::Lazy);
}

std::vector<std::pair<std::int64_t, WorkerIdentity>> Work::lease_holders(
    std::int64_t tournament_id) const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the lease holders of tournament " + std::to_string(tournament_id),
                    [&] {
                      Statement st(core_.db,
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

void Work::expire_leases(std::int64_t worker_id) {
  std::lock_guard lock(core_.mutex);
  core_.write("ending the leases of worker " + std::to_string(worker_id), [&] {
    Statement st(core_.db,
                 "UPDATE pairs SET lease_until_ms = 0 WHERE worker_id = ? AND state = 'leased'");
    st.bind(1, worker_id).run();
  });
}

void Work::renew_leases(std::int64_t worker_id, std::chrono::milliseconds lease) {
  std::lock_guard lock(core_.mutex);
  core_.write(
      "renewing the leases of worker " + std::to_string(worker_id),
      [&] {
        Statement st(core_.db,
                     "UPDATE pairs SET lease_until_ms = now_ms() + ? "
                     "WHERE worker_id = ? AND state = 'leased'");
        st.bind(1, static_cast<std::int64_t>(lease.count())).bind(2, worker_id).run();
        Statement seen(core_.db, "UPDATE workers SET last_seen_ms = now_ms() WHERE id = ?");
        seen.bind(1, worker_id).run();
      },
      Commit::Lazy);
}

void Work::release_claim(const Claim& claim) {
  std::lock_guard lock(core_.mutex);
  core_.write(
      "releasing " + pair_text(claim),
      [&] {
        Statement st(core_.db,
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

void Work::set_live_position(const Claim& claim, int game_in_pair, int ply,
                             const std::string& fen) {
  // Best effort: while another thread writes (or waits for a lock held by another process),
  // this position is skipped rather than the game made to wait; the next move records one.
  std::unique_lock lock(core_.mutex, std::try_to_lock);
  if (!lock.owns_lock()) return;
  core_.write(
      "recording the position of a game of " + pair_text(claim),
      [&] {
        Statement st(core_.db,
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

bool Work::finish_tournament(std::int64_t id, TournamentStatus status,
                             const std::string& decision) {
  std::lock_guard lock(core_.mutex);
  const std::string what = "finishing tournament " + std::to_string(id);
  if (status != TournamentStatus::Finished && status != TournamentStatus::Aborted)
    throw StoreException(describe_error(ErrorKind::Invalid, core_.db.path(), what,
                                        "a tournament finishes as finished or aborted"));
  return core_.write(what, [&] {
    // Exactly once: only the call that sees it running changes it.
    Statement st(core_.db,
                 "UPDATE tournaments SET status = ?, finished_at = ?, decision = ? "
                 "WHERE id = ? AND status = 'running' RETURNING id");
    st.bind(1, status_text(status)).bind(2, utc_now_iso()).bind(3, decision).bind(4, id);
    const bool changed = st.step();
    st.run();
    return changed;
  });
}

bool Work::request_stop(std::string_view name, const std::string& decision) {
  std::lock_guard lock(core_.mutex);
  return core_.write("requesting a stop of tournament '" + std::string(name) + "'", [&] {
    // Stopped at once for everyone: no worker claims a pair of an aborted tournament, each
    // reads the stop after its game, and the next run that starts resumes it.
    Statement st(core_.db,
                 "UPDATE tournaments SET stop_requested = 1, status = 'aborted', decision = ?, "
                 "finished_at = ? WHERE name = ? AND status IN ('running', 'aborted') "
                 "RETURNING id");
    st.bind(1, decision).bind(2, utc_now_iso()).bind(3, name);
    const bool found = st.step();
    st.run();
    return found;
  });
}

std::int64_t Work::scheduled_games(std::int64_t tournament_id) const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the pairs of tournament " + std::to_string(tournament_id), [&] {
    Statement st(core_.db, "SELECT COALESCE(sum(games), 0) FROM pairs WHERE tournament_id = ?");
    st.bind(1, tournament_id);
    st.step();
    return st.int64(0);
  });
}

TournamentControl Work::control(std::int64_t tournament_id) const {
  std::lock_guard lock(core_.mutex);
  return core_.read("reading the state of tournament " + std::to_string(tournament_id), [&] {
    Statement st(core_.db,
                 "SELECT status, stop_requested, COALESCE(decision, '') FROM tournaments "
                 "WHERE id = ?");
    st.bind(1, tournament_id);
    if (!st.step())
      throw StoreException(describe_error(ErrorKind::Invalid, core_.db.path(),
                                          "reading the state of a tournament",
                                          "no tournament " + std::to_string(tournament_id)));
    TournamentControl c;
    c.status = parse_status(st.text(0)).value_or(TournamentStatus::Running);
    c.stop_requested = st.int64(1) != 0;
    c.decision = st.text(2);
    return c;
  });
}

void Work::set_sprt_settings(std::int64_t tournament_id, const SprtSettings& sprt) {
  std::lock_guard lock(core_.mutex);
  core_.write("recording the SPRT settings of tournament " + std::to_string(tournament_id), [&] {
    Statement st(core_.db,
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

std::optional<SprtSettings> Work::sprt_settings(std::int64_t tournament_id) const {
  std::lock_guard lock(core_.mutex);
  Statement st(core_.db,
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

std::vector<WorkerSummary> Work::workers(const GameFilter& filter) const {
  std::lock_guard lock(core_.mutex);
  const FilterSql games = filter_sql(filter);
  const FilterSql superseded = filter_sql(filter);
  const auto with_worker = [](const std::string& where) {
    return where.empty() ? std::string(" WHERE g.worker_id IS NOT NULL")
                         : where + " AND g.worker_id IS NOT NULL";
  };
  // Unfiltered: every worker ever registered; filtered: those with a game or a superseded
  // attempt among the filtered ones.
  Statement st(
      core_.db,
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

std::vector<WorkerState> Work::worker_states() const {
  std::lock_guard lock(core_.mutex);
  std::map<std::int64_t, WorkerState> by_id;
  {
    Statement st(core_.db,
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
      core_.db,
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

}  // namespace knightly::db
