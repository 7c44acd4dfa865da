// Store's tunes: SPSA's settings, parameters and iterations beside a tournament whose rounds
// are the iterations (db/schema/007_tune.sql). The games, pairs and leases are the
// tournament's own (store_work.cpp); these tables record what each iteration was played with
// and what it scored.
#include <algorithm>

#include "db/store/store.h"
#include "db/store/store_impl.h"

namespace knightly::db {

namespace {

using tune::Param;
using tune::Step;

std::string tune_text(std::int64_t tournament_id) {
  return "the tune of tournament " + std::to_string(tournament_id);
}

std::vector<Step> read_steps(Statement& st) {
  std::vector<Step> out;
  while (st.step()) {
    Step s;
    s.theta = st.real(0);
    s.flip = st.int32(1);
    s.c = st.real(2);
    s.a = st.real(3);
    s.plus = st.real(4);
    s.minus = st.real(5);
    out.push_back(s);
  }
  return out;
}

constexpr const char* kStepColumns = "theta, flip, c, a, plus_value, minus_value";

// The plus engine's games of an iteration that ended `outcome` for it: `side` is the SQL of
// the condition on (g.result, w.name, b.name) against t.plus_engine.
std::string tune_games(const std::string& side) {
  return "(SELECT count(*) FROM games g JOIN engines w ON w.id = g.white_id "
         "JOIN engines b ON b.id = g.black_id JOIN tunes t ON t.tournament_id = g.tournament_id "
         "WHERE g.tournament_id = tune_iterations.tournament_id "
         "AND g.round = tune_iterations.iteration AND (" +
         side + "))";
}

}  // namespace

void Store::create_tune(std::int64_t tournament_id, const TuneSetup& setup,
                        std::span<const Param> params) {
  std::lock_guard lock(impl_->mutex);
  const std::string what = "recording " + tune_text(tournament_id);
  impl_->write(what, [&] {
    Statement insert(impl_->db,
                     "INSERT INTO tunes (tournament_id, engine, plus_engine, minus_engine, "
                     "iterations, pairs_per_iteration, delay, a_ratio, alpha, gamma) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id) DO NOTHING "
                     "RETURNING tournament_id");
    const auto& s = setup.settings;
    insert.bind(1, tournament_id)
        .bind(2, setup.engine)
        .bind(3, setup.plus_engine)
        .bind(4, setup.minus_engine)
        .bind(5, s.iterations)
        .bind(6, s.pairs_per_iteration)
        .bind(7, s.delay)
        .bind(8, s.a_ratio)
        .bind(9, s.alpha)
        .bind(10, s.gamma);
    const bool inserted = insert.step();
    insert.run();
    if (!inserted) return;  // another worker recorded it (its config is the same: run.cpp)
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Param& p = params[i];
      Statement st(impl_->db,
                   "INSERT INTO tune_params (tournament_id, param, name, start_value, min_value, "
                   "max_value, c_end, r_end, is_integer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
      st.bind(1, tournament_id)
          .bind(2, static_cast<std::int64_t>(i))
          .bind(3, p.name)
          .bind(4, p.start)
          .bind(5, p.min)
          .bind(6, p.max)
          .bind(7, p.c_end)
          .bind(8, p.r_end)
          .bind(9, p.integer ? 1 : 0)
          .run();
    }
  });
}

std::optional<StoredTune> Store::tune(std::int64_t tournament_id, int from_iteration) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->read("reading " + tune_text(tournament_id), [&]() -> std::optional<StoredTune> {
    Statement head(impl_->db,
                   "SELECT engine, plus_engine, minus_engine, iterations, pairs_per_iteration, "
                   "delay, a_ratio, alpha, gamma FROM tunes WHERE tournament_id = ?");
    head.bind(1, tournament_id);
    if (!head.step()) return std::nullopt;
    StoredTune t;
    t.tournament_id = tournament_id;
    t.setup.engine = head.text(0);
    t.setup.plus_engine = head.text(1);
    t.setup.minus_engine = head.text(2);
    auto& s = t.setup.settings;
    s.iterations = head.int32(3);
    s.pairs_per_iteration = head.int32(4);
    s.delay = head.int32(5);
    s.a_ratio = head.real(6);
    s.alpha = head.real(7);
    s.gamma = head.real(8);
    head.run();
    Statement params(impl_->db,
                     "SELECT name, start_value, min_value, max_value, c_end, r_end, is_integer "
                     "FROM tune_params WHERE tournament_id = ? ORDER BY param");
    params.bind(1, tournament_id);
    while (params.step())
      t.params.push_back({params.text(0), params.real(1), params.real(2), params.real(3),
                          params.real(4), params.real(5), params.int64(6) != 0});
    Statement its(impl_->db,
                  "SELECT iteration, wins, draws, losses, COALESCE(finished_at, '') "
                  "FROM tune_iterations WHERE tournament_id = ? AND iteration >= ? "
                  "ORDER BY iteration");
    its.bind(1, tournament_id).bind(2, from_iteration);
    while (its.step()) {
      TuneIteration it;
      it.iteration = its.int32(0);
      it.wins = its.opt_int64(1);
      it.draws = its.opt_int64(2);
      it.losses = its.opt_int64(3);
      it.finished_at = its.text(4);
      t.iterations.push_back(std::move(it));
    }
    Statement steps(impl_->db, std::string("SELECT iteration, ") + kStepColumns +
                                   " FROM tune_steps WHERE tournament_id = ? AND iteration >= ? "
                                   "ORDER BY iteration, param");
    steps.bind(1, tournament_id).bind(2, from_iteration);
    auto at = t.iterations.begin();
    while (steps.step()) {
      const int k = steps.int32(0);
      while (at != t.iterations.end() && at->iteration < k) ++at;
      if (at == t.iterations.end() || at->iteration != k) continue;
      at->steps.push_back({steps.real(1), steps.int32(2), steps.real(3), steps.real(4),
                           steps.real(5), steps.real(6)});
    }
    return t;
  });
}

