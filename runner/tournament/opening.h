#pragma once
// An opening as a game starts from it: a position, the book moves played from it, and where
// it came from ("noob_3moves.epd:1234", "8moves_v3.pgn:5120 +4 random plies").
#include <string>
#include <vector>

namespace knightly::runner {

struct Opening {
  std::string fen;                 // start position (canonical FEN)
  std::vector<std::string> moves;  // UCI moves from `fen`, played as book moves
  std::string source;              // "" for the plain start position
  bool operator==(const Opening&) const = default;
};

// A book line that cannot be used: which file, which line, and why.
struct BookError {
  std::string file;
  int line = 0;  // 1-based; 0 when it is about the whole file
  std::string message;
  std::string to_string() const {
    return file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + message;
  }
};

}  // namespace knightly::runner
