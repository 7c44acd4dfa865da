#pragma once
// Perft: legal move path enumeration with bulk counting at the last ply.
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/chess/position.h"

namespace knightly::chess {

std::uint64_t perft(Position& pos, int depth);
// One entry per legal root move, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace knightly::chess
