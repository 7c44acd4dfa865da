#pragma once
// What an engine said about the move it played (its last `info` line with a score, or a builtin
// search's last iteration), and the two ways the match uses it: a single comparable score for
// adjudication, and cutechess's PGN comment text. The think time is not the engine's to say:
// the runner measures it (MoveReply::elapsed_ms, MoveRecord::time_ms).
#include <cstdint>
#include <optional>
#include <string>

namespace knightly {

struct MoveEval {
  std::optional<int> score_cp;  // mover's point of view
  std::optional<int> mate;      // UCI "score mate N": > 0 the mover mates in N moves
  int depth = 0;
  int seldepth = 0;
  std::uint64_t nodes = 0;
  // What the engine reported beside (fastchess's optional PGN fields); nullopt when it did
  // not say, so that no figure is ever made up (the PGN leaves such a field out).
  std::optional<std::uint64_t> nps;
  std::optional<std::int64_t> engine_time_ms;  // "info time" of its last scored line
  std::optional<int> hashfull;                 // permille
  std::optional<std::uint64_t> tbhits;
  // The principal variation of that line: UCI moves separated by spaces (an xboard engine's
  // as it wrote them); "" when it gave none.
  std::string pv;
  bool operator==(const MoveEval&) const = default;
};

// cutechess's scale: centipawns, mate in N moves = 30001 - 2N, mated in N = -30000 + 2N,
// so mate scores pass any adjudication threshold. nullopt when the engine gave no score.
std::optional<int> comparable_score(const MoveEval& eval);

// cutechess's score text: "+0.35", "-1.20", "0.00", mate as plies "+M5" / "-M4"; "" without a
// score or a depth.
std::string score_text(const MoveEval& eval);
void append_score_text(std::string& out, const MoveEval& eval);
// cutechess's move comment for a move that took `time_ms`: "+0.35/12 0.52s", "+M1/3 0.001s";
// "" for an empty evaluation. Time precision follows cutechess: 3 decimals under 0.1 s, 2 under
// 1 s, 1 under 10 s.
std::string eval_comment(const MoveEval& eval, std::int64_t time_ms);
// Appends `ms` as seconds with `precision` decimals and an "s", as printf's "%.*fs" writes them.
void append_seconds(std::string& out, std::int64_t ms, int precision);

}  // namespace knightly
