#pragma once
// Helpers shared by the search tests.
#include <atomic>
#include <cstdlib>
#include <string>

#include "engine/chess/position.h"
#include "engine/search/search.h"

namespace knightly::test {

inline bool quick() {
  const char* q = std::getenv("KNIGHTLY_QUICK");
  return q && *q && std::string(q) != "0";
}

inline chess::Position fen(const std::string& f) {
  auto p = chess::Position::from_fen(f);
  if (!p) throw std::runtime_error("bad test FEN " + f + ": " + p.error().message);
  return *p;
}

// The plain configuration under which minimax, negamax and alpha-beta must agree.
inline search::SearchConfig plain(search::Algorithm a) {
  search::SearchConfig c;
  c.algorithm = a;
  c.hash_mb = 0;
  c.move_ordering = false;
  c.quiescence = false;
  c.pruning = false;
  c.iterative_deepening = false;
  return c;
}

inline search::SearchResult run(search::Search& s, const chess::Position& pos,
                                search::Limits limits) {
  std::atomic<bool> stop{false};
  return s.go(pos, limits, stop);
}

inline search::SearchResult run_depth(const search::SearchConfig& c, const chess::Position& pos,
                                      int depth) {
  search::Search s(c);
  search::Limits l;
  l.depth = depth;
  return run(s, pos, l);
}

}  // namespace knightly::test
