#include "engine/search/see.h"

#include <algorithm>

#include "engine/chess/bitboard.h"

namespace knightly::search {

using chess::Bitboard;

namespace {

constexpr int Value[6] = {100, 320, 330, 500, 900, 20000};

}  // namespace

// The swap algorithm of see() with only a comparison to answer (Stockfish's see_ge): the
// exchange stops as soon as the side to capture can no longer change the answer, which is
// usually after one or two captures. A king as the least valuable attacker goes to see()
// itself, which lets kings capture into defended squares and scores that exactly.
bool see_ge(const chess::Position& pos, chess::Move m, int threshold) {
  if (m.kind() != chess::Move::Normal) return see(pos, m) >= threshold;
  const chess::Square from = m.from(), to = m.to();
  const chess::Piece moving = pos.piece_on(from);
  const chess::Piece captured = pos.piece_on(to);
  // swap: how far the side that just captured is above the threshold if the sequence stops
  // here, then (negated) what it stands to lose if its piece is taken.
  int swap = (captured == chess::NoPiece ? 0 : Value[chess::type_of(captured)]) - threshold;
  if (swap < 0) return false;
  swap = Value[chess::type_of(moving)] - swap;
  if (swap <= 0) return true;
  chess::Color stm = chess::color_of(moving);
  Bitboard occ = pos.occupied() ^ (Bitboard(1) << from);
  const Bitboard diagonal = pos.pieces(chess::Bishop) | pos.pieces(chess::Queen);
  const Bitboard straight = pos.pieces(chess::Rook) | pos.pieces(chess::Queen);
  Bitboard attackers = pos.attackers_to(to, occ);
  int res = 1;  // the answer if the side to capture next stops now
  while (true) {
    stm = ~stm;
    attackers &= occ;
    const Bitboard mine = attackers & pos.pieces(stm);
    if (!mine) break;
    res ^= 1;
    int t = chess::Pawn;
    Bitboard b = mine & pos.pieces(chess::Pawn);
    while (!b) b = mine & pos.pieces(chess::PieceType(++t));
    if (t == chess::King) return see(pos, m) >= threshold;
    if ((swap = Value[t] - swap) < res) break;
    occ ^= b & (~b + 1);
    // Only a line through the square the capturer left can open: diagonal behind a pawn or
    // bishop, straight behind a rook, both behind a queen (never behind a knight).
    if (t == chess::Pawn || t == chess::Bishop || t == chess::Queen)
      attackers |= chess::bishop_attacks(to, occ) & diagonal;
    if (t == chess::Rook || t == chess::Queen) attackers |= chess::rook_attacks(to, occ) & straight;
  }
  return res != 0;
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
  const Bitboard steppers =
      (chess::pawn_attacks(chess::White, to) & pos.pieces(chess::Black, chess::Pawn)) |
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
