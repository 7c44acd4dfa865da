#include "engine/eval/attacks.h"

#include <array>

namespace knightly::eval {

using chess::Bitboard;
using chess::Square;

namespace {

constexpr Bitboard NotA = 0xfefefefefefefefeULL;
constexpr Bitboard NotH = 0x7f7f7f7f7f7f7f7fULL;

constexpr Bitboard step_set(Square s, const int (*deltas)[2], int n) {
  Bitboard b = 0;
  for (int i = 0; i < n; ++i) {
    int f = chess::file_of(s) + deltas[i][0];
    int r = chess::rank_of(s) + deltas[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= Bitboard(1) << (r * 8 + f);
  }
  return b;
}

constexpr int KnightDeltas[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int KingDeltas[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                  {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

constexpr auto make_table(const int (*deltas)[2]) {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s) t[s] = step_set(Square(s), deltas, 8);
  return t;
}

constexpr auto KnightAttackTable = make_table(KnightDeltas);
constexpr auto KingTable = make_table(KingDeltas);

Bitboard ray(Square s, int df, int dr, Bitboard occupied) {
  Bitboard b = 0;
  int f = chess::file_of(s) + df, r = chess::rank_of(s) + dr;
  while (f >= 0 && f < 8 && r >= 0 && r < 8) {
    Bitboard sq = Bitboard(1) << (r * 8 + f);
    b |= sq;
    if (occupied & sq) break;
    f += df;
    r += dr;
  }
  return b;
}

}  // namespace

Bitboard pawn_attacks(chess::Color c, Bitboard pawns) {
  if (c == chess::White) return ((pawns & NotA) << 7) | ((pawns & NotH) << 9);
  return ((pawns & NotA) >> 9) | ((pawns & NotH) >> 7);
}

Bitboard knight_attacks(Square s) {
  return KnightAttackTable[s];
}
Bitboard king_attacks(Square s) {
  return KingTable[s];
}

Bitboard bishop_attacks(Square s, Bitboard occupied) {
  return ray(s, 1, 1, occupied) | ray(s, 1, -1, occupied) | ray(s, -1, 1, occupied) |
         ray(s, -1, -1, occupied);
}

Bitboard rook_attacks(Square s, Bitboard occupied) {
  return ray(s, 1, 0, occupied) | ray(s, -1, 0, occupied) | ray(s, 0, 1, occupied) |
         ray(s, 0, -1, occupied);
}

}  // namespace knightly::eval
