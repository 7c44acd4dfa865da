// Tablebase adjudication with a stand-in prober: which positions are probed (pieces, castling
// rights, halfmove clock), fastchess's result strings, WIN_LOSS / DRAW / BOTH, -tbignore50,
// and the game ending by it.
#include "runner/match/tablebase_adjudication.h"

#include <catch2/catch.hpp>

#include "runner/match/game.h"

using namespace knightly;
using namespace knightly::runner;
namespace chess = knightly::chess;

namespace {

class StandIn : public TablebaseProber {
 public:
  StandIn(int largest, std::optional<TbWdl> answer) : largest_(largest), answer_(answer) {}
  int largest() const override { return largest_; }
  std::optional<TbWdl> probe_wdl(const chess::Position&) const override {
    ++probes;
    return answer_;
  }
  mutable int probes = 0;

 private:
  int largest_;
  std::optional<TbWdl> answer_;
};

chess::Position pos(const std::string& fen) {
  auto p = chess::Position::from_fen(fen);
  REQUIRE(p.has_value());
  return *p;
}

TablebaseAdjudication on() {
  TablebaseAdjudication s;
  s.enabled = true;
  return s;
}

}  // namespace

TEST_CASE("which positions are probed", "[match][tablebase]") {
  StandIn tables(5, TbWdl::Win);
  const auto s = on();
  CHECK(tablebase_probable(pos("8/8/8/4k3/8/8/3QK3/8 w - - 0 60"), s, tables));
  // Syzygy WDL is exact only at a zeroed halfmove clock; no castling rights.
  CHECK_FALSE(tablebase_probable(pos("8/8/8/4k3/8/8/3QK3/8 w - - 3 60"), s, tables));
  CHECK_FALSE(tablebase_probable(pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), s, tables));
  // More pieces than the tables hold, or than -tbpieces allows.
  CHECK_FALSE(tablebase_probable(pos("8/8/8/2r1k3/8/8/2RQKN2/8 w - - 0 60"), s, tables));
  auto three = on();
  three.max_pieces = 3;
  CHECK_FALSE(tablebase_probable(pos("8/8/8/4k3/8/8/2RQK3/8 w - - 0 60"), three, tables));
  CHECK(tablebase_probable(pos("8/8/8/4k3/8/8/3QK3/8 w - - 0 60"), three, tables));
  StandIn none(0, TbWdl::Win);
  CHECK_FALSE(tablebase_probable(pos("8/8/8/4k3/8/8/3QK3/8 w - - 0 60"), s, none));
}

TEST_CASE("what a probe makes of the game, with fastchess's reasons", "[match][tablebase]") {
  const auto white_to_move = pos("8/8/8/4k3/8/8/3QK3/8 w - - 0 60");
  const auto black_to_move = pos("8/8/8/4k3/8/8/3QK3/8 b - - 0 60");
  auto s = on();
  auto win = tablebase_adjudicate(white_to_move, s, StandIn(5, TbWdl::Win));
  REQUIRE(win.has_value());
  CHECK(win->result == Result::WhiteWins);
  CHECK(win->termination == Termination::AdjudicationTablebase);
  CHECK(win->reason == "White wins by adjudication: SyzygyTB");
  auto loss = tablebase_adjudicate(black_to_move, s, StandIn(5, TbWdl::Loss));
  REQUIRE(loss.has_value());
  CHECK(loss->result == Result::WhiteWins);
  auto black = tablebase_adjudicate(white_to_move, s, StandIn(5, TbWdl::Loss));
  CHECK(black->reason == "Black wins by adjudication: SyzygyTB");
  auto draw = tablebase_adjudicate(white_to_move, s, StandIn(5, TbWdl::Draw));
  REQUIRE(draw.has_value());
  CHECK(draw->result == Result::Draw);
  CHECK(draw->reason == "Draw by adjudication: SyzygyTB");
  // Cursed wins and blessed losses are draws by the fifty-move rule unless -tbignore50.
  CHECK(tablebase_adjudicate(white_to_move, s, StandIn(5, TbWdl::CursedWin))->result ==
        Result::Draw);
  CHECK(tablebase_adjudicate(white_to_move, s, StandIn(5, TbWdl::BlessedLoss))->result ==
        Result::Draw);
  s.ignore_50 = true;
  CHECK(tablebase_adjudicate(white_to_move, s, StandIn(5, TbWdl::CursedWin))->result ==
        Result::WhiteWins);
  CHECK(tablebase_adjudicate(white_to_move, s, StandIn(5, TbWdl::BlessedLoss))->result ==
        Result::BlackWins);
  // -tbadjudicate WIN_LOSS leaves draws to the engines, DRAW leaves wins.
  auto win_loss = on();
  win_loss.draw = false;
  CHECK_FALSE(tablebase_adjudicate(white_to_move, win_loss, StandIn(5, TbWdl::Draw)));
  CHECK(tablebase_adjudicate(white_to_move, win_loss, StandIn(5, TbWdl::Win)));
  auto draws = on();
  draws.win_loss = false;
  CHECK_FALSE(tablebase_adjudicate(white_to_move, draws, StandIn(5, TbWdl::Win)));
  CHECK(tablebase_adjudicate(white_to_move, draws, StandIn(5, TbWdl::Draw)));
  // A failed probe (a table missing) or disabled settings: nothing.
  CHECK_FALSE(tablebase_adjudicate(white_to_move, on(), StandIn(5, std::nullopt)));
  StandIn counted(5, TbWdl::Win);
  CHECK_FALSE(tablebase_adjudicate(white_to_move, TablebaseAdjudication{}, counted));
  CHECK(counted.probes == 0);
}

TEST_CASE("a game ends by the tables after the capture that enters them", "[match][tablebase]") {
  StandIn tables(5, TbWdl::Win);
  GameSetup setup;
  setup.white = "A";
  setup.black = "B";
  setup.start_fen = "8/8/8/3rk3/8/8/3QK3/8 w - - 7 60";
  setup.adjudication.tablebase = on();
  setup.tablebase = &tables;
  auto game = Game::create(setup);
  REQUIRE(game.has_value());
  auto reply = [](const std::string& move) {
    MoveReply r;
    r.bestmove = move;
    r.elapsed_ms = 10;
    return r;
  };
  game->on_reply(reply("e2e3"));  // 4 pieces but the clock is not zero: nothing probed
  CHECK_FALSE(game->finished());
  CHECK(tables.probes == 0);
  // Black takes the queen: 3 pieces, clock 0; the stand-in says the side to move (White) wins.
  game->on_reply(reply("d5d2"));
  REQUIRE(game->finished());
  CHECK(tables.probes == 1);
  CHECK(game->result() == Result::WhiteWins);
  CHECK(game->reason() == "White wins by adjudication: SyzygyTB");
  CHECK(game->record({}).pgn.find("[Termination \"adjudication\"]") != std::string::npos);
}
