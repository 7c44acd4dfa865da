#include "engine/eval/evaluator.h"

#include <cctype>

#include "engine/chess/bitboard.h"
#include "engine/eval/terms.h"

namespace knightly::eval {

namespace {

constexpr std::string_view Names[] = {"material", "pst", "tension", "mobility", "random"};

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

std::string_view term_name(Term t) {
  return Names[int(t)];
}

Evaluator::Evaluator() : terms_{{Term::Material, 100}, {Term::Pst, 100}} {}

std::expected<Evaluator, EvalError> Evaluator::parse(std::string_view spec) {
  Evaluator ev;
  ev.terms_.clear();
  std::size_t start = 0;
  while (true) {
    std::size_t plus = spec.find('+', start);
    std::string_view raw =
        spec.substr(start, plus == std::string_view::npos ? spec.npos : plus - start);
    std::string item = lower(trim(raw));
    if (item.empty())
      return std::unexpected(EvalError{start,
                                       "empty term (terms are joined by '+': material, pst, "
                                       "tension, mobility, random)"});
    std::string name = item;
    int weight = -1;
    if (auto colon = item.find(':'); colon != std::string::npos) {
      name = trim(item.substr(0, colon));
      std::string num = trim(item.substr(colon + 1));
      bool ok = !num.empty() && num.size() <= 6;
      for (char c : num) ok = ok && std::isdigit(static_cast<unsigned char>(c));
      if (!ok)
        return std::unexpected(EvalError{
            start, "weight of '" + name + "' must be a whole number 0-999999, got '" + num + "'"});
      weight = std::stoi(num);
    }
    int index = -1;
    for (int i = 0; i < 5; ++i)
      if (name == Names[i]) index = i;
    if (index < 0)
      return std::unexpected(EvalError{
          start,
          "unknown term '" + name + "' (expected material, pst, tension, mobility or random)"});
    Term t = Term(index);
    for (const auto& w : ev.terms_)
      if (w.term == t) return std::unexpected(EvalError{start, "term '" + name + "' given twice"});
    ev.terms_.push_back({t, weight < 0 ? 100 : weight});
    if (plus == std::string_view::npos) break;
    start = plus + 1;
  }
  ev.material_pst_ = ev.terms_.size() == 2 && ev.terms_[0].weight == 100 &&
                     ev.terms_[1].weight == 100 &&
                     ((ev.terms_[0].term == Term::Material && ev.terms_[1].term == Term::Pst) ||
                      (ev.terms_[0].term == Term::Pst && ev.terms_[1].term == Term::Material));
  return ev;
}

int Evaluator::evaluate_white(const chess::Position& pos) const {
  // One pass over the board gives both material(pos) and pst(pos) (terms.h).
  return evaluate_white(pos, piece_sums(pos));
}

int Evaluator::evaluate_white_terms(const chess::Position& pos, const PieceSums& sums) const {
  int score = 0;
  for (const auto& [term, weight] : terms_) {
    int v = 0;
    switch (term) {
      case Term::Material:
        v = sums.material;
        if (knight_delta_ != 0)
          v += knight_delta_ * (chess::popcount_fast(pos.pieces(chess::White, chess::Knight)) -
                                chess::popcount_fast(pos.pieces(chess::Black, chess::Knight)));
        break;
      case Term::Pst:
        v = sums.pst + pst_kings(pos);
        break;
      case Term::Tension:
        v = tension(pos);
        break;
      case Term::Mobility:
        v = mobility(pos);
        break;
      case Term::Random:
        score += random_score(pos.key(), seed_, weight);
        continue;
    }
    score += weight == 100 ? v : v * weight / 100;
  }
  return score;
}

int Evaluator::evaluate(const chess::Position& pos) const {
  int s = evaluate_white(pos);
  return pos.side_to_move() == chess::White ? s : -s;
}

std::string Evaluator::spec() const {
  std::string s;
  for (const auto& [term, weight] : terms_) {
    if (!s.empty()) s += '+';
    s += term_name(term);
    if (weight != 100) {
      s += ':';
      s += std::to_string(weight);
    }
  }
  return s;
}

}  // namespace knightly::eval
