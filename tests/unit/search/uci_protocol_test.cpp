// The protocol layer without a process: options, command parsing, output formats, and the
// command loop object driven in-process.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <mutex>
#include <thread>

#include "engine/chess/notation.h"
#include "engine/uci/options.h"
#include "engine/uci/protocol.h"
#include "engine/uci/uci_engine.h"
#include "search_test_util.h"

using namespace knightly;

TEST_CASE("every option is listed with its type / default and range") {
  auto lines = uci::option_lines();
  auto has = [&](const std::string& l) { return std::find(lines.begin(), lines.end(), l) != lines.end(); };
  CHECK(has("option name Search type combo default alphabeta var random var greedy var minimax var "
            "negamax var alphabeta var mcts"));
  CHECK(has("option name Eval type string default material+pst"));
  CHECK(has("option name Hash type spin default 16 min 0 max 4096"));
  for (const char* check : {"IterativeDeepening", "MoveOrdering", "Quiescence", "Pruning"})
    CHECK(has(std::string("option name ") + check + " type check default true"));
  for (const char* check : {"Shuffle", "OwnBook"})
    CHECK(has(std::string("option name ") + check + " type check default false"));
  CHECK(has("option name EvalNoise type spin default 0 min 0 max 10000"));
  CHECK(has("option name RandomMargin type spin default 0 min 0 max 10000"));
  CHECK(has("option name Seed type spin default 1 min 0 max 2147483647"));
  CHECK(has("option name BookFile type string default <empty>"));
  CHECK(has("option name MctsPlayout type combo default random var random var eval"));
}

TEST_CASE("options apply case-insensitively and reject bad values with a reason") {
  search::SearchConfig c;
  REQUIRE(uci::apply_option(c, "search", "MCTS"));
  CHECK(c.algorithm == search::Algorithm::Mcts);
  REQUIRE(uci::apply_option(c, "HASH", "0"));
  CHECK(c.hash_mb == 0);
  REQUIRE(uci::apply_option(c, "eval", "Material + Tension:50"));
  CHECK(c.eval == "material+tension:50");
  REQUIRE(uci::apply_option(c, "quiescence", "FALSE"));
  CHECK_FALSE(c.quiescence);
  REQUIRE(uci::apply_option(c, "mctsplayout", "eval"));
  CHECK(c.mcts_eval_playouts);
  REQUIRE(uci::apply_option(c, "BookFile", "<empty>"));
  CHECK(c.book_file.empty());

  auto e1 = uci::apply_option(c, "Hash", "-1");
  REQUIRE_FALSE(e1);
  CHECK(e1.error().find("between 0 and 4096") != std::string::npos);
  auto e2 = uci::apply_option(c, "Hash", "lots");
  REQUIRE_FALSE(e2);
  auto e3 = uci::apply_option(c, "Eval", "material+queens");
  REQUIRE_FALSE(e3);
  CHECK(e3.error().find("queens") != std::string::npos);
  CHECK_FALSE(uci::apply_option(c, "Search", "deepblue"));
  CHECK_FALSE(uci::apply_option(c, "Shuffle", "yes"));
  CHECK_FALSE(uci::apply_option(c, "NoSuchOption", "1"));
  CHECK(c.hash_mb == 0);  // failed calls changed nothing
}

TEST_CASE("position commands: startpos / fen / moves / and errors that apply nothing") {
  auto p = uci::parse_position("startpos moves e2e4 e7e5 g1f3");
  REQUIRE(p);
  CHECK(p->fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  auto f = uci::parse_position("fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4");
  REQUIRE(f);
  CHECK(f->fen() == "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
  CHECK_FALSE(uci::parse_position("fen 4k3/8/8/8/8/8/4P3/4K3 x - - 0 1"));
  CHECK_FALSE(uci::parse_position("startpos moves e2e5"));
  CHECK_FALSE(uci::parse_position("startpos moves e2e4 zz"));
  CHECK_FALSE(uci::parse_position(""));
  CHECK_FALSE(uci::parse_position("somewhere"));
}

TEST_CASE("go arguments become limits and bad values become warnings") {
  auto g = uci::parse_go("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
  CHECK(g.limits.time_ms[0] == 1000);
  CHECK(g.limits.time_ms[1] == 2000);
  CHECK(g.limits.inc_ms[0] == 10);
  CHECK(g.limits.inc_ms[1] == 20);
  CHECK(g.limits.movestogo == 5);
  CHECK(g.warnings.empty());
  CHECK(uci::parse_go("depth 7").limits.depth == 7);
  CHECK(uci::parse_go("nodes 1234").limits.nodes == 1234);
  CHECK(uci::parse_go("movetime 50").limits.movetime_ms == 50);
  CHECK(uci::parse_go("infinite").limits.infinite);
  CHECK(uci::parse_go("perft 3").perft == 3);
  auto neg = uci::parse_go("wtime -50 btime 100");
  CHECK(neg.limits.time_ms[0] == 1);  // an overdrawn clock still means hurry
  auto bad = uci::parse_go("depth x wibble movetime");
  CHECK(bad.warnings.size() == 3);
  CHECK(bad.limits.depth == 0);
}

TEST_CASE("info and bestmove lines in the UCI format") {
  CHECK(uci::format_score(35) == "cp 35");
  CHECK(uci::format_score(-120) == "cp -120");
  CHECK(uci::format_score(search::MateScore - 1) == "mate 1");
  CHECK(uci::format_score(search::MateScore - 5) == "mate 3");
  CHECK(uci::format_score(-(search::MateScore - 2)) == "mate -1");
  CHECK(uci::format_score(-(search::MateScore - 4)) == "mate -2");
  search::SearchInfo info;
  info.depth = 3;
  info.seldepth = 5;
  info.score = 12;
  info.nodes = 2000;
  info.time_ms = 4;
  chess::Position pos;
  info.pv = {*chess::parse_uci(pos, "e2e4")};
  CHECK(uci::format_info(info) == "info depth 3 seldepth 5 score cp 12 nodes 2000 nps 500000 time 4 pv e2e4");
  search::SearchResult none;
  CHECK(uci::format_bestmove(none) == "bestmove 0000");
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
  uci::UciEngine engine([&](const std::string& l) { out.add(l); });
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
  auto words = uci::split_words(line);
  REQUIRE(words.size() >= 2);
  auto pos = uci::parse_position("startpos moves e2e4");
  CHECK(chess::parse_uci(*pos, words[1]).has_value());
  CHECK_FALSE(engine.handle("quit"));
}

TEST_CASE("the command loop reports bad input and keeps going") {
  Output out;
  uci::UciEngine engine([&](const std::string& l) { out.add(l); });
  engine.handle("position fen not/a/fen w - - 0 1");
  CHECK(out.find("info string error: bad FEN").size() > 0);
  engine.handle("setoption name Hash value huge");
  CHECK(out.find("info string error: Hash expects a whole number").size() > 0);
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
  uci::UciEngine engine([&](const std::string& l) { out.add(l); });
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
  REQUIRE(out.wait_for("info string error: book", 5000));
}
