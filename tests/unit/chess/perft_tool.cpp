// perft_tool: `perft_tool [perft] N [FEN]` prints one "move: count" line per root move, then
// "Nodes searched: N" and the time, like `knightly-engine perft`. Used by scripts/bench-perft
// when the engine program is not built.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/chess/notation.h"
#include "engine/chess/perft.h"
#include "engine/chess/position.h"

int main(int argc, char** argv) {
  using namespace knightly::chess;
  // Accept the engine's `perft N [FEN]` form too, so scripts can call either program.
  if (argc > 1 && std::string(argv[1]) == "perft") {
    ++argv;
    --argc;
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: perft_tool [perft] DEPTH [FEN]\n");
    return 2;
  }
  int depth = std::atoi(argv[1]);
  std::string fen(Position::StartFen);
  if (argc > 2) {
    fen.clear();
    for (int i = 2; i < argc; ++i) fen += std::string(i > 2 ? " " : "") + argv[i];
  }
  auto pos = Position::from_fen(fen);
  if (!pos) {
    std::fprintf(stderr, "bad FEN (field %d): %s\n", pos.error().field,
                 pos.error().message.c_str());
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  for (auto [m, n] : perft_divide(*pos, depth)) {
    std::printf("%s: %llu\n", to_uci(m).c_str(), static_cast<unsigned long long>(n));
    total += n;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("\nNodes searched: %llu\n", static_cast<unsigned long long>(total));
  std::printf("Time: %.0f ms (%.1f Mnps)\n", secs * 1000, secs > 0 ? total / secs / 1e6 : 0.0);
  return 0;
}
