#pragma once
// Attack sets computed from bitboards alone, for the evaluation terms that count attacks
// (tension, mobility). Kept here so eval depends only on Position's public queries.
#include "engine/chess/types.h"

namespace knightly::eval {

chess::Bitboard pawn_attacks(chess::Color c, chess::Bitboard pawns);
chess::Bitboard knight_attacks(chess::Square s);
chess::Bitboard king_attacks(chess::Square s);
chess::Bitboard bishop_attacks(chess::Square s, chess::Bitboard occupied);
chess::Bitboard rook_attacks(chess::Square s, chess::Bitboard occupied);

}  // namespace knightly::eval
