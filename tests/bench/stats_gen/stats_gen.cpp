// knightly-bench-stats-gen: builds a database of synthetic games among engines of known
// strength, for scripts/bench-stats to time `knightly query ratings` and `standings` on.
//
//   knightly-bench-stats-gen --db PATH [--games N] [--engines N] [--spacing ELO]
//       [--draw D] [--seed S] [--method store|import|sql] [--truth FILE]
//
// Engine i (0-based, named engine-01...) has the true rating (i - (N-1)/2) * spacing, so the
// ratings average 0. A game between ratings a and b is scored with the logistic expectation
// E = 1 / (1 + 10^((b - a) / 400)): a draw with probability 4 * D * E * (1 - E), otherwise a
// win or loss such that the expected score is exactly E, which is what a Bradley-Terry fit
// with draws as half points recovers. The schedule is a round robin of game pairs (colours
// reversed), rounds repeated until N games; the first five engines have a second version
// (another binary hash) from halfway through, as a real history would.
//
// --method store: Store::insert_game, one transaction per game as `knightly run` does.
// --method import: Store::import_games in batches of 10,000 games per transaction.
// --method sql: the schema is created by Store::open (real migrations), the tournament and
//   engines through the Store, then the game rows go in with the SQLite C API in one
//   transaction, with the same columns insert_game writes.
// Games have no moves (plies 0): the queries being timed read only the games table.
#include <sqlite3.h>
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "db/store/store.h"

