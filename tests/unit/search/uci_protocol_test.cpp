// The protocol layer without a process: options, command parsing, output formats, and the
// command loop object driven in-process.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "engine/chess/notation.h"
#include "engine/uci/options.h"
#include "engine/uci/protocol.h"
#include "engine/uci/uci_engine.h"
#include "search_test_util.h"

using namespace knightly;

TEST_CASE("every option is listed with its type / default and range") {
  auto lines = engine::option_lines();
  auto has = [&](const std::string& l) {
    return std::find(lines.begin(), lines.end(), l) != lines.end();
  };
  CHECK(
      has("option name Search type combo default alphabeta var random var greedy var minimax var "
          "negamax var alphabeta var mcts"));
  CHECK(has("option name Eval type string default material+pst"));
  CHECK(has("option name Hash type spin default 16 min 0 max 4096"));
  for (const char* check : {"IterativeDeepening", "MoveOrdering", "Quiescence", "Pruning"})
    CHECK(has(std::string("option name ") + check + " type check default true"));
  for (const char* check : {"Shuffle", "OwnBook"})
    CHECK(has(std::string("option name ") + check + " type check default false"));
  CHECK(has("option name EvalNoise type spin default 0 min 0 max 10000"));
  CHECK(has("option name KnightValue type spin default 320 min 0 max 2000"));
  CHECK(has("option name RandomMargin type spin default 0 min 0 max 10000"));
  CHECK(has("option name Seed type spin default 1 min 0 max 2147483647"));
  CHECK(has("option name BookFile type string default <empty>"));
  CHECK(has("option name MctsPlayout type combo default random var random var eval"));
  CHECK(has("option name Move Overhead type spin default 10 min 0 max 5000"));
}

TEST_CASE("options apply case-insensitively and reject bad values with a reason") {
  search::SearchConfig c;
  REQUIRE(engine::apply_option(c, "search", "MCTS"));
  CHECK(c.algorithm == search::Algorithm::Mcts);
  REQUIRE(engine::apply_option(c, "HASH", "0"));
  CHECK(c.hash_mb == 0);
  REQUIRE(engine::apply_option(c, "eval", "Material + Tension:50"));
  CHECK(c.eval == "material+tension:50");
  REQUIRE(engine::apply_option(c, "quiescence", "FALSE"));
  CHECK_FALSE(c.quiescence);
  REQUIRE(engine::apply_option(c, "mctsplayout", "eval"));
  CHECK(c.mcts_eval_playouts);
  REQUIRE(engine::apply_option(c, "BookFile", "<empty>"));
  CHECK(c.book_file.empty());
  REQUIRE(engine::apply_option(c, "move overhead", "250"));
  CHECK(c.move_overhead_ms == 250);

  auto e1 = engine::apply_option(c, "Hash", "-1");
  REQUIRE_FALSE(e1);
  CHECK(e1.error() == "Hash: '-1' is not an integer in [0, 4096]");
  auto e2 = engine::apply_option(c, "Hash", "lots");
  REQUIRE_FALSE(e2);
  CHECK(e2.error() == "Hash: 'lots' is not an integer in [0, 4096]");
  auto e3 = engine::apply_option(c, "Eval", "material+queens");
  REQUIRE_FALSE(e3);
  CHECK(e3.error().find("queens") != std::string::npos);
  CHECK_FALSE(engine::apply_option(c, "Search", "deepblue"));
  CHECK_FALSE(engine::apply_option(c, "Shuffle", "yes"));
  CHECK_FALSE(engine::apply_option(c, "NoSuchOption", "1"));
  CHECK(c.hash_mb == 0);  // failed calls changed nothing
}

