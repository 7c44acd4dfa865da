#pragma once
// The slider attack tables: computed when Knightly is built (gen/slider_tables_gen.cpp writes
// them as constant arrays, which the programs map from their file as they touch them) rather
// than at every start of every program; and the rays they come from, which the start uses
// for bitboard.h's other tables. Internal to bitboard.h.
#include <bit>
#include <cstddef>
#include <cstdint>

#include "engine/chess/bitboard.h"

namespace knightly::chess::detail {

// Each table holds every square's block, in square order; a square's block has
// 1 << popcount(slider_mask(square)) entries.
inline constexpr std::size_t kRookTableSize = 0x19000;
inline constexpr std::size_t kBishopTableSize = 0x1480;

inline constexpr int RookDeltas[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
inline constexpr int BishopDeltas[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// A slider's four rays from every square, walked once; its attacks on any occupancy are then
// a few bit operations (the tables' build asks for them 107,648 times per kind).
struct Rays {
  Bitboard ray[4][64];  // the squares along deltas[d] from a square, the square not included
  bool up[4];           // whether deltas[d] goes to higher square numbers
  int opposite[4];      // the ray the other way
  explicit Rays(const int (&deltas)[4][2]) {
    for (int d = 0; d < 4; ++d) {
      for (int e = 0; e < 4; ++e)
        if (deltas[e][0] == -deltas[d][0] && deltas[e][1] == -deltas[d][1]) opposite[d] = e;
      up[d] = deltas[d][1] > 0 || (deltas[d][1] == 0 && deltas[d][0] > 0);
      for (int s = 0; s < 64; ++s) {
        Bitboard r = 0;
        for (int f = file_of(Square(s)) + deltas[d][0], k = rank_of(Square(s)) + deltas[d][1];
             f >= 0 && f < 8 && k >= 0 && k < 8; f += deltas[d][0], k += deltas[d][1])
          r |= square_bb(make_square(f, k));
        ray[d][s] = r;
      }
    }
  }
  // The squares attacked from sq: along each ray up to and including its first blocker.
  Bitboard attacks(Square sq, Bitboard occupied) const {
    Bitboard a = 0;
    for (int d = 0; d < 4; ++d) {
      const Bitboard r = ray[d][sq];
      const Bitboard blockers = r & occupied;
      if (!blockers) {
        a |= r;
        continue;
      }
      const int b = up[d] ? std::countr_zero(blockers) : 63 - std::countl_zero(blockers);
      a |= r & ~ray[d][b];
    }
    return a;
  }
};

// The squares whose occupancy matters to a slider on sq: its empty-board attacks less the
// board's edges beyond them.
inline Bitboard slider_mask(const Rays& rays, Square sq) {
  const Bitboard edges = ((Rank1BB | rank_bb(7)) & ~rank_bb(rank_of(sq))) |
                         ((FileABB | FileHBB) & ~file_bb(file_of(sq)));
  return rays.attacks(sq, 0) & ~edges;
}

// One kind's masks, shifts and magics (`known`), and each square's block in `table` and
// `pext_table`, in square order: the layout of the generated tables, which the generator
// writes and the program's start reads through this one function.
inline void place_sliders(Magic (&magics)[64], const Rays& rays, const std::uint64_t (&known)[64],
                          const Bitboard* table, const Bitboard* pext_table) {
  std::ptrdiff_t offset = 0;
  for (int s = 0; s < 64; ++s) {
    Magic& m = magics[s];
    m.mask = slider_mask(rays, Square(s));
    m.shift = unsigned(64 - popcount(m.mask));
    m.magic = known[s];
    m.attacks = table + offset;
    m.pext_attacks = pext_table + offset;
    offset += std::ptrdiff_t{1} << popcount(m.mask);
  }
}

// Generated (slider_tables_generated.cpp). The magic blocks are indexed by
// ((occupied & mask) * magic) >> (64 - popcount(mask)), Stockfish's "fancy" layout; the PEXT
// blocks by pext(occupied, mask).
extern const std::uint64_t rook_magics[64];
extern const std::uint64_t bishop_magics[64];
extern const Bitboard rook_magic_attacks[kRookTableSize];
extern const Bitboard bishop_magic_attacks[kBishopTableSize];
extern const Bitboard rook_pext_attacks[kRookTableSize];
extern const Bitboard bishop_pext_attacks[kBishopTableSize];

}  // namespace knightly::chess::detail
