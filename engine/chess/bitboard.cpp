#include "engine/chess/bitboard.h"

#include <bit>
#include <cstddef>
#include <cstdlib>

#include "engine/chess/slider_tables.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace knightly::chess::detail {

namespace {

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
  // The eight rays from each square give the slider masks, the pseudo attacks, and the line
  // and the squares between two aligned squares (the ray from a through b, from a's side and
  // from b's). The slider tables themselves were computed when the program was built.
  const Rays rook_rays(RookDeltas), bishop_rays(BishopDeltas);
  place_sliders(rook, rook_rays, rook_magics, rook_magic_attacks, rook_pext_attacks);
  place_sliders(bishop, bishop_rays, bishop_magics, bishop_magic_attacks, bishop_pext_attacks);
  detect_cpu(has_popcnt, fast_pext);
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
