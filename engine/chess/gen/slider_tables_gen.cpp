// Writes the slider attack tables as a C++ source, when Knightly is built (engine/chess's
// CMakeLists.txt): every square's magic number and both tables of slider_tables.h, so that no
// program computes them at its start. Usage: slider_tables_gen OUTPUT.cpp
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/chess/slider_tables.h"

using namespace knightly::chess;
using namespace knightly::chess::detail;

namespace {

// xorshift64* generator, kept beside the project's SplitMix64 (splitmix64.h) as the magic
// search's own: its fixed seeds are the ones known to find every square's magic number in a
// few tries. It draws nothing else.
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

// The magics the search below finds from its seeds: each is checked, and searched again only
// if it does not fit.
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

// One kind: its squares placed (place_sliders, as the program's start places them) and both
// tables.
struct Kind {
  Magic sq[64];
  std::vector<Bitboard> magic_table, pext_table;
};

// Every subset of a mask, by a carry-rippler enumeration: in the order of their pext() index.
template <class F>
void each_subset(Bitboard mask, F&& f) {
  Bitboard b = 0;
  do {
    f(b);
    b = (b - mask) & mask;
  } while (b);
}

Kind build(const int (&deltas)[4][2], const std::uint64_t (&known)[64], std::size_t total) {
  static constexpr std::uint64_t Seeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
  const Rays rays(deltas);
  std::size_t entries = 0;
  for (int s = 0; s < 64; ++s) entries += std::size_t{1} << popcount(slider_mask(rays, Square(s)));
  if (entries != total) {
    std::fprintf(stderr, "slider_tables_gen: %zu entries, not %zu\n", entries, total);
    std::exit(1);
  }
  Kind k;
  k.magic_table.assign(total, 0);
  k.pext_table.assign(total, 0);
  place_sliders(k.sq, rays, known, k.magic_table.data(), k.pext_table.data());
  for (int s = 0; s < 64; ++s) {
    Magic& m = k.sq[s];
    // The square's blocks, written here (the Magic points at them read-only).
    const std::ptrdiff_t offset = m.attacks - k.magic_table.data();
    Bitboard* const block = k.magic_table.data() + offset;
    Bitboard* const pext_block = k.pext_table.data() + offset;
    std::vector<Bitboard> occupancy, reference;
    each_subset(m.mask, [&](Bitboard b) {
      occupancy.push_back(b);
      reference.push_back(rays.attacks(Square(s), b));
    });
    for (std::size_t i = 0; i < reference.size(); ++i) pext_block[i] = reference[i];
    // The known magic first (place_sliders set it); the seeded search only if it does not fit.
    Prng rng{Seeds[rank_of(Square(s))]};
    std::vector<int> epoch(reference.size(), 0);
    int tries = 0;
    for (bool fits = false; !fits;) {
      if (tries > 0)
        for (m.magic = 0; popcount((m.magic * m.mask) >> 56) < 6;) m.magic = rng.sparse();
      ++tries;
      fits = true;
      for (std::size_t i = 0; i < occupancy.size() && fits; ++i) {
        const unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < tries) {
          epoch[idx] = tries;
          block[idx] = reference[i];
        } else if (block[idx] != reference[i]) {
          fits = false;
        }
      }
    }
  }
  return k;
}

void write_array(std::FILE* f, const char* type, const char* name, const Bitboard* v,
                 std::size_t n) {
  std::fprintf(f, "alignas(64) extern const %s %s[%zu] = {\n", type, name, n);
  for (std::size_t i = 0; i < n; ++i)
    std::fprintf(f, "0x%llx,%s", static_cast<unsigned long long>(v[i]), i % 8 == 7 ? "\n" : "");
  std::fprintf(f, "};\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: slider_tables_gen OUTPUT.cpp\n");
    return 2;
  }
  const Kind rook = build(RookDeltas, RookMagics, kRookTableSize);
  const Kind bishop = build(BishopDeltas, BishopMagics, kBishopTableSize);
  const std::string out = argv[1], tmp = out + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) {
    std::perror(tmp.c_str());
    return 1;
  }
  std::fprintf(f,
               "// Generated by engine/chess/gen/slider_tables_gen.cpp when Knightly is built: do "
               "not edit.\n#include \"engine/chess/slider_tables.h\"\n\n"
               "namespace knightly::chess::detail {\n\n");
  Bitboard magics[64];
  for (int s = 0; s < 64; ++s) magics[s] = rook.sq[s].magic;
  write_array(f, "std::uint64_t", "rook_magics", magics, 64);
  for (int s = 0; s < 64; ++s) magics[s] = bishop.sq[s].magic;
  write_array(f, "std::uint64_t", "bishop_magics", magics, 64);
  write_array(f, "Bitboard", "rook_magic_attacks", rook.magic_table.data(), kRookTableSize);
  write_array(f, "Bitboard", "bishop_magic_attacks", bishop.magic_table.data(), kBishopTableSize);
  write_array(f, "Bitboard", "rook_pext_attacks", rook.pext_table.data(), kRookTableSize);
  write_array(f, "Bitboard", "bishop_pext_attacks", bishop.pext_table.data(), kBishopTableSize);
  std::fprintf(f, "\n}  // namespace knightly::chess::detail\n");
  if (std::ferror(f) || std::fclose(f) != 0 || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::perror(out.c_str());
    return 1;
  }
  return 0;
}
