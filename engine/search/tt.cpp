#include "engine/search/tt.h"

#include <new>
#include <type_traits>

namespace knightly::search {

// Zero bytes must read as empty entries for calloc to stand for Bucket{}.
static_assert(std::is_trivially_copyable_v<TTEntry> && Bound::None == Bound{});

void TranspositionTable::allocate(std::size_t count) {
  buckets_.reset();
  count_ = 0;
  if (count == 0) return;
  buckets_.reset(static_cast<Bucket*>(std::calloc(count, sizeof(Bucket))));
  if (!buckets_) throw std::bad_alloc();
  count_ = count;
}

void TranspositionTable::resize(int mb) {
  mb_ = mb < 0 ? 0 : mb;
  allocate(std::size_t(mb_) * 1024 * 1024 / sizeof(Bucket));
}

void TranspositionTable::clear() {
  allocate(count_);  // fresh zero pages rather than writing every entry
  generation_ = 0;
  game_ = 0;
}

void TranspositionTable::new_game() {
  generation_ = 0;
  // After 256 games the stamp would come round to entries of a game long gone: wipe them
  // for real then, once in 256 games.
  if (++game_ == 0) clear();
}

const TTEntry* TranspositionTable::probe(chess::Key key) const {
  const Bucket& b = bucket(key);
  if (live(b.deep) && b.deep.key == key) return &b.deep;
  if (live(b.recent) && b.recent.key == key) return &b.recent;
  return nullptr;
}

void TranspositionTable::store(chess::Key key, int depth, int score, Bound bound, chess::Move move) {
  Bucket& b = bucket(key);
  TTEntry e{key, std::int16_t(score), move, std::int8_t(depth < 0 ? 0 : depth > 127 ? 127 : depth),
            bound, generation_, game_};
  // Keep the old best move when the new search of the same position found none.
  // Entries of an older game are treated exactly like empty ones.
  const bool deep_live = live(b.deep);
  if (deep_live && b.deep.key == key) {
    if (move.is_none()) e.move = b.deep.move;
    if (depth >= b.deep.depth || bound == Bound::Exact) b.deep = e;
    return;
  }
  if (live(b.recent) && b.recent.key == key && move.is_none()) e.move = b.recent.move;
  if (!deep_live || b.deep.generation != generation_ || depth >= b.deep.depth) {
    if (deep_live) b.recent = b.deep;  // demote rather than lose it
    b.deep = e;
  } else {
    b.recent = e;
  }
}

}  // namespace knightly::search
