#pragma once
// Transposition table: buckets of two entries, one kept by depth, one always replaced.
// Owned by one Search; never shared between threads. A new game does not clear the table: it
// bumps a game number, and entries stamped with an older game count as empty, so starting a
// game is O(1) and searches behave exactly as on a cleared table.
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "engine/chess/types.h"

namespace knightly::search {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

struct TTEntry {
  chess::Key key = 0;
  std::int16_t score = 0;
  chess::Move move;
  std::int8_t depth = 0;
  Bound bound = Bound::None;
  std::uint8_t generation = 0;  // search within the game, for replacement
  std::uint8_t game = 0;        // game number; an entry of another game is empty
};
static_assert(sizeof(TTEntry) == 16, "the game stamp lives in what was padding");

class TranspositionTable {
 public:
  void resize(int mb);  // 0 = disabled
  void clear();     // wipes every entry (O(size))
  void new_game();  // O(1): every entry so far counts as empty from now on
  bool enabled() const { return count_ != 0; }
  void new_search() { ++generation_; }
  const TTEntry* probe(chess::Key key) const;
  void store(chess::Key key, int depth, int score, Bound bound, chess::Move move);
  int size_mb() const { return mb_; }

 private:
  struct Bucket {
    TTEntry deep;
    TTEntry recent;
  };
  Bucket& bucket(chess::Key key) { return buckets_[std::size_t((unsigned __int128)key * count_ >> 64)]; }
  const Bucket& bucket(chess::Key key) const {
    return buckets_[std::size_t((unsigned __int128)key * count_ >> 64)];
  }
  void allocate(std::size_t count);
  bool live(const TTEntry& e) const { return e.bound != Bound::None && e.game == game_; }
  struct Free {
    void operator()(Bucket* p) const { std::free(p); }
  };
  // calloc'd: all-zero bytes are empty buckets, and a large calloc gets fresh zero pages from
  // the kernel, so a new table costs nothing until its entries are touched.
  std::unique_ptr<Bucket[], Free> buckets_;
  std::size_t count_ = 0;
  std::uint8_t generation_ = 0;
  std::uint8_t game_ = 0;
  int mb_ = 0;
};

}  // namespace knightly::search
