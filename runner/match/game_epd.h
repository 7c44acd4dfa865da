#pragma once
// The position a game ended in, as the line cutechess's and fastchess's -epdout write for it:
// the full FEN of the final position, one line per game.
#include <expected>
#include <string>

#include "db/records/game_record.h"

namespace knightly::runner {

// Replays the record's moves from its start FEN (the initial position when empty). A bad FEN or
// a move that does not replay is an error naming the ply.
std::expected<std::string, std::string> end_position_fen(const GameRecord& record);

}  // namespace knightly::runner
