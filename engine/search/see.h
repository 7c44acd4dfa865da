#pragma once
// Static exchange evaluation: the material balance of the capture sequence on one square,
// each side taking with its least valuable attacker and free to stop. Used by quiescence
// to skip captures that lose material.
#include "engine/chess/position.h"

namespace knightly::search {

int see(const chess::Position& pos, chess::Move m);
// see(pos, m) >= 0, answered at once when the victim is worth at least the capturer (the
// capturer can always stop after losing its piece, so see() >= victim - capturer).
bool see_non_negative(const chess::Position& pos, chess::Move m);

}  // namespace knightly::search
