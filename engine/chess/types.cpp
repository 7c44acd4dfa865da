#include "engine/chess/types.h"

#include <algorithm>

namespace knightly::chess {

std::string square_name(Square s) {
  if (s >= NoSquare) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

bool MoveList::contains(Move m) const {
  return std::find(begin(), end(), m) != end();
}

}  // namespace knightly::chess