namespace {

using knightly::GameRecord;
using knightly::Result;
using knightly::Termination;

struct Options {
  std::string db;
  std::int64_t games = 1000000;
  int engines = 20;
  double spacing = 40;
  double draw = 0.4;
  std::uint64_t seed = 20261122;
  std::string method = "store";
  std::string truth;
};

// One synthetic game: who, with which colour, what result, when.
struct SynthGame {
  knightly::GameId id;
  int white = 0;
  int black = 0;
  Result result = Result::None;
  std::int64_t started_s = 0;  // seconds since the epoch
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string iso_utc(std::int64_t epoch_s) {
  const std::time_t t = static_cast<std::time_t>(epoch_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double true_rating(const Options& o, int engine) {
  return (engine - (o.engines - 1) / 2.0) * o.spacing;
}

// Round robin of game pairs, in schedule order; results drawn from the model above.
class Generator {
 public:
  explicit Generator(const Options& o) : o_(o), rng_(o.seed) {
    for (int a = 0; a < o.engines; ++a)
      for (int b = a + 1; b < o.engines; ++b) encounters_.push_back({a, b});
  }

  SynthGame next(std::int64_t index) {
    const std::int64_t per_round = 2 * static_cast<std::int64_t>(encounters_.size());
    const int round = static_cast<int>(index / per_round);
    const int pair = static_cast<int>((index % per_round) / 2);
    const int game_in_pair = static_cast<int>(index % 2);
    const auto [a, b] = encounters_[static_cast<std::size_t>(pair)];
    SynthGame g;
    g.id = {round, pair, game_in_pair, static_cast<int>(index)};
    g.white = game_in_pair == 0 ? a : b;
    g.black = game_in_pair == 0 ? b : a;
    const double e =
        1.0 / (1.0 + std::pow(10.0, (true_rating(o_, g.black) - true_rating(o_, g.white)) / 400.0));
    const double p_draw = 4.0 * o_.draw * e * (1.0 - e);
    const double p_white = e - p_draw / 2.0;
    const double u = uniform_(rng_);
    g.result =
        u < p_white ? Result::WhiteWins : (u < p_white + p_draw ? Result::Draw : Result::BlackWins);
    g.started_s = kStart + 2 * index;  // one game every 2 s from 1 October 2026
    return g;
  }

  static constexpr std::int64_t kStart = 1790812800;  // 2026-10-01T00:00:00Z

 private:
  const Options& o_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  std::vector<std::pair<int, int>> encounters_;
};

Termination termination_of(Result r) {
  return r == Result::Draw ? Termination::Repetition : Termination::Checkmate;
}
const char* reason_of(Result r) {
  return r == Result::WhiteWins
             ? "White mates"
             : (r == Result::BlackWins ? "Black mates" : "Draw by 3-fold repetition");
}

const char* const kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

void fill_record(GameRecord& r, const SynthGame& g, const std::vector<std::string>& names) {
  r.id = g.id;
  r.white = names[static_cast<std::size_t>(g.white)];
  r.black = names[static_cast<std::size_t>(g.black)];
  r.start_fen = kStartFen;
  r.opening_source = "synthetic";
  r.result = g.result;
  r.termination = termination_of(g.result);
  r.reason = reason_of(g.result);
  r.start_time = iso_utc(g.started_s);
  r.duration_ms = 1000;
  r.time_control = "-";
  r.pgn.clear();
}

void check(int rc, sqlite3* db, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    std::fprintf(stderr, "knightly-bench-stats-gen: %s: %s\n", what, sqlite3_errmsg(db));
    std::exit(1);
  }
}

// The game rows straight through the SQLite C API, one transaction, same columns and
// values as Store::insert_game (content_hash NULL: played, not imported).
void insert_sql(const Options& o, Generator& gen, std::int64_t tournament_id,
                const std::vector<std::int64_t>& old_ids,
                const std::vector<std::int64_t>& new_ids) {
  sqlite3* db = nullptr;
  check(sqlite3_open_v2(o.db.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), db, "open");
  check(sqlite3_exec(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; BEGIN IMMEDIATE",
                     nullptr, nullptr, nullptr),
        db, "begin");
  sqlite3_stmt* st = nullptr;
  check(sqlite3_prepare_v2(
            db,
            "INSERT INTO games (tournament_id, round, pair, game_in_pair, schedule_index, "
            "white_id, black_id, opening_fen, opening_moves, opening_source, result, "
            "termination, reason, plies, started_at, duration_ms, time_control, pgn, "
            "content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', 'synthetic', ?, ?, ?, 0, ?, "
            "1000, '-', '', NULL)",
            -1, &st, nullptr),
        db, "prepare");
  for (std::int64_t i = 0; i < o.games; ++i) {
    const SynthGame g = gen.next(i);
    const auto& ids = i < o.games / 2 ? old_ids : new_ids;
    const std::string started = iso_utc(g.started_s);
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, tournament_id);
    sqlite3_bind_int(st, 2, g.id.round);
    sqlite3_bind_int(st, 3, g.id.pair);
    sqlite3_bind_int(st, 4, g.id.game_in_pair);
    sqlite3_bind_int64(st, 5, i);
    sqlite3_bind_int64(st, 6, ids[static_cast<std::size_t>(g.white)]);
    sqlite3_bind_int64(st, 7, ids[static_cast<std::size_t>(g.black)]);
    sqlite3_bind_text(st, 8, kStartFen, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, knightly::result_token(g.result), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, knightly::termination_name(termination_of(g.result)), -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(st, 11, reason_of(g.result), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, started.c_str(), -1, SQLITE_TRANSIENT);
    check(sqlite3_step(st), db, "insert");
  }
  sqlite3_finalize(st);
  check(sqlite3_exec(db, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr), db,
        "commit");
  sqlite3_close(db);
}

int usage() {
  std::fprintf(
      stderr,
      "usage: knightly-bench-stats-gen --db PATH [--games N] [--engines N] [--spacing ELO] "
      "[--draw D] [--seed S] [--method store|import|sql] [--truth FILE]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    const char* v = argv[++i];
    if (a == "--db")
      o.db = v;
    else if (a == "--games")
      o.games = std::atoll(v);
    else if (a == "--engines")
      o.engines = std::atoi(v);
    else if (a == "--spacing")
      o.spacing = std::atof(v);
    else if (a == "--draw")
      o.draw = std::atof(v);
    else if (a == "--seed")
      o.seed = std::strtoull(v, nullptr, 10);
    else if (a == "--method")
      o.method = v;
    else if (a == "--truth")
      o.truth = v;
    else
      return usage();
  }
  if (o.db.empty() || o.games < 1 || o.engines < 2 || o.draw < 0 || o.draw > 0.5 ||
      (o.method != "store" && o.method != "import" && o.method != "sql"))
    return usage();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(o.db + suffix);

  const auto start = std::chrono::steady_clock::now();
  knightly::db::StoreOptions so;
  so.sync_every_commit = false;
  auto opened = knightly::db::Store::open(o.db, so);
  if (!opened) {
    std::fprintf(stderr, "knightly-bench-stats-gen: %s\n", opened.error().message.c_str());
    return 1;
  }
  std::optional<knightly::db::Store> store(std::move(*opened));
  const auto tournament =
      store->create_tournament({"bench-stats", knightly::db::TournamentKind::Run, "# synthetic",
                                o.seed, iso_utc(Generator::kStart)});

  // Two versions of the first five engines (old binary, then a new one from halfway).
  std::vector<std::string> names;
  std::vector<std::int64_t> old_ids, new_ids;
  for (int e = 0; e < o.engines; ++e) {
    char name[32];
    std::snprintf(name, sizeof name, "engine-%02d", e + 1);
    names.push_back(name);
    knightly::db::EngineInfo info{name,
                                  std::string("/opt/engines/") + name,
                                  "Hash=16 Threads=1",
                                  name,
                                  "bench",
                                  std::string(64, 'a'),
                                  false};
    old_ids.push_back(store->upsert_engine(info));
    if (e < 5) info.binary_sha256 = std::string(64, 'b');
    new_ids.push_back(store->upsert_engine(info));
  }

  Generator gen(o);
  if (o.method == "sql") {
    store.reset();  // the C API takes the file from here
    insert_sql(o, gen, tournament.id, old_ids, new_ids);
    auto reopened = knightly::db::Store::open(o.db, so);
    if (!reopened) {
      std::fprintf(stderr, "knightly-bench-stats-gen: %s\n", reopened.error().message.c_str());
      return 1;
    }
    store.emplace(std::move(*reopened));
  } else if (o.method == "store") {
    GameRecord r;
    for (std::int64_t i = 0; i < o.games; ++i) {
      const SynthGame g = gen.next(i);
      fill_record(r, g, names);
      const auto& ids = i < o.games / 2 ? old_ids : new_ids;
      store->insert_game(tournament.id, r, ids[static_cast<std::size_t>(g.white)],
                         ids[static_cast<std::size_t>(g.black)]);
    }
  } else {
    std::vector<knightly::db::ImportItem> batch;
    for (std::int64_t i = 0; i < o.games; ++i) {
      const SynthGame g = gen.next(i);
      knightly::db::ImportItem item;
      fill_record(item.record, g, names);
      const auto& ids = i < o.games / 2 ? old_ids : new_ids;
      item.white_engine_id = ids[static_cast<std::size_t>(g.white)];
      item.black_engine_id = ids[static_cast<std::size_t>(g.black)];
      item.dedup_key = "synthetic " + std::to_string(i);
      batch.push_back(std::move(item));
      if (batch.size() == 10000 || i + 1 == o.games) {
        store->import_games(tournament.id, batch);
        batch.clear();
      }
    }
  }
  store->set_tournament_status(tournament.id, knightly::db::TournamentStatus::Finished);
  store.reset();

  if (!o.truth.empty()) {
    FILE* f = std::fopen(o.truth.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "knightly-bench-stats-gen: cannot write %s\n", o.truth.c_str());
      return 1;
    }
    std::fprintf(f, "engine,rating\n");
    for (int e = 0; e < o.engines; ++e)
      std::fprintf(f, "%s,%.1f\n", names[static_cast<std::size_t>(e)].c_str(), true_rating(o, e));
    std::fclose(f);
  }
  const double s = seconds_since(start);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::error_code ec;
  std::printf(
      "generated %lld games among %d engines (method %s) in %.1f s (%.0f games/s); "
      "database %.1f MB; peak RSS %ld kB\n",
      static_cast<long long>(o.games), o.engines, o.method.c_str(), s,
      static_cast<double>(o.games) / s,
      static_cast<double>(std::filesystem::file_size(o.db, ec)) / 1e6, usage.ru_maxrss);
  return 0;
}
