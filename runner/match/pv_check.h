#pragma once
// fastchess's checks of the principal variation an engine reported with its move (its
// -check-mate-pvs; match.cpp checkParsedPvLine): every PV move legal and none played after the
// game ended in the PV, and for an exact mate score a PV exactly as long as the mate distance
// that ends in checkmate. The warning is fastchess's text ("Warning; Incomplete mating PV -
// from NAME"). Pure: the position and the engine's words come in as values.
#include <optional>
#include <string>
#include <string_view>

#include "db/records/move_eval.h"
#include "engine/chess/position.h"

namespace knightly::runner {

// `pos` is the position the engine searched; `eval` its last scored line (score and pv);
// `bound` whether that score was a lower or upper bound (no mate check then, as fastchess).
// nullopt when the PV passes, else fastchess's first line of the warning.
std::optional<std::string> check_pv(const chess::Position& pos, const MoveEval& eval, bool bound,
                                    std::string_view engine);

// The whole warning as fastchess prints it without -testEnv: the line above, then
// "Info; <the engine's line>", "Position; startpos" (or "Position; fen <FEN>") and
// "Moves; <the game's moves before this one>", one a line.
std::string pv_warning_text(const std::string& warning, std::string_view info_line,
                            std::string_view start_fen, std::string_view moves);

}  // namespace knightly::runner
