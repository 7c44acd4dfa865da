#pragma once
// Static exchange evaluation: the material balance of the capture sequence on one square,
// each side taking with its least valuable attacker and free to stop. Used by quiescence
// to skip captures that lose material.
#include "engine/chess/position.h"

namespace knightly::search {

int see(const chess::Position& pos, chess::Move m);

// Position::captured_piece(m), inline for the search's hot loops.
inline chess::Piece victim_of(const chess::Position& pos, chess::Move m) {
  if (m.kind() == chess::Move::EnPassant) return chess::make_piece(~pos.side_to_move(), chess::Pawn);
  if (m.kind() == chess::Move::Castling) return chess::NoPiece;
  return pos.piece_on(m.to());
}
// see(pos, m) >= 0, answered at once when the victim is worth at least the capturer (the
// capturer can always stop after losing its piece, so see() >= victim - capturer).
bool see_non_negative(const chess::Position& pos, chess::Move m);

}  // namespace knightly::search
