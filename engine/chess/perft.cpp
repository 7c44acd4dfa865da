#include "engine/chess/perft.h"

#include "engine/chess/movegen.h"

namespace knightly::chess {

namespace {

// Colour is a template parameter so each ply's generator is fully specialised; the last
// ply only counts (bulk counting).
template <Color Us>
std::uint64_t perft_impl(Position& pos, int depth) {
  if (depth == 1) {
    movegen::CountSink counter;
    movegen::generate<Us, movegen::Mode::All>(pos, counter);
    return counter.count;
  }
  MoveList list;
  movegen::ListSink sink{list};
  movegen::generate<Us, movegen::Mode::All>(pos, sink);
  std::uint64_t nodes = 0;
  for (Move m : list) {
    pos.do_move(m);
    nodes += perft_impl<~Us>(pos, depth - 1);
    pos.undo_move();
  }
  return nodes;
}

}  // namespace

std::uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  return pos.side_to_move() == White ? perft_impl<White>(pos, depth) : perft_impl<Black>(pos, depth);
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
