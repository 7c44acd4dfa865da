#pragma once
// Game and game-pair tallies of one engine against another, from that engine's side.
#include <array>
#include <cstdint>

namespace knightly::runner::stats {

enum class Outcome { Loss, Draw, Win };

// Win/draw/loss counts. fishtest's order for a trinomial is losses, draws, wins.
struct Trinomial {
  std::int64_t losses = 0;
  std::int64_t draws = 0;
  std::int64_t wins = 0;

  void add(Outcome o);
  std::int64_t games() const { return losses + draws + wins; }
  double points() const { return static_cast<double>(wins) + 0.5 * static_cast<double>(draws); }
  std::array<double, 3> as_array() const;  // {L, D, W}
  bool operator==(const Trinomial&) const = default;
};

// Game-pair counts: both games of a pair start from the same opening with colours swapped.
// WL (one win, one loss) and DD (two draws) both score 1 point; fishtest merges them, but
// fastchess prints their ratio, so they are kept apart here.
struct Pentanomial {
  std::int64_t ll = 0;
  std::int64_t ld = 0;
  std::int64_t wl = 0;
  std::int64_t dd = 0;
  std::int64_t wd = 0;
  std::int64_t ww = 0;

  void add_pair(Outcome first, Outcome second);
  std::int64_t pairs() const { return ll + ld + wl + dd + wd + ww; }
  // The five classes by pair score 0, 0.5, 1, 1.5, 2: {LL, LD, WL+DD, WD, WW}.
  std::array<double, 5> as_array() const;
  // The game counts these pairs hold.
  Trinomial games() const;
  bool operator==(const Pentanomial&) const = default;
};

}  // namespace knightly::runner::stats
