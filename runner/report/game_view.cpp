#include "runner/report/game_view.h"

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "runner/report/json.h"

namespace knightly::runner::report {

std::string game_json(std::int64_t id, const std::string& tournament, const GameRecord& g) {
  JsonWriter w;
  w.begin_object();
  w.key("id").value(id);
  w.key("tournament").value(tournament);
  w.key("round").value(g.id.round + 1);
  w.key("pair").value(g.id.pair + 1);
  w.key("game").value(g.id.game_in_pair + 1);
  w.key("white").value(g.white);
  w.key("black").value(g.black);
  w.key("result").value(result_token(g.result));
  w.key("termination").value(termination_name(g.termination));
  w.key("reason").value(g.reason);
  w.key("started_at").value(g.start_time);
  w.key("duration_ms").value(g.duration_ms);
  w.key("time_control").value(g.time_control);
  w.key("opening").value(g.opening_source);
  // An empty start FEN is the initial position, as the run stores it.
  const std::string start_fen =
      g.start_fen.empty() ? std::string(chess::Position::StartFen) : g.start_fen;
  w.key("start_fen").value(start_fen);

  std::string error;
  auto start = chess::Position::from_fen(start_fen);
  if (!start) error = "start position '" + start_fen + "': " + start.error().message;
  chess::Position pos = start ? *start : chess::Position();
  w.key("moves").begin_array();
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    const MoveRecord& m = g.moves[i];
    std::string board;
    if (error.empty()) {
      auto move = chess::parse_uci(pos, m.uci);
      if (move) {
        pos.do_move(*move);
        board = pos.fen();
      } else {
        error = "ply " + std::to_string(i + 1) + " ('" + m.uci + "'): " + move.error();
      }
    }
    w.begin_array().value(m.uci).value(m.san).value(board);
    m.eval.score_cp ? w.value(*m.eval.score_cp) : w.null();
    m.eval.mate ? w.value(*m.eval.mate) : w.null();
    w.value(m.eval.depth).value(static_cast<std::int64_t>(m.eval.nodes)).value(m.time_ms);
    m.clock_left_ms >= 0 ? w.value(m.clock_left_ms) : w.null();
    w.value(m.book ? 1 : 0).end_array();
  }
  w.end_array();
  w.key("final_fen").value(error.empty() ? pos.fen() : std::string());
  w.key("replay_error").value(error);
  w.key("pgn").value(g.pgn);
  w.end_object();
  return w.take();
}

}  // namespace knightly::runner::report
