#pragma once
// Transposition table: buckets of two entries, one kept by depth, one always replaced.
// Owned by one Search; never shared between threads.
#include <cstdint>
#include <vector>

#include "engine/chess/types.h"

namespace knightly::search {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

struct TTEntry {
  chess::Key key = 0;
  std::int16_t score = 0;
  chess::Move move;
  std::int8_t depth = 0;
  Bound bound = Bound::None;
  std::uint8_t generation = 0;
};

class TranspositionTable {
 public:
  void resize(int mb);  // 0 = disabled
  void clear();
  bool enabled() const { return !buckets_.empty(); }
  void new_search() { ++generation_; }
  const TTEntry* probe(chess::Key key) const;
  void store(chess::Key key, int depth, int score, Bound bound, chess::Move move);
  int size_mb() const { return mb_; }

 private:
  struct Bucket {
    TTEntry deep;
    TTEntry recent;
  };
  Bucket& bucket(chess::Key key) {
    return buckets_[std::size_t((unsigned __int128)key * buckets_.size() >> 64)];
  }
  const Bucket& bucket(chess::Key key) const {
    return buckets_[std::size_t((unsigned __int128)key * buckets_.size() >> 64)];
  }
  std::vector<Bucket> buckets_;
  std::uint8_t generation_ = 0;
  int mb_ = 0;
};

}  // namespace knightly::search
