#include "engine/search/tt.h"

namespace knightly::search {

void TranspositionTable::resize(int mb) {
  mb_ = mb < 0 ? 0 : mb;
  std::size_t count = std::size_t(mb_) * 1024 * 1024 / sizeof(Bucket);
  buckets_.assign(count, Bucket{});
  buckets_.shrink_to_fit();
}

void TranspositionTable::clear() {
  for (auto& b : buckets_) b = Bucket{};
  generation_ = 0;
}

const TTEntry* TranspositionTable::probe(chess::Key key) const {
  const Bucket& b = bucket(key);
  if (b.deep.bound != Bound::None && b.deep.key == key) return &b.deep;
  if (b.recent.bound != Bound::None && b.recent.key == key) return &b.recent;
  return nullptr;
}

void TranspositionTable::store(chess::Key key, int depth, int score, Bound bound, chess::Move move) {
  Bucket& b = bucket(key);
  TTEntry e{key, std::int16_t(score), move, std::int8_t(depth < 0 ? 0 : depth > 127 ? 127 : depth),
            bound, generation_};
  // Keep the old best move when the new search of the same position found none.
  if (b.deep.key == key && b.deep.bound != Bound::None) {
    if (move.is_none()) e.move = b.deep.move;
    if (depth >= b.deep.depth || bound == Bound::Exact) b.deep = e;
    return;
  }
  if (b.recent.key == key && move.is_none()) e.move = b.recent.move;
  if (b.deep.bound == Bound::None || b.deep.generation != generation_ || depth >= b.deep.depth) {
    if (b.deep.bound != Bound::None) b.recent = b.deep;  // demote rather than lose it
    b.deep = e;
  } else {
    b.recent = e;
  }
}

}  // namespace knightly::search
