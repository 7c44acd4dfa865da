#pragma once
// Reads tests/data/perft.epd independently of the code under test: "FEN ;D1 n ;D2 n ...".
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tests/test_data.h"

namespace knightly::test {

struct PerftCase {
  std::string fen;
  int line = 0;
  std::vector<std::pair<int, std::uint64_t>> depths;  // (depth, count)
};

inline std::vector<PerftCase> load_perft_cases() {
  std::ifstream in(data_path("perft.epd"));
  if (!in) throw std::runtime_error("cannot open " + data_path("perft.epd"));
  std::vector<PerftCase> cases;
  std::string text;
  int line_no = 0;
  while (std::getline(in, text)) {
    ++line_no;
    if (text.empty() || text[0] == '#') continue;
    PerftCase c;
    c.line = line_no;
    auto semi = text.find(';');
    c.fen = text.substr(0, semi);
    while (!c.fen.empty() && c.fen.back() == ' ') c.fen.pop_back();
    while (semi != std::string::npos) {
      auto next = text.find(';', semi + 1);
      std::istringstream op(
          text.substr(semi + 1, next == std::string::npos ? std::string::npos : next - semi - 1));
      std::string d;
      std::uint64_t n = 0;
      if (op >> d >> n && d.size() > 1 && d[0] == 'D')
        c.depths.emplace_back(std::stoi(d.substr(1)), n);
      semi = next;
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

inline bool quick_mode() {
  const char* q = std::getenv("KNIGHTLY_QUICK");
  return q && *q && std::string(q) != "0";
}

}  // namespace knightly::test
