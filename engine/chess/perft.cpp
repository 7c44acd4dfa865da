#include "engine/chess/perft.h"

#include "engine/chess/movegen.h"

namespace knightly::chess {

namespace {

// Room for a node's moves, deliberately left uninitialised (see BufferSink).
struct MoveBuffer {
  MoveBuffer() {}
  union {
    Move moves[256];
  };
};

// Colour is a template parameter so each ply's generator is fully specialised; the last
// ply only counts (bulk counting). The body is stamped out once per implementation: any
// x86-64, POPCNT (bulk counting is mostly population counts), and POPCNT with PEXT slider
// lookups; perft() picks the best one the CPU supports.
#define KNIGHTLY_PERFT_BODY(name, lookup)                                        \
  template <Color Us, bool Chess960>                                             \
  std::uint64_t name(Position& pos, int depth) {                                 \
    if (depth == 1) {                                                            \
      movegen::CountSink counter;                                                \
      movegen::generate<Us, movegen::Mode::All, lookup, Chess960>(pos, counter); \
      return counter.count;                                                      \
    }                                                                            \
    MoveBuffer buffer;                                                           \
    movegen::BufferSink sink{buffer.moves};                                      \
    movegen::generate<Us, movegen::Mode::All, lookup, Chess960>(pos, sink);      \
    std::uint64_t nodes = 0;                                                     \
    for (const Move* m = buffer.moves; m != sink.out; ++m) {                     \
      pos.do_move(*m);                                                           \
      nodes += name<~Us, Chess960>(pos, depth - 1);                              \
      pos.undo_move();                                                           \
    }                                                                            \
    return nodes;                                                                \
  }

KNIGHTLY_PERFT_BODY(perft_generic, Lookup::Magic)

#if defined(__x86_64__) && defined(__GNUC__)
#define KNIGHTLY_PERFT_X86 1
#pragma GCC push_options
#pragma GCC target("popcnt")
KNIGHTLY_PERFT_BODY(perft_popcnt, Lookup::Magic)
KNIGHTLY_PERFT_BODY(perft_pext, Lookup::Pext)
#pragma GCC pop_options
#endif
#undef KNIGHTLY_PERFT_BODY

template <bool Chess960>
std::uint64_t run(Position& pos, int depth, PerftImpl impl) {
  const bool white = pos.side_to_move() == White;
#ifdef KNIGHTLY_PERFT_X86
  if (impl == PerftImpl::Pext)
    return white ? perft_pext<White, Chess960>(pos, depth)
                 : perft_pext<Black, Chess960>(pos, depth);
  if (impl == PerftImpl::Popcnt)
    return white ? perft_popcnt<White, Chess960>(pos, depth)
                 : perft_popcnt<Black, Chess960>(pos, depth);
#else
  (void)impl;
#endif
  return white ? perft_generic<White, Chess960>(pos, depth)
               : perft_generic<Black, Chess960>(pos, depth);
}

}  // namespace

bool perft_available(PerftImpl impl) {
  switch (impl) {
    case PerftImpl::Auto:
    case PerftImpl::Generic:
      return true;
    case PerftImpl::Popcnt:
      return detail::tables.has_popcnt;
    case PerftImpl::Pext:
      return detail::tables.fast_pext;
  }
  return false;
}

std::uint64_t perft(Position& pos, int depth, PerftImpl impl) {
  if (depth <= 0) return 1;
  if (impl == PerftImpl::Auto)
    impl = detail::tables.fast_pext    ? PerftImpl::Pext
           : detail::tables.has_popcnt ? PerftImpl::Popcnt
                                       : PerftImpl::Generic;
  if (!perft_available(impl)) impl = PerftImpl::Generic;
  // The castling layout is fixed for the position's life: chosen once, here.
  if (pos.chess960_layout()) return run<true>(pos, depth, impl);
  return run<false>(pos, depth, impl);
}

std::uint64_t perft(Position& pos, int depth) {
  return perft(pos, depth, PerftImpl::Auto);
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> out;
  for (Move m : pos.legal_moves()) {
    pos.do_move(m);
    out.emplace_back(m, perft(pos, depth - 1));
    pos.undo_move();
  }
  return out;
}

}  // namespace knightly::chess
