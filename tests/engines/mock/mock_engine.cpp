// A small UCI engine for the runner's tests: plays a legal move (the first one, or a seeded
// random one) through the chess core, and misbehaves on request.
//
//   --crash-at-start          exit(3) before reading anything
//   --start-once FILE         start normally the first time (creating FILE); crash at start
//                             on every later launch (an engine that cannot be restarted)
//   --crash-on-go N           exit(3) on the Nth `go` (after one info line)
//   --stall-after-go          after the first `go`, never read or answer anything again
//   --illegal-move            answer a well-formed move that is not legal
//   --unparsable-move         answer `bestmove xyz`
//   --garbage                 emit garbage lines (junk, bad info, CRLF, a 100 kB line)
//   --slow-uciok MS           wait MS before `uciok`
//   --slow-readyok MS         wait MS before every `readyok` (a network loaded at isready)
//   --no-readyok              never answer `isready`
//   --readyok-count N         answer only the first N `isready`
//   --quit-delay MS           on `quit`, exit only after MS
//   --info-flood N            N info lines per move (depth i, score cp i, nodes 1000 i)
//   --delay MS                think MS before each bestmove
//   --print-env VAR           `info string env VAR=value` with every move, and on stderr
//   --print-cwd               `info string cwd PATH` with every move, and on stderr
//   --seed N                  play a random legal move from an LCG seeded with N
//   --name NAME               `id name NAME` (default mock-engine)
//   --info-string TEXT        `info string TEXT` with every move (before its scored line)
//   --bad-mate-pv             report `score mate 2` with a one-move PV (fastchess's
//                             "Incomplete mating PV")
//   --random-faults PERMILLE  on each `go`, with that chance in 1000 (drawn from the pid and
//                             the clock, so every process differs): exit(3), stall forever,
//                             answer an illegal move, or emit garbage first (for the soak)
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "tests/engines/mock/mock_common.h"

namespace {

using namespace knightly;
using mock::out;
using mock::sleep_ms;

struct Flags {
  bool crash_at_start = false;
  std::string start_once;
  int crash_on_go = 0;
  bool stall_after_go = false;
  bool illegal_move = false;
  bool unparsable_move = false;
  bool garbage = false;
  int slow_uciok_ms = 0;
  int slow_readyok_ms = 0;
  bool no_readyok = false;
  int readyok_count = -1;  // -1 = unlimited
  int quit_delay_ms = 0;
  int info_flood = 0;
  std::string info_string;
  bool bad_mate_pv = false;
  int delay_ms = 0;
  std::string print_env;
  bool print_cwd = false;
  std::uint64_t seed = 0;
  std::string name = "mock-engine";
  int random_faults = 0;  // per mille
};

Flags parse_flags(int argc, char** argv) {
  Flags f;
  mock::FlagParser("mock-engine")
      .flag("--crash-at-start", f.crash_at_start)
      .value("--start-once", f.start_once)
      .value("--crash-on-go", f.crash_on_go)
      .flag("--stall-after-go", f.stall_after_go)
      .flag("--illegal-move", f.illegal_move)
      .flag("--unparsable-move", f.unparsable_move)
      .flag("--garbage", f.garbage)
      .value("--slow-uciok", f.slow_uciok_ms)
      .value("--slow-readyok", f.slow_readyok_ms)
      .flag("--no-readyok", f.no_readyok)
      .value("--readyok-count", f.readyok_count)
      .value("--quit-delay", f.quit_delay_ms)
      .value("--info-flood", f.info_flood)
      .value("--info-string", f.info_string)
      .flag("--bad-mate-pv", f.bad_mate_pv)
      .value("--delay", f.delay_ms)
      .value("--print-env", f.print_env)
      .flag("--print-cwd", f.print_cwd)
      .value("--seed", f.seed)
      .value("--name", f.name)
      .value("--random-faults", f.random_faults)
      .parse(argc, argv);
  return f;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> t;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') ++i;
    if (i > b) t.push_back(s.substr(b, i - b));
  }
  return t;
}

void emit_garbage() {
  out("this is not uci");
  out("info depth x score cp");
  out("bestmovex e2e4");
  out("");
  out("\x01\x02\x7f binary junk \xff");
  out("info score foo 12");
  out(std::string(100000, 'g'));
  out("readyok-ish\r");
}

}  // namespace

