#pragma once
// An evaluation built from the string of the `Eval` option: terms joined by '+', each
// optionally weighted, e.g. "material+pst", "material+tension:50", "random:300".
//   material, pst, tension, mobility: `:N` scales the term to N percent (default 100);
//   random: `:N` is the amplitude in centipawns (default 100).
// Scores are centipawns from the side to move's point of view; mate and draw scores are the
// search's business (exact), never the evaluation's.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/position.h"
#include "engine/eval/terms.h"

namespace knightly::eval {

enum class Term : std::uint8_t { Material, Pst, Tension, Mobility, Random };

struct WeightedTerm {
  Term term;
  int weight;  // percent, or the amplitude in cp for Random
};

// What is wrong with an Eval string and where (0-based character offset).
struct EvalError {
  std::size_t offset = 0;
  std::string message;
};

class Evaluator {
 public:
  Evaluator();  // material+pst
  static std::expected<Evaluator, EvalError> parse(std::string_view spec);

  // Seed of the random term (the search passes its own).
  void set_seed(std::uint64_t seed) { seed_ = seed; }
  // The knight's value in the material term, centipawns: PieceValue's 320 unless set (the
  // KnightValue option, the parameter docs/tuning.md's demo tunes).
  void set_knight_value(int cp) { knight_delta_ = cp - PieceValue[chess::Knight]; }
  int knight_value() const { return PieceValue[chess::Knight] + knight_delta_; }

  int evaluate(const chess::Position& pos) const;        // side to move's point of view
  int evaluate_white(const chess::Position& pos) const;  // White's point of view
  // The same, given pos's piece_sums() (kept up to date move by move by the search): the
  // material and pst terms then cost a few reads instead of a pass over the board.
  int evaluate_white(const chess::Position& pos, const PieceSums& sums) const {
    // The default evaluation, inline: the search asks at nearly every node.
    if (material_pst_ && knight_delta_ == 0) return sums.material + sums.pst + pst_kings(pos);
    return evaluate_white_terms(pos, sums);
  }
  const std::vector<WeightedTerm>& terms() const { return terms_; }
  std::string spec() const;  // canonical text, parse(spec()) gives the same evaluator

 private:
  int evaluate_white_terms(const chess::Position& pos, const PieceSums& sums) const;

  std::vector<WeightedTerm> terms_;
  bool material_pst_ = true;  // terms_ is material+pst, both at 100
  int knight_delta_ = 0;      // the knight's value less PieceValue's
  std::uint64_t seed_ = 1;
};

std::string_view term_name(Term t);

}  // namespace knightly::eval
