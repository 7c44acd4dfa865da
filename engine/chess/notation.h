#pragma once
// Move text: UCI long algebraic (e2e4, e7e8q, e1g1) and SAN (PGN standard section 8.2.3).
#include <expected>
#include <string>
#include <string_view>

#include "engine/chess/position.h"

namespace knightly::chess {

// "0000" for Move::none(). Castling: the king's two-square move (e1g1, e8c8) when it is a
// classical one (king on the e-file, rook in the corner) and `chess960` is false; otherwise
// king takes rook (e1h1, b1a1), as UCI_Chess960 engines write it and as the only form that
// names every Chess960 castling.
std::string to_uci(Move m, bool chess960 = false);
// The same text appended to `out`.
void append_uci(std::string& out, Move m, bool chess960 = false);
// Parses UCI text against the position; errors name the text and why (not legal, malformed).
// Castling is read in both forms: king takes rook always, and the king's move to the g- or
// c-file when that is not also an ordinary king move.
std::expected<Move, std::string> parse_uci(const Position& pos, std::string_view text);
// The same with the legal moves of `pos` already at hand (a caller that keeps them saves
// generating them again).
std::expected<Move, std::string> parse_uci(const Position& pos, std::string_view text,
                                           const MoveList& legal);

// SAN written exactly per the standard: disambiguation among legal moves only, file before
// rank, "=Q", "O-O"/"O-O-O", "+"/"#" suffixes.
std::string to_san(const Position& pos, Move m);
// SAN without its "+"/"#" mark, disambiguated among `legal` (the legal moves of `pos`). A
// caller that plays the move and looks at the next position anyway appends the mark itself:
// "#" when the side to move then is in check with no legal move, "+" when only in check.
std::string to_san_unmarked(const Position& pos, Move m, const MoveList& legal);
// The same without the legal moves at hand: the others of the same piece type that reach the
// same square are found from that square.
std::string to_san_unmarked(const Position& pos, Move m);
// SAN read leniently: "0-0", "e8Q", "e8=Q", over-disambiguated moves, trailing "!?+#" and
// annotations. Illegal or ambiguous text is an error that says which. An ordinary move is
// found from the squares that reach its target (the legal moves are generated only for
// coordinates, castling and en passant).
std::expected<Move, std::string> parse_san(const Position& pos, std::string_view text);
// The same with the legal moves of `pos` already at hand.
std::expected<Move, std::string> parse_san(const Position& pos, std::string_view text,
                                           const MoveList& legal);

}  // namespace knightly::chess
