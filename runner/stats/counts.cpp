#include "runner/stats/counts.h"

namespace knightly::runner::stats {

void Trinomial::add(Outcome o) {
  switch (o) {
    case Outcome::Loss:
      ++losses;
      break;
    case Outcome::Draw:
      ++draws;
      break;
    case Outcome::Win:
      ++wins;
      break;
  }
}

std::array<double, 3> Trinomial::as_array() const {
  return {static_cast<double>(losses), static_cast<double>(draws), static_cast<double>(wins)};
}

void Pentanomial::add_pair(Outcome first, Outcome second) {
  const int wins = (first == Outcome::Win) + (second == Outcome::Win);
  const int losses = (first == Outcome::Loss) + (second == Outcome::Loss);
  if (wins == 2)
    ++ww;
  else if (losses == 2)
    ++ll;
  else if (wins == 1 && losses == 1)
    ++wl;
  else if (wins == 1)
    ++wd;
  else if (losses == 1)
    ++ld;
  else
    ++dd;
}

std::array<double, 5> Pentanomial::as_array() const {
  return {static_cast<double>(ll), static_cast<double>(ld), static_cast<double>(wl + dd),
          static_cast<double>(wd), static_cast<double>(ww)};
}

Trinomial Pentanomial::games() const {
  Trinomial t;
  t.wins = 2 * ww + wd + wl;
  t.losses = 2 * ll + ld + wl;
  t.draws = ld + 2 * dd + wd;
  return t;
}

}  // namespace knightly::runner::stats
