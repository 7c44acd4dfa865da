#pragma once
// EPD: four FEN fields (optionally six) followed by operations `opcode operand...;`.
#include <expected>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/position.h"

namespace knightly::chess {

struct Epd {
  Position position;
  // opcode -> operands, quotes removed: {"bm": {"Qg6"}, "id": {"WAC.001"}, "D1": {"20"}}
  std::map<std::string, std::vector<std::string>> operations;
  const std::vector<std::string>* find(const std::string& opcode) const;
};

// Also accepts perft.epd's ";D1 20 ;D2 400" form and plain FEN lines with six fields.
// Errors in the position carry its FEN field (1-6); an error in the operations (an
// unterminated quoted operand) has field 0.
std::expected<Epd, FenError> parse_epd(std::string_view line);

}  // namespace knightly::chess
