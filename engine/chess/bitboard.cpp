#include "engine/chess/bitboard.h"

#include <cstdlib>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace knightly::chess::detail {

namespace {

Bitboard sliding_attack(const int (&deltas)[4][2], Square sq, Bitboard occupied) {
  Bitboard attacks = 0;
  for (const auto& d : deltas) {
    int f = file_of(sq) + d[0], r = rank_of(sq) + d[1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Square s = make_square(f, r);
      attacks |= square_bb(s);
      if (occupied & square_bb(s)) break;
      f += d[0];
      r += d[1];
    }
  }
  return attacks;
}

constexpr int RookDeltas[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BishopDeltas[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// xorshift64* generator; fixed seeds make the magic search deterministic and fast.
struct Prng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  std::uint64_t sparse() { return next() & next() & next(); }
};

// Finds magics for one slider kind, filling `table` (Stockfish's "fancy" layout).
void init_magics(Magic (&magics)[64], Bitboard* table, Bitboard* pext_table,
                 const int (&deltas)[4][2]) {
  static constexpr std::uint64_t Seeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, cnt = 0;
  Bitboard* next_table = table;
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    Bitboard edges = ((Rank1BB | rank_bb(7)) & ~rank_bb(rank_of(sq))) |
                     ((FileABB | FileHBB) & ~file_bb(file_of(sq)));
    Magic& m = magics[s];
    m.mask = sliding_attack(deltas, sq, 0) & ~edges;
    m.shift = unsigned(64 - popcount(m.mask));
    m.attacks = next_table;
    m.pext_attacks = pext_table + (next_table - table);
    // Carry-rippler enumeration of every subset of the mask; it visits the subsets in the
    // order of their pext() index, which fills the PEXT table directly.
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = sliding_attack(deltas, sq, b);
      pext_table[(next_table - table) + size] = reference[size];
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    Prng rng{Seeds[rank_of(sq)]};
    for (int i = 0; i < size;) {
      for (m.magic = 0; popcount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse();
      ++cnt;
      for (i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < cnt) {
          epoch[idx] = cnt;
          next_table[idx] = reference[i];
        } else if (next_table[idx] != reference[i]) {
          break;
        }
      }
    }
    next_table += size;
  }
}

void detect_cpu(bool& popcnt, bool& fast_pext) {
  popcnt = fast_pext = false;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  popcnt = __builtin_cpu_supports("popcnt");
  bool bmi2 = __builtin_cpu_supports("bmi2");
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  unsigned family = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
    family = (eax >> 8) & 0xF;
    if (family == 0xF) family += (eax >> 20) & 0xFF;
  }
  // AMD implements PEXT in microcode before Zen 3 (family 0x19): far slower than magics.
  bool slow_pext = __builtin_cpu_is("amd") && family < 0x19;
  fast_pext = popcnt && bmi2 && !slow_pext;
#endif
}

}  // namespace

Tables::Tables() {
  for (int s = 0; s < 64; ++s) {
    Bitboard b = square_bb(Square(s));
    pawn_attacks[White][s] = shift<7>(b) | shift<9>(b);
    pawn_attacks[Black][s] = shift<-7>(b) | shift<-9>(b);
    Bitboard n = 0, k = 0;
    for (int df = -2; df <= 2; ++df)
      for (int dr = -2; dr <= 2; ++dr) {
        int f = file_of(Square(s)) + df, r = rank_of(Square(s)) + dr;
        if (f < 0 || f > 7 || r < 0 || r > 7) continue;
        if (std::abs(df) + std::abs(dr) == 3 && df != 0 && dr != 0)
          n |= square_bb(make_square(f, r));
        if (std::abs(df) <= 1 && std::abs(dr) <= 1 && (df || dr)) k |= square_bb(make_square(f, r));
      }
    knight[s] = n;
    king[s] = k;
  }
  init_magics(rook, rook_table, rook_pext_table, RookDeltas);
  init_magics(bishop, bishop_table, bishop_pext_table, BishopDeltas);
  detect_cpu(has_popcnt, fast_pext);
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      Square sa = Square(a), sb = Square(b);
      line[a][b] = 0;
      between[a][b] = square_bb(sb);
      if (a == b) continue;
      if (sliding_attack(BishopDeltas, sa, 0) & square_bb(sb)) {
        line[a][b] = (sliding_attack(BishopDeltas, sa, 0) & sliding_attack(BishopDeltas, sb, 0)) |
                     square_bb(sa) | square_bb(sb);
        between[a][b] |= sliding_attack(BishopDeltas, sa, square_bb(sb)) &
                         sliding_attack(BishopDeltas, sb, square_bb(sa));
      } else if (sliding_attack(RookDeltas, sa, 0) & square_bb(sb)) {
        line[a][b] = (sliding_attack(RookDeltas, sa, 0) & sliding_attack(RookDeltas, sb, 0)) |
                     square_bb(sa) | square_bb(sb);
        between[a][b] |= sliding_attack(RookDeltas, sa, square_bb(sb)) &
                         sliding_attack(RookDeltas, sb, square_bb(sa));
      }
    }
}

// Built before any other static object of the program (GCC init_priority) so that code
// running during static initialisation elsewhere may already use the tables.
const Tables tables __attribute__((init_priority(101)));

}  // namespace knightly::chess::detail
