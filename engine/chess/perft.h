#pragma once
// Perft: legal move path enumeration with bulk counting at the last ply.
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/chess/position.h"

namespace knightly::chess {

std::uint64_t perft(Position& pos, int depth);

// Implementations of the same count: Auto picks the fastest this CPU runs. Popcnt and Pext
// (x86-64 POPCNT, BMI2) fall back to Generic where unavailable; tests run each of them.
enum class PerftImpl { Auto, Generic, Popcnt, Pext };
std::uint64_t perft(Position& pos, int depth, PerftImpl impl);
bool perft_available(PerftImpl impl);
// One entry per legal root move, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace knightly::chess
