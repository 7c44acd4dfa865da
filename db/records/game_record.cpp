#include "db/records/game_record.h"

#include <array>
#include <utility>

#include "engine/chess/pgn.h"
#include "engine/chess/position.h"

namespace knightly {

namespace {

// The one table of termination names. They are stored in games.termination and documented
// in docs/schema.md: changing one changes the database format.
constexpr std::array<std::pair<Termination, const char*>, 17> Terminations{{
    {Termination::None, "none"},
    {Termination::Checkmate, "checkmate"},
    {Termination::Stalemate, "stalemate"},
    {Termination::Repetition, "repetition"},
    {Termination::FiftyMoves, "fifty moves"},
    {Termination::InsufficientMaterial, "insufficient material"},
    {Termination::AdjudicationDraw, "adjudication draw"},
    {Termination::AdjudicationResign, "adjudication resign"},
    {Termination::MaxMoves, "max moves"},
    {Termination::TimeForfeit, "time forfeit"},
    {Termination::IllegalMove, "illegal move"},
    {Termination::Disconnect, "disconnect"},
    {Termination::Stall, "stall"},
    {Termination::Interrupted, "interrupted"},
    {Termination::AdjudicationTablebase, "adjudication tablebase"},
    {Termination::Resignation, "resignation"},
    {Termination::FalseClaim, "false claim"},
}};

}  // namespace

std::optional<Result> parse_result(std::string_view text) {
  if (text == "1-0") return Result::WhiteWins;
  if (text == "0-1") return Result::BlackWins;
  if (text == "1/2-1/2") return Result::Draw;
  return std::nullopt;
}

const char* termination_name(Termination t) {
  for (const auto& [termination, name] : Terminations)
    if (termination == t) return name;
  return "none";
}

std::optional<Termination> parse_termination(std::string_view name) {
  for (const auto& [termination, text] : Terminations)
    if (name == text) return termination;
  return std::nullopt;
}

void add_reason(chess::PgnGame& text, const std::string& reason) {
  if (reason.empty()) return;
  std::string& c = text.moves.empty() ? text.comment : text.moves.back().comment;
  c += c.empty() ? reason : ", " + reason;
}

std::string plain_movetext(const GameRecord& game) {
  chess::PgnGame text;
  text.start_fen = game.start_fen.empty() ? std::string(chess::Position::StartFen) : game.start_fen;
  text.moves.reserve(game.moves.size());
  for (const MoveRecord& m : game.moves)
    text.moves.push_back({m.move, m.san, m.book ? "book" : std::string()});
  add_reason(text, game.reason);
  text.result = result_token(game.result);
  return chess::write_pgn_movetext(text);
}

}  // namespace knightly
