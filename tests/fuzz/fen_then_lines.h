#pragma once
// The input of the targets that walk a game: a FEN on the first line (the initial position
// when it does not parse), then one item per line. `each(pos, line)` sees the current position
// and plays the line's move into it when it has one, saying so; after 512 moves the rest of
// the input is left.
#include <string_view>

#include "engine/chess/position.h"

namespace knightly::fuzz {

template <class Each>
void fen_then_lines(std::string_view text, Each each) {
  std::size_t eol = text.find('\n');
  chess::Position pos;
  if (auto p = chess::Position::from_fen(text.substr(0, eol))) pos = *p;
  int plies = 0;
  while (eol != std::string_view::npos && plies < 512) {
    text.remove_prefix(eol + 1);
    eol = text.find('\n');
    if (each(pos, text.substr(0, eol))) ++plies;
  }
}

}  // namespace knightly::fuzz
