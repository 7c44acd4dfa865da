// knightly-bench-pgn: the PGN side of scripts/bench-db's import benchmark.
//
//   knightly-bench-pgn generate FILE MB   writes about MB megabytes of PGN: seeded random legal
//                                         games (as cutechess writes them: tags, SAN, a
//                                         comment per move) repeated under other Event tags,
//                                         so every game is distinct
//   knightly-bench-pgn parse FILE         reads FILE with the PGN reader alone, a block of
//                                         games at a time, and prints games/s: the anchor the
//                                         import's rate is printed beside
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "engine/chess/notation.h"
#include "engine/chess/pgn.h"
#include "engine/chess/position.h"
#include "engine/chess/splitmix64.h"

namespace {

using namespace knightly;

// One random game of at most 120 plies, ended by the rules or cut with an adjudicated result.
std::string random_game_movetext(chess::SplitMix64& rng, std::string& result) {
  chess::Position pos;
  std::string text;
  int ply = 0;
  for (; ply < 120; ++ply) {
    const chess::MoveList legal = pos.legal_moves();
    if (legal.empty() || pos.game_end(legal) != chess::GameEnd::None) break;
    const chess::Move m = legal[rng.below(legal.size())];
    if (ply % 2 == 0) text += std::to_string(ply / 2 + 1) + ". ";
    text += chess::to_san(pos, m);
    text += " {+0.";
    text += std::to_string(rng.below(90) + 10);
    text += "/12 0.1";
    text += std::to_string(rng.below(9));
    text += "s} ";
    pos.do_move(m);
  }
  const chess::GameEnd end = pos.game_end();
  if (end == chess::GameEnd::Checkmate)
    result = pos.side_to_move() == chess::White ? "0-1" : "1-0";
  else if (end != chess::GameEnd::None)
    result = "1/2-1/2";
  else
    result = rng.below(3) == 0 ? "1/2-1/2" : (rng.below(2) ? "1-0" : "0-1");
  return text + result + "\n\n";
}

int generate(const std::string& path, long megabytes) {
  // 20,000 distinct games, then the same games again under other Events until the size.
  chess::SplitMix64 rng(20261127);
  std::vector<std::pair<std::string, std::string>> games;  // tags after Event, movetext
  for (int i = 0; i < 20000; ++i) {
    std::string result;
    std::string moves = random_game_movetext(rng, result);
    std::string tags = "[Site \"bench\"]\n[Date \"2026.11.27\"]\n[Round \"" +
                       std::to_string(i + 1) + "\"]\n[White \"engine-" + std::to_string(i % 37) +
                       "\"]\n[Black \"engine-" + std::to_string((i + 11) % 37) + "\"]\n[Result \"" +
                       result + "\"]\n[TimeControl \"10+0.1\"]\n\n";
    games.emplace_back(std::move(tags), std::move(moves));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const std::uint64_t limit = std::uint64_t(megabytes) << 20;
  std::uint64_t written = 0;
  long count = 0;
  for (int block = 0; written < limit; ++block)
    for (const auto& [tags, moves] : games) {
      const std::string event = "[Event \"bench " + std::to_string(block) + "\"]\n";
      out << event << tags << moves;
      written += event.size() + tags.size() + moves.size();
      ++count;
      if (written >= limit) break;
    }
  out.close();
  if (!out) {
    std::fprintf(stderr, "knightly-bench-pgn: cannot write %s\n", path.c_str());
    return 2;
  }
  std::printf("generated %s: %ld games, %.1f MB\n", path.c_str(), count, double(written) / 1e6);
  return 0;
}

int parse(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "knightly-bench-pgn: cannot read %s\n", path.c_str());
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  long games = 0, errors = 0;
  std::string block, line;
  // About 4 MB of whole games at a time (a game starts at an [Event line).
  const auto read_block = [&] {
    for (std::string text; std::getline(in, line);) {
      if (line.starts_with("[Event ") && block.size() >= (4u << 20)) {
        chess::PgnReader reader(block);
        while (auto g = reader.next()) (*g ? games : errors)++;
        block.clear();
      }
      block += line;
      block += '\n';
    }
    chess::PgnReader reader(block);
    while (auto g = reader.next()) (*g ? games : errors)++;
  };
  read_block();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "parse only (the PGN reader, no store): %ld games (%ld errors) in %.2f s = %.0f games/s, "
      "peak RSS %ld KB\n",
      games, errors, s, double(games) / s, usage.ru_maxrss);
  return errors == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "generate" && argc == 4) return generate(argv[2], std::atol(argv[3]));
  if (mode == "parse" && argc == 3) return parse(argv[2]);
  std::fprintf(stderr, "usage: knightly-bench-pgn generate FILE MB | parse FILE\n");
  return 2;
}
