// SAN and UCI move text. The first line is a FEN (the initial position when it does not
// parse); each further line is move text tried as SAN, then as UCI, against the current
// position. A move either parser accepts is legal, its SAN and UCI text parse back to it, and
// it is played, so the lines walk into deep positions.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "tests/fuzz/fen_then_lines.h"
#include "tests/fuzz/fuzz_check.h"

using namespace knightly;

namespace {

void check_move(const chess::Position& pos, chess::Move m, std::string_view text) {
  const std::string fen = pos.fen();
  fuzz::check(pos.is_legal(m), "a parsed move is legal", fen + " " + std::string(text));
  const std::string san = chess::to_san(pos, m);
  auto back = chess::parse_san(pos, san);
  fuzz::check(back && *back == m, "to_san -> parse_san is the same move", fen + " " + san);
  const std::string uci = chess::to_uci(m);
  auto uci_back = chess::parse_uci(pos, uci);
  fuzz::check(uci_back && *uci_back == m, "to_uci -> parse_uci is the same move", fen + " " + uci);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::fen_then_lines({reinterpret_cast<const char*>(data), size},
                       [](chess::Position& pos, std::string_view word) {
                         auto san = chess::parse_san(pos, word);
                         auto uci = chess::parse_uci(pos, word);
                         if (san) check_move(pos, *san, word);
                         if (uci) check_move(pos, *uci, word);
                         if (!san && !uci) return false;
                         pos.do_move(san ? *san : *uci);
                         (void)pos.game_end();
                         return true;
                       });
  return 0;
}
