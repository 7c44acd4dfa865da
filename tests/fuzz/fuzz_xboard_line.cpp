// Lines an xboard (CECP) engine writes: the first line is a FEN (the initial position when it
// does not parse), each further line is classified and given to every parser; errors are
// values. Features are applied to one Features record, as an XboardPlayer does over a whole
// `done=0` ... `done=1` exchange. A move any line gives (`move e2e4`, "My move is : Nf3", or
// the line as plain move text) is legal, its coordinate and SAN text parse back to it, and it
// is played, so the lines walk into deep positions.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "runner/players/xboard_parser.h"
#include "tests/fuzz/fen_then_lines.h"
#include "tests/fuzz/fuzz_check.h"

using namespace knightly;
namespace xboard = knightly::runner::xboard;

namespace {

void check_move(const chess::Position& pos, chess::Move m, std::string_view text) {
  const std::string fen = pos.fen();
  const std::string where = fen + " " + std::string(text);
  fuzz::check(pos.is_legal(m), "an engine's move that parses is legal", where);
  const bool chess960 = pos.chess960_layout();
  for (bool san : {false, true}) {
    const std::string written = xboard::move_text(pos, m, san, chess960);
    auto back = xboard::parse_engine_move(pos, written);
    fuzz::check(back && *back == m, "move_text -> parse_engine_move is the same move",
                where + " -> " + written);
  }
}

// One line of the engine's: every parser; true when it gave a move, played into `pos`.
bool check_line(chess::Position& pos, std::string_view line, xboard::Features& features) {
  (void)xboard::classify(line);
  if (auto list = xboard::parse_features(line)) {
    for (const auto& f : *list) {
      fuzz::check(!f.name.empty(), "a feature has a name", line);
      (void)xboard::apply_feature(features, f);
      if (f.name == "done" && (f.value == "0" || f.value == "1"))
        fuzz::check(features.done == (f.value == "1"), "done=N is recorded", line);
    }
    (void)features.supports_variant("fischerandom");
    (void)features.has_option(line);
  }
  if (auto pong = xboard::parse_pong(line)) (void)*pong;
  if (auto claim = xboard::parse_claim(line))
    fuzz::check(!claim->text.empty(), "a claim keeps its text", line);
  if (auto thinking = xboard::parse_thinking(line))
    fuzz::check(thinking->eval.depth >= 0, "a thinking line's depth is not negative", line);
  // The move of a `move` line, else the line itself as move text.
  std::string move_text(line);
  if (auto m = xboard::parse_move(line)) {
    fuzz::check(!m->empty(), "a move line has a move", line);
    move_text = *m;
  }
  if (auto m = xboard::parse_engine_move(pos, move_text)) {
    check_move(pos, *m, move_text);
    pos.do_move(*m);
    (void)pos.game_end();
    return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  xboard::Features features;
  fuzz::fen_then_lines(
      {reinterpret_cast<const char*>(data), size},
      [&](chess::Position& pos, std::string_view line) { return check_line(pos, line, features); });
  return 0;
}
