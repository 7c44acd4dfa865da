#include "engine/search/see.h"

#include <algorithm>

#include "engine/chess/bitboard.h"

namespace knightly::search {

using chess::Bitboard;

namespace {

constexpr int Value[6] = {100, 320, 330, 500, 900, 20000};

}  // namespace

bool see_non_negative(const chess::Position& pos, chess::Move m) {
  if (m.kind() == chess::Move::Normal) {
    const chess::Piece captured = victim_of(pos, m);
    if (captured != chess::NoPiece &&
        Value[chess::type_of(captured)] >= Value[chess::type_of(pos.piece_on(m.from()))])
      return true;
  }
  return see(pos, m) >= 0;
}

int see(const chess::Position& pos, chess::Move m) {
  if (m.kind() == chess::Move::Castling) return 0;
  const chess::Square from = m.from(), to = m.to();
  Bitboard occ = pos.occupied();
  const chess::Piece moving = pos.piece_on(from);
  chess::Color stm = chess::color_of(moving);
  chess::PieceType attacker = chess::type_of(moving);
  const chess::Piece captured = victim_of(pos, m);
  int gain[40];
  int d = 0;
  gain[0] = captured == chess::NoPiece ? 0 : Value[chess::type_of(captured)];
  if (m.kind() == chess::Move::Promotion) {
    gain[0] += Value[m.promotion()] - Value[chess::Pawn];
    attacker = m.promotion();
  }
  if (m.kind() == chess::Move::EnPassant)
    occ ^= Bitboard(1) << (stm == chess::White ? to - 8 : to + 8);
  Bitboard from_set = Bitboard(1) << from;
  // Position::attackers_to(to, occ) taken apart: pawns, knights and kings attack `to` whatever
  // stands between, so they are found once; sliders are looked up again after each capture,
  // which brings in the x-rays behind the piece that left.
  const Bitboard steppers = (chess::pawn_attacks(chess::White, to) & pos.pieces(chess::Black, chess::Pawn)) |
                            (chess::pawn_attacks(chess::Black, to) & pos.pieces(chess::White, chess::Pawn)) |
                            (chess::knight_attacks(to) & pos.pieces(chess::Knight)) |
                            (chess::king_attacks(to) & pos.pieces(chess::King));
  const Bitboard diagonal = pos.pieces(chess::Bishop) | pos.pieces(chess::Queen);
  const Bitboard straight = pos.pieces(chess::Rook) | pos.pieces(chess::Queen);
  do {
    ++d;
    gain[d] = Value[attacker] - gain[d - 1];  // if the piece now on `to` is taken
    occ ^= from_set;
    stm = ~stm;
    Bitboard att = (steppers | (chess::rook_attacks(to, occ) & straight) |
                    (chess::bishop_attacks(to, occ) & diagonal)) &
                   occ & pos.pieces(stm);
    from_set = 0;
    for (int t = chess::Pawn; t <= chess::King; ++t) {
      Bitboard b = att & pos.pieces(stm, chess::PieceType(t));
      if (b) {
        from_set = b & (~b + 1);
        attacker = chess::PieceType(t);
        break;
      }
    }
  } while (from_set && d < 38);
  while (--d) gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
  return gain[0];
}

}  // namespace knightly::search