std::vector<std::int64_t> Store::tune_ids() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->read("reading the tunes", [&] {
    Statement st(impl_->db, "SELECT tournament_id FROM tunes ORDER BY tournament_id");
    std::vector<std::int64_t> out;
    while (st.step()) out.push_back(st.int64(0));
    return out;
  });
}

std::vector<Step> Store::begin_tune_iteration(std::int64_t tournament_id, int iteration,
                                              std::span<const Step> steps) {
  std::lock_guard lock(impl_->mutex);
  const std::string what =
      "recording iteration " + std::to_string(iteration + 1) + " of " + tune_text(tournament_id);
  return impl_->write(what, [&] {
    Statement insert(impl_->db,
                     "INSERT INTO tune_iterations (tournament_id, iteration) VALUES (?, ?) "
                     "ON CONFLICT (tournament_id, iteration) DO NOTHING RETURNING iteration");
    insert.bind(1, tournament_id).bind(2, iteration);
    const bool first = insert.step();
    insert.run();
    if (first) {
      for (std::size_t i = 0; i < steps.size(); ++i) {
        const Step& s = steps[i];
        Statement st(impl_->db,
                     std::string("INSERT INTO tune_steps (tournament_id, iteration, param, ") +
                         kStepColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        st.bind(1, tournament_id)
            .bind(2, iteration)
            .bind(3, static_cast<std::int64_t>(i))
            .bind(4, s.theta)
            .bind(5, s.flip)
            .bind(6, s.c)
            .bind(7, s.a)
            .bind(8, s.plus)
            .bind(9, s.minus)
            .run();
      }
    }
    Statement read(impl_->db, std::string("SELECT ") + kStepColumns +
                                  " FROM tune_steps WHERE tournament_id = ? AND iteration = ? "
                                  "ORDER BY param");
    read.bind(1, tournament_id).bind(2, iteration);
    return read_steps(read);
  });
}

int Store::finish_tune_iterations(std::int64_t tournament_id) {
  std::lock_guard lock(impl_->mutex);
  return impl_->write("recording the results of " + tune_text(tournament_id), [&] {
    // An iteration is over when each of its round's pairs is done: then all its games are in
    // `games` (a pair taken over from a dead worker counts each game once), and its result is
    // counted from them, once.
    Statement st(impl_->db, "UPDATE tune_iterations SET wins = " +
                                tune_games("(g.result = '1-0' AND w.name = t.plus_engine) OR "
                                           "(g.result = '0-1' AND b.name = t.plus_engine)") +
                                ", draws = " + tune_games("g.result = '1/2-1/2'") + ", losses = " +
                                tune_games("(g.result = '0-1' AND w.name = t.plus_engine) OR "
                                           "(g.result = '1-0' AND b.name = t.plus_engine)") +
                                ", finished_at = ? WHERE tournament_id = ? AND wins IS NULL "
                                "AND EXISTS (SELECT 1 FROM pairs p WHERE p.tournament_id = "
                                "tune_iterations.tournament_id "
                                "  AND p.round = tune_iterations.iteration) "
                                "AND NOT EXISTS (SELECT 1 FROM pairs p WHERE "
                                "  p.tournament_id = tune_iterations.tournament_id "
                                "  AND p.round = tune_iterations.iteration AND p.state <> 'done') "
                                "RETURNING iteration");
    st.bind(1, utc_now_iso()).bind(2, tournament_id);
    int n = 0;
    while (st.step()) ++n;
    return n;
  });
}

}  // namespace knightly::db
