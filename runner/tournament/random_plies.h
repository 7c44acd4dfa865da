#pragma once
// Self-play variety without a book: N random legal plies played from an opening, chosen by a
// seed (the same seed gives the same plies), never ending in a finished game.
#include <cstdint>
#include <expected>
#include <string>

#include "runner/tournament/opening.h"

namespace knightly::runner {

// Appends up to `plies` random moves to `opening` (its FEN and moves must be legal: an error
// says which move is not). A move after which the game would be over is never chosen; when
// every move would end the game the line stops early.
std::expected<Opening, std::string> add_random_plies(Opening opening, int plies,
                                                     std::uint64_t seed);

}  // namespace knightly::runner
