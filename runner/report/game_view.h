#pragma once
// One stored game as the page's board replay reads it: every ply with its move, SAN, the
// full FEN after it (computed here by the chess rules from the stored moves, so the
// page only draws) and the engine's figures; the final position as a full FEN; the PGN.
#include <cstdint>
#include <string>

#include "db/records/game_record.h"

namespace knightly::runner::report {

// {"id", "tournament", "round", "pair", "game", "white", "black", "result", "termination",
//  "reason", "started_at", "duration_ms", "time_control", "opening", "start_fen", "final_fen",
//  "replay_error", "pgn", "moves": [[uci, san, fen, score_cp, mate, depth, nodes,
//  time_ms, clock_left_ms, book], ...]}
// start_fen is the initial position's FEN when the record's is empty. Scores are the mover's, as
// the engine reported them (null when none). A move the rules reject ends the replay: replay_error
// names its ply and text, later plies have an empty FEN and final_fen is "".
std::string game_json(std::int64_t id, const std::string& tournament, const GameRecord& game);

}  // namespace knightly::runner::report
