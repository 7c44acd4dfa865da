// Game end by the rules, table-driven: mates, stalemates, dead positions, repetition with and
// without a capturable en-passant square, the fifty-move edge.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"

using namespace knightly::chess;

namespace {

Position play(const std::string& fen, const std::vector<std::string>& uci_moves) {
  auto pos = Position::from_fen(fen);
  REQUIRE(pos.has_value());
  for (const auto& text : uci_moves) {
    auto m = parse_uci(*pos, text);
    INFO("move " << text << " in " << pos->fen());
    REQUIRE(m.has_value());
    pos->do_move(*m);
  }
  return *pos;
}

const char* name(GameEnd e) {
  switch (e) {
    case GameEnd::None:
      return "None";
    case GameEnd::Checkmate:
      return "Checkmate";
    case GameEnd::Stalemate:
      return "Stalemate";
    case GameEnd::ThreefoldRepetition:
      return "ThreefoldRepetition";
    case GameEnd::FiftyMoveRule:
      return "FiftyMoveRule";
    case GameEnd::InsufficientMaterial:
      return "InsufficientMaterial";
  }
  return "?";
}

}  // namespace

TEST_CASE("game end of single positions", "[gameend]") {
  struct Row {
    const char* fen;
    GameEnd expected;
    const char* what;
  };
  const Row rows[] = {
      {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", GameEnd::Checkmate,
       "fool's mate"},
      {"R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", GameEnd::Checkmate, "back-rank mate"},
      {"6rk/5Npp/8/8/8/8/8/6K1 b - - 1 1", GameEnd::Checkmate, "smothered mate"},
      {"4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1", GameEnd::Checkmate, "queen mate supported by king"},
      {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", GameEnd::Stalemate, "queen stalemate in the corner"},
      {"k7/8/1Q6/8/8/8/8/7K b - - 0 1", GameEnd::Stalemate, "queen b6 stalemates a8"},
      {"8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", GameEnd::Stalemate, "king blocked by a pawn"},
      {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", GameEnd::InsufficientMaterial, "K v K"},
      {"8/8/8/4k3/8/8/8/4KB2 w - - 0 1", GameEnd::InsufficientMaterial, "K+B v K"},
      {"8/8/8/4k3/8/8/8/4KN2 b - - 0 1", GameEnd::InsufficientMaterial, "K+N v K"},
      {"8/8/8/2n1k3/8/8/8/4K3 w - - 0 1", GameEnd::InsufficientMaterial, "K v K+N"},
      {"5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", GameEnd::InsufficientMaterial, "K+B v K+B, both dark"},
      {"2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", GameEnd::InsufficientMaterial, "K+B v K+B, both light"},
      {"2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", GameEnd::None, "bishops on opposite colours"},
      {"2n5/8/8/4k3/8/8/8/2N1K3 w - - 0 1", GameEnd::None, "K+N v K+N"},
      {"8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", GameEnd::None, "K+N+N v K"},
      {"8/8/8/4k3/8/8/8/3BKN2 w - - 0 1", GameEnd::None, "K+B+N v K"},
      {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", GameEnd::None, "K+P v K"},
      {"8/8/8/4k3/8/8/8/R3K3 w - - 0 1", GameEnd::None, "K+R v K"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 100 80", GameEnd::FiftyMoveRule, "clock at 100"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", GameEnd::None, "clock at 99"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", GameEnd::None, "start"},
  };
  for (const auto& r : rows) {
    INFO(r.what << ": " << r.fen);
    auto pos = Position::from_fen(r.fen);
    REQUIRE(pos.has_value());
    CHECK(name(pos->game_end()) == std::string(name(r.expected)));
    CHECK(pos->insufficient_material() == (r.expected == GameEnd::InsufficientMaterial));
  }
}

TEST_CASE("fifty-move edge: a mate on the 100th half-move wins", "[gameend]") {
  const std::string fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80";
  auto mate = play(fen, {"a1a8"});
  CHECK(mate.halfmove_clock() == 100);
  CHECK(name(mate.game_end()) == std::string("Checkmate"));
  auto quiet = play(fen, {"a1a2"});
  CHECK(quiet.halfmove_clock() == 100);
  CHECK(name(quiet.game_end()) == std::string("FiftyMoveRule"));
  auto early = play("6k1/5ppp/8/8/8/8/8/R5K1 w - - 98 80", {"a1a2"});
  CHECK(name(early.game_end()) == std::string("None"));
  auto pawn = play(fen, {"g1f1", "h7h6"});  // a pawn move resets the clock
  CHECK(pawn.halfmove_clock() == 0);
  CHECK(name(pawn.game_end()) == std::string("None"));
}

TEST_CASE("threefold repetition by knight shuffles", "[gameend][repetition]") {
  const std::string start(Position::StartFen);
  std::vector<std::string> moves = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"};
  auto pos = play(start, moves);
  CHECK(pos.repetition_count() == 2);  // Ng1 v Nf6, black to move, was also seen at ply 3
  CHECK(name(pos.game_end()) == std::string("None"));
  pos.do_move(*parse_uci(pos, "f6g8"));
  CHECK(pos.repetition_count() == 3);
  CHECK(name(pos.game_end()) == std::string("ThreefoldRepetition"));
  pos.undo_move();
  CHECK(name(pos.game_end()) == std::string("None"));
}

TEST_CASE("repetition counts a capturable en-passant square as a different position",
          "[gameend][repetition]") {
  // After e2e4 black's d4 pawn can take en passant, so that first position differs from the
  // later ones with the same placement.
  auto pos = play("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", {"e2e4"});
  CHECK(pos.fen() == "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  const std::vector<std::string> cycle = {"e8d8", "e1f2", "d8e8", "f2e1"};
  for (const auto& m : cycle) pos.do_move(*parse_uci(pos, m));
  CHECK(pos.repetition_count() == 1);
  for (const auto& m : cycle) pos.do_move(*parse_uci(pos, m));
  CHECK(pos.repetition_count() == 2);
  CHECK(name(pos.game_end()) == std::string("None"));
  for (const auto& m : cycle) pos.do_move(*parse_uci(pos, m));
  CHECK(pos.repetition_count() == 3);
  CHECK(name(pos.game_end()) == std::string("ThreefoldRepetition"));
}

TEST_CASE("repetition ignores an en-passant square no pawn can legally use",
          "[gameend][repetition]") {
  // The d4 pawn is pinned against its king on a4 by the rook once e4 and d4 both vanish, so
  // exd3 e.p. is illegal and the position after e2e4 equals the later ones.
  auto pos = play("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", {"e2e4"});
  CHECK(pos.fen() == "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
  CHECK(pos.ep_square() == make_square(4, 2));  // kept for the Polyglot key
  const Key first_key = pos.key();
  const std::vector<std::string> cycle = {"a4a5", "e1f1", "a5a4", "f1e1"};
  for (const auto& m : cycle) pos.do_move(*parse_uci(pos, m));
  CHECK(pos.key() != first_key);  // Polyglot hashes the pseudo-legal ep square
  CHECK(pos.repetition_count() == 2);
  for (const auto& m : cycle) pos.do_move(*parse_uci(pos, m));
  CHECK(pos.repetition_count() == 3);
  CHECK(name(pos.game_end()) == std::string("ThreefoldRepetition"));
}

TEST_CASE("repetition in search: two-fold inside the tree, three-fold across the root",
          "[repetition]") {
  auto pos = play(std::string(Position::StartFen), {"g1f3"});  // the search root
  const std::vector<std::string> line = {"g8f6", "f3g1", "f6g8", "g1f3", "g8f6"};
  int ply = 0;
  for (const auto& m : line) {
    pos.do_move(*parse_uci(pos, m));
    ++ply;
    // Ply 4 repeats the root itself (not inside the tree); ply 5 repeats ply 1.
    CHECK(pos.is_draw_by_repetition_in_search(ply) == (ply == 5));
  }
  // Three-fold across the root: the start position was seen before the root twice.
  auto deep = play(std::string(Position::StartFen),
                   {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"});
  deep.do_move(*parse_uci(deep, "f6g8"));
  CHECK(deep.is_draw_by_repetition_in_search(1));
}
