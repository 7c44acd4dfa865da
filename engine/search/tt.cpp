#include "engine/search/tt.h"

#include <sys/mman.h>

#include <new>
#include <type_traits>

namespace knightly::search {

// Zero bytes must read as empty entries for fresh zero pages to stand for Bucket{}.
static_assert(std::is_trivially_copyable_v<TTEntry> && Bound::None == Bound{});

namespace {

constexpr std::size_t HugePage = std::size_t(2) << 20;

}  // namespace

void TranspositionTable::Unmap::operator()(Bucket* p) const {
  if (p) munmap(p, bytes);
}

void TranspositionTable::allocate(std::size_t count) {
  buckets_.reset();
  count_ = 0;
  if (count == 0) return;
  // Whole huge pages, mapped at a huge-page boundary (the extra head and tail are unmapped).
  const std::size_t bytes = (count * sizeof(Bucket) + HugePage - 1) / HugePage * HugePage;
  void* raw =
      mmap(nullptr, bytes + HugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + HugePage - 1) / HugePage * HugePage;
  if (aligned > start) munmap(raw, aligned - start);
  const std::size_t tail = start + HugePage - aligned;  // what is left past aligned + bytes
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);  // advice: fine if refused
#endif
  buckets_ = std::unique_ptr<Bucket[], Unmap>(reinterpret_cast<Bucket*>(aligned), Unmap{bytes});
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
  // After 65536 games the stamp would come round to entries of a game long gone: wipe them
  // for real then.
  if (++game_ == 0) clear();
}

const TTEntry* TranspositionTable::probe(chess::Key key) const {
  const Bucket& b = bucket(key);
  if (live(b.deep) && same_key(b.deep, key)) return &b.deep;
  if (live(b.recent) && same_key(b.recent, key)) return &b.recent;
  return nullptr;
}

void TranspositionTable::store(chess::Key key, int depth, int score, Bound bound,
                               chess::Move move) {
  Bucket& b = bucket(key);
  TTEntry e{key & KeyLowMask,
            game_,
            std::int16_t(score),
            move,
            std::int8_t(depth < 0     ? 0
                        : depth > 127 ? 127
                                      : depth),
            bound,
            generation_};
  // Keep the old best move when the new search of the same position found none.
  // Entries of an older game are treated exactly like empty ones.
  const bool deep_live = live(b.deep);
  if (deep_live && same_key(b.deep, key)) {
    if (move.is_none()) e.move = b.deep.move;
    if (depth >= b.deep.depth || bound == Bound::Exact) b.deep = e;
    return;
  }
  if (live(b.recent) && same_key(b.recent, key) && move.is_none()) e.move = b.recent.move;
  if (!deep_live || b.deep.generation != generation_ || depth >= b.deep.depth) {
    if (deep_live) b.recent = b.deep;  // demote rather than lose it
    b.deep = e;
  } else {
    b.recent = e;
  }
}

}  // namespace knightly::search
