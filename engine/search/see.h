#pragma once
// Static exchange evaluation: the material balance of the capture sequence on one square,
// each side taking with its least valuable attacker and free to stop. Used by quiescence
// to skip captures that lose material.
#include "engine/chess/position.h"

namespace knightly::search {

int see(const chess::Position& pos, chess::Move m);

}  // namespace knightly::search
