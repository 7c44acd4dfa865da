// The slider attack tables computed at build time (slider_tables.h) against a walk of the
// board, for both lookup kinds, every square, and occupancies that put blockers everywhere.
#include <catch2/catch.hpp>

#include "engine/chess/bitboard.h"
#include "engine/chess/splitmix64.h"

using namespace knightly::chess;

namespace {

// The squares a slider on s attacks along `deltas`, each ray up to and including its first
// blocker, found square by square.
Bitboard walk(Square s, Bitboard occupied, const int (&deltas)[4][2]) {
  Bitboard a = 0;
  for (const auto& d : deltas)
    for (int f = file_of(s) + d[0], r = rank_of(s) + d[1]; f >= 0 && f < 8 && r >= 0 && r < 8;
         f += d[0], r += d[1]) {
      a |= square_bb(make_square(f, r));
      if (occupied & square_bb(make_square(f, r))) break;
    }
  return a;
}

constexpr int kRook[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishop[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

}  // namespace

TEST_CASE("the slider tables give the attacks a walk of the board finds", "[bitboard]") {
  knightly::chess::SplitMix64 rng(20261129);
  int checked = 0;
  for (int s = 0; s < 64; ++s) {
    const Square sq = Square(s);
    for (int i = 0; i < 400; ++i) {
      // Sparse and dense boards alike; the slider's own square set or not (lookups ignore it).
      Bitboard occupied = rng.next();
      if (i % 3 == 1) occupied &= rng.next();
      if (i % 3 == 2) occupied &= rng.next() & rng.next();
      if (i == 0) occupied = 0;
      INFO("square " << s << ", occupied 0x" << std::hex << occupied);
      const Bitboard rook = walk(sq, occupied, kRook), bishop = walk(sq, occupied, kBishop);
      CHECK(rook_attacks<Lookup::Magic>(sq, occupied) == rook);
      CHECK(bishop_attacks<Lookup::Magic>(sq, occupied) == bishop);
      const detail::Magic &r = detail::tables.rook[s], &b = detail::tables.bishop[s];
      CHECK(r.pext_attacks[pext_portable(occupied, r.mask)] == rook);
      CHECK(b.pext_attacks[pext_portable(occupied, b.mask)] == bishop);
      if (detail::tables.fast_pext) {  // the instruction, where the move generator uses it
        CHECK(rook_attacks<Lookup::Pext>(sq, occupied) == rook);
        CHECK(bishop_attacks<Lookup::Pext>(sq, occupied) == bishop);
      }
      CHECK(rook_attacks(sq, occupied) == rook);
      CHECK(queen_attacks(sq, occupied) == (rook | bishop));
      ++checked;
    }
  }
  CHECK(checked == 64 * 400);
}
