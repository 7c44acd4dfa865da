#pragma once
// Seed 004's opening dictionary: if the position is in the book, play a book move at random.
// A book is read from text, either
//   PGN: every position along each game's main line maps to the move played there, or
//   EPD: a line's `bm`/`pm` moves are book moves of its position; a line without them marks
//        a book position, and any move leading to one is a book move of its predecessor.
// Pure: parsing takes text; reading the file is the caller's (see read_book_file).
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/chess/position.h"

namespace knightly::search {

class Book {
 public:
  // Format detected from the text: PGN if the first non-blank line starts with '[' or "1.".
  static std::expected<Book, std::string> parse(std::string_view text);

  // Legal book moves for `pos`, in a fixed order (empty if the position is not in the book).
  std::vector<chess::Move> moves(const chess::Position& pos) const;
  std::size_t positions() const { return moves_.size() + targets_.size(); }
  bool empty() const { return positions() == 0; }

 private:
  void add(chess::Key key, chess::Move m);
  std::unordered_map<chess::Key, std::vector<chess::Move>> moves_;
  std::unordered_set<chess::Key> targets_;
};

// Reads and parses a book file; errors name the file.
std::expected<Book, std::string> read_book_file(const std::string& path);

}  // namespace knightly::search
