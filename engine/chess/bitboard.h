#pragma once
// Bitboard helpers and precomputed attack tables ("fancy" magic bitboards, and PEXT-indexed
// ones where the CPU does PEXT fast). The slider tables are computed when the program is built
// (slider_tables.h), the others once at its start; none changes afterwards.
#include <bit>
#include <cstdint>

#include "engine/chess/types.h"

namespace knightly::chess {

constexpr Bitboard square_bb(Square s) {
  return Bitboard(1) << s;
}
constexpr Bitboard FileABB = 0x0101010101010101ULL;
constexpr Bitboard FileHBB = FileABB << 7;
constexpr Bitboard Rank1BB = 0xFFULL;
constexpr Bitboard rank_bb(int r) {
  return Rank1BB << (8 * r);
}
constexpr Bitboard file_bb(int f) {
  return FileABB << f;
}
constexpr Bitboard DarkSquares = 0xAA55AA55AA55AA55ULL;

inline int popcount(Bitboard b) {
  return std::popcount(b);
}
inline Square lsb(Bitboard b) {
  return Square(std::countr_zero(b));
}
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) {
  return (b & (b - 1)) != 0;
}

// Shifts with wrap-around masking; D is a square delta (+8 north, -8 south, +-1, +-7, +-9).
template <int D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == 8)
    return b << 8;
  else if constexpr (D == -8)
    return b >> 8;
  else if constexpr (D == 16)
    return b << 16;
  else if constexpr (D == -16)
    return b >> 16;
  else if constexpr (D == 9)
    return (b & ~FileHBB) << 9;
  else if constexpr (D == 7)
    return (b & ~FileABB) << 7;
  else if constexpr (D == -7)
    return (b & ~FileHBB) >> 7;
  else if constexpr (D == -9)
    return (b & ~FileABB) >> 9;
  else
    static_assert(D == 8, "unsupported shift");
}

namespace detail {

struct Magic {
  Bitboard mask = 0;
  Bitboard magic = 0;
  const Bitboard* attacks = nullptr;       // indexed by the magic product
  const Bitboard* pext_attacks = nullptr;  // the same attacks indexed by pext(occupied, mask)
  unsigned shift = 0;
  unsigned index(Bitboard occupied) const { return unsigned(((occupied & mask) * magic) >> shift); }
};

struct Tables {
  Tables();
  Bitboard pawn_attacks[2][64];
  Bitboard knight[64];
  Bitboard king[64];
  Bitboard rook_pseudo[64];  // slider attacks on an empty board
  Bitboard bishop_pseudo[64];
  Magic rook[64];
  Magic bishop[64];
  Bitboard between[64][64];  // squares strictly between two aligned squares, plus the second
  Bitboard line[64][64];     // the full line through two aligned squares, 0 otherwise
  // What this CPU offers, found once at start-up (x86-64 only; false elsewhere).
  bool has_popcnt = false;
  bool fast_pext = false;  // BMI2 present and not microcoded (AMD before Zen 3)
};

extern const Tables tables;

}  // namespace detail

// Population count for the search and evaluation hot paths, which are built without
// -mpopcnt (so std::popcount is a libgcc call there): the POPCNT instruction when this CPU
// has it, found once at start-up, else std::popcount. Not for use while the tables are
// being built (has_popcnt is still false then, which only means the portable path).
inline int popcount_fast(Bitboard b) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
  if (__builtin_expect(detail::tables.has_popcnt, 1)) {
    Bitboard r;
    asm("popcntq %1, %0" : "=r"(r) : "r"(b));
    return int(r);
  }
#endif
  return std::popcount(b);
}

inline Bitboard pawn_attacks(Color c, Square s) {
  return detail::tables.pawn_attacks[c][s];
}
inline Bitboard knight_attacks(Square s) {
  return detail::tables.knight[s];
}
inline Bitboard king_attacks(Square s) {
  return detail::tables.king[s];
}
// Slider attacks on an empty board: every square a slider could ever reach from s.
inline Bitboard rook_pseudo_attacks(Square s) {
  return detail::tables.rook_pseudo[s];
}
inline Bitboard bishop_pseudo_attacks(Square s) {
  return detail::tables.bishop_pseudo[s];
}

// Slider lookups for the move generator, which is instantiated once per lookup kind. The
// PEXT kind may only run when detail::tables.fast_pext is true.
enum class Lookup { Magic, Pext };

// pext() bit by bit: on any CPU, at any speed.
constexpr Bitboard pext_portable(Bitboard b, Bitboard mask) {
  Bitboard r = 0;
  for (Bitboard bit = 1; mask; bit <<= 1, mask &= mask - 1)
    if (b & mask & -mask) r |= bit;
  return r;
}

inline Bitboard pext(Bitboard b, Bitboard mask) {
#if defined(__x86_64__) && defined(__GNUC__)
  // Inline assembly so no BMI2 compiler flag is needed; only executed after the CPU check.
  Bitboard r;
  asm("pextq %2, %1, %0" : "=r"(r) : "r"(b), "r"(mask));
  return r;
#else
  return pext_portable(b, mask);
#endif
}

template <Lookup L>
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::tables.bishop[s];
  if constexpr (L == Lookup::Pext)
    return m.pext_attacks[pext(occupied, m.mask)];
  else
    return m.attacks[m.index(occupied)];
}
template <Lookup L>
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::tables.rook[s];
  if constexpr (L == Lookup::Pext)
    return m.pext_attacks[pext(occupied, m.mask)];
  else
    return m.attacks[m.index(occupied)];
}
// Slider attacks for everything but the move generator's templates: by PEXT where this CPU
// does it fast, as the search's move generation does, so that one attack table is hot.
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  return detail::tables.fast_pext ? bishop_attacks<Lookup::Pext>(s, occupied)
                                  : bishop_attacks<Lookup::Magic>(s, occupied);
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  return detail::tables.fast_pext ? rook_attacks<Lookup::Pext>(s, occupied)
                                  : rook_attacks<Lookup::Magic>(s, occupied);
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}

// Between a and b exclusive, with b included (so a check mask includes the checker).
inline Bitboard between_bb(Square a, Square b) {
  return detail::tables.between[a][b];
}
inline Bitboard line_bb(Square a, Square b) {
  return detail::tables.line[a][b];
}
inline bool aligned(Square a, Square b, Square c) {
  return line_bb(a, b) & square_bb(c);
}

template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard pawns) {
  if constexpr (C == White)
    return shift<7>(pawns) | shift<9>(pawns);
  else
    return shift<-7>(pawns) | shift<-9>(pawns);
}

}  // namespace knightly::chess
