#include "db/records/move_eval.h"

#include <charconv>
#include <cstdlib>

namespace knightly {

namespace {
constexpr int MateScore = 30000;
}

std::optional<int> comparable_score(const MoveEval& eval) {
  if (eval.mate) {
    int n = *eval.mate;
    if (n > 0) return MateScore + 1 - 2 * n;
    if (n < 0) return -MateScore - 2 * n;
    return -MateScore;  // "mate 0": the mover is mated already
  }
  return eval.score_cp;
}

namespace {

// Appends `v` in decimal.
void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

}  // namespace

void append_score_text(std::string& out, const MoveEval& eval) {
  auto score = comparable_score(eval);
  if (!score || eval.depth <= 0) return;
  if (eval.mate && *eval.mate == 0) {
    out += "-M0";
    return;
  }
  int abs_score = std::abs(*score);
  if (abs_score > MateScore - 200) {
    // cutechess: 1000 - (|score| % 1000) is the number of plies to mate, for both signs.
    out += *score > 0 ? "+M" : "-M";
    append_int(out, 1000 - (abs_score % 1000));
    return;
  }
  // Pawns with two decimals, as "%+.2f" of score / 100 writes them (no sign for 0), from the
  // integer: exact, and a PGN comment per move is written for every stored game.
  if (*score != 0) out += *score > 0 ? '+' : '-';
  append_int(out, abs_score / 100);
  out += '.';
  out += char('0' + abs_score % 100 / 10);
  out += char('0' + abs_score % 10);
}

std::string score_text(const MoveEval& eval) {
  std::string text;
  append_score_text(text, eval);
  return text;
}

void append_seconds(std::string& out, std::int64_t ms, int precision) {
  // std::to_chars rounds the double exactly as printf's "%.*f" does (both are exact), at a
  // fraction of printf's cost: this runs for every move of every stored game.
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, double(ms) / 1000.0, std::chars_format::fixed,
                               precision);
  out.append(buf, r.ptr);
  out += 's';
}

std::string eval_comment(const MoveEval& eval, std::int64_t time_ms) {
  bool empty = eval.depth == 0 && eval.seldepth == 0 && !eval.score_cp && !eval.mate &&
               eval.nodes == 0 && time_ms < 500;
  if (empty) return "";
  std::string s;
  append_score_text(s, eval);
  if (!s.empty()) {
    s += '/';
    append_int(s, eval.depth);
    s += ' ';
  }
  std::int64_t t = time_ms;
  if (t <= 0) return s + "0s";
  append_seconds(s, t, t < 100 ? 3 : t < 1000 ? 2 : t < 10000 ? 1 : 0);
  return s;
}

}  // namespace knightly
