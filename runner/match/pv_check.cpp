#include "runner/match/pv_check.h"

#include <algorithm>

#include "engine/chess/notation.h"

namespace knightly::runner {

std::optional<std::string> check_pv(const chess::Position& pos, const MoveEval& eval, bool bound,
                                    std::string_view engine) {
  if (eval.pv.empty()) return std::nullopt;
  const std::string from = " from " + std::string(engine);
  chess::Position board = pos;
  std::size_t plies = 0;
  std::string_view rest = eval.pv;
  while (!rest.empty()) {
    const std::size_t start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    const std::size_t end = std::min(rest.find(' '), rest.size());
    const std::string_view move = rest.substr(0, end);
    rest.remove_prefix(end);
    const std::string text(move);
    // Insufficient material does not end a PV (fastchess's isGameOverSimple).
    switch (board.game_end()) {
      case chess::GameEnd::ThreefoldRepetition:
        return "Warning; PV continues after threefold repetition - move " + text + from;
      case chess::GameEnd::FiftyMoveRule:
        return "Warning; PV continues after fifty-move rule - move " + text + from;
      case chess::GameEnd::Checkmate:
        return "Warning; PV continues after checkmate - move " + text + from;
      case chess::GameEnd::Stalemate:
        return "Warning; PV continues after stalemate - move " + text + from;
      case chess::GameEnd::None:
      case chess::GameEnd::InsufficientMaterial:
        break;
    }
    auto m = chess::parse_uci(board, move);
    if (!m) return "Warning; Illegal PV move - move " + text + from;
    board.do_move(*m);
    ++plies;
  }
  if (!eval.mate || bound) return std::nullopt;
  const int mate = *eval.mate;
  const std::size_t mate_plies = mate > 0 ? std::size_t(mate) * 2 - 1 : std::size_t(-mate) * 2;
  if (plies < mate_plies) return "Warning; Incomplete mating PV -" + from;
  if (plies > mate_plies) return "Warning; Too long mating PV -" + from;
  if (board.game_end() != chess::GameEnd::Checkmate)
    return "Warning; Mating PV does not end with checkmate -" + from;
  return std::nullopt;
}

std::string pv_warning_text(const std::string& warning, std::string_view info_line,
                            std::string_view start_fen, std::string_view moves) {
  std::string out = warning;
  out += "\nInfo; ";
  out += info_line;
  out += "\nPosition; ";
  if (start_fen.empty() || start_fen == "startpos") {
    out += "startpos";
  } else {
    out += "fen ";
    out += start_fen;
  }
  out += "\nMoves; ";
  out += moves;
  return out;
}

}  // namespace knightly::runner
