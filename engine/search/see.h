#pragma once
// Static exchange evaluation: the material balance of the capture sequence on one square,
// each side taking with its least valuable attacker and free to stop. Used by quiescence
// to skip captures that lose material.
#include "engine/chess/position.h"

namespace knightly::search {

int see(const chess::Position& pos, chess::Move m);

// Position::captured_piece(m), inline for the search's hot loops.
inline chess::Piece victim_of(const chess::Position& pos, chess::Move m) {
  if (m.kind() == chess::Move::EnPassant)
    return chess::make_piece(~pos.side_to_move(), chess::Pawn);
  if (m.kind() == chess::Move::Castling) return chess::NoPiece;
  return pos.piece_on(m.to());
}
// see(pos, m) >= threshold, answered without playing out the whole exchange.
bool see_ge(const chess::Position& pos, chess::Move m, int threshold);
inline bool see_non_negative(const chess::Position& pos, chess::Move m) {
  return see_ge(pos, m, 0);
}

}  // namespace knightly::search
