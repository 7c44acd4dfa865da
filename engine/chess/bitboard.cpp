#include "engine/chess/bitboard.h"

#include <bit>
#include <cstddef>
#include <cstdlib>
#include <mutex>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace knightly::chess::detail {

namespace {

constexpr int RookDeltas[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BishopDeltas[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// A slider's four rays from every square, walked once; its attacks on any occupancy are then
// a few bit operations (the table build asks for them 107,648 times at start).
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

// xorshift64* generator, kept beside the project's SplitMix64 (splitmix64.h) as the magic
// table's own: its fixed seeds are the ones known to find every square's magic number in a
// few tries, so the table is built the same, and fast, at every start. It draws nothing else.
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

// The magics the search in init_magics() finds from its seeds, so that every program start
// (each engine process, each runner) checks them in one pass instead of searching again.
constexpr std::uint64_t RookMagics[64] = {
    0x0a80004000801220ULL, 0x8040004010002008ULL, 0x2080200010008008ULL, 0x1100100008210004ULL,
    0xc200209084020008ULL, 0x2100010004000208ULL, 0x0400081000822421ULL, 0x0200010422048844ULL,
    0x0800800080400024ULL, 0x0001402000401000ULL, 0x3000801000802001ULL, 0x4400800800100083ULL,
    0x0904802402480080ULL, 0x4040800400020080ULL, 0x0018808042000100ULL, 0x4040800080004100ULL,
    0x0040048001458024ULL, 0x00a0004000205000ULL, 0x3100808010002000ULL, 0x4825010010000820ULL,
    0x5004808008000401ULL, 0x2024818004000a00ULL, 0x0005808002000100ULL, 0x2100060004806104ULL,
    0x0080400880008421ULL, 0x4062220600410280ULL, 0x010a004a00108022ULL, 0x0000100080080080ULL,
    0x0021000500080010ULL, 0x0044000202001008ULL, 0x0000100400080102ULL, 0xc020128200040545ULL,
    0x0080002000400040ULL, 0x0000804000802004ULL, 0x0000120022004080ULL, 0x010a386103001001ULL,
    0x9010080080800400ULL, 0x8440020080800400ULL, 0x0004228824001001ULL, 0x000000490a000084ULL,
    0x0080002000504000ULL, 0x200020005000c000ULL, 0x0012088020420010ULL, 0x0010010080080800ULL,
    0x0085001008010004ULL, 0x0002000204008080ULL, 0x0040413002040008ULL, 0x0000304081020004ULL,
    0x0080204000800080ULL, 0x3008804000290100ULL, 0x1010100080200080ULL, 0x2008100208028080ULL,
    0x5000850800910100ULL, 0x8402019004680200ULL, 0x0120911028020400ULL, 0x0000008044010200ULL,
    0x0020850200244012ULL, 0x0020850200244012ULL, 0x0000102001040841ULL, 0x140900040a100021ULL,
    0x000200282410a102ULL, 0x000200282410a102ULL, 0x000200282410a102ULL, 0x4048240043802106ULL};
constexpr std::uint64_t BishopMagics[64] = {
    0x40106000a1160020ULL, 0x0020010250810120ULL, 0x2010010220280081ULL, 0x002806004050c040ULL,
    0x0002021018000000ULL, 0x2001112010000400ULL, 0x0881010120218080ULL, 0x1030820110010500ULL,
    0x0000120222042400ULL, 0x2000020404040044ULL, 0x8000480094208000ULL, 0x0003422a02000001ULL,
    0x000a220210100040ULL, 0x8004820202226000ULL, 0x0018234854100800ULL, 0x0100004042101040ULL,
    0x0004001004082820ULL, 0x0010000810010048ULL, 0x1014004208081300ULL, 0x2080818802044202ULL,
    0x0040880c00a00100ULL, 0x0080400200522010ULL, 0x0001000188180b04ULL, 0x0080249202020204ULL,
    0x1004400004100410ULL, 0x00013100a0022206ULL, 0x2148500001040080ULL, 0x4241080011004300ULL,
    0x4020848004002000ULL, 0x10101380d1004100ULL, 0x0008004422020284ULL, 0x01010a1041008080ULL,
    0x0808080400082121ULL, 0x0808080400082121ULL, 0x0091128200100c00ULL, 0x0202200802010104ULL,
    0x8c0a020200440085ULL, 0x01a0008080b10040ULL, 0x0889520080122800ULL, 0x100902022202010aULL,
    0x04081a0816002000ULL, 0x0000681208005000ULL, 0x8170840041008802ULL, 0x0a00004200810805ULL,
    0x0830404408210100ULL, 0x2602208106006102ULL, 0x1048300680802628ULL, 0x2602208106006102ULL,
    0x0602010120110040ULL, 0x0941010801043000ULL, 0x000040440a210428ULL, 0x0008240020880021ULL,
    0x0400002012048200ULL, 0x00ac102001210220ULL, 0x0220021002009900ULL, 0x84440c080a013080ULL,
    0x0001008044200440ULL, 0x0004c04410841000ULL, 0x2000500104011130ULL, 0x1a0c010011c20229ULL,
    0x0044800112202200ULL, 0x0434804908100424ULL, 0x0300404822c08200ULL, 0x48081010008a2a80ULL};

// One slider kind's masks, shifts and table places, and the known magics (checked when its
// magic table is filled).
void place_magics(Magic (&magics)[64], const Bitboard* table, const Bitboard* pext_table,
                  const Rays& rays, const std::uint64_t (&known)[64]) {
  std::ptrdiff_t offset = 0;
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    Bitboard edges = ((Rank1BB | rank_bb(7)) & ~rank_bb(rank_of(sq))) |
                     ((FileABB | FileHBB) & ~file_bb(file_of(sq)));
    Magic& m = magics[s];
    m.mask = rays.attacks(sq, 0) & ~edges;
    m.shift = unsigned(64 - popcount(m.mask));
    m.magic = known[s];
    m.attacks = table + offset;
    m.pext_attacks = pext_table + offset;
    offset += std::ptrdiff_t{1} << popcount(m.mask);
  }
}

// Fills one slider kind's PEXT table: a carry-rippler enumeration of every subset of a mask
// visits the subsets in the order of their pext() index.
void fill_pext(const Magic (&magics)[64], Bitboard* pext_table, const Rays& rays) {
  for (int s = 0; s < 64; ++s) {
    const Magic& m = magics[s];
    Bitboard* out = pext_table + (m.pext_attacks - magics[0].pext_attacks);
    Bitboard b = 0;
    do {
      *out++ = rays.attacks(Square(s), b);
      b = (b - m.mask) & m.mask;
    } while (b);
  }
}

// Fills one slider kind's magic table (Stockfish's "fancy" layout). The known magic of each
// square is tried first; the seeded search runs only if it does not fit.
void fill_magic(const Magic (&magics)[64], Bitboard* table, const Rays& rays) {
  static constexpr std::uint64_t Seeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
  Bitboard occupancy[4096], reference[4096];
  int epoch[4096] = {}, cnt = 0;
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    const Magic& m = magics[s];
    Bitboard* next_table = table + (m.attacks - magics[0].attacks);
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = rays.attacks(sq, b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    Prng rng{Seeds[rank_of(sq)]};
    bool first = true;
    for (int i = 0; i < size;) {
      if (!first)
        for (m.magic = 0; popcount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse();
      first = false;
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
  // The eight rays from each square give the slider tables, the pseudo attacks, and the line
  // and the squares between two aligned squares (the ray from a through b, from a's side and
  // from b's).
  const Rays rook_rays(RookDeltas), bishop_rays(BishopDeltas);
  place_magics(rook, rook_table, rook_pext_table, rook_rays, RookMagics);
  place_magics(bishop, bishop_table, bishop_pext_table, bishop_rays, BishopMagics);
  detect_cpu(has_popcnt, fast_pext);
  // Only the slider table this CPU's lookups use is filled now (1.7 MB of two would be written
  // at every start of every program); the other one when something asks for it by kind.
  if (fast_pext) {
    fill_pext(rook, rook_pext_table, rook_rays);
    fill_pext(bishop, bishop_pext_table, bishop_rays);
  } else {
    fill_magic(rook, rook_table, rook_rays);
    fill_magic(bishop, bishop_table, bishop_rays);
  }
  for (int s = 0; s < 64; ++s) {
    rook_pseudo[s] = rook_rays.attacks(Square(s), 0);
    bishop_pseudo[s] = bishop_rays.attacks(Square(s), 0);
  }
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      line[a][b] = 0;
      between[a][b] = square_bb(Square(b));
    }
  for (const Rays* rays : {&rook_rays, &bishop_rays})
    for (int a = 0; a < 64; ++a)
      for (int d = 0; d < 4; ++d)
        for (Bitboard r = rays->ray[d][a]; r;) {
          const int b = std::countr_zero(r);
          r &= r - 1;
          line[a][b] = rays->ray[d][a] | rays->ray[rays->opposite[d]][a] | square_bb(Square(a));
          between[a][b] = rays->ray[d][a] & ~rays->ray[d][b];
        }
}

// Built before any other static object of the program (GCC init_priority) so that code
// running during static initialisation elsewhere may already use the tables.
const Tables tables __attribute__((init_priority(101)));

}  // namespace knightly::chess::detail

namespace knightly::chess {

void need_slider_tables(Lookup kind) {
  using detail::tables;
  if ((kind == Lookup::Pext) == tables.fast_pext) return;  // filled at start-up
  static std::once_flag magic_once, pext_once;
  std::call_once(kind == Lookup::Magic ? magic_once : pext_once, [kind] {
    const detail::Rays rook_rays(detail::RookDeltas), bishop_rays(detail::BishopDeltas);
    if (kind == Lookup::Magic) {
      detail::fill_magic(tables.rook, tables.rook_table, rook_rays);
      detail::fill_magic(tables.bishop, tables.bishop_table, bishop_rays);
    } else {
      detail::fill_pext(tables.rook, tables.rook_pext_table, rook_rays);
      detail::fill_pext(tables.bishop, tables.bishop_pext_table, bishop_rays);
    }
  });
}

}  // namespace knightly::chess
