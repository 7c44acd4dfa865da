#pragma once
// Move text: UCI long algebraic (e2e4, e7e8q, e1g1) and SAN (PGN standard section 8.2.3).
#include <expected>
#include <string>
#include <string_view>

#include "engine/chess/position.h"

namespace knightly::chess {

std::string to_uci(Move m);  // "0000" for Move::none()
// Parses UCI text against the position; errors name the text and why (not legal, malformed).
std::expected<Move, std::string> parse_uci(const Position& pos, std::string_view text);

// SAN written exactly per the standard: disambiguation among legal moves only, file before
// rank, "=Q", "O-O"/"O-O-O", "+"/"#" suffixes.
std::string to_san(const Position& pos, Move m);
// SAN read leniently: "0-0", "e8Q", "e8=Q", over-disambiguated moves, trailing "!?+#" and
// annotations. Illegal or ambiguous text is an error that says which.
std::expected<Move, std::string> parse_san(const Position& pos, std::string_view text);

}  // namespace knightly::chess