TEST_CASE("position commands: startpos / fen / moves / and errors that apply nothing") {
  auto p = engine::parse_position("startpos moves e2e4 e7e5 g1f3");
  REQUIRE(p);
  CHECK(p->fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  auto f = engine::parse_position("fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4");
  REQUIRE(f);
  CHECK(f->fen() == "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
  CHECK_FALSE(engine::parse_position("fen 4k3/8/8/8/8/8/4P3/4K3 x - - 0 1"));
  CHECK_FALSE(engine::parse_position("startpos moves e2e5"));
  CHECK_FALSE(engine::parse_position("startpos moves e2e4 zz"));
  CHECK_FALSE(engine::parse_position(""));
  CHECK_FALSE(engine::parse_position("somewhere"));
}

TEST_CASE("go arguments become limits and bad values become warnings") {
  auto g = engine::parse_go("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
  CHECK(g.limits.time_ms[0] == 1000);
  CHECK(g.limits.time_ms[1] == 2000);
  CHECK(g.limits.inc_ms[0] == 10);
  CHECK(g.limits.inc_ms[1] == 20);
  CHECK(g.limits.movestogo == 5);
  CHECK(g.warnings.empty());
  CHECK(engine::parse_go("depth 7").limits.depth == 7);
  CHECK(engine::parse_go("nodes 1234").limits.nodes == 1234);
  CHECK(engine::parse_go("movetime 50").limits.movetime_ms == 50);
  CHECK(engine::parse_go("infinite").limits.infinite);
  CHECK(engine::parse_go("perft 3").perft == 3);
  auto neg = engine::parse_go("wtime -50 btime 100");
  CHECK(neg.limits.time_ms[0] == 1);  // an overdrawn clock still means hurry
  auto bad = engine::parse_go("depth x wibble movetime");
  CHECK(bad.warnings.size() == 3);
  CHECK(bad.limits.depth == 0);
}

TEST_CASE("info and bestmove lines in the UCI format") {
  CHECK(engine::format_score(35) == "cp 35");
  CHECK(engine::format_score(-120) == "cp -120");
  CHECK(engine::format_score(search::MateScore - 1) == "mate 1");
  CHECK(engine::format_score(search::MateScore - 5) == "mate 3");
  CHECK(engine::format_score(-(search::MateScore - 2)) == "mate -1");
  CHECK(engine::format_score(-(search::MateScore - 4)) == "mate -2");
  search::SearchInfo info;
  info.depth = 3;
  info.seldepth = 5;
  info.score = 12;
  info.nodes = 2000;
  info.time_ms = 4;
  chess::Position pos;
  info.pv = {*chess::parse_uci(pos, "e2e4")};
  CHECK(engine::format_info(info) ==
        "info depth 3 seldepth 5 score cp 12 nodes 2000 nps 500000 time 4 pv e2e4");
  search::SearchResult none;
  CHECK(engine::format_bestmove(none) == "bestmove 0000");
}

namespace {

// Collects the engine's output lines, thread-safely, and waits for one to appear.
struct Output {
  std::mutex mu;
  std::vector<std::string> lines;
  void add(const std::string& l) {
    std::lock_guard lock(mu);
    lines.push_back(l);
  }
  bool wait_for(const std::string& prefix, int ms) {
    for (int i = 0; i < ms; ++i) {
      {
        std::lock_guard lock(mu);
        for (const auto& l : lines)
          if (l.rfind(prefix, 0) == 0) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }
  void clear() {
    std::lock_guard lock(mu);
    lines.clear();
  }
  std::string find(const std::string& prefix) {
    std::lock_guard lock(mu);
    for (const auto& l : lines)
      if (l.rfind(prefix, 0) == 0) return l;
    return "";
  }
};

}  // namespace

TEST_CASE("the command loop answers isready during a search and bestmove after stop") {
  Output out;
  engine::UciEngine engine([&](const std::string& l) { out.add(l); });
  REQUIRE(engine.handle("position startpos moves e2e4"));
  REQUIRE(engine.handle("go infinite"));
  REQUIRE(engine.handle("isready"));
  CHECK(out.wait_for("readyok", 1000));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  CHECK(out.find("bestmove").empty());
  REQUIRE(engine.handle("go depth 1"));  // ignored while searching
  CHECK(out.wait_for("info string error: already searching", 1000));
  REQUIRE(engine.handle("stop"));
  REQUIRE(out.wait_for("bestmove", 1000));
  engine.wait();
  const std::string line = out.find("bestmove");
  auto words = engine::split_words(line);
  REQUIRE(words.size() >= 2);
  auto pos = engine::parse_position("startpos moves e2e4");
  CHECK(chess::parse_uci(*pos, words[1]).has_value());
  CHECK_FALSE(engine.handle("quit"));
}

TEST_CASE("a go limited to a small depth or node count is searched on the command thread") {
  // Which thread wrote each bestmove: the caller of handle() (inline) or the search thread.
  std::mutex mu;
  std::vector<std::pair<std::string, std::thread::id>> best;
  engine::UciEngine engine([&](const std::string& l) {
    std::lock_guard lock(mu);
    if (l.rfind("bestmove ", 0) == 0) best.emplace_back(l, std::this_thread::get_id());
  });
  const auto me = std::this_thread::get_id();
  REQUIRE(engine.handle("position startpos moves e2e4"));
  const auto last = [&] {
    std::lock_guard lock(mu);
    return best.empty() ? std::pair<std::string, std::thread::id>{} : best.back();
  };
  const auto count = [&] {
    std::lock_guard lock(mu);
    return best.size();
  };
  for (const char* go : {"go depth 1", "go depth 2", "go nodes 1000", "go nodes 1"}) {
    INFO(go);
    const std::size_t before = count();
    REQUIRE(engine.handle(go));
    // Answered before handle() returned: no wait.
    CHECK_FALSE(engine.searching());
    REQUIRE(count() == before + 1);
    CHECK(last().second == me);
    auto pos = engine::parse_position("startpos moves e2e4");
    CHECK(chess::parse_uci(*pos, engine::split_words(last().first).at(1)).has_value());
  }
  // Anything larger, timed or infinite goes to the search thread, so that `stop` and
  // `isready` are read while it runs.
  for (const char* go : {"go depth 3", "go nodes 1001", "go depth 1 wtime 1000 btime 1000",
                         "go depth 1 movetime 50", "go infinite"}) {
    INFO(go);
    REQUIRE(engine.handle(go));
    if (std::string(go) == "go infinite") REQUIRE(engine.handle("stop"));
    engine.wait();
    CHECK(last().second != me);
  }
  CHECK_FALSE(engine.handle("quit"));
}

TEST_CASE("the command loop reports bad input and keeps going") {
  Output out;
  engine::UciEngine engine([&](const std::string& l) { out.add(l); });
  engine.handle("position fen not/a/fen w - - 0 1");
  CHECK(out.find("info string error: bad FEN").size() > 0);
  engine.handle("setoption name Hash value huge");
  CHECK(out.find("info string error: Hash: 'huge' is not an integer in [0, 4096]").size() > 0);
  engine.handle("xyzzy");
  CHECK(out.find("info string unknown command 'xyzzy'").size() > 0);
  engine.handle("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  engine.handle("go perft 2");
  CHECK(out.find("Nodes searched: ") == "Nodes searched: 66");  // perft.epd's count
  engine.handle("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  engine.handle("go depth 3");
  REQUIRE(out.wait_for("bestmove", 2000));
  CHECK(out.find("bestmove") == "bestmove 0000");
}

TEST_CASE("OwnBook and BookFile set over UCI make the engine play from its book") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("knightly_uci_book_" + std::to_string(::getpid()) + ".epd"))
                               .string();
  std::ofstream(path) << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Nf3;\n";
  Output out;
  engine::UciEngine engine([&](const std::string& l) { out.add(l); });
  engine.handle("setoption name OwnBook value true");
  engine.handle("setoption name BookFile value " + path);
  engine.handle("isready");
  REQUIRE(out.wait_for("readyok", 5000));
  CHECK(out.find("info string book " + path + ": 1 positions").size() > 0);
  engine.handle("position startpos");
  engine.handle("go depth 5");
  REQUIRE(out.wait_for("bestmove", 5000));
  CHECK(out.find("bestmove") == "bestmove g1f3");
  CHECK(out.find("info string book move g1f3").size() > 0);
  std::remove(path.c_str());
  engine.handle("setoption name BookFile value /nonexistent/x.epd");
  engine.handle("isready");
  REQUIRE(out.wait_for(
      "info string error: cannot open book file '/nonexistent/x.epd': No such file or directory",
      5000));
  // Without the book the engine searches.
  engine.handle("go depth 1");
  REQUIRE(out.wait_for("bestmove", 5000));
  engine.wait();
}

TEST_CASE("an unreadable position is reported and no go searches anything until the next one") {
  Output out;
  engine::UciEngine engine([&](const std::string& l) { out.add(l); });
  // The case: Shredder-FEN castling, read now; perft 2 is that position's, not 400.
  engine.handle("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
  engine.handle("go perft 2");
  CHECK(out.find("Nodes searched: ") == "Nodes searched: 528");
  // A bad FEN, an illegal move, a malformed move: each says so, and `go` refuses with 0000.
  const char* bad[][2] = {
      {"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra moves e2e4",
       "info string error: bad FEN 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 "
       "extra' (field 6)"},
      {"position startpos moves e2e4 e7e5 e1e3",
       "info string error: position: move 3 'e1e3': illegal move 'e1e3'"},
      {"position startpos moves e2e4 e7e5x",
       "info string error: position: move 2 'e7e5x': malformed"},
      {"position sideways", "info string error: position: expected 'startpos' or 'fen'"},
  };
  for (const auto& [command, says] : bad) {
    INFO(command);
    engine.handle("position startpos");
    engine.handle(command);
    CHECK_FALSE(out.find(says).empty());
    out.clear();
    engine.handle("go depth 3");
    REQUIRE(out.wait_for("bestmove", 2000));
    CHECK(out.find("bestmove") == "bestmove 0000");
    CHECK_FALSE(
        out.find("info string error: 'go' refused: the last 'position' could not be read").empty());
    CHECK(out.find("info depth").empty());  // nothing was searched
    out.clear();
    engine.handle("go perft 1");
    CHECK(out.find("Nodes searched").empty());
    out.clear();
  }
  // The next good position is searched again.
  engine.handle("position startpos moves e2e4");
  engine.handle("go depth 2");
  REQUIRE(out.wait_for("bestmove", 2000));
  engine.wait();
  const std::string best = out.find("bestmove");
  INFO(best);
  auto words = engine::split_words(best);
  REQUIRE(words.size() >= 2);
  CHECK(chess::parse_uci(*engine::parse_position("startpos moves e2e4"), words[1]).has_value());
}

TEST_CASE("position lists that extend the last one play only the new moves") {
  Output out;
  engine::UciEngine engine([&](const std::string& l) { out.add(l); });
  engine.handle("position startpos moves e2e4");
  engine.handle("position startpos moves e2e4 e7e5 g1f3");
  engine.handle("d");
  CHECK(out.find("info string fen") ==
        "info string fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  // The history is the game's: Nf3 Nf6 Ng1 Ng8 twice more makes a threefold repetition, which
  // only a position that played every move knows.
  std::string moves = "position startpos moves e2e4 e7e5 g1f3";
  for (const char* m : {"g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}) {
    moves += std::string(" ") + m;
    engine.handle(moves);
  }
  out.clear();
  engine.handle("d");
  CHECK(out.find("info string fen") ==
        "info string fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 8 6");
  // A shorter list, a different start, a different earlier move: built again from the start.
  for (const auto& [command, fen] : std::vector<std::pair<std::string, std::string>>{
           {"position startpos moves d2d4",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"},
           {"position startpos moves e2e4",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
           {"position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4",
            "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"},
           {"position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7",
            "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2"},
       }) {
    engine.handle(command);
    out.clear();
    engine.handle("d");
    CHECK(out.find("info string fen") == "info string fen " + fen);
  }
  // An illegal move in the new part: the whole command fails, and the next list (even one
  // extending the good prefix) is read from its start.
  engine.handle("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7 e4e6");
  out.clear();
  engine.handle("d");
  CHECK(out.find("info string no position: position: move 3 'e4e6'").size() > 0);
  engine.handle("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7 e4e5");
  out.clear();
  engine.handle("d");
  CHECK(out.find("info string fen") == "info string fen 8/3k4/8/4P3/8/8/8/4K3 b - - 0 2");
}

TEST_CASE("position texts: moves added later, spacing, FEN fields added, takebacks") {
  Output out;
  engine::UciEngine engine([&](const std::string& l) { out.add(l); });
  auto fen = [&](const std::string& command) {
    engine.handle(command);
    out.clear();
    engine.handle("d");
    return out.find("info string fen");
  };
  const std::string f = "info string fen ";
  CHECK(fen("position startpos") == f + std::string(chess::Position::StartFen));
  CHECK(fen("position startpos moves") == f + std::string(chess::Position::StartFen));
  CHECK(fen("position startpos moves e2e4") ==
        f + "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  // Extra spaces, a tab and a CR (a Windows GUI's line end) read as one space.
  CHECK(fen("position startpos moves e2e4  e7e5\t g1f3\r") ==
        f + "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  CHECK(fen("position startpos moves e2e4 e7e5 g1f3 b8c6") ==
        f + "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  // Taken back to before Black's first move, then another line played from there.
  CHECK(fen("position startpos moves e2e4") ==
        f + "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  CHECK(fen("position startpos moves e2e4 c7c5") ==
        f + "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  // A FEN without its counters, then with them: another start, built again.
  CHECK(fen("position fen 4k3/8/8/8/8/8/4P3/4K3 w - -") == f + "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  CHECK(fen("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 10 40") ==
        f + "4k3/8/8/8/8/8/4P3/4K3 w - - 10 40");
  CHECK(fen("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 10 40 moves e2e4") ==
        f + "4k3/8/8/8/4P3/8/8/4K3 b - - 0 40");
  // Words after the list that are not moves: the command fails as a whole.
  engine.handle("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 10 40 moves e2e4 e8e7 banana");
  out.clear();
  engine.handle("d");
  CHECK(out.find("info string no position: position: move 3 'banana'").size() > 0);
  // After ucinewgame a list is read from its start.
  engine.handle("position startpos moves e2e4");
  engine.handle("ucinewgame");
  CHECK(fen("position startpos moves e2e4 e7e5") ==
        f + "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

TEST_CASE("output is flushed after each answer and after bestmove") {
  std::mutex mu;
  std::vector<std::string> events;  // lines, and "<flush>"
  engine::UciEngine engine(
      [&](const std::string& l) {
        std::lock_guard lock(mu);
        events.push_back(l);
      },
      [&] {
        std::lock_guard lock(mu);
        events.push_back("<flush>");
      });
  auto snapshot = [&] {
    std::lock_guard lock(mu);
    return events;
  };
  engine.handle("isready");
  CHECK(snapshot() == std::vector<std::string>{"readyok", "<flush>"});
  engine.handle("uci");
  auto ev = snapshot();
  REQUIRE(ev.size() > 4);
  CHECK(ev[ev.size() - 2] == "uciok");
  CHECK(ev.back() == "<flush>");
  CHECK(std::count(ev.begin(), ev.end(), "<flush>") == 2);  // not one per option line
  engine.handle("position startpos moves e2e4");
  {
    std::lock_guard lock(mu);
    events.clear();
  }
  engine.handle("go depth 1");
  // The search thread writes bestmove just after the search ends: wait (with a deadline that
  // only catches a hang) for it and a flush after it.
  auto flushed_bestmove = [&] {
    auto e = snapshot();
    auto b = std::find_if(e.begin(), e.end(),
                          [](const std::string& l) { return l.rfind("bestmove ", 0) == 0; });
    return b != e.end() && std::find(b, e.end(), "<flush>") != e.end();
  };
  for (int i = 0; i < 10000 && !flushed_bestmove(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(flushed_bestmove());
  engine.wait();
  ev = snapshot();
  // The bestmove is the last line and a flush follows it (the command thread's own flush at
  // the end of `go` may come before or after the search's).
  while (!ev.empty() && ev.back() == "<flush>") ev.pop_back();
  REQUIRE_FALSE(ev.empty());
  CHECK(ev.back().rfind("bestmove ", 0) == 0);
  CHECK(snapshot().size() > ev.size());
  // The search's info lines: one per iteration, the last one not repeated before bestmove.
  CHECK(std::count_if(ev.begin(), ev.end(),
                      [](const std::string& l) { return l.rfind("info depth 1 ", 0) == 0; }) == 1);
}

TEST_CASE("UCI_Chess960: Shredder and X-FEN positions, castling as king takes rook") {
  Output out;
  engine::UciEngine engine([&](const std::string& l) { out.add(l); });
  engine.handle("setoption name UCI_Chess960 value true");
  // King b1, rooks a1 and h1; the best move at depth 1 is still legal, and castling is
  // written b1h1 in the perft list and read back in a move list.
  engine.handle("position fen 1k6/8/8/8/8/8/8/RK5R w KQ - 0 1");
  engine.handle("go perft 1");
  CHECK_FALSE(out.find("b1h1: 1").empty());
  CHECK_FALSE(out.find("b1a1: 1").empty());
  engine.handle("position fen 1k6/8/8/8/8/8/8/RK5R w HA - 0 1 moves b1h1");
  out.clear();
  engine.handle("d");
  CHECK(out.find("info string fen") == "info string fen 1k6/8/8/8/8/8/8/R4RK1 b - - 1 1");
  // Standard chess writes e1g1.
  engine.handle("setoption name UCI_Chess960 value false");
  engine.handle("isready");
  engine.handle("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  out.clear();
  engine.handle("go perft 1");
  CHECK_FALSE(out.find("e1g1: 1").empty());
  CHECK(out.find("e1h1").empty());
}
