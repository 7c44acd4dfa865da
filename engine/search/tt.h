#pragma once
// Transposition table: buckets of two entries, one kept by depth, one always replaced.
// Owned by one Search; never shared between threads. A new game does not clear the table: it
// bumps a game number, and entries stamped with an older game count as empty, so starting a
// game is O(1) and searches behave exactly as on a cleared table. The stamp has 16 bits, so
// the real wipe it needs when it comes round is once in 65536 games.
//
// The table is its own anonymous mapping, advised for transparent huge pages: a 16 MB table
// is touched through 8 page faults instead of 4096 (in a runner with several searching
// threads each 4 KB fault on a zero page also costs a TLB shootdown on the other cores).
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "engine/chess/types.h"

namespace knightly::search {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

struct TTEntry {
  std::uint64_t key_low : 48 = 0;  // low 48 bits of the key (the bucket index uses the high ones)
  std::uint64_t game : 16 = 0;     // game number; an entry of another game is empty
  std::int16_t score = 0;
  chess::Move move;
  std::int8_t depth = 0;
  Bound bound = Bound::None;
  std::uint8_t generation = 0;  // search within the game, for replacement
};
static_assert(sizeof(TTEntry) == 16);

class TranspositionTable {
 public:
  void resize(int mb);  // 0 = disabled
  void clear();         // wipes every entry (O(size))
  void new_game();      // O(1): every entry so far counts as empty from now on
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
  Bucket& bucket(chess::Key key) {
    return buckets_[std::size_t((unsigned __int128)key * count_ >> 64)];
  }
  const Bucket& bucket(chess::Key key) const {
    return buckets_[std::size_t((unsigned __int128)key * count_ >> 64)];
  }
  static constexpr std::uint64_t KeyLowMask = (std::uint64_t(1) << 48) - 1;
  void allocate(std::size_t count);
  bool live(const TTEntry& e) const { return e.bound != Bound::None && e.game == game_; }
  static bool same_key(const TTEntry& e, chess::Key key) { return e.key_low == (key & KeyLowMask); }
  // Fresh anonymous pages: all-zero bytes are empty buckets, so a new table costs nothing
  // until its entries are touched.
  struct Unmap {
    std::size_t bytes;  // of the mapping (value-initialized to 0 with an empty pointer)
    void operator()(Bucket* p) const;
  };
  std::unique_ptr<Bucket[], Unmap> buckets_;
  std::size_t count_ = 0;
  std::uint8_t generation_ = 0;
  std::uint16_t game_ = 0;
  int mb_ = 0;
};

}  // namespace knightly::search
