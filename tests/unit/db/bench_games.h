#pragma once
// Synthetic games for the store benchmarks (knightly-bench-db, knightly-bench-workers).
#include <optional>
#include <string>

#include "db/records/game_record.h"

namespace knightly::bench {

// A plausible game: tags, SAN movetext with cutechess-style comments, 60 engine moves.
inline void fill_game(GameRecord& g, int index, int plies, const knightly::GameId& id) {
  static const char* kSquares[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6",
                                   "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5"};
  g.id = id;
  g.white = index % 2 ? "Beta" : "Alpha";
  g.black = index % 2 ? "Alpha" : "Beta";
  g.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  g.opening_source = "bench.epd:" + std::to_string(index % 1000);
  g.result =
      index % 3 == 0 ? Result::Draw : (index % 3 == 1 ? Result::WhiteWins : Result::BlackWins);
  g.termination = g.result == Result::Draw ? Termination::Repetition : Termination::Checkmate;
  g.reason = g.result == Result::Draw ? "Draw by 3-fold repetition" : "White mates";
  g.start_time = "2026-11-21T12:00:00Z";
  g.duration_ms = 12345;
  g.time_control = "10+0.1";
  g.moves.resize(static_cast<std::size_t>(plies));
  g.pgn.clear();
  g.pgn += "[Event \"bench\"]\n[Site \"?\"]\n[Date \"2026.11.21\"]\n[Round \"";
  g.pgn += std::to_string(index + 1);
  g.pgn += "\"]\n[White \"" + g.white + "\"]\n[Black \"" + g.black + "\"]\n[Result \"";
  g.pgn += knightly::result_token(g.result);
  g.pgn += "\"]\n\n";
  for (int p = 0; p < plies; ++p) {
    MoveRecord& m = g.moves[static_cast<std::size_t>(p)];
    m.uci = kSquares[(p + index) % 12];
    m.san = "Nf3";
    m.book = p < 4;
    m.eval.score_cp = m.book ? std::nullopt : std::optional<int>((p * 37 + index) % 300 - 150);
    m.eval.depth = m.book ? 0 : 12;
    m.eval.seldepth = m.book ? 0 : 18;
    m.eval.nodes = m.book ? 0 : 250000u + static_cast<unsigned>(p);
    m.time_ms = m.book ? 0 : 95;
    m.clock_left_ms = m.book ? -1 : 10000 - 50 * p;
    if (p % 2 == 0) g.pgn += std::to_string(p / 2 + 1) + ". ";
    g.pgn += m.san;
    g.pgn += m.book ? " {book} " : " {+0.35/12 0.095s} ";
  }
  g.pgn += knightly::result_token(g.result);
  g.pgn += "\n";
}

}  // namespace knightly::bench
