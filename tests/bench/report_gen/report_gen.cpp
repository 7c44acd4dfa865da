// knightly-bench-report-gen: builds the database scripts/bench-report times `knightly report`
// on: one SPRT-like tournament between two engines, N games of random legal moves (8 book
// plies, then up to --plies engine plies with scores, depths, nodes, think times and clocks),
// each with its PGN as the runner writes it. Inserted through Store::insert_game, one
// transaction per game as `knightly run` does (synchronous=NORMAL).
//
//   knightly-bench-report-gen --db PATH [--games N] [--plies N] [--seed S]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>

#include "db/store/store.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "runner/match/game_pgn.h"

namespace {

using namespace knightly;

constexpr int kBook = 8;

// One game: random legal moves from the initial position; the game ends by the rules or after
// `plies` plies (then a result drawn with White's expected score 0.55).
void play(GameRecord& g, std::mt19937_64& rng, int plies, int index) {
  chess::Position pos;
  g.moves.clear();
  g.result = Result::None;
  std::int64_t clock[2] = {60000, 60000};
  for (int ply = 0; ply < plies + kBook; ++ply) {
    const chess::MoveList legal = pos.legal_moves();
    const auto end = pos.game_end(legal);
    if (end == chess::GameEnd::Checkmate) {
      g.result = pos.side_to_move() == chess::White ? Result::BlackWins : Result::WhiteWins;
      g.termination = Termination::Checkmate;
      g.reason = pos.side_to_move() == chess::White ? "Black mates" : "White mates";
      break;
    }
    if (end != chess::GameEnd::None) {
      g.result = Result::Draw;
      g.termination = Termination::Stalemate;
      g.reason = "Draw by stalemate or rule";
      break;
    }
    const chess::Move m = legal[static_cast<std::size_t>(rng() % legal.size())];
    MoveRecord r;
    r.uci = chess::to_uci(m);
    r.san = chess::to_san(pos, m);
    r.move = m;
    r.book = ply < kBook;
    if (!r.book) {
      const int side = ply % 2;
      r.eval.score_cp = static_cast<int>(rng() % 201) - 100;
      r.eval.depth = 10 + static_cast<int>(rng() % 8);
      r.eval.seldepth = r.eval.depth + 6;
      r.eval.nodes = 200000 + rng() % 400000;
      r.time_ms = 50 + static_cast<std::int64_t>(rng() % 400);
      clock[side] = std::max<std::int64_t>(100, clock[side] - r.time_ms + 100);
      r.clock_left_ms = clock[side];
    }
    g.moves.push_back(r);
    pos.do_move(m);
  }
  if (g.result == Result::None) {
    const auto x = rng() % 100;
    g.result = x < 35 ? Result::WhiteWins : x < 60 ? Result::BlackWins : Result::Draw;
    g.termination =
        g.result == Result::Draw ? Termination::AdjudicationDraw : Termination::AdjudicationResign;
    g.reason = g.result == Result::Draw ? "Draw by adjudication" : "Adjudicated by resignation";
  }
  runner::PgnHeader h;
  h.event = "bench";
  h.round = std::to_string(index / 2 + 1);
  h.white_time_control = h.black_time_control = "60+0.1";
  g.pgn = runner::to_pgn(g, h);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int games = 100000;
  int plies = 72;
  std::uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has = i + 1 < argc;
    if (a == "--db" && has)
      path = argv[++i];
    else if (a == "--games" && has)
      games = std::atoi(argv[++i]);
    else if (a == "--plies" && has)
      plies = std::atoi(argv[++i]);
    else if (a == "--seed" && has)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(
          stderr,
          "usage: knightly-bench-report-gen --db PATH [--games N] [--plies N] [--seed S]\n");
      return 2;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "knightly-bench-report-gen: --db PATH is required\n");
    return 2;
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  db::StoreOptions options;
  options.sync_every_commit = false;
  auto opened = db::Store::open(path, options);
  if (!opened) {
    std::fprintf(stderr, "%s\n", opened.error().message.c_str());
    return 2;
  }
  db::Store& store = *opened;
  const auto t = store.catalog().create_tournament(
      {"bench-sprt", db::TournamentKind::Sprt,
       "knightly sprt --new alpha --base beta --elo0 0 --elo1 5 --alpha 0.05 --beta 0.05", seed,
       ""});
  const auto alpha =
      store.catalog().upsert_engine({"Alpha", "/bin/alpha", "Hash=16", "Alpha 1", "", "", false});
  const auto beta =
      store.catalog().upsert_engine({"Beta", "/bin/beta", "Hash=16", "Beta 1", "", "", false});
  std::mt19937_64 rng(seed);
  GameRecord g;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < games; ++i) {
    g.id = {i / 2, i / 2, i % 2, i};
    const bool alpha_white = i % 2 == 0;
    g.white = alpha_white ? "Alpha" : "Beta";
    g.black = alpha_white ? "Beta" : "Alpha";
    g.time_control = "60+0.1";
    g.opening_source = "random 8 plies";
    char when[32];
    std::snprintf(when, sizeof when, "2026-11-%02dT%02d:%02d:%02dZ", 1 + i / 86400 % 28,
                  i / 3600 % 24, i / 60 % 60, i % 60);
    g.start_time = when;
    g.duration_ms = 60000;
    play(g, rng, plies, i);
    store.games().insert_game(t.id, g, alpha_white ? alpha : beta, alpha_white ? beta : alpha);
    if ((i + 1) % 20000 == 0)
      std::printf("  %d games, %.1f s\n", i + 1,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  store.catalog().set_tournament_status(t.id, db::TournamentStatus::Finished);
  std::printf("%d games in %s\n", games, path.c_str());
  return 0;
}