int main(int argc, char** argv) {
  Flags f = parse_flags(argc, argv);
  if (!f.start_once.empty()) {
    if (std::FILE* seen = std::fopen(f.start_once.c_str(), "r")) {
      std::fclose(seen);
      f.crash_at_start = true;
    } else if (std::FILE* mark = std::fopen(f.start_once.c_str(), "w")) {
      std::fclose(mark);
    }
  }
  if (f.crash_at_start) {
    std::fprintf(stderr, "mock-engine: crashing at start\n");
    return 3;
  }

  std::string env_text, cwd_text;
  if (!f.print_env.empty()) {
    const char* v = std::getenv(f.print_env.c_str());
    env_text = "env " + f.print_env + "=" + (v ? v : "<unset>");
    std::fprintf(stderr, "mock-engine: %s\n", env_text.c_str());
  }
  if (f.print_cwd) {
    char buf[4096];
    cwd_text = std::string("cwd ") + (::getcwd(buf, sizeof buf) ? buf : "?");
    std::fprintf(stderr, "mock-engine: %s\n", cwd_text.c_str());
  }

  chess::Position pos;
  std::vector<std::string> options_set;
  // UCI_Chess960: castlings must come as king takes rook, and a Chess960 position without it
  // is refused, as a real engine would misread it.
  bool chess960 = false;
  mock::Lcg rng{f.seed};
  mock::Lcg fault_rng{
      static_cast<std::uint64_t>(::getpid()) * 0x9E3779B97F4A7C15ULL ^
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())};
  auto next_fault = [&] { return fault_rng.next(); };
  int gos = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::vector<std::string> t = split(line);
    if (t.empty()) continue;
    const std::string& cmd = t[0];
    if (cmd == "uci") {
      if (f.garbage) emit_garbage();
      out("id name " + f.name);
      out("id author the Knightly tests");
      out("option name Hash type spin default 16 min 1 max 1024");
      out("option name Threads type spin default 1 min 1 max 1");
      out("option name Mock Style type combo default solid var solid var wild");
      out("option name Clear Hash type button");
      if (f.slow_uciok_ms > 0) sleep_ms(f.slow_uciok_ms);
      out("uciok");
    } else if (cmd == "isready") {
      if (f.slow_readyok_ms > 0) sleep_ms(f.slow_readyok_ms);
      if (!f.no_readyok && f.readyok_count != 0) out("readyok");
      if (f.readyok_count > 0) --f.readyok_count;
    } else if (cmd == "setoption") {
      // setoption name <id> [value <x>]
      std::string rest = line.substr(line.find("name") + 4);
      std::size_t v = rest.find(" value ");
      std::string name = rest.substr(0, v), val = v == std::string::npos ? "" : rest.substr(v + 7);
      while (!name.empty() && name.front() == ' ') name.erase(0, 1);
      options_set.push_back(name + "=" + val);
      if (name == "UCI_Chess960") chess960 = val == "true";
    } else if (cmd == "ucinewgame") {
      pos = chess::Position();
    } else if (cmd == "position") {
      std::size_t i = 1;
      if (i < t.size() && t[i] == "startpos") {
        pos = chess::Position();
        ++i;
      } else if (i < t.size() && t[i] == "fen") {
        std::string fen;
        for (++i; i < t.size() && t[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + t[i];
        auto p = chess::Position::from_fen(fen);
        if (!p) {
          std::fprintf(stderr, "mock-engine: bad fen %s\n", fen.c_str());
          return 5;
        }
        pos = *p;
        if (pos.chess960_layout() && !chess960) {
          std::fprintf(stderr, "mock-engine: Chess960 position %s without UCI_Chess960\n",
                       fen.c_str());
          return 6;
        }
      }
      if (i < t.size() && t[i] == "moves") {
        for (++i; i < t.size(); ++i) {
          auto m = chess::parse_uci(pos, t[i]);
          if (!m) {
            std::fprintf(stderr, "mock-engine: bad move %s\n", t[i].c_str());
            return 5;
          }
          if (chess960 && m->kind() == chess::Move::Castling && t[i] != chess::to_uci(*m, true)) {
            std::fprintf(stderr, "mock-engine: castling %s is not king takes rook\n", t[i].c_str());
            return 5;
          }
          pos.do_move(*m);
        }
      }
    } else if (cmd == "go") {
      ++gos;
      bool illegal = f.illegal_move;
      if (f.random_faults > 0 && int(next_fault() % 1000) < f.random_faults) {
        switch (next_fault() % 4) {
          case 0:
            std::fprintf(stderr, "mock-engine: random fault: crash\n");
            std::_Exit(3);
          case 1:
            std::fprintf(stderr, "mock-engine: random fault: stall\n");
            mock::stall_forever();
          case 2:
            illegal = true;
            break;
          default:
            emit_garbage();
        }
      }
      if (f.garbage) emit_garbage();
      if (f.crash_on_go > 0 && gos == f.crash_on_go) {
        out("info depth 1 score cp 0");
        std::fprintf(stderr, "mock-engine: crashing on go %d\n", gos);
        std::_Exit(3);
      }
      if (f.stall_after_go) mock::stall_forever();
      if (!env_text.empty()) out("info string " + env_text);
      if (!cwd_text.empty()) out("info string " + cwd_text);
      for (const std::string& o : options_set) out("info string option " + o);
      for (int d = 1; d <= f.info_flood; ++d)
        out("info depth " + std::to_string(d) + " seldepth " + std::to_string(d + 1) +
            " score cp " + std::to_string(d) + " nodes " + std::to_string(1000 * d) +
            " nps 100000 time " + std::to_string(d) + " pv e2e4 e7e5");
      if (f.delay_ms > 0) sleep_ms(f.delay_ms);
      chess::MoveList moves = pos.legal_moves();
      std::string best;
      if (f.unparsable_move) {
        best = "xyz";
      } else if (illegal) {
        // a well-formed move that is not legal here
        for (int from = 0; from < 64 && best.empty(); ++from)
          for (int to = 0; to < 64 && best.empty(); ++to) {
            if (from == to) continue;
            std::string text =
                chess::square_name(chess::Square(from)) + chess::square_name(chess::Square(to));
            if (!chess::parse_uci(pos, text)) best = text;
          }
      } else if (auto m = mock::pick_move(moves, f.seed, rng)) {
        best = chess::to_uci(*m, chess960);
      } else {
        best = "0000";
      }
      if (!f.info_string.empty()) out("info string " + f.info_string);
      if (f.bad_mate_pv)
        out("info depth 3 score mate 2 nodes 20 time 0 pv " + best);
      else if (f.info_flood == 0)
        out("info depth 1 score cp 12 nodes 20 time 0 pv " + best);
      if (f.garbage) emit_garbage();
      out("bestmove " + best);
    } else if (cmd == "stop") {
      // searches are instant; nothing to stop
    } else if (cmd == "quit") {
      if (f.quit_delay_ms > 0) sleep_ms(f.quit_delay_ms);
      return 0;
    }
  }
  return 0;
}
