#include "engine/chess/epd.h"

#include <cctype>

#include "engine/base/ascii.h"

namespace knightly::chess {

const std::vector<std::string>* Epd::find(const std::string& opcode) const {
  auto it = operations.find(opcode);
  return it == operations.end() ? nullptr : &it->second;
}

namespace {

using base::is_space;

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Next whitespace-separated token starting at `pos`; advances `pos` past it.
std::string_view next_token(std::string_view s, std::size_t& pos) {
  while (pos < s.size() && is_space(s[pos])) ++pos;
  std::size_t start = pos;
  while (pos < s.size() && !is_space(s[pos])) ++pos;
  return s.substr(start, pos - start);
}

}  // namespace

std::expected<Epd, FenError> parse_epd(std::string_view line) {
  std::size_t pos = 0;
  std::string fen;
  for (int i = 0; i < 4; ++i) {
    std::string_view tok = next_token(line, pos);
    if (tok.empty()) break;
    if (i) fen += ' ';
    fen += tok;
  }
  // Optional halfmove and fullmove counters (a full FEN line).
  std::size_t after4 = pos;
  std::string_view t5 = next_token(line, pos);
  std::string_view t6 = next_token(line, pos);
  if (all_digits(t5) && all_digits(t6)) {
    fen += ' ';
    fen += t5;
    fen += ' ';
    fen += t6;
  } else {
    pos = after4;
  }
  auto position = Position::from_fen(fen);
  if (!position) return std::unexpected(position.error());

  Epd epd{*position, {}};
  // Operations: opcode operand... ; with "quoted operands" kept whole.
  std::vector<std::string> words;
  std::string word;
  bool in_quote = false, quoted = false;
  auto end_word = [&] {
    if (!word.empty() || quoted) words.push_back(word);
    word.clear();
    quoted = false;
  };
  auto end_op = [&] {
    end_word();
    if (!words.empty()) {
      std::string opcode = words.front();
      words.erase(words.begin());
      epd.operations[opcode] = std::move(words);
    }
    words.clear();
  };
  for (std::size_t i = pos; i < line.size(); ++i) {
    char c = line[i];
    if (in_quote) {
      if (c == '"')
        in_quote = false;
      else
        word += c;
    } else if (c == '"') {
      in_quote = true;
      quoted = true;
    } else if (c == ';') {
      end_op();
    } else if (is_space(c)) {
      end_word();
    } else {
      word += c;
    }
  }
  if (in_quote) return std::unexpected(FenError{0, "operations: unterminated quoted string"});
  end_op();  // the last operation may lack its ';'
  return epd;
}

}  // namespace knightly::chess
